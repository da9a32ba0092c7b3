import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, eventually } from '@paddock/testing';
import { REVOCATION_BOUND_MS } from '../../src/auth/apikeys/service.js';
import { replayOf, signedInAdmin, startReplicas, type Replicas } from './replicas.js';

/** Scheduling slack on a loaded two-core machine, on top of the promised bound. */
const MARGIN_MS = 2_000;

let replicas: Replicas;
before(async () => {
  replicas = await startReplicas();
});
after(() => replicas.stop());

/** Polls until the client's session is refused; returns how long that took. */
async function refusedWithin(client: Client, what: string): Promise<number> {
  const started = Date.now();
  await eventually(
    what,
    async () => ((await client.get('/api/auth/me')).status === 401 ? true : undefined),
    REVOCATION_BOUND_MS + MARGIN_MS,
  );
  return Date.now() - started;
}

describe('session revocation across replicas', () => {
  it('makes a copied cookie useless on every replica after logout, and leaves other sessions alone', async () => {
    const { a, b } = replicas;
    const browser = await signedInAdmin(a.base);
    const otherBrowser = await signedInAdmin(a.base);
    const copyOnA = replayOf(browser, a.base);
    const copyOnB = replayOf(browser, b.base);
    assert.equal((await copyOnA.get('/api/auth/me')).status, 200);
    assert.equal((await copyOnB.get('/api/auth/me')).status, 200);

    assert.equal((await browser.post('/api/auth/logout')).status, 200);
    assert.equal(
      (await copyOnA.get('/api/auth/me')).status,
      401,
      'refused at once where logged out',
    );
    const took = await refusedWithin(copyOnB, 'the copy to be refused on the other replica');
    process.stdout.write(`# copied cookie refused on the other replica after ${took} ms\n`);
    for (const copy of [copyOnA, copyOnB]) {
      const minted = await copy.post('/api/settings/api-keys', { name: 'stolen' });
      assert.equal(minted.status, 401, 'a copied cookie cannot mint API keys after logout');
    }
    assert.equal((await otherBrowser.get('/api/auth/me')).status, 200, 'another session stays');
  });

  it('signs out everywhere: every session of the user ends on every replica, API keys stay', async () => {
    const { a, b } = replicas;
    const first = await signedInAdmin(a.base);
    const second = await signedInAdmin(b.base);
    const copyOnB = replayOf(first, b.base);
    const created = await first.post('/api/settings/api-keys', { name: 'stays' });
    assert.equal(created.status, 201);
    const script = new Client(b.base, {
      authorization: `Bearer ${(created.body as { key: string }).key}`,
    });

    const answer = await first.post('/api/auth/logout-everywhere');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { success: true });
    assert.equal((await first.get('/api/auth/me')).status, 401, 'its own cookie is cleared');
    assert.equal((await replayOf(second, a.base).get('/api/auth/me')).status, 401, 'at once here');
    await refusedWithin(second, 'the session on the other replica to end');
    await refusedWithin(copyOnB, 'the copied cookie to be refused');
    assert.equal((await script.get('/api/auth/me')).status, 200, 'API keys stay valid');

    const again = await signedInAdmin(b.base);
    assert.equal((await again.get('/api/auth/me')).status, 200, 'a new sign-in works');
  });

  it('refuses sign out everywhere without a credential', async () => {
    const answer = await new Client(replicas.a.base).post('/api/auth/logout-everywhere');
    assert.equal(answer.status, 401);
  });
});
