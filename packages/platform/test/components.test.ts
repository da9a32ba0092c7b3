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
      assert.deepEqual(await names(), ['cluster', 'operator', 'node', 'sandbox', 'dashboard']);
      // A real cluster runs its own operator, nodes and agents.
      assert.deepEqual(await names('/etc/kubeconfig'), ['dashboard']);
    } finally {
      await dir.remove();
    }
  });

  it('gives the node, the sample agent’s door and the dashboard the embedded cluster, else the dashboard the one named', async () => {
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
      const node = embedded.find((c) => c.name === 'node')!;
      assert.deepEqual(node.args.slice(1, 6), [
        'node',
        '--data',
        dir.path,
        '--kubeconfig',
        kubeconfig,
      ]);
      assert.match(
        argAfter(node.args, '--seed') ?? '',
        /^paddock-sample\/workspace-sample-agent-0=.+examples\/sample-workspace$/,
      );
      const door = embedded.find((c) => c.name === 'sandbox')!;
      assert.deepEqual(door.args.slice(1), [
        'door',
        '--kubeconfig',
        kubeconfig,
        '--listen',
        '127.0.0.1:7070',
        '--pod',
        'paddock-sample/sample-agent-0',
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

  it('opens the sample agent’s door without a token on loopback only', async () => {
    const dir = await tempDir();
    try {
      const door = async (host: string) => {
        const components = await localComponents({
          dataDir: dir.path,
          host,
          sandboxPort: 7070,
          dashboardPort: 3000,
          clusterPort: 6443,
        });
        return components.find((c) => c.name === 'sandbox')!;
      };
      const local = await door('127.0.0.1');
      assert.equal(local.env?.['PADDOCK_DOOR_TOKEN'], undefined);
      assert.ok(local.banner?.some((line) => line.includes('human API (as dev)')));
      const exposed = await door('0.0.0.0');
      const token = exposed.env?.['PADDOCK_DOOR_TOKEN'];
      assert.ok(token !== undefined && token.length >= 40, 'off loopback the door wants a token');
      assert.ok(!exposed.args.join(' ').includes(token), 'kept off the command line');
      assert.ok(exposed.banner?.some((line) => line.includes(`Bearer ${token}`)));
    } finally {
      await dir.remove();
    }
  });
});
