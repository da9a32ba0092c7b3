/** Just enough DER (ITU-T X.690) to write a self-signed X.509 certificate. */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
export const set = (...items: Buffer[]) => tlv(0x31, ...items);
export const octetString = (content: Buffer) => tlv(0x04, content);
export const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0]));
/** A context-specific explicit tag, [n] EXPLICIT. */
export const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
/** A context-specific implicit primitive tag, [n] IMPLICIT. */
export const implicit = (n: number, content: Buffer) => tlv(0x80 + n, content);

/** A non-negative INTEGER from big-endian bytes. */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function bitString(content: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.from([unusedBits]), content);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const group: number[] = [part & 0x7f];
    for (let rest = part >>> 7; rest > 0; rest >>>= 7) group.unshift((rest & 0x7f) | 0x80);
    bytes.push(...group);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on, as RFC 5280 requires. */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}
