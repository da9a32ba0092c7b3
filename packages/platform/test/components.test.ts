import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import { isLoopback, localComponents } from '../src/components.js';

describe('the local platform’s components', () => {
  it('tells loopback hosts from the others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) assert.ok(isLoopback(host));
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      assert.ok(!isLoopback(host), host);
    }
  });

  it('runs the embedded cluster only when no kubeconfig names another', async () => {
    const dir = await tempDir();
    try {
      const names = async (kubeconfig?: string) =>
        (
          await localComponents({
            dataDir: dir.path,
            host: '127.0.0.1',
            sandboxPort: 7070,
            dashboardPort: 3000,
            clusterPort: 6443,
            kubeconfig,
          })
        ).map((c) => c.name);
      assert.deepEqual(await names(), ['cluster', 'operator', 'agents', 'sandbox', 'dashboard']);
      assert.deepEqual(await names('/etc/kubeconfig'), ['sandbox', 'dashboard']);
    } finally {
      await dir.remove();
    }
  });

  it('gives the local agents and the dashboard the embedded cluster, else the dashboard the one named', async () => {
    const dir = await tempDir();
    try {
      const components = async (kubeconfig?: string) =>
        localComponents({
          dataDir: dir.path,
          host: '127.0.0.1',
          sandboxPort: 7070,
          dashboardPort: 3000,
          clusterPort: 6443,
          kubeconfig,
        });
      const argAfter = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1];
      const embedded = await components();
      const kubeconfig = join(dir.path, 'cluster', 'kubeconfig');
      const dashboard = embedded.find((c) => c.name === 'dashboard')!;
      assert.equal(argAfter(dashboard.args, '--kubeconfig'), kubeconfig);
      const agents = embedded.find((c) => c.name === 'agents')!;
      assert.deepEqual(agents.args.slice(1), [
        'agents',
        '--data',
        dir.path,
        '--kubeconfig',
        kubeconfig,
      ]);
      const named = await components('/etc/kubeconfig');
      assert.equal(
        argAfter(named.find((c) => c.name === 'dashboard')!.args, '--kubeconfig'),
        '/etc/kubeconfig',
      );
    } finally {
      await dir.remove();
    }
  });

  it('runs the sandbox’s human API in dev mode on loopback only', async () => {
    const dir = await tempDir();
    try {
      const args = async (host: string) => {
        const components = await localComponents({
          dataDir: dir.path,
          host,
          sandboxPort: 7070,
          dashboardPort: 3000,
          clusterPort: 6443,
        });
        return components.find((c) => c.name === 'sandbox')!.args;
      };
      assert.ok((await args('127.0.0.1')).includes('-dev-mode'));
      const exposed = await args('0.0.0.0');
      assert.ok(!exposed.includes('-dev-mode'), 'off loopback identity headers are required');
      assert.deepEqual(exposed.slice(exposed.indexOf('-addr'), exposed.indexOf('-addr') + 2), [
        '-addr',
        '0.0.0.0:7070',
      ]);
    } finally {
      await dir.remove();
    }
  });
});
