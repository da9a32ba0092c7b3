import { HttpError } from '@paddock/common';
import {
  AlreadyExistsError,
  ConflictError,
  ForbiddenError,
  InvalidError,
  KubeError,
  NotFoundError,
} from '@paddock/kube';
import { apiError } from '../http/errors.js';

/**
 * A failure of a cluster call made for a request, as the dashboard's error: what the cluster
 * refused keeps its meaning (forbidden, not found, conflict, invalid), anything else is the
 * cluster being unavailable.
 */
export function fromCluster(err: unknown, what: string): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ForbiddenError) {
    return apiError('forbidden', `the cluster refused: ${err.message}`);
  }
  if (err instanceof NotFoundError) return apiError('not_found', `no ${what}`);
  if (err instanceof AlreadyExistsError)
    return apiError('already_exists', `${what} already exists`);
  if (err instanceof ConflictError) {
    return apiError('conflict', `${what} changed meanwhile: read it again and retry`);
  }
  if (err instanceof InvalidError) return apiError('invalid_request', err.message);
  const message = err instanceof KubeError || err instanceof Error ? err.message : String(err);
  return apiError('unavailable', `the cluster could not be reached for ${what}: ${message}`);
}
