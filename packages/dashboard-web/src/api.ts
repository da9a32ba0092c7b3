/**
 * The dashboard API as the page calls it: same-origin requests carrying the session cookie, JSON
 * both ways, and every error answer turned into an ApiError with the dashboard's error code.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The dashboard's error code (`invalid_credentials`, `forbidden`, …), or `network_error`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Raised on window when a request answers 401: the session ended. */
export const UNAUTHORIZED_EVENT = 'paddock:unauthorized';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Do not announce a 401 (the sign-in page's own calls). */
  quiet401?: boolean;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      credentials: 'same-origin',
      headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'network_error',
      'The dashboard cannot be reached. Check your connection.',
    );
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) {
    body = JSON.parse(text) as unknown;
  }
  if (!response.ok) {
    const envelope = (body ?? {}) as { error?: string; message?: string };
    if (response.status === 401 && options.quiet401 !== true) {
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    }
    throw new ApiError(
      response.status,
      envelope.error ?? `http_${response.status}`,
      envelope.message ?? `The request failed (${response.status}).`,
    );
  }
  return (body ?? text) as T;
}

/** A path segment, escaped. */
export const seg = (value: string) => encodeURIComponent(value);
