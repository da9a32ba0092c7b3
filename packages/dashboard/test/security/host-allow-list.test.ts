import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { freePort, startDashboard, type RunningDashboard } from '@paddock/testing';
import {
  hostAllowList,
  hostRefusal,
  normalizedHost,
  type HostAllowList,
} from '../../src/http/security.js';

interface RawAnswer {
  status: number;
  body: unknown;
}

/**
 * One request to the dashboard's socket with exactly the Host header given (none when null), as a
 * browser tricked by DNS rebinding sends it: the attacker's name, with the dashboard's port.
 */
function send(
  base: string,
  method: string,
  path: string,
  host: string | null,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const lines = [...(host === null ? [] : ['Host', host]), ...Object.entries(headers).flat()];
    const req = request(`${base}${path}`, { method, headers: lines });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
        resolve({ status: res.statusCode ?? 0, body: json ? (JSON.parse(text) as unknown) : text });
      });
    });
    req.end(method === 'GET' ? undefined : '{}');
  });
}

function assertRefused(answer: RawAnswer, what: string): void {
  assert.equal(answer.status, 421, `${what}: ${JSON.stringify(answer.body)}`);
  const body = answer.body as { error: string; message: string };
  assert.equal(body.error, 'misdirected_request', what);
  assert.match(body.message, /SVC_BASE_URL/, what);
}

describe('anonymous mode without SVC_BASE_URL answers only its own host names', () => {
  let dashboard: RunningDashboard;
  let port: number;
  before(async () => {
    // Listening on port 0: the check must use the port actually bound.
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'anonymous',
      SVC_AUTH_ANONYMOUS_ROLE: 'admin',
    });
    port = Number(new URL(dashboard.base).port);
  });
  after(() => dashboard?.stop());

  it('refuses a rebound name, on reads, writes and pages, before any route runs', async () => {
    const host = `evil.example:${port}`;
    const origin = `http://${host}`;
    assertRefused(await send(dashboard.base, 'GET', '/api/auth/me', host), 'GET /api/auth/me');
    assertRefused(await send(dashboard.base, 'GET', '/api/users', host), 'GET /api/users');
    assertRefused(await send(dashboard.base, 'GET', '/', host), 'GET /');
    assertRefused(await send(dashboard.base, 'GET', '/api/no-such-route', host), 'unknown route');
    for (const path of ['/api/auth/logout', '/api/settings/api-keys']) {
      const answer = await send(dashboard.base, 'POST', path, host, {
        Origin: origin,
        'Content-Type': 'application/json',
      });
      assertRefused(answer, `POST ${path}`);
    }
  });

  it('refuses other names, other ports, odd forms and a missing Host', async () => {
    for (const host of [
      'evil.example',
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1:${port === 1 ? 2 : 1}`,
      `localhost:${port + 1}`,
      `localhost:${port}@evil.example`,
      `evil.example:${port}/`,
      `10.0.0.5:${port}`,
      '',
    ]) {
      assertRefused(await send(dashboard.base, 'GET', '/api/auth/me', host), JSON.stringify(host));
    }
    const none = await send(dashboard.base, 'GET', '/api/auth/me', null);
    assert.ok(none.status === 400 || none.status === 421, `no Host: ${none.status}`);
  });

  it('answers localhost, 127.0.0.1 and [::1] with its port, in any case', async () => {
    for (const host of [
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
    ]) {
      const answer = await send(dashboard.base, 'GET', '/api/auth/me', host);
      assert.equal(answer.status, 200, `${host}: ${JSON.stringify(answer.body)}`);
    }
    const write = await send(dashboard.base, 'POST', '/api/auth/logout', `localhost:${port}`, {
      Origin: `http://localhost:${port}`,
      'Content-Type': 'application/json',
    });
    assert.equal(write.status, 200, JSON.stringify(write.body));
  });

  it('answers the Kubernetes probes whatever the Host (a pod IP)', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const answer = await send(dashboard.base, 'GET', path, '10.244.1.17:3000');
      assert.equal(answer.status, 200, path);
    }
  });
});

describe('a dashboard listening on a named address takes that name too', () => {
  let dashboard: RunningDashboard;
  let port: number;
  before(async () => {
    port = await freePort();
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'anonymous',
      SVC_LISTEN_ADDR: `127.0.0.1:${port}`,
    });
  });
  after(() => dashboard?.stop());

  it('answers its listen address and refuses a rebound name on the same port', async () => {
    assert.equal(
      (await send(dashboard.base, 'GET', '/api/auth/me', `127.0.0.1:${port}`)).status,
      200,
    );
    assertRefused(
      await send(dashboard.base, 'GET', '/api/auth/me', `evil.example:${port}`),
      'evil',
    );
  });
});

describe('with SVC_BASE_URL only its host is answered', () => {
  let dashboard: RunningDashboard;
  before(async () => {
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'anonymous',
      SVC_BASE_URL: 'https://paddock.example.test/',
    });
  });
  after(() => dashboard?.stop());

  it('answers the base URL’s host, with or without its default port, in any case', async () => {
    for (const host of [
      'paddock.example.test',
      'PADDOCK.Example.Test',
      'paddock.example.test:443',
    ]) {
      const answer = await send(dashboard.base, 'GET', '/api/auth/me', host);
      assert.equal(answer.status, 200, `${host}: ${JSON.stringify(answer.body)}`);
    }
  });

  it('refuses every other name, the local ones included', async () => {
    const port = new URL(dashboard.base).port;
    for (const host of [
      'evil.example',
      'paddock.example.test:8443',
      'paddock.example.test.evil.example',
      `127.0.0.1:${port}`,
      `localhost:${port}`,
    ]) {
      assertRefused(await send(dashboard.base, 'GET', '/api/auth/me', host), host);
    }
  });

  it('answers the probes whatever the Host', async () => {
    assert.equal((await send(dashboard.base, 'GET', '/readyz', '10.244.1.17:3000')).status, 200);
  });
});

describe('the Host decision', () => {
  const local = hostAllowList({ baseUrl: undefined, listenHost: '0.0.0.0', port: 3000 });
  const named = hostAllowList({ baseUrl: undefined, listenHost: '192.0.2.7', port: 3000 });
  const v6 = hostAllowList({ baseUrl: undefined, listenHost: 'fd00::7', port: 3000 });
  const based = hostAllowList({
    baseUrl: new URL('https://Paddock.Example.org/app/'),
    listenHost: '0.0.0.0',
    port: 3000,
  });
  const plain = hostAllowList({
    baseUrl: new URL('http://paddock.example.org:8080'),
    listenHost: '0.0.0.0',
    port: 3000,
  });
  const table: Array<[string, HostAllowList, string | undefined, boolean]> = [
    ['every interface', local, 'localhost:3000', true],
    ['every interface', local, '127.0.0.1:3000', true],
    ['every interface', local, '[::1]:3000', true],
    ['every interface', local, '[0:0:0:0:0:0:0:1]:3000', true],
    ['every interface', local, 'LocalHost:3000', true],
    ['every interface', local, 'localhost', false],
    ['every interface', local, 'localhost:80', false],
    ['every interface', local, 'localhost:3001', false],
    ['every interface', local, '0.0.0.0:3000', false],
    ['every interface', local, '192.0.2.7:3000', false],
    ['every interface', local, 'evil.example:3000', false],
    ['every interface', local, 'localhost.:3000', false],
    ['every interface', local, 'localhost:3000/x', false],
    ['every interface', local, 'user@localhost:3000', false],
    ['every interface', local, 'localhost:3000 ', false],
    ['every interface', local, '', false],
    ['every interface', local, undefined, false],
    ['a named address', named, '192.0.2.7:3000', true],
    ['a named address', named, 'localhost:3000', true],
    ['a named address', named, '192.0.2.8:3000', false],
    ['an IPv6 address', v6, '[fd00::7]:3000', true],
    ['an IPv6 address', v6, '[FD00:0::7]:3000', true],
    ['an IPv6 address', v6, 'fd00::7:3000', false],
    ['https SVC_BASE_URL', based, 'paddock.example.org', true],
    ['https SVC_BASE_URL', based, 'paddock.example.org:443', true],
    ['https SVC_BASE_URL', based, 'PADDOCK.EXAMPLE.ORG', true],
    ['https SVC_BASE_URL', based, 'paddock.example.org:80', false],
    ['https SVC_BASE_URL', based, 'localhost:3000', false],
    ['https SVC_BASE_URL', based, 'evil.example', false],
    ['https SVC_BASE_URL', based, 'paddock.example.org.evil.example', false],
    ['http SVC_BASE_URL with a port', plain, 'paddock.example.org:8080', true],
    ['http SVC_BASE_URL with a port', plain, 'paddock.example.org', false],
  ];
  it('keeps every allowed name in the form normalizing leaves as it is (a Host equal to one is taken unparsed)', () => {
    for (const list of [local, named, v6, based, plain]) {
      for (const host of list.hosts) assert.equal(normalizedHost(host, list.scheme), host);
    }
  });
  for (const [setup, list, host, allowed] of table) {
    it(`${allowed ? 'answers' : 'refuses'} ${JSON.stringify(host) ?? 'no Host'} with ${setup}`, () => {
      const refusal = hostRefusal(host, list);
      assert.equal(refusal === undefined, allowed, refusal);
    });
  }
});
