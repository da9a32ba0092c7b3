import {
  packageInfo,
  type OpenApiDocument as OpenApiDocumentOf,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiRef,
  type OpenApiResponse,
  type OpenApiSchema,
} from '@paddock/common';
import {
  agentRuntimeStatusSchema,
  conditionSchema,
  toolRegistrySpecSchema,
  toolRegistryStatusSchema,
  WORKSPACE_ROLES,
  workspaceSpecSchema,
  workspaceStatusSchema,
} from '@paddock/kube';
import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import { MAX_KEY_NAME_CHARS } from '../auth/apikeys/service.js';
import { PROVIDERS, ROLES } from '../auth/user.js';
import { MAX_PASSWORD_CHARS } from '../builtin/passwords.js';
import {
  DISPLAY_NAME_MAX_CHARS,
  EMAIL_MAX_CHARS,
  USERNAME_MAX_CHARS,
  USERNAME_MIN_CHARS,
} from '../builtin/validation.js';
import { AUTH_MODES, OAUTH_PROVIDERS, type AuthMode } from '../config.js';
import { OAUTH_ERROR_CODES } from '../oauth/errors.js';
import { MAX_ACCESS_ENTRIES } from '../workspaces/members.js';
import type { RouteAccess } from './context.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging.js';

/**
 * The dashboard's OpenAPI 3.1 description, built in code so that it ships inside dist/ with the
 * rest of the dashboard. Its paths are written out here rather than derived from the route
 * registrations: test/openapi.test.ts compares the two, so a route added to one and not the other
 * fails a test.
 */

type Schema = OpenApiSchema;
type Ref = OpenApiRef;
export type Parameter = OpenApiParameter;
export type Response = OpenApiResponse;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface Operation extends OpenApiOperation {
  /** `public`: answered without a credential (the route's `config.access`). */
  'x-paddock-access': RouteAccess;
  /** The authentication modes in which the route exists; absent: all of them. */
  'x-paddock-auth-modes'?: AuthMode[];
}

export type OpenApiDocument = OpenApiDocumentOf<
  HttpMethod,
  Operation,
  {
    securitySchemes: Record<string, Schema>;
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
  }
>;

const TAGS = {
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

type Tag = keyof typeof TAGS;

const schemaRef = (name: string): Ref => ({ $ref: `#/components/schemas/${name}` });
const parameterRef = (name: string): Ref => ({ $ref: `#/components/parameters/${name}` });

/** A schema, or null. */
function nullable(schema: Schema): Schema {
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * A schema of the cluster's resource definitions, as the dashboard shows it: the same fields,
 * without the Kubernetes-only annotations (`x-kubernetes-*`).
 */
function crdSchema(schema: unknown): Schema {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) =>
      key.startsWith('x-kubernetes-') ? undefined : value,
    ),
  ) as Schema;
}

/** The status phrase of each error status. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  421: 'Misdirected request',
  423: 'Locked',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Unavailable',
};

/** What each error code means in general; operations add when they answer it. */
const ERROR_MEANING: Record<ErrorCode, string> = {
  invalid_request: 'The request is malformed: a parameter, the body or a field of it.',
  password_too_short: 'The password is shorter than SVC_BUILTIN_MIN_PASSWORD_LENGTH.',
  invalid_token: 'The token of a mailed link is unknown, used or expired.',
  unauthorized: 'No valid credential.',
  invalid_credentials: 'Wrong username or password.',
  forbidden: 'Not allowed.',
  email_not_verified: 'The e-mail address must be confirmed first.',
  signup_disabled: 'Public sign-up is disabled (SVC_BUILTIN_ALLOW_SIGNUP).',
  not_found: 'Nothing there.',
  bad_gateway: "An agent's pod did not answer the request the dashboard passed on.",
  method_not_allowed: 'The path does not take this method.',
  email_exists: 'The e-mail address is already registered.',
  already_exists: 'An object of that name already exists.',
  conflict: 'The object changed meanwhile: read it again and retry.',
  last_owner: 'The change would leave the workspace without an owner.',
  workspace_suspended: 'The workspace is suspended while its budget is exceeded.',
  username_exists: 'The username is taken.',
  api_key_limit_reached: 'The user has SVC_AUTH_API_KEYS_MAX_PER_USER keys already.',
  payload_too_large: 'The body is over 64 KiB.',
  unsupported_media_type: 'The body is not `application/json`.',
  misdirected_request:
    'The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it ' +
    '`localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).',
  account_locked:
    'Too many failed sign-ins from this address: the account is locked for this address for a ' +
    'while (other addresses and existing sessions are not affected).',
  rate_limited:
    'Too many requests from this address, or the sign-in service is busy: try again after the ' +
    'seconds in the `Retry-After` header.',
  internal_error: 'An unexpected failure; the message says nothing of it, the log does.',
  unavailable: 'Not now: no cluster is configured, or the cluster cannot be reached.',
};

type Errors = Partial<Record<ErrorCode, string>>;

/** The error response of one status, answering the codes given. */
function errorResponse(status: number, codes: Array<[ErrorCode, string[]]>): Response {
  const names = codes.map(([code]) => `\`${code}\``).join(', ');
  const lines = codes.flatMap(([code, conditions]) =>
    (conditions.length > 0 ? conditions : [ERROR_MEANING[code]]).map(
      (condition) => `- \`${code}\`: ${condition}`,
    ),
  );
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'} (${names}).\n\n${lines.join('\n')}`,
    content: {
      'application/json': {
        schema: {
          allOf: [schemaRef('Error')],
          properties: { error: { enum: codes.map(([code]) => code) } },
        },
      },
    },
  };
}

/** The JSON body of a success, with its schema. */
function json(description: string, schema: Schema, headers?: Response['headers']): Response {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema } },
  };
}

const SET_SESSION: Response['headers'] = {
  'Set-Cookie': {
    description:
      'The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` ' +
      'chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`.',
    schema: { type: 'string' },
  },
};

const REDIRECT: Response['headers'] = {
  Location: { description: 'Where the browser goes next.', schema: { type: 'string' } },
};

const SUCCESS = json('Done.', schemaRef('Success'));

/** A paginated list answer: `{<key>: [...], total, limit, offset}`. */
function page(key: string, item: Schema): Schema {
  return {
    type: 'object',
    required: [key, 'total', 'limit', 'offset'],
    properties: {
      [key]: { type: 'array', items: item },
      total: { type: 'integer', minimum: 0, description: 'Items in the whole list' },
      limit: { type: 'integer', minimum: 1, description: 'The page size used' },
      offset: { type: 'integer', minimum: 0, description: 'The offset used' },
    },
  };
}

/** An object with exactly the given property holding a schema. */
function wrapped(key: string, schema: Schema): Schema {
  return { type: 'object', required: [key], properties: { [key]: schema } };
}

const PAGING = [parameterRef('limit'), parameterRef('offset')];

interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: Tag;
  /** Default: authenticated. */
  access?: RouteAccess;
  /** The security of a public operation that reads the session cookie. */
  readsSession?: boolean;
  modes?: AuthMode[];
  parameters?: Array<Parameter | Ref>;
  /** A required JSON body. */
  body?: { schema: Schema };
  responses: Record<string, Response | Ref>;
  /** The error codes it answers and when: its own table, then tables shared with others. */
  errors?: Errors | Errors[];
}

const UNSAFE: readonly HttpMethod[] = ['post', 'put', 'patch', 'delete'];

/** The errors every operation of its kind can answer, beside its own. */
function commonErrors(method: HttpMethod, spec: OperationSpec): Errors[] {
  const common: Errors[] = [];
  if ((spec.access ?? 'authenticated') === 'authenticated') {
    common.push({
      unauthorized:
        'No valid credential: none in oauth or builtin mode (or a session that ended), no user ' +
        'header from a trusted peer in proxy mode, or an API key or bearer token that is ' +
        'malformed, invalid, revoked or expired (a failed credential never falls back to ' +
        'another identity).',
      forbidden:
        'Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.',
    });
  }
  if (UNSAFE.includes(method)) {
    common.push({
      forbidden:
        'Cross-site request refused: without a credential header, a request carrying the session ' +
        'cookie must come from the dashboard’s origin (Origin, else Referer).',
    });
  }
  if (spec.body) {
    common.push({
      invalid_request: 'The body is not a JSON object.',
      payload_too_large: ERROR_MEANING.payload_too_large,
      unsupported_media_type: ERROR_MEANING.unsupported_media_type,
    });
  }
  // The probes answer whatever the Host; everything else checks it first.
  if (spec.tag !== 'health')
    common.push({ misdirected_request: ERROR_MEANING.misdirected_request });
  common.push({ internal_error: ERROR_MEANING.internal_error });
  return common;
}

function operation(method: HttpMethod, spec: OperationSpec): Operation {
  const access = spec.access ?? 'authenticated';
  // Every code with its conditions, the operation's own first.
  const conditions = new Map<ErrorCode, string[]>();
  for (const errors of [spec.errors ?? [], commonErrors(method, spec)].flat()) {
    for (const [code, condition] of Object.entries(errors) as Array<[ErrorCode, string]>) {
      const list = conditions.get(code) ?? [];
      if (!list.includes(condition)) list.push(condition);
      conditions.set(code, list);
    }
  }
  const byStatus = new Map<number, Array<[ErrorCode, string[]]>>();
  for (const [code, list] of conditions) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, list]]);
  }
  const errorResponses = Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [String(status), errorResponse(status, codes)]),
  );

  let description = spec.description;
  if (spec.modes) {
    const modes = spec.modes.map((m) => `\`${m}\``).join(' and ');
    description =
      `Only in ${modes} mode; in the others there is no such route (404 \`not_found\`, or 401 ` +
      `to a caller without a credential).\n\n${description}`;
  }
  // In the usual order of an operation object: what it is, who may call it, what it takes, answers.
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description,
    tags: [spec.tag],
    'x-paddock-access': access,
    ...(spec.modes ? { 'x-paddock-auth-modes': spec.modes } : {}),
    ...(access === 'public'
      ? { security: spec.readsSession ? [{}, { sessionCookie: [] }] : [{}] }
      : {}),
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: spec.body.schema } },
          },
        }
      : {}),
    responses: { ...spec.responses, ...errorResponses },
  };
}

const get = (spec: OperationSpec) => operation('get', spec);
const post = (spec: OperationSpec) => operation('post', spec);
const put = (spec: OperationSpec) => operation('put', spec);
const patch = (spec: OperationSpec) => operation('patch', spec);
const del = (spec: OperationSpec) => operation('delete', spec);

/** The errors of the unauthenticated endpoints that cost work (sign-in, sign-up, mails, links). */
const SIGN_IN_LIMITS: Errors = {
  rate_limited:
    'This address sent too many requests to this endpoint, or the password hashing queue is ' +
    'full: wait the seconds of `Retry-After`.',
};

/** The errors of a call the dashboard makes to the cluster for a request (fromCluster). */
const CLUSTER_ERRORS: Errors = {
  forbidden: 'The cluster refused the workspace role’s ServiceAccount.',
  invalid_request: 'The cluster found the object invalid (the message says why).',
  unavailable:
    'The workspace is not ready (its ServiceAccounts do not exist yet), no token could be ' +
    'minted for its role, or the cluster could not be reached.',
};

const WORKSPACE_ERRORS: Errors = {
  not_found:
    'No workspace of that name that the user holds a role in: one without a role answers as ' +
    'one that does not exist.',
  unavailable: 'No cluster is configured.',
};

/** The door into a pod's sandbox: one description for its methods. */
const DOOR_DESCRIPTION =
  'Passes the request to the pod’s sandbox (its human API, as its own OpenAPI description ' +
  'says) and streams the answer back: plain answers, server-sent events (`api/events`, with ' +
  '`Last-Event-ID`) and WebSockets (`api/exec`, `api/port-forward`) alike. The credential and ' +
  'any identity header the client sent are removed; the sandbox is told the user in ' +
  '`X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard ' +
  '(`X-Paddock-Proof`). Viewers read (`api/tree`, `api/file`, `api/events`, `api/download`, ' +
  '`api/openapi.yaml`); editors and owners also open terminals and tunnels and manage SSH keys ' +
  '(`api/exec`, `api/port-forward`, `api/ssh-port`, `api/ssh-authorized-keys`). What the pod ' +
  'serves may not set cookies or run scripts on the dashboard’s origin.';
const DOOR_PARAMETERS: Array<Parameter | Ref> = [
  parameterRef('workspace'),
  parameterRef('agentName'),
  parameterRef('podName'),
  parameterRef('sandboxPath'),
];
const DOOR_RESPONSES: Operation['responses'] = {
  '200': {
    description: 'The sandbox’s answer, whatever its status, headers and body.',
    content: { '*/*': { schema: {} } },
  },
};
const DOOR_ERRORS: Errors = {
  forbidden: 'The user’s roles do not allow this route of the sandbox (see above).',
  not_found:
    'The agent has no such pod, or the dashboard does not pass this path on (the sandbox’s ' +
    'HTML docs page among them).',
  method_not_allowed: 'The path does not take this method.',
  unavailable: 'The pod is not Ready, or the signing key cannot be read.',
  bad_gateway: ERROR_MEANING.bad_gateway,
  invalid_request: 'agent or pod is not a Kubernetes object name.',
};
const MCP_DESCRIPTION =
  'The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API ' +
  'key or a session. A new session goes to a Ready replica; the session id the client gets, ' +
  '`<ordinal>.<id>`, brings every later request of the session to the same replica.';
const MCP_RESPONSES: Operation['responses'] = {
  '200': {
    description: 'The MCP server’s answer: JSON or an event stream.',
    content: { 'application/json': { schema: {} }, 'text/event-stream': { schema: {} } },
  },
};
const MCP_ERRORS: Errors = {
  forbidden: 'The user’s roles do not allow the agent’s MCP server (editor or higher).',
  not_found: 'No such session (its replica is gone): start a new one.',
  unavailable: 'The agent has no Ready replica.',
  bad_gateway: ERROR_MEANING.bad_gateway,
  invalid_request: 'agent is not a Kubernetes object name, or sessionId is missing.',
};

/** One method of the door into a pod's sandbox: the same route for every method it takes. */
function doorOperation(operationId: string, summary: string): OperationSpec {
  return {
    operationId,
    summary,
    description: DOOR_DESCRIPTION,
    tag: 'door',
    parameters: DOOR_PARAMETERS,
    responses: DOOR_RESPONSES,
    errors: [DOOR_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
  };
}

/** One method of the agent's MCP server through the dashboard. */
function mcpOperation(
  operationId: string,
  summary: string,
  more: Partial<OperationSpec> = {},
): OperationSpec {
  return {
    operationId,
    summary,
    description: MCP_DESCRIPTION,
    tag: 'door',
    parameters: [parameterRef('workspace'), parameterRef('agentName')],
    responses: MCP_RESPONSES,
    errors: [MCP_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
    ...more,
  };
}

/** The errors of a workspace write: both roles must allow it, and no budget suspension. */
function writeErrors(what: string): Errors {
  return {
    forbidden: `The dashboard role or the workspace role does not allow ${what} (both must: editor or admin, and owner or editor).`,
    workspace_suspended: `The workspace is Suspended while its budget is exceeded; ${what} waits until it is not.`,
  };
}

const OBJECT_NAME = {
  type: 'string',
  pattern: '^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$',
  description: 'A Kubernetes object name',
};

function pathParameter(name: string, description: string, schema: Schema = OBJECT_NAME): Parameter {
  return { name, in: 'path', required: true, description, schema };
}

const DESCRIPTION = `The HTTP API of the Paddock dashboard (\`paddock-dashboard\`): authentication in four modes,
API keys, the users, and the workspaces a user may see with their agents, prompt packs, tool
registries and members. This description is served by the dashboard itself at
\`/api/openapi.yaml\` and \`/api/openapi.json\`, without authentication.

**Authentication.** \`SVC_AUTH_MODE\` decides who a request without a credential header is:

- \`anonymous\`: everyone is the anonymous user, with the role SVC_AUTH_ANONYMOUS_ROLE; no
  credential is needed.
- \`proxy\`: an authenticating proxy in front sets \`X-Forwarded-User\` (required),
  \`X-Forwarded-Email\`, \`X-Forwarded-Groups\` (comma-separated) and
  \`X-Forwarded-Preferred-Username\` (names set by SVC_AUTH_PROXY_HEADER_*). Only peers listed in
  SVC_AUTH_PROXY_TRUSTED_ADDRESSES may assert them (every peer when it is empty), so the proxy
  must strip copies that clients send.
- \`oauth\`: the session cookie, set by the sign-in flow (\`/api/auth/login\` → the provider →
  \`/api/auth/callback\`); a Bearer JWT of the provider is accepted too.
- \`builtin\`: the session cookie, set by \`/api/auth/builtin/login\`.

In every mode an API key (\`svc_sk_…\`) may be sent as \`Authorization: Bearer <key>\` or
\`X-API-Key: <key>\`, unless SVC_AUTH_API_KEYS_ENABLED is false. A credential header is decisive:
when it is malformed, invalid, revoked or expired the answer is 401, never a weaker identity; give
one, not both. Operations with \`x-paddock-access: public\` need no credential. Operations with
\`x-paddock-auth-modes\` exist only in those modes; the others have no such route.

**Roles.** Every user has a dashboard role (\`admin\`, \`editor\` or \`viewer\`, from their groups
and SVC_AUTH_ROLE_*_GROUPS, or an admin’s override for built-in users) that decides what they may
do. In a workspace they also hold a workspace role (\`owner\`, \`editor\` or \`viewer\`, from the
Workspace’s roleBindings, directGrants and anonymousAccess); changing agents, prompt packs or tool
registries needs both, managing the members the owner role alone. A workspace the
user holds no role in answers 404, as one that does not exist. Workspace calls reach the cluster
with a short-lived token of the workspace role’s ServiceAccount, so the cluster enforces the
same limits again.

**Cross-site requests.** A state-changing request (POST, PUT, PATCH, DELETE) without a credential
header that carries the session cookie must come from the dashboard’s origin (its \`Origin\`, else
its \`Referer\`); otherwise it is refused with 403 \`forbidden\`.

**Requests and answers.** Bodies are JSON objects (\`application/json\`) of at most 64 KiB. Lists
take \`?limit=\` (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}) and \`?offset=\` and answer
\`{<items>, total, limit, offset}\`. Every GET route answers HEAD too. Answers under \`/api/\` carry \`Cache-Control: no-store\`; every
answer carries \`X-Content-Type-Options: nosniff\`, \`X-Frame-Options: DENY\`,
\`X-XSS-Protection: 1; mode=block\`, \`Referrer-Policy: strict-origin-when-cross-origin\` and a
Content-Security-Policy (and \`Strict-Transport-Security\` when the dashboard is served over https).

**Errors.** Every error body is \`{"error": "<code>", "message": "<text>"}\`, and each code has one
HTTP status (see the Error schema). A path or method without a route answers 404 \`not_found\`, but
to a caller without a credential outside anonymous mode it answers 401 \`unauthorized\` first, as
an authenticated route would: only the public routes can be told apart without signing in.
When no cluster is configured, the workspace operations answer 503 \`unavailable\`.`;

function buildDocument(version: string): OpenApiDocument {
  const workspaceName = parameterRef('workspace');
  const agentName = parameterRef('agentName');

  return {
    openapi: '3.1.0',
    info: { title: 'Paddock dashboard API', version, description: DESCRIPTION },
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [
      { sessionCookie: [] },
      { apiKeyBearer: [] },
      { apiKeyHeader: [] },
      { jwtBearer: [] },
      { proxyUser: [] },
      { proxyUser: [], proxyEmail: [], proxyGroups: [], proxyDisplayName: [] },
    ],
    paths: {
      '/healthz': {
        get: get({
          operationId: 'getHealth',
          summary: 'Liveness',
          description: 'Answers 200 while the process serves requests.',
          tag: 'health',
          access: 'public',
          responses: {
            '200': json('Alive.', {
              type: 'object',
              required: ['status'],
              properties: { status: { const: 'ok' } },
            }),
          },
        }),
      },
      '/readyz': {
        get: get({
          operationId: 'getReadiness',
          summary: 'Readiness',
          description:
            'Ready when every readiness check passes and the dashboard is not shutting down. With a ' +
            'cluster, the check `workspaces` passes once the Workspaces have been listed and are ' +
            'being watched. The 503 answer has this shape too, not the error shape.',
          tag: 'health',
          access: 'public',
          responses: {
            '200': json('Ready.', schemaRef('Readiness')),
            '503': json('Not ready, or draining (shutting down).', schemaRef('Readiness')),
          },
        }),
      },
      '/api/openapi.yaml': {
        get: get({
          operationId: 'getOpenApiYaml',
          summary: 'This description, as YAML',
          description: 'This OpenAPI 3.1 document, as YAML. It describes the routes of every mode.',
          tag: 'openapi',
          access: 'public',
          responses: {
            '200': {
              description: 'The document.',
              content: { 'application/yaml': { schema: { type: 'string' } } },
            },
          },
        }),
      },
      '/api/openapi.json': {
        get: get({
          operationId: 'getOpenApiJson',
          summary: 'This description, as JSON',
          description: 'This OpenAPI 3.1 document, as JSON: the same document as the YAML one.',
          tag: 'openapi',
          access: 'public',
          responses: {
            '200': json('The document.', { type: 'object' }),
          },
        }),
      },

      '/api/auth/config': {
        get: get({
          operationId: 'getAuthConfig',
          summary: 'How to sign in',
          description:
            'The authentication mode and what the sign-in page needs to know, before anyone signs in.',
          tag: 'auth',
          access: 'public',
          responses: { '200': json('The configuration.', schemaRef('AuthConfig')) },
        }),
      },
      '/api/auth/me': {
        get: get({
          operationId: 'getMe',
          summary: 'The current user',
          description:
            'The caller as the dashboard sees them: the user object of the specification, with the ' +
            'current role and groups. `provider` says how the request was authenticated ' +
            '(`api-key` for an API key).',
          tag: 'auth',
          responses: { '200': json('The user.', wrapped('user', schemaRef('User'))) },
        }),
      },
      '/api/auth/logout': {
        post: post({
          operationId: 'logout',
          summary: 'Sign out',
          description:
            'Clears the session cookie; succeeds without one too. In oauth mode, when the provider ' +
            'supports single sign-on logout, `redirectUrl` is where the browser should go next to ' +
            'end the provider’s session as well (back to `{public_origin}/login`).',
          tag: 'auth',
          access: 'public',
          readsSession: true,
          responses: {
            '200': json(
              'Signed out.',
              {
                type: 'object',
                required: ['success'],
                properties: {
                  success: { const: true },
                  redirectUrl: {
                    type: 'string',
                    format: 'uri',
                    description: 'The provider’s end-session URL (oauth mode)',
                  },
                },
              },
              {
                'Set-Cookie': {
                  description: 'Clears the session cookie.',
                  schema: { type: 'string' },
                },
              },
            ),
          },
        }),
      },
      '/api/auth/logout-everywhere': {
        post: post({
          operationId: 'logoutEverywhere',
          summary: 'Sign out everywhere',
          description:
            'Ends every session of the caller, on every browser and every replica (the others ' +
            'within one second), and clears this request’s session cookie. API keys stay valid: ' +
            'they are listed and revoked under /api/settings/api-keys. A single logout ends only ' +
            'its own session, copies of its cookie included.',
          tag: 'auth',
          responses: {
            '200': json('Every session of the caller has ended.', {
              type: 'object',
              required: ['success'],
              properties: { success: { const: true } },
            }),
          },
          errors: { forbidden: 'Anonymous mode: there are no sessions to end.' },
        }),
      },
      '/api/auth/login': {
        get: get({
          operationId: 'startOAuthLogin',
          summary: 'Start the OAuth sign-in (link)',
          description:
            'Starts the authorization code flow with PKCE and a state value: stores them in a ' +
            'short-lived session cookie (10 minutes) and redirects to the provider. The provider ' +
            'sends the browser back to `/api/auth/callback`.',
          tag: 'auth',
          access: 'public',
          modes: ['oauth'],
          parameters: [parameterRef('returnTo')],
          responses: {
            '302': {
              description: 'To the provider’s authorization endpoint.',
              headers: { ...REDIRECT, ...SET_SESSION },
            },
          },
        }),
        post: post({
          operationId: 'startOAuthLoginForm',
          summary: 'Start the OAuth sign-in (form)',
          description: 'As `GET /api/auth/login`, for a form post: answers 303. No body is read.',
          tag: 'auth',
          access: 'public',
          modes: ['oauth'],
          parameters: [parameterRef('returnTo')],
          responses: {
            '303': {
              description: 'To the provider’s authorization endpoint.',
              headers: { ...REDIRECT, ...SET_SESSION },
            },
          },
        }),
      },
      '/api/auth/callback': {
        get: get({
          operationId: 'finishOAuthLogin',
          summary: 'OAuth callback',
          description:
            'Where the provider sends the browser back (`{public_origin}/api/auth/callback`). ' +
            'Checks the state against the sign-in’s session cookie, exchanges the code, reads the ' +
            'user’s claims, records the user and starts the session, then redirects to the ' +
            '`returnTo` of the sign-in. Failures never answer JSON: they clear the cookie and ' +
            `redirect to \`/login?error=<code>\` with one of ${OAUTH_ERROR_CODES.map((c) => `\`${c}\``).join(', ')} ` +
            '(`access_denied` also for a disabled user).',
          tag: 'auth',
          access: 'public',
          readsSession: true,
          modes: ['oauth'],
          parameters: [
            {
              name: 'code',
              in: 'query',
              description: 'The authorization code (missing: `no_code`).',
              schema: { type: 'string' },
            },
            {
              name: 'state',
              in: 'query',
              description: 'The state sent with the sign-in (mismatch: `invalid_state`).',
              schema: { type: 'string' },
            },
            {
              name: 'error',
              in: 'query',
              description:
                'An error the provider reports instead of a code: `access_denied` stays ' +
                '`access_denied`, any other becomes `callback_failed`.',
              schema: { type: 'string' },
            },
            {
              name: 'error_description',
              in: 'query',
              description: 'The provider’s explanation of `error`, logged.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '302': {
              description:
                'Signed in: to the `returnTo` of the sign-in (default `/`), with the session ' +
                'cookie. Failed: to `/login?error=<code>`, the cookie cleared.',
              headers: { ...REDIRECT, ...SET_SESSION },
            },
          },
        }),
      },
      '/api/auth/refresh': {
        post: post({
          operationId: 'refreshOAuthSession',
          summary: 'Renew the provider’s tokens',
          description:
            'Renews the OAuth access token of the session with its refresh token, and rewrites the ' +
            'session cookie. Only a session cookie from the OAuth sign-in can be refreshed.',
          tag: 'auth',
          modes: ['oauth'],
          responses: {
            '200': json(
              'Renewed.',
              {
                type: 'object',
                required: ['success', 'expiresAt'],
                properties: {
                  success: { const: true },
                  expiresAt: {
                    type: ['integer', 'null'],
                    description:
                      'When the new access token expires (epoch ms), if the provider says',
                  },
                },
              },
              SET_SESSION,
            ),
          },
          errors: {
            invalid_request:
              'The request has no session with a refresh token (authenticated otherwise, or the ' +
              'provider gave none).',
            unauthorized: 'The provider refused to renew the session: sign in again.',
          },
        }),
      },

      '/api/auth/builtin/login': {
        post: post({
          operationId: 'builtinLogin',
          summary: 'Sign in with a password',
          description:
            'Signs in a user of the built-in store and starts the session. Failed attempts are ' +
            'counted per account (per identifier when none matches) and answered alike; ' +
            'SVC_BUILTIN_MAX_FAILED_ATTEMPTS of them lock sign-in for SVC_BUILTIN_LOCKOUT_DURATION ' +
            'seconds and end the account’s sessions.',
          tag: 'builtin',
          access: 'public',
          modes: ['builtin'],
          body: { schema: schemaRef('BuiltinLogin') },
          responses: {
            '200': json(
              'Signed in.',
              {
                type: 'object',
                required: ['success', 'user'],
                properties: { success: { const: true }, user: schemaRef('LoginUser') },
              },
              SET_SESSION,
            ),
          },
          errors: [
            {
              invalid_request: 'username or password is missing or not a string.',
              invalid_credentials: 'Wrong username or password.',
              account_locked:
                'Too many failed sign-ins for this account from this address: try again later.',
              email_not_verified:
                'SVC_BUILTIN_VERIFY_EMAIL is on and the address is not confirmed yet.',
              forbidden: 'The account is disabled.',
            },
            SIGN_IN_LIMITS,
          ],
        }),
      },
      '/api/auth/builtin/signup': {
        post: post({
          operationId: 'builtinSignup',
          summary: 'Create an account',
          description:
            'Creates a user of the built-in store (role from no groups: viewer) when ' +
            'SVC_BUILTIN_ALLOW_SIGNUP is on. Signed in at once, unless SVC_BUILTIN_VERIFY_EMAIL is ' +
            'on: then a confirmation mail goes out and `verificationRequired` is true.',
          tag: 'builtin',
          access: 'public',
          modes: ['builtin'],
          body: { schema: schemaRef('BuiltinSignup') },
          responses: {
            '201': json(
              'Created.',
              {
                type: 'object',
                required: ['success', 'user', 'verificationRequired'],
                properties: {
                  success: { const: true },
                  user: schemaRef('LoginUser'),
                  verificationRequired: {
                    type: 'boolean',
                    description:
                      'The address must be confirmed before signing in (no session then)',
                  },
                },
              },
              SET_SESSION,
            ),
          },
          errors: [
            {
              signup_disabled: ERROR_MEANING.signup_disabled,
              invalid_request: 'A field is missing or not acceptable (the message names it).',
              password_too_short: ERROR_MEANING.password_too_short,
              email_exists: ERROR_MEANING.email_exists,
              username_exists: ERROR_MEANING.username_exists,
            },
            SIGN_IN_LIMITS,
          ],
        }),
      },
      '/api/auth/builtin/forgot-password': {
        post: post({
          operationId: 'builtinForgotPassword',
          summary: 'Ask for a password reset mail',
          description:
            'Mails a reset link (`{public_origin}/reset-password?token=…`, valid ' +
            'SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds) when an enabled account has the address. ' +
            'Always answers success, so that it tells nothing of which addresses are registered.',
          tag: 'builtin',
          access: 'public',
          modes: ['builtin'],
          body: { schema: schemaRef('EmailOnly') },
          responses: { '200': SUCCESS },
          errors: [{ invalid_request: 'email is not an e-mail address.' }, SIGN_IN_LIMITS],
        }),
      },
      '/api/auth/builtin/reset-password': {
        post: post({
          operationId: 'builtinResetPassword',
          summary: 'Set a new password with a mailed token',
          description:
            'Sets the password with the token of a reset mail (single use). It also confirms the ' +
            'address, ends every session of the account and lifts a lockout. The user signs in ' +
            'afterwards.',
          tag: 'builtin',
          access: 'public',
          modes: ['builtin'],
          body: {
            schema: {
              type: 'object',
              required: ['token', 'password'],
              properties: {
                token: { type: 'string', maxLength: 128, description: 'From the mailed link' },
                password: { type: 'string', maxLength: MAX_PASSWORD_CHARS },
              },
            },
          },
          responses: { '200': SUCCESS },
          errors: [
            {
              password_too_short: ERROR_MEANING.password_too_short,
              invalid_request: 'password is not a string, or too long.',
              invalid_token: ERROR_MEANING.invalid_token,
            },
            SIGN_IN_LIMITS,
          ],
        }),
      },
      '/api/auth/builtin/verify-email': {
        post: post({
          operationId: 'builtinVerifyEmail',
          summary: 'Confirm an e-mail address with a mailed token',
          description: 'Confirms the address with the token of a verification mail (single use).',
          tag: 'builtin',
          access: 'public',
          modes: ['builtin'],
          body: {
            schema: {
              type: 'object',
              required: ['token'],
              properties: {
                token: { type: 'string', maxLength: 128, description: 'From the mailed link' },
              },
            },
          },
          responses: { '200': SUCCESS },
          errors: [{ invalid_token: ERROR_MEANING.invalid_token }, SIGN_IN_LIMITS],
        }),
      },
      '/api/auth/builtin/resend-verification': {
        post: post({
          operationId: 'builtinResendVerification',
          summary: 'Ask for a new verification mail',
          description:
            'Mails a fresh verification link when an enabled, unconfirmed account has the address; ' +
            'earlier links stop working. Always answers success, like forgot-password.',
          tag: 'builtin',
          access: 'public',
          modes: ['builtin'],
          body: { schema: schemaRef('EmailOnly') },
          responses: { '200': SUCCESS },
          errors: [{ invalid_request: 'email is not an e-mail address.' }, SIGN_IN_LIMITS],
        }),
      },

      '/api/settings/api-keys': {
        get: get({
          operationId: 'listOwnApiKeys',
          summary: 'Your API keys',
          description:
            'The caller’s keys that are not revoked (expired ones included), newest first. Never ' +
            'the secret: only its first characters (`prefix`).',
          tag: 'api-keys',
          responses: {
            '200': json(
              'The keys.',
              wrapped('keys', { type: 'array', items: schemaRef('ApiKey') }),
            ),
          },
          errors: { forbidden: 'The anonymous user owns no keys: sign in.' },
        }),
        post: post({
          operationId: 'createApiKey',
          summary: 'Create an API key',
          description:
            'Creates a key for the caller. The key itself is in this answer only, once; store it. ' +
            'It authenticates as its owner (`provider: api-key`) with the owner’s current role.',
          tag: 'api-keys',
          body: { schema: schemaRef('NewApiKey') },
          responses: {
            '201': json('Created.', {
              type: 'object',
              required: ['key', 'apiKey'],
              properties: {
                key: {
                  type: 'string',
                  pattern: '^svc_sk_',
                  description: 'The key, shown only here',
                },
                apiKey: schemaRef('ApiKey'),
              },
            }),
          },
          errors: {
            forbidden:
              'The anonymous user owns no keys; an API key cannot create keys (sign in); or API ' +
              'keys are disabled (SVC_AUTH_API_KEYS_ENABLED=false).',
            invalid_request: 'name or expiresInDays is not acceptable.',
            api_key_limit_reached: ERROR_MEANING.api_key_limit_reached,
          },
        }),
      },
      '/api/settings/api-keys/{id}': {
        delete: del({
          operationId: 'revokeOwnApiKey',
          summary: 'Revoke one of your API keys',
          description:
            'Revokes the key at once. Another user’s key answers 404, as an unknown id does.',
          tag: 'api-keys',
          parameters: [parameterRef('apiKeyId')],
          responses: { '200': SUCCESS },
          errors: {
            forbidden: 'The anonymous user owns no keys.',
            not_found: 'No such key of the caller (or it is revoked already).',
          },
        }),
      },
      '/api/admin/api-keys': {
        get: get({
          operationId: 'listAllApiKeys',
          summary: 'Every user’s API keys',
          description:
            'The keys of every user that are not revoked, newest first, one page of them. Admins ' +
            'only. Unlike the other lists, the answer holds no `total`, `limit` or `offset`.',
          tag: 'api-keys',
          parameters: PAGING,
          responses: {
            '200': json(
              'The keys.',
              wrapped('keys', { type: 'array', items: schemaRef('ApiKey') }),
            ),
          },
          errors: {
            forbidden: 'Only admins manage every user’s API keys.',
            invalid_request: 'limit or offset is not a whole number in range.',
          },
        }),
      },
      '/api/admin/api-keys/{id}': {
        delete: del({
          operationId: 'revokeApiKey',
          summary: 'Revoke any API key',
          description: 'Revokes any user’s key at once. Admins only.',
          tag: 'api-keys',
          parameters: [parameterRef('apiKeyId')],
          responses: { '200': SUCCESS },
          errors: {
            forbidden: 'Only admins manage every user’s API keys.',
            not_found: 'No such key (or it is revoked already).',
          },
        }),
      },

      '/api/users': {
        get: get({
          operationId: 'listUsers',
          summary: 'The users',
          description:
            'Every recorded user (built-in accounts, and proxy and OAuth users seen so far), oldest ' +
            'first. Admins only.',
          tag: 'users',
          parameters: PAGING,
          responses: { '200': json('One page of users.', page('users', schemaRef('AdminUser'))) },
          errors: {
            forbidden: 'Only admins see the users.',
            invalid_request: 'limit or offset is not a whole number in range.',
          },
        }),
      },
      '/api/users/{id}': {
        patch: patch({
          operationId: 'updateUser',
          summary: 'Change a built-in user',
          description:
            'Changes a user of the built-in store: the role override (null: follow the groups), ' +
            'the groups, disabled. Disabling ends the user’s sessions; a new role or groups apply ' +
            'from the next request. Admins only; the identity provider decides the other users. ' +
            'An admin cannot disable themselves or give up their own admin role.',
          tag: 'users',
          parameters: [parameterRef('userId')],
          body: { schema: schemaRef('UserPatch') },
          responses: {
            '200': json('The user as changed.', wrapped('user', schemaRef('AdminUser'))),
          },
          errors: {
            forbidden: 'Only admins see the users.',
            invalid_request:
              'An unknown or malformed field; the user is not of the built-in store; or the change ' +
              'would disable the caller or take away their own admin role.',
            not_found: 'No such user.',
          },
        }),
      },

      '/api/workspaces': {
        get: get({
          operationId: 'listWorkspaces',
          summary: 'Your workspaces',
          description:
            'The workspaces the caller holds a role in (from group bindings, unexpired direct ' +
            'grants and anonymous access), with that role.',
          tag: 'workspaces',
          parameters: PAGING,
          responses: {
            '200': json(
              'One page of workspaces.',
              page('workspaces', schemaRef('WorkspaceSummary')),
            ),
          },
          errors: {
            forbidden: 'The dashboard role may not view workspaces.',
            invalid_request: 'limit or offset is not a whole number in range.',
            unavailable: 'No cluster is configured.',
          },
        }),
      },
      '/api/workspaces/{name}': {
        get: get({
          operationId: 'getWorkspace',
          summary: 'A workspace',
          description:
            'A workspace’s details: quotas, network policy, budgets and spending, member counts, ' +
            'conditions, what the caller may do there (`permissions`) and, for owners only, who ' +
            'has access (`access`).',
          tag: 'workspaces',
          parameters: [workspaceName],
          responses: {
            '200': json('The workspace.', wrapped('workspace', schemaRef('WorkspaceDetails'))),
          },
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
            },
            WORKSPACE_ERRORS,
          ],
        }),
      },

      '/api/workspaces/{name}/agents': {
        get: get({
          operationId: 'listAgents',
          summary: 'The agents of a workspace',
          description: 'The AgentRuntimes of the workspace’s namespace, by name.',
          tag: 'agents',
          parameters: [workspaceName, ...PAGING],
          responses: { '200': json('One page of agents.', page('agents', schemaRef('Agent'))) },
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
              invalid_request: 'limit or offset is not a whole number in range.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        }),
        post: post({
          operationId: 'createAgent',
          summary: 'Create an agent',
          description:
            'Creates an AgentRuntime in the workspace’s namespace, following a prompt pack of the ' +
            'workspace. Needs the dashboard role editor or admin and the workspace role owner or ' +
            'editor.',
          tag: 'agents',
          parameters: [workspaceName],
          body: { schema: schemaRef('NewAgent') },
          responses: { '201': json('Created.', wrapped('agent', schemaRef('Agent'))) },
          errors: [
            {
              invalid_request: 'An unknown or malformed field.',
              already_exists: 'An agent of that name exists.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('creating agents'),
          ],
        }),
      },
      '/api/workspaces/{name}/agents/{agentName}': {
        get: get({
          operationId: 'getAgent',
          summary: 'An agent, with its pods',
          description: 'One AgentRuntime and the pods it runs, by name.',
          tag: 'agents',
          parameters: [workspaceName, agentName],
          responses: { '200': json('The agent.', wrapped('agent', schemaRef('AgentDetails'))) },
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
              invalid_request: 'agent is not a Kubernetes object name.',
              not_found: 'No such agent.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        }),
        patch: patch({
          operationId: 'scaleAgent',
          summary: 'Scale an agent',
          description:
            'Sets the agent’s replicas. The workspace’s maxReplicasPerAgent quota may hold the ' +
            'running count below it (condition ReplicasLimited).',
          tag: 'agents',
          parameters: [workspaceName, agentName],
          body: {
            schema: {
              type: 'object',
              required: ['replicas'],
              additionalProperties: false,
              properties: { replicas: { type: 'integer', minimum: 0, maximum: 1000 } },
            },
          },
          responses: { '200': json('The agent as changed.', wrapped('agent', schemaRef('Agent'))) },
          errors: [
            {
              invalid_request: 'agent is not an object name, or replicas is not 0 to 1000.',
              not_found: 'No such agent.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('scaling agents'),
          ],
        }),
        delete: del({
          operationId: 'deleteAgent',
          summary: 'Delete an agent',
          description: 'Deletes the AgentRuntime; the cluster removes its pods.',
          tag: 'agents',
          parameters: [workspaceName, agentName],
          responses: { '200': SUCCESS },
          errors: [
            {
              invalid_request: 'agent is not a Kubernetes object name.',
              not_found: 'No such agent.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('deleting agents'),
          ],
        }),
      },
      '/api/workspaces/{name}/agents/{agentName}/logs': {
        get: get({
          operationId: 'getAgentLogs',
          summary: 'The log of an agent',
          description:
            'The log of one container of one of the agent’s pods, as plain text: the pod asked ' +
            'for, else the newest running one, else the newest; the container asked for, else the ' +
            'pod’s first. `x-pod` and `x-container` name the ones read. With `follow=true` the ' +
            'answer is streamed as the container writes, until the client leaves or the ' +
            'container ends.',
          tag: 'agents',
          parameters: [
            workspaceName,
            agentName,
            {
              name: 'tailLines',
              in: 'query',
              description: 'Only the last lines, this many.',
              schema: { type: 'integer', minimum: 0, maximum: 100_000 },
            },
            {
              name: 'sinceSeconds',
              in: 'query',
              description: 'Only the lines of the last seconds, this many.',
              schema: { type: 'integer', minimum: 0, maximum: 10 * 365 * 86_400 },
            },
            {
              name: 'follow',
              in: 'query',
              description: 'Stream the log as it grows (`true`, `1` or empty; `false` or `0`).',
              schema: { type: 'boolean', default: false },
            },
            {
              name: 'timestamps',
              in: 'query',
              description: 'Start each line with its RFC 3339 time.',
              schema: { type: 'boolean', default: false },
            },
            {
              name: 'pod',
              in: 'query',
              description: 'The pod, one of the agent’s.',
              schema: OBJECT_NAME,
            },
            {
              name: 'container',
              in: 'query',
              description: 'The container, one of the pod’s.',
              schema: OBJECT_NAME,
            },
          ],
          responses: {
            '200': {
              description: 'The log; streamed when `follow=true`.',
              headers: {
                'x-pod': { description: 'The pod read.', schema: { type: 'string' } },
                'x-container': { description: 'The container read.', schema: { type: 'string' } },
              },
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
          },
          errors: [
            {
              forbidden: 'The dashboard role may not view logs.',
              invalid_request:
                'agent, pod or container is not an object name, or tailLines, sinceSeconds, follow ' +
                'or timestamps is malformed.',
              not_found: 'The agent has no pods, no such pod, or the pod has no such container.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        }),
      },
      '/api/workspaces/{name}/agents/{agentName}/events': {
        get: get({
          operationId: 'listAgentEvents',
          summary: 'The events of an agent',
          description:
            'The cluster’s events about the AgentRuntime and its pods, oldest first (by last seen).',
          tag: 'agents',
          parameters: [workspaceName, agentName, ...PAGING],
          responses: { '200': json('One page of events.', page('events', schemaRef('Event'))) },
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
              invalid_request: 'agent is not an object name, or limit or offset is malformed.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        }),
      },

      '/api/workspaces/{name}/agents/{agentName}/pods/{podName}/sandbox/{sandboxPath}': {
        get: get(
          doorOperation('readAgentSandbox', 'A pod’s sandbox: read, or open a terminal or tunnel'),
        ),
        post: post(doorOperation('postAgentSandbox', 'A pod’s sandbox: register an SSH key')),
        delete: del(doorOperation('deleteAgentSandbox', 'A pod’s sandbox: remove an SSH key')),
      },
      '/api/workspaces/{name}/agents/{agentName}/mcp': {
        get: get(
          mcpOperation(
            'streamAgentMcp',
            'The agent’s MCP server (Streamable HTTP): the session’s stream',
          ),
        ),
        post: post(
          mcpOperation(
            'postAgentMcp',
            'The agent’s MCP server (Streamable HTTP): a JSON-RPC message',
          ),
        ),
        delete: del(
          mcpOperation(
            'deleteAgentMcp',
            'The agent’s MCP server (Streamable HTTP): end the session',
          ),
        ),
      },
      '/api/workspaces/{name}/agents/{agentName}/sse': {
        get: get(
          mcpOperation(
            'openAgentMcpSse',
            'The agent’s MCP server (SSE transport): open a session',
            {
              description:
                MCP_DESCRIPTION +
                '\n\nThe first event, `endpoint`, names the path to POST messages to, relative to ' +
                'this one: `message?sessionId=<ordinal>.<id>`.',
            },
          ),
        ),
      },
      '/api/workspaces/{name}/agents/{agentName}/message': {
        post: post(
          mcpOperation(
            'postAgentMcpSseMessage',
            'The agent’s MCP server (SSE transport): a JSON-RPC message',
            {
              description: MCP_DESCRIPTION + '\n\nThe answer comes on the session’s SSE stream.',
              parameters: [
                workspaceName,
                agentName,
                {
                  name: 'sessionId',
                  in: 'query',
                  required: true,
                  description: 'The session, as the `endpoint` event named it.',
                  schema: { type: 'string' },
                },
              ],
            },
          ),
        ),
      },

      '/api/workspaces/{name}/promptpacks': {
        get: get({
          operationId: 'listPromptPacks',
          summary: 'The prompt packs of a workspace',
          description: 'The PromptPacks of the workspace’s namespace, by name.',
          tag: 'prompt packs',
          parameters: [workspaceName, ...PAGING],
          responses: {
            '200': json('One page of prompt packs.', page('promptPacks', schemaRef('PromptPack'))),
          },
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
              invalid_request: 'limit or offset is not a whole number in range.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        }),
      },
      '/api/workspaces/{name}/promptpacks/{pack}': {
        put: put({
          operationId: 'putPromptPack',
          summary: 'Create or replace a prompt pack',
          description:
            'Creates the PromptPack (201) or replaces its spec (200). A replacement fails with ' +
            '`conflict` when the pack changed between the dashboard’s read and write.',
          tag: 'prompt packs',
          parameters: [parameterRef('workspace'), parameterRef('pack')],
          body: { schema: schemaRef('PromptPackSpec') },
          responses: {
            '200': json('Replaced.', wrapped('promptPack', schemaRef('PromptPack'))),
            '201': json('Created.', wrapped('promptPack', schemaRef('PromptPack'))),
          },
          errors: [
            {
              invalid_request: 'pack is not an object name, or an unknown or malformed field.',
              conflict: ERROR_MEANING.conflict,
              already_exists: 'Another request created the pack meanwhile.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing prompt packs'),
          ],
        }),
        delete: del({
          operationId: 'deletePromptPack',
          summary: 'Delete a prompt pack',
          description: 'Deletes the PromptPack.',
          tag: 'prompt packs',
          parameters: [parameterRef('workspace'), parameterRef('pack')],
          responses: { '200': SUCCESS },
          errors: [
            {
              invalid_request: 'pack is not a Kubernetes object name.',
              not_found: 'No such prompt pack.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing prompt packs'),
          ],
        }),
      },

      '/api/workspaces/{name}/toolregistries': {
        get: get({
          operationId: 'listToolRegistries',
          summary: 'The tool registries of a workspace',
          description: 'The ToolRegistries of the workspace’s namespace, by name.',
          tag: 'tool registries',
          parameters: [workspaceName, ...PAGING],
          responses: {
            '200': json(
              'One page of tool registries.',
              page('toolRegistries', schemaRef('ToolRegistry')),
            ),
          },
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
              invalid_request: 'limit or offset is not a whole number in range.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        }),
      },
      '/api/workspaces/{name}/toolregistries/{registry}': {
        put: put({
          operationId: 'putToolRegistry',
          summary: 'Create or replace a tool registry',
          description:
            'Creates the ToolRegistry (201) or replaces its spec (200); the cluster validates the ' +
            'spec. A replacement fails with `conflict` when the registry changed between the ' +
            'dashboard’s read and write.',
          tag: 'tool registries',
          parameters: [parameterRef('workspace'), parameterRef('registry')],
          body: {
            schema: {
              type: 'object',
              required: ['spec'],
              additionalProperties: false,
              properties: { spec: schemaRef('ToolRegistrySpec') },
            },
          },
          responses: {
            '200': json('Replaced.', wrapped('toolRegistry', schemaRef('ToolRegistry'))),
            '201': json('Created.', wrapped('toolRegistry', schemaRef('ToolRegistry'))),
          },
          errors: [
            {
              invalid_request:
                'registry is not an object name, spec is not an object, or an unknown field.',
              conflict: ERROR_MEANING.conflict,
              already_exists: 'Another request created the registry meanwhile.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing tools'),
          ],
        }),
        delete: del({
          operationId: 'deleteToolRegistry',
          summary: 'Delete a tool registry',
          description: 'Deletes the ToolRegistry.',
          tag: 'tool registries',
          parameters: [parameterRef('workspace'), parameterRef('registry')],
          responses: { '200': SUCCESS },
          errors: [
            {
              invalid_request: 'registry is not a Kubernetes object name.',
              not_found: 'No such tool registry.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing tools'),
          ],
        }),
      },

      '/api/workspaces/{name}/access': {
        put: put({
          operationId: 'putWorkspaceAccess',
          summary: 'Change who has access',
          description:
            'Replaces the fields given (roleBindings, directGrants, anonymousAccess; absent ones ' +
            'stay as they are) on the Workspace. For the workspace’s owners, whatever their ' +
            'dashboard role; also while the workspace is suspended. Someone must remain able to ' +
            'manage the members: an owner binding naming a group or ServiceAccount, or an ' +
            'unexpired owner grant (anonymous ownership does not count). Written through the ' +
            'dashboard’s own identity, only if the Workspace did not change since it was read.',
          tag: 'members',
          parameters: [workspaceName],
          body: { schema: schemaRef('AccessChange') },
          responses: {
            '200': json('The access as changed.', wrapped('access', schemaRef('Access'))),
          },
          errors: [
            {
              forbidden:
                'Only the workspace’s owners manage its members; or the cluster refused the dashboard.',
              invalid_request: 'An unknown or malformed field (the message names it).',
              last_owner: ERROR_MEANING.last_owner,
              conflict: 'The Workspace changed since it was read: read it again and retry.',
              not_found: 'The Workspace was deleted meanwhile.',
              unavailable: 'The cluster could not be reached.',
            },
            WORKSPACE_ERRORS,
          ],
        }),
      },
    },
    components: {
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc_session',
          description:
            '`oauth` and `builtin` modes. The encrypted session cookie set at sign-in (name: ' +
            'SVC_SESSION_COOKIE_NAME, default `svc_session`; chunks `.1` and `.2` when large); it ' +
            'lasts SVC_SESSION_TTL seconds from sign-in.',
        },
        apiKeyBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_sk_…',
          description: 'Every mode. `Authorization: Bearer <API key>`.',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'Every mode. The API key in `X-API-Key` instead of Authorization (not both).',
        },
        jwtBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            '`oauth` mode. `Authorization: Bearer <JWT>`: a token of the OpenID provider, verified ' +
            'for issuer, audience, expiry and signature.',
        },
        proxyUser: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-User',
          description:
            '`proxy` mode. The username, set by the authenticating proxy (SVC_AUTH_PROXY_HEADER_USER).',
        },
        proxyEmail: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-Email',
          description: '`proxy` mode, optional. The e-mail address (SVC_AUTH_PROXY_HEADER_EMAIL).',
        },
        proxyGroups: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-Groups',
          description:
            '`proxy` mode, optional. Comma-separated groups, which decide the role ' +
            '(SVC_AUTH_PROXY_HEADER_GROUPS).',
        },
        proxyDisplayName: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-Preferred-Username',
          description:
            '`proxy` mode, optional. The display name (SVC_AUTH_PROXY_HEADER_DISPLAY_NAME).',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          description: `The one error body of every Paddock HTTP API. Each code has one status: ${Object.entries(
            ERROR_STATUS,
          )
            .map(([code, status]) => `\`${code}\` ${status}`)
            .join(', ')}.`,
          required: ['error', 'message'],
          properties: {
            error: {
              type: 'string',
              description: 'A stable code',
              enum: Object.keys(ERROR_STATUS),
              examples: ['not_found'],
            },
            message: { type: 'string', description: 'What went wrong, for people' },
          },
        },
        Success: {
          type: 'object',
          required: ['success'],
          properties: { success: { const: true } },
        },
        Readiness: {
          type: 'object',
          required: ['status', 'checks'],
          properties: {
            status: { type: 'string', enum: ['ready', 'not_ready', 'draining'] },
            checks: {
              type: 'object',
              description: 'Each readiness check and whether it passes',
              additionalProperties: { type: 'boolean' },
              examples: [{ workspaces: true }],
            },
          },
        },
        AuthConfig: {
          type: 'object',
          required: [
            'mode',
            'signupAllowed',
            'verifyEmail',
            'provider',
            'apiKeysEnabled',
            'minPasswordLength',
          ],
          properties: {
            mode: { type: 'string', enum: [...AUTH_MODES] },
            signupAllowed: { type: 'boolean', description: 'builtin mode with sign-up allowed' },
            verifyEmail: { type: 'boolean', description: 'builtin mode with e-mail verification' },
            provider: {
              type: ['string', 'null'],
              enum: [...OAUTH_PROVIDERS, null],
              description: 'The OAuth provider in oauth mode, else null',
            },
            apiKeysEnabled: { type: 'boolean' },
            minPasswordLength: { type: 'integer', minimum: 1 },
          },
        },
        Role: {
          type: 'string',
          enum: [...ROLES],
          description: 'The dashboard role, which decides what the user may do',
        },
        WorkspaceRole: {
          type: 'string',
          enum: [...WORKSPACE_ROLES],
          description: 'The role held in a workspace',
        },
        User: {
          type: 'object',
          description: 'The user object of the specification',
          required: ['id', 'username', 'groups', 'role', 'provider'],
          properties: {
            id: { type: 'string' },
            username: { type: 'string' },
            email: { type: 'string' },
            displayName: { type: 'string' },
            groups: { type: 'array', items: { type: 'string' } },
            role: schemaRef('Role'),
            provider: {
              type: 'string',
              enum: [...PROVIDERS],
              description: 'How this request was authenticated',
            },
          },
        },
        LoginUser: {
          type: 'object',
          description: 'The user as the builtin sign-in and sign-up answer it',
          required: ['id', 'username', 'role'],
          properties: {
            id: { type: 'string' },
            username: { type: 'string' },
            email: { type: 'string' },
            role: schemaRef('Role'),
          },
        },
        AdminUser: {
          type: 'object',
          description: 'A recorded user as admins see it',
          required: [
            'id',
            'username',
            'email',
            'displayName',
            'groups',
            'role',
            'roleOverride',
            'provider',
            'disabled',
            'emailVerified',
            'created',
          ],
          properties: {
            id: { type: 'string' },
            username: { type: 'string' },
            email: { type: ['string', 'null'] },
            displayName: { type: ['string', 'null'] },
            groups: { type: 'array', items: { type: 'string' } },
            role: {
              ...schemaRef('Role'),
              description: 'The role now: the override, else the groups’',
            },
            roleOverride: nullable(schemaRef('Role')),
            provider: { type: 'string', enum: ['proxy', 'oauth', 'builtin'] },
            disabled: { type: 'boolean' },
            emailVerified: { type: 'boolean' },
            created: { type: 'string', format: 'date-time' },
          },
        },
        UserPatch: {
          type: 'object',
          additionalProperties: false,
          properties: {
            role: {
              ...nullable(schemaRef('Role')),
              description: 'The role override; null to follow the groups again',
            },
            groups: { type: 'array', items: { type: 'string' } },
            disabled: { type: 'boolean' },
          },
        },
        BuiltinLogin: {
          type: 'object',
          required: ['username', 'password'],
          properties: {
            username: {
              type: 'string',
              minLength: 1,
              description: 'The username or e-mail address',
            },
            password: { type: 'string' },
          },
        },
        BuiltinSignup: {
          type: 'object',
          required: ['username', 'email', 'password'],
          properties: {
            username: {
              type: 'string',
              minLength: USERNAME_MIN_CHARS,
              maxLength: USERNAME_MAX_CHARS,
              description:
                'Letters, digits, `.`, `_` and `-`, starting with a letter or digit (no `@`)',
            },
            email: { type: 'string', format: 'email', maxLength: EMAIL_MAX_CHARS },
            password: {
              type: 'string',
              maxLength: MAX_PASSWORD_CHARS,
              description: 'At least SVC_BUILTIN_MIN_PASSWORD_LENGTH characters',
            },
            displayName: { type: ['string', 'null'], maxLength: DISPLAY_NAME_MAX_CHARS },
          },
        },
        EmailOnly: {
          type: 'object',
          required: ['email'],
          properties: { email: { type: 'string', format: 'email', maxLength: EMAIL_MAX_CHARS } },
        },
        ApiKey: {
          type: 'object',
          description: 'An API key as listed: never its secret',
          required: ['id', 'name', 'prefix', 'created', 'expires', 'lastUsed', 'userId'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            prefix: { type: 'string', description: 'The first characters of the key' },
            created: { type: 'string', format: 'date-time' },
            expires: { type: ['string', 'null'], format: 'date-time', description: 'null: never' },
            lastUsed: {
              type: ['string', 'null'],
              format: 'date-time',
              description: 'To the minute',
            },
            userId: { type: 'string', description: 'The owner' },
          },
        },
        NewApiKey: {
          type: 'object',
          required: ['name'],
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: MAX_KEY_NAME_CHARS,
              description: 'Printable characters; trimmed',
            },
            expiresInDays: {
              type: ['integer', 'null'],
              minimum: 0,
              maximum: 3650,
              description:
                'Days until the key expires; 0 never. Absent or null: SVC_AUTH_API_KEYS_DEFAULT_EXPIRATION',
            },
          },
        },
        WorkspaceSummary: {
          type: 'object',
          required: [
            'name',
            'displayName',
            'description',
            'environment',
            'namespace',
            'phase',
            'role',
          ],
          properties: {
            name: { type: 'string' },
            displayName: { type: 'string' },
            description: { type: ['string', 'null'] },
            environment: {
              type: ['string', 'null'],
              enum: ['development', 'staging', 'production', null],
            },
            namespace: { type: 'string' },
            phase: { type: 'string', enum: ['Pending', 'Ready', 'Suspended', 'Error'] },
            role: { ...schemaRef('WorkspaceRole'), description: 'The caller’s role in it' },
          },
        },
        WorkspaceDetails: {
          allOf: [
            schemaRef('WorkspaceSummary'),
            {
              type: 'object',
              required: [
                'createdAt',
                'permissions',
                'quotas',
                'networkPolicy',
                'costControls',
                'costUsage',
                'members',
                'access',
                'conditions',
                'observedGeneration',
              ],
              properties: {
                createdAt: { type: ['string', 'null'], format: 'date-time' },
                permissions: {
                  type: 'object',
                  description: 'What the caller may do here: the client shows only these actions',
                  required: [
                    'scaleAgents',
                    'createAgents',
                    'deleteAgents',
                    'modifyPrompts',
                    'modifyTools',
                    'manageMembers',
                  ],
                  properties: Object.fromEntries(
                    [
                      'scaleAgents',
                      'createAgents',
                      'deleteAgents',
                      'modifyPrompts',
                      'modifyTools',
                      'manageMembers',
                    ].map((action) => [action, { type: 'boolean' }]),
                  ),
                },
                quotas: crdSchema(workspaceSpecSchema.properties.quotas),
                networkPolicy: {
                  type: 'object',
                  required: [
                    'isolate',
                    'allowExternalAPIs',
                    'allowSharedNamespaces',
                    'allowPrivateNetworks',
                    'status',
                  ],
                  properties: {
                    isolate: { type: 'boolean' },
                    allowExternalAPIs: { type: 'boolean' },
                    allowSharedNamespaces: { type: 'boolean' },
                    allowPrivateNetworks: { type: 'boolean' },
                    status: nullable(crdSchema(workspaceStatusSchema.properties.networkPolicy)),
                  },
                },
                costControls: nullable(crdSchema(workspaceSpecSchema.properties.costControls)),
                costUsage: nullable(crdSchema(workspaceStatusSchema.properties.costUsage)),
                members: {
                  type: 'object',
                  description: 'Members counted by role',
                  properties: {
                    owners: { type: 'integer', minimum: 0 },
                    editors: { type: 'integer', minimum: 0 },
                    viewers: { type: 'integer', minimum: 0 },
                  },
                },
                access: {
                  ...nullable(schemaRef('Access')),
                  description: 'Who has access: for owners only, else null',
                },
                conditions: { type: 'array', items: schemaRef('Condition') },
                observedGeneration: { type: ['integer', 'null'], minimum: 0 },
              },
            },
          ],
        },
        Condition: crdSchema(conditionSchema),
        Access: {
          type: 'object',
          required: ['resourceVersion', 'roleBindings', 'directGrants', 'anonymousAccess'],
          properties: {
            resourceVersion: {
              type: ['string', 'null'],
              description: 'The Workspace version read; send it back with a change',
            },
            roleBindings: crdSchema(workspaceSpecSchema.properties.roleBindings),
            directGrants: {
              type: 'array',
              items: {
                type: 'object',
                required: ['user', 'role', 'active'],
                properties: {
                  ...crdSchema(workspaceSpecSchema.properties.directGrants.items.properties),
                  active: { type: 'boolean', description: 'Whether the grant is in force now' },
                },
              },
            },
            anonymousAccess: crdSchema(workspaceSpecSchema.properties.anonymousAccess),
          },
        },
        AccessChange: {
          type: 'object',
          description: 'The access fields to replace; absent ones stay as they are',
          additionalProperties: false,
          properties: {
            resourceVersion: {
              type: 'string',
              description:
                'The resourceVersion of the access read; when given, a change made since answers 409 conflict',
            },
            roleBindings: {
              type: 'array',
              maxItems: MAX_ACCESS_ENTRIES,
              items: {
                type: 'object',
                required: ['role'],
                additionalProperties: false,
                description: 'Names at least one group or ServiceAccount',
                properties: {
                  groups: { type: 'array', items: { type: 'string', minLength: 1 } },
                  serviceAccounts: {
                    type: 'array',
                    maxItems: MAX_ACCESS_ENTRIES,
                    items: {
                      type: 'object',
                      required: ['name', 'namespace'],
                      additionalProperties: false,
                      properties: { name: { type: 'string' }, namespace: { type: 'string' } },
                    },
                  },
                  role: schemaRef('WorkspaceRole'),
                },
              },
            },
            directGrants: {
              type: 'array',
              maxItems: MAX_ACCESS_ENTRIES,
              items: {
                type: 'object',
                required: ['user', 'role'],
                additionalProperties: false,
                properties: {
                  user: {
                    type: 'string',
                    minLength: 1,
                    description: 'A username or an e-mail address (case-insensitive)',
                  },
                  role: schemaRef('WorkspaceRole'),
                  expires: {
                    type: ['string', 'null'],
                    format: 'date-time',
                    description: 'When the grant ends (RFC 3339); absent or null: never',
                  },
                },
              },
            },
            anonymousAccess: {
              type: 'object',
              required: ['enabled'],
              additionalProperties: false,
              properties: {
                enabled: { type: 'boolean' },
                role: { ...schemaRef('WorkspaceRole'), description: 'Default viewer' },
              },
            },
          },
        },
        Agent: {
          type: 'object',
          description: 'An AgentRuntime',
          required: [
            'name',
            'promptPack',
            'replicas',
            'currentReplicas',
            'readyReplicas',
            'phase',
            'model',
            'image',
            'env',
            'pausedForBudget',
            'costUsage',
            'conditions',
            'createdAt',
          ],
          properties: {
            name: { type: 'string' },
            promptPack: { type: 'string', description: 'The prompt pack it follows' },
            replicas: { type: 'integer', minimum: 0, description: 'Wanted' },
            currentReplicas: { type: 'integer', minimum: 0, description: 'Pods that exist' },
            readyReplicas: { type: 'integer', minimum: 0, description: 'Pods that are ready' },
            phase: { type: 'string', enum: ['Pending', 'Running', 'Failed'] },
            model: { type: ['string', 'null'] },
            image: { type: ['string', 'null'] },
            env: { type: 'object', additionalProperties: { type: 'string' } },
            pausedForBudget: {
              type: 'boolean',
              description: 'The operator scaled it to 0 while the workspace’s budget is exceeded',
            },
            costUsage: nullable(crdSchema(agentRuntimeStatusSchema.properties.costUsage)),
            conditions: { type: 'array', items: schemaRef('Condition') },
            createdAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
        AgentDetails: {
          allOf: [
            schemaRef('Agent'),
            {
              type: 'object',
              required: ['pods'],
              properties: { pods: { type: 'array', items: schemaRef('Pod') } },
            },
          ],
        },
        NewAgent: {
          type: 'object',
          required: ['name', 'promptPack'],
          additionalProperties: false,
          properties: {
            name: OBJECT_NAME,
            promptPack: { ...OBJECT_NAME, description: 'A prompt pack of the workspace' },
            replicas: { type: 'integer', minimum: 0, maximum: 1000, default: 1 },
            model: { type: ['string', 'null'] },
            image: { type: ['string', 'null'] },
            env: {
              type: ['object', 'null'],
              additionalProperties: { type: 'string' },
            },
          },
        },
        Pod: {
          type: 'object',
          required: ['name', 'phase', 'containers', 'startedAt'],
          properties: {
            name: { type: 'string' },
            phase: { type: 'string', examples: ['Running'] },
            containers: { type: 'array', items: { type: 'string' } },
            startedAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
        PromptPack: {
          type: 'object',
          required: ['name', 'description', 'systemPrompt', 'prompts', 'createdAt'],
          properties: {
            name: { type: 'string' },
            description: { type: ['string', 'null'] },
            systemPrompt: { type: 'string' },
            prompts: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'content'],
                properties: { name: { type: 'string' }, content: { type: 'string' } },
              },
            },
            createdAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
        PromptPackSpec: {
          type: 'object',
          required: ['systemPrompt'],
          additionalProperties: false,
          properties: {
            systemPrompt: { type: 'string' },
            description: { type: ['string', 'null'] },
            prompts: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'content'],
                properties: { name: { type: 'string' }, content: { type: 'string' } },
              },
            },
          },
        },
        ToolRegistrySpec: {
          ...crdSchema(toolRegistrySpecSchema),
          description: 'The ToolRegistry spec, as the cluster’s resource definition has it',
        },
        ToolRegistry: {
          type: 'object',
          required: [
            'name',
            'spec',
            'phase',
            'discoveredToolsCount',
            'availableToolsCount',
            'discoveredTools',
            'conditions',
          ],
          properties: {
            name: { type: 'string' },
            spec: schemaRef('ToolRegistrySpec'),
            phase: { type: 'string', enum: ['Pending', 'Ready', 'Degraded', 'Failed'] },
            discoveredToolsCount: { type: 'integer', minimum: 0 },
            availableToolsCount: { type: 'integer', minimum: 0 },
            discoveredTools: crdSchema(toolRegistryStatusSchema.properties.discoveredTools),
            conditions: { type: 'array', items: schemaRef('Condition') },
          },
        },
        Event: {
          type: 'object',
          description: 'A cluster event about an agent or one of its pods',
          required: [
            'type',
            'reason',
            'message',
            'object',
            'count',
            'firstSeen',
            'lastSeen',
            'source',
          ],
          properties: {
            type: { type: 'string', enum: ['Normal', 'Warning'] },
            reason: { type: 'string' },
            message: { type: 'string' },
            object: {
              type: 'object',
              required: ['kind', 'name'],
              properties: {
                kind: { type: 'string', examples: ['AgentRuntime', 'Pod'] },
                name: { type: 'string' },
              },
            },
            count: { type: 'integer', minimum: 0 },
            firstSeen: { type: ['string', 'null'], format: 'date-time' },
            lastSeen: { type: ['string', 'null'], format: 'date-time' },
            source: { type: ['string', 'null'], description: 'The component that reported it' },
          },
        },
      },
      parameters: {
        limit: {
          name: 'limit',
          in: 'query',
          description: `Items per page (0 counts as 1).`,
          schema: {
            type: 'integer',
            minimum: 0,
            maximum: MAX_PAGE_SIZE,
            default: DEFAULT_PAGE_SIZE,
          },
        },
        offset: {
          name: 'offset',
          in: 'query',
          description: 'Items to skip.',
          schema: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 },
        },
        returnTo: {
          name: 'returnTo',
          in: 'query',
          description:
            'Where to go after signing in: a path on the dashboard (anything else becomes `/`).',
          schema: { type: 'string', maxLength: 2048, default: '/' },
        },
        workspace: pathParameter('name', 'The workspace (the Workspace object’s name).'),
        agentName: pathParameter('agentName', 'The agent (AgentRuntime) name.'),
        podName: pathParameter('podName', 'One of the agent’s pods, `<agent>-<ordinal>`.'),
        sandboxPath: pathParameter(
          'sandboxPath',
          'The path of the sandbox’s human API, e.g. `api/tree` (see the sandbox’s own OpenAPI ' +
            'description, `api/openapi.yaml` through this route).',
          { type: 'string' },
        ),
        pack: pathParameter('pack', 'The prompt pack (PromptPack) name.'),
        registry: pathParameter('registry', 'The tool registry (ToolRegistry) name.'),
        apiKeyId: pathParameter('id', 'The key’s `id`.', { type: 'string' }),
        userId: pathParameter('id', 'The user’s `id`.', { type: 'string' }),
      },
    },
  };
}

/** The description, built once at load. */
export const OPENAPI_DOCUMENT: OpenApiDocument = buildDocument(
  packageInfo(import.meta.url).version,
);

let yaml: string | undefined;
let jsonText: string | undefined;

/** The description as served at /api/openapi.yaml, serialized on first use. */
export function openApiYaml(): string {
  // No anchors and aliases for the objects shared between operations, no folding of long lines.
  yaml ??= stringify(OPENAPI_DOCUMENT, { aliasDuplicateObjects: false, lineWidth: 0 });
  return yaml;
}

/** The description as served at /api/openapi.json. */
export function openApiJson(): string {
  jsonText ??= JSON.stringify(OPENAPI_DOCUMENT);
  return jsonText;
}

/** `GET /api/openapi.yaml` and `GET /api/openapi.json`: this description, without authentication. */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  const isPublic = { config: { access: 'public' as const } };
  app.get('/api/openapi.yaml', isPublic, (_req, reply) =>
    reply.type('application/yaml; charset=utf-8').send(openApiYaml()),
  );
  app.get('/api/openapi.json', isPublic, (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(openApiJson()),
  );
}
