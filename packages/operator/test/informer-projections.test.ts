import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identityOnly, type AgentRuntime, type Condition, type Workspace } from '@paddock/kube';
import {
  agentWorkspace,
  desiredAgentNetworkPolicy,
  workspaceForAgents,
} from '../src/agentruntime/index.js';
import { leanAgentObject } from '../src/controllers/agent-runtime/lean-objects.js';
import { workspaceOfNamespace } from '../src/controllers/agent-runtime/workspace-of-namespace.js';
import { leanOwnedRef, leanWorkspaceRef } from '../src/controllers/workspace/lean-objects.js';
import { StringPool } from '../src/runtime/string-pool.js';
import { ANNOTATION_OWNER_WORKSPACE } from '../src/workspace/index.js';

const MANAGED_FIELDS = [{ manager: 'kubectl', operation: 'Update' as const, fieldsV1: {} }];

function condition(type: string, status: Condition['status'], reason: string): Condition {
  return {
    type,
    status,
    reason,
    message: `${type} is ${status} (${reason}).`,
    lastTransitionTime: '2030-06-01T11:00:00Z',
    observedGeneration: 3,
  };
}

function workspace(
  name: string,
  spec: Partial<Workspace['spec']> = {},
  conditions: Condition[] = [],
  creationTimestamp = '2030-06-01T10:00:00Z',
): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: {
      name,
      uid: `uid-${name}`,
      resourceVersion: '42',
      generation: 3,
      creationTimestamp,
      labels: { team: 'a' },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"big":true}' },
      finalizers: ['paddock.dev/workspace-cleanup'],
      managedFields: MANAGED_FIELDS,
    },
    spec: {
      displayName: `Workspace ${name}`,
      description: 'x'.repeat(200),
      namespace: { name: 'team-a', create: true },
      roleBindings: [{ groups: ['team-a'], role: 'editor' }],
      ...spec,
    },
    status: {
      phase: 'Ready',
      observedGeneration: 3,
      namespace: { name: 'team-a', created: true },
      conditions: [condition('Ready', 'True', 'WorkspaceReady'), ...conditions],
    },
  };
}

const agent: AgentRuntime = {
  apiVersion: 'paddock.dev/v1alpha1',
  kind: 'AgentRuntime',
  metadata: { name: 'coder', namespace: 'team-a', uid: 'uid-coder', generation: 1 },
  spec: {
    model: 'claude',
    promptPackRef: { name: 'prompts' },
    ports: [{ containerPort: 8080 }],
  },
} as AgentRuntime;

describe('what the AgentRuntime controller keeps of a Workspace', () => {
  const isolated: Pick<Workspace['spec'], 'networkPolicy'> = {
    networkPolicy: {
      isolate: true,
      allowTo: [{ peers: [{ ipBlock: { cidr: '10.1.0.0/16' } }], ports: [{ port: 443 }] }],
    },
  };
  const cases: { what: string; full: Workspace; kept: ReturnType<typeof workspaceForAgents> }[] = [
    {
      what: 'a plain one: its name, version, age and namespace',
      full: workspace('plain'),
      kept: {
        metadata: {
          name: 'plain',
          resourceVersion: '42',
          creationTimestamp: '2030-06-01T10:00:00Z',
        },
        spec: { namespace: { name: 'team-a' } },
      },
    },
    {
      what: 'isolation settings, the replica limit and the budget action, not the other quotas',
      full: workspace('limited', {
        ...isolated,
        quotas: {
          agents: { maxReplicasPerAgent: 2, maxAgentRuntimes: 9 },
          objects: { secrets: 4 },
        },
        costControls: { dailyBudget: '5.00', budgetExceededAction: 'block' },
      }),
      kept: {
        metadata: {
          name: 'limited',
          resourceVersion: '42',
          creationTimestamp: '2030-06-01T10:00:00Z',
        },
        spec: {
          namespace: { name: 'team-a' },
          ...isolated,
          quotas: { agents: { maxReplicasPerAgent: 2 } },
          costControls: { budgetExceededAction: 'block' },
        },
      },
    },
    {
      what: 'cost controls without an action still as cost controls',
      full: workspace('budgeted', { costControls: { dailyBudget: '5.00' } }),
      kept: {
        metadata: {
          name: 'budgeted',
          resourceVersion: '42',
          creationTimestamp: '2030-06-01T10:00:00Z',
        },
        spec: { namespace: { name: 'team-a' }, costControls: {} },
      },
    },
    {
      what: 'a namespace conflict and an exceeded budget, no other condition',
      full: workspace('conflicted', {}, [
        condition('NamespaceReady', 'False', 'NamespaceConflict'),
        condition('BudgetExceeded', 'True', 'DailyBudgetExceeded'),
      ]),
      kept: {
        metadata: {
          name: 'conflicted',
          resourceVersion: '42',
          creationTimestamp: '2030-06-01T10:00:00Z',
        },
        spec: { namespace: { name: 'team-a' } },
        status: {
          conditions: [
            { type: 'NamespaceReady', status: 'False', reason: 'NamespaceConflict' },
            {
              type: 'BudgetExceeded',
              status: 'True',
              message: 'BudgetExceeded is True (DailyBudgetExceeded).',
            },
          ],
        },
      },
    },
    {
      what: 'neither a namespace that is ready nor a budget within bounds',
      full: workspace('calm', {}, [
        condition('NamespaceReady', 'True', 'NamespaceCreated'),
        condition('BudgetExceeded', 'False', 'WithinBudget'),
      ]),
      kept: {
        metadata: {
          name: 'calm',
          resourceVersion: '42',
          creationTimestamp: '2030-06-01T10:00:00Z',
        },
        spec: { namespace: { name: 'team-a' } },
      },
    },
  ];
  for (const { what, full, kept } of cases) {
    it(what, () => {
      const lean = workspaceForAgents(full);
      assert.deepEqual(lean, kept);
      // The agent's placement and policy come out the same from what is kept as from all of it.
      assert.deepEqual(agentWorkspace(lean), agentWorkspace(full));
      assert.deepEqual(
        desiredAgentNetworkPolicy({ agent, workspace: lean, platformNamespace: 'paddock-system' }),
        desiredAgentNetworkPolicy({ agent, workspace: full, platformNamespace: 'paddock-system' }),
      );
    });
  }

  it('picks the same Workspace of a namespace from what is kept', () => {
    const all = [
      workspace('late', {}, [], '2030-06-01T10:05:00Z'),
      workspace('holder', {}, [], '2030-06-01T10:09:00Z'),
      workspace('first', {}, [condition('NamespaceReady', 'False', 'NamespaceConflict')]),
      workspace('elsewhere', { namespace: { name: 'team-b', create: true } }),
    ];
    const lean = all.map((w) => workspaceForAgents(w));
    assert.equal(workspaceOfNamespace(all, 'team-a')?.metadata.name, 'late');
    assert.equal(workspaceOfNamespace(lean, 'team-a')?.metadata.name, 'late');
    assert.equal(workspaceOfNamespace(lean, 'team-b')?.metadata.name, 'elsewhere');
    assert.equal(workspaceOfNamespace(lean, 'team-c'), undefined);
  });
});

describe('what the Workspace controller keeps', () => {
  it('of a Workspace: its name, version and the namespace it names', () => {
    const strings = new StringPool();
    assert.deepEqual(leanWorkspaceRef(strings)(workspace('alpha')), {
      metadata: { name: 'alpha', resourceVersion: '42' },
      spec: { namespace: { name: 'team-a' } },
    });
  });

  it('of what it made: identity and owner, with repeated strings kept once', () => {
    const strings = new StringPool();
    const lean = leanOwnedRef(strings);
    const made = (namespace: string) => ({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        // Parsed from JSON, as the API server's objects are: copies of their own.
        name: JSON.parse('"workspace-owner"') as string,
        namespace: JSON.parse(`"${namespace}"`) as string,
        uid: 'u',
        resourceVersion: '7',
        labels: { 'app.kubernetes.io/managed-by': 'paddock-operator' },
        annotations: { [ANNOTATION_OWNER_WORKSPACE]: 'alpha', other: 'dropped' },
        managedFields: MANAGED_FIELDS,
      },
      secrets: [{ name: 'token' }],
    });
    const one = lean(made('team-a'));
    const two = lean(made('team-b'));
    assert.deepEqual(one, {
      metadata: { name: 'workspace-owner', namespace: 'team-a', resourceVersion: '7' },
      owner: 'alpha',
    });
    assert.deepEqual(lean({ metadata: { name: 'unowned', namespace: 'team-a' } }), {
      metadata: { name: 'unowned', namespace: 'team-a' },
    });
    assert.deepEqual(two, {
      metadata: { name: 'workspace-owner', namespace: 'team-b', resourceVersion: '7' },
      owner: 'alpha',
    });
    // Each distinct string is indexed once: workspace-owner, team-a, alpha, team-b, unowned.
    assert.equal(strings.size, 5);
  });
});

describe('what the AgentRuntime controller keeps of its objects', () => {
  it('of a StatefulSet or NetworkPolicy: identity and the agent it belongs to', () => {
    const labels = {
      'app.kubernetes.io/name': 'paddock-agent',
      'paddock.dev/agent': 'coder',
      'paddock.dev/workspace': 'alpha',
    };
    assert.deepEqual(
      leanAgentObject({
        metadata: { name: 'coder', namespace: 'team-a', resourceVersion: '3', labels },
        spec: { replicas: 1 },
      } as never),
      {
        metadata: {
          name: 'coder',
          namespace: 'team-a',
          resourceVersion: '3',
          labels: { 'paddock.dev/agent': 'coder' },
        },
      },
    );
    assert.deepEqual(leanAgentObject({ metadata: { name: 'stray', namespace: 'team-a' } }), {
      metadata: { name: 'stray', namespace: 'team-a' },
    });
  });

  it('of a PromptPack: identity and version', () => {
    assert.deepEqual(
      identityOnly({
        metadata: {
          name: 'prompts',
          namespace: 'team-a',
          resourceVersion: '5',
          labels: { a: 'b' },
        },
        spec: { prompts: ['long'] },
      } as never),
      { metadata: { name: 'prompts', namespace: 'team-a', resourceVersion: '5' } },
    );
  });
});

describe('the string pool', () => {
  it('indexes each string once, and starts again empty when full', () => {
    const pool = new StringPool(2);
    assert.equal(pool.intern(JSON.parse('"alpha"') as string), 'alpha');
    assert.equal(pool.intern(JSON.parse('"alpha"') as string), 'alpha');
    assert.equal(pool.size, 1);
    pool.intern('beta');
    assert.equal(pool.size, 2);
    pool.intern('gamma');
    assert.equal(pool.size, 1);
    assert.equal(pool.intern('alpha'), 'alpha');
  });
});
