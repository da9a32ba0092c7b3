import { Type } from 'typebox';
import type { AuthMode } from '../config.js';
import type { ErrorCode } from './errors.js';

/**
 * What a route's schema says of it beside its shapes: its name, summary, description and tag in
 * the OpenAPI document, the authentication modes it exists in, and the error codes it answers
 * with their conditions. The document's error responses are made from these (openapi-document.ts).
 */

/** The tags of the OpenAPI document, each with what its operations are about. */
export const TAGS = {
  health: 'Liveness and readiness probes of the platform',
  openapi: 'This description',
  auth: 'Sign-in and sign-out, the current user, the authentication configuration',
  builtin:
    'The built-in user store: sign-in, sign-up, password reset, e-mail verification (`builtin` mode)',
  'api-keys': 'API keys: your own, and every user’s for admins',
  users: 'The users of the dashboard, for admins',
  workspaces: 'The workspaces a user may see',
  agents: 'The agents (AgentRuntimes) of a workspace, their logs and events',
  'prompt packs': 'The prompt packs of a workspace',
  'tool registries': 'The tool registries of a workspace',
  members: 'Who has access to a workspace, managed by its owners',
  door:
    'Into an agent’s workspace: each pod’s sandbox (files, live changes, zip, terminal, ' +
    'port-forward, SSH keys) and the agent’s MCP server, through the dashboard',
} as const;

export type Tag = keyof typeof TAGS;

/** Error codes an operation answers, each with the condition under which it does. */
export type Errors = Partial<Record<ErrorCode, string>>;

/** The schema key holding an operation's own error tables (read, then removed, by the document). */
export const ERRORS_KEY = 'x-paddock-errors';
/** The schema key naming the authentication modes a route exists in; absent: all of them. */
export const MODES_KEY = 'x-paddock-auth-modes';

export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tag: Tag;
  /** The modes in which the route exists; absent: all of them. */
  modes?: AuthMode[];
  /** A public route that also reads the session cookie (logout, the OAuth callback). */
  readsSession?: boolean;
  /** The error codes it answers and when: its own table, then tables shared with others. */
  errors?: Errors | Errors[];
}

/** The security of a public route that reads the session: none, or the session cookie. */
const READS_SESSION: Array<Record<string, string[]>> = [{}, { sessionCookie: [] }];

/** A route's whole schema: its documentation and its shapes (params, querystring, body, response). */
export function operation<S extends object>(doc: OperationDoc, shapes: S) {
  let description = doc.description;
  if (doc.modes) {
    const modes = doc.modes.map((m) => `\`${m}\``).join(' and ');
    description =
      `Only in ${modes} mode; in the others there is no such route (404 \`not_found\`, or 401 ` +
      `to a caller without a credential).\n\n${description}`;
  }
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description,
    tags: [doc.tag],
    ...(doc.modes ? { [MODES_KEY]: doc.modes } : {}),
    ...(doc.readsSession ? { security: READS_SESSION } : {}),
    [ERRORS_KEY]: [doc.errors ?? []].flat(),
    ...shapes,
  };
}

/** The errors of the unauthenticated endpoints that cost work (sign-in, sign-up, mails, links). */
export const SIGN_IN_LIMITS: Errors = {
  rate_limited:
    'This address sent too many requests to this endpoint, or the password hashing queue is ' +
    'full: wait the seconds of `Retry-After`.',
};

/** The errors of a call the dashboard makes to the cluster for a request (fromCluster). */
export const CLUSTER_ERRORS: Errors = {
  forbidden: 'The cluster refused the workspace role’s ServiceAccount.',
  invalid_request: 'The cluster found the object invalid (the message says why).',
  unavailable:
    'The workspace is not ready (its ServiceAccounts do not exist yet), no token could be ' +
    'minted for its role, or the cluster could not be reached.',
};

export const WORKSPACE_ERRORS: Errors = {
  not_found:
    'No workspace of that name that the user holds a role in: one without a role answers as ' +
    'one that does not exist.',
  unavailable: 'No cluster is configured.',
};

/** The errors of a workspace write: both roles must allow it, and no budget suspension. */
export function writeErrors(what: string): Errors {
  return {
    forbidden: `The dashboard role or the workspace role does not allow ${what} (both must: editor or admin, and owner or editor).`,
    workspace_suspended: `The workspace is Suspended while its budget is exceeded; ${what} waits until it is not.`,
  };
}

/** The errors of a list request's paging. */
export const PAGING_ERRORS: Errors = {
  invalid_request: 'limit or offset is not a whole number in range.',
};

/** Answer headers the document names. */
export const SET_SESSION = {
  'Set-Cookie': {
    type: 'string' as const,
    description:
      'The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` ' +
      'chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`.',
  },
};
export const REDIRECT = {
  Location: { type: 'string' as const, description: 'Where the browser goes next.' },
};

/** An answer without a body (a redirect), with its headers. */
export function noBody(description: string, headers: Record<string, unknown>) {
  return Type.Unsafe<undefined>({ description, type: 'null', headers });
}
