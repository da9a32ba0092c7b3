import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Pod, PersistentVolumeClaim } from 'kubernetes-models/v1';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import type { KubeObject } from '../src/contracts.js';
import {
  POD_NAME_LABEL,
  REVISION_LABEL,
  claimFor,
  ordinalOf,
  planStatefulSet,
  podFor,
  revisionOf,
  statefulSetSpecOf,
  type StatefulSetAction,
  type StatefulSetSpec,
} from '../src/workloads/statefulset-plan.js';

const TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};
const CHANGED = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:2' }] },
};

function statefulSet(
  spec: Record<string, unknown> = {},
  status?: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'team', uid: 'set-uid', generation: 2 },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: TEMPLATE,
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

type PodState = 'ready' | 'pending' | 'failed' | 'terminating';

/** Pod `ordinal` of the set, made from `template` (the set's own by default), in the state a kubelet would report. */
function pod(
  set: StatefulSetSpec,
  ordinal: number,
  state: PodState,
  template: Record<string, unknown> = set.template,
): KubeObject {
  const made = podFor(set, ordinal, revisionOf({ name: set.name, template }));
  const meta = made.metadata as Record<string, unknown>;
  meta['uid'] = `pod-${ordinal}`;
  if (state === 'terminating') meta['deletionTimestamp'] = '2026-01-01T00:00:00Z';
  made['status'] =
    state === 'ready' || state === 'terminating'
      ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }
      : state === 'failed'
        ? { phase: 'Failed' }
        : { phase: 'Pending' };
  return made;
}

const claims = (set: StatefulSetSpec, ...ordinals: number[]) =>
  ordinals.map((o) => claimFor(set, set.volumeClaimTemplates[0]!, o));

/** The steps as short words, status left out (checked on its own). */
function steps(actions: StatefulSetAction[]): string[] {
  return actions.flatMap((a) => {
    switch (a.type) {
      case 'createClaim':
        return [`createClaim ${String(a.claim.metadata?.name)}`];
      case 'createPod':
        return [`createPod ${String(a.pod.metadata?.name)}`];
      case 'deletePod':
      case 'deleteClaim':
      case 'setClaimOwners':
        return [`${a.type} ${a.name}`];
      case 'writeStatus':
        return [];
    }
  });
}

interface Case {
  name: string;
  spec?: Record<string, unknown>;
  pods: Array<[number, PodState] | [number, PodState, 'old']>;
  claims?: number[];
  expected: string[];
}

const OLD = statefulSetSpecOf(statefulSet());

const CASES: Case[] = [
  {
    name: 'OrderedReady from nothing: the claim then the pod of ordinal 0 only',
    pods: [],
    expected: ['createClaim data-web-0', 'createPod web-0'],
  },
  {
    name: 'OrderedReady waits while ordinal 0 is not Ready',
    pods: [[0, 'pending']],
    claims: [0],
    expected: [],
  },
  {
    name: 'OrderedReady creates ordinal 1 once ordinal 0 is Running and Ready',
    pods: [[0, 'ready']],
    claims: [0],
    expected: ['createClaim data-web-1', 'createPod web-1'],
  },
  {
    name: 'Parallel creates every missing ordinal at once',
    spec: { podManagementPolicy: 'Parallel' },
    pods: [[0, 'pending']],
    claims: [0],
    expected: [
      'createClaim data-web-1',
      'createPod web-1',
      'createClaim data-web-2',
      'createPod web-2',
    ],
  },
  {
    name: 'a claim missing under a live pod is made again',
    pods: [[0, 'ready']],
    claims: [],
    expected: ['createClaim data-web-0', 'createClaim data-web-1', 'createPod web-1'],
  },
  {
    name: 'scale down removes the highest ordinal first, one at a time, keeping its claim (Retain)',
    spec: { replicas: 1 },
    pods: [
      [0, 'ready'],
      [1, 'ready'],
      [2, 'ready'],
    ],
    claims: [0, 1, 2],
    expected: ['deletePod web-2'],
  },
  {
    name: 'scale down with whenScaled Delete deletes the claim of the removed ordinal',
    spec: { replicas: 1, persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } },
    pods: [
      [0, 'ready'],
      [1, 'ready'],
    ],
    claims: [0, 1],
    expected: ['deletePod web-1', 'deleteClaim data-web-1'],
  },
  {
    name: 'Parallel scale down removes every condemned ordinal at once, highest first',
    spec: { replicas: 1, podManagementPolicy: 'Parallel' },
    pods: [
      [0, 'ready'],
      [1, 'ready'],
      [2, 'ready'],
    ],
    claims: [0, 1, 2],
    expected: ['deletePod web-2', 'deletePod web-1'],
  },
  {
    name: 'OrderedReady scale down waits while a remaining pod is not Ready',
    spec: { replicas: 1 },
    pods: [
      [0, 'pending'],
      [1, 'ready'],
    ],
    claims: [0, 1],
    expected: [],
  },
  {
    name: 'a changed template replaces the highest ordinal first',
    spec: { template: CHANGED },
    pods: [
      [0, 'ready', 'old'],
      [1, 'ready', 'old'],
      [2, 'ready', 'old'],
    ],
    claims: [0, 1, 2],
    expected: ['deletePod web-2'],
  },
  {
    name: 'the rolling update waits for the replaced pod to be Ready',
    spec: { template: CHANGED },
    pods: [
      [0, 'ready', 'old'],
      [1, 'ready', 'old'],
      [2, 'pending'],
    ],
    claims: [0, 1, 2],
    expected: [],
  },
  {
    name: 'the rolling update goes on down once the replaced pod is Ready',
    spec: { template: CHANGED },
    pods: [
      [0, 'ready', 'old'],
      [1, 'ready', 'old'],
      [2, 'ready'],
    ],
    claims: [0, 1, 2],
    expected: ['deletePod web-1'],
  },
  {
    name: 'a partition keeps the ordinals below it at the old revision',
    spec: {
      template: CHANGED,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
    },
    pods: [
      [0, 'ready', 'old'],
      [1, 'ready', 'old'],
      [2, 'ready'],
    ],
    claims: [0, 1, 2],
    expected: [],
  },
  {
    name: 'OnDelete replaces nothing itself',
    spec: { template: CHANGED, updateStrategy: { type: 'OnDelete' } },
    pods: [
      [0, 'ready', 'old'],
      [1, 'ready', 'old'],
      [2, 'ready', 'old'],
    ],
    claims: [0, 1, 2],
    expected: [],
  },
  {
    name: 'a failed pod is deleted so that it is made again',
    pods: [
      [0, 'ready'],
      [1, 'failed'],
    ],
    claims: [0, 1],
    expected: ['deletePod web-1'],
  },
  {
    name: 'a terminating pod holds OrderedReady back',
    pods: [[0, 'terminating']],
    claims: [0],
    expected: [],
  },
  {
    name: 'whenDeleted Delete gives existing claims the set as owner',
    spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } },
    pods: [[0, 'pending']],
    claims: [0],
    expected: ['setClaimOwners data-web-0'],
  },
];

describe('planStatefulSet: what the StatefulSet controller does next', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const set = statefulSetSpecOf(statefulSet(c.spec));
      const pods = c.pods.map(([ordinal, state, old]) =>
        pod(set, ordinal, state, old ? TEMPLATE : set.template),
      );
      // Claims made under the default policy (no owner), as a set created with Retain has them.
      const actions = planStatefulSet(set, pods, claims(OLD, ...(c.claims ?? [])));
      assert.deepEqual(steps(actions), c.expected);
    });
  }

  it('writes the status only when it changed', () => {
    const set = statefulSetSpecOf(statefulSet());
    const pods = [pod(set, 0, 'ready'), pod(set, 1, 'ready'), pod(set, 2, 'pending')];
    const first = planStatefulSet(set, pods, claims(set, 0, 1, 2));
    const write = first.find((a) => a.type === 'writeStatus');
    assert.ok(write && write.type === 'writeStatus');
    const revision = revisionOf(set);
    assert.deepEqual(write.status, {
      observedGeneration: 2,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 2,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
    });
    const again = statefulSetSpecOf(statefulSet({}, write.status));
    assert.deepEqual(planStatefulSet(again, pods, claims(set, 0, 1, 2)), []);
  });

  it('moves currentRevision to updateRevision only once every pod is updated and Ready', () => {
    const old = statefulSetSpecOf(statefulSet());
    const oldRevision = revisionOf(old);
    const status = { currentRevision: oldRevision };
    const set = statefulSetSpecOf(statefulSet({ template: CHANGED }, status));
    const newRevision = revisionOf(set);
    assert.notEqual(newRevision, oldRevision);
    const statusOf = (pods: KubeObject[]) => {
      const write = planStatefulSet(set, pods, claims(set, 0, 1, 2)).find(
        (a) => a.type === 'writeStatus',
      );
      assert.ok(write && write.type === 'writeStatus');
      return write.status;
    };
    const midway = statusOf([
      pod(set, 0, 'ready', TEMPLATE),
      pod(set, 1, 'ready'),
      pod(set, 2, 'ready'),
    ]);
    assert.equal(midway['currentRevision'], oldRevision);
    assert.equal(midway['currentReplicas'], 1);
    assert.equal(midway['updatedReplicas'], 2);
    const done = statusOf([pod(set, 0, 'ready'), pod(set, 1, 'ready'), pod(set, 2, 'ready')]);
    assert.equal(done['currentRevision'], newRevision);
    assert.equal(done['currentReplicas'], 3);
  });
});

describe('the objects a StatefulSet makes', () => {
  const set = statefulSetSpecOf(
    statefulSet({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } }),
  );

  it('names pods <set>-<ordinal> with the labels, owner, hostname and claim Kubernetes gives them', () => {
    const made = podFor(set, 1, revisionOf(set));
    new Pod(made).validate();
    assert.equal(made.metadata?.name, 'web-1');
    const meta = made.metadata;
    assert.deepEqual(meta['labels'], {
      app: 'web',
      [POD_NAME_LABEL]: 'web-1',
      [REVISION_LABEL]: revisionOf(set),
      'apps.kubernetes.io/pod-index': '1',
    });
    assert.deepEqual(meta['ownerReferences'], [
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: 'web',
        uid: 'set-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    const spec = made['spec'] as Record<string, unknown>;
    assert.equal(spec['hostname'], 'web-1');
    assert.equal(spec['subdomain'], 'web');
    assert.deepEqual(spec['volumes'], [
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } },
    ]);
  });

  it('names claims <template>-<set>-<ordinal>, labelled with the selector, owned per whenDeleted', () => {
    const claim = claimFor(set, set.volumeClaimTemplates[0]!, 2);
    new PersistentVolumeClaim(claim).validate();
    assert.equal(claim.metadata?.name, 'data-web-2');
    const meta = claim.metadata;
    assert.deepEqual(meta['labels'], { app: 'web' });
    assert.equal((meta['ownerReferences'] as Array<{ uid: string }>)[0]?.uid, 'set-uid');
    const retained = claimFor(OLD, OLD.volumeClaimTemplates[0]!, 2);
    assert.equal((retained.metadata as Record<string, unknown>)['ownerReferences'], undefined);
  });

  it('gives equal templates the same revision whatever the order of their fields', () => {
    const reordered = {
      spec: { containers: [{ image: 'nginx:1', name: 'main' }] },
      metadata: { labels: { app: 'web' } },
    };
    assert.equal(revisionOf({ name: 'web', template: reordered }), revisionOf(set));
    assert.notEqual(revisionOf({ name: 'web', template: CHANGED }), revisionOf(set));
    assert.match(revisionOf(set), /^web-[0-9a-f]{10}$/);
  });

  it('reads ordinals only from names of the set', () => {
    assert.equal(ordinalOf('web', 'web-12'), 12);
    assert.equal(ordinalOf('web', 'web-01'), undefined);
    assert.equal(ordinalOf('web', 'web-x'), undefined);
    assert.equal(ordinalOf('web', 'webby-1'), undefined);
  });

  it('is a StatefulSet the upstream schema accepts, as the tests write it', () => {
    new StatefulSet(statefulSet()).validate();
  });
});
