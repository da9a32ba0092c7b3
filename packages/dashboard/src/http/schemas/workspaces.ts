import {
  conditionSchema,
  WORKSPACE_ROLES,
  workspaceSpecSchema,
  workspaceStatusSchema,
  type Condition as KubeCondition,
  type Workspace,
} from '@paddock/kube';
import { Type } from 'typebox';
import { MAX_ACCESS_ENTRIES } from '../../workspaces/members.js';
import { crd, named, Nullable } from './common.js';

type Spec = Workspace['spec'];
type Status = NonNullable<Workspace['status']>;

export const WorkspaceRole = Type.Enum(
  WORKSPACE_ROLES,
  named('WorkspaceRole', 'The role held in a workspace'),
);

export const Condition = crd<KubeCondition>(conditionSchema, named('Condition'));

/**
 * The `{name}` of a workspace route: any text, since a workspace the caller cannot see answers
 * 404 whatever its name, one that could not exist included.
 */
export const WorkspaceParam = Type.String({
  description: 'The workspace (the Workspace object’s name).',
});

export const WorkspaceName = Type.Object({ name: WorkspaceParam });

export const WorkspaceSummary = Type.Object(
  {
    name: Type.String(),
    displayName: Type.String(),
    description: Nullable(Type.String()),
    environment: Nullable(
      Type.Union([
        Type.Literal('development'),
        Type.Literal('staging'),
        Type.Literal('production'),
      ]),
    ),
    namespace: Type.String(),
    phase: Type.Union([
      Type.Literal('Pending'),
      Type.Literal('Ready'),
      Type.Literal('Suspended'),
      Type.Literal('Error'),
    ]),
    role: WorkspaceRole,
  },
  named('WorkspaceSummary'),
);

const ACTIONS = [
  'scaleAgents',
  'createAgents',
  'deleteAgents',
  'modifyPrompts',
  'modifyTools',
  'viewFiles',
  'useTerminal',
  'useMcp',
  'viewRuns',
  'startRuns',
  'manageMembers',
] as const;

const grantFields = workspaceSpecSchema.properties.directGrants.items.properties;

export const Access = Type.Object(
  {
    resourceVersion: Nullable(
      Type.String({ description: 'The Workspace version read; send it back with a change' }),
    ),
    roleBindings: crd<NonNullable<Spec['roleBindings']>>(
      workspaceSpecSchema.properties.roleBindings,
    ),
    directGrants: Type.Array(
      Type.Object({
        user: crd<string>(grantFields.user),
        role: WorkspaceRole,
        expires: Type.Optional(crd<string>(grantFields.expires)),
        active: Type.Boolean({ description: 'Whether the grant is in force now' }),
      }),
    ),
    anonymousAccess: crd<NonNullable<Spec['anonymousAccess']>>(
      workspaceSpecSchema.properties.anonymousAccess,
    ),
  },
  named('Access'),
);

export const WorkspaceDetails = Type.Object(
  {
    ...WorkspaceSummary.properties,
    createdAt: Nullable(Type.String({ format: 'date-time' })),
    permissions: Type.Object(
      Object.fromEntries(ACTIONS.map((action) => [action, Type.Boolean()])) as Record<
        (typeof ACTIONS)[number],
        ReturnType<typeof Type.Boolean>
      >,
      { description: 'What the caller may do here: the client shows only these actions' },
    ),
    quotas: crd<NonNullable<Spec['quotas']>>(workspaceSpecSchema.properties.quotas),
    networkPolicy: Type.Object({
      isolate: Type.Boolean(),
      allowExternalAPIs: Type.Boolean(),
      allowSharedNamespaces: Type.Boolean(),
      allowPrivateNetworks: Type.Boolean(),
      status: Nullable(
        crd<NonNullable<Status['networkPolicy']>>(workspaceStatusSchema.properties.networkPolicy),
      ),
    }),
    costControls: Nullable(
      crd<NonNullable<Spec['costControls']>>(workspaceSpecSchema.properties.costControls),
    ),
    costUsage: Nullable(
      crd<NonNullable<Status['costUsage']>>(workspaceStatusSchema.properties.costUsage),
    ),
    members: Type.Object(
      {
        owners: Type.Optional(Type.Integer({ minimum: 0 })),
        editors: Type.Optional(Type.Integer({ minimum: 0 })),
        viewers: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { description: 'Members counted by role' },
    ),
    access: Nullable(Access),
    conditions: Type.Array(Condition),
    observedGeneration: Nullable(Type.Integer({ minimum: 0 })),
  },
  named('WorkspaceDetails'),
);

const Entries = { maxItems: MAX_ACCESS_ENTRIES };

/** The access fields to replace; the members module checks them further (workspaces/members.ts). */
export const AccessChange = Type.Object(
  {
    resourceVersion: Type.Optional(
      Type.String({
        description:
          'The resourceVersion of the access read; when given, a change made since answers 409 conflict',
      }),
    ),
    roleBindings: Type.Optional(
      Type.Array(
        Type.Object(
          {
            groups: Type.Optional(Type.Array(Type.String())),
            serviceAccounts: Type.Optional(
              Type.Array(
                Type.Object(
                  { name: Type.String(), namespace: Type.String() },
                  { additionalProperties: false },
                ),
                Entries,
              ),
            ),
            role: WorkspaceRole,
          },
          {
            additionalProperties: false,
            description: 'Names at least one group or ServiceAccount',
          },
        ),
        Entries,
      ),
    ),
    directGrants: Type.Optional(
      Type.Array(
        Type.Object(
          {
            user: Type.String({
              description: 'A username or an e-mail address (case-insensitive)',
            }),
            role: WorkspaceRole,
            expires: Type.Optional(
              Nullable(
                Type.String({
                  description: 'When the grant ends (RFC 3339); absent or null: never',
                }),
              ),
            ),
          },
          { additionalProperties: false },
        ),
        Entries,
      ),
    ),
    anonymousAccess: Type.Optional(
      Type.Object(
        {
          enabled: Type.Boolean(),
          role: Type.Optional(WorkspaceRole),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, ...named('AccessChange') },
);
