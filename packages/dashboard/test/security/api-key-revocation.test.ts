import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@paddock/testing';
import { REVOCATION_BOUND_MS } from '../../src/auth/apikeys/service.js';
import { hammer, signedInAdmin, startReplicas, type Replicas, type Shot } from './replicas.js';

/** Scheduling slack on a loaded two-core machine, on top of the promised bound. */
const MARGIN_MS = 2_000;
/** Requests sent past the bound (+ margin), all of which must be refused. */
const REFUSALS_AFTER = 50;
/** Requests the other replica answers with the key before it is revoked. */
const WARM_REQUESTS = 100;

/**
 * How many of the last shots were sent after `instant`, counting back from the newest: shots
 * are answered nearly in the order they were sent, so this stays cheap however long the flood.
 */
function sentPast(shots: readonly Shot[], instant: number): number {
  let count = 0;
  for (let i = shots.length - 1; i >= 0 && count < REFUSALS_AFTER; i--) {
    if (shots[i]!.sentAt > instant) count++;
    else break;
  }
  return count;
}

let replicas: Replicas;
before(async () => {
  replicas = await startReplicas();
});
after(() => replicas.stop());

describe('API key revocation across replicas', () => {
  it('refuses a revoked key on another replica within the bound, even while it is used without pause', async () => {
    const { a, b } = replicas;
    const admin = await signedInAdmin(a.base);
    const created = await admin.post('/api/settings/api-keys', { name: 'busy-script' });
    assert.equal(created.status, 201);
    const { key, apiKey } = created.body as { key: string; apiKey: { id: string } };
    const script = new Client(b.base, { authorization: `Bearer ${key}` });
    assert.equal((await script.get('/api/auth/me')).status, 200);

    let revokedAt = Infinity;
    let revoking: Promise<void> | undefined;
    const revoke = async () => {
      const answer = await admin.request('DELETE', `/api/settings/api-keys/${apiKey.id}`);
      assert.equal(answer.status, 200);
      revokedAt = Date.now();
    };
    let sent = 0;
    const shots = await hammer(
      async () => {
        // Revoked on replica A once replica B has been busy with the key for a while.
        if (++sent === WARM_REQUESTS) revoking = revoke();
        return (await script.get('/api/auth/me')).status;
      },
      {
        concurrency: 4,
        // The time bound ends the flood, not a count: a fast replica answers thousands a second.
        maxRequests: 1_000_000,
        maxMs: 20_000,
        // Until enough requests were sent past the bound (+ margin) to show none gets through.
        stop: (done) =>
          sentPast(done, revokedAt + REVOCATION_BOUND_MS + MARGIN_MS) >= REFUSALS_AFTER,
      },
    );
    await revoking;
    assert.ok(revokedAt !== Infinity, 'the key was revoked during the flood');
    assert.ok(
      shots.every((s) => s.status === 200 || s.status === 401),
      'only 200 and 401 answers',
    );
    const firstRefusal = shots.find((s) => s.status === 401);
    assert.ok(firstRefusal, `the key was never refused in ${shots.length} requests`);
    const acceptedLate = shots.filter(
      (s) => s.status === 200 && s.sentAt > revokedAt + REVOCATION_BOUND_MS + MARGIN_MS,
    );
    assert.deepEqual(acceptedLate, [], 'no request sent after bound + margin is accepted');
    const late = shots.filter((s) => s.sentAt > revokedAt + REVOCATION_BOUND_MS + MARGIN_MS);
    assert.ok(late.length >= REFUSALS_AFTER, `only ${late.length} requests past the bound`);
    assert.ok(
      firstRefusal.answeredAt - revokedAt <= REVOCATION_BOUND_MS + MARGIN_MS,
      'refused within the bound',
    );
    const lastAccepted = Math.max(
      ...shots.filter((s) => s.status === 200).map((s) => s.answeredAt),
    );
    process.stdout.write(
      `# ${shots.length} requests, ${shots.filter((s) => s.status === 200 && s.sentAt > revokedAt).length} accepted after revocation, last ${lastAccepted - revokedAt} ms after it (bound ${REVOCATION_BOUND_MS} ms)\n`,
    );
  });
});
