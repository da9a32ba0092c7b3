/**
 * Go's formatting of the values Kubernetes puts in its RBAC messages (`%q` of a string or a string
 * slice, an aggregate of errors), so clients that match on those messages see the same text.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const NAMED_ESCAPES: Record<string, string> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** Go's `%q` of a string (strconv.Quote). */
export function goQuote(value: string): string {
  let quoted = '"';
  for (const char of value) {
    if (char === '"' || char === '\\') quoted += `\\${char}`;
    else if (PRINTABLE.test(char)) quoted += char;
    else quoted += escape(char);
  }
  return `${quoted}"`;
}

function escape(char: string): string {
  const named = NAMED_ESCAPES[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `\\x${hex(code, 2)}`;
  return code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** The text of Kubernetes' aggregate error: one message alone, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const distinct = [...new Set(messages)];
  return distinct.length <= 1 ? (distinct[0] ?? '') : `[${distinct.join(', ')}]`;
}
