import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Volume } from '../../src/local-node/pod.js';
import {
  formatMap,
  projectedFiles,
  projectionReads,
  serviceAccountOf,
  tokenRefreshDelayMs,
  type ProjectionInputs,
} from '../../src/local-node/projected-files.js';
import { sandboxPod } from './fixtures.js';

const NODE = { nodeName: 'paddock-local', podIP: '127.1.0.3', hostIP: '127.0.0.1' };
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n';

/** The volume the operator gives an agent's pod (as kube-controller-manager's admission would). */
const KUBE_API_ACCESS: Volume = {
  name: 'kube-api-access',
  projected: {
    sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
  },
};

const inputs = (fields: Partial<ProjectionInputs> = {}): ProjectionInputs => ({
  configMaps: new Map([['kube-root-ca.crt', { 'ca.crt': Buffer.from(PEM) }]]),
  secrets: new Map(),
  tokens: ['eyJ.token'],
  ...fields,
});

const text = (files: { path: string; content: Buffer }[]) =>
  Object.fromEntries(files.map((f) => [f.path, f.content.toString()]));

describe('a projected volume’s files', () => {
  it('are the token, the CA and the namespace of the API access volume', () => {
    const result = projectedFiles(sandboxPod(), KUBE_API_ACCESS, inputs(), NODE);
    assert.ok(result.ok);
    assert.deepEqual(text(result.files), { token: 'eyJ.token', 'ca.crt': PEM, namespace: 'team' });
  });

  it('name what to read: objects by name, tokens with their audience and lifetime', () => {
    const volume: Volume = {
      name: 'v',
      projected: {
        sources: [
          { serviceAccountToken: { path: 'a', audience: 'vault', expirationSeconds: 60 } },
          { serviceAccountToken: { path: 'b' } },
          { secret: { name: 's' } },
          { configMap: { name: 'c' } },
        ],
      },
    };
    assert.deepEqual(projectionReads(volume), {
      configMaps: ['c'],
      secrets: ['s'],
      tokens: [{ audience: 'vault', expirationSeconds: 600 }, { expirationSeconds: 3600 }],
    });
  });

  it('take every key without items, skip a missing optional object, and serve the downward API', () => {
    const pod: Pod = sandboxPod();
    const volume: Volume = {
      name: 'v',
      projected: {
        sources: [
          { secret: { name: 'creds' } },
          { configMap: { name: 'absent', optional: true } },
          {
            downwardAPI: {
              items: [
                { path: 'meta/name', fieldRef: { fieldPath: 'metadata.name' } },
                { path: 'meta/uid', fieldRef: { fieldPath: 'metadata.uid' } },
                { path: 'meta/labels', fieldRef: { fieldPath: 'metadata.labels' } },
                { path: 'meta/annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
              ],
            },
          },
        ],
      },
    };
    const result = projectedFiles(
      pod,
      volume,
      inputs({
        secrets: new Map([['creds', { user: Buffer.from('u'), pass: Buffer.from('p') }]]),
        configMaps: new Map([['absent', undefined]]),
      }),
      NODE,
    );
    assert.ok(result.ok);
    assert.deepEqual(text(result.files), {
      user: 'u',
      pass: 'p',
      'meta/name': 'web-0',
      'meta/uid': 'uid-web-0',
      'meta/labels': 'app="web"\nstatefulset.kubernetes.io/pod-name="web-0"',
      'meta/annotations': 'paddock.dev/prompt-pack="prompts@7"',
    });
  });

  const refusals: [string, Volume, ProjectionInputs, RegExp][] = [
    [
      'a missing ConfigMap',
      KUBE_API_ACCESS,
      inputs({ configMaps: new Map() }),
      /^configmap "kube-root-ca.crt" not found$/,
    ],
    [
      'a missing key',
      KUBE_API_ACCESS,
      inputs({ configMaps: new Map([['kube-root-ca.crt', {}]]) }),
      /key ca.crt of configmap "kube-root-ca.crt", which does not exist/,
    ],
    [
      'a path out of the volume',
      { name: 'v', projected: { sources: [{ serviceAccountToken: { path: '../token' } }] } },
      inputs(),
      /invalid path \.\.\/token/,
    ],
    [
      'a field not served',
      {
        name: 'v',
        projected: {
          sources: [
            { downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'spec.nope' } }] } },
          ],
        },
      },
      inputs(),
      /unsupported fieldPath: spec.nope/,
    ],
  ];
  for (const [name, volume, given, message] of refusals) {
    it(`refuse ${name}`, () => {
      const result = projectedFiles(sandboxPod(), volume, given, NODE);
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, message);
    });
  }

  it('format maps as the kubelet does: sorted, values quoted', () => {
    assert.equal(formatMap({ b: 'two "2"', a: 'one' }), 'a="one"\nb="two \\"2\\""');
    assert.equal(formatMap(undefined), '');
  });

  it('are for the pod’s ServiceAccount, `default` without one', () => {
    const pod = sandboxPod();
    assert.equal(serviceAccountOf(pod), 'default');
    pod.spec.serviceAccountName = 'web-agent';
    assert.equal(serviceAccountOf(pod), 'web-agent');
  });

  it('renew a token at 80% of its lifetime, a day at most', () => {
    assert.equal(tokenRefreshDelayMs(3600), 2880_000);
    assert.equal(tokenRefreshDelayMs(600), 480_000);
    assert.equal(tokenRefreshDelayMs(7 * 24 * 3600), 24 * 3600_000);
  });
});
