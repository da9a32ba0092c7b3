import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ClusterConfig } from '../src/client/cluster-config.js';
import { RestClient } from '../src/client/rest.js';

/**
 * A server that answers the first request of each connection and then resets the connection
 * instead of answering a second one on it: what a client meets when the server closed a
 * kept-alive connection while it was idle and the client's next request was already on its way.
 */
let server: Server;
let url: string;
const answeredOn = new WeakMap<Socket, number>();
let connections = 0;
before(async () => {
  server = createServer((req, res) => {
    const seen = answeredOn.get(req.socket) ?? 0;
    if (seen > 0) {
      req.socket.resetAndDestroy();
      return;
    }
    answeredOn.set(req.socket, seen + 1);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const client = () =>
  new RestClient(
    ClusterConfig.fromClusterAndUser(
      { name: 'c', server: url, skipTLSVerify: true },
      { name: 'u', token: 't' },
    ),
  );

describe('requests on kept-alive connections', () => {
  it('sends a request again on a fresh connection when a reused one was reset before any answer', async () => {
    const rest = client();
    const before = connections;
    assert.deepEqual(await rest.request('GET', '/first'), { path: '/first' });
    assert.deepEqual(await rest.request('GET', '/second'), { path: '/second' });
    assert.equal(connections - before, 2, 'the second request was sent again, on a new connection');
  });

  it('reports a reset of a fresh connection as unreachable, without sending again', async () => {
    const reset = createServer((req) => req.socket.resetAndDestroy());
    await new Promise<void>((resolve) => reset.listen(0, '127.0.0.1', resolve));
    let requests = 0;
    reset.on('request', () => requests++);
    try {
      const rest = new RestClient(
        ClusterConfig.fromClusterAndUser(
          {
            name: 'c',
            server: `http://127.0.0.1:${(reset.address() as AddressInfo).port}`,
            skipTLSVerify: true,
          },
          { name: 'u', token: 't' },
        ),
      );
      await assert.rejects(rest.request('GET', '/once'), { name: 'UnavailableError' });
      assert.equal(requests, 1);
    } finally {
      await new Promise((resolve) => reset.close(resolve));
    }
  });
});
