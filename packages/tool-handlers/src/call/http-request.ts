import { errorMessage } from '../error-message.js';
import { readBounded } from '../response-limit.js';
import type { CallResult } from '../target.js';

/**
 * Sends one request within `timeoutMs` and answers with the response body: a non-2xx status is a
 * failed call, its status in the text. A call aborted by the caller's signal rejects with its
 * reason; running out of time or reaching no server is a failed call.
 */
export async function sendRequest(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CallResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  try {
    const response = await fetch(url, { ...init, signal: both });
    const body = await readBounded(response.body);
    if (response.ok)
      return { text: body === '' ? `HTTP ${response.status}` : body, isError: false };
    return {
      text: `HTTP ${response.status}${body === '' ? '' : `: ${body}`}`,
      isError: true,
    };
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    if (timeout.aborted) return { text: `no answer in ${timeoutMs} ms`, isError: true };
    return { text: `the request to ${url} failed: ${errorMessage(error)}`, isError: true };
  }
}

/** Methods whose requests carry no body. */
export function takesNoBody(method: string): boolean {
  return ['GET', 'HEAD'].includes(method.toUpperCase());
}

/** A value as a query, path or header parameter: text as is, anything else as JSON. */
export function parameterText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
