import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { tempDir } from '@paddock/testing';
import { checkTarget } from '../../src/api/port-forward.js';
import { as, startApiSandbox, type RunningApiSandbox } from '../support/sandbox.js';

describe('the tunnel target decision', () => {
  const own = new Set([7070, 7071, 40123]);
  const table: Array<[number, boolean]> = [
    [7070, false],
    [7071, false],
    [40123, false],
    [8080, true],
    [1, true],
  ];
  for (const [port, allowed] of table) {
    it(`${allowed ? 'allows' : 'refuses'} port ${port} when the sandbox listens on ${[...own].join(', ')}`, () => {
      const outcome = checkTarget({ ok: true, value: port }, own);
      assert.equal(outcome.ok, allowed);
      if (!outcome.ok) assert.match(outcome.error, /one of the sandbox's own listeners/);
    });
  }
  it('passes a query mistake on unchanged', () => {
    assert.deepEqual(checkTarget({ ok: false, error: 'bad' }, own), { ok: false, error: 'bad' });
  });
});

describe('port-forward to the sandbox’s own listeners', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let sandbox: RunningApiSandbox;
  let echo: Server;
  let echoPort: number;

  before(async () => {
    folder = await tempDir('paddock-port-forward-self-');
    sandbox = await startApiSandbox(folder.path, ['-enable-port-forward', '-enable-ssh']);
    echo = createServer((socket) => socket.pipe(socket));
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');
    echoPort = (echo.address() as { port: number }).port;
  });
  after(async () => {
    await sandbox.stop();
    await new Promise((resolve) => echo.close(resolve));
    await folder.remove();
  });

  /** The status of the handshake: 101 when the tunnel opened, else the HTTP refusal. */
  async function tunnelStatus(port: number): Promise<{ status: number; body: string }> {
    const ws = new WebSocket(
      `${sandbox.apiBase.replace(/^http/, 'ws')}/api/port-forward?port=${port}`,
      { headers: as('alice') },
    );
    try {
      return await new Promise((resolve, reject) => {
        ws.once('open', () => resolve({ status: 101, body: '' }));
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        ws.once('error', reject);
      });
    } finally {
      ws.terminate();
    }
  }

  it('refuses the MCP port and the human API port, and still tunnels to SSH and elsewhere', async () => {
    const sshPort = (
      (await (await fetch(`${sandbox.apiBase}/api/ssh-port`, { headers: as('alice') })).json()) as {
        port: number;
      }
    ).port;
    for (const [what, port] of [
      ['MCP', sandbox.port],
      ['human API', sandbox.apiPort],
    ] as const) {
      const { status, body } = await tunnelStatus(port);
      assert.equal(status, 400, what);
      assert.match(body, /one of the sandbox's own listeners/, what);
    }
    assert.equal((await tunnelStatus(echoPort)).status, 101);
    // The embedded SSH server is reached only through the tunnel, and checks keys itself.
    assert.equal((await tunnelStatus(sshPort)).status, 101);
  });
});
