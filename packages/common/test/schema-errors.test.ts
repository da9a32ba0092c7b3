import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaErrorSentence, type SchemaFailure } from '../src/http.js';

describe('the sentence of a schema failure', () => {
  const cases: Array<[string, SchemaFailure[], string, string]> = [
    [
      'a wrong type',
      [{ keyword: 'type', instancePath: '/name', params: { type: 'string' } }],
      'body',
      'body.name must be a string',
    ],
    [
      'a number above its maximum',
      [{ keyword: 'maximum', instancePath: '/limit', params: { comparison: '<=', limit: 100 } }],
      'querystring',
      'querystring.limit must be ≤ 100',
    ],
    [
      'missing fields, as TypeBox names them',
      [{ keyword: 'required', instancePath: '', params: { requiredProperties: ['a', 'b'] } }],
      'body',
      'body.a and body.b are required',
    ],
    [
      'a missing field, as ajv names it',
      [{ keyword: 'required', instancePath: '', params: { missingProperty: 'token' } }],
      'body',
      'body.token is required',
    ],
    [
      'an unknown field, the failure of its `false` schema skipped',
      [
        { keyword: 'boolean', instancePath: '/x', params: {} },
        {
          keyword: 'additionalProperties',
          instancePath: '',
          params: { additionalProperties: ['x'] },
        },
      ],
      'body',
      'body has an unknown field "x"',
    ],
    [
      'an item of a list',
      [{ keyword: 'type', instancePath: '/roleBindings/0/role', params: { type: 'string' } }],
      'body',
      'body.roleBindings[0].role must be a string',
    ],
    [
      'a value none of a union’s members takes',
      [
        {
          keyword: 'type',
          instancePath: '/e',
          schemaPath: '#/properties/e/anyOf/0',
          params: { type: 'string' },
        },
        {
          keyword: 'type',
          instancePath: '/e',
          schemaPath: '#/properties/e/anyOf/1',
          params: { type: 'null' },
        },
        { keyword: 'anyOf', instancePath: '/e', schemaPath: '#/properties/e', params: {} },
      ],
      'body',
      'body.e must be a string or null',
    ],
    [
      'a pattern',
      [{ keyword: 'pattern', instancePath: '/agentName', params: { pattern: '^[a-z]+$' } }],
      'params',
      'params.agentName must match ^[a-z]+$',
    ],
    [
      'a whole value of the wrong type',
      [{ keyword: 'type', instancePath: '', params: { type: 'object' } }],
      'body',
      'body must be an object',
    ],
    [
      'a keyword without a sentence of its own: its message',
      [{ keyword: 'uniqueItems', instancePath: '/tags', message: 'must not have duplicate items' }],
      'body',
      'body.tags must not have duplicate items',
    ],
  ];
  for (const [what, failures, dataVar, sentence] of cases) {
    it(`names the field: ${what}`, () => {
      assert.equal(schemaErrorSentence(failures, dataVar), sentence);
    });
  }
});
