import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import websocket from '@fastify/websocket';
import { createHttpApp, listen, silentLogger } from '@paddock/common';
import WebSocket from 'ws';
import type { ApiListener } from '../src/api/listener.js';
import { apiOnFirstUse, type FirstUseHooks } from '../src/api/on-first-use.js';

/** A listener as the sandbox builds one: fastify on the given server, WebSockets from the relay. */
async function echoListener({ serverFactory, upgrades }: FirstUseHooks): Promise<ApiListener> {
  const app = createHttpApp({ logger: silentLogger(), serverFactory });
  await app.register(websocket, { options: { server: upgrades as never } });
  app.get('/hello', () => ({ hello: 'world' }));
  app.get('/echo', { websocket: true }, (socket) => {
    socket.on('message', (data, binary) => socket.send(data, { binary }));
  });
  return { app, mounted: ['GET /hello', 'GET /echo'], close: () => app.close() };
}

/** Opens a WebSocket and answers the first message echoed back. */
async function echoOver(url: string, text: string): Promise<string> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  socket.send(text);
  const [data] = (await once(socket, 'message')) as [Buffer];
  socket.close();
  return data.toString();
}

describe('the human API built on first use', () => {
  const closing: (() => Promise<void>)[] = [];
  after(() => Promise.all(closing.map((close) => close())));

  it('listens at once, and builds its listener once for the requests and upgrades that come first together', async () => {
    let builds = 0;
    const api = apiOnFirstUse((hooks) => {
      builds++;
      return echoListener(hooks);
    }, silentLogger());
    closing.push(api.close);
    const { port } = await listen(api.server, { host: '127.0.0.1', port: 0 });
    assert.equal(builds, 0, 'nothing is built before a request comes');

    const answers = await Promise.all([
      fetch(`http://127.0.0.1:${port}/hello`).then((r) => r.json()),
      echoOver(`ws://127.0.0.1:${port}/echo`, 'first upgrade'),
      fetch(`http://127.0.0.1:${port}/hello`).then((r) => r.json()),
    ]);
    assert.deepEqual(answers, [{ hello: 'world' }, 'first upgrade', { hello: 'world' }]);
    assert.equal(await echoOver(`ws://127.0.0.1:${port}/echo`, 'once built'), 'once built');
    const missing = await fetch(`http://127.0.0.1:${port}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(builds, 1);
  });

  it('answers 503 when the build fails, and builds again with the next request', async () => {
    let builds = 0;
    const api = apiOnFirstUse((hooks) => {
      builds++;
      if (builds === 1) return Promise.reject(new Error('a module failed to load'));
      return echoListener(hooks);
    }, silentLogger());
    closing.push(api.close);
    const { port } = await listen(api.server, { host: '127.0.0.1', port: 0 });

    const refused = await fetch(`http://127.0.0.1:${port}/hello`);
    assert.equal(refused.status, 503);
    assert.deepEqual(await refused.json(), {
      error: 'unavailable',
      message: 'the API could not start',
    });
    const answered = await fetch(`http://127.0.0.1:${port}/hello`);
    assert.deepEqual(await answered.json(), { hello: 'world' });
    assert.equal(builds, 2);
  });

  it('closes whether it was built or not', async () => {
    for (const use of [false, true]) {
      const api = apiOnFirstUse(echoListener, silentLogger());
      const { port } = await listen(api.server, { host: '127.0.0.1', port: 0 });
      if (use) assert.equal((await fetch(`http://127.0.0.1:${port}/hello`)).status, 200);
      await api.close();
      assert.equal(api.server.listening, false, `closed (${use ? 'built' : 'never built'})`);
    }
  });
});
