import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PROOF_HEADER } from '@paddock/common';
import { CORE_KINDS, KINDS, podEndpoint, type KubeObject } from '@paddock/kube';
import {
  Client,
  errorOf,
  INSPECTOR_CLI,
  eventually,
  MCP_INITIALIZE,
  startAgentPlatform,
  tempDir,
  type AgentPlatform,
  type PlatformPod,
} from '@paddock/testing';
import WebSocket from 'ws';

/**
 * The dashboard as the door into agent workspaces, end to end: the embedded cluster, the operator,
 * the local node running real agent pods, the compiled dashboard in proxy mode (users are the
 * trusted proxy's headers), and clients that are the ones people use.
 */

const run = promisify(execFile);
const WS = 'door';
const OTHER = 'elsewhere';
const AGENT = 'coder';
const POD = `${AGENT}-0`;

let platform: AgentPlatform;
let base: string;

/** A proxy-mode user: what the authenticating proxy in front of the dashboard says. */
const user = (name: string, groups: string[]) =>
  new Client(platform.dashboard.base, {
    'x-forwarded-user': name,
    'x-forwarded-groups': groups.join(','),
  });
const viewer = () => user('vic', ['readers']);
const editor = () => user('eddie', ['devs']);
const owner = () => user('olga', ['devs', 'leads']);
/** A dashboard-wide viewer who owns the workspace: the dashboard role still bounds what they do. */
const viewingOwner = () => user('otto', ['leads']);
const stranger = () => user('mallory', ['strangers']);

const sandbox = (ws: string, agent: string, pod: string, path: string) =>
  `/api/workspaces/${ws}/agents/${agent}/pods/${pod}/sandbox/${path}`;
const door = (path: string) => sandbox(WS, AGENT, POD, path);
const mcpUrl = (ws = WS, agent = AGENT) => `${base}/api/workspaces/${ws}/agents/${agent}/mcp`;

/** An MCP SDK client through the dashboard, as an IDE would connect with a header credential. */
async function mcpThroughDoor(headers: Record<string, string>): Promise<McpClient> {
  const client = new McpClient({ name: 'door-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl()), { requestInit: { headers } }),
  );
  return client;
}

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

/** A WebSocket through the door as the user, open or refused with the status. */
function socket(path: string, headers: Record<string, string>) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}${path}`, { headers });
  const opened = new Promise<WebSocket>((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, opened };
}

const identityHeaders = (name: string, groups: string[]) => ({
  'x-forwarded-user': name,
  'x-forwarded-groups': groups.join(','),
});

/**
 * Runs `use` with a port-forward through the door, as an editor, to a TCP server on a loopback
 * port (the local node's pods share this machine's network) serving each connection with `serve`.
 */
async function withPortForward(
  serve: (conn: Socket) => void,
  use: (ws: WebSocket, port: number) => Promise<void>,
): Promise<void> {
  const server = createServer(serve);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    const { ws, opened } = socket(
      door(`api/port-forward?port=${port}`),
      identityHeaders('eddie', ['devs']),
    );
    await opened;
    await use(ws, port);
  } finally {
    server.close();
  }
}

describe('the dashboard, door into agent workspaces', () => {
  before(async () => {
    platform = await startAgentPlatform();
    base = platform.dashboard.base;
    await platform.workspace(WS, {
      roleBindings: [
        { groups: ['readers'], role: 'viewer' },
        { groups: ['devs'], role: 'editor' },
        { groups: ['leads'], role: 'owner' },
      ],
    });
    await platform.workspace(OTHER, { roleBindings: [{ groups: ['strangers'], role: 'owner' }] });
    await platform.agent(WS, AGENT, { sandbox: { exec: true, portForward: true, ssh: true } });
    await platform.agent(OTHER, 'hidden');
    await eventually('the door open', async () =>
      (await editor().get(door('api/tree'))).status === 200 ? true : undefined,
    );
  });

  after(async () => {
    await platform?.stop();
  });

  it('shows through the door a file an MCP client wrote a moment before: tree and file', async () => {
    const client = await mcpThroughDoor(identityHeaders('eddie', ['devs']));
    try {
      const wrote = await client.callTool({
        name: 'Write',
        arguments: { file_path: 'notes/hello.md', content: '# Hello\nfrom the agent\n' },
      });
      assert.ok(!wrote.isError, text(wrote));
    } finally {
      await client.close();
    }
    const tree = await viewer().get(door('api/tree?path=notes'));
    assert.equal(tree.status, 200, JSON.stringify(tree.body));
    assert.match(JSON.stringify(tree.body), /hello\.md/);
    const file = await viewer().get(door('api/file?path=notes/hello.md'));
    assert.equal(file.status, 200);
    assert.equal(file.body, '# Hello\nfrom the agent\n');
    assert.equal(file.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    const part = await viewer().get(door('api/file?path=notes/hello.md'), { range: 'bytes=2-6' });
    assert.equal(part.status, 206);
    assert.equal(part.body, 'Hello');
  });
  it('streams the live changes and resumes them with Last-Event-ID', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}${door('api/events')}`, {
      headers: identityHeaders('vic', ['readers']),
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let seen = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(seen)) {
        const { value, done } = await reader.read();
        if (done) assert.fail(`the stream ended before ${pattern}: ${seen}`);
        seen += Buffer.from(value).toString('utf8');
      }
    };
    await until(/: ?|\n/);
    const folder = platform.workspaceFolder(WS, POD);
    await writeFile(join(folder, 'live-1.txt'), 'one');
    await until(/live-1\.txt/);
    const ids = [...seen.matchAll(/^id: ?(\S+)$/gm)].map((m) => m[1]!);
    const lastId = ids.at(-1);
    assert.ok(lastId, `the event has an id: ${seen}`);
    controller.abort();
    await writeFile(join(folder, 'live-2.txt'), 'two');
    const again = await fetch(`${base}${door('api/events')}`, {
      headers: { ...identityHeaders('vic', ['readers']), 'last-event-id': lastId },
    });
    const resumed = again.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let more = '';
    while (!/live-2\.txt/.test(more)) {
      const { value, done } = await resumed.read();
      if (done) assert.fail(`the resumed stream ended: ${more}`);
      more += Buffer.from(value).toString('utf8');
    }
    assert.doesNotMatch(more, /live-1\.txt/, 'no change is seen twice');
    await resumed.cancel();
  });

  it('downloads the workspace as a zip that unzip -t finds whole', async () => {
    const response = await fetch(`${base}${door('api/download')}`, {
      headers: identityHeaders('vic', ['readers']),
    });
    assert.equal(response.status, 200);
    const dir = await tempDir('paddock-door-zip-');
    try {
      const zip = join(dir.path, 'workspace.zip');
      await writeFile(zip, Buffer.from(await response.arrayBuffer()));
      const { stdout } = await run('unzip', ['-t', zip]);
      assert.match(stdout, /No errors detected/);
      assert.match(stdout, /notes\/hello\.md/);
    } finally {
      await dir.remove();
    }
  });

  it('opens a terminal: a command, its output, a resize, its exit code; the audit names the user', async () => {
    const { ws, opened } = socket(door('api/exec?cols=80&rows=24'), {
      ...identityHeaders('eddie', ['devs']),
      // A client's own claims never reach the pod.
      'x-forwarded-sub': 'admin',
      [PROOF_HEADER]: 'forged',
    });
    await opened;
    let output = '';
    let exit: { code: number } | undefined;
    ws.on('message', (data, binary) => {
      if (binary) output += Buffer.from(data as Buffer).toString('utf8');
      else exit = JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as { code: number };
    });
    ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    ws.send(Buffer.from('stty size; echo door-$((6*7))\n'));
    await eventually('the output', () => (/door-42/.test(output) ? true : undefined));
    assert.match(output, /40 120/);
    ws.send(Buffer.from('exit 7\n'));
    await once(ws, 'close');
    assert.equal(exit?.code, 7);
    await eventually('the audit line', async () => {
      const log = await platform.kube.podLogs(`ns-${WS}`, POD, { container: 'sandbox' });
      return /api exec sub=eddie .*exit=7/.test(log) ? log : undefined;
    });
  });

  it('tunnels a port-forward to a port in the pod', async () => {
    await withPortForward(
      (conn) => conn.pipe(conn),
      async (ws) => {
        let back = '';
        ws.on('message', (data, binary) => {
          if (binary) back += Buffer.from(data as Buffer).toString('utf8');
        });
        ws.send(Buffer.from('ping through the door'));
        await eventually('the echo', () => (back === 'ping through the door' ? true : undefined));
        ws.close();
      },
    );
  });

  it('answers each route by role: viewers read, editors also enter, others find nothing', async () => {
    const reads = ['api/tree', 'api/file?path=notes/hello.md', 'api/download', 'api/openapi.yaml'];
    const entries = ['api/ssh-authorized-keys', 'api/ssh-port'];
    for (const path of reads) {
      assert.equal((await viewer().get(door(path))).status, 200, `viewer ${path}`);
      assert.equal((await editor().get(door(path))).status, 200, `editor ${path}`);
      assert.equal((await owner().get(door(path))).status, 200, `owner ${path}`);
      assert.equal(errorOf(await stranger().get(door(path))), 'not_found', `stranger ${path}`);
    }
    for (const path of entries) {
      const refused = await viewer().get(door(path));
      assert.equal(refused.status, 403, `viewer ${path}`);
      assert.equal(errorOf(refused), 'forbidden');
      assert.equal((await editor().get(door(path))).status, 200, `editor ${path}`);
      assert.equal((await owner().get(door(path))).status, 200, `owner ${path}`);
      assert.equal((await viewingOwner().get(door(path))).status, 403, `viewing owner ${path}`);
      assert.equal(errorOf(await stranger().get(door(path))), 'not_found', `stranger ${path}`);
    }
    const key =
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl door@test';
    assert.equal(
      (await viewer().post(door('api/ssh-authorized-keys'), { publicKey: key })).status,
      403,
    );
    const added = await editor().post(door('api/ssh-authorized-keys'), { publicKey: key });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const { id } = added.body as { id: string };
    assert.equal(
      (await viewer().request('DELETE', door(`api/ssh-authorized-keys/${id}`))).status,
      403,
    );
    assert.equal(
      (await editor().request('DELETE', door(`api/ssh-authorized-keys/${id}`))).status,
      204,
    );
    for (const path of ['api/exec', 'api/port-forward?port=22']) {
      const refused = socket(door(path), identityHeaders('vic', ['readers']));
      await assert.rejects(refused.opened, /status 403/, `viewer ${path}`);
      const hidden = socket(door(path), identityHeaders('mallory', ['strangers']));
      await assert.rejects(hidden.opened, /status 404/, `stranger ${path}`);
    }
    // Paths the door does not open, whatever the role.
    assert.equal(errorOf(await editor().get(door('api/docs'))), 'not_found');
    assert.equal(errorOf(await editor().get(door('healthz'))), 'not_found');
    assert.equal((await editor().request('DELETE', door('api/tree'))).status, 405);
  });

  it('answers 404 for a pod of another workspace or another agent, and for a workspace not yours', async () => {
    const other = sandbox(WS, 'hidden', 'hidden-0', 'api/tree');
    assert.equal(errorOf(await editor().get(other)), 'not_found');
    const elsewhere = sandbox(OTHER, 'hidden', 'hidden-0', 'api/tree');
    assert.equal(errorOf(await editor().get(elsewhere)), 'not_found');
    assert.equal((await stranger().get(elsewhere)).status, 200);
    const wrongAgent = sandbox(OTHER, AGENT, 'hidden-0', 'api/tree');
    assert.equal(errorOf(await stranger().get(wrongAgent)), 'not_found');
  });

  it('is the only way in: the pod refuses a request without the dashboard proof (401)', async () => {
    const pod = await platform.kube.resource<PlatformPod>(CORE_KINDS.pod).get(POD, `ns-${WS}`);
    const endpoint = podEndpoint(pod, 'api');
    assert.ok(endpoint);
    const direct = await fetch(`http://${endpoint.host}:${endpoint.port}/api/tree`, {
      headers: { 'x-forwarded-sub': 'eddie' },
    });
    assert.equal(direct.status, 401);
  });

  it('answers 503 with a sentence for a pod that is not Ready', async () => {
    // An agent whose image the local node cannot run: its pod exists and never becomes Ready.
    await platform.kube.resource<KubeObject>(KINDS.find((k) => k.kind === 'AgentRuntime')!).create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'AgentRuntime',
      metadata: { name: 'waiting', namespace: `ns-${WS}` },
      spec: { promptPackRef: { name: 'prompts' }, model: 'test-model', image: 'nginx:1.27' },
    } as KubeObject);
    await eventually('the pod of the waiting agent', async () => {
      const pods = await platform.kube
        .resource<PlatformPod>(CORE_KINDS.pod)
        .list({ namespace: `ns-${WS}`, labelSelector: 'paddock.dev/agent=waiting' });
      return pods.items.length === 1 ? true : undefined;
    });
    const answer = await editor().get(sandbox(WS, 'waiting', 'waiting-0', 'api/tree'));
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(errorOf(answer), 'unavailable');
    assert.match((answer.body as { message: string }).message, /not ready/);
  });

  it('serves MCP to the SDK client with an API key; 401 without one, 403 for a viewer', async () => {
    const created = await editor().post('/api/settings/api-keys', { name: 'ide' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = (created.body as { key: string }).key;
    const client = await mcpThroughDoor({ 'x-api-key': key });
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'Read'));
      const read = await client.callTool({
        name: 'Read',
        arguments: { file_path: 'notes/hello.md' },
      });
      assert.match(text(read), /from the agent/);
    } finally {
      await client.close();
    }
    const anonymous = await fetch(mcpUrl(), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(MCP_INITIALIZE),
    });
    assert.equal(anonymous.status, 401);
    const asViewer = await viewer().request('POST', mcpUrl().slice(base.length), {
      json: MCP_INITIALIZE,
      headers: { accept: 'application/json, text/event-stream', origin: '' },
    });
    assert.equal(asViewer.status, 403);
    assert.equal(errorOf(asViewer), 'forbidden');
  });

  it('serves MCP to the MCP Inspector CLI with an API key', async () => {
    const created = await editor().post('/api/settings/api-keys', { name: 'inspector' });
    const key = (created.body as { key: string }).key;
    const { stdout } = await run(
      process.execPath,
      [
        INSPECTOR_CLI,
        '--cli',
        mcpUrl(),
        '--transport',
        'http',
        '--method',
        'tools/list',
        '--header',
        `X-API-Key: ${key}`,
      ],
      { timeout: 60_000 },
    );
    assert.match(stdout, /"name": "Read"/);
  });
  it('ends the pod side when a client vanishes, and the client side when the pod goes', async () => {
    // A tunnel whose client disappears without a close: the pod's session ends and says so.
    await withPortForward(
      (conn) => conn.resume(),
      async (ws, port) => {
        ws.send(Buffer.alloc(1000));
        ws.terminate();
        await eventually(
          'the port-forward closed in the pod',
          async () => {
            const log = await platform.kube.podLogs(`ns-${WS}`, POD, { container: 'sandbox' });
            return new RegExp(`api port-forward sub=eddie port=${port} in=1000 `).test(log)
              ? true
              : undefined;
          },
          30_000,
        );
      },
    );
    // A live feed whose pod is deleted ends for the client.
    const response = await fetch(`${base}${door('api/events')}`, {
      headers: identityHeaders('vic', ['readers']),
    });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    await reader.read();
    await platform.kube.resource(CORE_KINDS.pod).delete(POD, `ns-${WS}`);
    for (;;) {
      const next = await reader.read().catch(() => ({ done: true as const }));
      if (next.done) break;
    }
    await platform.readyPods(WS, AGENT, 1);
    await eventually('the door open again on the new pod', async () =>
      (await viewer().get(door('api/tree'))).status === 200 ? true : undefined,
    );
  });
});
