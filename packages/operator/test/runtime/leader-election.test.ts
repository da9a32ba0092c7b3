import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { createLogger } from '@paddock/common';
import { eventually } from '@paddock/testing';
import { CORE_KINDS } from '@paddock/kube';
import {
  LeaderElector,
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
