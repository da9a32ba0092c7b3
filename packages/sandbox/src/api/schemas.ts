import { Type, type TSchema } from 'typebox';
import { TREE_MAX_DEPTH } from './tree.js';

/**
 * The bodies, parameters and answers of the human-facing API as schemas: what fastify validates
 * and serializes, and what the OpenAPI description is generated from (see routes.ts).
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
function oneOf<const T extends string>(values: readonly T[]) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values] });
}

/** A workspace-relative path as /api/tree, /api/file and events name it. */
const workspacePath = (description: string) =>
  Type.String({ description, examples: ['src/index.ts'] });

/** The one error body of every Paddock HTTP API. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'A stable code', examples: ['not_found'] }),
    message: Type.String({ description: 'What went wrong, for people' }),
  },
  { description: 'The one error body of every Paddock HTTP API.' },
);

/** An answer with no body of its own (101, 204, 304): documented, never serialized. */
export function noBody(description: string): TSchema {
  return Type.Null({ description });
}

/** An error answer: the envelope, described for this status. */
export function errorResponse(description: string, headers?: Record<string, TSchema>) {
  return Type.Object(ErrorBody.properties, {
    description,
    ...(headers ? { headers } : {}),
  });
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
  return Type.Unsafe({ description, content, ...(headers ? { headers } : {}) });
}

/** A header of a response, as the description documents it. */
export const header = (description: string, extra: object = {}) =>
  Type.String({ description, ...extra });

export const TreeQuery = Type.Object({
  path: Type.Optional(
    Type.String({
      description: 'Folder to list, relative to the workspace root; default the root.',
      default: '.',
    }),
  ),
  depth: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: TREE_MAX_DEPTH,
      description:
        'Levels to list: 1 is the folder’s own entries. Without it, as deep as the entry cap allows.',
    }),
  ),
});

export const TreeEntry = Type.Object({
  path: workspacePath('Relative to the workspace root'),
  type: oneOf(['file', 'dir', 'symlink', 'other']),
  size: Type.Integer({ minimum: 0, description: 'Bytes' }),
  mtime: Type.String({ format: 'date-time' }),
});

export const Tree = Type.Object(
  {
    root: Type.String({ description: 'The folder listed, relative to the workspace root' }),
    entries: Type.Array(TreeEntry),
    truncated: Type.Boolean({ description: 'The entry cap cut the listing' }),
  },
  { description: 'The entries.' },
);

export const FileQuery = Type.Object({
  path: Type.String({
    minLength: 1,
    description: 'File to read, relative to the workspace root.',
    examples: ['src/index.ts'],
  }),
});

export const FileHeaders = Type.Object({
  range: Type.Optional(
    header('One byte range, e.g. `bytes=0-1023`, `bytes=1024-` or `bytes=-500`.'),
  ),
  'if-none-match': Type.Optional(
    header('An `ETag` received before: 304 when the file has not changed.'),
  ),
  'if-range': Type.Optional(
    header('The `ETag` or `Last-Modified` of the version the range is from.'),
  ),
});

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

export const octetStream = Type.String({ contentMediaType: 'application/octet-stream' });

export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    header('The id of the last event received, to resume from after it.'),
  ),
});

export const FileEvent = Type.Object({
  type: oneOf(['create', 'change', 'delete', 'rename']),
  path: workspacePath('Relative to the workspace root'),
  kind: oneOf(['file', 'dir']),
  time: Type.String({ format: 'date-time' }),
  from: Type.Optional(Type.String({ description: 'The former path, for `rename`' })),
});

export const ExecQuery = Type.Object(
  {
    cols: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TERMINAL_SIDE,
        default: DEFAULT_COLS,
        description: 'Terminal width in columns.',
      }),
    ),
    rows: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TERMINAL_SIDE,
        default: DEFAULT_ROWS,
        description: 'Terminal height in rows.',
      }),
    ),
    command: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_COMMAND_LENGTH,
        // Not only blanks: an empty command line would start nothing.
        pattern: '\\S',
        description: `A command for \`bash -lc\` instead of the interactive login shell (at most ${MAX_COMMAND_LENGTH} characters).`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const PortForwardQuery = Type.Object(
  {
    port: Type.Integer({
      minimum: MIN_PORT,
      maximum: MAX_PORT,
      description:
        'The port on the sandbox’s 127.0.0.1 to connect to. The sandbox’s own listeners ' +
        '(MCP, this API, SSH) are refused with 400.',
    }),
  },
  // The tunnel always reaches 127.0.0.1: a host (or any other parameter) is refused.
  { additionalProperties: false },
);

export const NewSshKey = Type.Object({
  publicKey: Type.String({
    description: 'One OpenSSH public key line: `<type> <base64> [comment]`',
    examples: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI… alice@laptop'],
  }),
  name: Type.Optional(Type.String({ description: 'A label for you' })),
});

export const SshKey = Type.Object({
  id: Type.String(),
  type: Type.String({ examples: ['ssh-ed25519'] }),
  fingerprint: Type.String({ examples: ['SHA256:…'] }),
  comment: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const SshKeyParams = Type.Object({
  id: Type.String({ description: 'The `id` the registration returned.' }),
});

export const SshKeyList = Type.Object(
  { keys: Type.Array(SshKey) },
  { description: 'The caller’s keys.' },
);

export const SshPort = Type.Object(
  {
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    host: Type.Literal('127.0.0.1'),
    hostKeys: Type.Array(Type.String({ examples: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…'] }), {
      description: 'The host public keys, `<type> <base64>` as in known_hosts.',
    }),
  },
  { description: 'The listener.' },
);

export const DocsAssetParams = Type.Object({
  '*': Type.String({
    description: 'The asset’s name.',
    examples: ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js'],
  }),
});

export const DocsAssetQuery = Type.Object({
  v: Type.Optional(Type.String({ description: 'The content hash the page links with.' })),
});

export const DocsAssetHeaders = Type.Object({
  'if-none-match': Type.Optional(header('An `ETag` received before.')),
});
