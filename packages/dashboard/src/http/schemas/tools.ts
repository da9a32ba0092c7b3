import { Type } from 'typebox';
import { named, Nullable, ObjectName } from './common.js';
import { WorkspaceParam } from './workspaces.js';

/** The longest tool name a path may carry (MCP names are short; this only bounds the path). */
export const MAX_TOOL_NAME_LENGTH = 256;

export const ToolName = Type.Object({
  name: WorkspaceParam,
  registry: ObjectName('The tool registry (ToolRegistry) name.'),
  tool: Type.String({
    minLength: 1,
    maxLength: MAX_TOOL_NAME_LENGTH,
    description: 'The tool’s name, as its handler offers it.',
  }),
});

export const ToolsQuery = Type.Object({
  refresh: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Discover again now instead of reusing a discovery of the last seconds.',
    }),
  ),
});

const ToolStatus = Type.Union([
  Type.Literal('Available'),
  Type.Literal('Unavailable'),
  Type.Literal('Unknown'),
]);

export const RegistryToolDetails = Type.Object(
  {
    handlerName: Type.String(),
    name: Type.String(),
    status: ToolStatus,
    endpoint: Nullable(Type.String({ description: 'Where the handler was reached.' })),
    error: Nullable(Type.String({ description: 'Why the tool is not available.' })),
    description: Nullable(Type.String()),
    inputSchema: Nullable(
      Type.Unsafe<Record<string, unknown>>(
        Type.Object(
          {},
          { additionalProperties: true, description: 'The JSON Schema of the tool’s arguments.' },
        ),
      ),
    ),
    callable: Type.Boolean({ description: 'Whether the dashboard can call it (try it).' }),
  },
  named('RegistryToolDetails', 'A tool of a registry as discovered just now'),
);

export const RegistryHandler = Type.Object(
  {
    name: Type.String(),
    type: Type.Union([
      Type.Literal('http'),
      Type.Literal('grpc'),
      Type.Literal('mcp'),
      Type.Literal('openapi'),
    ]),
    state: Type.Union([Type.Literal('reached'), Type.Literal('failed'), Type.Literal('skipped')], {
      description:
        'reached: it offered tools; failed: it could not be reached or offered none (see error); ' +
        'skipped: not run by the dashboard (mcp stdio).',
    }),
    error: Nullable(Type.String()),
  },
  named('RegistryHandler', 'A handler of a registry, as its discovery went'),
);

export const RegistryTools = Type.Object({
  registry: Type.String(),
  tools: Type.Array(RegistryToolDetails),
  handlers: Type.Array(RegistryHandler),
  discoveredAt: Type.String({ format: 'date-time' }),
});

export const ToolCall = Type.Object(
  {
    arguments: Type.Unsafe<Record<string, unknown>>(
      Type.Object(
        {},
        { additionalProperties: true, description: 'The tool’s arguments, per its input schema.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ToolCallResult = Type.Object(
  {
    tool: Type.String(),
    handlerName: Type.String(),
    text: Type.String({ description: 'What the tool answered (cut when very long).' }),
    isError: Type.Boolean({
      description: 'The tool failed, could not be reached or ran out of time.',
    }),
    durationMs: Type.Integer({ minimum: 0, description: 'How long the call took.' }),
  },
  named('ToolCallResult'),
);
