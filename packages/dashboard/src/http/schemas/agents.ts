import {
  AGENT_PROVIDER_TYPES,
  agentRuntimeSpecSchema,
  agentRuntimeStatusSchema,
  type AgentRuntime,
} from '@paddock/kube';
import { Type } from 'typebox';
import { crd, named, Nullable, ObjectName } from './common.js';
import { Condition, WorkspaceParam } from './workspaces.js';

/** Most replicas one request may ask for; the workspace's own limit applies below it. */
export const MAX_REPLICAS = 1000;

/** Most lines a log request may ask for, and the furthest back it may reach. */
export const MAX_TAIL_LINES = 100_000;
export const MAX_SINCE_SECONDS = 10 * 365 * 86_400;

export const AgentName = Type.Object({
  name: WorkspaceParam,
  agentName: ObjectName('The agent (AgentRuntime) name.'),
});

export const Agent = Type.Object(
  {
    name: Type.String(),
    promptPack: Type.String({ description: 'The prompt pack it follows' }),
    replicas: Type.Integer({ minimum: 0, description: 'Wanted' }),
    currentReplicas: Type.Integer({ minimum: 0, description: 'Pods that exist' }),
    readyReplicas: Type.Integer({ minimum: 0, description: 'Pods that are ready' }),
    phase: Type.Union([Type.Literal('Pending'), Type.Literal('Running'), Type.Literal('Failed')]),
    model: Nullable(Type.String()),
    provider: Nullable(
      Type.Object(
        {
          type: Type.Enum([...AGENT_PROVIDER_TYPES]),
          model: Type.Optional(Type.String()),
        },
        {
          description:
            'Where its agent loop reaches its model (spec.provider: the kind, never the key); ' +
            'null: it runs no tasks, its pods serve the sandbox alone',
        },
      ),
    ),
    runLimits: Nullable(
      crd<NonNullable<AgentRuntime['spec']['runLimits']>>(
        agentRuntimeSpecSchema.properties.runLimits,
      ),
    ),
    image: Nullable(Type.String()),
    env: Type.Record(Type.String(), Type.String()),
    pausedForBudget: Type.Boolean({
      description: 'The operator scaled it to 0 while the workspace’s budget is exceeded',
    }),
    costUsage: Nullable(
      crd<NonNullable<NonNullable<AgentRuntime['status']>['costUsage']>>(
        agentRuntimeStatusSchema.properties.costUsage,
      ),
    ),
    conditions: Type.Array(Condition),
    createdAt: Nullable(Type.String({ format: 'date-time' })),
  },
  named('Agent', 'An AgentRuntime'),
);

export const Pod = Type.Object(
  {
    name: Type.String(),
    phase: Type.String({ examples: ['Running'] }),
    containers: Type.Array(Type.String()),
    startedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  named('Pod'),
);

export const AgentDetails = Type.Object(
  { ...Agent.properties, pods: Type.Array(Pod) },
  named('AgentDetails', 'An AgentRuntime with its pods'),
);

const Replicas = Type.Integer({ minimum: 0, maximum: MAX_REPLICAS });

export const NewAgent = Type.Object(
  {
    name: ObjectName(),
    promptPack: ObjectName('A prompt pack of the workspace'),
    replicas: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REPLICAS, default: 1 })),
    model: Type.Optional(Nullable(Type.String())),
    image: Type.Optional(Nullable(Type.String())),
    env: Type.Optional(Nullable(Type.Record(Type.String(), Type.String()))),
  },
  { additionalProperties: false, ...named('NewAgent') },
);

export const ScaleAgent = Type.Object({ replicas: Replicas }, { additionalProperties: false });

export const LogQuery = Type.Object({
  tailLines: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_TAIL_LINES,
      description: 'Only the last lines, this many.',
    }),
  ),
  sinceSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_SINCE_SECONDS,
      description: 'Only the lines of the last seconds, this many.',
    }),
  ),
  // `?follow` alone (the empty string) counts as true.
  follow: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('')], {
      description: 'Stream the log as it grows (`true`, `1` or empty; `false` or `0`).',
    }),
  ),
  timestamps: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('')], {
      description: 'Start each line with its RFC 3339 time.',
    }),
  ),
  pod: Type.Optional(ObjectName('The pod, one of the agent’s.')),
  container: Type.Optional(ObjectName('The container, one of the pod’s.')),
});

export const Event = Type.Object(
  {
    type: Type.String({ examples: ['Normal', 'Warning'] }),
    reason: Type.String(),
    message: Type.String(),
    object: Type.Object({
      kind: Type.String({ examples: ['AgentRuntime', 'Pod'] }),
      name: Type.String(),
    }),
    count: Type.Integer({ minimum: 0 }),
    firstSeen: Nullable(Type.String({ format: 'date-time' })),
    lastSeen: Nullable(Type.String({ format: 'date-time' })),
    source: Nullable(Type.String({ description: 'The component that reported it' })),
  },
  named('Event', 'A cluster event about an agent or one of its pods'),
);
