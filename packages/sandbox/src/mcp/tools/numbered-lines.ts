import { READ_MAX_LINE_CHARS } from './limits.js';

/** One line as Read shows it: the 1-based number, a tab, the text. */
export function numberedLine(n: number, text: string): string {
  return `${n}\t${text}`;
}

/** The marker ending a line cut at READ_MAX_LINE_CHARS. */
export function lineTruncatedMarker(moreChars: number): string {
  return `… [line truncated, ${moreChars} more characters]`;
}

/**
 * Cuts a line to READ_MAX_LINE_CHARS characters (never inside a surrogate pair) and adds the marker;
 * `extraChars` counts characters of the line already dropped before it was decoded.
 */
export function capLine(text: string, extraChars = 0): string {
  if (text.length <= READ_MAX_LINE_CHARS && extraChars === 0) return text;
  let cut = Math.min(text.length, READ_MAX_LINE_CHARS);
  const last = text.charCodeAt(cut - 1);
  if (cut < text.length && last >= 0xd800 && last <= 0xdbff) cut--;
  let more = extraChars;
  for (const _ of text.slice(cut)) more++;
  return `${text.slice(0, cut)}${lineTruncatedMarker(more)}`;
}
