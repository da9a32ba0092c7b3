import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutMarker, cutText, openApiRequest, type OpenApiTarget } from '../src/index.js';
import { operationTool, type OperationInput } from '../src/discover/openapi-operation.js';

const input = (operation: OperationInput['operation'], method = 'POST'): OperationInput => ({
  name: 'op',
  method,
  path: '/things',
  url: 'http://api.test/things',
  operation,
});

describe('an openapi operation as a tool', () => {
  const cases: {
    name: string;
    input: OperationInput;
    schema: Record<string, unknown>;
    body: OpenApiTarget['body'];
    description: string;
  }[] = [
    {
      name: 'no parameters, no body',
      input: input({}, 'GET'),
      schema: { type: 'object', properties: {} },
      body: 'none',
      description: 'GET /things',
    },
    {
      name: 'an array body is the body argument',
      input: input({
        description: 'Adds many',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } },
        },
      }),
      schema: {
        type: 'object',
        properties: { body: { type: 'array', items: { type: 'string' } } },
        required: ['body'],
      },
      body: 'wrapped',
      description: 'Adds many',
    },
    {
      name: 'Swagger 2 body and query parameters; a parameter wins over a body field',
      input: input({
        summary: 'Makes',
        parameters: [
          { name: 'id', in: 'query', type: 'integer', description: 'Which' },
          {
            name: 'payload',
            in: 'body',
            schema: { type: 'object', properties: { id: { type: 'string' }, size: {} } },
          },
        ],
      }),
      schema: {
        type: 'object',
        properties: { id: { type: 'integer', description: 'Which' }, size: {} },
      },
      body: 'object',
      description: 'Makes',
    },
    {
      name: 'Swagger 2 form fields are body fields',
      input: input({
        parameters: [{ name: 'color', in: 'formData', type: 'string', required: true }],
      }),
      schema: { type: 'object', properties: { color: { type: 'string' } } },
      body: 'object',
      description: 'POST /things',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const tool = operationTool(c.input);
      assert.deepEqual(tool.inputSchema, c.schema);
      assert.equal(tool.call.body, c.body);
      assert.equal(tool.description, c.description);
    });
  }
});

describe('the request an operation call makes', () => {
  const target = (extra: Partial<OpenApiTarget>): OpenApiTarget => ({
    type: 'openapi',
    method: 'POST',
    urlTemplate: 'http://api.test/a/{x}',
    parameters: [{ name: 'x', in: 'path' }],
    body: 'none',
    headers: {},
    timeoutMs: 1000,
    ...extra,
  });
  const cases: {
    name: string;
    target: OpenApiTarget;
    args: Record<string, unknown>;
    want: unknown;
  }[] = [
    {
      name: 'repeats an array query parameter and skips null ones',
      target: target({
        parameters: [
          { name: 'x', in: 'path' },
          { name: 'tag', in: 'query' },
          { name: 'none', in: 'query' },
        ],
      }),
      args: { x: 7, tag: ['a', 'b'], none: null },
      want: { url: 'http://api.test/a/7?tag=a&tag=b', method: 'POST', headers: {} },
    },
    {
      name: 'sends the body argument of a wrapped body',
      target: target({ body: 'wrapped' }),
      args: { x: 'y', body: [1, 2] },
      want: {
        url: 'http://api.test/a/y',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[1,2]',
      },
    },
    {
      name: 'sends no body with a GET',
      target: target({ method: 'GET', body: 'object' }),
      args: { x: 'y', extra: 1 },
      want: { url: 'http://api.test/a/y', method: 'GET', headers: {} },
    },
    {
      name: 'names a missing path parameter',
      target: target({}),
      args: {},
      want: { error: 'the path parameter x is missing' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(openApiRequest(c.target, c.args), c.want));
  }
});

describe('cutting answers', () => {
  const cases: [string, string, number, string][] = [
    ['keeps a short text', 'hello', 5, 'hello'],
    ['cuts at the byte limit', 'hello world', 5, `hello${cutMarker(5)}`],
    ['counts UTF-8 bytes, not characters', 'ééé', 4, `éé${cutMarker(4)}`],
  ];
  for (const [name, text, limit, want] of cases) {
    it(name, () => assert.equal(cutText(text, limit), want));
  }
});
