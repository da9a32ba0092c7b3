import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../src/contracts.js';
import { quotaStatus } from '../src/controllers/quota-controller.js';
import { evaluatorFor, podConstraintProblem, storageOf } from '../src/quota/evaluators.js';
import { usageUnder } from '../src/quota/namespace-usage.js';
import { quotaRefusal, type QuotaRequest } from '../src/quota/quota-admission.js';
import { resourceListJson } from '../src/quota/resource-list.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function quota(name: string, hard: Record<string, string>, spec: object = {}): KubeObject {
  return { kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard, ...spec } };
}

function pod(name: string, containers: object[], extra: Record<string, unknown> = {}): KubeObject {
  const { status, ...spec } = extra;
  return {
    kind: 'Pod',
    metadata: { name, namespace: 'ns' },
    spec: { containers, ...spec },
    ...(status ? { status } : {}),
  };
}

function container(name: string, requests?: object, limits?: object): object {
  return {
    name,
    image: 'x',
    resources: { ...(requests && { requests }), ...(limits && { limits }) },
  };
}

function object(name: string): KubeObject {
  return { metadata: { name, namespace: 'ns' } };
}

/** The decision, with the namespace holding `stored` objects of the request's resource. */
function refusal(request: QuotaRequest, quotas: KubeObject[], stored: KubeObject[]) {
  return quotaRefusal(request, {
    quotas: () => quotas,
    used: (q, storage) => usageUnder(q, storage, stored, NOW),
    now: () => NOW,
  });
}

describe('quota usage of one object', () => {
  const usage = (storage: string, o: KubeObject) =>
    resourceListJson(evaluatorFor(storage).usage(o, NOW));

  it('counts every object under count/<resource>.<group>, and the classic names', () => {
    assert.deepEqual(usage('configmaps', object('a')), {
      configmaps: '1',
      'count/configmaps': '1',
    });
    assert.deepEqual(usage('agentruntimes.paddock.dev', object('a')), {
      'count/agentruntimes.paddock.dev': '1',
    });
  });

  it('sums containers, takes the larger init container, and defaults requests from limits', () => {
    const p = pod(
      'p',
      [
        container('a', { cpu: '250m', memory: '64Mi' }),
        container('b', undefined, { cpu: '1', memory: '128Mi' }),
      ],
      {
        initContainers: [container('init', { cpu: '2' })],
      },
    );
    assert.deepEqual(usage('pods', p), {
      'count/pods': '1',
      cpu: '2',
      'limits.cpu': '1',
      'limits.memory': '128Mi',
      memory: '192Mi',
      pods: '1',
      'requests.cpu': '2',
      'requests.memory': '192Mi',
    });
  });

  it('charges a finished pod for its count only', () => {
    const done = pod('p', [container('a', { cpu: '1' })], { status: { phase: 'Succeeded' } });
    assert.deepEqual(usage('pods', done), { 'count/pods': '1' });
  });

  it('counts node ports and load balancers of Services', () => {
    const service = {
      metadata: { name: 's', namespace: 'ns' },
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] },
    };
    assert.deepEqual(usage('services', service), {
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '1',
      'services.nodeports': '2',
    });
  });

  it('charges claims for their storage, also per storage class', () => {
    const claim = {
      metadata: { name: 'c', namespace: 'ns' },
      spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } },
    };
    assert.deepEqual(usage('persistentvolumeclaims', claim), {
      'count/persistentvolumeclaims': '1',
      'fast.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'fast.storageclass.storage.k8s.io/requests.storage': '1Gi',
      persistentvolumeclaims: '1',
      'requests.storage': '1Gi',
    });
  });

  it('knows which resource each quota name is about', () => {
    const cases: Array<[string, string | undefined]> = [
      ['pods', 'pods'],
      ['requests.cpu', 'pods'],
      ['limits.memory', 'pods'],
      ['services.nodeports', 'services'],
      ['requests.storage', 'persistentvolumeclaims'],
      ['secrets', 'secrets'],
      ['count/deployments.apps', 'deployments.apps'],
      ['made-up', undefined],
    ];
    for (const [name, storage] of cases) assert.equal(storageOf(name), storage, name);
  });
});

describe('quota admission decisions', () => {
  const create = (storage: string, o: KubeObject): QuotaRequest => ({
    operation: 'CREATE',
    storage,
    object: o,
  });

  it('refuses the object past a count with the real message', () => {
    const q = quota('q', { configmaps: '2' });
    assert.equal(refusal(create('configmaps', object('c')), [q], [object('a')]), undefined);
    assert.equal(
      refusal(create('configmaps', object('c')), [q], [object('a'), object('b')]),
      'exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2',
    );
  });

  it('names every exceeded resource, sorted, and only those', () => {
    const q = quota('compute', { 'requests.cpu': '1', 'limits.cpu': '2', pods: '10' });
    const running = pod('a', [container('a', { cpu: '800m' }, { cpu: '1' })]);
    const next = pod('b', [container('b', { cpu: '500m' }, { cpu: '2' })]);
    assert.equal(
      refusal(create('pods', next), [q], [running]),
      'exceeded quota: compute, requested: limits.cpu=2,requests.cpu=500m, used: limits.cpu=1,requests.cpu=800m, limited: limits.cpu=2,requests.cpu=1',
    );
  });

  it('asks every container for the cpu and memory a quota limits', () => {
    const q = quota('compute', { 'requests.memory': '1Gi', 'limits.cpu': '2' });
    const p = pod('p', [container('app', { memory: '64Mi' }), container('side')]);
    assert.equal(
      refusal(create('pods', p), [q], []),
      'failed quota: compute: must specify limits.cpu for: app,side; requests.memory for: side',
    );
    assert.equal(podConstraintProblem(p, ['pods', 'requests.storage']), undefined);
  });

  it('leaves objects a quota does not limit alone', () => {
    const q = quota('q', { configmaps: '0' });
    assert.equal(refusal(create('secrets', object('s')), [q], []), undefined);
  });

  it('applies scoped quotas to the pods in scope only', () => {
    const q = quota('best-effort', { pods: '0' }, { scopes: ['BestEffort'] });
    assert.match(
      refusal(create('pods', pod('p', [container('a')])), [q], []) ?? '',
      /exceeded quota: best-effort/,
    );
    assert.equal(
      refusal(create('pods', pod('p', [container('a', { cpu: '1' })])), [q], []),
      undefined,
    );
    assert.equal(
      refusal(
        create('configmaps', object('c')),
        [quota('s', { configmaps: '0' }, { scopes: ['BestEffort'] })],
        [],
      ),
      undefined,
    );
  });

  it('charges an update for what it adds only', () => {
    const q = quota('q', { 'services.nodeports': '2' });
    const service = (type: string, ports: number) => ({
      metadata: { name: 's', namespace: 'ns' },
      spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i })) },
    });
    const old = service('NodePort', 2);
    const update = (o: KubeObject): QuotaRequest => ({
      operation: 'UPDATE',
      storage: 'services',
      object: o,
      old,
    });
    assert.equal(refusal(update(service('NodePort', 2)), [q], [old]), undefined);
    assert.equal(
      refusal(update(service('NodePort', 3)), [q], [old]),
      'exceeded quota: q, requested: services.nodeports=1, used: services.nodeports=2, limited: services.nodeports=2',
    );
    // Creates only, for counts: an update of a ConfigMap never counts again.
    const full = quota('full', { configmaps: '1' });
    assert.equal(
      refusal(
        { operation: 'UPDATE', storage: 'configmaps', object: object('a'), old: object('a') },
        [full],
        [object('a')],
      ),
      undefined,
    );
  });
});

describe('quota status', () => {
  it('holds the hard limits and the usage of every name something consumes', () => {
    const q = quota('q', {
      configmaps: '2',
      'requests.cpu': '1000m',
      'count/widgets.example.com': '3',
      'made-up': '1',
    });
    const stored: Record<string, KubeObject[]> = {
      configmaps: [object('a')],
      pods: [
        pod('p', [container('a', { cpu: '250m' })]),
        pod('r', [container('a', { cpu: '0.25' })]),
      ],
    };
    assert.deepEqual(
      quotaStatus(q, (storage) => stored[storage] ?? [], NOW),
      {
        hard: {
          configmaps: '2',
          'count/widgets.example.com': '3',
          'made-up': '1',
          'requests.cpu': '1',
        },
        used: { configmaps: '1', 'count/widgets.example.com': '0', 'requests.cpu': '500m' },
      },
    );
  });
});
