import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ToolHandler } from '@paddock/kube';
import { freePort } from '@paddock/testing';
import { discoverHandlerTools, type CallableTool } from '../src/index.js';
import {
  ECHO_SCHEMA,
  startGrpc,
  startHttp,
  startMcp,
  type RunningGrpc,
  type RunningHttp,
  type RunningMcp,
} from './support/servers.js';

const PETS = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{petId}/notes': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: 'addNote',
        summary: 'Adds a note to a pet',
        parameters: [
          { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Note: {
        type: 'object',
        required: ['text'],
        properties: { text: { type: 'string' }, replies: { $ref: '#/components/schemas/Note' } },
      },
    },
  },
};

let mcp: RunningMcp;
let http: RunningHttp;
let grpc: RunningGrpc;

before(async () => {
  [mcp, http, grpc] = await Promise.all([startMcp(), startHttp(PETS), startGrpc()]);
});

after(async () => {
  await Promise.all([mcp.stop(), http.stop(), grpc.stop()]);
});

const context = { namespace: 'team' };
const byName = (tools: CallableTool[], name: string) => tools.find((tool) => tool.name === name);

describe('discovery with schemas and call targets', () => {
  it('lists an MCP server tools with their descriptions and schemas, over SSE and streamable HTTP', async () => {
    for (const [path, transport] of [
      ['/sse', 'sse'],
      ['/mcp', 'streamable-http'],
    ] as const) {
      const handler: ToolHandler = {
        name: 'tools',
        type: 'mcp',
        timeout: '5s',
        mcpConfig: { transport: 'sse', endpoint: `${mcp.base}${path}` },
      };
      const found = await discoverHandlerTools(handler, context);
      assert.deepEqual(
        found.callable.map((tool) => tool.name),
        ['echo', 'fail', 'big', 'slow'],
      );
      assert.deepEqual(byName(found.callable, 'echo'), {
        handlerName: 'tools',
        name: 'echo',
        description: 'Echoes text',
        inputSchema: ECHO_SCHEMA,
        target: {
          type: 'mcp',
          connection: { transport, url: `${mcp.base}${path}` },
          tool: 'echo',
          timeoutMs: 5000,
        },
      });
      assert.equal(found.tools.length, 4);
    }
  });

  it('gives an http tool its declared schema and the handler method, headers, content type and timeout', async () => {
    const handler: ToolHandler = {
      name: 'calc',
      type: 'http',
      endpoint: { url: `${http.base}/add` },
      tool: { name: 'add', description: 'Adds', inputSchema: ECHO_SCHEMA },
      httpConfig: {
        method: 'PUT',
        headers: { 'x-api-key': 'k1' },
        contentType: 'application/x-calc',
        timeout: '3s',
      },
    };
    const found = await discoverHandlerTools(handler, context);
    assert.deepEqual(found.callable, [
      {
        handlerName: 'calc',
        name: 'add',
        description: 'Adds',
        inputSchema: ECHO_SCHEMA,
        target: {
          type: 'http',
          url: `${http.base}/add`,
          method: 'PUT',
          headers: { 'x-api-key': 'k1' },
          contentType: 'application/x-calc',
          timeoutMs: 3000,
        },
      },
    ]);
  });

  it('makes an openapi operation schema from its parameters and body, cutting a recursive schema', async () => {
    const handler: ToolHandler = {
      name: 'pets',
      type: 'openapi',
      timeout: '4s',
      openAPIConfig: {
        specURL: `${http.base}/openapi.json`,
        authType: 'bearer',
        authToken: 'tok',
        headers: { 'x-tenant': 'acme' },
      },
    };
    const found = await discoverHandlerTools(handler, context);
    const [tool] = found.callable;
    assert.equal(tool?.name, 'addNote');
    assert.equal(tool?.description, 'Adds a note to a pet');
    assert.deepEqual(tool?.inputSchema, {
      type: 'object',
      properties: {
        petId: { type: 'string' },
        verbose: { type: 'boolean' },
        'X-Trace': { type: 'string' },
        text: { type: 'string' },
        // The Note schema refers to itself: the loop is cut, accepting any value.
        replies: {},
      },
      required: ['petId', 'text'],
    });
    assert.deepEqual(tool?.target, {
      type: 'openapi',
      method: 'POST',
      urlTemplate: `${http.base}/pets/{petId}/notes`,
      parameters: [
        { name: 'petId', in: 'path' },
        { name: 'verbose', in: 'query' },
        { name: 'X-Trace', in: 'header' },
      ],
      body: 'object',
      headers: { 'x-tenant': 'acme', authorization: 'Bearer tok' },
      timeoutMs: 4000,
    });
    // The schema is plain data: it can be sent to a model.
    assert.doesNotThrow(() => JSON.stringify(tool?.inputSchema));
  });

  it('takes grpc schemas from ListTools, or the declared tool', async () => {
    const listed = await discoverHandlerTools(
      { name: 'rpc', type: 'grpc', endpoint: { url: grpc.address } },
      context,
    );
    assert.deepEqual(
      listed.callable.map((tool) => [tool.name, tool.description, tool.inputSchema]),
      [
        ['echo', 'Echoes text', ECHO_SCHEMA],
        ['bare', 'Declares no schema', { type: 'object' }],
      ],
    );
    assert.deepEqual(listed.callable[0]?.target, {
      type: 'grpc',
      address: grpc.address,
      tool: 'echo',
      timeoutMs: 10_000,
    });
    const declared = await discoverHandlerTools(
      {
        name: 'rpc',
        type: 'grpc',
        endpoint: { url: `http://${grpc.address}` },
        tool: { name: 'echo', description: 'Mine', inputSchema: { type: 'object', title: 'x' } },
      },
      context,
    );
    assert.deepEqual(
      declared.callable.map((tool) => [tool.name, tool.description, tool.inputSchema]),
      [['echo', 'Mine', { type: 'object', title: 'x' }]],
    );
  });

  it('offers nothing to call from a handler that cannot be reached, and reports why', async () => {
    const url = `http://127.0.0.1:${await freePort()}/sse`;
    const found = await discoverHandlerTools(
      { name: 'down', type: 'mcp', timeout: '2s', mcpConfig: { transport: 'sse', endpoint: url } },
      context,
    );
    assert.deepEqual(found.callable, []);
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /ECONNREFUSED|fetch failed/);
  });
});
