import {
  toolRegistrySpecSchema,
  toolRegistryStatusSchema,
  type ToolRegistry as Kind,
} from '@paddock/kube';
import { Type } from 'typebox';
import { crd, named, ObjectName } from './common.js';
import { Condition, WorkspaceParam } from './workspaces.js';

export const RegistryName = Type.Object({
  name: WorkspaceParam,
  registry: ObjectName('The tool registry (ToolRegistry) name.'),
});

export const ToolRegistrySpec = crd<Kind['spec']>(
  toolRegistrySpecSchema,
  named('ToolRegistrySpec', 'The ToolRegistry spec, as the cluster’s resource definition has it'),
);

export const ToolRegistry = Type.Object(
  {
    name: Type.String(),
    spec: ToolRegistrySpec,
    phase: Type.Union([
      Type.Literal('Pending'),
      Type.Literal('Ready'),
      Type.Literal('Degraded'),
      Type.Literal('Failed'),
    ]),
    discoveredToolsCount: Type.Integer({ minimum: 0 }),
    availableToolsCount: Type.Integer({ minimum: 0 }),
    discoveredTools: crd<NonNullable<NonNullable<Kind['status']>['discoveredTools']>>(
      toolRegistryStatusSchema.properties.discoveredTools,
    ),
    conditions: Type.Array(Condition),
  },
  named('ToolRegistry'),
);

/**
 * The body of PUT …/toolregistries/{registry}: the spec as an object, which the cluster validates
 * against its resource definition (so the request's own check is only its shape).
 */
export const PutToolRegistry = Type.Object(
  {
    spec: Type.Unsafe<Kind['spec']>(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'The ToolRegistry spec; the cluster checks it against its resource definition',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
