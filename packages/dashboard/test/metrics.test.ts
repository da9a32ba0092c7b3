import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { metricNameProblems, metricsOfExposition } from '@paddock/common';
import { ADMIN_PASSWORD, Client, errorOf, eventuallyOk } from '@paddock/testing';
import { DashboardMetrics, doorStreamKind, METRIC_NAMES } from '../src/http/metrics.js';
import { startInProcess, type InProcessDashboard } from './support/in-process.js';

/** A GET with exactly these headers (fetch sends a Host of its own). */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          text,
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** One sample of a Prometheus text exposition. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition (the text format: `name{label="value",…} value`). */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = value!.replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one series of `name` whose labels include `labels`; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} names ${found.length} series`);
  return found[0]?.value ?? 0;
}

describe('dashboard metrics (builtin mode)', () => {
  let dashboard: InProcessDashboard;
  let admin: Client;
  let scraperKey: string;

  before(async () => {
    dashboard = await startInProcess({ SVC_AUTH_MODE: 'builtin' });
    admin = new Client(dashboard.base);
    const login = await admin.post('/api/auth/builtin/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    assert.equal(login.status, 200);
    const created = await admin.post('/api/settings/api-keys', { name: 'prometheus' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    scraperKey = (created.body as { key: string }).key;
  });
  after(async () => {
    await dashboard?.stop();
  });

  /** Scrapes as Prometheus does: with the key, addressing the pod by its IP (a foreign Host). */
  const scrape = async (): Promise<Sample[]> => {
    const answer = await get(`${dashboard.base}/metrics`, {
      authorization: `Bearer ${scraperKey}`,
      host: '10.1.2.3:3000',
    });
    assert.equal(answer.status, 200);
    assert.match(answer.contentType, /^text\/plain; version=0\.0\.4/);
    return samplesOf(answer.text);
  };

  it('answers /metrics only to an authenticated caller, never with the web page', async () => {
    const anonymous = await new Client(dashboard.base).get('/metrics');
    assert.equal(anonymous.status, 401);
    assert.equal(errorOf(anonymous), 'unauthorized');
    const wrongKey = await new Client(dashboard.base, {
      authorization: 'Bearer svc_sk_not-a-real-key',
    }).get('/metrics');
    assert.equal(wrongKey.status, 401);
    // The Host a scrape sends (the pod's IP) is refused on every other route.
    const elsewhere = await get(`${dashboard.base}/api/auth/config`, { host: '10.1.2.3:3000' });
    assert.equal(elsewhere.status, 421);
  });

  it('serves names that pass the Prometheus naming rules, each under the dashboard prefix', async () => {
    const answer = await fetch(`${dashboard.base}/metrics`, {
      headers: { authorization: `Bearer ${scraperKey}` },
    });
    assert.equal(answer.status, 200);
    const metrics = metricsOfExposition(await answer.text());
    assert.deepEqual(metricNameProblems(metrics), []);
    for (const metric of metrics) assert.match(metric.name, /^paddock_dashboard_/);
    const names = metrics.map((m) => m.name);
    for (const name of Object.values(METRIC_NAMES)) assert.ok(names.includes(name), name);
    assert.ok(names.includes('paddock_dashboard_process_resident_memory_bytes'));
  });

  it('counts requests by route pattern, method and status, never by the raw path', async () => {
    const unconfigured = await admin.get('/api/workspaces/a-secret-name');
    assert.equal(unconfigured.status, 503, 'no cluster is configured');
    assert.equal((await admin.get('/no-such-page')).status, 404);
    // Counted once the answer is written, which the client may see first.
    await eventuallyOk('the requests counted', async () => {
      const samples = await scrape();
      const byPattern = { method: 'GET', route: '/api/workspaces/:name', status: '503' };
      assert.equal(valueOf(samples, METRIC_NAMES.requests, byPattern), 1);
      const unknown = { method: 'GET', route: '/*', status: '404' };
      assert.equal(valueOf(samples, METRIC_NAMES.requests, unknown), 1);
      const durations = { method: 'GET', route: '/api/workspaces/:name' };
      assert.equal(valueOf(samples, `${METRIC_NAMES.duration}_count`, durations), 1);
      const labels = samples.flatMap((s) => Object.values(s.labels));
      assert.ok(!labels.some((l) => l.includes('a-secret-name') || l.includes('no-such-page')));
      return true;
    });
  });

  it('counts sign-ins by mode and result and API key verifications by result', async () => {
    const counts = (samples: Sample[]) => ({
      builtinSuccess: valueOf(samples, METRIC_NAMES.signIns, {
        mode: 'builtin',
        result: 'success',
      }),
      builtinFailure: valueOf(samples, METRIC_NAMES.signIns, {
        mode: 'builtin',
        result: 'failure',
      }),
      apiKeyFailure: valueOf(samples, METRIC_NAMES.signIns, { mode: 'api-key', result: 'failure' }),
      validKeys: valueOf(samples, METRIC_NAMES.apiKeyVerifications, { result: 'valid' }),
      invalidKeys: valueOf(samples, METRIC_NAMES.apiKeyVerifications, { result: 'invalid' }),
    });
    const before = counts(await scrape());
    const browser = new Client(dashboard.base);
    const login = (password: string) =>
      browser.post('/api/auth/builtin/login', { username: 'admin', password });
    assert.equal(errorOf(await login('not the password')), 'invalid_credentials');
    assert.equal((await login(ADMIN_PASSWORD)).status, 200);
    const stranger = new Client(dashboard.base, { 'x-api-key': 'svc_sk_never-issued' });
    assert.equal((await stranger.get('/api/auth/me')).status, 401);
    // Counted once the answers are written, which the client may see first.
    await eventuallyOk('the sign-ins counted', async () => {
      const after = counts(await scrape());
      assert.deepEqual(
        {
          builtinSuccess: after.builtinSuccess - before.builtinSuccess,
          builtinFailure: after.builtinFailure - before.builtinFailure,
          apiKeyFailure: after.apiKeyFailure - before.apiKeyFailure,
          invalidKeys: after.invalidKeys - before.invalidKeys,
          // The scrapes' own key: this one and the one before.
          validKeys: after.validKeys - before.validKeys,
        },
        { builtinSuccess: 1, builtinFailure: 1, apiKeyFailure: 1, invalidKeys: 1, validKeys: 2 },
      );
      return true;
    });
  });
});

describe('dashboard metrics (anonymous mode)', () => {
  let dashboard: InProcessDashboard;
  before(async () => {
    dashboard = await startInProcess({ SVC_AUTH_MODE: 'anonymous' });
  });
  after(async () => {
    await dashboard?.stop();
  });

  it('lets the anonymous user read them, as every role may ("View metrics")', async () => {
    const answer = await fetch(`${dashboard.base}/metrics`);
    assert.equal(answer.status, 200);
    assert.match(await answer.text(), /^# TYPE paddock_dashboard_http_requests_total counter$/m);
  });

  it('counts the door’s requests while open and the bytes they moved, by kind', async () => {
    const agent = `${dashboard.base}/api/workspaces/team/agents/coder`;
    // Without a cluster the door refuses at once: each request opens and closes.
    const tree = await fetch(`${agent}/pods/coder-0/sandbox/api/tree`);
    const events = await fetch(`${agent}/pods/coder-0/sandbox/api/events`, {
      headers: { accept: 'text/event-stream' },
    });
    const mcp = await fetch(`${agent}/mcp`, { method: 'POST', body: '{}' });
    for (const answer of [tree, events, mcp]) assert.ok(answer.status >= 400, answer.url);
    await eventuallyOk('the door requests counted', async () => {
      const samples = samplesOf(await (await fetch(`${dashboard.base}/metrics`)).text());
      for (const kind of ['http', 'sse', 'mcp']) {
        assert.equal(valueOf(samples, METRIC_NAMES.doorStreams, { kind }), 0, kind);
        const out = valueOf(samples, METRIC_NAMES.doorBytes, { kind, direction: 'out' });
        assert.ok(out > 0, `${kind}: ${out} bytes out`);
      }
      return true;
    });
  });
});

describe('door stream metrics', () => {
  const kinds: Array<[Parameters<typeof doorStreamKind>, string]> = [
    [['mcp', { accept: 'text/event-stream' }], 'mcp'],
    [['sandbox', { upgrade: 'websocket' }], 'websocket'],
    [['sandbox', { accept: 'text/event-stream' }], 'sse'],
    [['sandbox', { accept: 'application/json' }], 'http'],
    [['sandbox', {}], 'http'],
  ];
  for (const [args, kind] of kinds) {
    it(`calls a ${args[0]} request with ${JSON.stringify(args[1])} ${kind}`, () => {
      assert.equal(doorStreamKind(...args), kind);
    });
  }

  it('counts a stream open until it closes, then the bytes it moved each way', async () => {
    const metrics = new DashboardMetrics({ processMetrics: false });
    const closeSse = metrics.doorStreamOpened('sse');
    const closeTerminal = metrics.doorStreamOpened('websocket');
    let samples = samplesOf((await metrics.exposition()).body);
    assert.equal(valueOf(samples, METRIC_NAMES.doorStreams, { kind: 'sse' }), 1);
    assert.equal(valueOf(samples, METRIC_NAMES.doorStreams, { kind: 'websocket' }), 1);
    closeSse(120, 4096);
    samples = samplesOf((await metrics.exposition()).body);
    assert.equal(valueOf(samples, METRIC_NAMES.doorStreams, { kind: 'sse' }), 0);
    assert.equal(valueOf(samples, METRIC_NAMES.doorStreams, { kind: 'websocket' }), 1);
    const bytes = (direction: string) =>
      valueOf(samples, METRIC_NAMES.doorBytes, { kind: 'sse', direction });
    assert.equal(bytes('in'), 120);
    assert.equal(bytes('out'), 4096);
    closeTerminal(0, 0);
  });
});
