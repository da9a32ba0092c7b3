/** How much of a tool's answer is read; the rest is dropped and the text says so. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** What ends an answer that was cut. */
export function cutMarker(limit: number): string {
  return `\n[answer cut: longer than ${limit} bytes]`;
}

/** The text, cut to `limit` bytes of UTF-8 with the marker when longer. */
export function cutText(text: string, limit = MAX_RESPONSE_BYTES): string {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: shorter texts need no encoding to know they fit.
  if (text.length * 3 <= limit) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  return new TextDecoder().decode(bytes.subarray(0, limit)) + cutMarker(limit);
}

/** A response body as text, reading at most `limit` bytes and cancelling the rest. */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  limit = MAX_RESPONSE_BYTES,
): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    if (read + value.length > limit) {
      text += decoder.decode(value.subarray(0, limit - read));
      await reader.cancel().catch(() => undefined);
      return text + cutMarker(limit);
    }
    read += value.length;
    text += decoder.decode(value, { stream: true });
  }
}
