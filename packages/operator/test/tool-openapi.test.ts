import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ToolHandler } from '@paddock/kube';
import { freePort } from '@paddock/testing';
import { stringify } from 'yaml';
import { discoverHandler } from '../src/toolregistry/index.js';

/** OpenAPI 3 with $refs to shared parameters, request bodies and schemas; served as YAML. */
const openApi3 = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  servers: [{ url: 'https://{region}.pets.example/v1', variables: { region: { default: 'eu' } } }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: { '200': { $ref: '#/components/responses/PetList' } },
      },
      post: {
        operationId: 'createPet',
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
        },
        responses: { '201': { description: 'created' } },
      },
    },
    '/pets/{petId}': {
      parameters: [{ $ref: '#/components/parameters/PetId' }],
      get: {
        responses: {
          '200': {
            description: 'one pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
      delete: { operationId: 'deletePet', responses: { '204': { description: 'deleted' } } },
    },
  },
  components: {
    parameters: {
      PetId: { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
    },
    responses: {
      PetList: {
        description: 'pets',
        content: {
          'application/json': {
            schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
          },
        },
      },
    },
    schemas: {
      Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
  },
};

/** Swagger 2 with $refs to definitions and parameters; served as JSON. */
const swagger2 = {
  swagger: '2.0',
  info: { title: 'Stores', version: '1.0.0' },
  host: 'stores.example:8443',
  basePath: '/api',
  schemes: ['https'],
  paths: {
    '/stores': {
      get: {
        operationId: 'listStores',
        responses: {
          '200': {
            description: 'ok',
            schema: { type: 'array', items: { $ref: '#/definitions/Store' } },
          },
        },
      },
    },
    '/stores/{id}/open': {
      put: {
        parameters: [{ $ref: '#/parameters/StoreId' }],
        responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Store' } } },
      },
    },
  },
  parameters: { StoreId: { name: 'id', in: 'path', required: true, type: 'string' } },
  definitions: { Store: { type: 'object', properties: { name: { type: 'string' } } } },
};

let server: Server;
let base: string;
const seen = new Map<string, IncomingHttpHeaders>();

before(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.set(path, request.headers);
    if (path === '/openapi.yaml') {
      response.writeHead(200, { 'content-type': 'application/yaml' }).end(stringify(openApi3));
    } else if (path === '/swagger.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(swagger2));
    } else if (path === '/relative.json') {
      response.writeHead(200).end(JSON.stringify({ ...openApi3, servers: [{ url: '/v2' }] }));
    } else if (path === '/private.json') {
      const ok =
        request.headers.authorization === `Basic ${Buffer.from('robot:s3cret').toString('base64')}`;
      response.writeHead(ok ? 200 : 401).end(ok ? JSON.stringify(swagger2) : 'no');
    } else if (path === '/broken.yaml') {
      response
        .writeHead(200)
        .end(
          'openapi: 3.0.0\npaths:\n  /x:\n    get:\n      responses:\n        "200": { $ref: "#/components/responses/Missing" }\n',
        );
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const openApiHandler = (config: NonNullable<ToolHandler['openAPIConfig']>): ToolHandler => ({
  name: 'api',
  type: 'openapi',
  timeout: '3s',
  openAPIConfig: config,
});

const context = { namespace: 'team' };

describe('openapi tool discovery', () => {
  it('makes one tool per operation of an OpenAPI 3 YAML document, with bearer auth and headers sent', async () => {
    const found = await discoverHandler(
      openApiHandler({
        specURL: `${base}/openapi.yaml`,
        authType: 'bearer',
        authToken: 'tok-123',
        headers: { 'x-tenant': 'acme' },
      }),
      context,
    );
    assert.deepEqual(
      found.tools.map((t) => [t.name, t.status, t.endpoint]),
      [
        ['listPets', 'Available', 'https://eu.pets.example/v1/pets'],
        ['createPet', 'Available', 'https://eu.pets.example/v1/pets'],
        ['get_pets_petId', 'Available', 'https://eu.pets.example/v1/pets/{petId}'],
        ['deletePet', 'Available', 'https://eu.pets.example/v1/pets/{petId}'],
      ],
    );
    assert.equal(seen.get('/openapi.yaml')?.authorization, 'Bearer tok-123');
    assert.equal(seen.get('/openapi.yaml')?.['x-tenant'], 'acme');
  });

  it('makes one tool per operation of a Swagger 2 JSON document, based at its scheme, host and basePath', async () => {
    const found = await discoverHandler(
      openApiHandler({ specURL: `${base}/swagger.json` }),
      context,
    );
    assert.deepEqual(
      found.tools.map((t) => [t.name, t.endpoint]),
      [
        ['listStores', 'https://stores.example:8443/api/stores'],
        ['put_stores_id_open', 'https://stores.example:8443/api/stores/{id}/open'],
      ],
    );
    assert.equal(seen.get('/swagger.json')?.authorization, undefined);
  });

  it('keeps only the filtered operations and uses the baseURL override', async () => {
    const found = await discoverHandler(
      openApiHandler({
        specURL: `${base}/openapi.yaml`,
        operationFilter: ['listPets', 'get_pets_petId'],
        baseURL: 'http://pets.internal:8080/',
      }),
      context,
    );
    assert.deepEqual(
      found.tools.map((t) => [t.name, t.endpoint]),
      [
        ['listPets', 'http://pets.internal:8080/pets'],
        ['get_pets_petId', 'http://pets.internal:8080/pets/{petId}'],
      ],
    );
  });

  it('resolves a relative server URL against the document location', async () => {
    const found = await discoverHandler(
      openApiHandler({ specURL: `${base}/relative.json` }),
      context,
    );
    assert.equal(found.tools[0]?.endpoint, `${base}/v2/pets`);
  });

  it('sends basic credentials, encoding user:password', async () => {
    const found = await discoverHandler(
      openApiHandler({
        specURL: `${base}/private.json`,
        authType: 'basic',
        authToken: 'robot:s3cret',
      }),
      context,
    );
    assert.deepEqual(
      found.tools.map((t) => t.status),
      ['Available', 'Available'],
    );
    const refused = await discoverHandler(
      openApiHandler({ specURL: `${base}/private.json` }),
      context,
    );
    assert.equal(refused.tools[0]?.status, 'Unavailable');
    assert.match(refused.tools[0]?.error ?? '', /HTTP 401/);
  });

  it('reports a document with a broken $ref, a missing document and a server that is down as Unavailable', async () => {
    const down = `http://127.0.0.1:${await freePort()}/openapi.json`;
    const cases: [string, RegExp][] = [
      [`${base}/broken.yaml`, /Missing|resolve|pointer/i],
      [`${base}/nothing.json`, /HTTP 404/],
      [down, /ECONNREFUSED/],
    ];
    for (const [specURL, error] of cases) {
      const found = await discoverHandler(openApiHandler({ specURL }), context);
      assert.equal(found.tools.length, 1, specURL);
      assert.equal(found.tools[0]?.name, 'api');
      assert.equal(found.tools[0]?.status, 'Unavailable');
      assert.equal(found.tools[0]?.endpoint, specURL);
      assert.match(found.tools[0]?.error ?? '', error);
    }
  });
});
