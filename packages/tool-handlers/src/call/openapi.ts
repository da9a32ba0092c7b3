import { BODY_ARGUMENT } from '../discover/openapi-operation.js';
import type { CallResult, OpenApiTarget } from '../target.js';
import { parameterText, sendRequest, takesNoBody } from './http-request.js';

/** The request an operation's arguments make, or why they make none. */
export type OpenApiRequest =
  | { url: string; method: string; headers: Record<string, string>; body?: string }
  | { error: string };

/**
 * Path, query and header parameters are taken from the arguments by the operation's parameter
 * list; the remaining arguments are the JSON body (or the `body` argument when the body is not an
 * object).
 */
export function openApiRequest(
  target: OpenApiTarget,
  args: Record<string, unknown>,
): OpenApiRequest {
  const rest: Record<string, unknown> = { ...args };
  const headers: Record<string, string> = { ...target.headers };
  const query: [string, string][] = [];
  let path = target.urlTemplate;
  for (const parameter of target.parameters) {
    const value = rest[parameter.name];
    delete rest[parameter.name];
    if (parameter.in === 'path') {
      if (value === undefined || value === null) {
        return { error: `the path parameter ${parameter.name} is missing` };
      }
      path = path.split(`{${parameter.name}}`).join(encodeURIComponent(parameterText(value)));
    } else if (value === undefined || value === null) {
      continue;
    } else if (parameter.in === 'query') {
      for (const item of Array.isArray(value) ? value : [value]) {
        query.push([parameter.name, parameterText(item)]);
      }
    } else {
      headers[parameter.name.toLowerCase()] = parameterText(value);
    }
  }
  const url = new URL(path);
  for (const [name, value] of query) url.searchParams.append(name, value);

  let body: string | undefined;
  if (target.body === 'object') body = JSON.stringify(rest);
  if (target.body === 'wrapped' && rest[BODY_ARGUMENT] !== undefined) {
    body = JSON.stringify(rest[BODY_ARGUMENT]);
  }
  if (body === undefined || takesNoBody(target.method))
    return { url: url.href, method: target.method, headers };
  return {
    url: url.href,
    method: target.method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  };
}

export async function callOpenApi(
  target: OpenApiTarget,
  args: unknown,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CallResult> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { text: 'the arguments must be a JSON object', isError: true };
  }
  const request = openApiRequest(target, args as Record<string, unknown>);
  if ('error' in request) return { text: request.error, isError: true };
  const { url, ...init } = request;
  return sendRequest(url, init, timeoutMs, signal);
}
