import type { CallResult, HttpTarget } from '../target.js';
import { parameterText, sendRequest, takesNoBody } from './http-request.js';

/**
 * Calls an http tool: the arguments as the JSON body with the handler's content type and headers,
 * or, for GET and HEAD, as the query string.
 */
export function callHttp(
  target: HttpTarget,
  args: unknown,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CallResult> {
  const headers = { ...target.headers };
  if (takesNoBody(target.method)) {
    const url = new URL(target.url);
    if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
      for (const [name, value] of Object.entries(args)) {
        if (value !== undefined && value !== null)
          url.searchParams.append(name, parameterText(value));
      }
    }
    return sendRequest(url.href, { method: target.method, headers }, timeoutMs, signal);
  }
  return sendRequest(
    target.url,
    {
      method: target.method,
      headers: { 'content-type': target.contentType, ...headers },
      body: JSON.stringify(args ?? {}),
    },
    timeoutMs,
    signal,
  );
}
