import type { TSchema } from 'typebox';
import { TREE_MAX_DEPTH } from './tree.js';

/**
 * The bodies, parameters and answers of the human-facing API as schemas: what fastify validates
 * and serializes, and what the OpenAPI description is generated from (see routes.ts). Plain JSON
 * Schema literals: TypeBox reads their types (`Static`) at compile time and checks them once a
 * route is first called, but its type builders never load at run time (some MiB of an idle
 * sandbox). Each literal is written as TypeBox's builder wrote it (`type`, `required`,
 * `properties`, then the options), so the description is the same document.
 */

/** Terminal size when the query does not give one: the classic VT100 screen. */
export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 24;
/** Largest terminal side accepted; far beyond any screen, small enough to keep the pty sane. */
export const MAX_TERMINAL_SIDE = 1000;
/** Longest `command` accepted: a one-shot command line, not a script upload. */
export const MAX_COMMAND_LENGTH = 8 * 1024;
export const MIN_PORT = 1;
export const MAX_PORT = 65535;

/**
 * One of a few strings: `{type: string, enum}`, which the serializer writes as a plain string (a
 * union of literals would make it try each branch, for every one of up to 10,000 tree entries).
 */
function oneOf<const V extends readonly string[]>(values: V) {
  return { type: 'string', enum: values } as const;
}

/** A workspace-relative path as /api/tree, /api/file and events name it. */
const workspacePath = <const D extends string>(description: D) =>
  ({ type: 'string', description, examples: ['src/index.ts'] }) as const;

const errorProperties = {
  error: { type: 'string', description: 'A stable code', examples: ['not_found'] },
  message: { type: 'string', description: 'What went wrong, for people' },
} as const;

/** The one error body of every Paddock HTTP API. */
export const ErrorBody = {
  type: 'object',
  required: ['error', 'message'],
  properties: errorProperties,
  description: 'The one error body of every Paddock HTTP API.',
} as const;

/** An answer with no body of its own (101, 204, 304): documented, never serialized. */
export function noBody(description: string): TSchema {
  return { type: 'null', description };
}

/** An error answer: the envelope, described for this status. */
export function errorResponse(description: string, headers?: Record<string, TSchema>) {
  return {
    type: 'object',
    required: ['error', 'message'],
    properties: errorProperties,
    description,
    ...(headers ? { headers } : {}),
  } as const;
}

/** A body that is a stream of bytes of one media type: documented, never serialized. */
export function streamed(
  description: string,
  mediaTypes: Record<string, TSchema>,
  headers?: Record<string, TSchema>,
): TSchema {
  const content = Object.fromEntries(
    Object.entries(mediaTypes).map(([type, schema]) => [type, { schema }]),
  );
  return { description, content, ...(headers ? { headers } : {}) };
}

/** A header of a response, as the description documents it. */
export const header = (description: string, extra: object = {}) =>
  ({ type: 'string', description, ...extra }) as const;

/** A string, documented by `options` (TypeBox's `Type.String(options)`). */
export const text = <const O extends object>(options: O) =>
  ({ type: 'string', ...options }) as const;

export const TreeQuery = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description: 'Folder to list, relative to the workspace root; default the root.',
      default: '.',
    },
    depth: {
      type: 'integer',
      minimum: 1,
      maximum: TREE_MAX_DEPTH,
      description:
        'Levels to list: 1 is the folder’s own entries. Without it, as deep as the entry cap allows.',
    },
  },
} as const;

export const TreeEntry = {
  type: 'object',
  required: ['path', 'type', 'size', 'mtime'],
  properties: {
    path: workspacePath('Relative to the workspace root'),
    type: oneOf(['file', 'dir', 'symlink', 'other']),
    size: { type: 'integer', minimum: 0, description: 'Bytes' },
    mtime: { type: 'string', format: 'date-time' },
  },
} as const;

export const Tree = {
  type: 'object',
  required: ['root', 'entries', 'truncated'],
  properties: {
    root: { type: 'string', description: 'The folder listed, relative to the workspace root' },
    entries: { type: 'array', items: TreeEntry },
    truncated: { type: 'boolean', description: 'The entry cap cut the listing' },
  },
  description: 'The entries.',
} as const;

export const FileQuery = {
  type: 'object',
  required: ['path'],
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      description: 'File to read, relative to the workspace root.',
      examples: ['src/index.ts'],
    },
  },
} as const;

export const FileHeaders = {
  type: 'object',
  properties: {
    range: header('One byte range, e.g. `bytes=0-1023`, `bytes=1024-` or `bytes=-500`.'),
    'if-none-match': header('An `ETag` received before: 304 when the file has not changed.'),
    'if-range': header('The `ETag` or `Last-Modified` of the version the range is from.'),
  },
} as const;

/** The headers of a file answer (200 and 206). */
export function fileResponseHeaders(partial: boolean): Record<string, TSchema> {
  return {
    'Content-Type': header(
      'From the file name; text types with `charset=utf-8`, else `application/octet-stream`',
    ),
    'Content-Disposition': header(
      '`inline; filename="<name>"` (with `filename*` for names outside ASCII)',
    ),
    ETag: header('Weak validator of this version (size and modification time)', {
      examples: ['W/"1a2b-17f0c3d2e1a00000"'],
    }),
    'Last-Modified': header('The file’s modification time'),
    'Accept-Ranges': header('`bytes`', { const: 'bytes' }),
    ...(partial ? { 'Content-Range': header('`bytes <start>-<end>/<size>`') } : {}),
  };
}

export const octetStream = text({ contentMediaType: 'application/octet-stream' });

export const EventsHeaders = {
  type: 'object',
  properties: {
    'last-event-id': header('The id of the last event received, to resume from after it.'),
  },
} as const;

export const FileEvent = {
  type: 'object',
  required: ['type', 'path', 'kind', 'time'],
  properties: {
    type: oneOf(['create', 'change', 'delete', 'rename']),
    path: workspacePath('Relative to the workspace root'),
    kind: oneOf(['file', 'dir']),
    time: { type: 'string', format: 'date-time' },
    from: { type: 'string', description: 'The former path, for `rename`' },
  },
} as const;

export const ExecQuery = {
  type: 'object',
  properties: {
    cols: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_TERMINAL_SIDE,
      default: DEFAULT_COLS,
      description: 'Terminal width in columns.',
    },
    rows: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_TERMINAL_SIDE,
      default: DEFAULT_ROWS,
      description: 'Terminal height in rows.',
    },
    command: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_COMMAND_LENGTH,
      // Not only blanks: an empty command line would start nothing.
      pattern: '\\S',
      description: `A command for \`bash -lc\` instead of the interactive login shell (at most ${MAX_COMMAND_LENGTH} characters).`,
    },
  },
  additionalProperties: false,
} as const;

export const PortForwardQuery = {
  type: 'object',
  required: ['port'],
  properties: {
    port: {
      type: 'integer',
      minimum: MIN_PORT,
      maximum: MAX_PORT,
      description:
        'The port on the sandbox’s 127.0.0.1 to connect to. The sandbox’s own listeners ' +
        '(MCP, this API, SSH) are refused with 400.',
    },
  },
  // The tunnel always reaches 127.0.0.1: a host (or any other parameter) is refused.
  additionalProperties: false,
} as const;

export const NewSshKey = {
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
} as const;

export const SshKey = {
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
} as const;

/** An SSH key record, described for this answer. */
export function sshKeyResponse<const D extends string>(description: D) {
  return { ...SshKey, description } as const;
}

export const SshKeyParams = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', description: 'The `id` the registration returned.' },
  },
} as const;

export const SshKeyList = {
  type: 'object',
  required: ['keys'],
  properties: { keys: { type: 'array', items: SshKey } },
  description: 'The caller’s keys.',
} as const;

export const SshPort = {
  type: 'object',
  required: ['port', 'host', 'hostKeys'],
  properties: {
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    host: { type: 'string', const: '127.0.0.1' },
    hostKeys: {
      type: 'array',
      items: { type: 'string', examples: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…'] },
      description: 'The host public keys, `<type> <base64>` as in known_hosts.',
    },
  },
  description: 'The listener.',
} as const;

export const DocsAssetParams = {
  type: 'object',
  required: ['*'],
  properties: {
    '*': {
      type: 'string',
      description: 'The asset’s name.',
      examples: ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js'],
    },
  },
} as const;

export const DocsAssetQuery = {
  type: 'object',
  properties: {
    v: { type: 'string', description: 'The content hash the page links with.' },
  },
} as const;

export const DocsAssetHeaders = {
  type: 'object',
  properties: {
    'if-none-match': header('An `ETag` received before.'),
  },
} as const;
