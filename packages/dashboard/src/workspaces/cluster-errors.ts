import { CodedError } from '@paddock/common';
import {
  AlreadyExistsError,
  ConflictError,
  ForbiddenError,
  InvalidError,
  KubeError,
  NotFoundError,
} from '@paddock/kube';
import { DashboardError } from '../errors.js';

/**
 * A failure of a cluster call made for a request, as the dashboard's error: what the cluster
 * refused keeps its meaning (forbidden, not found, conflict, invalid), anything else is the
 * cluster being unavailable.
 */
export function fromCluster(err: unknown, what: string): CodedError {
  // Already one of ours (the domain's, or the edge's from a step of the same request).
  if (err instanceof CodedError) return err;
  if (err instanceof ForbiddenError) {
    return new DashboardError('forbidden', `the cluster refused: ${err.message}`);
  }
  if (err instanceof NotFoundError) return new DashboardError('not_found', `no ${what}`);
  if (err instanceof AlreadyExistsError)
    return new DashboardError('already_exists', `${what} already exists`);
  if (err instanceof ConflictError) {
    return new DashboardError('conflict', `${what} changed meanwhile: read it again and retry`);
  }
  if (err instanceof InvalidError) return new DashboardError('invalid_request', err.message);
  const message = err instanceof KubeError || err instanceof Error ? err.message : String(err);
  return new DashboardError(
    'unavailable',
    `the cluster could not be reached for ${what}: ${message}`,
  );
}
