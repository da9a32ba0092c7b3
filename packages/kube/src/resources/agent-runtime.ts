import type { API_VERSION } from '../api-group.js';
import type { KindDefinition } from '../custom-resource-definition.js';
import type { FromSchema } from '../from-schema.js';
import type { ObjectMeta } from '../object-meta.js';
import { conditionsSchema } from './condition.js';
import {
  count,
  duration,
  observedGeneration,
  port,
  quantity,
  stringMap,
  usd,
} from './field-schemas.js';

/** An agent: replicas of a sandbox image driven by a PromptPack. It owns the pods it runs. */

/** The image an AgentRuntime runs when it names none. */
export const DEFAULT_AGENT_IMAGE = 'paddock-sandbox:latest';
/** The size of each replica's workspace volume when spec.storage.size is not given. */
export const DEFAULT_AGENT_STORAGE_SIZE = '10Gi';
/** The sandbox's own listeners in an agent's pods: extra ports may not take them. */
export const AGENT_MCP_PORT = 7070;
export const AGENT_API_PORT = 7071;
/** The agent loop's runs API, in pods of an AgentRuntime that names a provider. */
export const AGENT_RUNS_PORT = 7072;
/** Their port names, in the pods and the headless Service. */
export const AGENT_MCP_PORT_NAME = 'mcp';
export const AGENT_API_PORT_NAME = 'api';
export const AGENT_RUNS_PORT_NAME = 'runs';
/** At most this many extra ports per agent (a pod's port list stays readable; previews are few). */
export const MAX_AGENT_PORTS = 16;

/** The model providers the agent speaks to, each through its official SDK. */
export const AGENT_PROVIDER_TYPES = ['openai', 'anthropic'] as const;
/** The Secret key holding the provider's API key when apiKeySecretRef names none. */
export const DEFAULT_API_KEY_SECRET_KEY = 'apiKey';
/** Per-run limits when spec.runLimits leaves them out. */
export const DEFAULT_RUN_LIMITS = {
  maxTurns: 50,
  maxTokens: 2_000_000,
  maxWallTime: '30m',
} as const;
/** A price in USD per million tokens: up to six decimals (`0.075`, `2.5`, `15`). */
export const PRICE_PATTERN = String.raw`^\d+(\.\d{1,6})?$`;
/** At most this many models priced per agent. */
export const MAX_PRICED_MODELS = 64;

const computeAmounts = {
  type: 'object',
  properties: {
    cpu: quantity('CPU, such as 500m or 2.'),
    memory: quantity('Memory, such as 512Mi or 2Gi.'),
  },
} as const;

const agentPort = {
  type: 'object',
  required: ['name', 'containerPort'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 15,
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      description: 'The port name (an IANA service name), unique in the agent.',
    },
    containerPort: port('The port a program in the pod listens on.'),
    protocol: { type: 'string', enum: ['TCP', 'UDP'], default: 'TCP' },
  },
  'x-kubernetes-validations': [
    {
      rule: `!(self.containerPort in [${AGENT_MCP_PORT}, ${AGENT_API_PORT}, ${AGENT_RUNS_PORT}]) && !(self.name in ['${AGENT_MCP_PORT_NAME}', '${AGENT_API_PORT_NAME}', '${AGENT_RUNS_PORT_NAME}'])`,
      message: `ports ${AGENT_MCP_PORT}, ${AGENT_API_PORT} and ${AGENT_RUNS_PORT} and the names ${AGENT_MCP_PORT_NAME}, ${AGENT_API_PORT_NAME} and ${AGENT_RUNS_PORT_NAME} belong to the sandbox and the agent`,
    },
  ],
} as const;

export const agentRuntimeSpecSchema = {
  type: 'object',
  required: ['promptPackRef'],
  properties: {
    promptPackRef: {
      type: 'object',
      description: 'The PromptPack in the same namespace.',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 } },
    },
    replicas: { type: 'integer', minimum: 0, default: 1 },
    image: { type: 'string', default: DEFAULT_AGENT_IMAGE },
    model: { type: 'string', description: 'The model the agent calls.' },
    env: stringMap('Environment variables of the agent.'),
    resources: {
      type: 'object',
      description:
        'CPU and memory of each replica. Per resource, a missing request takes the limit and a missing limit the request; with neither, 250m/1 CPU and 256Mi/1Gi memory (request/limit).',
      properties: { requests: computeAmounts, limits: computeAmounts },
    },
    storage: {
      type: 'object',
      description:
        "Each replica's workspace volume, mounted at /workspace and kept across restarts.",
      default: {},
      properties: {
        size: { ...quantity('The volume size.'), default: DEFAULT_AGENT_STORAGE_SIZE },
        storageClassName: {
          type: 'string',
          description: "The StorageClass; the cluster's default when omitted.",
        },
      },
    },
    sandbox: {
      type: 'object',
      description: 'The human features the sandbox of each replica serves on its API port.',
      default: {},
      properties: {
        exec: { type: 'boolean', default: true, description: 'Terminals (/api/exec).' },
        portForward: {
          type: 'boolean',
          default: true,
          description: 'TCP tunnels to the pod (/api/port-forward).',
        },
        ssh: { type: 'boolean', default: true, description: 'The embedded SSH server.' },
      },
    },
    provider: {
      type: 'object',
      description:
        'Where the agent loop reaches its model. Without a provider the pods run the sandbox alone, for clients that bring their own agent.',
      required: ['type'],
      properties: {
        type: {
          type: 'string',
          enum: [...AGENT_PROVIDER_TYPES],
          description:
            'openai: Chat Completions, for OpenAI and any compatible server (Azure OpenAI, vLLM, Ollama, llama.cpp, LiteLLM) through baseURL; anthropic: Messages.',
        },
        baseURL: {
          type: 'string',
          pattern: '^https?://',
          description: "The API's base URL; the provider's own when omitted.",
        },
        apiKeySecretRef: {
          type: 'object',
          description:
            'The Secret, in the same namespace, holding the API key; none for servers that need no key.',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1 },
            key: { type: 'string', minLength: 1, default: DEFAULT_API_KEY_SECRET_KEY },
          },
        },
      },
    },
    runLimits: {
      type: 'object',
      description: `The limits of each run; a run ends when it reaches one. Omitted: ${DEFAULT_RUN_LIMITS.maxTurns} model calls, ${DEFAULT_RUN_LIMITS.maxTokens} tokens and ${DEFAULT_RUN_LIMITS.maxWallTime} of wall time.`,
      properties: {
        maxTurns: {
          type: 'integer',
          minimum: 1,
          maximum: 1000,
          default: DEFAULT_RUN_LIMITS.maxTurns,
          description: 'Model calls per run.',
        },
        maxTokens: {
          type: 'integer',
          minimum: 1,
          default: DEFAULT_RUN_LIMITS.maxTokens,
          description: 'Input and output tokens per run, summed over its model calls.',
        },
        maxWallTime: {
          ...duration('Wall time per run, such as 30m or 2h.'),
          default: DEFAULT_RUN_LIMITS.maxWallTime,
        },
      },
    },
    pricing: {
      type: 'object',
      description:
        "USD per million tokens by model name, over the agent's price table: for models it lacks or prices differently.",
      maxProperties: MAX_PRICED_MODELS,
      additionalProperties: {
        type: 'object',
        required: ['input', 'output'],
        properties: {
          input: {
            type: 'string',
            pattern: PRICE_PATTERN,
            description: 'Per million input tokens.',
          },
          output: {
            type: 'string',
            pattern: PRICE_PATTERN,
            description: 'Per million output tokens.',
          },
        },
      },
    },
    ports: {
      type: 'array',
      description: "Extra container ports the agent's programs listen on.",
      maxItems: MAX_AGENT_PORTS,
      items: agentPort,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort'],
    },
  },
} as const;

export const agentRuntimeStatusSchema = {
  type: 'object',
  properties: {
    phase: { type: 'string', enum: ['Pending', 'Running', 'Failed'] },
    replicas: count('Pods that exist.'),
    readyReplicas: count('Pods that are ready.'),
    selector: {
      type: 'string',
      description: "The label selector of the agent's pods, for the scale subresource.",
    },
    observedGeneration,
    costUsage: {
      type: 'object',
      description:
        'What the agent spent, reported by the agent itself: the UTC day and month the figures belong to, and its spend in USD over each. The Workspace controller sums the figures of the current day and month.',
      properties: {
        day: {
          type: 'string',
          pattern: String.raw`^\d{4}-\d{2}-\d{2}$`,
          description: 'YYYY-MM-DD.',
        },
        dailySpend: usd('Spent on that day.'),
        month: { type: 'string', pattern: String.raw`^\d{4}-\d{2}$`, description: 'YYYY-MM.' },
        monthlySpend: usd('Spent in that month, that day included.'),
      },
    },
    conditions: {
      ...conditionsSchema,
      description:
        'Available, Progressing; ReplicasLimited when spec.replicas is over the workspace limit; Paused while the workspace budget pauses agents.',
    },
  },
} as const;

export type AgentRuntimeSpec = FromSchema<typeof agentRuntimeSpecSchema>;
export type AgentRuntimeStatus = FromSchema<typeof agentRuntimeStatusSchema>;

export interface AgentRuntime {
  apiVersion: typeof API_VERSION;
  kind: 'AgentRuntime';
  metadata: ObjectMeta;
  spec: AgentRuntimeSpec;
  status?: AgentRuntimeStatus;
}

export const agentRuntimeDefinition: KindDefinition = {
  kind: 'AgentRuntime',
  plural: 'agentruntimes',
  singular: 'agentruntime',
  shortNames: ['ar'],
  scope: 'Namespaced',
  description: 'An agent: a replica count of an image that follows a PromptPack.',
  spec: agentRuntimeSpecSchema,
  status: agentRuntimeStatusSchema,
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Model', type: 'string', jsonPath: '.spec.model' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  scale: {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    labelSelectorPath: '.status.selector',
  },
};
