import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { EndpointRewrite } from '../src/door/mcp-sse.js';
import {
  endpointThroughDoor,
  ordinalOf,
  parseStickySessionId,
  stickySessionId,
} from '../src/door/mcp-session-id.js';
import {
  isAgentPod,
  NO_PROVIDER,
  podTarget,
  readyPods,
  runsAvailability,
  type DoorPod,
} from '../src/door/pod-target.js';
import { runsUpstreamPath } from '../src/door/runs-routes.js';
import {
  hardenSandboxResponse,
  headersForSandbox,
  sandboxIdentity,
} from '../src/door/sandbox-identity.js';
import { sandboxRoute } from '../src/door/sandbox-paths.js';
import { pathBelow } from '../src/door/door-routes.js';

describe('which sandbox routes the door opens, for which action', () => {
  const cases: Array<[string, string, ReturnType<typeof sandboxRoute>]> = [
    ['GET', 'api/tree', { ok: true, action: 'viewFiles' }],
    ['HEAD', 'api/file', { ok: true, action: 'viewFiles' }],
    ['GET', 'api/events', { ok: true, action: 'viewFiles' }],
    ['GET', 'api/download', { ok: true, action: 'viewFiles' }],
    ['GET', 'api/openapi.yaml', { ok: true, action: 'viewFiles' }],
    ['GET', 'api/exec', { ok: true, action: 'useTerminal' }],
    ['GET', 'api/port-forward', { ok: true, action: 'useTerminal' }],
    ['GET', 'api/ssh-port', { ok: true, action: 'useTerminal' }],
    ['POST', 'api/ssh-authorized-keys', { ok: true, action: 'useTerminal' }],
    ['GET', 'api/ssh-authorized-keys', { ok: true, action: 'useTerminal' }],
    ['DELETE', 'api/ssh-authorized-keys/abc', { ok: true, action: 'useTerminal' }],
    ['DELETE', 'api/tree', { ok: false, status: 405, allowed: ['GET', 'HEAD'] }],
    ['POST', 'api/exec', { ok: false, status: 405, allowed: ['GET'] }],
    ['GET', 'api/docs', { ok: false, status: 404, allowed: [] }],
    ['GET', 'api/docs/assets/x.js', { ok: false, status: 404, allowed: [] }],
    ['GET', 'healthz', { ok: false, status: 404, allowed: [] }],
    ['GET', 'api/tree/../exec', { ok: false, status: 404, allowed: [] }],
    ['GET', 'api%2Ftree', { ok: false, status: 404, allowed: [] }],
    ['DELETE', 'api/ssh-authorized-keys/a/b', { ok: false, status: 404, allowed: [] }],
  ];
  for (const [method, path, want] of cases) {
    it(`${method} ${path}`, () => assert.deepEqual(sandboxRoute(method, path), want));
  }

  it('takes the path below the door prefix as sent, and its query apart', () => {
    assert.deepEqual(
      pathBelow('/api/workspaces/w/agents/a/pods/a-0/sandbox/api/file?path=/x/y', 8),
      {
        path: 'api/file',
        query: '?path=/x/y',
      },
    );
    assert.deepEqual(
      pathBelow('/api/workspaces/w/agents/sandbox/pods/sandbox-0/sandbox/api/tree', 8),
      {
        path: 'api/tree',
        query: '',
      },
    );
  });
});

describe('sticky MCP sessions', () => {
  it('round-trips an ordinal and the sandbox id', () => {
    const id = stickySessionId(3, '6f1c-uuid');
    assert.equal(id, '3.6f1c-uuid');
    assert.deepEqual(parseStickySessionId(id), { ordinal: 3, upstream: '6f1c-uuid' });
  });
  for (const bad of [
    '',
    'nodot',
    '.x',
    'a.b',
    '1.',
    '1.has space',
    `1.${'x'.repeat(300)}`,
    '123456.x',
  ]) {
    it(`refuses the session id ${JSON.stringify(bad.slice(0, 20))}`, () =>
      assert.equal(parseStickySessionId(bad), undefined));
  }
  it('reads the ordinal of StatefulSet pod names only', () => {
    assert.equal(ordinalOf('coder', 'coder-0'), 0);
    assert.equal(ordinalOf('coder', 'coder-12'), 12);
    assert.equal(ordinalOf('coder', 'coder-01'), undefined);
    assert.equal(ordinalOf('coder', 'coder-x'), undefined);
    assert.equal(ordinalOf('coder', 'other-0'), undefined);
  });
  it('leads the SSE endpoint back through the dashboard, relative to /sse', () => {
    assert.equal(endpointThroughDoor('/message?sessionId=abc', 2), 'message?sessionId=2.abc');
    assert.equal(endpointThroughDoor('/elsewhere?sessionId=abc', 2), undefined);
    assert.equal(endpointThroughDoor('/message', 2), undefined);
  });
  it('rewrites the first endpoint event of a stream split anywhere, and nothing after it', async () => {
    const stream =
      'event: endpoint\ndata: /message?sessionId=s1\n\nevent: message\ndata: {"é":"/message?sessionId=zz"}\n\n';
    const bytes = Buffer.from(stream, 'utf8');
    for (const cut of [1, 7, 20, 40, 44, 60, bytes.length - 1]) {
      const out: Buffer[] = [];
      const rewrite = Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(
        new EndpointRewrite(4),
      );
      for await (const chunk of rewrite) out.push(chunk as Buffer);
      assert.equal(
        Buffer.concat(out).toString('utf8'),
        'event: endpoint\ndata: message?sessionId=4.s1\n\nevent: message\ndata: {"é":"/message?sessionId=zz"}\n\n',
        `cut at ${cut}`,
      );
    }
  });
});

describe('what the sandbox is told, and what it may answer', () => {
  it('replaces every credential and identity claim of the client with the user and the proof', () => {
    const headers: Record<string, string | string[] | undefined> = {
      authorization: 'Bearer key',
      cookie: 'svc_session=x',
      'x-api-key': 'k',
      'x-forwarded-sub': 'admin',
      'x-forwarded-user': 'admin',
      'x-forwarded-groups': 'admins',
      'x-forwarded-for': '10.0.0.1',
      'x-paddock-proof': 'forged',
      'x-remote-user': 'admin',
      forwarded: 'for=1.2.3.4',
      accept: 'text/event-stream',
      'last-event-id': '42',
    };
    const identity = sandboxIdentity({ username: 'eddie', groups: ['devs', 'a,b', 'ops'] });
    headersForSandbox(headers, identity, 'signed', ['X-Remote-User']);
    assert.deepEqual(headers, {
      accept: 'text/event-stream',
      'last-event-id': '42',
      'x-forwarded-sub': 'eddie',
      'x-forwarded-user': 'eddie',
      'x-forwarded-groups': 'devs,ops',
      'x-paddock-proof': 'signed',
    });
  });
  it('percent-encodes names a header cannot carry, the same in header and proof', () => {
    assert.deepEqual(sandboxIdentity({ username: 'zoë', groups: ['équipe'] }), {
      sub: 'zo%C3%AB',
      user: 'zo%C3%AB',
      groups: ['%C3%A9quipe'],
    });
  });
  it('keeps cookies and scripts of a pod off the dashboard origin', () => {
    const headers: Record<string, string | string[] | undefined> = {
      'content-type': 'text/html',
      'set-cookie': ['svc_session=stolen'],
      'content-security-policy': 'default-src *',
      'access-control-allow-origin': '*',
      etag: 'W/"1"',
    };
    hardenSandboxResponse(headers);
    assert.deepEqual(headers, {
      'content-type': 'text/html',
      etag: 'W/"1"',
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
      'x-frame-options': 'DENY',
    });
  });
});

describe('which pod the door leads to', () => {
  const pod = (
    overrides: Partial<DoorPod['metadata']> = {},
    ready = true,
    ip = '10.1.2.3',
  ): DoorPod => ({
    metadata: {
      name: 'coder-1',
      namespace: 'ns-w',
      labels: { 'paddock.dev/agent': 'coder' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'coder', uid: 'u', controller: true },
      ],
      ...overrides,
    },
    // A look-alike may claim another pod's DNS name: the audience never comes from here.
    spec: {
      hostname: 'coder-0',
      subdomain: 'coder',
      containers: [
        { ports: [{ name: 'api', containerPort: 7071 }] },
        { ports: [{ name: 'runs', containerPort: 7072 }] },
      ],
    },
    status: {
      podIP: ip,
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  });

  it('leads to a Ready pod of the agent, its proofs addressed by its name', () => {
    assert.deepEqual(podTarget(pod(), 'coder', 'coder-1', 'api'), {
      ok: true,
      endpoint: { host: '10.1.2.3', port: 7071 },
      audience: 'coder-1.coder.ns-w.svc',
    });
  });
  it('does not know pods that are not the agent StatefulSet’s', () => {
    for (const other of [
      pod({ labels: { 'paddock.dev/agent': 'other' } }),
      pod({ name: 'coder-x' }),
      pod({ ownerReferences: [] }),
      pod({
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'other', uid: 'u', controller: true },
        ],
      }),
      pod({
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'coder', uid: 'u', controller: true },
        ],
      }),
    ]) {
      assert.equal(isAgentPod(other, 'coder'), false);
      assert.equal(podTarget(other, 'coder', 'coder-1', 'api').ok, false);
    }
    assert.deepEqual(podTarget(undefined, 'coder', 'coder-9', 'api'), {
      ok: false,
      code: 'not_found',
      message: 'agent "coder" has no pod "coder-9"',
    });
  });
  it('is unavailable while the pod is not Ready, stopping, or without an address', () => {
    for (const waiting of [
      pod({}, false),
      pod({ deletionTimestamp: '2026-01-01T00:00:00Z' }),
      pod({}, true, ''),
    ]) {
      const target = podTarget(waiting, 'coder', 'coder-1', 'api');
      assert.equal(target.ok ? 'ok' : target.code, 'unavailable');
    }
  });
  it('sends new MCP sessions only to Ready replicas, in ordinal order', () => {
    const names = readyPods(
      [
        pod({ name: 'coder-10' }),
        pod({ name: 'coder-2' }),
        pod({ name: 'coder-3' }, false),
        pod({ name: 'coder-x' }),
      ],
      'coder',
    ).map((p) => p.metadata.name);
    assert.deepEqual(names, ['coder-2', 'coder-10']);
  });
  it("leads to the agent container's runs port, the proof addressed to the same pod", () => {
    assert.deepEqual(podTarget(pod(), 'coder', 'coder-1', 'runs'), {
      ok: true,
      endpoint: { host: '10.1.2.3', port: 7072 },
      audience: 'coder-1.coder.ns-w.svc',
    });
    const sandboxOnly = pod();
    sandboxOnly.spec!.containers = [{ ports: [{ name: 'api', containerPort: 7071 }] }];
    const target = podTarget(sandboxOnly, 'coder', 'coder-1', 'runs');
    assert.equal(target.ok ? 'ok' : target.code, 'unavailable');
    assert.match(target.ok ? '' : target.message, /pod "coder-1" has no runs API yet/);
  });
});

describe("the door's runs routes", () => {
  it('run only for an agent that names a model provider', () => {
    assert.deepEqual(runsAvailability({ spec: { promptPackRef: { name: 'p' } } }, 'coder'), {
      ok: false,
      code: 'conflict',
      message: 'this agent names no model provider: set spec.provider to run tasks',
    });
    assert.equal(NO_PROVIDER, 'this agent names no model provider: set spec.provider to run tasks');
    assert.deepEqual(runsAvailability(undefined, 'coder'), {
      ok: false,
      code: 'not_found',
      message: 'no agent "coder" in this workspace',
    });
    assert.deepEqual(
      runsAvailability(
        { spec: { promptPackRef: { name: 'p' }, provider: { type: 'openai' } } },
        'coder',
      ),
      { ok: true },
    );
  });
  const cases: Array<[string | undefined, '' | 'events' | 'cancel', string, string]> = [
    [undefined, '', '/api/workspaces/w/agents/a/pods/a-0/runs', '/api/runs'],
    [undefined, '', '/api/workspaces/w/agents/a/pods/a-0/runs?x=1', '/api/runs?x=1'],
    ['0d9c…', '', '/x', '/api/runs/0d9c%E2%80%A6'],
    ['r', 'events', '/x/events?after=3', '/api/runs/r/events?after=3'],
    ['r', 'cancel', '/x/cancel', '/api/runs/r/cancel'],
  ];
  for (const [runId, tail, url, want] of cases) {
    it(`passes ${url} on to ${want}`, () => assert.equal(runsUpstreamPath(runId, tail, url), want));
  }
});
