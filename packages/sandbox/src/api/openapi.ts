import {
  packageInfo,
  type OpenApiDocument as OpenApiDocumentOf,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
  type OpenApiSchema,
} from '@paddock/common';
import { stringify } from 'yaml';
import type { Feature } from './routes.js';

/**
 * The human-facing listener's OpenAPI 3.1 description, built in code so that it ships inside dist/
 * with the rest of the sandbox. Its paths are written out here rather than derived from API_ROUTES:
 * test/api-openapi.test.ts compares the two, so a route added to one and not the other fails a test.
 */

type Schema = OpenApiSchema;
export type Parameter = OpenApiParameter;
export type Response = OpenApiResponse;

export interface Operation extends OpenApiOperation {
  'x-paddock-feature': Feature;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
}

export type HttpMethod = 'get' | 'post' | 'delete';

export type OpenApiDocument = OpenApiDocumentOf<
  HttpMethod,
  Operation,
  {
    securitySchemes: Record<string, Schema>;
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
  }
>;

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

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The error responses every route can give: no identity, and a method the path does not take. */
const COMMON_ERRORS = { '401': ref('Unauthorized'), '405': ref('MethodNotAllowed') };

function operation(
  feature: Feature,
  op: Omit<Operation, 'x-paddock-feature' | 'description'> & { description: string },
): Operation {
  return {
    ...op,
    description: `${enabledBy(feature)}\n\n${op.description}`,
    'x-paddock-feature': feature,
    responses: { ...op.responses, ...COMMON_ERRORS },
  };
}

/** A workspace-relative path as /api/tree, /api/file and events name it. */
const workspacePath = { type: 'string', examples: ['src/index.ts'] };

const EXEC_DESCRIPTION = `An interactive terminal in the workspace over a WebSocket (\`GET\` with \`Upgrade: websocket\`):
the login shell (\`$SHELL -l\`, bash by default), or \`bash -lc <command>\` when \`command\` is given, under a
pseudo-terminal (\`TERM=xterm-256color\`), in the workspace root, with the sandbox's environment minus
its secrets. A request that is not an upgrade answers 426 before anything else; a bad query
(\`cols\`/\`rows\` outside 1..1000, an empty or over-long \`command\`, an unknown parameter) answers
400 before the upgrade.

Framing:

- **Binary frames** carry raw terminal bytes, both ways: keystrokes client→server, terminal output
  server→client.
- **Text frames** carry JSON control messages:
  - client→server \`{"type":"resize","cols":120,"rows":40}\` resizes the terminal (1..1000 each);
  - client→server \`{"type":"signal","signal":"SIGINT"}\` signals the terminal's foreground job, as
    its keyboard would (SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGKILL, SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2);
  - server→client \`{"type":"exit","code":0,"signal":null}\` is sent **exactly once**, when the shell
    ends, and the server then closes the socket with code 1000. \`code\` is the exit status, or
    128 + N when signal N killed the shell (\`signal\` then names it, e.g. \`"SIGKILL"\`).
- A malformed or unknown control message closes the socket with 1008 and the reason; a shell that
  cannot start closes it with 1011; sandbox shutdown closes it with 1001.

Closing the socket from the client hangs the terminal up: the shell and whatever it left running
in its session end. The server pings every 30 s and drops a client that stops answering. One audit
line \`api exec sub=… duration=… exit=…\` is written to the sandbox's stderr when the shell ends.`;

const PORT_FORWARD_DESCRIPTION = `A raw TCP tunnel to \`127.0.0.1:<port>\` inside the sandbox, over a WebSocket (\`GET\` with
\`Upgrade: websocket\`). There is no host parameter: the target is always the sandbox's loopback.
A request that is not an upgrade answers 426 before anything else; a \`port\` that is missing, given
twice or not an integer in 1..65535, or any other query parameter, answers 400 before the upgrade.

Framing:

- **Binary frames** carry raw TCP bytes, both ways, in order. Bytes sent while the connection to the
  target is still being made wait for it.
- **The text frame \`eof\`** is the one text frame, in both directions: its sender has finished
  sending (TCP's half-close). From the client, the target gets FIN after every byte before it, and
  what the target answers still arrives; bytes after it close the socket with 1002. From the server,
  it follows every byte the target sent before its FIN; the client may go on sending. Once both
  sides have sent \`eof\`, the server closes with 1000. Any other text frame closes with 1003.
- When the target refuses the connection, resets it or does not answer within 10 s, the server
  closes with code 1011 and a reason such as \`connection refused: 127.0.0.1:5432\`.
- Closing the socket from the client ends both directions: the target gets FIN after the bytes
  already received, and what it sends afterwards is dropped.
- Sandbox shutdown closes with 1001. The server pings every 30 s and drops a client that stops
  answering.

Both directions apply backpressure, so a slow side slows the other instead of filling memory.
This is how \`paddock-forward --ssh\` reaches the embedded SSH server (see \`/api/ssh-port\`). One
audit line \`api port-forward sub=… port=… in=… out=… dur=…\` is written when the tunnel closes.`;

const DESCRIPTION = `The human-facing API of one Paddock workspace sandbox, served on \`-api-addr\`: the file tree,
file reads, a change feed, a zip download, a terminal, TCP tunnels and SSH keys for a developer's own
tools.

**Trust model.** The sandbox authenticates no one itself: it serves whoever the auth-terminating
proxy in front of it vouches for, and every request must prove it came through that proxy with the
\`X-Paddock-Proof\` header (the default outside \`-dev-mode\`). Either the proxy signs a short-lived
token (EdDSA or ES256, at most 5 minutes, for this sandbox's audience; \`SVC_API_PROOF_PUBLIC_KEY\`,
\`SVC_API_PROOF_AUDIENCE\`) that carries the identity, or a generic reverse proxy sends a static
secret (the sandbox holds only its SHA-256, \`SVC_API_PROXY_SECRET_SHA256\`) beside the identity
headers \`X-Forwarded-Sub\` (required), \`X-Forwarded-User\` and \`X-Forwarded-Groups\` (optional). With
a token, identity headers a request carries must equal the token's claims. Without a valid proof,
or without an identity, every request is answered 401 before routing, WebSocket upgrades included,
so an unauthenticated caller learns nothing, not even which features are on.
**Never expose this listener directly.** \`-dev-mode\` (loopback only) trusts the headers as they
come and replaces missing ones with \`Sub=dev, User=dev\`; it must never be used in production.

**Features.** Each group of routes is mounted only when its flag is on (\`-enable-api\`,
\`-enable-exec\`, \`-enable-port-forward\`, \`-enable-ssh\`); the routes of a disabled feature answer
404 like an unknown path. This description lists every route whatever the flags: each operation
names its flag in its description and in \`x-paddock-feature\`.

**Errors.** Every error body is \`{"error": "<code>", "message": "<text>"}\`. A method that a path
does not take answers 405 with an \`Allow\` header.`;

function buildDocument(version: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Paddock sandbox human-facing API', version, description: DESCRIPTION },
    tags: [
      { name: 'files', description: 'Reading the workspace (`-enable-api`)' },
      { name: 'terminal', description: 'Interactive shell (`-enable-exec`)' },
      {
        name: 'tunnels',
        description: 'TCP tunnels to the sandbox loopback (`-enable-port-forward`)',
      },
      { name: 'ssh', description: 'The embedded SSH server (`-enable-ssh`)' },
      { name: 'self-description', description: 'This description (always mounted)' },
    ],
    security: [
      { proxyProof: [], forwardedSub: [], forwardedUser: [], forwardedGroups: [] },
      { proxyProof: [], forwardedSub: [] },
      { proxyProof: [] },
    ],
    paths: {
      '/api/tree': {
        get: operation('api', {
          operationId: 'getTree',
          summary: 'List the workspace tree',
          description:
            'Entries below the folder `path` (default: the workspace root), down to `depth` levels, ' +
            'sorted by path. The walk is breadth-first and stops at 10,000 entries (`truncated` is ' +
            'then true), so a cut listing keeps the shallow levels; ask for a sub-folder or a depth ' +
            'for the rest. Folders named `.git` and `node_modules` are left out at any depth, and ' +
            'symlinks are listed as `symlink`, never followed.',
          tags: ['files'],
          parameters: [
            {
              name: 'path',
              in: 'query',
              description: 'Folder to list, relative to the workspace root; default the root.',
              schema: { type: 'string', default: '.' },
            },
            {
              name: 'depth',
              in: 'query',
              description:
                'Levels to list: 1 is the folder’s own entries. Without it, as deep as the entry cap allows.',
              schema: { type: 'integer', minimum: 1, maximum: 32 },
            },
          ],
          responses: {
            '200': {
              description: 'The entries.',
              content: { 'application/json': { schema: schemaRef('Tree') } },
            },
            '400': ref('BadRequest'),
            '403': ref('Forbidden'),
            '404': ref('NotFound'),
          },
        }),
      },
      '/api/file': {
        get: operation('api', {
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
          parameters: [
            {
              name: 'path',
              in: 'query',
              required: true,
              description: 'File to read, relative to the workspace root.',
              schema: workspacePath,
            },
            {
              name: 'Range',
              in: 'header',
              description: 'One byte range, e.g. `bytes=0-1023`, `bytes=1024-` or `bytes=-500`.',
              schema: { type: 'string' },
            },
            {
              name: 'If-None-Match',
              in: 'header',
              description: 'An `ETag` received before: 304 when the file has not changed.',
              schema: { type: 'string' },
            },
            {
              name: 'If-Range',
              in: 'header',
              description: 'The `ETag` or `Last-Modified` of the version the range is from.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              description: 'The whole file.',
              headers: fileHeaders(false),
              content: {
                'application/octet-stream': {
                  schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
            },
            '206': {
              description: 'The range asked for.',
              headers: fileHeaders(true),
              content: {
                'application/octet-stream': {
                  schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
            },
            '304': { description: 'Not modified: `If-None-Match` names the current version.' },
            '400': ref('BadRequest'),
            '403': ref('Forbidden'),
            '404': ref('NotFound'),
            '413': ref('PayloadTooLarge'),
            '416': {
              ...errorResponse(
                'The range starts past the end of the file (`range_not_satisfiable`).',
              ),
              headers: {
                'Content-Range': { description: '`bytes */<size>`', schema: { type: 'string' } },
              },
            },
          },
        }),
      },
      '/api/events': {
        get: operation('api', {
          operationId: 'streamEvents',
          summary: 'Follow changes to the workspace',
          description:
            'A server-sent event stream of changes to the workspace (`.git` and `node_modules` ' +
            'left out). Each change is `event: change` with an increasing numeric `id` and a ' +
            'JSON `FileEvent` as data. Reconnecting with `Last-Event-ID` replays the changes ' +
            'after it from the last 10,000 kept; when they are no longer kept (or the id is not ' +
            'this run’s) `event: reset` says to fetch the tree again. Then `event: ready` (data ' +
            '`{"id": <last id>}`) marks the stream live. A `: keepalive` comment is sent every ' +
            '15 s (SVC_API_KEEPALIVE_SECONDS); a client that stops reading is dropped and may resume. At most 100 streams ' +
            'are open at once (503 beyond). GET only: HEAD answers 405.',
          tags: ['files'],
          parameters: [
            {
              name: 'Last-Event-ID',
              in: 'header',
              description: 'The id of the last event received, to resume from after it.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              description: 'The event stream; the data of each `change` event is one FileEvent.',
              content: {
                'text/event-stream': {
                  schema: {
                    type: 'string',
                    description: 'SSE frames: `change` (data: FileEvent), `reset`, `ready`',
                  },
                  example:
                    'id: 1732250000001\nevent: ready\ndata: {"id":1732250000001}\n\n' +
                    'id: 1732250000002\nevent: change\ndata: {"type":"change","kind":"file","path":"src/index.ts","time":"2025-01-01T12:00:00.000Z"}\n\n',
                },
              },
            },
            '503': ref('Unavailable'),
          },
        }),
      },
      '/api/download': {
        get: operation('api', {
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
          responses: {
            '200': {
              description: 'The archive.',
              headers: {
                'Content-Disposition': {
                  description: '`attachment; filename="workspace-<UTC timestamp>.zip"`',
                  schema: {
                    type: 'string',
                    examples: ['attachment; filename="workspace-20250101T120000Z.zip"'],
                  },
                },
              },
              content: {
                'application/zip': {
                  schema: { type: 'string', contentMediaType: 'application/zip' },
                },
              },
            },
            '503': ref('Unavailable'),
          },
        }),
      },
      '/api/exec': {
        get: operation('exec', {
          operationId: 'openExec',
          summary: 'Open a terminal (WebSocket)',
          description: EXEC_DESCRIPTION,
          tags: ['terminal'],
          parameters: [
            {
              name: 'cols',
              in: 'query',
              description: 'Terminal width in columns.',
              schema: { type: 'integer', minimum: 1, default: 80 },
            },
            {
              name: 'rows',
              in: 'query',
              description: 'Terminal height in rows.',
              schema: { type: 'integer', minimum: 1, default: 24 },
            },
            {
              name: 'command',
              in: 'query',
              description:
                'A command for `bash -lc` instead of the interactive login shell (at most 8192 characters).',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '101': { description: 'Switched to the WebSocket protocol; see the framing above.' },
            '400': ref('BadRequest'),
            '404': ref('NotFound'),
            '426': ref('UpgradeRequired'),
          },
        }),
      },
      '/api/port-forward': {
        get: operation('port-forward', {
          operationId: 'openPortForward',
          summary: 'Open a TCP tunnel to a sandbox port (WebSocket)',
          description: PORT_FORWARD_DESCRIPTION,
          tags: ['tunnels'],
          parameters: [
            {
              name: 'port',
              in: 'query',
              required: true,
              description:
                'The port on the sandbox’s 127.0.0.1 to connect to. The sandbox’s own listeners ' +
                '(MCP, this API, SSH) are refused with 400.',
              schema: { type: 'integer', minimum: 1, maximum: 65535 },
            },
          ],
          responses: {
            '101': { description: 'Switched to the WebSocket protocol; see the framing above.' },
            '400': ref('BadRequest'),
            '404': ref('NotFound'),
            '426': ref('UpgradeRequired'),
          },
        }),
      },
      '/api/ssh-authorized-keys': {
        post: operation('ssh', {
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
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaRef('NewSshKey') } },
          },
          responses: {
            '200': {
              description: 'The caller had registered this key already: its record.',
              content: { 'application/json': { schema: schemaRef('SshKey') } },
            },
            '201': {
              description: 'The key is registered.',
              content: { 'application/json': { schema: schemaRef('SshKey') } },
            },
            '400': ref('BadRequest'),
            '404': ref('NotFound'),
            '409': ref('Conflict'),
            '413': ref('PayloadTooLarge'),
            '503': ref('Unavailable'),
          },
        }),
        get: operation('ssh', {
          operationId: 'listSshKeys',
          summary: 'List your SSH keys',
          description:
            'The keys registered by the caller’s `X-Forwarded-Sub` (never other callers’).',
          tags: ['ssh'],
          responses: {
            '200': {
              description: 'The caller’s keys.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['keys'],
                    properties: { keys: { type: 'array', items: schemaRef('SshKey') } },
                  },
                },
              },
            },
            '404': ref('NotFound'),
          },
        }),
      },
      '/api/ssh-authorized-keys/{id}': {
        delete: operation('ssh', {
          operationId: 'deleteSshKey',
          summary: 'Remove one of your SSH keys',
          description:
            'Removes a key the caller registered; it no longer authenticates new SSH connections. ' +
            'Another caller’s key answers 404, as an unknown id does.',
          tags: ['ssh'],
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              description: 'The `id` the registration returned.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '204': { description: 'The key is removed.' },
            '404': ref('NotFound'),
          },
        }),
      },
      '/api/ssh-port': {
        get: operation('ssh', {
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
          responses: {
            '200': {
              description: 'The listener.',
              content: { 'application/json': { schema: schemaRef('SshPort') } },
            },
            '404': ref('NotFound'),
            '503': ref('Unavailable'),
          },
        }),
      },
      '/api/openapi.yaml': {
        get: operation('always', {
          operationId: 'getOpenApi',
          summary: 'This description',
          description:
            'This OpenAPI 3.1 document. It describes every route, including those whose flags are off.',
          tags: ['self-description'],
          responses: {
            '200': {
              description: 'The document.',
              content: { 'application/yaml': { schema: { type: 'string' } } },
            },
          },
        }),
      },
      '/api/docs': {
        get: operation('always', {
          operationId: 'getDocs',
          summary: 'This description, rendered',
          description:
            'An HTML page rendering this description with Swagger UI, served by the sandbox itself ' +
            '(no CDN: it works without outbound access) under a Content-Security-Policy that allows ' +
            'scripts and styles from the sandbox only.',
          tags: ['self-description'],
          responses: {
            '200': {
              description: 'The page.',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
          },
        }),
      },
      '/api/docs/assets/{path}': {
        get: operation('always', {
          operationId: 'getDocsAsset',
          summary: 'A file of the documentation page',
          description:
            'The Swagger UI files the page needs and its start script; any other name answers 404. ' +
            'URLs carry `?v=<content hash>`: such a response may be cached for good (`immutable`), ' +
            'one without it must be revalidated with its `ETag`.',
          tags: ['self-description'],
          parameters: [
            {
              name: 'path',
              in: 'path',
              required: true,
              description: 'The asset’s name.',
              schema: {
                type: 'string',
                examples: ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js'],
              },
            },
            {
              name: 'v',
              in: 'query',
              description: 'The content hash the page links with.',
              schema: { type: 'string' },
            },
            {
              name: 'If-None-Match',
              in: 'header',
              description: 'An `ETag` received before.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              description: 'The file, with its Content-Type, `ETag` and `Cache-Control`.',
              headers: {
                ETag: { description: 'The content hash.', schema: { type: 'string' } },
                'Cache-Control': {
                  description:
                    '`public, max-age=31536000, immutable` for a versioned URL, else `no-cache`.',
                  schema: { type: 'string' },
                },
              },
              content: {
                'text/css': { schema: { type: 'string' } },
                'text/javascript': { schema: { type: 'string' } },
                'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
              },
            },
            '304': { description: 'Not modified (`If-None-Match` matched the `ETag`).' },
            '404': ref('NotFound'),
          },
        }),
      },
    },
    components: {
      securitySchemes: {
        proxyProof: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Paddock-Proof',
          description:
            'Required outside `-dev-mode`. The proof that the request came through the proxy: a ' +
            'token the proxy signed for this sandbox (EdDSA or ES256; claims `sub`, `user`, ' +
            '`groups`, `aud`, `iat`, `exp`; at most 300 s of life, 30 s of clock skew), or the ' +
            'static secret of a proxy that cannot sign. Missing or invalid → 401.',
        },
        forwardedSub: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-Sub',
          description:
            'The caller’s stable subject (e.g. the OIDC `sub`), set by the auth-terminating ' +
            'proxy: the audit identifier and the owner of SSH keys. Required unless the proof is a ' +
            'signed token (which carries it; then it must equal the token’s `sub`). Missing → 401.',
        },
        forwardedUser: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-User',
          description: 'Optional. A human-readable user name, set by the proxy.',
        },
        forwardedGroups: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Forwarded-Groups',
          description: 'Optional. Comma-separated groups, set by the proxy; informational only.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          description: 'The one error body of every Paddock HTTP API.',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string', description: 'A stable code', examples: ['not_found'] },
            message: { type: 'string', description: 'What went wrong, for people' },
          },
        },
        Tree: {
          type: 'object',
          required: ['root', 'entries', 'truncated'],
          properties: {
            root: {
              type: 'string',
              description: 'The folder listed, relative to the workspace root',
            },
            entries: { type: 'array', items: schemaRef('TreeEntry') },
            truncated: { type: 'boolean', description: 'The entry cap cut the listing' },
          },
        },
        TreeEntry: {
          type: 'object',
          required: ['path', 'type', 'size', 'mtime'],
          properties: {
            path: { ...workspacePath, description: 'Relative to the workspace root' },
            type: { type: 'string', enum: ['file', 'dir', 'symlink', 'other'] },
            size: { type: 'integer', minimum: 0, description: 'Bytes' },
            mtime: { type: 'string', format: 'date-time' },
          },
        },
        FileEvent: {
          type: 'object',
          required: ['type', 'path', 'kind', 'time'],
          properties: {
            type: { type: 'string', enum: ['create', 'change', 'delete', 'rename'] },
            path: { ...workspacePath, description: 'Relative to the workspace root' },
            kind: { type: 'string', enum: ['file', 'dir'] },
            time: { type: 'string', format: 'date-time' },
            from: { type: 'string', description: 'The former path, for `rename`' },
          },
        },
        NewSshKey: {
          type: 'object',
          required: ['publicKey'],
          properties: {
            publicKey: {
              type: 'string',
              description: 'One OpenSSH public key line: `<type> <base64> [comment]`',
              examples: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI… alice@laptop'],
            },
            name: { type: 'string', description: 'A label for you' },
          },
        },
        SshKey: {
          type: 'object',
          required: ['id', 'type', 'fingerprint', 'comment', 'name', 'createdAt'],
          properties: {
            id: { type: 'string' },
            type: { type: 'string', examples: ['ssh-ed25519'] },
            fingerprint: { type: 'string', examples: ['SHA256:…'] },
            comment: { type: 'string' },
            name: { type: 'string' },
            createdAt: { type: 'string', format: 'date-time' },
          },
        },
        SshPort: {
          type: 'object',
          required: ['port', 'host', 'hostKeys'],
          properties: {
            port: { type: 'integer', minimum: 1, maximum: 65535 },
            host: { type: 'string', const: '127.0.0.1' },
            hostKeys: {
              type: 'array',
              description: 'The host public keys, `<type> <base64>` as in known_hosts.',
              items: { type: 'string', examples: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…'] },
            },
          },
        },
      },
      responses: {
        BadRequest: errorResponse(
          'The request is malformed (a parameter, the body, a path outside the workspace).',
        ),
        Unauthorized: errorResponse(
          '`X-Paddock-Proof` is missing or invalid, or `X-Forwarded-Sub` is missing or does not ' +
            'match the proof (and `-dev-mode` is off).',
        ),
        Forbidden: errorResponse('The sandbox may not read that path (permission denied).'),
        NotFound: errorResponse(
          'Nothing there: the route’s feature is off, or the file, folder or key does not exist.',
        ),
        MethodNotAllowed: {
          ...errorResponse('The path does not take this method.'),
          headers: { Allow: { description: 'The methods it takes', schema: { type: 'string' } } },
        },
        Conflict: errorResponse(
          'The key is registered by another user, or a key limit is reached.',
        ),
        PayloadTooLarge: errorResponse(
          'Too large: a request body over 64 KiB, or a file answer over 100 MiB.',
        ),
        UpgradeRequired: errorResponse(
          'A WebSocket route was called without `Upgrade: websocket`.',
        ),
        Unavailable: errorResponse(
          'Not now: too many streams or downloads at once, or the SSH server is not listening.',
        ),
      },
    },
  };
}

function errorResponse(description: string): Response {
  return { description, content: { 'application/json': { schema: schemaRef('Error') } } };
}

function fileHeaders(partial: boolean): Response['headers'] {
  const headers: NonNullable<Response['headers']> = {
    'Content-Type': {
      description:
        'From the file name; text types with `charset=utf-8`, else `application/octet-stream`',
      schema: { type: 'string' },
    },
    'Content-Disposition': {
      description: '`inline; filename="<name>"` (with `filename*` for names outside ASCII)',
      schema: { type: 'string' },
    },
    ETag: {
      description: 'Weak validator of this version (size and modification time)',
      schema: { type: 'string', examples: ['W/"1a2b-17f0c3d2e1a00000"'] },
    },
    'Last-Modified': { description: 'The file’s modification time', schema: { type: 'string' } },
    'Accept-Ranges': { description: '`bytes`', schema: { type: 'string', const: 'bytes' } },
  };
  if (partial)
    headers['Content-Range'] = {
      description: '`bytes <start>-<end>/<size>`',
      schema: { type: 'string' },
    };
  return headers;
}

/** The description, built once at load. */
export const OPENAPI_DOCUMENT: OpenApiDocument = buildDocument(
  packageInfo(import.meta.url).version,
);

let yaml: string | undefined;

/** The description as served at /api/openapi.yaml, serialized on first use. */
export function openApiYaml(): string {
  // No anchors and aliases for the objects shared between operations, no folding of long lines.
  yaml ??= stringify(OPENAPI_DOCUMENT, { aliasDuplicateObjects: false, lineWidth: 0 });
  return yaml;
}
