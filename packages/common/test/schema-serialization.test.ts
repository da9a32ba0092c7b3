import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { Type } from 'typebox';
import {
  forSerialization,
  LARGE_ARRAY_ITEMS,
  serializerCompiler,
} from '../src/schema-serialization.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

describe('a schema as the serializer reads it', () => {
  const cases: Array<[string, unknown, unknown]> = [
    [
      'literals become one enum',
      Type.Union([Type.Literal('a'), Type.Literal('b')]),
      { enum: ['a', 'b'] },
    ],
    [
      'a nullable enum becomes an enum with null',
      Type.Union([Type.Enum(['x', 'y']), Type.Null()]),
      { enum: ['x', 'y', null] },
    ],
    [
      'a nullable union of literals, inside out',
      Type.Union([Type.Union([Type.Literal(1), Type.Literal(2)]), Type.Null()]),
      { enum: [1, 2, null] },
    ],
    [
      'a nullable string keeps its format and gains a type list',
      Nullable(Type.String({ format: 'date-time' })),
      { type: ['string', 'null'], format: 'date-time' },
    ],
    [
      'a nullable object keeps its properties',
      Type.Union([Type.Object({ a: Type.String() }), Type.Null()]),
      { type: ['object', 'null'], properties: { a: { type: 'string' } }, required: ['a'] },
    ],
    [
      'the union’s own description stays',
      Type.Union([Type.Literal('a'), Type.Null()], { description: 'why' }),
      { enum: ['a', null], description: 'why' },
    ],
    [
      'bare types become a type list, beside a pattern (a Kubernetes quantity)',
      { anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^[0-9]+m?$' },
      { type: ['integer', 'string'], pattern: '^[0-9]+m?$' },
    ],
    [
      'a union beside properties stays',
      { type: 'object', properties: {}, anyOf: [{ type: 'null' }, { const: 1 }] },
      { type: 'object', properties: {}, anyOf: [{ type: 'null' }, { const: 1 }] },
    ],
    [
      'two shapes stay a union',
      Type.Union([Type.String(), Type.Array(Type.String())]),
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    ],
    [
      'a string, a number or null becomes a type list',
      Type.Union([Type.String(), Type.Number(), Type.Null()]),
      { type: ['string', 'number', 'null'] },
    ],
    [
      'a value beside a type stays a union',
      Type.Union([Type.Literal('all'), Type.Number()]),
      { anyOf: [{ const: 'all', type: 'string' }, { type: 'number' }] },
    ],
    [
      'values that look like schemas are data',
      { const: { anyOf: [{ const: 1 }] } },
      { const: { anyOf: [{ const: 1 }] } },
    ],
    [
      'defaults are dropped, a property named default is not',
      Type.Object({
        role: Type.String({ default: 'viewer' }),
        default: Type.Boolean(),
      }),
      {
        type: 'object',
        properties: { role: { type: 'string' }, default: { type: 'boolean' } },
        required: ['role', 'default'],
      },
    ],
    [
      'properties named like keywords are schemas still',
      { type: 'object', properties: { enum: { anyOf: [{ const: 'a' }, { const: 'b' }] } } },
      { type: 'object', properties: { enum: { enum: ['a', 'b'] } } },
    ],
  ];
  for (const [name, schema, expected] of cases) {
    it(name, () => assert.deepEqual(forSerialization(schema), expected));
  }

  it('rewrites unions nested in properties and items', () => {
    const schema = Type.Object({
      list: Type.Array(Type.Object({ phase: Type.Union([Type.Literal('A'), Type.Literal('B')]) })),
    });
    const flat = forSerialization(schema) as {
      properties: { list: { items: { properties: { phase: unknown } } } };
    };
    assert.deepEqual(flat.properties.list.items.properties.phase, { enum: ['A', 'B'] });
  });

  it('writes the same JSON as the schema it came from', () => {
    const schema = Type.Object({
      description: Nullable(Type.String()),
      environment: Type.Union([
        Type.Union([Type.Literal('development'), Type.Literal('production')]),
        Type.Null(),
      ]),
      phase: Type.Union([Type.Literal('Ready'), Type.Literal('Error')]),
      access: Type.Union([Type.Object({ count: Type.Integer() }), Type.Null()]),
      createdAt: Nullable(Type.String({ format: 'date-time' })),
      cpu: Type.Union([Type.Integer(), Type.String()]),
    });
    const original = fastJsonStringify(schema as Schema);
    const flat = fastJsonStringify(forSerialization(schema) as Schema);
    const values = [
      {
        description: null,
        environment: null,
        phase: 'Ready',
        access: null,
        createdAt: null,
        cpu: 2,
      },
      {
        description: 'with "quotes" and ünïcode',
        environment: 'production',
        phase: 'Error',
        access: { count: 3, extra: 'dropped' },
        createdAt: '2026-01-02T03:04:05Z',
        cpu: '500m',
        unknown: 'dropped',
      },
    ];
    for (const value of values) assert.equal(flat(value), original(value));
  });

  it('writes long arrays natively, with the same JSON as short ones', () => {
    const item = Type.Object({
      name: Type.String(),
      phase: Type.Union([Type.Literal('Ready'), Type.Literal('Error')]),
      note: Nullable(Type.String()),
    });
    const write = serializerCompiler({
      schema: Type.Array(item),
      method: 'GET',
      url: '/',
      httpStatus: '200',
    });
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `n-${i}`,
        phase: i % 2 ? 'Ready' : 'Error',
        note: i % 3 ? null : 'a "note"',
      }));
    const short = items(LARGE_ARRAY_ITEMS - 1);
    const long = items(LARGE_ARRAY_ITEMS);
    assert.equal(write(short), JSON.stringify(short));
    assert.equal(write(long), JSON.stringify(long));
  });
});
