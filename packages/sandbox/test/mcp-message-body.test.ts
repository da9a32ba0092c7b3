import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BodyTooLarge, readBody } from '../src/mcp/message-body.js';

const LIMIT = 64;

describe('readBody', () => {
  let server: Server;
  let port: number;

  before(async () => {
    // Answers what readBody made of the body: its text, or the name of the refusal.
    server = createServer((req, res) => {
      readBody(req, LIMIT).then(
        (text) => res.end(`text:${text}`),
        (err: Error) => res.writeHead(err instanceof BodyTooLarge ? 413 : 500).end(err.name),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Posts the chunks one by one (chunked, no Content-Length unless given); status and body. */
  function post(chunks: Buffer[], headers: Record<string, string> = {}) {
    return new Promise<[number, string]>((resolve, reject) => {
      const req = request({ port, method: 'POST', headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve([res.statusCode!, body]));
      });
      // The server may answer and close before the whole body is sent: that is the point.
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  it('joins the chunks into the text, a character split between chunks included', async () => {
    const bytes = Buffer.from('{"a":"ünï✓"}');
    assert.deepEqual(await post([bytes.subarray(0, 8), bytes.subarray(8)]), [
      200,
      'text:{"a":"ünï✓"}',
    ]);
  });

  it('takes a body of exactly the limit', async () => {
    assert.deepEqual(await post([Buffer.alloc(LIMIT, 'x')]), [200, `text:${'x'.repeat(LIMIT)}`]);
  });

  it('refuses by the Content-Length it announces, before reading', async () => {
    const [status, body] = await post([Buffer.alloc(LIMIT + 1, 'x')], {
      'content-length': String(LIMIT + 1),
    });
    assert.deepEqual([status, body], [413, 'BodyTooLarge']);
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const half = Buffer.alloc(LIMIT / 2 + 1, 'x');
    assert.deepEqual(await post([half, half]), [413, 'BodyTooLarge']);
  });
});
