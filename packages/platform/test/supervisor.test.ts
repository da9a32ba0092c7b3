import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Supervisor, type ComponentSpec } from '@paddock/platform';
import { freePort } from '@paddock/testing';

const fixture = join(import.meta.dirname, 'fixtures', 'component.mjs');

function output() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

async function component(name: string, env: Record<string, string> = {}): Promise<ComponentSpec> {
  const port = await freePort();
  return {
    name,
    command: process.execPath,
    args: [fixture],
    env: { PORT: String(port), ...env },
    readyUrl: `http://127.0.0.1:${port}/readyz`,
  };
}

describe('the supervisor', () => {
  it('starts components in order once each is ready, prefixes their output, and stops them all', async () => {
    const out = output();
    const specs = [await component('cluster'), await component('dashboard')];
    const supervisor = new Supervisor(specs, { out: out.stream });
    await supervisor.start();
    for (const spec of specs) {
      const res = await fetch(spec.readyUrl!);
      assert.equal(res.status, 200);
    }
    await supervisor.stop();
    const lines = out.text().split('\n');
    assert.ok(lines.includes('cluster   | a line on stderr'), out.text());
    assert.ok(
      lines.some((l) => /^dashboard \| \{"msg":"listening"/.test(l)),
      out.text(),
    );
    // stopped in reverse order of start
    const stopOrder = lines
      .filter((l) => l.endsWith('stopping on SIGTERM'))
      .map((l) => l.split(' ')[0]);
    assert.deepEqual(stopOrder, ['dashboard', 'cluster']);
    for (const spec of specs) {
      await assert.rejects(fetch(spec.readyUrl!), 'nothing listens after stop');
    }
  });

  it('kills a component that ignores SIGTERM once the stop timeout passes', async () => {
    const out = output();
    const spec = await component('stubborn', { IGNORE_TERM: '1' });
    const supervisor = new Supervisor([spec], { out: out.stream, stopTimeoutMs: 300 });
    await supervisor.start();
    const started = Date.now();
    await supervisor.stop();
    assert.ok(Date.now() - started >= 300);
    assert.match(out.text(), /stubborn did not stop in 300 ms; killing it/);
    await assert.rejects(fetch(spec.readyUrl!));
  });

  it('gives up on a component that keeps crashing and reports it', async () => {
    const out = output();
    const spec: ComponentSpec = { ...(await component('crasher', { EXIT_AT_START: '3' })) };
    delete spec.readyUrl;
    const supervisor = new Supervisor([spec], { out: out.stream });
    await supervisor.start();
    const reason = await supervisor.failed;
    await supervisor.stop();
    assert.equal(reason, 'crasher keeps exiting (last exit code 3)');
    assert.match(out.text(), /crasher exited with 3; restarting in 500 ms/);
    assert.match(out.text(), /crasher exited with 3; restarting in 4000 ms/);
    assert.equal(out.text().match(/failing on purpose/g)?.length, 5);
  });
});
