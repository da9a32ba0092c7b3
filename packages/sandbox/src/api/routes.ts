import type { FastifySchema } from 'fastify';
import type { TSchema } from 'typebox';
import { EXEC_DESCRIPTION, PORT_FORWARD_DESCRIPTION } from './route-docs.js';
import {
  DocsAssetHeaders,
  DocsAssetParams,
  DocsAssetQuery,
  errorResponse,
  EventsHeaders,
  ExecQuery,
  FileHeaders,
  FileQuery,
  fileResponseHeaders,
  header,
  NewSshKey,
  noBody,
  octetStream,
  PortForwardQuery,
  SshKeyList,
  SshKeyParams,
  SshPort,
  sshKeyResponse,
  streamed,
  text,
  Tree,
  TreeQuery,
} from './schemas.js';

/**
 * The human-facing listener's route table: the one list the listener mounts from, gates by flag,
 * answers 405 from, and generates the OpenAPI description from. Each route carries its contract
 * (parameters, body, answers) once, as the schema fastify validates and serializes with.
 */
export type Feature = 'api' | 'exec' | 'port-forward' | 'ssh' | 'always';

/** What a route's schema holds besides fastify's parts: what the description needs. */
export interface RouteSchema extends FastifySchema {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  response: Record<string, TSchema>;
}

export interface RouteSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** fastify syntax: `:name` for a path parameter, a trailing `*` for the rest of the path. */
  path: string;
  feature: Feature;
  /** A WebSocket upgrade route. */
  websocket?: boolean;
  schema: RouteSchema & { 'x-paddock-feature': Feature };
}

/** The flag that mounts each feature, as the descriptions and x-paddock-feature name it. */
export const FEATURE_FLAGS: Record<Feature, string> = {
  api: '-enable-api',
  exec: '-enable-exec',
  'port-forward': '-enable-port-forward',
  ssh: '-enable-ssh',
  always: '-api-addr',
};

/** The sentence every operation's description starts with. */
export function enabledBy(feature: Feature): string {
  return feature === 'always'
    ? 'Always mounted when the human-facing listener is on (`-api-addr`).'
    : `Enabled by \`${FEATURE_FLAGS[feature]}\`; without it this route answers 404.`;
}

const BAD_REQUEST = errorResponse(
  'The request is malformed (a parameter, the body, a path outside the workspace).',
);
const FORBIDDEN = errorResponse('The sandbox may not read that path (permission denied).');
const NOT_FOUND = errorResponse(
  'Nothing there: the route’s feature is off, or the file, folder or key does not exist.',
);
const CONFLICT = errorResponse('The key is registered by another user, or a key limit is reached.');
const TOO_LARGE = errorResponse(
  'Too large: a request body over 64 KiB, or a file answer over 100 MiB.',
);
const UPGRADE_REQUIRED = errorResponse(
  'A WebSocket route was called without `Upgrade: websocket`.',
);
const UNAVAILABLE = errorResponse(
  'Not now: too many streams or downloads at once, or the SSH server is not listening.',
);
const SWITCHED = noBody('Switched to the WebSocket protocol; see the framing above.');

/** The error answers every route can give: no identity, and a method the path does not take. */
const COMMON_ERRORS = {
  401: errorResponse(
    '`X-Paddock-Proof` is missing or invalid, or `X-Forwarded-Sub` is missing or does not ' +
      'match the proof (and `-dev-mode` is off).',
  ),
  405: errorResponse('The path does not take this method.', {
    Allow: header('The methods it takes'),
  }),
};

/** A route of the table: its schema says which flag mounts it and carries the common errors. */
function route<const S extends RouteSchema>(
  method: RouteSpec['method'],
  path: string,
  feature: Feature,
  schema: S,
  websocket?: boolean,
) {
  return {
    method,
    path,
    feature,
    ...(websocket ? { websocket } : {}),
    schema: {
      ...schema,
      description: `${enabledBy(feature)}\n\n${schema.description}`,
      'x-paddock-feature': feature,
      response: { ...schema.response, ...COMMON_ERRORS },
    },
  } satisfies RouteSpec;
}

/** Every route, by the name its module mounts it with. */
export const ROUTES = {
  tree: route('GET', '/api/tree', 'api', {
    operationId: 'getTree',
    summary: 'List the workspace tree',
    description:
      'Entries below the folder `path` (default: the workspace root), down to `depth` levels, ' +
      'sorted by path. The walk is breadth-first and stops at 10,000 entries (`truncated` is ' +
      'then true), so a cut listing keeps the shallow levels; ask for a sub-folder or a depth ' +
      'for the rest. Folders named `.git` and `node_modules` are left out at any depth, and ' +
      'symlinks are listed as `symlink`, never followed.',
    tags: ['files'],
    querystring: TreeQuery,
    response: { 200: Tree, 400: BAD_REQUEST, 403: FORBIDDEN, 404: NOT_FOUND },
  }),
  file: route('GET', '/api/file', 'api', {
    operationId: 'getFile',
    summary: 'Read a file',
    description:
      'The bytes of one regular file inside the workspace, streamed. One byte range ' +
      '(`bytes=a-b`, `a-` or `-n`) is answered 206; several ranges or a malformed header get ' +
      'the whole file. A weak `ETag` and `Last-Modified` identify the version read, for ' +
      '`If-None-Match` (304) and `If-Range`. One answer carries at most 100 MiB: a larger ' +
      'file is refused (413) unless a Range asks for a part within that (or use ' +
      '`/api/download`). The content is served with `Content-Disposition: inline` and a ' +
      'sandboxing Content-Security-Policy, so an HTML or SVG file never runs scripts on ' +
      'this origin. HEAD gives the headers only.',
    tags: ['files'],
    querystring: FileQuery,
    headers: FileHeaders,
    response: {
      200: streamed(
        'The whole file.',
        { 'application/octet-stream': octetStream },
        fileResponseHeaders(false),
      ),
      206: streamed(
        'The range asked for.',
        { 'application/octet-stream': octetStream },
        fileResponseHeaders(true),
      ),
      304: noBody('Not modified: `If-None-Match` names the current version.'),
      400: BAD_REQUEST,
      403: FORBIDDEN,
      404: NOT_FOUND,
      413: TOO_LARGE,
      416: errorResponse('The range starts past the end of the file (`range_not_satisfiable`).', {
        'Content-Range': header('`bytes */<size>`'),
      }),
    },
  }),
  events: route('GET', '/api/events', 'api', {
    operationId: 'streamEvents',
    summary: 'Follow changes to the workspace',
    description:
      'A server-sent event stream of changes to the workspace (`.git` and `node_modules` ' +
      'left out). Each change is `event: change` with an increasing numeric `id` and a ' +
      'JSON `FileEvent` as data. Reconnecting with `Last-Event-ID` replays the changes ' +
      'after it from the last 10,000 kept; when they are no longer kept (or the id is not ' +
      'this run’s) `event: reset` says to fetch the tree again. Then `event: ready` (data ' +
      '`{"id": <last id>}`) marks the stream live. A `: keepalive` comment is sent every ' +
      '15 s (SVC_API_KEEPALIVE_SECONDS); a client that stops reading is dropped and may resume. ' +
      'At most 100 streams are open at once (503 beyond). GET only: HEAD answers 405.',
    tags: ['files'],
    headers: EventsHeaders,
    response: {
      200: streamed('The event stream; the data of each `change` event is one FileEvent.', {
        'text/event-stream': text({
          description: 'SSE frames: `change` (data: FileEvent), `reset`, `ready`',
          examples: [
            'id: 1732250000001\nevent: ready\ndata: {"id":1732250000001}\n\n' +
              'id: 1732250000002\nevent: change\ndata: {"type":"change","kind":"file","path":"src/index.ts","time":"2025-01-01T12:00:00.000Z"}\n\n',
          ],
        }),
      }),
      503: UNAVAILABLE,
    },
  }),
  download: route('GET', '/api/download', 'api', {
    operationId: 'downloadWorkspace',
    summary: 'Download the workspace as a zip',
    description:
      'The workspace as a zip archive generated while streaming: no temporary file, flat ' +
      'memory, no size cap, at the pace the client reads. Folders named `.git` and ' +
      '`node_modules` are skipped at any depth, as are symlinks (never followed), sockets and ' +
      'devices. Already-compressed formats are stored, the rest deflated. A failure after ' +
      'the first byte breaks the connection, so a cut archive never looks complete. At most ' +
      '8 downloads run at once (503 beyond). GET only: HEAD answers 405.',
    tags: ['files'],
    response: {
      200: streamed(
        'The archive.',
        { 'application/zip': text({ contentMediaType: 'application/zip' }) },
        {
          'Content-Disposition': header('`attachment; filename="workspace-<UTC timestamp>.zip"`', {
            examples: ['attachment; filename="workspace-20250101T120000Z.zip"'],
          }),
        },
      ),
      503: UNAVAILABLE,
    },
  }),
  exec: route(
    'GET',
    '/api/exec',
    'exec',
    {
      operationId: 'openExec',
      summary: 'Open a terminal (WebSocket)',
      description: EXEC_DESCRIPTION,
      tags: ['terminal'],
      querystring: ExecQuery,
      response: { 101: SWITCHED, 400: BAD_REQUEST, 404: NOT_FOUND, 426: UPGRADE_REQUIRED },
    },
    true,
  ),
  portForward: route(
    'GET',
    '/api/port-forward',
    'port-forward',
    {
      operationId: 'openPortForward',
      summary: 'Open a TCP tunnel to a sandbox port (WebSocket)',
      description: PORT_FORWARD_DESCRIPTION,
      tags: ['tunnels'],
      querystring: PortForwardQuery,
      response: { 101: SWITCHED, 400: BAD_REQUEST, 404: NOT_FOUND, 426: UPGRADE_REQUIRED },
    },
    true,
  ),
  registerSshKey: route('POST', '/api/ssh-authorized-keys', 'ssh', {
    operationId: 'registerSshKey',
    summary: 'Register an SSH public key',
    description:
      'Registers a public key (one OpenSSH public key line, as in a `.pub` file) for the ' +
      'caller: it then authenticates to the embedded SSH server and belongs to the caller’s ' +
      '`X-Forwarded-Sub`. Accepted types: ssh-ed25519, ecdsa-sha2-nistp256/384/521, and ' +
      'ssh-rsa of 2048 bits or more. The `id` is derived from the key, so registering the ' +
      'same key again answers 200 with the existing record. A key another user registered, ' +
      'or more than 20 keys per user, answers 409; a sandbox holding 1000 keys answers ' +
      '503 until keys are deleted. Keys live in memory ' +
      'and are gone when the sandbox stops. Each new key writes the audit line ' +
      '`api ssh-authorized-keys sub=… type=…`.',
    tags: ['ssh'],
    body: NewSshKey,
    response: {
      200: sshKeyResponse('The caller had registered this key already: its record.'),
      201: sshKeyResponse('The key is registered.'),
      400: BAD_REQUEST,
      404: NOT_FOUND,
      409: CONFLICT,
      413: TOO_LARGE,
      503: UNAVAILABLE,
    },
  }),
  listSshKeys: route('GET', '/api/ssh-authorized-keys', 'ssh', {
    operationId: 'listSshKeys',
    summary: 'List your SSH keys',
    description: 'The keys registered by the caller’s `X-Forwarded-Sub` (never other callers’).',
    tags: ['ssh'],
    response: { 200: SshKeyList, 404: NOT_FOUND },
  }),
  deleteSshKey: route('DELETE', '/api/ssh-authorized-keys/:id', 'ssh', {
    operationId: 'deleteSshKey',
    summary: 'Remove one of your SSH keys',
    description:
      'Removes a key the caller registered; it no longer authenticates new SSH connections. ' +
      'Another caller’s key answers 404, as an unknown id does.',
    tags: ['ssh'],
    params: SshKeyParams,
    response: { 204: noBody('The key is removed.'), 404: NOT_FOUND },
  }),
  sshPort: route('GET', '/api/ssh-port', 'ssh', {
    operationId: 'getSshPort',
    summary: 'Where the embedded SSH server listens',
    description:
      'The embedded SSH server listens on the sandbox’s 127.0.0.1 on a port the OS chose at ' +
      'start; reach it through `/api/port-forward?port=<port>` (`paddock-forward --ssh` ' +
      'does). It accepts public keys registered with `/api/ssh-authorized-keys` only (any ' +
      'user name), runs shells, commands and SFTP in the workspace root, and allows `ssh -L` ' +
      'to the sandbox’s loopback only. Its ed25519 host key is new at every start and never ' +
      'stored; `hostKeys` holds its public half, so that a client which reached this route ' +
      'through its authenticated proxy can pin it for the connection it opens next ' +
      '(`paddock-forward` writes it to the known_hosts file its ssh config names). 503 while ' +
      'it is not listening (shutting down).',
    tags: ['ssh'],
    response: { 200: SshPort, 404: NOT_FOUND, 503: UNAVAILABLE },
  }),
  openApi: route('GET', '/api/openapi.yaml', 'always', {
    operationId: 'getOpenApi',
    summary: 'This description',
    description:
      'This OpenAPI 3.1 document. It describes every route, including those whose flags are off.',
    tags: ['self-description'],
    response: {
      200: streamed('The document.', { 'application/yaml': text({}) }),
    },
  }),
  docs: route('GET', '/api/docs', 'always', {
    operationId: 'getDocs',
    summary: 'This description, rendered',
    description:
      'An HTML page rendering this description with Swagger UI, served by the sandbox itself ' +
      '(no CDN: it works without outbound access) under a Content-Security-Policy that allows ' +
      'scripts and styles from the sandbox only.',
    tags: ['self-description'],
    response: { 200: streamed('The page.', { 'text/html': text({}) }) },
  }),
  docsAsset: route('GET', '/api/docs/assets/*', 'always', {
    operationId: 'getDocsAsset',
    summary: 'A file of the documentation page',
    description:
      'The Swagger UI files the page needs and its start script; any other name answers 404. ' +
      'URLs carry `?v=<content hash>`: such a response may be cached for good (`immutable`), ' +
      'one without it must be revalidated with its `ETag`.',
    tags: ['self-description'],
    params: DocsAssetParams,
    querystring: DocsAssetQuery,
    headers: DocsAssetHeaders,
    response: {
      200: streamed(
        'The file, with its Content-Type, `ETag` and `Cache-Control`.',
        {
          'text/css': text({}),
          'text/javascript': text({}),
          'image/png': text({ contentMediaType: 'image/png' }),
        },
        {
          ETag: header('The content hash.'),
          'Cache-Control': header(
            '`public, max-age=31536000, immutable` for a versioned URL, else `no-cache`.',
          ),
        },
      ),
      304: noBody('Not modified (`If-None-Match` matched the `ETag`).'),
      404: NOT_FOUND,
    },
  }),
};

export const API_ROUTES: readonly RouteSpec[] = Object.values(ROUTES);

/** The route of the table at this method and path, if any. */
export function routeAt(method: string, path: string): RouteSpec | undefined {
  return API_ROUTES.find((r) => r.method === method && r.path === path);
}

export interface EnabledFeatures {
  api: boolean;
  exec: boolean;
  portForward: boolean;
  ssh: boolean;
}

export function isEnabled(feature: Feature, enabled: EnabledFeatures): boolean {
  switch (feature) {
    case 'always':
      return true;
    case 'api':
      return enabled.api;
    case 'exec':
      return enabled.exec;
    case 'port-forward':
      return enabled.portForward;
    case 'ssh':
      return enabled.ssh;
  }
}

/** Whether a concrete path matches a route path of the table. */
export function pathMatches(routePath: string, path: string): boolean {
  if (routePath.endsWith('*')) return path.startsWith(routePath.slice(0, -1));
  const want = routePath.split('/');
  const got = path.split('/');
  return (
    want.length === got.length &&
    want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]))
  );
}

/**
 * For a request no route answered: the methods the path does take when its feature is on (a 405
 * with Allow), or none (a 404, also for every route of a disabled feature).
 */
export function allowedMethods(path: string, enabled: EnabledFeatures): string[] {
  return API_ROUTES.filter((r) => isEnabled(r.feature, enabled) && pathMatches(r.path, path)).map(
    (r) => r.method,
  );
}
