import { closeSync, constants, createReadStream, fstatSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { basename, extname } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { httpErrors, HttpError } from '@paddock/common';
import type { FastifyReply } from 'fastify';
import type { Workspace } from '../workspace/containment.js';

/**
 * Largest answer /api/file sends in one response: a bigger file is refused (413) unless a Range asks
 * for a part within the cap, so a browser tab or IDE never pulls gigabytes by accident; /api/download
 * has no cap.
 */
export const FILE_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Read-only, never blocking (a FIFO swapped in after resolution would otherwise wait for a writer),
 * and never through a symlink swapped in for the last segment after resolution.
 */
export const OPEN_FOR_READING =
  constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY;

export type RangeRequest =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * A Range header (RFC 9110 §14.2) against a file of `size` bytes. One range is served: `a-b`, `a-`
 * and `-n`. A header that is malformed, names another unit, or asks for several ranges is ignored
 * (the whole file is the answer), as the RFC allows; a range starting past the end, an empty suffix
 * or any range of an empty file is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const unit = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!unit) return { kind: 'whole' };
  const specs = unit[1]!.split(',').map((s) => s.trim());
  if (specs.length !== 1) return { kind: 'whole' };
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec) return { kind: 'whole' };
  const [, first, last] = spec as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

export type FilePlan =
  { status: 200 | 206; start: number; end: number; length: number } | { status: 304 | 413 | 416 };

/** The request headers a file answer depends on. */
export interface ConditionalHeaders {
  range?: string | undefined;
  'if-none-match'?: string | undefined;
  'if-range'?: string | undefined;
}

export interface Validators {
  etag: string;
  lastModified: string;
}

/**
 * What to answer for a file of `size` bytes: 304 when If-None-Match names the current version, the
 * part a satisfiable Range asks for (unless If-Range names another version), 416 for an
 * unsatisfiable one, the whole file otherwise; 413 when what would be sent exceeds `maxBytes`.
 */
export function planFileResponse(
  size: number,
  headers: ConditionalHeaders,
  current: Validators,
  maxBytes: number,
): FilePlan {
  if (
    headers['if-none-match'] !== undefined &&
    etagListMatches(headers['if-none-match'], current.etag)
  ) {
    return { status: 304 };
  }
  const ifRange = headers['if-range']?.trim();
  const rangeApplies =
    ifRange === undefined || ifRange === current.etag || ifRange === current.lastModified;
  const range = rangeApplies ? parseRange(headers.range, size) : { kind: 'whole' as const };
  if (range.kind === 'unsatisfiable') return { status: 416 };
  const [status, start, end] =
    range.kind === 'part' ? [206 as const, range.start, range.end] : [200 as const, 0, size - 1];
  const length = end - start + 1;
  if (length > maxBytes) return { status: 413 };
  return { status, start, end, length };
}

/** A weak validator from size and modification time (nanoseconds): cheap, changes with each write. */
export function weakEtag(size: bigint, mtimeNs: bigint): string {
  return `W/"${size.toString(16)}-${mtimeNs.toString(16)}"`;
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): `*`, or any listed tag equal without W/. */
export function etagListMatches(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

const UTF8 = '; charset=utf-8';
/**
 * Content types by extension; text types get `; charset=utf-8`, anything else is octet-stream.
 * Never a type a page would run or apply as a subresource (text/javascript, text/css): files are
 * served on the dashboard's origin (and on this API's, beside /api/docs), where such a type would
 * let an injected `<script src>` or `<link>` pass `script-src 'self'`, and a worker start from a
 * workspace file; with nosniff, text/plain is refused as a script or stylesheet. Documents opened
 * directly (HTML, SVG, XML) are inert under the response's `sandbox` policy.
 */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.txt': `text/plain${UTF8}`,
  '.md': `text/markdown${UTF8}`,
  '.markdown': `text/markdown${UTF8}`,
  '.html': `text/html${UTF8}`,
  '.htm': `text/html${UTF8}`,
  '.csv': `text/csv${UTF8}`,
  '.json': `application/json${UTF8}`,
  '.map': `application/json${UTF8}`,
  '.xml': `application/xml${UTF8}`,
  '.svg': `image/svg+xml${UTF8}`,
  '.yaml': `application/yaml${UTF8}`,
  '.yml': `application/yaml${UTF8}`,
  '.toml': `application/toml${UTF8}`,
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/vnd.microsoft.icon',
  '.avif': 'image/avif',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};
/**
 * Source code (scripts and stylesheets included, see CONTENT_TYPES) and configuration an IDE shows
 * as text: text/plain rather than a download.
 */
const PLAIN_TEXT_EXTENSIONS = new Set(
  (
    '.js .mjs .cjs .css .scss .less .ts .tsx .jsx .mts .cts .py .rb .go .rs .java .kt .kts .scala .c .h .cc .cpp .hpp .cs .swift ' +
    '.php .pl .lua .r .sql .sh .bash .zsh .fish .ps1 .bat .ini .cfg .conf .env .properties .gradle ' +
    '.log .lock .gitignore .dockerignore .editorconfig .vue .svelte .graphql .proto .tf .mk'
  ).split(' '),
);
/** Files without an extension that are text by name. */
const PLAIN_TEXT_NAMES = new Set(['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile']);

export function contentTypeFor(name: string): string {
  // extname('.gitignore') is '' (a dotfile has no extension): use the whole name then.
  const ext = (extname(name) || (name.startsWith('.') ? name : '')).toLowerCase();
  return (
    CONTENT_TYPES[ext] ??
    (PLAIN_TEXT_EXTENSIONS.has(ext) || PLAIN_TEXT_NAMES.has(name)
      ? `text/plain${UTF8}`
      : 'application/octet-stream')
  );
}

/**
 * A Content-Disposition value safe for any file name (RFC 6266): `filename` keeps printable ASCII
 * other than `"`, `\` and `%` (each replaced by `_`), and when that changed the name the exact name
 * follows as `filename*` (RFC 8187, UTF-8 percent-encoded).
 */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  if (fallback === name) return `${disposition}; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Passes exactly `expected` bytes on and fails otherwise: a file that shrank while being sent must
 * break the response rather than end it short under a Content-Length that promised more.
 */
export function exactLength(expected: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      callback(
        seen === expected ? null : new Error(`read ${seen} bytes where ${expected} were expected`),
      );
    },
  });
}

/**
 * Answers GET (and HEAD) /api/file for `realPath`, a path already contained in the workspace. The
 * file is opened once (Workspace.openInside) and everything (type, size, validators, bytes) comes
 * from that descriptor, so a file replaced meanwhile is served consistently; the bytes are
 * streamed, never read whole. Returns once the answer is handed to fastify (not when it is sent);
 * throws what the route maps to errors.
 */
export function sendFile(
  reply: FastifyReply,
  headers: IncomingHttpHeaders,
  workspace: Workspace,
  realPath: string,
  display: string,
  head: boolean,
): void {
  // Opened without following any symlink from the root down and checked to be realPath: a folder
  // or the file swapped for a symlink after the containment check is refused, never served.
  const handle = workspace.openInside(realPath, OPEN_FOR_READING);
  let handed = false; // once a stream owns the descriptor, it closes it
  try {
    const stats = fstatSync(handle, { bigint: true });
    if (stats.isDirectory())
      throw httpErrors.invalidRequest(`${display} is a directory; use /api/tree`);
    if (!stats.isFile()) throw httpErrors.invalidRequest(`${display} is not a regular file`);
    const size = Number(stats.size);
    const validators: Validators = {
      etag: weakEtag(stats.size, stats.mtimeNs),
      lastModified: new Date(Number(stats.mtimeMs)).toUTCString(),
    };
    const plan = planFileResponse(size, conditionalHeaders(headers), validators, FILE_MAX_BYTES);
    void reply
      .header('etag', validators.etag)
      .header('last-modified', validators.lastModified)
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      // Workspace files are untrusted content served from the API's origin: never let an HTML or
      // SVG file run scripts there when opened directly.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    switch (plan.status) {
      case 304:
        void reply.code(304).send();
        return;
      case 413:
        throw new HttpError(
          413,
          'payload_too_large',
          `${display} is ${size} bytes, over the ${FILE_MAX_BYTES}-byte limit of one response; ` +
            'ask for parts of it with a Range header, or use /api/download',
        );
      case 416:
        void reply
          .code(416)
          .header('content-range', `bytes */${size}`)
          .send({
            error: 'range_not_satisfiable',
            message: `the range starts past the end of ${display}, which is ${size} bytes`,
          });
        return;
    }
    void reply
      .code(plan.status)
      .header('content-type', contentTypeFor(basename(realPath)))
      .header('content-disposition', contentDisposition('inline', basename(realPath)))
      .header('content-length', String(plan.length));
    if (plan.status === 206)
      void reply.header('content-range', `bytes ${plan.start}-${plan.end}/${size}`);
    if (head || plan.length === 0) {
      // fastify drains a HEAD answer's stream; an empty one reads nothing and keeps Content-Length.
      void reply.send(Readable.from([]));
      return;
    }
    handed = true;
    void reply.send(fileStream(handle, plan.start, plan.end));
  } finally {
    if (!handed) closeSync(handle);
  }
}

function conditionalHeaders(headers: IncomingHttpHeaders): ConditionalHeaders {
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return {
    range: one(headers.range),
    'if-none-match': one(headers['if-none-match']),
    'if-range': one(headers['if-range']),
  };
}

/** Bytes start..end (inclusive) of an open file, closing it when done or destroyed. */
export function fileStream(file: FileHandle | number, start: number, end: number): Readable {
  const source = createReadStream('', { fd: file, start, end, autoClose: true });
  const checked = exactLength(end - start + 1);
  source.on('error', (err) => checked.destroy(err));
  checked.on('close', () => source.destroy());
  return source.pipe(checked);
}
