import type { API_VERSION } from '../api-group.js';
import type { KindDefinition } from '../custom-resource-definition.js';
import type { FromSchema } from '../from-schema.js';
import type { ObjectMeta } from '../object-meta.js';
import { conditionsSchema } from './condition.js';
import { count, observedGeneration, stringMap, usd } from './field-schemas.js';

/** An agent: replicas of a sandbox image driven by a PromptPack. It owns the pods it runs. */

/** The image an AgentRuntime runs when it names none. */
export const DEFAULT_AGENT_IMAGE = 'paddock-sandbox:latest';

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
  },
} as const;

export const agentRuntimeStatusSchema = {
  type: 'object',
  properties: {
    phase: { type: 'string', enum: ['Pending', 'Running', 'Failed'] },
    replicas: count('Pods that exist.'),
    readyReplicas: count('Pods that are ready.'),
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
      description: 'ReplicasLimited when spec.replicas is over the workspace limit.',
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
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
};
