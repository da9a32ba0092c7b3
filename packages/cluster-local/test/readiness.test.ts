import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '@paddock/common';
import { apiHandler } from '../src/server/api-server.js';
import type { ServerDeps } from '../src/server/server-deps.js';

// The health paths read only these two of the server's dependencies.
const pendingStart = new Set<string>();
const deps = { pendingStart, logger: silentLogger() } as unknown as ServerDeps;

describe('readiness', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer(apiHandler(deps)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('fails /readyz, naming each start-up step still running, while /livez and /healthz pass', async () => {
    pendingStart.add('write-kubeconfig');
    const ready = await fetch(`${base}/readyz`);
    assert.equal(ready.status, 500);
    assert.equal(
      await ready.text(),
      '[-]poststarthook/write-kubeconfig failed\nreadyz check failed',
    );
    for (const path of ['/livez', '/healthz']) {
      assert.equal(await (await fetch(`${base}${path}`)).text(), 'ok', path);
    }
    pendingStart.delete('write-kubeconfig');
    const after = await fetch(`${base}/readyz`);
    assert.equal(after.status, 200);
    assert.equal(await after.text(), 'ok');
  });
});
