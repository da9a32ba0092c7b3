import { goQuote } from './go-format.js';

/**
 * The message of Kubernetes' 403 Forbidden Status (apierrors.NewForbidden): `<resource>[.<group>]
 * ["<name>"] is forbidden: <reason>`, or `forbidden: <reason>` when no resource is involved.
 */
export function forbiddenStatusMessage(
  group: string,
  resource: string,
  name: string | undefined,
  reason: string,
): string {
  if (group === '' && resource === '') return `forbidden: ${reason}`;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return name
    ? `${qualified} ${goQuote(name)} is forbidden: ${reason}`
    : `${qualified} is forbidden: ${reason}`;
}
