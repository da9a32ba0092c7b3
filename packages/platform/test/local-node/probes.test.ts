import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import {
  afterProbe,
  httpProbe,
  initialProbeState,
  probeSettings,
  probeUrl,
} from '../../src/local-node/probes.js';
import { SANDBOX_CONTAINER } from './fixtures.js';

describe('a probe’s target', () => {
  const cases: { name: string; get: { path?: string; port: number | string }; want: unknown }[] = [
    {
      name: 'a named port',
      get: { path: '/readyz', port: 'mcp' },
      want: { url: 'http://127.1.0.2:7070/readyz' },
    },
    {
      name: 'a port number',
      get: { path: '/healthz', port: 7071 },
      want: { url: 'http://127.1.0.2:7071/healthz' },
    },
    {
      name: 'a number as text, no path',
      get: { port: '9000' },
      want: { url: 'http://127.1.0.2:9000/' },
    },
    {
      name: 'an unknown port name',
      get: { path: '/', port: 'ssh' },
      want: { error: 'port "ssh" is not a port of the container' },
    },
  ];
  for (const c of cases) {
    it(`is ${c.name}`, () =>
      assert.deepEqual(probeUrl({ httpGet: c.get }, SANDBOX_CONTAINER, '127.1.0.2'), c.want));
  }
});

describe('a probe’s result', () => {
  const settings = probeSettings({ failureThreshold: 3, periodSeconds: 5 });

  it('takes the kubelet’s defaults', () => {
    assert.deepEqual(probeSettings({}), {
      initialDelayMs: 0,
      periodMs: 10_000,
      timeoutMs: 1000,
      failureThreshold: 3,
      successThreshold: 1,
    });
  });

  it('flips to failed after failureThreshold consecutive failures, back after one success', () => {
    const run = (outcomes: boolean[], healthy: boolean) =>
      outcomes.reduce((s, ok) => afterProbe(s, ok, settings), initialProbeState(healthy)).healthy;
    assert.equal(run([true], false), true, 'ready at the first success');
    assert.equal(run([false, false], true), true, 'two failures are not enough');
    assert.equal(run([false, false, false], true), false);
    assert.equal(run([false, false, true, false, false], true), true, 'a success resets the count');
    assert.equal(run([false, false, false, true], true), true);
  });
});

describe('one HTTP probe', () => {
  it('passes on 200 to 399 and names the status or the connection failure otherwise, as the kubelet does', async () => {
    const server = createServer((req, res) => {
      res.writeHead(Number(req.url?.slice(1))).end();
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      assert.deepEqual(await httpProbe(`${base}/200`, 1000), { ok: true });
      assert.deepEqual(await httpProbe(`${base}/302`, 1000), { ok: true });
      assert.deepEqual(await httpProbe(`${base}/404`, 1000), {
        ok: false,
        message: 'HTTP probe failed with statuscode: 404',
      });
    } finally {
      server.close();
      await once(server, 'close');
    }
    const refused = await httpProbe(`${base}/200`, 1000);
    assert.equal(refused.ok, false);
    // Nothing answers any more: the kubelet's `Get "<url>": <cause>`.
    if (!refused.ok) assert.ok(refused.message.startsWith(`Get "${base}/200": `), refused.message);
  });
});
