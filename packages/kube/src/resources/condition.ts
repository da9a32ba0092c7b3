import type { FromSchema } from '../from-schema.js';

/** The standard condition shape (Kubernetes' metav1.Condition), one entry per type. */
export const conditionSchema = {
  type: 'object',
  required: ['type', 'status'],
  properties: {
    type: { type: 'string', description: 'The condition, in CamelCase, such as Ready.' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string', description: 'Why, in CamelCase, for machines.' },
    message: { type: 'string', description: 'Why, for people.' },
    lastTransitionTime: {
      type: 'string',
      format: 'date-time',
      description: 'When status last changed.',
    },
    observedGeneration: {
      type: 'integer',
      format: 'int64',
      minimum: 0,
      description: 'The metadata.generation this condition was set from.',
    },
  },
} as const;

export const conditionsSchema = {
  type: 'array',
  items: conditionSchema,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
} as const;

export type Condition = FromSchema<typeof conditionSchema>;
