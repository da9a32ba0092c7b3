import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { CHROMIUM_PATH, tempDir } from '@paddock/testing';
import { chromium, type Page } from 'playwright-core';
import { parse } from 'yaml';
import { DOCS_CSP, etagMatches, INIT_SCRIPT_NAME } from '../src/api/docs.js';
import { silentLogger } from '@paddock/common';
import type { FastifyInstance } from 'fastify';
import { createApiListener, type FeatureModule } from '../src/api/listener.js';
import { apiModules } from '../src/api/modules.js';
import { openApiDescription } from '../src/api/openapi.js';
import {
  API_ROUTES,
  enabledBy,
  FEATURE_FLAGS,
  isEnabled,
  type EnabledFeatures,
  type RouteSpec,
} from '../src/api/routes.js';
import { Workspace } from '../src/workspace/containment.js';
import { as, startApiSandbox, type RunningApiSandbox } from './support/sandbox.js';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const SCREENSHOT = join(REPO_ROOT, 'test-artifacts', 'sandbox-api-docs.png');
/** Time for headless Chromium to start, load the 1.7 MB bundle and render. */
const BROWSER_TIMEOUT_MS = 60_000;
const HTTP_METHODS = ['get', 'post', 'delete'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

interface Schema {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}
interface Operation {
  description: string;
  'x-paddock-feature': string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: Schema }>; headers?: object }
  >;
}
interface OpenApiDocument {
  openapi: string;
  info: { description: string };
  security: Array<Record<string, string[]>>;
  paths: Record<string, Partial<Record<HttpMethod, Operation>>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
  };
}

/** A fastify path in OpenAPI syntax: `:id` → `{id}`, a trailing `*` → `{*}`. */
function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\*$/, '{*}');
}

/** `METHOD /path` for every operation of a document. */
function documentOperations(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

function operationOf(doc: OpenApiDocument, route: RouteSpec): Operation {
  const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase() as HttpMethod];
  assert.ok(op, `${route.method} ${route.path} is described`);
  return op;
}

const ALL: EnabledFeatures = { api: true, exec: true, portForward: true, ssh: true };
const NONE: EnabledFeatures = { api: false, exec: false, portForward: false, ssh: false };

/** The routes a listener mounts with these flags (and these modules), as `METHOD path`. */
async function mountedRoutes(
  features: EnabledFeatures,
  modules?: FeatureModule[],
): Promise<string[]> {
  const folder = await tempDir();
  try {
    const listener = await createApiListener({
      workspace: await Workspace.open(folder.path),
      features,
      devMode: true,
      logger: silentLogger(),
      audit: () => {},
      childEnv: {},
      modules: modules ?? (await apiModules(features)),
    });
    await listener.close();
    return [...listener.mounted];
  } finally {
    await folder.remove();
  }
}

/** The document as served: the YAML text parsed back. */
const { document, yaml } = await openApiDescription();
const served = parse(yaml) as OpenApiDocument;

describe('the OpenAPI description, generated from the route table', () => {
  it('describes exactly the routes a listener with every feature mounts, method by method', async () => {
    const mounted = (await mountedRoutes(ALL)).map((r) => {
      const [method, path] = r.split(' ') as [string, string];
      return `${method} ${openApiPath(path)}`;
    });
    assert.deepEqual(documentOperations(served).sort(), mounted.sort());
    assert.equal(mounted.length, API_ROUTES.length);
  });

  it('mounts exactly the routes of API_ROUTES that the flags enable, nothing besides', async () => {
    const cases: EnabledFeatures[] = [ALL, NONE, { ...NONE, api: true }, { ...NONE, ssh: true }];
    for (const features of cases) {
      const table = API_ROUTES.filter((r) => isEnabled(r.feature, features)).map(
        (r) => `${r.method} ${r.path}`,
      );
      assert.deepEqual(
        (await mountedRoutes(features)).sort(),
        table.sort(),
        JSON.stringify(features),
      );
    }
  });

  it('refuses a module that mounts a route without its schema from the table', async () => {
    const unlisted: FeatureModule = (app: FastifyInstance) => {
      app.get('/api/tree', () => ({}));
      return Promise.resolve();
    };
    await assert.rejects(
      mountedRoutes(NONE, [unlisted]),
      /GET \/api\/tree is not mounted with its schema/,
    );
  });

  it('names the enabling flag of every route, in x-paddock-feature and the description', () => {
    for (const route of API_ROUTES) {
      const op = operationOf(served, route);
      assert.equal(op['x-paddock-feature'], route.feature, route.path);
      assert.ok(op.description.startsWith(enabledBy(route.feature)), route.path);
      assert.ok(op.description.includes(FEATURE_FLAGS[route.feature]), route.path);
    }
  });

  it('documents 401 and 405 everywhere, with the one error body', () => {
    const errorBody = {
      type: 'object',
      required: ['error', 'message'],
      properties: {
        error: { type: 'string', description: 'A stable code', examples: ['not_found'] },
        message: { type: 'string', description: 'What went wrong, for people' },
      },
    };
    for (const route of API_ROUTES) {
      const op = operationOf(served, route);
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^[45]/.test(status)) continue;
        const schema = response.content?.['application/json']?.schema;
        assert.deepEqual(
          { type: schema?.type, required: schema?.required, properties: schema?.properties },
          errorBody,
          `${route.path} ${status}`,
        );
      }
      assert.ok(op.responses['401'], route.path);
      assert.ok(op.responses['405']?.headers, route.path);
    }
  });

  it('has the request and response bodies of every route that takes or answers JSON', () => {
    const jsonAnswers = ['/api/tree', '/api/ssh-authorized-keys', '/api/ssh-port'];
    for (const route of API_ROUTES) {
      const op = operationOf(served, route);
      if (route.schema.body !== undefined) {
        const body = op.requestBody?.content['application/json']?.schema;
        assert.deepEqual(body?.required, ['publicKey'], route.path);
      }
      const success = Object.entries(op.responses).filter(([status]) => /^[12]/.test(status));
      assert.ok(success.length > 0, route.path);
      for (const [status, response] of success) {
        const bodiless = route.websocket === true || status === '204';
        assert.equal(response.content === undefined, bodiless, `${route.path} ${status}`);
        if (jsonAnswers.includes(route.path) && !bodiless) {
          const schema = response.content?.['application/json']?.schema;
          assert.equal(schema?.type, 'object', `${route.path} ${status}`);
          assert.ok(Object.keys(schema?.properties ?? {}).length > 0, `${route.path} ${status}`);
        }
      }
    }
  });

  it('lists the data of the change events under components, as the events route names it', () => {
    assert.deepEqual(served.components.schemas.FileEvent?.required, [
      'type',
      'path',
      'kind',
      'time',
    ]);
    assert.match(served.paths['/api/events']?.get?.description ?? '', /JSON `FileEvent` as data/);
  });

  it('declares every path parameter of the table', () => {
    for (const route of API_ROUTES) {
      const names = [...openApiPath(route.path).matchAll(/\{([\w*]+)\}/g)].map((m) => m[1]);
      const declared = (operationOf(served, route).parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      assert.deepEqual(declared, names, route.path);
    }
  });

  it('describes the WebSocket framings of exec and port-forward', () => {
    for (const route of API_ROUTES.filter((r) => r.websocket)) {
      const op = operationOf(served, route);
      assert.ok(op.responses['101'], route.path);
      assert.ok(op.responses['426'], route.path);
      assert.match(op.description, /Binary frames\*\* carry raw/);
    }
    const exec = served.paths['/api/exec']?.get?.description ?? '';
    for (const text of [
      '"type":"resize"',
      '"type":"signal"',
      '"type":"exit"',
      'exactly once',
      '1000',
    ])
      assert.ok(exec.includes(text), text);
    const forward = served.paths['/api/port-forward']?.get?.description ?? '';
    for (const text of ['1003', '1011', '1000', '1..65535', '400 before the upgrade'])
      assert.ok(forward.includes(text), text);
  });

  it('documents the proof and identity headers as apiKey schemes, the proof required by every operation', () => {
    const schemes = served.components.securitySchemes;
    assert.deepEqual(
      Object.values(schemes).map((s) => [s.type, s.in, s.name]),
      [
        ['apiKey', 'header', 'X-Paddock-Proof'],
        ['apiKey', 'header', 'X-Forwarded-Sub'],
        ['apiKey', 'header', 'X-Forwarded-User'],
        ['apiKey', 'header', 'X-Forwarded-Groups'],
      ],
    );
    for (const requirement of served.security) assert.ok('proxyProof' in requirement);
    assert.match(served.info.description, /Never expose this listener directly/);
  });

  it('passes the OpenAPI 3.1 validator', async () => {
    const result = await validate(parse(yaml) as Parameters<typeof validate>[0]);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.deepEqual(result.warnings, []);
    assert.equal(served.openapi, '3.1.0');
  });

  it('serves the same document as the one generated', () => {
    assert.deepEqual(served, JSON.parse(JSON.stringify(document)));
  });
});

describe('ETag matching of the docs assets', () => {
  it('matches lists, weak tags and *, and nothing else', () => {
    assert.ok(etagMatches('"abc"', '"abc"'));
    assert.ok(etagMatches('"x", W/"abc"', '"abc"'));
    assert.ok(etagMatches('*', '"abc"'));
    assert.ok(!etagMatches('"abd"', '"abc"'));
    assert.ok(!etagMatches(undefined, '"abc"'));
  });
});

describe('the self-description on a sandbox without feature flags', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: RunningApiSandbox;
  before(async () => {
    dir = await tempDir();
    sandbox = await startApiSandbox(dir.path, []);
  });
  after(async () => {
    await sandbox.stop();
    await dir.remove();
  });

  it('serves /api/openapi.yaml as YAML to an identified caller', async () => {
    const res = await fetch(`${sandbox.apiBase}/api/openapi.yaml`, { headers: as('alice') });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/yaml; charset=utf-8');
    assert.deepEqual(parse(await res.text()), served);
  });

  it('serves /api/docs as HTML under a strict Content-Security-Policy', async () => {
    const res = await fetch(`${sandbox.apiBase}/api/docs`, { headers: as('alice') });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('content-security-policy'), DOCS_CSP);
    assert.match(DOCS_CSP, /script-src 'self';/);
    assert.match(DOCS_CSP, /style-src 'self';/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script>|<style|style=|https?:\/\//);
    assert.match(html, /<script src="docs\/assets\/swagger-ui-bundle\.js\?v=[0-9a-f]{16}">/);
  });

  it('answers 401 without identity headers', async () => {
    for (const path of ['/api/openapi.yaml', '/api/docs', '/api/docs/assets/swagger-ui.css']) {
      const res = await fetch(`${sandbox.apiBase}${path}`);
      assert.equal(res.status, 401, path);
      assert.equal(((await res.json()) as { error: string }).error, 'unauthorized');
    }
  });

  it('serves the allow-listed assets with their types, ETags and cache rules', async () => {
    const html = await (
      await fetch(`${sandbox.apiBase}/api/docs`, { headers: as('alice') })
    ).text();
    const links = [...html.matchAll(/(?:href|src)="(docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(links.length, 5);
    const types: Record<string, string> = {
      css: 'text/css; charset=utf-8',
      js: 'text/javascript; charset=utf-8',
      png: 'image/png',
    };
    for (const link of links) {
      const res = await fetch(`${sandbox.apiBase}/api/${link}`, { headers: as('alice') });
      assert.equal(res.status, 200, link);
      const extension = /\.(\w+)\?/.exec(link)![1]!;
      assert.equal(res.headers.get('content-type'), types[extension], link);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', link);
      const etag = res.headers.get('etag')!;
      assert.equal(etag, `"${link.split('?v=')[1]}"`);
      assert.ok((await res.arrayBuffer()).byteLength > 0);

      const unversioned = `${sandbox.apiBase}/api/${link.split('?')[0]}`;
      const again = await fetch(unversioned, {
        headers: { ...as('alice'), 'if-none-match': etag },
      });
      assert.equal(again.status, 304, link);
      assert.equal(again.headers.get('cache-control'), 'no-cache');
    }
    const init = await fetch(`${sandbox.apiBase}/api/docs/assets/${INIT_SCRIPT_NAME}`, {
      headers: as('alice'),
    });
    assert.match(await init.text(), /SwaggerUIBundle\(/);
  });

  it('answers 404 for any other asset name, traversal attempts included', async () => {
    for (const name of [
      'index.html',
      'swagger-ui.js',
      'package.json',
      '../package.json',
      '..%2fpackage.json',
      '%2e%2e/%2e%2e/package.json',
      'swagger-ui.css/',
      'SWAGGER-UI.CSS',
      '',
    ]) {
      const res = await fetch(`${sandbox.apiBase}/api/docs/assets/${name}`, {
        headers: as('alice'),
      });
      assert.equal(res.status, 404, name);
      assert.equal(((await res.json()) as { error: string }).error, 'not_found', name);
    }
  });

  it(
    'renders the description in headless Chromium with every outside request blocked',
    { timeout: BROWSER_TIMEOUT_MS * 2 },
    async () => {
      const profile = await tempDir('paddock-chromium-');
      const context = await chromium.launchPersistentContext(profile.path, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
        viewport: { width: 1280, height: 900 },
      });
      try {
        const origin = sandbox.apiBase;
        const aborted: string[] = [];
        const problems: string[] = [];
        await context.route('**/*', (route) => {
          const url = route.request().url();
          if (url === origin || url.startsWith(`${origin}/`)) return route.continue();
          aborted.push(url);
          return route.abort();
        });
        await context.setExtraHTTPHeaders(as('alice'));
        const page = await context.newPage();
        page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
        page.on('console', (msg) => {
          if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
        });
        page.setDefaultTimeout(BROWSER_TIMEOUT_MS);

        const response = await page.goto(`${origin}/api/docs`);
        assert.equal(response?.status(), 200);
        await summaryPath(page, '/api/port-forward').waitFor({ state: 'visible' });
        for (const path of [
          '/api/tree',
          '/api/exec',
          '/api/ssh-authorized-keys',
          '/api/docs/assets/{*}',
        ])
          assert.ok(await summaryPath(page, path).first().isVisible(), path);

        // An operation opens on a click and shows its description: the exec framing, here.
        await summaryPath(page, '/api/exec').click();
        await page
          .getByText('Binary frames', { exact: false })
          .first()
          .waitFor({ state: 'visible' });

        await mkdir(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        assert.deepEqual(aborted, []);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
        await profile.remove();
      }
    },
  );
});

/**
 * An operation's path as Swagger UI shows it. It puts a zero-width space before every `/` so
 * that long paths can wrap, hence the pattern rather than the plain text.
 */
function summaryPath(page: Page, path: string) {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\//g, '\u200b?/');
  return page.getByText(new RegExp(`^${escaped}$`));
}
