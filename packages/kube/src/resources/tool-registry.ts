import type { API_VERSION } from '../api-group.js';
import type { KindDefinition } from '../custom-resource-definition.js';
import type { FromSchema } from '../from-schema.js';
import type { ObjectMeta } from '../object-meta.js';
import { conditionsSchema } from './condition.js';
import { count, duration, observedGeneration, port, stringMap } from './field-schemas.js';

/**
 * Tool handlers offered to agents. http and grpc handlers describe their one tool; mcp and openapi
 * handlers discover theirs at runtime.
 */

const retries = { type: 'integer', minimum: 0, description: 'Retry attempts.' } as const;

const jsonSchemaObject = (description: string) =>
  ({ type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true }) as const;

const handlerSchema = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 63, description: 'Unique in the registry.' },
    type: { type: 'string', enum: ['http', 'grpc', 'mcp', 'openapi'] },
    endpoint: {
      type: 'object',
      description: 'Where an http or grpc handler is served.',
      properties: {
        url: { type: 'string', description: 'A direct URL; for grpc, host:port.' },
        serviceRef: {
          type: 'object',
          required: ['name', 'port'],
          properties: {
            name: { type: 'string' },
            namespace: { type: 'string', description: "Defaults to the ToolRegistry's namespace." },
            port: port('The Service port.'),
          },
        },
      },
      'x-kubernetes-validations': [
        {
          rule: 'has(self.url) || has(self.serviceRef)',
          message: 'endpoint requires url or serviceRef',
        },
      ],
    },
    selector: {
      type: 'object',
      description: 'Discover Services by label instead of naming one.',
      properties: { matchLabels: stringMap('Extra labels next to paddock.dev/tool: "true".') },
    },
    timeout: duration('Per-call timeout, such as 30s.'),
    retries,
    tool: {
      type: 'object',
      description: 'The tool an http or grpc handler exposes.',
      required: ['name', 'description', 'inputSchema'],
      properties: {
        name: { type: 'string', minLength: 1, description: 'The tool name shown to the model.' },
        description: { type: 'string' },
        inputSchema: jsonSchemaObject('JSON Schema of the arguments.'),
        outputSchema: jsonSchemaObject('JSON Schema of the result.'),
      },
    },
    httpConfig: {
      type: 'object',
      properties: {
        method: { type: 'string', default: 'POST' },
        headers: stringMap('Extra request headers.'),
        contentType: { type: 'string', default: 'application/json' },
        timeout: duration('Per-call timeout, such as 30s.'),
        retries,
      },
    },
    grpcConfig: {
      type: 'object',
      properties: {
        tls: { type: 'boolean', default: false },
        tlsCertPath: { type: 'string' },
        tlsKeyPath: { type: 'string' },
        tlsCAPath: { type: 'string' },
        tlsInsecureSkipVerify: { type: 'boolean', default: false },
      },
    },
    mcpConfig: {
      type: 'object',
      required: ['transport'],
      properties: {
        transport: { type: 'string', enum: ['sse', 'stdio'] },
        endpoint: { type: 'string', description: 'The SSE endpoint URL.' },
        command: { type: 'string', description: 'The command run as a subprocess for stdio.' },
        args: { type: 'array', items: { type: 'string' } },
        workDir: { type: 'string' },
        env: stringMap('Environment of the subprocess.'),
      },
      'x-kubernetes-validations': [
        {
          rule: "self.transport != 'sse' || has(self.endpoint)",
          message: 'mcpConfig with transport sse requires endpoint',
        },
        {
          rule: "self.transport != 'stdio' || has(self.command)",
          message: 'mcpConfig with transport stdio requires command',
        },
      ],
    },
    openAPIConfig: {
      type: 'object',
      required: ['specURL'],
      properties: {
        specURL: {
          type: 'string',
          description: 'An OpenAPI v3 or Swagger v2 document; each operation becomes a tool.',
        },
        baseURL: { type: 'string', description: "Overrides the document's base URL." },
        operationFilter: {
          type: 'array',
          description: 'Only these operation ids.',
          items: { type: 'string' },
        },
        headers: stringMap('Extra request headers.'),
        authType: { type: 'string', enum: ['bearer', 'basic'] },
        authToken: { type: 'string', description: 'The token or credentials.' },
      },
    },
  },
  'x-kubernetes-validations': [
    {
      rule: "!(self.type in ['http', 'grpc']) || has(self.tool)",
      message: 'http and grpc handlers require tool (name, description and inputSchema)',
    },
    {
      rule: "!(self.type in ['http', 'grpc']) || has(self.endpoint) || has(self.selector)",
      message: 'http and grpc handlers require endpoint (url or serviceRef) or selector',
    },
    {
      rule: "self.type != 'mcp' || has(self.mcpConfig)",
      message: 'mcp handlers require mcpConfig',
    },
    {
      rule: "self.type != 'openapi' || has(self.openAPIConfig)",
      message: 'openapi handlers require openAPIConfig',
    },
  ],
} as const;

export const toolRegistrySpecSchema = {
  type: 'object',
  required: ['handlers'],
  properties: {
    // Bounded so the API server can bound the cost of the uniqueness rule, which is quadratic.
    handlers: { type: 'array', minItems: 1, maxItems: 64, items: handlerSchema },
  },
  'x-kubernetes-validations': [
    {
      rule: 'self.handlers.all(h, self.handlers.exists_one(x, x.name == h.name))',
      message: 'handler names must be unique within a ToolRegistry',
    },
  ],
} as const;

export const toolRegistryStatusSchema = {
  type: 'object',
  properties: {
    phase: { type: 'string', enum: ['Pending', 'Ready', 'Degraded', 'Failed'] },
    observedGeneration,
    discoveredToolsCount: count('Tools discovered across all handlers.'),
    availableToolsCount: count('Tools currently available.'),
    discoveredTools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['handlerName', 'name', 'status'],
        properties: {
          handlerName: { type: 'string' },
          name: { type: 'string' },
          status: {
            type: 'string',
            enum: ['Available', 'Unavailable', 'Unknown'],
            description: 'Available when the tool can be called.',
          },
          endpoint: { type: 'string' },
          error: { type: 'string', description: 'Why the tool is not available.' },
        },
      },
    },
    conditions: {
      ...conditionsSchema,
      description: 'HandlersAvailable (at least one handler) and AllHandlersReady.',
    },
  },
} as const;

export type ToolRegistrySpec = FromSchema<typeof toolRegistrySpecSchema>;
export type ToolRegistryStatus = FromSchema<typeof toolRegistryStatusSchema>;
export type ToolHandler = FromSchema<typeof handlerSchema>;
export type DiscoveredTool = NonNullable<ToolRegistryStatus['discoveredTools']>[number];

export interface ToolRegistry {
  apiVersion: typeof API_VERSION;
  kind: 'ToolRegistry';
  metadata: ObjectMeta;
  spec: ToolRegistrySpec;
  status?: ToolRegistryStatus;
}

export const toolRegistryDefinition: KindDefinition = {
  kind: 'ToolRegistry',
  plural: 'toolregistries',
  singular: 'toolregistry',
  shortNames: ['tr'],
  scope: 'Namespaced',
  description: 'Tool handlers available to AI agents.',
  spec: toolRegistrySpecSchema,
  status: toolRegistryStatusSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Tools', type: 'integer', jsonPath: '.status.availableToolsCount' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};
