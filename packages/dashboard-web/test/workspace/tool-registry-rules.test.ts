import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  argumentsFromJson,
  argumentsOf,
  durationText,
  initialValue,
  MAX_FORM_FIELDS,
  resultText,
  schemaFields,
} from '../../src/pages/workspaces/tool-registry-rules.js';

const SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for' },
    limit: { type: 'integer', default: 10 },
    ratio: { type: ['number', 'null'] },
    exact: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'deep'] },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    filter: { type: 'object' },
    anything: {},
  },
  required: ['query', 'mode'],
};

describe('schemaFields', () => {
  it('reads each property: its type for people, required, description, and its field', () => {
    const fields = schemaFields(SCHEMA);
    assert.deepEqual(
      fields.map((f) => [f.name, f.type, f.kind, f.required, f.itemKind]),
      [
        ['query', 'string', 'string', true, null],
        ['limit', 'integer', 'integer', false, null],
        ['ratio', 'number', 'number', false, null],
        ['exact', 'boolean', 'boolean', false, null],
        ['mode', 'string', 'enum', true, null],
        ['tags', 'array of string', 'list', false, 'string'],
        ['ids', 'array of integer', 'list', false, 'integer'],
        ['filter', 'object', 'json', false, null],
        ['anything', 'any', 'json', false, null],
      ],
    );
    assert.equal(fields[0]?.description, 'What to look for');
    assert.deepEqual(fields[4]?.options, ['fast', 'deep']);
  });

  it('has no fields for a schema without properties, or none at all', () => {
    assert.deepEqual(schemaFields({ type: 'object' }), []);
    assert.deepEqual(schemaFields(null), []);
    assert.deepEqual(schemaFields({ properties: 'nonsense' }), []);
  });

  it('reads at most MAX_FORM_FIELDS properties', () => {
    const properties = Object.fromEntries(
      Array.from({ length: MAX_FORM_FIELDS + 5 }, (_, i) => [`p${i}`, { type: 'string' }]),
    );
    assert.equal(schemaFields({ properties }).length, MAX_FORM_FIELDS);
  });
});

describe('initialValue', () => {
  const fields = schemaFields(SCHEMA);
  const field = (name: string) => fields.find((f) => f.name === name)!;
  const cases: [string, unknown, unknown][] = [
    ['limit', { default: 10 }, '10'],
    ['query', {}, ''],
    ['exact', { default: true }, true],
    ['exact', {}, false],
    ['mode', { default: 'deep' }, '"deep"'],
    ['tags', { default: ['a', 'b'] }, 'a\nb'],
    ['filter', { default: { a: 1 } }, '{\n  "a": 1\n}'],
  ];
  for (const [name, property, expected] of cases) {
    it(`${name} from ${JSON.stringify(property)}`, () => {
      assert.deepEqual(initialValue(field(name), property), expected);
    });
  }
});

describe('argumentsOf', () => {
  const fields = schemaFields(SCHEMA);
  const cases: [string, Record<string, string | boolean>, unknown][] = [
    [
      'every kind typed',
      {
        query: 'paddock',
        limit: ' 5 ',
        ratio: '0.5',
        exact: true,
        mode: '"deep"',
        tags: 'a b\n\nc\n',
        ids: '1\n 2 ',
        filter: '{"x": [1]}',
        anything: 'null',
      },
      {
        ok: true,
        value: {
          query: 'paddock',
          limit: 5,
          ratio: 0.5,
          exact: true,
          mode: 'deep',
          tags: ['a b', 'c'],
          ids: [1, 2],
          filter: { x: [1] },
          anything: null,
        },
      },
    ],
    [
      'empty optional fields left out, an unchecked box too',
      { query: 'q', mode: '"fast"', exact: false, limit: '' },
      { ok: true, value: { query: 'q', mode: 'fast' } },
    ],
    [
      'required fields missing',
      {},
      { ok: false, problems: { query: 'query is required.', mode: 'mode is required.' } },
    ],
    [
      'values of the wrong type',
      { query: 'q', mode: '"fast"', limit: '2.5', ratio: 'abc', ids: '1\nx', filter: '{' },
      {
        ok: false,
        problems: {
          limit: 'limit: not a whole number.',
          ratio: 'ratio: not a number.',
          ids: 'ids: line 2: not a number.',
          filter: `filter: not valid JSON (${jsonError('{')}).`,
        },
      },
    ],
  ];
  for (const [what, values, expected] of cases) {
    it(what, () => assert.deepEqual(argumentsOf(fields, values), expected));
  }

  it('sends a required boolean even unchecked', () => {
    const [field] = schemaFields({
      properties: { on: { type: 'boolean' } },
      required: ['on'],
    });
    assert.deepEqual(argumentsOf([field!], {}), { ok: true, value: { on: false } });
  });

  it('reads a list of booleans', () => {
    const [field] = schemaFields({
      properties: { flags: { type: 'array', items: { type: 'boolean' } } },
    });
    assert.deepEqual(argumentsOf([field!], { flags: 'true\nfalse' }), {
      ok: true,
      value: { flags: [true, false] },
    });
    assert.deepEqual(argumentsOf([field!], { flags: 'yes' }), {
      ok: false,
      problems: { flags: 'flags: line 1: write true or false.' },
    });
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('argumentsFromJson', () => {
  it('reads an object, an empty text as none', () => {
    assert.deepEqual(argumentsFromJson('{"a": 1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(argumentsFromJson('  '), { ok: true, value: {} });
  });
  it('refuses what is not a JSON object', () => {
    assert.deepEqual(argumentsFromJson('[1]'), {
      ok: false,
      problem: 'The arguments must be a JSON object.',
    });
    assert.equal(argumentsFromJson('{').ok, false);
  });
});

describe('resultText and durationText', () => {
  it('shows JSON pretty, anything else as it came', () => {
    assert.deepEqual(resultText('{"a":1}'), { json: true, text: '{\n  "a": 1\n}' });
    assert.deepEqual(resultText('hello, Ada'), { json: false, text: 'hello, Ada' });
    assert.deepEqual(resultText('{not json'), { json: false, text: '{not json' });
  });
  it('says how long in ms, then seconds', () => {
    assert.equal(durationText(12), '12 ms');
    assert.equal(durationText(999), '999 ms');
    assert.equal(durationText(2500), '2.5 s');
  });
});
