import { setTimeout as sleep } from 'node:timers/promises';
import { parseDuration, type ToolHandler } from '@paddock/kube';

export { parseDuration };

/** How long one call to a handler may take when neither the handler nor its httpConfig says. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The handler's per-call timeout: top level, else httpConfig's, else the default. */
export function handlerTimeoutMs(handler: ToolHandler): number {
  for (const text of [handler.timeout, handler.httpConfig?.timeout]) {
    if (text === undefined) continue;
    const ms = parseDuration(text);
    // A malformed or zero duration would make every call fail at once; the default is safer.
    if (ms !== undefined && ms > 0) return ms;
  }
  return DEFAULT_TIMEOUT_MS;
}

/** How many times a failed call is retried: top level, else httpConfig's, else never. */
export function handlerRetries(handler: ToolHandler): number {
  const retries = handler.retries ?? handler.httpConfig?.retries ?? 0;
  return Number.isInteger(retries) && retries > 0 ? retries : 0;
}

/** The pause before retry number `retry` (from 1): doubling from 100 ms, at most 1 s. */
export function backoffMs(retry: number): number {
  return Math.min(100 * 2 ** (retry - 1), 1000);
}

/**
 * Calls `fn` up to `attempts` times until it resolves, pausing briefly between attempts, and
 * rethrows the last failure.
 */
export async function withRetries<T>(
  attempts: number,
  fn: (attempt: number) => Promise<T>,
): Promise<T> {
  const total = Math.max(1, Math.floor(attempts));
  let lastError: unknown;
  for (let attempt = 1; attempt <= total; attempt++) {
    if (attempt > 1) await sleep(backoffMs(attempt - 1));
    try {
      return await fn(attempt);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
