/**
 * A failure caused by the caller's request: reported as a normal result with isError true. A
 * module of its own so that what tools use (background shells, file helpers) can throw it without
 * importing the tool contract, which refers back to the session those shells belong to.
 */
export class ToolFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolFailure';
  }
}
