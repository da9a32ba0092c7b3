import { isUtf8 } from 'node:buffer';

/** Control codes that text does not use (tab, newlines, form feed, backspace and escape do occur). */
// eslint-disable-next-line no-control-regex -- finding control codes is the point
const UNUSUAL_CONTROL = /[\x01-\x07\x0e-\x1a\x1c-\x1f\x7f]/;

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
  // Fast path for the common case, in native code: valid UTF-8 without unusual control codes.
  if (isUtf8(sample) && !UNUSUAL_CONTROL.test(sample.toString('latin1'))) return false;
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
