import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { ModelClient, ModelEvent, ModelRequest } from '../src/model.js';
import { lazyModelClient } from '../src/providers/lazy-client.js';

const REQUEST: ModelRequest = {
  model: 'm',
  system: '',
  messages: [{ role: 'user', text: 'hi' }],
  tools: [],
  maxOutputTokens: 10,
};

/** A client that answers every call with one text and a stop. */
const answering: ModelClient = {
  stream: (request) =>
    Readable.from([
      { type: 'text', delta: `to ${request.model}` },
      { type: 'stop', reason: 'end' },
    ] satisfies ModelEvent[]),
};

async function events(client: ModelClient): Promise<ModelEvent[]> {
  const seen: ModelEvent[] = [];
  for await (const event of client.stream(REQUEST, new AbortController().signal)) seen.push(event);
  return seen;
}

describe('a model client loaded on first use', () => {
  it('loads nothing until the first call, then once for every call, concurrent ones included', async () => {
    let loads = 0;
    const client = lazyModelClient(() => {
      loads++;
      return Promise.resolve(answering);
    });
    assert.equal(loads, 0);
    const [first, second] = await Promise.all([events(client), events(client)]);
    assert.deepEqual(first, [
      { type: 'text', delta: 'to m' },
      { type: 'stop', reason: 'end' },
    ]);
    assert.deepEqual(second, first);
    await events(client);
    assert.equal(loads, 1);
  });

  it('fails the call whose load failed, and loads again on the next', async () => {
    let loads = 0;
    const client = lazyModelClient(() =>
      ++loads === 1 ? Promise.reject(new Error('no SDK')) : Promise.resolve(answering),
    );
    await assert.rejects(events(client), /no SDK/);
    assert.equal((await events(client)).length, 2);
    assert.equal(loads, 2);
  });
});
