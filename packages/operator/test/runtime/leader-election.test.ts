import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { createLogger } from '@paddock/common';
import { eventually } from '@paddock/testing';
import { CORE_KINDS, ForbiddenError, NotFoundError } from '@paddock/kube';
import {
  failureBackoffMs,
  LeaderElector,
  leaseFailureReason,
  type Lease,
  type LeaderElectionOptions,
} from '../../src/runtime/leader-election.js';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';

const NAMESPACE = 'default';

describe('leader election', () => {
  let cluster: EmbeddedCluster;
  const electors: LeaderElector[] = [];

  function elector(
    options: Partial<LeaderElectionOptions> & Pick<LeaderElectionOptions, 'name' | 'identity'>,
  ): LeaderElector {
    const created = new LeaderElector({ kube: cluster.kube, namespace: NAMESPACE, ...options });
    electors.push(created);
    return created;
  }

  before(async () => {
    cluster = await startEmbeddedCluster();
  });
  after(async () => {
    await Promise.all(electors.map((e) => e.stop()));
    await cluster.stop();
  });

  it('elects one of two replicas, and hands over at once when the leader stops', async () => {
    // A lease far longer than the test waits: the standby can only take over through release.
    const timing = { leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 100 };
    const started: string[] = [];
    // What each replica logged, to see a standby try and find the lease taken.
    const logged = { 'replica-a': '', 'replica-b': '' };
    const loggerOf = (identity: keyof typeof logged) => {
      const lines = new PassThrough();
      lines.on('data', (chunk: Buffer) => (logged[identity] += chunk.toString()));
      return createLogger({ name: 'operator', level: 'debug', destination: lines });
    };
    const a = elector({
      name: 'handover',
      identity: 'replica-a',
      ...timing,
      logger: loggerOf('replica-a'),
      onStartedLeading: () => started.push('replica-a'),
    });
    const b = elector({
      name: 'handover',
      identity: 'replica-b',
      ...timing,
      logger: loggerOf('replica-b'),
      onStartedLeading: () => started.push('replica-b'),
    });
    a.start();
    b.start();
    const leader = await eventually('a leader', () =>
      a.isLeader ? a : b.isLeader ? b : undefined,
    );
    const standby = leader === a ? b : a;
    await eventually('the standby finding the lease taken', () =>
      logged[standby.identity as keyof typeof logged].includes(
        '"msg":"the leader lease is held by another"',
      )
        ? true
        : undefined,
    );
    assert.equal(standby.isLeader, false, 'only one leads');
    assert.deepEqual(started, [leader.identity]);
    const leases = cluster.kube.resource<Lease>(CORE_KINDS.lease);
    const held = await leases.get('handover', NAMESPACE);
    assert.equal(held.spec?.holderIdentity, leader.identity);
    assert.equal(held.spec?.leaseDurationSeconds, 60);
    assert.equal(held.spec?.leaseTransitions, 0);
    assert.match(held.spec?.renewTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    await leader.stop();
    assert.equal(leader.isLeader, false);
    // Generous under load: the standby only has to notice the release at its next retry.
    await eventually('the standby leading', () => (standby.isLeader ? true : undefined), 30_000);
    assert.deepEqual(started, [leader.identity, standby.identity]);
    const taken = await leases.get('handover', NAMESPACE);
    assert.equal(taken.spec?.holderIdentity, standby.identity);
    assert.equal(taken.spec?.leaseTransitions, 1);
  });

  it('gives leadership up when another holder takes the lease', async () => {
    let lost = 0;
    const replica = elector({
      name: 'intruded',
      identity: 'replica-c',
      leaseDurationMs: 60_000,
      renewDeadlineMs: 40_000,
      retryPeriodMs: 100,
      onLostLeadership: () => (lost += 1),
    });
    replica.start();
    await eventually('leading', () => (replica.isLeader ? true : undefined));
    const leases = cluster.kube.resource<Lease>(CORE_KINDS.lease);
    const lease = await leases.get('intruded', NAMESPACE);
    const now = new Date().toISOString().replace(/Z$/, '000Z');
    await leases.replace({
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'intruder', acquireTime: now, renewTime: now },
    });
    await eventually('leadership lost', () => (lost === 1 ? true : undefined));
    assert.equal(replica.isLeader, false);
    await replica.stop();
    const after = await leases.get('intruded', NAMESPACE);
    assert.equal(after.spec?.holderIdentity, 'intruder', 'stopping releases only its own lease');
  });

  it('gives leadership up when renewal keeps failing past the deadline', async () => {
    const own = await startEmbeddedCluster();
    let lost = 0;
    const replica = new LeaderElector({
      kube: own.kube,
      namespace: NAMESPACE,
      name: 'unreachable',
      identity: 'replica-d',
      leaseDurationMs: 3000,
      renewDeadlineMs: 1000,
      retryPeriodMs: 100,
      onLostLeadership: () => (lost += 1),
    });
    try {
      replica.start();
      await eventually('leading', () => (replica.isLeader ? true : undefined));
      // On a loaded machine a renewal may already have missed the 1 s deadline once (and the
      // lease been won back): what counts is the loss after the cluster is gone.
      const lostBefore = lost;
      await own.process.stop();
      await eventually('leadership lost', () =>
        lost > lostBefore && !replica.isLeader ? true : undefined,
      );
      assert.equal(replica.isLeader, false);
    } finally {
      // Stopped whatever happened, so that a failure cannot leave it campaigning.
      await replica.stop();
      await own.stop();
    }
  });

  it('logs why it cannot take the lease at each failed attempt, backing off, is not ready meanwhile, and leads once it can', async () => {
    let logged = '';
    const lines = new PassThrough();
    lines.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const home = 'elector-home-missing';
    const candidate = new LeaderElector({
      kube: cluster.kube,
      namespace: home,
      namespaceSetting: 'SVC_OPERATOR_NAMESPACE',
      name: 'homeless',
      identity: 'replica-c',
      leaseDurationMs: 60_000,
      renewDeadlineMs: 40_000,
      retryPeriodMs: 20,
      maxFailureBackoffMs: 80,
      logger: createLogger({ name: 'operator', level: 'info', destination: lines }),
    });
    electors.push(candidate);
    candidate.start();
    const failures = await eventually('four failed attempts logged', () => {
      const found = logged
        .split('\n')
        .filter((line) => line.includes('"msg":"cannot take the leader lease: '))
        .map((line) => JSON.parse(line) as { reason: string; retryInMs: number });
      return found.length >= 4 ? found : undefined;
    });
    assert.deepEqual(
      failures.slice(0, 4).map((f) => f.retryInMs),
      [20, 40, 80, 80],
    );
    assert.equal(
      failures[0]!.reason,
      `the namespace "${home}" (SVC_OPERATOR_NAMESPACE) does not exist: create it, the leader lease lives there`,
    );
    assert.deepEqual(candidate.readiness(), { ready: false, reason: failures[0]!.reason });
    await cluster.kube.resource(CORE_KINDS.namespace).create({ metadata: { name: home } });
    await eventually('the candidate leading', () => (candidate.isLeader ? true : undefined));
    assert.deepEqual(candidate.readiness(), { ready: true });
  });

  it('names what an operator of the cluster must fix, and backs off by doubling up to a cap', () => {
    const cases: [unknown, string][] = [
      [
        new NotFoundError('namespaces "home" not found', 404, 'NotFound'),
        'the namespace "home" (SVC_X) does not exist: create it, the leader lease lives there',
      ],
      [
        new ForbiddenError('leases.coordination.k8s.io is forbidden', 403, 'Forbidden'),
        'leases.coordination.k8s.io is forbidden: the operator needs get, create and update on leases in "home"',
      ],
      [undefined, 'the attempt timed out'],
      [new Error('connect ECONNREFUSED 127.0.0.1:6443'), 'connect ECONNREFUSED 127.0.0.1:6443'],
    ];
    for (const [err, reason] of cases)
      assert.equal(leaseFailureReason(err, 'home', 'SVC_X'), reason);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 40].map((n) => failureBackoffMs(n, 2_000, 60_000)),
      [2_000, 4_000, 8_000, 16_000, 32_000, 60_000],
    );
  });

  it('refuses timings where renewal could not finish before the lease expires', () => {
    assert.throws(
      () =>
        new LeaderElector({
          kube: cluster.kube,
          namespace: NAMESPACE,
          name: 'bad',
          leaseDurationMs: 1000,
          renewDeadlineMs: 1000,
        }),
      RangeError,
    );
  });
});
