import { isUtf8 } from 'node:buffer';

/**
 * Control codes that text does not use (tab, newlines, form feed, backspace and escape do occur):
 * 0x01-0x07, 0x0e-0x1a, 0x1c-0x1f and 0x7f, marked by byte value.
 */
const UNUSUAL_CONTROL = new Uint8Array(256);
for (const [from, to] of [
  [0x01, 0x07],
  [0x0e, 0x1a],
  [0x1c, 0x1f],
  [0x7f, 0x7f],
] as const) {
  UNUSUAL_CONTROL.fill(1, from, to + 1);
}

/** Whether any byte is an unusual control code: a table lookup per byte, no decoding. */
function hasUnusualControl(sample: Buffer): boolean {
  for (let i = 0; i < sample.length; i++) if (UNUSUAL_CONTROL[sample[i]!] === 1) return true;
  return false;
}

/** Share of suspicious characters (invalid UTF-8, control codes) above which a sample is binary. */
const SUSPICIOUS_SHARE = 0.1;

/** The UTF-8 encoding of U+FFFD, which a text file may contain legitimately. */
const REPLACEMENT_BYTES = Buffer.from('\uFFFD');

/**
 * Whether the first bytes of a file look binary: any NUL byte, or more than a tenth of the
 * characters being invalid UTF-8 or control codes that text does not use. A few stray bytes (a
 * Latin-1 accent) do not make a file binary; a UTF-16 or compiled file does.
 */
export function looksBinary(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  if (sample.includes(0)) return true;
  // Fast path for the common case: valid UTF-8 (checked in native code) without unusual control codes.
  if (isUtf8(sample) && !hasUnusualControl(sample)) return false;
  // stream: true leaves a multi-byte character cut by the end of the sample undecoded, not invalid.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(sample, { stream: true });
  let suspicious = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) suspicious++;
    // Tab, newline, vertical tab, form feed, carriage return, backspace and escape occur in text.
    else if ((c < 0x20 && !(c >= 0x08 && c <= 0x0d) && c !== 0x1b) || c === 0x7f) suspicious++;
  }
  let genuine = sample.indexOf(REPLACEMENT_BYTES);
  while (genuine !== -1) {
    suspicious--;
    genuine = sample.indexOf(REPLACEMENT_BYTES, genuine + REPLACEMENT_BYTES.length);
  }
  return suspicious > text.length * SUSPICIOUS_SHARE;
}
