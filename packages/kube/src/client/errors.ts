/**
 * Failures of the Kubernetes API as typed errors, mapped once from the HTTP status and the Status
 * object the server answers with, so that callers branch on a class, not on numbers.
 */
export class KubeError extends Error {
  constructor(
    message: string,
    /** HTTP status, 0 when the server could not be reached. */
    readonly status: number,
    /** Kubernetes' Status reason (NotFound, Conflict, ...), when it gave one. */
    readonly reason: string | undefined,
    /** The Status object as answered, for causes and details. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends KubeError {}
export class ConflictError extends KubeError {}
export class AlreadyExistsError extends ConflictError {}
export class ForbiddenError extends KubeError {}
export class UnauthorizedError extends KubeError {}
export class InvalidError extends KubeError {}
export class GoneError extends KubeError {}
/** The API server is unreachable, overloaded or failing: worth retrying later. */
export class UnavailableError extends KubeError {}

interface StatusBody {
  message?: string;
  reason?: string;
}

/** The typed error for an HTTP answer of the API server. */
export function errorForStatus(status: number, body: unknown): KubeError {
  const statusBody = (body !== null && typeof body === 'object' ? body : {}) as StatusBody;
  const message = statusBody.message ?? `the Kubernetes API answered ${status}`;
  const reason = statusBody.reason;
  switch (status) {
    case 401:
      return new UnauthorizedError(message, status, reason, body);
    case 403:
      return new ForbiddenError(message, status, reason, body);
    case 404:
      return new NotFoundError(message, status, reason, body);
    case 409:
      return reason === 'AlreadyExists'
        ? new AlreadyExistsError(message, status, reason, body)
        : new ConflictError(message, status, reason, body);
    case 410:
      return new GoneError(message, status, reason, body);
    case 422:
      return new InvalidError(message, status, reason, body);
    default:
      return status === 429 || status >= 500
        ? new UnavailableError(message, status, reason, body)
        : new KubeError(message, status, reason, body);
  }
}

/** An error of the transport (refused, reset, timed out): the cluster is unavailable. */
export function unreachable(err: unknown): UnavailableError {
  const message = err instanceof Error ? err.message : String(err);
  return new UnavailableError(`the Kubernetes API cannot be reached: ${message}`, 0, undefined);
}
