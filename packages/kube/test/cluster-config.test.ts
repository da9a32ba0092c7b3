import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Cluster, User } from '@kubernetes/client-node';
import { tempDir } from '@paddock/testing';
import { ClusterConfig, needsLibrary } from '../src/client/cluster-config.js';
import { loadKubeConfig } from '../src/client/kube-config.js';

const SERVER = 'https://api.example:6443';
const cluster = (extra: Partial<Cluster> = {}): Cluster => ({
  name: 'c',
  server: SERVER,
  skipTLSVerify: false,
  ...extra,
});
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  dir = await tempDir('paddock-cluster-config-');
});
after(async () => {
  await dir.remove();
});

describe('a cluster configuration', () => {
  it('reads a kubeconfig file as the library does: current context, paths relative to the file', async () => {
    const folder = join(dir.path, 'conf');
    await mkdir(folder);
    await writeFile(join(folder, 'ca.crt'), 'the CA');
    await writeFile(join(folder, 'client.crt'), 'the certificate');
    await writeFile(join(folder, 'client.key'), 'the key');
    const file = join(folder, 'kubeconfig');
    await writeFile(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: second',
        'clusters:',
        '- name: one',
        '  cluster: { server: "https://one.example/" }',
        '- name: two',
        '  cluster:',
        '    server: https://two.example:6443/',
        '    certificate-authority: ca.crt',
        '    tls-server-name: kubernetes',
        'users:',
        '- name: admin',
        '  user: { token: t0 }',
        '- name: cert',
        '  user:',
        '    client-certificate: client.crt',
        '    client-key: client.key',
        '    as: someone',
        'contexts:',
        '- name: first',
        '  context: { cluster: one, user: admin }',
        '- name: second',
        '  context: { cluster: two, user: cert, namespace: ns }',
      ].join('\n'),
    );
    const config = ClusterConfig.fromFile(file);
    assert.equal(config.getCurrentCluster()?.server, 'https://two.example:6443');
    assert.equal(config.getCurrentCluster()?.caFile, join(folder, 'ca.crt'));
    assert.equal(config.getCurrentUser()?.name, 'cert');
    assert.equal(config.getCurrentContextObject()?.namespace, 'ns');
    const connection = await config.connection();
    assert.equal(connection.server, 'https://two.example:6443');
    assert.deepEqual(connection.headers, { 'Impersonate-User': 'someone' });
    assert.equal(connection.tls.ca?.toString(), 'the CA');
    assert.equal(connection.tls.cert?.toString(), 'the certificate');
    assert.equal(connection.tls.key?.toString(), 'the key');
    assert.equal(connection.tls.servername, 'kubernetes');
    assert.equal(connection.tls.rejectUnauthorized, undefined, 'Node verifies by default');
  });

  it('authenticates as the current user says', async () => {
    const tokenFile = join(dir.path, 'token');
    await writeFile(tokenFile, 'from-the-file');
    const cases: { name: string; user: User; authorization: string | undefined }[] = [
      { name: 'nobody', user: { name: 'u' }, authorization: undefined },
      { name: 'a token', user: { name: 'u', token: 't1' }, authorization: 'Bearer t1' },
      {
        name: 'a token file (a pod’s ServiceAccount)',
        user: { name: 'u', authProvider: { name: 'tokenFile', config: { tokenFile } } },
        authorization: 'Bearer from-the-file',
      },
      {
        name: 'a name and password',
        user: { name: 'u', username: 'ann', password: 'pw' },
        authorization: basic('ann:pw'),
      },
    ];
    for (const { name, user, authorization } of cases) {
      const connection = await ClusterConfig.fromClusterAndUser(cluster(), user).connection();
      assert.equal(connection.headers['Authorization'], authorization, name);
      assert.equal(connection.agent, undefined, `${name}: no library agent`);
    }
  });

  it('keeps TLS verification unless the kubeconfig gives it up, and plain HTTP only then', async () => {
    const insecure = await ClusterConfig.fromClusterAndUser(
      cluster({ skipTLSVerify: true, caData: Buffer.from('pem').toString('base64') }),
      { name: 'u' },
    ).connection();
    assert.equal(insecure.tls.rejectUnauthorized, false);
    assert.equal(insecure.tls.ca?.toString(), 'pem');
    await assert.rejects(
      ClusterConfig.fromClusterAndUser(cluster({ server: 'http://127.0.0.1:8080' }), {
        name: 'u',
      }).connection(),
      /HTTP protocol is not allowed/,
    );
    const plain = await ClusterConfig.fromClusterAndUser(
      cluster({ server: 'http://127.0.0.1:8080', skipTLSVerify: true }),
      { name: 'u', token: 't' },
    ).connection();
    assert.equal(plain.headers['Authorization'], 'Bearer t');
  });

  it('leaves proxies, exec plugins and auth-providers other than a token file to the library', () => {
    const cases: { name: string; cluster: Cluster; user: User | null; library: boolean }[] = [
      { name: 'a token', cluster: cluster(), user: { name: 'u', token: 't' }, library: false },
      { name: 'no user', cluster: cluster(), user: null, library: false },
      {
        name: 'a token file',
        cluster: cluster(),
        user: { name: 'u', authProvider: { name: 'tokenFile', config: { tokenFile: '/t' } } },
        library: false,
      },
      {
        name: 'a proxy',
        cluster: cluster({ proxyUrl: 'http://proxy:3128' }),
        user: { name: 'u', token: 't' },
        library: true,
      },
      {
        name: 'an exec plugin',
        cluster: cluster(),
        user: { name: 'u', exec: { command: 'aws' } },
        library: true,
      },
      {
        name: 'oidc',
        cluster: cluster(),
        user: { name: 'u', authProvider: { name: 'oidc', config: {} } },
        library: true,
      },
      {
        name: 'gcp, even with a token file',
        cluster: cluster(),
        user: { name: 'u', authProvider: { name: 'gcp', config: { tokenFile: '/t' } } },
        library: true,
      },
      {
        name: 'an exec in an auth-provider',
        cluster: cluster(),
        user: { name: 'u', authProvider: { name: 'x', config: { tokenFile: '/t', exec: {} } } },
        library: true,
      },
    ];
    for (const c of cases) assert.equal(needsLibrary(c.cluster, c.user), c.library, c.name);
  });

  it('connects through the library’s exec plugin support', async () => {
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: 'from-exec' },
    });
    const config = ClusterConfig.fromClusterAndUser(cluster(), {
      name: 'u',
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: process.execPath,
        args: ['-e', `process.stdout.write(${JSON.stringify(credential)})`],
      },
    });
    const connection = await config.connection();
    assert.equal(connection.headers['Authorization'], 'Bearer from-exec');
    assert.ok(connection.agent, 'the library’s agent, pooled by its options');
    connection.agent.destroy();
  });

  it('finds a pod’s ServiceAccount from KUBERNETES_SERVICE_HOST and _PORT', async () => {
    const sa = join(dir.path, 'serviceaccount');
    await mkdir(sa);
    await writeFile(join(sa, 'token'), 'pod-token');
    await writeFile(join(sa, 'ca.crt'), 'cluster CA');
    const cases = [
      { host: '10.0.0.1', port: '443', server: 'https://10.0.0.1:443' },
      { host: 'fd00::1', port: '6443', server: 'https://[fd00::1]:6443' },
    ];
    for (const { host, port, server } of cases) {
      const config = loadKubeConfig(
        { serviceAccountDir: sa },
        { KUBERNETES_SERVICE_HOST: host, KUBERNETES_SERVICE_PORT: port },
      );
      const connection = await config.connection();
      assert.equal(connection.server, server);
      assert.equal(connection.headers['Authorization'], 'Bearer pod-token');
      assert.equal(connection.tls.ca?.toString(), 'cluster CA');
    }
  });
});
