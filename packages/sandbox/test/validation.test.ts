import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createHttpApp, silentLogger } from '@paddock/common';
import { Type } from 'typebox';
import { ExecQuery, PortForwardQuery, TreeQuery } from '../src/api/schemas.js';
import { schemaCompilers } from '@paddock/common/lazy-schemas';
import { fromText, validatorCompiler } from '@paddock/common/schema-validation';
import { checkParameters } from '../src/api/validation.js';

describe('query values read from text', () => {
  const schema = Type.Object({ n: Type.Integer(), s: Type.String() });
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['plain digits become a number', { n: '42' }, { n: 42 }],
    ['a decimal stays text', { n: '1.5' }, { n: '1.5' }],
    ['a sign stays text', { n: '+1' }, { n: '+1' }],
    ['an exponent stays text', { n: '8e1' }, { n: '8e1' }],
    ['the empty string stays text', { n: '' }, { n: '' }],
    ['a repeated parameter stays a list', { n: ['1', '2'] }, { n: ['1', '2'] }],
    ['a string property is left as it is', { s: '42' }, { s: '42' }],
    ['sixteen digits stay text', { n: '1234567890123456' }, { n: '1234567890123456' }],
  ];
  for (const [name, given, expected] of cases) {
    it(name, () => assert.deepEqual(fromText(schema, given), expected));
  }
});

describe('query flags read from text', () => {
  const schema = Type.Object({
    b: Type.Boolean(),
    u: Type.Union([Type.Boolean(), Type.Literal('')]),
  });
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['true and 1 are true', { b: 'true', u: '1' }, { b: true, u: true }],
    ['false and 0 are false', { b: 'false', u: '0' }, { b: false, u: false }],
    ['anything else stays text', { b: 'yes', u: '' }, { b: 'yes', u: '' }],
  ];
  for (const [name, given, expected] of cases) {
    it(name, () => assert.deepEqual(fromText(schema, given), expected));
  }
});

describe('parameters checked against their schema', () => {
  // The listener's first hook loads the compilers; outside a request, the test does.
  before(() => schemaCompilers.load());

  it('accepts what the schema allows, converted', () => {
    assert.deepEqual(checkParameters(PortForwardQuery, { port: '5432' }), {
      ok: true,
      value: { port: 5432 },
    });
    assert.deepEqual(checkParameters(TreeQuery, { path: 'src', depth: '2' }), {
      ok: true,
      value: { path: 'src', depth: 2 },
    });
  });

  it('refuses, naming the field or the unknown parameter', () => {
    const cases: Array<[object, Record<string, unknown>, RegExp]> = [
      [PortForwardQuery, { port: '80', host: 'db' }, /^unknown query parameter "host"$/],
      [PortForwardQuery, {}, /port/],
      [PortForwardQuery, { port: '70000' }, /^port /],
      [ExecQuery, { command: '   ' }, /^command /],
      [ExecQuery, { cols: '0' }, /^cols /],
      [TreeQuery, { depth: '33' }, /^depth /],
    ];
    for (const [schema, query, message] of cases) {
      const checked = checkParameters(schema as typeof TreeQuery, query);
      assert.equal(checked.ok, false, JSON.stringify(query));
      if (!checked.ok) assert.match(checked.error, message, JSON.stringify(query));
    }
  });
});

describe('the listener validator', () => {
  it('answers a schema failure with the invalid_request envelope, unknown parameters included', async () => {
    const app = createHttpApp({ logger: silentLogger() });
    app.setValidatorCompiler(validatorCompiler);
    app.get('/x', { schema: { querystring: PortForwardQuery } }, (req) => ({ query: req.query }));
    try {
      const ok = await app.inject({ url: '/x?port=80' });
      assert.deepEqual(ok.json(), { query: { port: 80 } });
      for (const query of ['port=abc', 'port=1.5', 'port=80&port=81', 'port=80&host=db', '']) {
        const res = await app.inject({ url: `/x?${query}` });
        assert.equal(res.statusCode, 400, query);
        const body = res.json<{ error: string; message: string }>();
        assert.equal(body.error, 'invalid_request', query);
        assert.deepEqual(Object.keys(body), ['error', 'message']);
      }
      const unknown = await app.inject({ url: '/x?port=80&host=db' });
      assert.match(unknown.json<{ message: string }>().message, /"?host"?/);
    } finally {
      await app.close();
    }
  });
});
