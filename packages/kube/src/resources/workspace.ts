import type { API_VERSION } from '../api-group.js';
import type { KindDefinition } from '../custom-resource-definition.js';
import type { FromSchema } from '../from-schema.js';
import type { ObjectMeta } from '../object-meta.js';
import { conditionsSchema } from './condition.js';
import {
  CIDR_PATTERN,
  count,
  observedGeneration,
  port,
  quantity,
  stringMap,
  unreservedStringMap,
  usd,
} from './field-schemas.js';

/** A multi-tenant workspace: its namespace, who may use it, quotas, network isolation and budgets. */

const workspaceRole = {
  type: 'string',
  enum: ['owner', 'editor', 'viewer'],
  description:
    'owner: full control including members; editor: create and modify resources; viewer: read-only.',
} as const;

const computeAmounts = {
  type: 'object',
  properties: {
    cpu: quantity('Total CPU, such as 4 or 500m.'),
    memory: quantity('Total memory, such as 8Gi.'),
  },
} as const;

const networkPeer = {
  type: 'object',
  properties: {
    namespaceSelector: {
      type: 'object',
      properties: { matchLabels: stringMap('Namespaces with all these labels.') },
    },
    podSelector: {
      type: 'object',
      properties: { matchLabels: stringMap('Pods with all these labels.') },
    },
    ipBlock: {
      type: 'object',
      required: ['cidr'],
      properties: {
        cidr: { type: 'string', pattern: CIDR_PATTERN, description: 'An IPv4 or IPv6 CIDR.' },
        except: {
          type: 'array',
          description: 'CIDRs inside cidr to leave out.',
          items: { type: 'string', pattern: CIDR_PATTERN },
        },
      },
    },
  },
} as const;

const networkRule = {
  type: 'object',
  properties: {
    peers: { type: 'array', items: networkPeer },
    ports: {
      type: 'array',
      description: 'All ports when omitted.',
      items: {
        type: 'object',
        properties: {
          protocol: { type: 'string', enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' },
          port: port('The port number.'),
        },
      },
    },
  },
} as const;

export const workspaceSpecSchema = {
  type: 'object',
  required: ['displayName', 'namespace'],
  properties: {
    displayName: { type: 'string', minLength: 1, description: 'The name shown in the dashboard.' },
    description: { type: 'string' },
    environment: {
      type: 'string',
      enum: ['development', 'staging', 'production'],
      default: 'development',
    },
    defaultTags: unreservedStringMap('Labels applied to every resource in the workspace.'),
    namespace: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 63 },
        create: {
          type: 'boolean',
          default: false,
          description: 'Create the namespace rather than adopt an existing one.',
        },
        labels: unreservedStringMap('Labels set on the namespace.'),
        annotations: unreservedStringMap('Annotations set on the namespace.'),
      },
    },
    roleBindings: {
      type: 'array',
      description: 'Identity-provider groups and ServiceAccounts granted a role.',
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          groups: { type: 'array', items: { type: 'string' } },
          serviceAccounts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'namespace'],
              properties: { name: { type: 'string' }, namespace: { type: 'string' } },
            },
          },
          role: workspaceRole,
        },
      },
    },
    directGrants: {
      type: 'array',
      description: 'Individual users, for exceptions; groups are preferred.',
      items: {
        type: 'object',
        required: ['user', 'role'],
        properties: {
          user: { type: 'string', minLength: 1 },
          role: workspaceRole,
          expires: {
            type: 'string',
            format: 'date-time',
            description: 'When a temporary grant ends (RFC 3339).',
          },
        },
      },
    },
    anonymousAccess: {
      type: 'object',
      description:
        'Editor or owner lets anonymous users modify resources: isolated development only.',
      required: ['enabled'],
      properties: {
        enabled: { type: 'boolean' },
        role: { ...workspaceRole, default: 'viewer' },
      },
    },
    quotas: {
      type: 'object',
      properties: {
        compute: {
          type: 'object',
          properties: { requests: computeAmounts, limits: computeAmounts },
        },
        objects: {
          type: 'object',
          properties: {
            configmaps: count('Maximum ConfigMaps.'),
            secrets: count('Maximum Secrets.'),
            persistentvolumeclaims: count('Maximum PersistentVolumeClaims.'),
          },
        },
        arena: {
          type: 'object',
          properties: {
            maxConcurrentJobs: count('Maximum Arena jobs running at once.'),
            maxJobsPerDay: count('Maximum Arena jobs started per day.'),
            maxWorkersPerJob: count('Maximum workers of one Arena job.'),
          },
        },
        agents: {
          type: 'object',
          properties: {
            maxAgentRuntimes: count('Maximum AgentRuntimes.'),
            maxReplicasPerAgent: count('Maximum replicas of one AgentRuntime.'),
          },
        },
      },
    },
    networkPolicy: {
      type: 'object',
      properties: {
        isolate: {
          type: 'boolean',
          default: false,
          description: 'Generate the NetworkPolicy workspace-{name}-isolation.',
        },
        allowExternalAPIs: {
          type: 'boolean',
          default: true,
          description: 'Allow egress to the internet (0.0.0.0/0 less private ranges).',
        },
        allowSharedNamespaces: {
          type: 'boolean',
          default: true,
          description: 'Allow traffic with namespaces labeled paddock.dev/shared: "true".',
        },
        allowPrivateNetworks: {
          type: 'boolean',
          default: false,
          description: 'Also allow egress to 10.0.0.0/8, 172.16.0.0/12 and 192.168.0.0/16.',
        },
        allowFrom: { type: 'array', description: 'Extra ingress sources.', items: networkRule },
        allowTo: { type: 'array', description: 'Extra egress destinations.', items: networkRule },
      },
    },
    costControls: {
      type: 'object',
      properties: {
        dailyBudget: usd('Daily budget in USD, such as 25.00.'),
        monthlyBudget: usd('Monthly budget in USD.'),
        budgetExceededAction: {
          type: 'string',
          enum: ['warn', 'pauseJobs', 'block'],
          default: 'warn',
          description:
            'warn: log warnings; pauseJobs: pause Arena jobs; block: block new API requests.',
        },
        alertThresholds: {
          type: 'array',
          items: {
            type: 'object',
            required: ['percent'],
            properties: {
              percent: { type: 'integer', minimum: 1, description: 'Percent of a budget spent.' },
              notify: {
                type: 'array',
                description: 'Recipient addresses.',
                items: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
} as const;

export const workspaceStatusSchema = {
  type: 'object',
  properties: {
    phase: { type: 'string', enum: ['Pending', 'Ready', 'Suspended', 'Error'] },
    observedGeneration,
    namespace: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        created: { type: 'boolean', description: 'Whether the controller created it.' },
      },
    },
    serviceAccounts: {
      type: 'object',
      description: 'The ServiceAccount of each role.',
      properties: {
        owner: { type: 'string' },
        editor: { type: 'string' },
        viewer: { type: 'string' },
      },
    },
    members: {
      type: 'object',
      description: 'Members counted by role.',
      properties: {
        owners: count('Owners.'),
        editors: count('Editors.'),
        viewers: count('Viewers.'),
      },
    },
    networkPolicy: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        enabled: { type: 'boolean', description: 'Whether isolation is active.' },
        rulesCount: count('Ingress and egress rules together.'),
      },
    },
    costUsage: {
      type: 'object',
      description: 'Spending and budgets in USD.',
      properties: {
        dailySpend: usd('Spent today.'),
        dailyBudget: usd('The daily budget.'),
        monthlySpend: usd('Spent this month.'),
        monthlyBudget: usd('The monthly budget.'),
        lastUpdated: { type: 'string', format: 'date-time' },
      },
    },
    conditions: {
      ...conditionsSchema,
      description:
        'Ready, NamespaceReady, ServiceAccountsReady, RoleBindingsReady, with isolation NetworkPolicyReady, and with cost controls BudgetExceeded.',
    },
  },
} as const;

export type WorkspaceSpec = FromSchema<typeof workspaceSpecSchema>;
export type WorkspaceStatus = FromSchema<typeof workspaceStatusSchema>;
export type WorkspaceRole = FromSchema<typeof workspaceRole>;
export type WorkspaceRoleBinding = NonNullable<WorkspaceSpec['roleBindings']>[number];
export type WorkspaceDirectGrant = NonNullable<WorkspaceSpec['directGrants']>[number];
export type WorkspaceNetworkRule = FromSchema<typeof networkRule>;

export interface Workspace {
  apiVersion: typeof API_VERSION;
  kind: 'Workspace';
  metadata: ObjectMeta;
  spec: WorkspaceSpec;
  status?: WorkspaceStatus;
}

export const workspaceDefinition: KindDefinition = {
  kind: 'Workspace',
  plural: 'workspaces',
  singular: 'workspace',
  shortNames: ['ws'],
  scope: 'Cluster',
  description:
    'A multi-tenant workspace: an isolated namespace, role bindings, quotas, network isolation and cost controls.',
  spec: workspaceSpecSchema,
  status: workspaceStatusSchema,
  printerColumns: [
    { name: 'Display Name', type: 'string', jsonPath: '.spec.displayName' },
    { name: 'Environment', type: 'string', jsonPath: '.spec.environment' },
    { name: 'Namespace', type: 'string', jsonPath: '.spec.namespace.name' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};
