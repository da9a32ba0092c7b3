import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { createHttpApp, silentLogger } from '../src/index.js';
import { lazySchemaCompilers, type SchemaCompilers } from '../src/lazy-schemas.js';
import * as serialization from '../src/schema-serialization.js';
import * as validation from '../src/schema-validation.js';

const Query = Type.Object({ n: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
const Answer = Type.Object({ n: Type.Integer() });

/** An app with the lazy compilers, counting how often they are loaded. */
function appWith(importThem: () => Promise<SchemaCompilers>) {
  const compilers = lazySchemaCompilers(importThem);
  const app = createHttpApp({ logger: silentLogger() });
  compilers.install(app);
  // A later hook that answers by itself, as an identity check does: its reply is serialized.
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers['x-refuse'] !== undefined) {
      return reply.code(401).send({ error: 'unauthorized', message: 'no', extra: 'dropped' });
    }
  });
  const error = Type.Object({ error: Type.String(), message: Type.String() });
  app.get('/plain', () => ({ ok: true }));
  app.get(
    '/n',
    { schema: { querystring: Query, response: { 200: Answer, 401: error } } },
    (req) => ({ n: (req.query as { n: number }).n, extra: 'dropped' }),
  );
  return { app, compilers };
}

const realImport = (): Promise<SchemaCompilers> => Promise.resolve({ validation, serialization });

describe('schema compilers loaded on first use', () => {
  it('loads nothing for a route without a schema, then loads once for the first with one', async () => {
    let loads = 0;
    const { app, compilers } = appWith(() => (loads++, realImport()));
    try {
      assert.equal((await app.inject({ url: '/plain' })).statusCode, 200);
      assert.equal(loads, 0);
      assert.throws(() => compilers.loaded(), /not loaded yet/);
      const res = await app.inject({ url: '/n?n=3' });
      assert.deepEqual(res.json(), { n: 3 }, 'validated, converted and serialized by the schema');
      assert.equal((await app.inject({ url: '/n?n=4' })).statusCode, 200);
      assert.equal(loads, 1);
    } finally {
      await app.close();
    }
  });

  it('validates as strictly as the eager compilers', async () => {
    const { app } = appWith(realImport);
    try {
      for (const query of ['n=0', 'n=1.5', 'n=abc', 'n=1&x=2', '']) {
        const res = await app.inject({ url: `/n?${query}` });
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json<{ error: string }>().error, 'invalid_request', query);
      }
    } finally {
      await app.close();
    }
  });

  it('has them loaded for a reply sent from a later onRequest hook', async () => {
    const { app } = appWith(realImport);
    try {
      const res = await app.inject({ url: '/n?n=1', headers: { 'x-refuse': '1' } });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { error: 'unauthorized', message: 'no' });
    } finally {
      await app.close();
    }
  });

  it('answers 500 when they cannot load, says why, and tries again on the next request', async () => {
    let attempts = 0;
    const { app, compilers } = appWith(async () => {
      attempts++;
      if (attempts === 1) throw new Error('disk gone');
      return realImport();
    });
    try {
      assert.equal((await app.inject({ url: '/n?n=1' })).statusCode, 500);
      assert.equal((await app.inject({ url: '/n?n=2' })).statusCode, 200);
      assert.equal(attempts, 2);
      const failing = lazySchemaCompilers(() => Promise.reject(new Error('disk gone')));
      await assert.rejects(failing.load(), /the schema compilers could not be loaded: disk gone/);
      assert.ok(compilers.loaded().validation.validatorCompiler);
    } finally {
      await app.close();
    }
  });

  it('serves the requests that arrive while they load, loading them once', async () => {
    let loads = 0;
    const { app } = appWith(() => (loads++, realImport()));
    try {
      const answers = await Promise.all(
        ['1', '2', '3', '0'].map((n) => app.inject({ url: `/n?n=${n}` })),
      );
      assert.deepEqual(
        answers.map((a) => a.statusCode),
        [200, 200, 200, 400],
      );
      assert.equal(loads, 1);
    } finally {
      await app.close();
    }
  });
});
