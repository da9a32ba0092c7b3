/**
 * The dashboard API as the page calls it: same-origin requests carrying the session cookie, JSON
 * both ways, and every error answer turned into an ApiError with the dashboard's error code.
 * `call` is typed by the API's own description (api-types.ts, generated from the routes'
 * schemas): its path, parameters, body and answer are those of the route.
 */
import type { paths } from './api-types.js';

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

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The methods a path of the API takes. */
export type MethodOf<P extends keyof paths> = {
  [M in Method]: paths[P][M] extends undefined ? never : M;
}[Method];

type Operation<P extends keyof paths, M extends MethodOf<P>> = NonNullable<paths[P][M]>;

type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** What a successful call answers: the JSON of its 2xx responses. */
export type AnswerOf<P extends keyof paths, M extends MethodOf<P>> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R]: S extends 200 | 201 ? JsonOf<R[S]> : never }[keyof R]
    : never;

type Params<O> = O extends { parameters: { path?: infer Path; query?: infer Query } }
  ? ([Path] extends [undefined] ? unknown : { params: Path }) &
      ([Query] extends [undefined] ? unknown : { query?: Query })
  : unknown;

type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer Body } } }
  ? { body: Body }
  : unknown;

/** What a call gives beside its path and method: the route's parameters and body. */
export type CallOptions<P extends keyof paths, M extends MethodOf<P>> = Params<Operation<P, M>> &
  BodyOf<Operation<P, M>> &
  Pick<RequestOptions, 'signal' | 'quiet401'>;

/** The path with its `{name}` parameters filled in (escaped) and its query appended. */
export function pathOf(
  template: string,
  params: Record<string, string | number> = {},
  query: Record<string, string | number | boolean | undefined> = {},
): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return seg(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * A call of one route of the API, typed by its description: `call('get',
 * '/api/workspaces/{name}', { params: { name } })` answers what that route answers.
 */
export function call<P extends keyof paths, M extends MethodOf<P>>(
  method: M,
  path: P,
  ...[options]: Partial<CallOptions<P, M>> extends CallOptions<P, M>
    ? [CallOptions<P, M>?]
    : [CallOptions<P, M>]
): Promise<AnswerOf<P, M>> {
  const given = (options ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, string | number | boolean | undefined>;
    body?: unknown;
  } & Pick<RequestOptions, 'signal' | 'quiet401'>;
  return api<AnswerOf<P, M>>(pathOf(path, given.params, given.query), {
    method: method.toUpperCase() as NonNullable<RequestOptions['method']>,
    ...(given.body === undefined ? {} : { body: given.body }),
    ...(given.signal === undefined ? {} : { signal: given.signal }),
    ...(given.quiet401 === undefined ? {} : { quiet401: given.quiet401 }),
  });
}
