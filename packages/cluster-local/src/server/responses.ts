import type { ServerResponse } from 'node:http';
import type { Status } from '../api/api-error.js';

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

export function sendStatus(res: ServerResponse, status: Status): void {
  sendJson(res, status.code, status);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
