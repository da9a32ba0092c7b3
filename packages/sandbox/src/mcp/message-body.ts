import type { IncomingMessage } from 'node:http';

/** The request body was larger than the limit: answered 413, nothing more of it is read. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`message larger than ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * A request's whole body as UTF-8 text, refused (BodyTooLarge) as soon as it passes `limit` bytes,
 * by its Content-Length before anything is read or by what arrived otherwise. Rejects when the
 * client goes away before the end.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(new BodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString());
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the client went away before the end of its message'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}
