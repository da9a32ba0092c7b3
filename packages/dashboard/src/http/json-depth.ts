/**
 * Deepest nesting of objects and arrays a JSON body may have (the top-level value is level 1).
 * Every document the dashboard takes (a ToolRegistry spec with its tools' JSON Schemas included)
 * fits in far fewer; a deeper one would only make the code that walks it (validation, copies, the
 * cluster's own checks) recurse until the stack runs out.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether a JSON text nests objects and arrays deeper than `limit`. One pass over the text, in
 * constant memory and without recursion, before anything parses it: brackets inside strings do
 * not count. Malformed text is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** The sentence of the refusal (400 invalid_request). */
export function tooDeepMessage(limit: number): string {
  return `the JSON body is nested deeper than ${limit} levels of objects and arrays`;
}
