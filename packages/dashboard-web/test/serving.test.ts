import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, startDashboard, type RunningDashboard } from '@paddock/testing';
import { watchPage } from './support/journey.js';

let dashboard: RunningDashboard;
let browser: Browser;

before(async () => {
  [dashboard, browser] = await Promise.all([
    startDashboard({ SVC_AUTH_MODE: 'anonymous' }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await dashboard?.stop();
});

describe('the web interface as the dashboard serves it', () => {
  it('serves the page for every path outside /api/, revalidated, with the security headers', async () => {
    for (const path of ['/', '/login', '/workspaces/sample/agents']) {
      const answer = await fetch(`${dashboard.base}${path}`);
      assert.equal(answer.status, 200, path);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(answer.headers.get('cache-control'), 'no-cache');
      assert.match(answer.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      assert.equal(answer.headers.get('x-frame-options'), 'DENY');
      assert.match(await answer.text(), /<div id="root"><\/div>/);
    }
  });

  it('caches the hashed assets for good and answers a missing one 404', async () => {
    const html = await (await fetch(dashboard.base)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'the page names its script');
    const asset = await fetch(`${dashboard.base}${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await fetch(`${dashboard.base}/assets/missing.js`)).status, 404);
    const escaping = await fetch(`${dashboard.base}/assets/..%2f..%2fpackage.json`);
    assert.ok([403, 404].includes(escaping.status), String(escaping.status));
    assert.doesNotMatch(await escaping.text(), /dashboard-web/);
  });

  it('answers unknown API paths as the API does, never with the page', async () => {
    const answer = await fetch(`${dashboard.base}/api/nothing-here`);
    assert.equal(answer.status, 404);
    assert.deepEqual(Object.keys((await answer.json()) as object).sort(), ['error', 'message']);
  });

  it('runs in Chromium under the Content-Security-Policy without a complaint', async () => {
    const page = await browser.newPage();
    // Without a cluster the workspaces page gets its 503, which it shows; nothing else may fail.
    const problems = watchPage(page);
    await page.goto(dashboard.base);
    await page.getByRole('link', { name: /Paddock/ }).waitFor();
    assert.deepEqual(problems(), []);
    await page.close();
  });
});
