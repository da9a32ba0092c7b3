import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, it } from 'node:test';
import type { AgentRuntime, AgentRuntimeStatus, Condition, Workspace } from '@paddock/kube';
import {
  desiredAgentNetworkPolicy,
  desiredService,
  desiredStatefulSet,
  namespaceProofSecret,
  newProofKeyPair,
  noWorkspaceStatus,
  platformProofSecret,
  proofKeyFingerprint,
  proofKeysOf,
  withoutOldPause,
} from '../src/agentruntime/index.js';
import { leanAgent, leanPod } from '../src/controllers/agent-runtime/lean-objects.js';
import {
  controlledBy,
  fixedFieldsDiffering,
  networkPolicyUpdate,
  serviceUpdate,
  statefulSetUpdate,
  type StoredObject,
} from '../src/controllers/agent-runtime/owned-objects.js';
import { quantityValue, sameQuantity } from '../src/controllers/agent-runtime/quantities.js';
import { statusEvents } from '../src/controllers/agent-runtime/status-events.js';
import { workspaceOfNamespace } from '../src/controllers/agent-runtime/workspace-of-namespace.js';

const NOW = new Date('2030-06-01T12:00:00Z');

function agent(
  spec: Partial<AgentRuntime['spec']> = {},
  annotations?: Record<string, string>,
): AgentRuntime {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: {
      name: 'coder',
      namespace: 'team-a',
      uid: 'uid-coder',
      generation: 2,
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: { promptPackRef: { name: 'prompts' }, ...spec },
  };
}

/** A deep copy, as JSON carries it. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The StatefulSet as a Kubernetes API server returns it: defaults filled in everywhere, and
 * quantities in their canonical spelling.
 */
function asStored(object: object): StoredObject {
  const stored = copy(object) as StoredObject & {
    metadata: Record<string, unknown>;
    spec: Record<string, unknown> & {
      template: { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } };
      volumeClaimTemplates: Record<string, unknown>[];
    };
    status: unknown;
  };
  stored.metadata = {
    ...stored.metadata,
    uid: 'uid-set',
    resourceVersion: '7',
    generation: 1,
    creationTimestamp: '2030-06-01T11:00:00Z',
    managedFields: [],
  };
  stored.spec.revisionHistoryLimit = 10;
  stored.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
  const pod = stored.spec.template.spec;
  pod.restartPolicy = 'Always';
  pod.dnsPolicy = 'ClusterFirst';
  pod.schedulerName = 'default-scheduler';
  for (const container of pod.containers) {
    container.terminationMessagePath = '/dev/termination-log';
    container.terminationMessagePolicy = 'File';
    const resources = container.resources as { requests: Record<string, string> };
    // The server's canonical form of 0.5 CPU.
    if (resources.requests.cpu === '0.5') resources.requests.cpu = '500m';
    for (const probe of ['readinessProbe', 'livenessProbe']) {
      const p = container[probe] as Record<string, unknown> & { httpGet: Record<string, unknown> };
      p.successThreshold = 1;
      p.httpGet.scheme = 'HTTP';
    }
  }
  for (const claim of stored.spec.volumeClaimTemplates) {
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    (claim.spec as Record<string, unknown>).volumeMode = 'Filesystem';
    claim.status = { phase: 'Pending' };
  }
  stored.status = { replicas: 1, readyReplicas: 1, observedGeneration: 1 };
  return stored;
}

const desired = (spec: Partial<AgentRuntime['spec']> = {}, proofKey = 'abcd') =>
  desiredStatefulSet({
    agent: agent(spec),
    workspace: { name: 'team-a' },
    promptPack: { name: 'prompts', version: '5' },
    proofKey,
  });

describe('the StatefulSet update', () => {
  it('finds nothing to write over what the API server returned for the same wish', () => {
    const wish = desired({ resources: { requests: { cpu: 0.5 } } });
    assert.equal(statefulSetUpdate(asStored(wish), wish), undefined);
    const service = desiredService(agent(), 'team-a');
    const storedService = copy(service) as StoredObject & { spec: Record<string, unknown> };
    storedService.spec = {
      ...storedService.spec,
      clusterIPs: ['None'],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
    };
    assert.equal(serviceUpdate(storedService, service), undefined);
  });

  const cases: [string, Partial<AgentRuntime['spec']>, string, (spec: never) => unknown][] = [
    ['the replicas', { replicas: 3 }, 'replicas', (s: { replicas: number }) => s.replicas],
    [
      'the image',
      { image: 'example.com/sandbox:2' },
      'template',
      (s: { template: { spec: { containers: { image: string }[] } } }) =>
        s.template.spec.containers[0]?.image,
    ],
  ];
  for (const [name, change, field, read] of cases) {
    it(`writes a change of ${name}, keeping what the server set and the fixed fields`, () => {
      const stored = asStored(desired());
      const wish = desired(change);
      const update = statefulSetUpdate(stored, wish) as StoredObject & {
        spec: Record<string, unknown>;
      };
      assert.ok(update, 'an update');
      assert.deepEqual(read(update.spec as never), read(wish.spec as never), field);
      assert.equal(update.spec['revisionHistoryLimit'], 10);
      assert.equal(update.metadata?.resourceVersion, '7');
      assert.deepEqual(update.spec['volumeClaimTemplates'], stored.spec?.['volumeClaimTemplates']);
    });
  }

  it('compares no field the server drops: the claim retention policy (before 1.27), a false publishNotReadyAddresses', () => {
    const wish = desired();
    const stored = asStored(wish);
    delete stored.spec?.['persistentVolumeClaimRetentionPolicy'];
    assert.equal(statefulSetUpdate(stored, wish), undefined);
    const service = desiredService(agent(), 'team-a');
    const storedService = copy(service) as StoredObject & { spec: Record<string, unknown> };
    delete storedService.spec['publishNotReadyAddresses'];
    assert.equal(serviceUpdate(storedService, service), undefined);
    storedService.spec['publishNotReadyAddresses'] = true;
    assert.ok(serviceUpdate(storedService, service));
  });

  it('changes the template when the proof key changes, so the pods restart with it', () => {
    const stored = asStored(desired({}, 'old'));
    const update = statefulSetUpdate(stored, desired({}, 'new')) as {
      spec: { template: { metadata: { annotations: Record<string, string> } } };
    };
    assert.equal(update.spec.template.metadata.annotations['paddock.dev/proof-key'], 'new');
  });

  it('keeps the claim templates, which Kubernetes does not let change, and names them', () => {
    const stored = asStored(desired());
    const wish = desired({ storage: { size: '20Gi' } });
    assert.deepEqual(fixedFieldsDiffering(stored, wish), ['volumeClaimTemplates']);
    assert.deepEqual(fixedFieldsDiffering(stored, desired()), []);
    assert.equal(statefulSetUpdate(stored, wish), undefined);
  });

  it('tells whose an object is: this agent’s, another owner’s, or nobody’s', () => {
    const stored = asStored(desired());
    assert.equal(controlledBy(stored, 'uid-coder'), 'agent');
    assert.equal(controlledBy(stored, 'uid-other'), 'other');
    assert.equal(controlledBy({ metadata: { name: 'coder' } }, 'uid-coder'), 'none');
  });
});

describe('the NetworkPolicy update', () => {
  const workspace = (isolate: boolean): Workspace => ({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'team-a' },
    spec: { displayName: 'A', namespace: { name: 'team-a' }, networkPolicy: { isolate } },
  });
  const desired = (isolate: boolean) =>
    desiredAgentNetworkPolicy({
      agent: agent({ ports: [{ name: 'web', containerPort: 3000 }] }),
      workspace: workspace(isolate),
    });
  const stored = (object: object): StoredObject => {
    const found = copy(object) as StoredObject;
    found.metadata = { ...found.metadata, uid: 'uid-policy', resourceVersion: '3', generation: 1 };
    return found;
  };

  it('finds nothing to write over the same wish, isolated or not', () => {
    assert.equal(networkPolicyUpdate(stored(desired(false)), desired(false)), undefined);
    assert.equal(networkPolicyUpdate(stored(desired(true)), desired(true)), undefined);
  });

  it('writes the spec whole: isolation turned off removes the egress rules', () => {
    const update = networkPolicyUpdate(stored(desired(true)), desired(false));
    assert.ok(update);
    assert.deepEqual(update.spec, desired(false).spec);
    assert.equal(update.metadata?.resourceVersion, '3');
  });

  it('restores what someone changed: a rule added, a port opened, the egress rules added', () => {
    const added = stored(desired(false));
    (added.spec?.['ingress'] as unknown[]).push({});
    assert.deepEqual(networkPolicyUpdate(added, desired(false))?.spec, desired(false).spec);
    const opened = stored(desired(false));
    delete (opened.spec?.['ingress'] as { ports?: unknown }[])[0]?.ports;
    assert.ok(networkPolicyUpdate(opened, desired(false)));
    const egress = stored(desired(false));
    egress.spec = { ...egress.spec, egress: [{}] };
    assert.ok(networkPolicyUpdate(egress, desired(false)));
  });
});

describe('quantities', () => {
  const cases: [unknown, number | undefined][] = [
    ['500m', 0.5],
    ['0.5', 0.5],
    [0.5, 0.5],
    ['1Gi', 2 ** 30],
    ['1024Mi', 2 ** 30],
    ['1e3', 1000],
    ['1k', 1000],
    ['2E', 2e18],
    ['ten', undefined],
    ['', undefined],
  ];
  for (const [quantity, value] of cases) {
    it(`${JSON.stringify(quantity)} is ${value}`, () =>
      assert.equal(quantityValue(quantity), value));
  }
  it('compares values, not spellings', () => {
    assert.ok(sameQuantity('1', '1000m'));
    assert.ok(sameQuantity('1Gi', '1024Mi'));
    assert.ok(!sameQuantity('1G', '1Gi'));
    assert.ok(!sameQuantity('x', 'x'));
  });
});

describe('the pause of earlier versions', () => {
  const cases: [string, AgentRuntime, number | undefined | 'none'][] = [
    ['no annotation: nothing to do', agent({ replicas: 0 }), 'none'],
    [
      'paused at 0: the remembered count',
      agent({ replicas: 0 }, { 'paddock.dev/paused-replicas': '3' }),
      3,
    ],
    [
      'scaled while paused: the new count stays',
      agent({ replicas: 2 }, { 'paddock.dev/paused-replicas': '3' }),
      2,
    ],
    [
      'unreadable memory: 0 stays',
      agent({ replicas: 0 }, { 'paddock.dev/paused-replicas': 'x' }),
      0,
    ],
  ];
  for (const [name, input, replicas] of cases) {
    it(name, () => {
      const frozen = Object.freeze(copy(input));
      const result = withoutOldPause(frozen);
      if (replicas === 'none') return assert.equal(result, undefined);
      assert.equal(result?.spec.replicas, replicas);
      assert.equal(result?.metadata.annotations?.['paddock.dev/paused-replicas'], undefined);
      // Once: the result needs nothing more.
      assert.equal(withoutOldPause(result as AgentRuntime), undefined);
    });
  }
  it('keeps the other annotations', () => {
    const result = withoutOldPause(
      agent({ replicas: 0 }, { 'paddock.dev/paused-replicas': '1', team: 'blue' }),
    );
    assert.deepEqual(result?.metadata.annotations, { team: 'blue' });
  });
});

const cond = (
  type: string,
  status: 'True' | 'False',
  message = `${type} ${status}`,
): Condition => ({
  type,
  status,
  reason: 'R',
  message,
  lastTransitionTime: '2030-06-01T12:00:00Z',
});

describe('the events of a status change', () => {
  const cases: [string, AgentRuntimeStatus | undefined, AgentRuntimeStatus, string[]][] = [
    [
      'first status, running',
      undefined,
      { phase: 'Running', conditions: [cond('Paused', 'False')] },
      [],
    ],
    [
      'first status, paused',
      undefined,
      { phase: 'Pending', conditions: [cond('Paused', 'True')] },
      ['Normal Paused'],
    ],
    [
      'paused, then resumed',
      { phase: 'Pending', conditions: [cond('Paused', 'True')] },
      { phase: 'Pending', conditions: [cond('Paused', 'False')] },
      ['Normal Resumed'],
    ],
    [
      'still paused',
      { phase: 'Pending', conditions: [cond('Paused', 'True')] },
      { phase: 'Pending', conditions: [cond('Paused', 'True')] },
      [],
    ],
    [
      'the cap starts to apply',
      { phase: 'Running', conditions: [cond('ReplicasLimited', 'False')] },
      { phase: 'Running', conditions: [cond('ReplicasLimited', 'True')] },
      ['Warning ReplicasLimited'],
    ],
    [
      'the cap still applies',
      { phase: 'Running', conditions: [cond('ReplicasLimited', 'True')] },
      { phase: 'Running', conditions: [cond('ReplicasLimited', 'True')] },
      [],
    ],
    [
      'fails',
      { phase: 'Running', conditions: [] },
      {
        phase: 'Failed',
        conditions: [cond('Available', 'False', 'Pod coder-0 is in CrashLoopBackOff')],
      },
      ['Warning Failed'],
    ],
    ['still failed', { phase: 'Failed', conditions: [] }, { phase: 'Failed', conditions: [] }, []],
  ];
  for (const [name, before, after, expected] of cases) {
    it(name, () =>
      assert.deepEqual(
        statusEvents(before, after).map((e) => `${e.type} ${e.reason}`),
        expected,
      ),
    );
  }
  it('says why in the message', () => {
    const [failed] = statusEvents(undefined, {
      phase: 'Failed',
      conditions: [cond('Available', 'False', 'Pod coder-0 is in CrashLoopBackOff')],
    });
    assert.equal(failed?.message, 'Pod coder-0 is in CrashLoopBackOff');
  });
});

function workspace(name: string, namespace: string, created: string, conflict = false): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name, creationTimestamp: created },
    spec: { displayName: name, namespace: { name: namespace } },
    ...(conflict && {
      status: {
        conditions: [{ ...cond('NamespaceReady', 'False'), reason: 'NamespaceConflict' }],
      },
    }),
  };
}

describe('the workspace of a namespace', () => {
  it('is the one naming it; of two, the one holding it, then the older', () => {
    const a = workspace('a', 'ns', '2030-01-02T00:00:00Z');
    const b = workspace('b', 'ns', '2030-01-01T00:00:00Z', true);
    const c = workspace('c', 'other', '2030-01-01T00:00:00Z');
    assert.equal(workspaceOfNamespace([c, b, a], 'ns')?.metadata.name, 'a');
    assert.equal(workspaceOfNamespace([c], 'ns'), undefined);
    const older = workspace('older', 'ns', '2029-01-01T00:00:00Z');
    assert.equal(workspaceOfNamespace([a, older], 'ns')?.metadata.name, 'older');
  });
});

describe('an agent outside any workspace', () => {
  it('is Pending with NoWorkspace, and an unchanged pass computes the same status', () => {
    const status = noWorkspaceStatus(agent(), NOW);
    assert.equal(status.phase, 'Pending');
    assert.deepEqual(
      status.conditions.map((c) => [c.type, c.status, c.reason]),
      [
        ['Available', 'False', 'NoWorkspace'],
        ['Progressing', 'False', 'NoWorkspace'],
      ],
    );
    assert.match(status.conditions[0]?.message ?? '', /namespace team-a/);
    const again = noWorkspaceStatus({ ...agent(), status }, new Date('2030-06-01T13:00:00Z'));
    assert.deepEqual(again, status);
  });
});

describe('the identity-proof keys', () => {
  it('make an Ed25519 pair that reads back from the platform Secret', () => {
    const keys = newProofKeyPair();
    assert.equal(createPublicKey(keys.publicKey).asymmetricKeyType, 'ed25519');
    const secret = platformProofSecret('paddock-system', keys);
    assert.deepEqual(Object.keys(secret.data).sort(), ['private-key', 'public-key']);
    assert.deepEqual(proofKeysOf(secret.data), keys);
    assert.equal(secret.metadata.name, 'paddock-sandbox-proof');
  });

  it('derive the public key from the private one, and refuse anything but Ed25519', () => {
    const keys = newProofKeyPair();
    const other = newProofKeyPair();
    const mixed = { ...platformProofSecret('p', keys).data, 'public-key': 'd3Jvbmc=' };
    assert.equal(proofKeysOf(mixed)?.publicKey, keys.publicKey);
    assert.notEqual(proofKeysOf(platformProofSecret('p', other).data)?.publicKey, keys.publicKey);
    assert.equal(proofKeysOf({}), undefined);
    assert.equal(proofKeysOf({ 'private-key': 'bm90IGEga2V5' }), undefined);
  });

  it('copy only the public key into an agent namespace, with the managed-by label', () => {
    const keys = newProofKeyPair();
    const copySecret = namespaceProofSecret('team-a', keys.publicKey);
    assert.deepEqual(Object.keys(copySecret.data), ['public-key']);
    assert.equal(
      Buffer.from(copySecret.data['public-key'] ?? '', 'base64').toString(),
      keys.publicKey,
    );
    assert.equal(copySecret.metadata.labels['app.kubernetes.io/managed-by'], 'paddock-operator');
    assert.match(proofKeyFingerprint(keys.publicKey), /^[0-9a-f]{16}$/);
    assert.notEqual(
      proofKeyFingerprint(keys.publicKey),
      proofKeyFingerprint(newProofKeyPair().publicKey),
    );
  });
});

describe('what the informers keep', () => {
  it('of a pod: identity, labels and the container states, nothing else', () => {
    const pod = leanPod({
      metadata: {
        name: 'coder-0',
        namespace: 'team-a',
        resourceVersion: '9',
        labels: { 'paddock.dev/agent': 'coder' },
        annotations: { big: 'x'.repeat(100) },
        managedFields: [],
      },
      spec: { containers: [{ name: 'sandbox' }] },
      status: {
        phase: 'Running',
        podIP: '10.0.0.1',
        containerStatuses: [
          {
            name: 'sandbox',
            ready: false,
            restartCount: 2,
            image: 'i',
            state: { waiting: { reason: 'CrashLoopBackOff' } },
          },
        ],
      },
    } as never);
    assert.deepEqual(pod, {
      metadata: {
        name: 'coder-0',
        namespace: 'team-a',
        resourceVersion: '9',
        labels: { 'paddock.dev/agent': 'coder' },
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'sandbox',
            ready: false,
            restartCount: 2,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
          },
        ],
      },
    });
  });

  it('of an agent: identity, generation, annotations and its prompt pack', () => {
    const full: AgentRuntime = { ...agent(), status: { phase: 'Running' } };
    const lean = leanAgent(full);
    assert.deepEqual(lean, {
      metadata: { name: 'coder', namespace: 'team-a', generation: 2 },
      spec: { promptPackRef: { name: 'prompts' } },
    });
  });
});
