import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  startDashboard,
  type RunningDashboard,
} from '@paddock/testing';
import { signInWithPassword, watchPage } from '../support/journey.js';

/** The attacker's site: requests to it are answered by the test, so none leaves the machine. */
const EVIL_HOST = 'evil.example';

/** returnTo values a browser would turn into a trip to evil.example, raw and as sent in a URL. */
const ATTACKS = [
  '/%09/evil.example',
  '/%0A/evil.example',
  '/%0D%0A/evil.example',
  '/%5Cevil.example',
  '/.//evil.example',
  '/%2e//evil.example',
  '/%252F%252Fevil.example',
];

let proxied: RunningDashboard;
let builtin: RunningDashboard;
let browser: Browser;

before(async () => {
  [proxied, builtin, browser] = await Promise.all([
    startDashboard({ SVC_AUTH_MODE: 'proxy' }),
    startDashboard({ SVC_AUTH_MODE: 'builtin' }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await proxied?.stop();
  await builtin?.stop();
});

/** A page whose visits to evil.example are recorded and answered locally. */
async function guardedPage(): Promise<{ context: BrowserContext; page: Page; visits: string[] }> {
  const context = await browser.newContext();
  const visits: string[] = [];
  await context.route(
    (url) => url.hostname === EVIL_HOST,
    (route) => {
      visits.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>evil</title>' });
    },
  );
  return { context, page: await context.newPage(), visits };
}

/** Waits until the page is on `path` of `base`, or anywhere on evil.example; where it is. */
async function landing(page: Page, base: string, path: string): Promise<URL> {
  const home = new URL(base);
  await page.waitForURL(
    (url) =>
      url.hostname === EVIL_HOST ||
      (url.origin === home.origin && `${url.pathname}${url.search}` === path),
  );
  return new URL(page.url());
}

describe('the sign-in page never sends the browser to another site', () => {
  for (const attack of ATTACKS) {
    it(`"Try again" with returnTo=${attack} stays on the dashboard`, async () => {
      const { context, page, visits } = await guardedPage();
      const problems = watchPage(page);
      await page.goto(`${proxied.base}/login?returnTo=${attack}`);
      await page.getByRole('button', { name: 'Try again' }).click();
      // Back to the dashboard's front page, which (nobody identified) asks to sign in again.
      const url = await landing(page, proxied.base, '/login?returnTo=%2F');
      assert.equal(url.origin, new URL(proxied.base).origin, `the browser went to ${url.href}`);
      assert.deepEqual(visits, []);
      assert.deepEqual(problems(), []);
      await context.close();
    });
  }

  it('signing in with returnTo=/%09/evil.example lands on the dashboard’s front page', async () => {
    const { context, page, visits } = await guardedPage();
    const problems = watchPage(page);
    await page.goto(`${builtin.base}/login?returnTo=/%09/evil.example`);
    await signInWithPassword(page, 'admin', ADMIN_PASSWORD);
    const url = await landing(page, builtin.base, '/');
    assert.equal(url.origin, new URL(builtin.base).origin, `the browser went to ${url.href}`);
    assert.deepEqual(visits, []);
    assert.deepEqual(problems(), []);
    await context.close();
  });
});
