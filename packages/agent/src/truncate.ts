// A tool result is cut before the model reads it: a whole build log would spend the run's tokens
// (and overflow the context) on output the model rarely needs whole. The head and the tail stay,
// since a command's errors usually come last.

/** The default bound on one tool result as the model gets it, in characters. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 32_000;
/** The share of the kept characters taken from the start; the rest comes from the end. */
const HEAD_SHARE = 0.75;

export interface Truncated {
  text: string;
  truncated: boolean;
  /** Characters left out (0 when the text was kept whole). */
  omitted: number;
}

/** The marker standing in for what was left out. */
export function truncationMarker(omitted: number, total: number): string {
  return `\n\n[... ${omitted} of ${total} characters left out here ...]\n\n`;
}

/**
 * `text` at most `maxChars` long: whole when it fits, otherwise its head and tail around a marker
 * naming how much was left out (the marker alone when the bound leaves no room beside it).
 */
export function truncateForModel(text: string, maxChars: number): Truncated {
  if (text.length <= maxChars) return { text, truncated: false, omitted: 0 };
  // The marker's length depends on the count it names: size it for the largest possible count.
  const room = Math.max(0, maxChars - truncationMarker(text.length, text.length).length);
  let head = Math.floor(room * HEAD_SHARE);
  let tailStart = text.length - (room - head);
  // Never split a surrogate pair: a lone half is not text.
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  const omitted = tailStart - head;
  return {
    text: text.slice(0, head) + truncationMarker(omitted, text.length) + text.slice(tailStart),
    truncated: true,
    omitted,
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
