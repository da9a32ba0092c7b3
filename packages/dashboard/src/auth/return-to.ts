/** Where the browser goes after sign-in when nothing (or nothing acceptable) was asked for. */
export const DEFAULT_RETURN_TO = '/';
/** Longest returnTo kept: a path, not a document. */
const MAX_RETURN_TO_CHARS = 2048;

/**
 * The returnTo of a sign-in, if it is a same-origin relative path: one leading `/` followed by
 * anything but a second `/` or a backslash (browsers read `//evil` and `/\evil` as another host),
 * no control characters, and no scheme. Anything else becomes DEFAULT_RETURN_TO.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_TO_CHARS) {
    return DEFAULT_RETURN_TO;
  }
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return DEFAULT_RETURN_TO;
  }
  // Browsers strip tabs and newlines from URLs before parsing, so `/\t/evil` becomes `//evil`.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_RETURN_TO;
  // The path must stay on this origin when resolved the way a browser resolves it.
  const base = 'http://paddock.invalid';
  const resolved = new URL(value, base);
  if (resolved.origin !== base) return DEFAULT_RETURN_TO;
  return resolved.pathname + resolved.search + resolved.hash;
}
