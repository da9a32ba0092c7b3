/** Kubernetes object names, as the dashboard checks them. */
export const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export const OBJECT_NAME_HINT =
  'Lower-case letters, digits, “-” and “.”, starting and ending with a letter or digit.';

/** Why a name cannot name a new object, or null when it can. */
export function objectNameProblem(name: string): string | null {
  return OBJECT_NAME.test(name) ? null : `The name is not a valid object name. ${OBJECT_NAME_HINT}`;
}
