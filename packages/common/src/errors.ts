import type { ServerResponse } from 'node:http';
/**
 * The one error shape of every Paddock HTTP API: `{ "error": "<code>", "message": "<text>" }`.
 * Domain code raises a `CodedError` (a package's own subclass, with its own codes); the HTTP edge
 * alone knows each code's status and maps every thrown thing to an envelope once (`toEnvelope`).
 */
export interface ErrorEnvelope {
  error: string;
  message: string;
}

/** A failure named by a stable code, as jose's errors are: no HTTP in it. */
export class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CodedError';
  }
}

/** The HTTP status of a domain error code; undefined for a code the edge does not know. */
export type StatusOfCode = (code: string) => number | undefined;

/** An error of the HTTP edge itself, its status fixed where it is raised. */
export class HttpError extends CodedError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
  ) {
    super(code, message);
    this.name = 'HttpError';
  }
}

export const httpErrors = {
  invalidRequest: (message: string) => new HttpError(400, 'invalid_request', message),
  unauthorized: (message = 'authentication required') =>
    new HttpError(401, 'unauthorized', message),
  forbidden: (message = 'not allowed') => new HttpError(403, 'forbidden', message),
  notFound: (message = 'not found') => new HttpError(404, 'not_found', message),
  methodNotAllowed: (message = 'method not allowed') =>
    new HttpError(405, 'method_not_allowed', message),
  conflict: (message: string) => new HttpError(409, 'conflict', message),
  payloadTooLarge: (message = 'request body too large') =>
    new HttpError(413, 'payload_too_large', message),
  unavailable: (message: string) => new HttpError(503, 'unavailable', message),
};

/** The codes a framework attaches to its own errors, and the envelope each becomes. */
const frameworkCodes: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_request' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request' },
  FST_ERR_VALIDATION: { status: 400, code: 'invalid_request' },
};

/**
 * Maps anything thrown to a status and envelope: a domain error by the service's `statusOf` its
 * code. Unknown failures (a domain code without a status included) become a 500 whose message
 * says nothing of the internals; the caller logs the original.
 */
export function toEnvelope(
  err: unknown,
  statusOf?: StatusOfCode,
): { status: number; body: ErrorEnvelope } {
  if (err instanceof HttpError) {
    return { status: err.status, body: { error: err.code, message: err.message } };
  }
  if (err instanceof CodedError) {
    const status = statusOf?.(err.code);
    if (status !== undefined) {
      return { status, body: { error: err.code, message: err.message } };
    }
  }
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : 'request failed';
  if (typeof e?.code === 'string' && e.code in frameworkCodes) {
    const mapped = frameworkCodes[e.code]!;
    return { status: mapped.status, body: { error: mapped.code, message } };
  }
  // Malformed JSON surfaces from the body parser as a SyntaxError with status 400.
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, body: { error: 'invalid_request', message } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'internal server error' } };
}

/**
 * Answers an error on a raw response, outside fastify (a proxy's own failures): the envelope
 * while nothing was sent, else the connection is cut, since a stream already begun cannot change
 * its status.
 */
export function sendErrorEnvelope(
  res: ServerResponse,
  err: unknown,
  statusOf?: StatusOfCode,
): void {
  if (res.headersSent) return void res.destroy();
  const { status, body } = toEnvelope(err, statusOf);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
