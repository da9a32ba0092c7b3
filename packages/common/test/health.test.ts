import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHttpApp, Health, silentLogger } from '@paddock/common';

describe('readiness', () => {
  it('is ready only while every check passes and before draining starts', async () => {
    const app = createHttpApp({ logger: silentLogger() });
    const health = new Health();
    let databaseUp = true;
    health.addCheck('database', () => databaseUp);
    health.addCheck('broken', () => Promise.reject(new Error('boom')).then(() => true));
    health.register(app);

    let res = await app.inject('/readyz');
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), {
      status: 'not_ready',
      checks: { database: true, broken: false },
    });

    const why = new Health();
    why.addCheck('lease', () => ({ ready: false, reason: 'the namespace is missing' }));
    why.addCheck('database', () => ({ ready: true, reason: 'not shown when ready' }));
    const app3 = createHttpApp({ logger: silentLogger() });
    why.register(app3);
    res = await app3.inject('/readyz');
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), {
      status: 'not_ready',
      checks: { lease: false, database: true },
      reasons: { lease: 'the namespace is missing' },
    });

    const ok = new Health();
    ok.addCheck('database', () => databaseUp);
    const app2 = createHttpApp({ logger: silentLogger() });
    ok.register(app2);
    assert.equal((await app2.inject('/readyz')).statusCode, 200);
    databaseUp = false;
    res = await app2.inject('/readyz');
    assert.equal(res.statusCode, 503);
    databaseUp = true;
    ok.startDraining();
    res = await app2.inject('/readyz');
    assert.deepEqual(res.json(), { status: 'draining', checks: { database: true } });
    assert.equal((await app2.inject('/healthz')).statusCode, 200, 'liveness is unaffected');
  });
});
