import type { API_VERSION } from '../api-group.js';
import type { KindDefinition } from '../custom-resource-definition.js';
import type { FromSchema } from '../from-schema.js';
import type { ObjectMeta } from '../object-meta.js';
import { observedGeneration } from './field-schemas.js';

/** The prompts an AgentRuntime follows: a system prompt and named prompts. */

export const promptPackSpecSchema = {
  type: 'object',
  required: ['systemPrompt'],
  properties: {
    description: { type: 'string' },
    systemPrompt: { type: 'string' },
    prompts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'content'],
        properties: { name: { type: 'string', minLength: 1 }, content: { type: 'string' } },
      },
    },
  },
} as const;

export const promptPackStatusSchema = {
  type: 'object',
  properties: { observedGeneration },
} as const;

export type PromptPackSpec = FromSchema<typeof promptPackSpecSchema>;
export type PromptPackStatus = FromSchema<typeof promptPackStatusSchema>;

export interface PromptPack {
  apiVersion: typeof API_VERSION;
  kind: 'PromptPack';
  metadata: ObjectMeta;
  spec: PromptPackSpec;
  status?: PromptPackStatus;
}

export const promptPackDefinition: KindDefinition = {
  kind: 'PromptPack',
  plural: 'promptpacks',
  singular: 'promptpack',
  shortNames: ['pp'],
  scope: 'Namespaced',
  description: 'A system prompt and named prompts for agents.',
  spec: promptPackSpecSchema,
  status: promptPackStatusSchema,
  printerColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
};
