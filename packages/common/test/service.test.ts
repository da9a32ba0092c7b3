import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { Shutdown, silentLogger } from '@paddock/common';
import { start, type Started } from '@paddock/testing';

const fixture = join(import.meta.dirname, 'fixtures', 'service.ts');

function startService(env: Record<string, string> = {}): Started {
  return start(process.execPath, ['--conditions=paddock-source', '--import', 'tsx', fixture], {
    env: { ...process.env, SVC_LOG_FORMAT: 'json', ...env },
  });
}

async function portOf(service: Started): Promise<number> {
  const [, port] = await service.waitForOutput(/"port":(\d+)/);
  return Number(port);
}

describe('a service built from the common pieces', () => {
  let service: Started;
  let base: string;
  before(async () => {
    service = startService();
    base = `http://127.0.0.1:${await portOf(service)}`;
  });
  after(() => service.stop());

  it('answers /healthz and /readyz', async () => {
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', checks: {} });
  });

  it('answers unknown routes, malformed JSON and oversized bodies with the error envelope', async () => {
    const missing = await fetch(`${base}/nowhere?x=1`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), {
      error: 'not_found',
      message: 'no route for GET /nowhere',
    });

    const malformed = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: string }).error, 'invalid_request');

    const huge = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 'x'.repeat(4096) }),
    });
    assert.equal(huge.status, 413);
    assert.equal(((await huge.json()) as { error: string }).error, 'payload_too_large');
  });
});

describe('graceful shutdown', () => {
  it('finishes the request in flight and exits 0', async () => {
    const service = startService();
    const base = `http://127.0.0.1:${await portOf(service)}`;
    const inFlight = fetch(`${base}/in-flight`);
    await service.waitForOutput(/"msg":"request waiting"/);
    service.child.kill('SIGTERM');
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { answered: 'after the shutdown began' });
    const { code } = await service.exited;
    assert.equal(code, 0);
    assert.match(service.output(), /"msg":"shutting down"/);
    assert.match(service.output(), /"msg":"stopped"/);
  });

  it('exits 1 when the in-flight work outlasts the grace period', async () => {
    const service = startService({ SVC_GRACE_MS: '300' });
    const base = `http://127.0.0.1:${await portOf(service)}`;
    const inFlight = fetch(`${base}/stuck`).catch((err: unknown) => err);
    await service.waitForOutput(/"msg":"request waiting"/);
    service.child.kill('SIGTERM');
    const { code } = await service.exited;
    assert.equal(code, 1);
    assert.ok((await inFlight) instanceof Error, 'the dropped request fails on the client');
    assert.match(service.output(), /did not finish in the grace period/);
  });

  it('exits 2 with every configuration problem listed', async () => {
    const service = startService({ SVC_LISTEN_ADDR: 'nowhere', SVC_GRACE_MS: '0' });
    const { code } = await service.exited;
    assert.equal(code, 2);
    assert.match(service.output(), /SVC_LISTEN_ADDR: "nowhere" is not an address/);
    assert.match(service.output(), /SVC_GRACE_MS: 0 is below 1/);
  });
});

describe('a shutdown that answers a failure', () => {
  it('exits 1 even when every step stops cleanly', async () => {
    const codes: number[] = [];
    const shutdown = new Shutdown({ logger: silentLogger(), exit: (code) => codes.push(code) });
    shutdown.add('work', () => {});
    assert.equal(await shutdown.run('controllers failed to start', { failed: true }), 1);
    assert.deepEqual(codes, [1]);
  });
});
