import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHttpApp, silentLogger } from '@paddock/common';
import { tempDir } from '@paddock/testing';
import type { FastifyInstance } from 'fastify';
import { isPagePath, PAGE_PATHS_FILE, registerWebRoutes, webRoot } from '../src/http/web-routes.js';

const PATTERNS = ['/', '/login', '/workspaces/:name/*', '/settings/api-keys'];

describe('which paths are pages of the web interface', () => {
  const cases: Array<[string, boolean]> = [
    ['/', true],
    ['/login', true],
    ['/login/', true],
    ['/workspaces/a', true],
    ['/workspaces/a/', true],
    ['/workspaces/a/agents/b/files', true],
    ['/settings/api-keys', true],
    ['/workspaces', false],
    ['/workspaces/', false],
    ['/metrics', false],
    ['/login/more', false],
    ['/settings', false],
    ['/favicon.ico', false],
    ['/wp-admin/setup.php', false],
  ];
  for (const [path, page] of cases) {
    it(`${path} is ${page ? '' : 'not '}a page`, () => {
      assert.equal(isPagePath(path, PATTERNS), page);
    });
  }
});

describe('the web routes', () => {
  let app: FastifyInstance;
  let remove: () => Promise<void>;
  before(async () => {
    const dir = await tempDir('paddock-web-root-');
    remove = dir.remove;
    await writeFile(join(dir.path, 'index.html'), '<div id="root"></div>');
    await writeFile(join(dir.path, PAGE_PATHS_FILE), JSON.stringify(PATTERNS));
    app = createHttpApp({ logger: silentLogger() });
    await registerWebRoutes(app, dir.path);
  });
  after(async () => {
    await app?.close();
    await remove?.();
  });

  it('answer the page for the pages and a 404 envelope for any other path', async () => {
    for (const url of ['/', '/login', '/workspaces/a/agents?tab=logs']) {
      const page = await app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
    }
    for (const url of ['/metrics', '/nothing/here?x=1']) {
      const missing = await app.inject({ url });
      assert.equal(missing.statusCode, 404, url);
      assert.deepEqual(missing.json(), {
        error: 'not_found',
        message: `no route for GET ${url.split('?')[0]}`,
      });
    }
  });

  it('are those the build of the web interface wrote', () => {
    const file = join(webRoot(), PAGE_PATHS_FILE);
    assert.ok(existsSync(file), `${file} is missing: run npm run build`);
    const written = JSON.parse(readFileSync(file, 'utf8')) as string[];
    for (const path of ['/', '/login', '/workspaces/:name/*']) assert.ok(written.includes(path));
  });
});
