import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { schemaCompilers } from '@paddock/common/lazy-schemas';
import { freePort, tempDir, eventually } from '@paddock/testing';
import { parsePortQuery, targetFailureReason } from '../src/api/port-forward.js';
import { as, startApiSandbox, type RunningApiSandbox } from './support/sandbox.js';

/** The transfer of the ordering tests: several times every buffer on the way. */
const TRANSFER_BYTES = 4 * 1024 * 1024;
/** Frames the test client sends: well under the listener's 1 MiB message limit. */
const CLIENT_FRAME_BYTES = 64 * 1024;
/** Sandbox memory growth that still proves bounded buffering (an unpaused flood grows it by far more). */
const MAX_RSS_GROWTH_BYTES = 64 * 1024 * 1024;
/** What the test client keeps queued at most while flooding, so that the test process stays small. */
const CLIENT_QUEUE_BYTES = 8 * 1024 * 1024;

let folder: { path: string; remove: () => Promise<void> };
let sandbox: RunningApiSandbox;

before(async () => {
  folder = await tempDir('paddock-port-forward-');
  sandbox = await startApiSandbox(folder.path, ['-enable-port-forward']);
});

after(async () => {
  await sandbox.stop();
  await folder.remove();
});

interface Target {
  port: number;
  /** The first connection the target accepted. */
  connection: Promise<Socket>;
  close: () => Promise<void>;
}

/** A TCP server on 127.0.0.1 that hands each connection to `onConnection`. */
async function startTarget(
  onConnection: (socket: Socket) => void = () => {},
  { allowHalfOpen = false } = {},
): Promise<Target> {
  const sockets = new Set<Socket>();
  let first!: (socket: Socket) => void;
  const connection = new Promise<Socket>((resolve) => (first = resolve));
  const server = createServer({ allowHalfOpen }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
    first(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return {
    port: address.port,
    connection,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function tunnelUrl(query: string, base = sandbox.apiBase): string {
  return `${base.replace(/^http/, 'ws')}/api/port-forward${query}`;
}

interface TunnelClient {
  ws: WebSocket;
  /** Resolves when the target's end-of-stream frame arrived. */
  targetEnded: Promise<void>;
  /** Sends the client's end-of-stream frame (once). */
  sendEof: () => void;
  received: () => Buffer;
  receivedBytes: () => number;
  closed: Promise<{ code: number; reason: string }>;
  untilReceived: (bytes: number) => Promise<void>;
}

/**
 * A tunnel client. Like paddock-forward with nothing more to send, it answers the target's
 * end-of-stream frame with its own, unless `halfClose` leaves that to the test.
 */
async function openTunnel(
  port: number,
  sub = 'alice',
  { halfClose = false } = {},
): Promise<TunnelClient> {
  const ws = new WebSocket(tunnelUrl(`?port=${port}`), { headers: as(sub) });
  const chunks: Buffer[] = [];
  let total = 0;
  let eofSent = false;
  const sendEof = () => {
    if (!eofSent) ws.send('eof');
    eofSent = true;
  };
  let targetEnded!: () => void;
  const ended = new Promise<void>((resolve) => (targetEnded = resolve));
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
      assert.equal(data.toString(), 'eof', 'the only text frame is eof');
      targetEnded();
      if (!halfClose) sendEof();
      return;
    }
    chunks.push(data);
    total += data.length;
  });
  const closed = once(ws, 'close').then(([code, reason]) => ({
    code: code as number,
    reason: (reason as Buffer).toString('utf8'),
  }));
  await once(ws, 'open');
  return {
    ws,
    targetEnded: ended,
    sendEof,
    received: () => Buffer.concat(chunks),
    receivedBytes: () => total,
    closed,
    untilReceived: async (bytes) => {
      await eventually(`${bytes} bytes through the tunnel`, () =>
        total >= bytes ? true : undefined,
      );
    },
  };
}

/** The HTTP answer to a WebSocket handshake the server refused. */
async function refusedUpgrade(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { error: string; message: string } }> {
  const ws = new WebSocket(url, { headers });
  ws.on('error', () => {}); // the refusal is read from 'unexpected-response'
  const [, res] = (await once(ws, 'unexpected-response')) as [
    unknown,
    NodeJS.ReadableStream & { statusCode: number },
  ];
  let text = '';
  for await (const chunk of res) text += String(chunk);
  ws.terminate();
  return { status: res.statusCode, body: JSON.parse(text) as { error: string; message: string } };
}

/**
 * The audit lines of one subject, once `count` of them are there and a later tunnel's line has
 * followed them: a duplicate, written as its tunnel ends, would come before that one.
 */
async function auditLinesOf(sub: string, count = 1): Promise<string[]> {
  const linesOf = (who: string) =>
    sandbox
      .output()
      .split('\n')
      .filter((l) => l.startsWith(`api port-forward sub=${who} `));
  await eventually(`${count} audit line(s) for ${sub}`, () =>
    linesOf(sub).length >= count ? true : undefined,
  );
  const marker = `${sub}-after`;
  const target = await startTarget((socket) => socket.end());
  try {
    const tunnel = await openTunnel(target.port, marker);
    await tunnel.targetEnded;
    tunnel.ws.close();
    await tunnel.closed;
  } finally {
    await target.close();
  }
  await eventually(`the audit line for ${marker}`, () =>
    linesOf(marker).length > 0 ? true : undefined,
  );
  return linesOf(sub);
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  assert.ok(kib, 'VmRSS in /proc/<pid>/status');
  return Number(kib) * 1024;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Sends bytes as binary frames of CLIENT_FRAME_BYTES. */
function sendInFrames(ws: WebSocket, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; at += CLIENT_FRAME_BYTES) {
    ws.send(bytes.subarray(at, at + CLIENT_FRAME_BYTES), { binary: true });
  }
}

/** Reads a stream slowly: paused most of the time, a short burst of reading now and then. */
function readSlowly(stream: { pause: () => void; resume: () => void }): () => void {
  stream.pause();
  const timer = setInterval(() => {
    stream.resume();
    setTimeout(() => stream.pause(), 2);
  }, 25);
  return () => {
    clearInterval(timer);
    stream.resume();
  };
}

const DURATION = String.raw`(\d+(\.\d+)?(µs|ms|s)|\d+m\d+(\.\d+)?s|\d+h\d+m\d+(\.\d+)?s)`;

describe('port-forward framing', () => {
  // The listener's first hook loads the schema compilers; outside a request, the test does.
  before(() => schemaCompilers.load());

  it('takes a port in plain digits from 1 to 65535', () => {
    assert.deepEqual(parsePortQuery({ port: '1' }), { ok: true, value: 1 });
    assert.deepEqual(parsePortQuery({ port: '5432' }), { ok: true, value: 5432 });
    assert.deepEqual(parsePortQuery({ port: '65535' }), { ok: true, value: 65535 });
  });

  it('refuses anything else, and any parameter besides port', () => {
    for (const query of [
      {},
      { port: '' },
      { port: '0' },
      { port: '65536' },
      { port: '70000' },
      { port: 'abc' },
      { port: '1.5' },
      { port: '-1' },
      { port: '+80' },
      { port: ' 80' },
      { port: '0x50' },
      { port: '8e1' },
      { port: '100000' },
      { port: ['80', '81'] },
      { port: '80', host: 'db' },
    ]) {
      assert.equal(parsePortQuery(query).ok, false, JSON.stringify(query));
    }
  });

  it('names what failed and where in the close reason', () => {
    assert.equal(targetFailureReason('ECONNREFUSED', 5432), 'connection refused: 127.0.0.1:5432');
    assert.equal(
      targetFailureReason('ECONNRESET', 80),
      'connection reset by the target: 127.0.0.1:80',
    );
    assert.equal(
      targetFailureReason('EHOSTUNREACH', 80),
      'connection failed (EHOSTUNREACH): 127.0.0.1:80',
    );
  });
});

describe('GET /api/port-forward', () => {
  it('carries bytes both ways between the client and a local echo server', async () => {
    const target = await startTarget((socket) => socket.pipe(socket));
    try {
      const tunnel = await openTunnel(target.port);
      tunnel.ws.send(Buffer.from('hello through the tunnel'), { binary: true });
      await tunnel.untilReceived(24);
      assert.equal(tunnel.received().toString(), 'hello through the tunnel');
      tunnel.ws.close(1000);
      assert.equal((await tunnel.closed).code, 1000);
    } finally {
      await target.close();
    }
  });

  it('delivers everything a target sends to a slow reader, in order, then closes with 1000', async () => {
    const payload = randomBytes(TRANSFER_BYTES);
    const target = await startTarget((socket) => socket.end(payload));
    try {
      const tunnel = await openTunnel(target.port);
      const stop = readSlowly(tunnel.ws);
      const closed = await tunnel.closed;
      stop();
      assert.equal(closed.code, 1000);
      assert.equal(tunnel.receivedBytes(), TRANSFER_BYTES);
      assert.equal(sha256(tunnel.received()), sha256(payload));
    } finally {
      await target.close();
    }
  });

  it('delivers everything a client sends to a slow target, in order, then ends the connection', async () => {
    const payload = randomBytes(TRANSFER_BYTES);
    let ended!: (bytes: Buffer) => void;
    const arrived = new Promise<Buffer>((resolve) => (ended = resolve));
    const target = await startTarget((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => ended(Buffer.concat(chunks)));
      socket.on('close', readSlowly(socket));
    });
    try {
      const tunnel = await openTunnel(target.port);
      sendInFrames(tunnel.ws, payload);
      tunnel.ws.close(); // queued after every frame: the server flushes them, then sends FIN
      const bytes = await arrived;
      assert.equal(bytes.length, TRANSFER_BYTES);
      assert.equal(sha256(bytes), sha256(payload));
    } finally {
      await target.close();
    }
  });

  it('stops reading the target while the client does not read, and loses nothing', async () => {
    const digest = createHash('sha256');
    let sent = 0;
    let stopping = false;
    /** The target waits for its socket to drain. */
    let waiting = false;
    const target = await startTarget((socket) => {
      const pump = () => {
        waiting = false;
        while (!stopping) {
          const chunk = randomBytes(CLIENT_FRAME_BYTES);
          digest.update(chunk);
          sent += chunk.length;
          if (!socket.write(chunk)) {
            waiting = true;
            return void socket.once('drain', pump);
          }
        }
      };
      pump();
    });
    try {
      const tunnel = await openTunnel(target.port);
      await tunnel.untilReceived(1);
      const before = await rssOf(sandbox.child.pid!);
      tunnel.ws.pause();
      // What flowed while the client still read is no measure: only what the target sends after.
      const sentAtPause = sent;
      // Stalled: the target waits for a drain, and sent nothing since the previous look.
      let previous = -1;
      await eventually('the target stalled', () => {
        const stalled = waiting && sent === previous;
        previous = sent;
        return stalled ? true : undefined;
      });
      const grown = (await rssOf(sandbox.child.pid!)) - before;
      assert.ok(grown < MAX_RSS_GROWTH_BYTES, `the sandbox grew by ${grown} bytes`);
      const sentSincePause = sent - sentAtPause;
      assert.ok(
        sentSincePause < MAX_RSS_GROWTH_BYTES,
        `the target could send ${sentSincePause} bytes while the client did not read`,
      );
      // Stop the source, then check that everything it produced arrives, in order.
      stopping = true;
      (await target.connection).end();
      tunnel.ws.resume();
      assert.equal((await tunnel.closed).code, 1000);
      assert.equal(tunnel.receivedBytes(), sent);
      assert.equal(sha256(tunnel.received()), digest.digest('hex'));
    } finally {
      await target.close();
    }
  });

  it('stops reading the client while the target does not read, and loses nothing', async () => {
    const clientDigest = createHash('sha256');
    const targetDigest = createHash('sha256');
    let received = 0;
    const target = await startTarget((socket) => {
      socket.pause(); // not reading at all for now
      socket.on('data', (chunk: Buffer) => {
        targetDigest.update(chunk);
        received += chunk.length;
      });
    });
    try {
      const tunnel = await openTunnel(target.port);
      const socket = await target.connection;
      const ended = once(socket, 'end');
      const before = await rssOf(sandbox.child.pid!);
      let sent = 0;
      // The client keeps its queue full until it stalls: nothing of it left since the previous look.
      let previous = -1;
      await eventually('the client stalled', () => {
        const sentBefore = sent;
        while (tunnel.ws.bufferedAmount < CLIENT_QUEUE_BYTES) {
          const chunk = randomBytes(CLIENT_FRAME_BYTES);
          clientDigest.update(chunk);
          sent += chunk.length;
          tunnel.ws.send(chunk, { binary: true });
        }
        const buffered = tunnel.ws.bufferedAmount;
        const stalled = sent === sentBefore && buffered === previous;
        previous = buffered;
        return stalled ? true : undefined;
      });
      const grown = (await rssOf(sandbox.child.pid!)) - before;
      assert.ok(grown < MAX_RSS_GROWTH_BYTES, `the sandbox grew by ${grown} bytes`);
      assert.ok(sent < 2 * MAX_RSS_GROWTH_BYTES, `the client could send ${sent} bytes`);
      tunnel.ws.close();
      socket.resume();
      await ended;
      assert.equal(received, sent);
      assert.equal(targetDigest.digest('hex'), clientDigest.digest('hex'));
    } finally {
      await target.close();
    }
  });

  it('ends the TCP connection after flushing when the client closes, and audits once', async () => {
    const sub = 'pf-leaver';
    const banner = Buffer.from('hello\n');
    const targetSaw: Buffer[] = [];
    const target = await startTarget((socket) => {
      socket.write(banner);
      socket.on('data', (chunk: Buffer) => targetSaw.push(chunk));
      socket.on('end', () => socket.end());
    });
    try {
      const tunnel = await openTunnel(target.port, sub);
      const socket = await target.connection;
      const ended = once(socket, 'end');
      await tunnel.untilReceived(banner.length);
      const words = Buffer.from('last words before closing');
      tunnel.ws.send(words, { binary: true });
      tunnel.ws.close();
      await ended;
      assert.equal(Buffer.concat(targetSaw).toString(), words.toString());
      const lines = await auditLinesOf(sub);
      assert.equal(lines.length, 1);
      assert.match(
        lines[0]!,
        new RegExp(
          `^api port-forward sub=${sub} port=${target.port} in=${words.length} out=${banner.length} dur=${DURATION}$`,
        ),
      );
    } finally {
      await target.close();
    }
  });

  it('closes with 1011 and says the connection was refused when nothing listens', async () => {
    const sub = 'pf-refused';
    const port = await freePort();
    const tunnel = await openTunnel(port, sub);
    const closed = await tunnel.closed;
    assert.equal(closed.code, 1011);
    assert.equal(closed.reason, `connection refused: 127.0.0.1:${port}`);
    const lines = await auditLinesOf(sub);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      new RegExp(`^api port-forward sub=${sub} port=${port} in=0 out=0 dur=`),
    );
  });

  it('half-closes each way: the target reads to the client’s end, then its answer still arrives', async () => {
    // A target that answers only once its input has ended, like `sort` or a request body reader.
    const target = await startTarget((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => socket.end(Buffer.concat(chunks).toString().toUpperCase()));
    });
    try {
      const tunnel = await openTunnel(target.port, 'alice', { halfClose: true });
      tunnel.ws.send(Buffer.from('shout this'), { binary: true });
      tunnel.sendEof();
      await tunnel.targetEnded;
      assert.equal(tunnel.received().toString(), 'SHOUT THIS');
      const closed = await tunnel.closed;
      assert.equal(closed.code, 1000, 'both sides ended: the tunnel closes');
    } finally {
      await target.close();
    }
  });

  it('keeps the client’s direction open after the target ended, until the client ends too', async () => {
    const received: Buffer[] = [];
    let targetSawEnd!: () => void;
    const sawEnd = new Promise<void>((resolve) => (targetSawEnd = resolve));
    const target = await startTarget((socket) => {
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('end', () => targetSawEnd());
      socket.end('bye'); // the target is done talking first, but still listens
    });
    try {
      const tunnel = await openTunnel(target.port, 'alice', { halfClose: true });
      await tunnel.targetEnded;
      assert.equal(tunnel.received().toString(), 'bye');
      tunnel.ws.send(Buffer.from('still here'), { binary: true });
      tunnel.sendEof();
      await sawEnd;
      assert.equal(Buffer.concat(received).toString(), 'still here');
      assert.equal((await tunnel.closed).code, 1000);
    } finally {
      await target.close();
    }
  });

  it('closes with 1002 when the client sends bytes after its end-of-stream frame', async () => {
    // A target that keeps its side open after the client's FIN: else the tunnel may finish
    // normally (both sides ended) before the late bytes are read.
    const target = await startTarget(() => {}, { allowHalfOpen: true });
    try {
      const tunnel = await openTunnel(target.port, 'alice', { halfClose: true });
      tunnel.sendEof();
      tunnel.ws.send(Buffer.from('too late'), { binary: true });
      const closed = await tunnel.closed;
      assert.equal(closed.code, 1002);
      assert.match(closed.reason, /bytes after "eof"/);
    } finally {
      await target.close();
    }
  });

  it('closes with 1003 on a text frame other than eof and ends the TCP connection', async () => {
    const target = await startTarget();
    try {
      const tunnel = await openTunnel(target.port);
      const closedTarget = once(await target.connection, 'close');
      tunnel.ws.send('text is not allowed');
      const closed = await tunnel.closed;
      assert.equal(closed.code, 1003);
      assert.match(closed.reason, /the only text frame is "eof"/);
      await closedTarget;
    } finally {
      await target.close();
    }
  });

  it('answers a bad or missing port, or another parameter, with 400 before the upgrade', async () => {
    for (const query of [
      '?port=0',
      '?port=70000',
      '?port=abc',
      '?port=1.5',
      '',
      '?port=',
      '?port=80&host=db',
    ]) {
      const refusal = await refusedUpgrade(tunnelUrl(query), as('alice'));
      assert.equal(refusal.status, 400, query);
      assert.equal(refusal.body.error, 'invalid_request', query);
      assert.deepEqual(Object.keys(refusal.body), ['error', 'message']);
    }
  });

  it('refuses a request without identity with 401 before the upgrade', async () => {
    const refusal = await refusedUpgrade(tunnelUrl('?port=80'), {});
    assert.equal(refusal.status, 401);
    assert.equal(refusal.body.error, 'unauthorized');
  });

  it('answers a plain GET without Upgrade with 426, Upgrade: websocket and the envelope', async () => {
    const response = await fetch(`${sandbox.apiBase}/api/port-forward?port=80`, {
      headers: as('alice'),
    });
    assert.equal(response.status, 426);
    assert.equal(response.headers.get('upgrade'), 'websocket');
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(body.error, 'upgrade_required');
  });
});

describe('port-forward at shutdown', () => {
  it('closes every tunnel with 1001, ends its TCP connection and audits it when the sandbox stops', async () => {
    const stopping = await startApiSandbox(folder.path, ['-enable-port-forward']);
    const target = await startTarget((socket) => socket.pipe(socket));
    try {
      const ws = new WebSocket(tunnelUrl(`?port=${target.port}`, stopping.apiBase), {
        headers: as('pf-at-shutdown'),
      });
      const closed = once(ws, 'close');
      await once(ws, 'open');
      const targetClosed = once(await target.connection, 'close');
      const exited = await stopping.stop('SIGTERM');
      assert.equal(exited.code, 0);
      const [code] = (await closed) as [number];
      assert.equal(code, 1001);
      await targetClosed;
      const lines = stopping
        .output()
        .split('\n')
        .filter((l) => l.startsWith('api port-forward sub=pf-at-shutdown '));
      assert.equal(lines.length, 1);
    } finally {
      await target.close();
      await stopping.stop();
    }
  });
});

describe('GET /api/port-forward with -enable-port-forward off', () => {
  let other: RunningApiSandbox;
  before(async () => {
    other = await startApiSandbox(folder.path, ['-enable-exec']);
  });
  after(async () => {
    await other.stop();
  });

  it('answers 404 to plain requests and to upgrades alike', async () => {
    const response = await fetch(`${other.apiBase}/api/port-forward?port=80`, {
      headers: as('alice'),
    });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: string }).error, 'not_found');
    const refusal = await refusedUpgrade(tunnelUrl('?port=80', other.apiBase), as('alice'));
    assert.equal(refusal.status, 404);
  });
});
