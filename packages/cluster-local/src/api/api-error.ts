import type { FieldError } from '../contracts.js';

/** metav1.StatusCause. */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

/** metav1.StatusDetails. */
export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource (plural) for most errors, the kind for Invalid, as Kubernetes fills it. */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
}

/** metav1.Status: every error the server answers, and some successes. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A failed request, carrying the Status it answers with. */
export class ApiError extends Error {
  constructor(readonly status: Status) {
    super(status.message);
    this.name = 'ApiError';
  }

  get code(): number {
    return this.status.code;
  }
}

/** A resource as errors name it: `pods`, `workspaces.paddock.dev`. */
export interface ResourceName {
  group: string;
  plural: string;
}

function failure(code: number, reason: string, message: string, details?: StatusDetails): ApiError {
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });
}

/** Go's %q for the names that appear in messages. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

function qualified({ group, plural }: ResourceName): string {
  return group === '' ? plural : `${plural}.${group}`;
}

function details(resource: ResourceName, name?: string): StatusDetails {
  return {
    ...(name ? { name } : {}),
    ...(resource.group ? { group: resource.group } : {}),
    kind: resource.plural,
  };
}

/** A field problem as it reads in a message: `spec.x: Required value`. */
export function fieldErrorText(error: FieldError): string {
  return error.field ? `${error.field}: ${error.message}` : error.message;
}

export const errors = {
  notFound: (resource: ResourceName, name: string) =>
    failure(
      404,
      'NotFound',
      `${qualified(resource)} ${quote(name)} not found`,
      details(resource, name),
    ),

  /** 404 with a message of the caller's (a binding's missing role). */
  notFoundBecause: (message: string, resource: ResourceName, name: string) =>
    failure(404, 'NotFound', message, details(resource, name)),

  /** A path the server has no handler for, as Kubernetes words it. */
  pathNotFound: () =>
    failure(404, 'NotFound', 'the server could not find the requested resource', {}),

  alreadyExists: (resource: ResourceName, name: string) =>
    failure(
      409,
      'AlreadyExists',
      `${qualified(resource)} ${quote(name)} already exists`,
      details(resource, name),
    ),

  conflict: (resource: ResourceName, name: string, why: string) =>
    failure(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(resource)} ${quote(name)}: ${why}`,
      details(resource, name),
    ),

  /** 422 with the causes in Kubernetes' shape; `kind` is e.g. `Workspace` with its group. */
  invalid: (
    kind: { group: string; kind: string },
    name: string,
    problems: readonly FieldError[],
  ) => {
    const qualifiedKind = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
    const texts = problems.map(fieldErrorText);
    const summary =
      texts.length === 0 ? '' : texts.length === 1 ? `: ${texts[0]}` : `: [${texts.join(', ')}]`;
    return failure(422, 'Invalid', `${qualifiedKind} ${quote(name)} is invalid${summary}`, {
      name,
      ...(kind.group ? { group: kind.group } : {}),
      kind: kind.kind,
      causes: problems.map((p) => ({ reason: p.reason, message: p.message, field: p.field })),
    });
  },

  /** 422 without field causes, as for a JSON patch that does not apply. */
  unprocessable: (message: string) => failure(422, 'Invalid', message),

  /**
   * A JSON patch that does not apply (a failed `test`, a missing path): Kubernetes' generic 422,
   * which says no more (the server logs the cause).
   */
  patchNotApplied: () =>
    failure(422, 'Invalid', 'the server rejected our request due to an error in our request'),

  forbidden: (message: string, resource?: ResourceName, name?: string) =>
    failure(403, 'Forbidden', message, resource ? details(resource, name) : undefined),

  unauthorized: () => failure(401, 'Unauthorized', 'Unauthorized'),

  badRequest: (message: string) => failure(400, 'BadRequest', message),

  /** 410 for a watch or continue token that reaches back further than the change log. */
  expired: (message: string) => failure(410, 'Expired', message),

  gone: (message: string) => failure(410, 'Gone', message),

  methodNotAllowed: () =>
    failure(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    ),

  unsupportedMediaType: (contentType: string, accepted: readonly string[]) =>
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
      { kind: contentType },
    ),

  notAcceptable: (message: string) => failure(406, 'NotAcceptable', message),

  tooLarge: () => failure(413, 'RequestEntityTooLarge', 'Request entity too large'),

  internal: (message: string) =>
    failure(500, 'InternalError', `Internal error occurred: ${message}`),

  serviceUnavailable: (message: string) => failure(503, 'ServiceUnavailable', message),
};

/** A field problem for metadata checks the server itself makes. */
export function fieldError(reason: string, field: string, message: string): FieldError {
  return { reason, field, message };
}

export function successStatus(detailsOf: StatusDetails): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: detailsOf,
    code: 200,
  };
}
