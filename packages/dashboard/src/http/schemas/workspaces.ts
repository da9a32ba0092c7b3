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

/** A DNS-1123 label: what a namespace, and so a new workspace's name, must be. */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const DNS_LABEL_MAX = 63;

/**
 * The schema with every object of known fields closed: the cluster would drop an unknown field
 * silently (pruning), where a person who misspelt one needs to hear of it.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const node: Record<string, unknown> = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, closed(value)]),
  );
  if (node.type === 'object' && node.properties !== undefined && !('additionalProperties' in node))
    node.additionalProperties = false;
  return node;
}

/**
 * The schema with each `default` said in its description instead: the cluster applies defaults,
 * and a field with a default would read as required in the clients' types of a request.
 */
function defaultsDescribed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsDescribed);
  if (schema === null || typeof schema !== 'object') return schema;
  const { default: value, ...node } = schema as Record<string, unknown>;
  const described = Object.fromEntries(
    Object.entries(node).map(([key, child]) => [key, defaultsDescribed(child)]),
  );
  if (value === undefined) return described;
  const said = `Default: ${JSON.stringify(value)}.`;
  const { description } = described;
  return {
    ...described,
    description: typeof description === 'string' ? `${description} ${said}` : said,
  };
}

type SpecSchema = {
  properties: Record<string, unknown> & {
    namespace: { properties: Record<string, Record<string, unknown>> };
  };
  required: string[];
};

const spec = defaultsDescribed(closed(crd<Spec>(workspaceSpecSchema))) as SpecSchema;
const { required: _namespaceRequired, ...namespaceSchema } = spec.properties.namespace as {
  required?: string[];
  properties: Record<string, Record<string, unknown>>;
};

/** The fields of a new workspace: its name, then the Workspace spec (docs/dashboard/workspaces.md). */
export interface NewWorkspaceBody extends Omit<Spec, 'namespace'> {
  name: string;
  namespace?: Partial<Spec['namespace']>;
}

/**
 * A new workspace: `name`, then the fields of the Workspace spec, checked by the Workspace
 * resource definition's own schema (closed to unknown fields). Beside it, the name is a DNS-1123
 * label, the namespace optional (its name defaults to the workspace's, `create` to true here) and
 * its name a DNS-1123 label too, as the cluster would refuse the namespace later otherwise.
 */
export const NewWorkspace = Type.Unsafe<NewWorkspaceBody>({
  type: 'object',
  required: ['name', ...spec.required.filter((field) => field !== 'namespace')],
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      pattern: DNS_LABEL_PATTERN,
      maxLength: DNS_LABEL_MAX,
      description:
        'The Workspace object’s name: lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 63 characters.',
    },
    ...spec.properties,
    namespace: {
      ...namespaceSchema,
      description: 'The namespace of the workspace; absent: `{name: <name>, create: true}`.',
      properties: {
        ...namespaceSchema.properties,
        name: {
          ...namespaceSchema.properties.name,
          pattern: DNS_LABEL_PATTERN,
          description: 'The namespace’s name; absent: the workspace’s name.',
        },
        create: {
          ...namespaceSchema.properties.create,
          description:
            'Create the namespace when it does not exist; false: it must exist already. Default here: true.',
        },
      },
    },
  },
  ...named('NewWorkspace'),
});
