import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { logMailer, packageInfo, silentLogger } from '@paddock/common';
import { compileErrors, validate } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { dashboardContext } from '../src/assemble.js';
import { AUTH_MODES, loadDashboardConfig, type AuthMode } from '../src/config.js';
import { WEB_ROUTES } from '../src/http/web-routes.js';
import { createDashboardApp, type DashboardApp } from '../src/http/app.js';
import { ERROR_STATUS } from '../src/http/errors.js';
import { everyModeDocument } from '../src/http/openapi-every-mode.js';
import { openApiDocument, toYaml } from '../src/http/openapi-routes.js';
import type { OAuthLogin } from '../src/oauth/login.js';
import { openStore } from '../src/store/open.js';
import {
  ADMIN_PASSWORD,
  Client,
  errorOf,
  startDashboard,
  type Answer,
  type RunningDashboard,
} from '@paddock/testing';

const SECRET = 'openapi-test-session-secret-of-32-characters-or-more';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Response {
  description: string;
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required: boolean; content: Record<string, { schema?: unknown }> };
  responses: Record<string, Response | { $ref: string }>;
  'x-paddock-access': 'public' | 'authenticated' | 'page';
  'x-paddock-auth-modes'?: AuthMode[];
}
interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  tags: Array<{ name: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type?: string; in?: string; name?: string; scheme?: string }>;
  };
}

/** What each mode needs beside SVC_AUTH_MODE for its configuration to load. */
const MODE_ENV: Record<AuthMode, Record<string, string>> = {
  anonymous: {},
  proxy: {},
  oauth: {
    SVC_BASE_URL: 'https://dashboard.example',
    SVC_OAUTH_CLIENT_ID: 'dashboard',
    SVC_OAUTH_ISSUER_URL: 'https://issuer.example',
  },
  builtin: {},
};

/** The Host each mode's app answers to: SVC_BASE_URL's host, else the default listen address. */
const hostOf = (mode: AuthMode) => (mode === 'oauth' ? 'dashboard.example' : '127.0.0.1:3000');

const notHere = () => Promise.reject(new Error('no OAuth provider in this test'));

/** The OAuth client of oauth mode, for an app whose OAuth routes are listed but never followed. */
const NO_PROVIDER: OAuthLogin = {
  startLogin: notHere,
  finishLogin: notHere,
  refresh: notHere,
  endSessionUrl: () => undefined,
  verifyBearer: notHere,
};

interface BuiltApp extends DashboardApp {
  close: () => Promise<void>;
}

/**
 * The dashboard's real app in one mode, made as main() makes it (accounts in builtin mode, an
 * OAuth client in oauth mode), on an in-memory store and without a cluster.
 */
async function dashboardApp(mode: AuthMode): Promise<BuiltApp> {
  const config = loadDashboardConfig(
    { SVC_AUTH_MODE: mode, SVC_SESSION_SECRET: SECRET, ...MODE_ENV[mode] },
    { randomSecret: () => SECRET },
  );
  const logger = silentLogger();
  const store = await openStore({ kind: 'sqlite', path: ':memory:' });
  const ctx = dashboardContext(config, {
    store,
    logger,
    ...(mode === 'builtin' ? { mailer: logMailer(logger) } : {}),
    ...(mode === 'oauth' ? { oauth: NO_PROVIDER } : {}),
  });
  try {
    const built = await createDashboardApp(ctx);
    await built.app.ready();
    return {
      ...built,
      close: async () => {
        await built.app.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** A fastify path in OpenAPI syntax: `:name` → `{name}`. */
function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\/\*$/, '/{sandboxPath}');
}

/** Every operation of the document with its method and path. */
function operations(doc: OpenApiDocument): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((m) => {
      const op = item[m];
      return op === undefined ? [] : [{ method: m.toUpperCase(), path, op }];
    }),
  );
}

const existsIn = (op: Operation, mode: AuthMode) =>
  op['x-paddock-auth-modes'] === undefined || op['x-paddock-auth-modes'].includes(mode);

/** `METHOD /path` of every operation the document says exists in a mode. */
function describedIn(doc: OpenApiDocument, mode: AuthMode): string[] {
  return operations(doc)
    .filter(({ op }) => existsIn(op, mode))
    .map(({ method, path }) => `${method} ${path}`);
}

/**
 * `METHOD /path` of every API route an app registered, the HEAD twins of GET routes and the web
 * interface's pages and files left out.
 */
function registered(routes: DashboardApp['routes']): string[] {
  return routes
    .filter((r) => r.method !== 'HEAD' && !(WEB_ROUTES as readonly string[]).includes(r.url))
    .map((r) => `${r.method} ${openApiPath(r.url)}`);
}

/** What the app has that the document lacks, and the other way round. */
function differences(
  routes: readonly string[],
  described: readonly string[],
): { missing: string[]; extra: string[] } {
  return {
    missing: routes.filter((k) => !described.includes(k)),
    extra: described.filter((k) => !routes.includes(k)),
  };
}

/** The value a local `$ref` points at, or undefined. */
function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Every `$ref` in a value, wherever it sits. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' ? [v] : refsIn(v),
  );
}

/** The document of every mode (the web interface's types are made from it), as YAML parsed back. */
const served = parse(toYaml(await everyModeDocument())) as OpenApiDocument;

/** The document one app serves. */
const documentOf = (app: BuiltApp) => openApiDocument(app.app) as unknown as OpenApiDocument;

describe('the OpenAPI description and the routes the app registers', () => {
  const apps = new Map<AuthMode, BuiltApp>();
  before(async () => {
    for (const mode of AUTH_MODES) apps.set(mode, await dashboardApp(mode));
  });
  after(async () => {
    for (const app of apps.values()) await app.close();
  });

  for (const mode of AUTH_MODES) {
    it(`describes exactly the routes of ${mode} mode, method by method`, () => {
      const app = apps.get(mode)!;
      const routes = registered(app.routes);
      assert.equal(new Set(routes).size, routes.length, 'no route registered twice');
      const own = documentOf(app);
      // The app's own document, and the routes of this mode in the document of every mode.
      assert.deepEqual(differences(routes, describedIn(own, mode)), { missing: [], extra: [] });
      assert.deepEqual(differences(routes, describedIn(served, mode)), { missing: [], extra: [] });
      assert.deepEqual(
        operations(own).map(({ op }) => op),
        operations(own).map(
          ({ method, path }) => served.paths[path]![method.toLowerCase() as 'get'],
        ),
        'the same operations as the document of every mode',
      );
    });
  }

  it('registers HEAD only as the twin of a GET route', () => {
    const { routes } = apps.get('anonymous')!;
    const gets = routes.filter((r) => r.method === 'GET').map((r) => r.url);
    const heads = routes.filter((r) => r.method === 'HEAD').map((r) => r.url);
    assert.deepEqual(heads.sort(), gets.sort());
  });

  it('describes every route of every mode, and nothing else', () => {
    const union = new Set(AUTH_MODES.flatMap((mode) => registered(apps.get(mode)!.routes)));
    assert.deepEqual(
      differences(
        [...union],
        operations(served).map(({ method, path }) => `${method} ${path}`),
      ),
      { missing: [], extra: [] },
    );
  });

  it('would notice a route added to the app or left in the document', () => {
    const routes = registered(apps.get('anonymous')!.routes);
    const described = describedIn(served, 'anonymous');
    assert.deepEqual(differences([...routes, 'GET /api/new/{name}'], described), {
      missing: ['GET /api/new/{name}'],
      extra: [],
    });
    const left = routes.filter((r) => r !== 'GET /api/auth/me');
    assert.deepEqual(differences(left, described), { missing: [], extra: ['GET /api/auth/me'] });
  });

  it('takes a JSON body on every route that changes things, and answers JSON where it answers a body', () => {
    // The only state-changing operations without a body: they act on the caller's session.
    const bodiless = ['logout', 'logoutEverywhere', 'refreshOAuthSession', 'startOAuthLoginForm'];
    for (const { method, path, op } of operations(served)) {
      // The door passes bodies on to a pod unread.
      const door = op.tags.includes('door');
      if (
        ['POST', 'PUT', 'PATCH'].includes(method) &&
        !door &&
        !bodiless.includes(op.operationId)
      ) {
        assert.ok(op.requestBody?.content['application/json']?.schema, `${method} ${path} body`);
      }
      const successes = Object.entries(op.responses).filter(([status]) => Number(status) < 400);
      assert.ok(successes.length > 0, `${method} ${path} answers`);
      for (const [status, response] of successes) {
        assert.ok(!('$ref' in response));
        if (Number(status) >= 300) continue;
        const types = Object.keys(response.content ?? {});
        assert.ok(types.length > 0, `${method} ${path} ${status} has a body`);
        for (const type of types) {
          assert.ok(response.content![type]!.schema, `${method} ${path} ${status} ${type} schema`);
        }
      }
    }
  });

  it('serves the description without a credential in every mode', async () => {
    for (const [mode, { app }] of apps) {
      for (const [path, type] of [
        ['/api/openapi.json', 'application/json; charset=utf-8'],
        ['/api/openapi.yaml', 'application/yaml; charset=utf-8'],
      ] as const) {
        const res = await app.inject({ method: 'GET', url: path, headers: { host: hostOf(mode) } });
        assert.equal(res.statusCode, 200, `${mode} ${path}`);
        assert.equal(res.headers['content-type'], type, `${mode} ${path}`);
      }
      const me = await app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { host: hostOf(mode) },
      });
      assert.equal(me.statusCode, mode === 'anonymous' ? 200 : 401, mode);
    }
  });
});

describe('the OpenAPI description is valid OpenAPI 3.1', () => {
  it('passes the OpenAPI 3.1 validator', async () => {
    const result = await validate(structuredClone(served) as Parameters<typeof validate>[0]);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.deepEqual(result.warnings, []);
    assert.equal(served.openapi, '3.1.0');
  });

  it('carries the package version', () => {
    assert.equal(served.info.version, packageInfo(import.meta.url).version);
  });

  it('resolves every $ref', () => {
    const refs = refsIn(served);
    assert.ok(refs.length > 0);
    for (const ref of new Set(refs)) assert.notEqual(resolve(served, ref), undefined, ref);
  });

  it('names every operation once', () => {
    const ids = operations(served).map(({ op }) => op.operationId);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });

  it('declares every path parameter, required, and no other', () => {
    for (const { method, path, op } of operations(served)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? [])
        .map((p) => ('$ref' in p ? (resolve(served, p.$ref) as Parameter) : p))
        .filter((p) => p.in === 'path');
      assert.deepEqual(
        declared.map((p) => p.name),
        names,
        `${method} ${path}`,
      );
      for (const p of declared) assert.equal(p.required, true, `${method} ${path} ${p.name}`);
    }
  });

  it('tags every operation with a declared tag, and uses every tag', () => {
    const declared = served.tags.map((t) => t.name);
    const used = new Set(operations(served).flatMap(({ op }) => op.tags));
    for (const tag of used) assert.ok(declared.includes(tag), tag);
    assert.deepEqual(
      declared.filter((t) => !used.has(t)),
      [],
    );
  });

  it('answers each error code on the status of ERROR_STATUS, in the one error shape', () => {
    for (const { method, path, op } of operations(served)) {
      for (const [status, response] of Object.entries(op.responses)) {
        // The readiness probe answers its own shape when not ready.
        if (Number(status) < 400 || (path === '/readyz' && status === '503')) continue;
        assert.ok(!('$ref' in response), `${method} ${path} ${status}`);
        const schema = response.content?.['application/json']?.schema as {
          allOf: unknown[];
          properties: { error: { enum: string[] } };
        };
        assert.deepEqual(schema.allOf, [{ $ref: '#/components/schemas/Error' }]);
        for (const code of schema.properties.error.enum) {
          assert.equal(
            String(ERROR_STATUS[code as keyof typeof ERROR_STATUS]),
            status,
            `${method} ${path}: ${code}`,
          );
        }
      }
      if (op['x-paddock-access'] === 'authenticated') {
        assert.ok(op.responses['401'], `${method} ${path} documents 401`);
      }
    }
  });

  it('marks public operations in their security, and only them', () => {
    for (const { method, path, op } of operations(served)) {
      const anonymous = (op.security ?? served.security).some((r) => Object.keys(r).length === 0);
      assert.equal(anonymous, op['x-paddock-access'] === 'public', `${method} ${path}`);
    }
    const schemes = served.components.securitySchemes;
    assert.deepEqual(schemes.sessionCookie, {
      ...schemes.sessionCookie,
      type: 'apiKey',
      in: 'cookie',
      name: 'svc_session',
    });
    assert.deepEqual(
      ['apiKeyHeader', 'proxyUser', 'proxyEmail', 'proxyGroups', 'proxyDisplayName'].map((name) => [
        schemes[name]?.type,
        schemes[name]?.in,
        schemes[name]?.name,
      ]),
      [
        ['apiKey', 'header', 'X-API-Key'],
        ['apiKey', 'header', 'X-Forwarded-User'],
        ['apiKey', 'header', 'X-Forwarded-Email'],
        ['apiKey', 'header', 'X-Forwarded-Groups'],
        ['apiKey', 'header', 'X-Forwarded-Preferred-Username'],
      ],
    );
    for (const name of ['apiKeyBearer', 'jwtBearer']) {
      assert.equal(schemes[name]?.type, 'http');
      assert.equal(schemes[name]?.scheme, 'bearer');
    }
  });

  it('is one document, as YAML and as JSON', async () => {
    const built = JSON.parse(JSON.stringify(await everyModeDocument())) as unknown;
    assert.deepEqual(served, built);
  });
});

describe('the description served by the compiled dashboard', () => {
  let dashboard: RunningDashboard;
  before(async () => {
    // builtin mode: without a session cookie only the public routes answer.
    dashboard = await startDashboard({ SVC_AUTH_MODE: 'builtin' });
  });
  after(() => dashboard.stop());

  it('serves the same document as YAML and as JSON, without authentication', async () => {
    const yamlRes = await fetch(`${dashboard.base}/api/openapi.yaml`);
    assert.equal(yamlRes.status, 200);
    assert.equal(yamlRes.headers.get('content-type'), 'application/yaml; charset=utf-8');
    const jsonRes = await fetch(`${dashboard.base}/api/openapi.json`);
    assert.equal(jsonRes.status, 200);
    assert.equal(jsonRes.headers.get('content-type'), 'application/json; charset=utf-8');
    const fromYaml = parse(await yamlRes.text()) as OpenApiDocument;
    assert.deepEqual(fromYaml, await jsonRes.json());
    // builtin mode's document: the document of every mode without the routes of oauth mode.
    const builtinOnly = operations(served).filter(({ op }) => existsIn(op, 'builtin'));
    assert.deepEqual(
      operations(fromYaml)
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
      builtinOnly.map(({ method, path }) => `${method} ${path}`).sort(),
    );
    assert.deepEqual(fromYaml.components, served.components);
    const me = await fetch(`${dashboard.base}/api/auth/me`);
    assert.equal(me.status, 401, 'the other routes do want a credential');
  });

  it('has a route for every operation of its mode, public exactly where described', async () => {
    // Without a credential every route but the public ones answers 401, a missing one included;
    // signed in, a missing route is the not-found handler's 404.
    const admin = new Client(dashboard.base);
    const login = await admin.post('/api/auth/builtin/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    assert.equal(login.status, 200);
    for (const { method, path, op } of operations(served)) {
      const url = path.replace(/\{\w+\}/g, 'x');
      const json = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const anonymous = await new Client(dashboard.base).request(method, url, { json });
      const what = (answer: Answer) =>
        `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
      // This mode's public routes are only called without a credential: signed in, logout would
      // end the session the rest of the loop uses.
      if (op['x-paddock-access'] === 'public' && existsIn(op, 'builtin')) {
        assert.notEqual(errorOf(anonymous), 'unauthorized', what(anonymous));
        assert.notEqual(anonymous.status, 404, what(anonymous));
        continue;
      }
      assert.equal(errorOf(anonymous), 'unauthorized', what(anonymous));
      const signedIn = await admin.request(method, url, { json });
      const noRoute =
        signedIn.status === 404 &&
        ((signedIn.body as { message?: string }).message ?? '').startsWith('no route for');
      assert.equal(noRoute, !existsIn(op, 'builtin'), what(signedIn));
      // Signing out everywhere ended the session the rest of the loop uses: sign in again.
      if (op.operationId === 'logoutEverywhere') {
        const again = await admin.post('/api/auth/builtin/login', {
          username: 'admin',
          password: ADMIN_PASSWORD,
        });
        assert.equal(again.status, 200);
      }
    }
  });
});
