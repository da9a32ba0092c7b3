/**
 * A failure the person can act on (the sandbox refused, a file has the wrong mode, a tool is
 * missing): the command prints its message as one line and exits 1, without a stack.
 */
export class ForwardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForwardError';
  }
}

/** The innermost cause's message: fetch reports `fetch failed` with the reason underneath. */
export function causeMessage(err: unknown): string {
  let current: unknown = err;
  let message = err instanceof Error ? err.message : String(err);
  while (current instanceof Error && current.cause !== undefined) {
    current = current.cause;
    if (current instanceof Error && current.message !== '') message = current.message;
  }
  return message;
}
