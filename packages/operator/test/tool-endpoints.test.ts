import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveEndpoint, selectServices, type ServiceObject } from '../src/toolregistry/index.js';

const service = (
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
  extra: Partial<ServiceObject['spec']> = {},
): ServiceObject => ({
  metadata: { name, namespace: 'team', labels, annotations },
  spec: { clusterIP: '10.0.0.7', ports: [{ port: 8080 }], ...extra },
});

describe('tool handler endpoints', () => {
  it('resolves url, serviceRef and a referenced Service', () => {
    const cases: [Parameters<typeof resolveEndpoint>, ReturnType<typeof resolveEndpoint>][] = [
      [
        [{ url: 'http://tools:9000/run' }, { namespace: 'team' }],
        { ok: true, url: 'http://tools:9000/run' },
      ],
      [
        [{ serviceRef: { name: 'calc', port: 80 } }, { namespace: 'team' }],
        { ok: true, url: 'http://calc.team.svc:80' },
      ],
      [
        [{ serviceRef: { name: 'calc', namespace: 'team', port: 81 } }, { namespace: 'team' }],
        { ok: true, url: 'http://calc.team.svc:81' },
      ],
      [
        [
          { serviceRef: { name: 'calc', port: 80 } },
          { namespace: 'team', service: service('calc', {}) },
        ],
        { ok: true, url: 'http://10.0.0.7:80' },
      ],
      [
        [
          { serviceRef: { name: 'calc', port: 80 } },
          { namespace: 'team', service: service('calc', {}, {}, { clusterIP: 'None' }) },
        ],
        { ok: true, url: 'http://calc.team.svc:80' },
      ],
      [
        [
          { serviceRef: { name: 'calc', namespace: 'shared', port: 80 } },
          { namespace: 'team', allowCrossNamespace: true },
        ],
        { ok: true, url: 'http://calc.shared.svc:80' },
      ],
    ];
    for (const [args, expected] of cases) assert.deepEqual(resolveEndpoint(...args), expected);
  });

  it('refuses a serviceRef into another namespace unless allowed, saying why', () => {
    const result = resolveEndpoint(
      { serviceRef: { name: 'calc', namespace: 'other', port: 80 } },
      { namespace: 'team' },
    );
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.refused);
    assert.match(
      !result.ok ? result.reason : '',
      /other\/calc .*another namespace.*team.*not allowed/,
    );
  });

  it('reports a handler without url or serviceRef', () => {
    assert.deepEqual(resolveEndpoint(undefined, { namespace: 'team' }), {
      ok: false,
      refused: false,
      reason: 'no endpoint url or serviceRef',
    });
  });

  it('selects Services labelled as tools with the extra labels, using their annotations', () => {
    const services: ServiceObject[] = [
      service('zeta', { 'paddock.dev/tool': 'true', tier: 'gold' }),
      service(
        'alpha',
        { 'paddock.dev/tool': 'true', tier: 'gold' },
        {
          'paddock.dev/tool-path': 'run',
          'paddock.dev/tool-description': 'Runs things',
          'paddock.dev/tool-type': 'mcp',
        },
      ),
      service('silver', { 'paddock.dev/tool': 'true', tier: 'silver' }),
      service('plain', { tier: 'gold' }),
      service('off', { 'paddock.dev/tool': 'false', tier: 'gold' }),
      {
        ...service('elsewhere', { 'paddock.dev/tool': 'true', tier: 'gold' }),
        metadata: {
          name: 'elsewhere',
          namespace: 'other',
          labels: { 'paddock.dev/tool': 'true', tier: 'gold' },
        },
      },
    ];
    assert.deepEqual(selectServices(services, 'team', { tier: 'gold' }), [
      {
        serviceName: 'alpha',
        description: 'Runs things',
        path: '/run',
        type: 'mcp',
        url: 'http://10.0.0.7:8080/run',
      },
      {
        serviceName: 'zeta',
        description: 'zeta',
        path: '/',
        type: 'http',
        url: 'http://10.0.0.7:8080/',
      },
    ]);
    assert.deepEqual(
      selectServices(services, 'team').map((s) => s.serviceName),
      ['alpha', 'silver', 'zeta'],
    );
  });

  it('falls back to the Service DNS name, port 80 and type http', () => {
    const bare: ServiceObject = {
      metadata: {
        name: 'bare',
        labels: { 'paddock.dev/tool': 'true' },
        annotations: { 'paddock.dev/tool-type': 'carrier-pigeon' },
      },
    };
    assert.deepEqual(selectServices([bare], 'team'), [
      {
        serviceName: 'bare',
        description: 'bare',
        path: '/',
        type: 'http',
        url: 'http://bare.team.svc:80/',
      },
    ]);
  });
});
