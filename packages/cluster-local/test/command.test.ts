import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { eventually, start, tempDir, type Started } from '@paddock/testing';
import { parse } from 'yaml';
import { failure, kubeConfig } from './support/cluster.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'paddock-cluster.js');

let folder: Awaited<ReturnType<typeof tempDir>>;

before(async () => {
  folder = await tempDir('paddock-cluster-');
});

after(() => folder.remove());

interface Running {
  process: Started;
  url: string;
  token: string;
}

/** Starts the real command on a free port with a data folder, as a user would. */
async function startCommand(data: string, kubeconfig: string): Promise<Running> {
  const process = start(
    'node',
    [BIN, '--listen', '127.0.0.1:0', '--data', data, '--kubeconfig', kubeconfig],
    {
      env: { ...globalThis.process.env, SVC_LOG_FORMAT: 'json' },
    },
  );
  const [, addr] = await process.waitForOutput(/"addr":"(127\.0\.0\.1:\d+)"/);
  const token = (await readFile(join(data, 'admin-token'), 'utf8')).trim();
  return { process, url: `http://${addr}`, token };
}

describe('paddock-cluster, the command', () => {
  it('exits 2 with the usage on a mistake, and prints help and version', async () => {
    const wrong = start('node', [BIN, '--bogus']);
    const { code } = await wrong.exited;
    assert.equal(code, 2);
    assert.match(wrong.output(), /unknown option --bogus/);
    assert.match(wrong.output(), /Usage: paddock-cluster/);
    const help = start('node', [BIN, '--help']);
    assert.equal((await help.exited).code, 0);
    assert.match(help.output(), /--kubeconfig FILE/);
    const version = start('node', [BIN, '--version']);
    assert.equal((await version.exited).code, 0);
    assert.match(version.output(), /^\d+\.\d+\.\d+\n$/);
  });

  it('writes a kubeconfig for kubectl, readable by its owner only', async () => {
    const data = join(folder.path, 'kubeconfig-data');
    const kubeconfig = join(folder.path, 'admin.kubeconfig');
    const running = await startCommand(data, kubeconfig);
    try {
      assert.equal((await stat(kubeconfig)).mode & 0o777, 0o600);
      const config = parse(await readFile(kubeconfig, 'utf8')) as {
        'current-context': string;
        clusters: Array<{ cluster: { server: string } }>;
        users: Array<{ user: { token: string } }>;
      };
      assert.equal(config['current-context'], 'paddock-local');
      assert.equal(config.clusters[0]!.cluster.server, running.url.replace('http:', 'https:'));
      assert.equal(config.users[0]!.user.token, running.token);
    } finally {
      assert.equal((await running.process.stop('SIGTERM')).code, 0);
    }
  });

  it('keeps everything across a clean restart: objects, versions, tokens and the change log', async () => {
    const data = join(folder.path, 'restart');
    const kubeconfig = join(folder.path, 'restart.kubeconfig');
    let running = await startCommand(data, kubeconfig);
    let core = kubeConfig(running.url, running.token).makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'kept' } } });
    const created = await core.createNamespacedConfigMap({
      namespace: 'kept',
      body: { metadata: { name: 'before' }, data: { a: 'b' } },
    });
    await core.createNamespacedServiceAccount({
      namespace: 'kept',
      body: { metadata: { name: 'bot' } },
    });
    const minted = await core.createNamespacedServiceAccountToken({
      name: 'bot',
      namespace: 'kept',
      body: { spec: { audiences: [] } },
    });
    assert.equal((await running.process.stop('SIGTERM')).code, 0);

    running = await startCommand(data, kubeconfig);
    try {
      core = kubeConfig(running.url, running.token).makeApiClient(CoreV1Api);
      const read = await core.readNamespacedConfigMap({ name: 'before', namespace: 'kept' });
      assert.deepEqual(read.data, { a: 'b' });
      assert.equal(read.metadata?.uid, created.metadata?.uid);
      assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);
      const next = await core.createNamespacedConfigMap({
        namespace: 'kept',
        body: { metadata: { name: 'after' } },
      });
      assert.ok(Number(next.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion));

      const bot = kubeConfig(running.url, minted.status!.token).makeApiClient(CoreV1Api);
      const denied = await failure(bot.listNamespacedSecret({ namespace: 'kept' }));
      assert.equal(denied.code, 403, 'the token still authenticates, and RBAC denies');

      const events: string[] = [];
      const controller = await new Watch(kubeConfig(running.url, running.token)).watch(
        '/api/v1/namespaces/kept/configmaps',
        { resourceVersion: created.metadata!.resourceVersion! },
        (type, object: { metadata: { name: string } }) =>
          events.push(`${type} ${object.metadata.name}`),
        () => undefined,
      );
      await eventually('the change after the restart', () =>
        events.length > 0 ? true : undefined,
      );
      controller.abort();
      assert.deepEqual(events, ['ADDED after']);
    } finally {
      assert.equal((await running.process.stop('SIGTERM')).code, 0);
    }
  });

  it('loses nothing acknowledged when killed', async () => {
    const data = join(folder.path, 'killed');
    const kubeconfig = join(folder.path, 'killed.kubeconfig');
    let running = await startCommand(data, kubeconfig);
    const core = () => kubeConfig(running.url, running.token).makeApiClient(CoreV1Api);
    for (let i = 0; i < 20; i++) {
      await core().createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: `cm-${i}` }, data: { i: String(i) } },
      });
    }
    await core().deleteNamespacedConfigMap({ name: 'cm-0', namespace: 'default' });
    const last = await core().replaceNamespacedConfigMap({
      name: 'cm-19',
      namespace: 'default',
      body: { metadata: { name: 'cm-19' }, data: { i: 'changed' } },
    });
    assert.equal((await running.process.stop('SIGKILL')).signal, 'SIGKILL');

    running = await startCommand(data, kubeconfig);
    try {
      const list = await core().listNamespacedConfigMap({ namespace: 'default' });
      const names = list.items.map((c) => c.metadata!.name!).filter((n) => n.startsWith('cm-'));
      assert.equal(names.length, 19);
      assert.ok(!names.includes('cm-0'));
      const changed = await core().readNamespacedConfigMap({ name: 'cm-19', namespace: 'default' });
      assert.deepEqual(changed.data, { i: 'changed' });
      assert.equal(changed.metadata?.resourceVersion, last.metadata?.resourceVersion);
    } finally {
      await running.process.stop('SIGTERM');
    }
  });
});
