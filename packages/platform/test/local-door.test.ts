import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORE_KINDS, type Kube, type KubeObject } from '@paddock/kube';
import { PROOF_SIGNING_KEY } from '@paddock/operator';
import { createProofKeys } from '@paddock/common';
import {
  eventually,
  freePort,
  start,
  startEmbeddedCluster,
  tempDir,
  type EmbeddedCluster,
  type Started,
} from '@paddock/testing';
import WebSocket from 'ws';
import { LocalDoor } from '../src/local-door.js';
import { binOf } from '../src/package-bins.js';

const NAMESPACE = 'team';
const POD_IP = '127.1.250.7';
const SIGNING = { namespace: 'paddock-system', name: 'proof' };

describe('the local door to an agent pod', () => {
  let cluster: EmbeddedCluster;
  let kube: Kube;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: Started;
  let door: LocalDoor;
  let doorPort: number;
  let sandboxPort: number;

  const url = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;

  before(async () => {
    cluster = await startEmbeddedCluster();
    kube = cluster.kube;
    dir = await tempDir('paddock-door-');
    await writeFile(join(dir.path, 'hello.txt'), 'hello\n');
    const keys = createProofKeys();
    const namespaces = kube.resource<KubeObject>(CORE_KINDS.namespace);
    for (const name of [NAMESPACE, SIGNING.namespace]) {
      await namespaces.create({ metadata: { name } });
    }
    await kube.resource<KubeObject>(CORE_KINDS.secret).create({
      metadata: { name: SIGNING.name, namespace: SIGNING.namespace },
      stringData: {
        [PROOF_SIGNING_KEY]: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    } as KubeObject);
    // The pod as the node leaves it: a sandbox on its own loopback address, proofs for its DNS name.
    sandboxPort = await freePort(2);
    sandbox = start(
      process.execPath,
      [
        binOf('@paddock/sandbox', 'paddock-sandbox'),
        '-addr',
        `${POD_IP}:${sandboxPort}`,
        '-api-addr',
        `${POD_IP}:${sandboxPort + 1}`,
        '-enable-api',
        '-enable-exec',
        '-workspace',
        dir.path,
      ],
      {
        env: {
          PATH: process.env.PATH,
          SVC_API_PROOF_PUBLIC_KEY: keys.publicKeyPem,
          SVC_API_PROOF_AUDIENCE: `agent-0.agent.${NAMESPACE}.svc`,
        },
      },
    );
    doorPort = await freePort(2);
    door = new LocalDoor({
      kube,
      namespace: NAMESPACE,
      pod: 'agent-0',
      listen: { host: '127.0.0.1', port: doorPort },
      signingSecret: SIGNING,
    });
    await door.start();
  });

  after(async () => {
    await door?.stop();
    await sandbox?.stop();
    await cluster?.stop();
    await dir?.remove();
  });

  it('answers 503 while the pod does not exist or has no address', async () => {
    const answer = await fetch(url(doorPort, '/readyz'));
    assert.equal(answer.status, 503);
    const body = (await answer.json()) as { error: string; message: string };
    assert.equal(body.error, 'unavailable');
    assert.match(body.message, /team\/agent-0 is not running yet/);
  });

  it('leads to the pod once it runs, and proves the local identity to its human API', async () => {
    const pods = kube.resource<KubeObject>(CORE_KINDS.pod);
    await pods.create({
      metadata: { name: 'agent-0', namespace: NAMESPACE },
      spec: {
        hostname: 'agent-0',
        subdomain: 'agent',
        containers: [
          {
            name: 'sandbox',
            image: 'paddock-sandbox:latest',
            ports: [
              { name: 'mcp', containerPort: sandboxPort },
              { name: 'api', containerPort: sandboxPort + 1 },
            ],
          },
        ],
      },
    } as KubeObject);
    await pods.patch(
      'agent-0',
      { status: { podIP: POD_IP } },
      { namespace: NAMESPACE, subresource: 'status' },
    );
    await eventually(
      'the MCP door leads to the pod',
      async () =>
        (await fetch(url(doorPort, '/readyz')).catch(() => undefined))?.ok ? true : undefined,
      20_000,
      100,
    );
    // Straight to the pod, the human API wants a proof; through the door it has one.
    const direct = await fetch(`http://${POD_IP}:${sandboxPort + 1}/api/tree`);
    assert.equal(direct.status, 401);
    const tree = await fetch(url(doorPort + 1, '/api/tree'));
    assert.equal(tree.status, 200, await tree.clone().text());
    assert.match(await tree.text(), /hello\.txt/);
    // A forged proof from the caller is not passed on: the door's own replaces it.
    const forged = await fetch(url(doorPort + 1, '/api/file?path=hello.txt'), {
      headers: { 'x-paddock-proof': 'forged' },
    });
    assert.equal(forged.status, 200);
    assert.equal(await forged.text(), 'hello\n');
  });

  it('carries WebSocket upgrades (the terminal) with the proof', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${doorPort + 1}/api/exec`);
    const [, response] = await Promise.race([
      once(socket, 'open').then(() => [undefined, undefined] as const),
      once(socket, 'unexpected-response'),
    ]);
    assert.equal(response, undefined, 'the upgrade was accepted');
    socket.close();
    await once(socket, 'close');
  });

  it('wants its bearer token when one is set (off loopback), and keeps it from the pod', async () => {
    const port = await freePort(2);
    const guarded = new LocalDoor({
      kube,
      namespace: NAMESPACE,
      pod: 'agent-0',
      listen: { host: '127.0.0.1', port },
      signingSecret: SIGNING,
      token: 'door-token',
    });
    await guarded.start();
    try {
      const without = await fetch(url(port, '/readyz'));
      assert.equal(without.status, 401);
      const wrong = await fetch(url(port + 1, '/api/tree'), {
        headers: { authorization: 'Bearer nope' },
      });
      assert.equal(wrong.status, 401);
      const right = await fetch(url(port + 1, '/api/tree'), {
        headers: { authorization: 'Bearer door-token' },
      });
      assert.equal(right.status, 200);
    } finally {
      await guarded.stop();
    }
  });
});
