import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { errors } from '../api/api-error.js';

/** Kubernetes' limit on a request body. */
export const BODY_LIMIT = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw errors.tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The media type of a request, without parameters, lower-cased. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Parses a JSON (or YAML) body; malformed bodies are 400. */
export function parseBody(text: string, type: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    if (type.includes('yaml')) return parseYaml(text) as unknown;
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw errors.badRequest(
      `the body of the request could not be decoded: ${(err as Error).message}`,
    );
  }
}
