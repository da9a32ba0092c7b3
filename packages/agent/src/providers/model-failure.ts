// How a failed model call is named, the same for every provider: the SDKs have already retried
// what is worth retrying (429, 5xx, dropped connections) by the time a failure reaches here.
import { ModelError, type ModelErrorCode } from '../model.js';

/**
 * The code for a failure: `status` is the provider's HTTP status (absent when none came: a
 * network failure, or an error event inside an otherwise good stream), `aborted` whether the
 * caller cancelled.
 */
export function modelErrorCode(status: number | undefined, aborted: boolean): ModelErrorCode {
  if (aborted) return 'cancelled';
  if (status === undefined) return 'model_unavailable';
  if (status === 401 || status === 403) return 'model_unauthorized';
  if (status === 404) return 'model_not_found';
  // Timeouts, conflicts and rate limits are passing states the SDKs retry: still failing after
  // the retries means the provider is unavailable now, not that the request was wrong.
  if (status === 408 || status === 409 || status === 429) return 'model_unavailable';
  if (status >= 400 && status < 500) return 'model_request_invalid';
  return 'model_unavailable';
}

const WHAT: Record<ModelErrorCode, string> = {
  model_unauthorized: 'the model provider refused the credentials',
  model_not_found: 'the model provider does not know this model or endpoint',
  model_request_invalid: 'the model provider rejected the request',
  model_unavailable: 'the model provider is unavailable',
  cancelled: 'the model call was cancelled',
};

/**
 * A ModelError for whatever an SDK threw. Both official SDKs throw errors carrying the HTTP
 * `status` (undefined for connection failures) and name a user abort `APIUserAbortError`.
 */
export function toModelError(error: unknown, signal: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  const status = statusOf(error);
  const aborted = signal.aborted || isAbort(error);
  const code = modelErrorCode(status, aborted);
  const detail = error instanceof Error ? error.message : String(error);
  const message = code === 'cancelled' ? WHAT.cancelled : `${WHAT[code]}: ${detail}`;
  return new ModelError(code, message, aborted ? undefined : status, { cause: error });
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown; constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  return error instanceof Error && (error.name === 'AbortError' || name === 'APIUserAbortError');
}
