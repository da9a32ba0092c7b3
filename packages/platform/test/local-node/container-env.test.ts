import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apiServerEnv,
  containerEnv,
  envSources,
  type ReadSources,
} from '../../src/local-node/container-env.js';
import type { Container, EnvVar } from '../../src/local-node/pod.js';
import { SANDBOX_CONTAINER, sandboxPod } from './fixtures.js';

const NODE = { nodeName: 'paddock-local', podIP: '127.1.0.3', hostIP: '127.0.0.1' };
const PEM = '-----BEGIN PUBLIC KEY-----\nMCow...\n-----END PUBLIC KEY-----\n';
const SOURCES: ReadSources = {
  secrets: new Map([['paddock-sandbox-proof', { 'public-key': PEM }]]),
  configMaps: new Map([['settings', { level: 'debug', template: '$(PADDOCK_POD_NAME)' }]]),
};

const withEnv = (env: EnvVar[]): Container => ({ ...SANDBOX_CONTAINER, env });
const resolve = (env: EnvVar[], sources: ReadSources = SOURCES) =>
  containerEnv(sandboxPod(withEnv(env)), withEnv(env), sources, NODE);

describe('a container’s environment', () => {
  it('is the operator’s env resolved: the pod name, its audience expanded, the proof key', () => {
    assert.deepEqual(containerEnv(sandboxPod(), SANDBOX_CONTAINER, SOURCES, NODE), {
      ok: true,
      env: [
        ['PADDOCK_POD_NAME', 'web-0'],
        ['SVC_API_PROOF_AUDIENCE', 'web-0.web.team.svc'],
        ['SVC_API_PROOF_PUBLIC_KEY', PEM],
      ],
    });
  });

  it('ends with the API server’s variables, which the container’s own may name and override', () => {
    const serviceEnv = apiServerEnv('https://127.0.0.1:6443');
    assert.deepEqual(serviceEnv, [
      ['KUBERNETES_SERVICE_HOST', '127.0.0.1'],
      ['KUBERNETES_SERVICE_PORT', '6443'],
    ]);
    const container = withEnv([
      { name: 'API', value: 'https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)' },
      { name: 'KUBERNETES_SERVICE_PORT', value: '443' },
    ]);
    assert.deepEqual(
      containerEnv(sandboxPod(container), container, SOURCES, { ...NODE, serviceEnv }),
      {
        ok: true,
        env: [
          ['API', 'https://127.0.0.1:6443'],
          ['KUBERNETES_SERVICE_PORT', '443'],
          ['KUBERNETES_SERVICE_HOST', '127.0.0.1'],
        ],
      },
    );
    assert.deepEqual(apiServerEnv('https://[::1]:7443'), [
      ['KUBERNETES_SERVICE_HOST', '::1'],
      ['KUBERNETES_SERVICE_PORT', '7443'],
    ]);
    assert.deepEqual(apiServerEnv('https://localhost')[1], ['KUBERNETES_SERVICE_PORT', '443']);
  });

  it('names the Secrets and ConfigMaps to read, once each', () => {
    const container = withEnv([
      ...(SANDBOX_CONTAINER.env ?? []),
      { name: 'AGAIN', valueFrom: { secretKeyRef: { name: 'paddock-sandbox-proof', key: 'x' } } },
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } },
    ]);
    assert.deepEqual(envSources(container), {
      secrets: ['paddock-sandbox-proof'],
      configMaps: ['settings'],
    });
  });

  const field = (fieldPath: string): EnvVar => ({
    name: 'V',
    valueFrom: { fieldRef: { fieldPath } },
  });
  const fields: [string, string][] = [
    ['metadata.name', 'web-0'],
    ['metadata.namespace', 'team'],
    ['metadata.uid', 'uid-web-0'],
    ['spec.nodeName', 'paddock-local'],
    ['status.podIP', '127.1.0.3'],
    ['status.hostIP', '127.0.0.1'],
    ["metadata.labels['app']", 'web'],
    ["metadata.labels['statefulset.kubernetes.io/pod-name']", 'web-0'],
    ["metadata.annotations['paddock.dev/prompt-pack']", 'prompts@7'],
    ["metadata.labels['missing']", ''],
  ];
  for (const [path, want] of fields) {
    it(`reads the downward API’s ${path}`, () =>
      assert.deepEqual(resolve([field(path)]), { ok: true, env: [['V', want]] }));
  }

  const cases: { name: string; env: EnvVar[]; sources?: ReadSources; want: unknown }[] = [
    {
      name: 'a missing Secret is the kubelet’s error',
      env: SANDBOX_CONTAINER.env ?? [],
      sources: { secrets: new Map([['paddock-sandbox-proof', undefined]]), configMaps: new Map() },
      want: { ok: false, message: 'secret "paddock-sandbox-proof" not found' },
    },
    {
      name: 'a missing key of a Secret is the kubelet’s error',
      env: SANDBOX_CONTAINER.env ?? [],
      sources: { secrets: new Map([['paddock-sandbox-proof', {}]]), configMaps: new Map() },
      want: {
        ok: false,
        message: "couldn't find key public-key in Secret team/paddock-sandbox-proof",
      },
    },
    {
      name: 'an optional Secret or key that is missing leaves the variable out',
      env: [
        { name: 'A', valueFrom: { secretKeyRef: { name: 'gone', key: 'k', optional: true } } },
        {
          name: 'B',
          valueFrom: { secretKeyRef: { name: 'paddock-sandbox-proof', key: 'k', optional: true } },
        },
        { name: 'C', value: 'c' },
      ],
      sources: {
        secrets: new Map([
          ['gone', undefined],
          ['paddock-sandbox-proof', { 'public-key': PEM }],
        ]),
        configMaps: new Map(),
      },
      want: { ok: true, env: [['C', 'c']] },
    },
    {
      name: 'a ConfigMap key is read, its value never expanded',
      env: [
        { name: 'PADDOCK_POD_NAME', value: 'web-0' },
        { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } },
        { name: 'T', valueFrom: { configMapKeyRef: { name: 'settings', key: 'template' } } },
      ],
      want: {
        ok: true,
        env: [
          ['PADDOCK_POD_NAME', 'web-0'],
          ['LEVEL', 'debug'],
          ['T', '$(PADDOCK_POD_NAME)'],
        ],
      },
    },
    {
      name: 'a missing ConfigMap is the kubelet’s error',
      env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k' } } }],
      want: { ok: false, message: 'configmap "absent" not found' },
    },
    {
      name: 'a missing ConfigMap key is the kubelet’s error',
      env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'settings', key: 'k' } } }],
      want: { ok: false, message: "couldn't find key k in ConfigMap team/settings" },
    },
    {
      name: 'an unsupported field is refused',
      env: [field('spec.serviceAccountName')],
      want: { ok: false, message: 'unsupported fieldPath: spec.serviceAccountName' },
    },
    {
      name: 'literal values expand against earlier variables only',
      env: [
        { name: 'A', value: '$(B)-a' },
        { name: 'B', value: 'b' },
        { name: 'C', value: '$(B)-$$(B)-$(A)' },
      ],
      want: {
        ok: true,
        env: [
          ['A', '$(B)-a'],
          ['B', 'b'],
          ['C', 'b-$(B)-$(B)-a'],
        ],
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(resolve(c.env, c.sources), c.want));
  }
});
