import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podDnsName, podEndpoint, type EndpointPod } from '@paddock/kube';

const ports = [
  { name: 'mcp', containerPort: 7070 },
  { name: 'api', containerPort: 7071 },
];

describe('a pod’s endpoint', () => {
  const cases: { name: string; pod: EndpointPod; port: string; want: unknown }[] = [
    {
      name: 'the pod IP and the named port’s container port',
      pod: { spec: { containers: [{ ports }] }, status: { podIP: '10.0.3.7' } },
      port: 'api',
      want: { host: '10.0.3.7', port: 7071 },
    },
    {
      name: 'a local pod’s own loopback address',
      pod: { spec: { containers: [{ ports }] }, status: { podIP: '127.1.0.2' } },
      port: 'mcp',
      want: { host: '127.1.0.2', port: 7070 },
    },
    {
      name: 'a port of a later container',
      pod: {
        spec: { containers: [{}, { ports: [{ name: 'web', containerPort: 8080 }] }] },
        status: { podIP: 'fd00::5' },
      },
      port: 'web',
      want: { host: 'fd00::5', port: 8080 },
    },
    {
      name: 'nothing before the pod has an IP',
      pod: { spec: { containers: [{ ports }] }, status: {} },
      port: 'mcp',
      want: undefined,
    },
    {
      name: 'nothing for an empty IP',
      pod: { spec: { containers: [{ ports }] }, status: { podIP: '' } },
      port: 'mcp',
      want: undefined,
    },
    {
      name: 'nothing for a port the pod does not declare',
      pod: { spec: { containers: [{ ports }] }, status: { podIP: '10.0.3.7' } },
      port: 'ssh',
      want: undefined,
    },
    {
      name: 'nothing for a pod without a spec or status',
      pod: {},
      port: 'mcp',
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(`is ${c.name}`, () => assert.deepEqual(podEndpoint(c.pod, c.port), c.want));
  }
});

describe('a pod’s DNS name', () => {
  it('is <hostname>.<subdomain>.<namespace>.svc for a StatefulSet’s pod', () => {
    assert.equal(
      podDnsName({
        metadata: { name: 'agent-0', namespace: 'team' },
        spec: { hostname: 'agent-0', subdomain: 'agent' },
      }),
      'agent-0.agent.team.svc',
    );
  });

  it('falls back to the pod’s name, without a subdomain, in default', () => {
    assert.equal(podDnsName({ metadata: { name: 'solo' } }), 'solo.default.svc');
  });
});
