import { packageInfo } from '@paddock/common';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ErrorEnvelope, COMPONENT } from './schemas/common.js';
import { SANDBOX_PATH } from './schemas/door.js';
import { PASSED_BODY_KEY } from './schemas/runs.js';
import type { RouteAccess } from './context.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { ERRORS_KEY, TAGS, type Errors, type Tag } from './operation.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging.js';
import { WEB_ROUTES } from './web-routes.js';

/**
 * The parts of the dashboard's OpenAPI document that are not the contract of one route: its
 * introduction, tags and security schemes, the error responses every operation of a kind shares,
 * and how @fastify/swagger's output becomes the document (components, probes, the door's path).
 */

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

export const DESCRIPTION = `The HTTP API of the Paddock dashboard (\`paddock-dashboard\`): authentication in four modes,
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

/** The security schemes of the document: every way a request may carry who it is. */
export const SECURITY_SCHEMES = {
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
    description: 'Every mode. The API key in `X-API-Key` instead of Authorization (not both).',
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
    description: '`proxy` mode, optional. The display name (SVC_AUTH_PROXY_HEADER_DISPLAY_NAME).',
  },
} as const;

/** The security a request may bring, any one of them (public operations add `{}`). */
const SECURITY: Array<Record<string, string[]>> = [
  { sessionCookie: [] },
  { apiKeyBearer: [] },
  { apiKeyHeader: [] },
  { jwtBearer: [] },
  { proxyUser: [] },
  { proxyUser: [], proxyEmail: [], proxyGroups: [], proxyDisplayName: [] },
];

const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** The errors every operation of its kind can answer, beside its own. */
function commonErrors(method: string, access: RouteAccess, hasBody: boolean, tag: Tag): Errors[] {
  const common: Errors[] = [];
  if (access === 'authenticated') {
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
  if (hasBody) {
    common.push({
      invalid_request: 'The body is not a JSON object, or does not match its schema.',
      payload_too_large: ERROR_MEANING.payload_too_large,
      unsupported_media_type: ERROR_MEANING.unsupported_media_type,
    });
  }
  // The probes answer whatever the Host; everything else checks it first.
  if (tag !== 'health') common.push({ misdirected_request: ERROR_MEANING.misdirected_request });
  common.push({ internal_error: ERROR_MEANING.internal_error });
  return common;
}

/** The error responses of an operation, by status: each code with its conditions. */
export function errorResponses(errors: Errors[]): Record<string, unknown> {
  const conditions = new Map<ErrorCode, string[]>();
  for (const table of errors) {
    for (const [code, condition] of Object.entries(table) as Array<[ErrorCode, string]>) {
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
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => {
        const names = codes.map(([code]) => `\`${code}\``).join(', ');
        const lines = codes.flatMap(([code, list]) =>
          list.map((condition) => `- \`${code}\`: ${condition}`),
        );
        return [
          String(status),
          {
            description: `${STATUS_TEXT[status] ?? 'Error'} (${names}).\n\n${lines.join('\n')}`,
            allOf: [ErrorEnvelope],
            properties: { error: { enum: codes.map(([code]) => code) } },
          },
        ];
      }),
  );
}

/** The probes are registered by the shared Health; their documentation is added here. */
const PROBES: Record<string, Record<string, unknown>> = {
  '/healthz': {
    operationId: 'getHealth',
    summary: 'Liveness',
    description: 'Answers 200 while the process serves requests.',
    tags: ['health'],
    response: {
      200: {
        description: 'Alive.',
        type: 'object',
        required: ['status'],
        properties: { status: { const: 'ok' } },
      },
    },
  },
  '/readyz': {
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      'Ready when every readiness check passes and the dashboard is not shutting down. With a ' +
      'cluster, the check `workspaces` passes once the Workspaces have been listed and are ' +
      'being watched. The 503 answer has this shape too, not the error shape.',
    tags: ['health'],
    response: {
      200: { description: 'Ready.', ...readiness() },
      503: { description: 'Not ready, or draining (shutting down).', ...readiness() },
    },
  },
};

function readiness() {
  return {
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
      reasons: {
        type: 'object',
        description: 'Why each failing check fails, for the checks that say',
        additionalProperties: { type: 'string' },
      },
    },
    [COMPONENT]: 'Readiness',
  };
}

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown> };

/**
 * A JSON answer of a route (its schema with the description and headers of the answer) as an
 * OpenAPI response: the description beside the schema, not in it.
 */
function asResponse(value: unknown): unknown {
  const answer = value as Record<string, unknown>;
  if ('content' in answer || answer.type === 'null') return answer;
  const { description, headers, ...schema } = answer;
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema } },
  };
}

/**
 * One route as the document shows it: the probes' documentation added, the web interface's pages
 * left out, the door's `*` named `sandboxPath`, the body it passes on unread, who may call it (`x-paddock-access`, from the
 * route's config, and the security of a public one) and its error responses.
 */
export const transform: NonNullable<FastifyDynamicSwaggerOptions['transform']> = ({
  schema,
  url,
  route,
}) => {
  if ((WEB_ROUTES as readonly string[]).includes(url)) {
    return { schema: { ...schema, hide: true }, url };
  }
  const own = { ...((schema as RouteSchema | undefined) ?? PROBES[url] ?? {}) } as RouteSchema;
  const access: RouteAccess =
    PROBES[url] !== undefined ? 'public' : (route.config?.access ?? 'authenticated');
  const errors = (own[ERRORS_KEY] as Errors[] | undefined) ?? [];
  delete own[ERRORS_KEY];
  // A body the door passes on unread is documented as the route's body, never validated by it.
  if (own[PASSED_BODY_KEY] !== undefined) {
    own.body = own[PASSED_BODY_KEY];
    delete own[PASSED_BODY_KEY];
  }
  const method = [route.method].flat()[0] ?? 'GET';
  const tag = ((own.tags as Tag[] | undefined) ?? ['health'])[0]!;
  own['x-paddock-access'] = access;
  if (access === 'public' && own.security === undefined) own.security = [{}];
  own.response = {
    ...Object.fromEntries(
      Object.entries(own.response ?? {}).map(([status, value]) => [status, asResponse(value)]),
    ),
    ...errorResponses([...errors, ...commonErrors(method, access, own.body !== undefined, tag)]),
  };
  let path = url;
  if (path.endsWith('/*')) {
    // fastify's wildcard is the sandbox's path below the pod.
    path = `${path.slice(0, -1)}:sandboxPath`;
    const params = own.params as { properties: Record<string, unknown>; required?: string[] };
    own.params = {
      ...params,
      properties: { ...params.properties, sandboxPath: SANDBOX_PATH },
      required: [...(params.required ?? []), 'sandboxPath'],
    };
  }
  return { schema: own, url: path };
};

/**
 * The schemas marked as components (schemas/common.ts) are shown once under
 * components/schemas and referred to wherever they are used.
 */
export function withComponents<T extends object>(document: T): T {
  const components: Record<string, unknown> = {};
  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = hoist(value);
    const name = out[COMPONENT];
    if (typeof name !== 'string') return out;
    delete out[COMPONENT];
    const { description, ...shape } = out;
    const known = components[name] as Record<string, unknown> | undefined;
    if (known === undefined) components[name] = out;
    const ref: Record<string, unknown> = { $ref: `#/components/schemas/${name}` };
    // A use that describes the schema its own way keeps its description beside the reference.
    const own = known === undefined ? undefined : known.description;
    if (description !== undefined && description !== own && known !== undefined) {
      ref.description = description;
    }
    void shape;
    return ref;
  };
  const doc = hoist(document) as T & { components?: { schemas?: Record<string, unknown> } };
  doc.components = {
    ...doc.components,
    schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
  };
  return doc;
}

/** The options of @fastify/swagger for the dashboard's document. */
export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Paddock dashboard API',
        version: packageInfo(import.meta.url).version,
        description: DESCRIPTION,
      },
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      security: SECURITY,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // OpenAPI 3.1 has JSON Schema's const.
    convertConstToEnum: false,
    transform,
    transformObject: (documentObject) =>
      withComponents('openapiObject' in documentObject ? documentObject.openapiObject : {}),
  };
}
