/**
 * Where a browser may be sent back to after signing in: the one decision the dashboard's server
 * (its OAuth callback's Location) and its web interface (links, `location.assign`, router
 * navigation) both make. Pure and free of Node's modules, so that the web interface bundles it.
 */

/** Where the browser goes when nothing, or nothing acceptable, was asked for. */
export const DEFAULT_RETURN_PATH = '/';

/** Longest return path kept: a path with its query, not a document. */
export const MAX_RETURN_PATH_CHARS = 2048;

/**
 * Rounds of percent-decoding looked through. `%252F` needs two to become `/`; a value still
 * changing after this many is refused rather than decoded further.
 */
export const MAX_RETURN_PATH_DECODES = 4;

/** An origin no request can come from, to resolve paths against the way a browser does. */
const PROBE_ORIGIN = 'http://return-path.invalid';

/**
 * Characters a browser drops or reads differently in a URL (tab, newline and other C0 controls,
 * DEL, the backslash it takes as `/`): `/\t/evil` is `//evil` to a browser. Refused anywhere.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** A same-origin path: one `/`, then anything but a second `/` or a `\`. */
function isPathOnThisOrigin(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}

/** One round of percent-decoding, or the value as it is when it holds a malformed escape. */
function decodeOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * True when every decoded form of the value (up to MAX_RETURN_PATH_DECODES rounds, until it stops
 * changing) is a same-origin path without unsafe characters: `/%2F%2Fevil`, `/%09/evil` and
 * `/%5Cevil` are refused, so that no later decoding (a router, a proxy) can make them another host.
 */
function survivesDecoding(value: string): boolean {
  let current = value;
  for (let round = 0; round <= MAX_RETURN_PATH_DECODES; round++) {
    if (!isPathOnThisOrigin(current) || UNSAFE_CHARACTERS.test(current)) return false;
    const next = decodeOnce(current);
    if (next === current) return true;
    current = next;
  }
  return false;
}

/** The path as a browser would request it (dot segments resolved, characters escaped), or undefined. */
function normalized(value: string): string | undefined {
  let resolved: URL;
  try {
    resolved = new URL(value, PROBE_ORIGIN);
  } catch {
    return undefined;
  }
  if (resolved.origin !== PROBE_ORIGIN) return undefined;
  return resolved.pathname + resolved.search + resolved.hash;
}

/**
 * The path to return to after sign-in: `value` when it is a path of this origin, else
 * DEFAULT_RETURN_PATH. Accepted is a string of at most MAX_RETURN_PATH_CHARS that starts with one
 * `/` not followed by `/` or `\`, holds no control character nor backslash (raw or
 * percent-encoded, through repeated decoding), and still does all that once normalized the way a
 * browser resolves it: `/.//evil` normalizes to `//evil` and is refused. The answer is the
 * normalized form, which passes this check again unchanged.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_PATH_CHARS) {
    return DEFAULT_RETURN_PATH;
  }
  if (!survivesDecoding(value)) return DEFAULT_RETURN_PATH;
  const path = normalized(value);
  if (path === undefined || path.length > MAX_RETURN_PATH_CHARS || !survivesDecoding(path)) {
    return DEFAULT_RETURN_PATH;
  }
  // A second normalization must change nothing: what is returned is final.
  return normalized(path) === path ? path : DEFAULT_RETURN_PATH;
}
