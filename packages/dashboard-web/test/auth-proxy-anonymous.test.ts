import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, startDashboard, type RunningDashboard } from '@paddock/testing';
import { textOf, waitForPath, watchPage } from './support/journey.js';

let proxied: RunningDashboard;
let anonymous: RunningDashboard;
let browser: Browser;

before(async () => {
  [proxied, anonymous, browser] = await Promise.all([
    startDashboard({ SVC_AUTH_MODE: 'proxy', SVC_AUTH_ROLE_ADMIN_GROUPS: 'platform-admins' }),
    startDashboard({ SVC_AUTH_MODE: 'anonymous', SVC_AUTH_ANONYMOUS_ROLE: 'viewer' }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await proxied?.stop();
  await anonymous?.stop();
});

describe('proxy mode in the browser', () => {
  it('lets the user the proxy names straight in, with the role of their groups', async () => {
    // The browser context plays the authenticating proxy: every request carries the headers.
    const context = await browser.newContext({
      extraHTTPHeaders: {
        'X-Forwarded-User': 'carol',
        'X-Forwarded-Email': 'carol@example.test',
        'X-Forwarded-Groups': 'dev, platform-admins',
        'X-Forwarded-Preferred-Username': 'Carol Danvers',
      },
    });
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(`${proxied.base}/settings/api-keys`);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await waitForPath(page, '/settings/api-keys');

    const menuButton = page.getByRole('button', { name: 'Carol Danvers' });
    await menuButton.click();
    const panel = page.locator(`[id="${await menuButton.getAttribute('aria-controls')}"]`);
    const shown = await textOf(panel);
    for (const fact of ['carol@example.test', 'Admin', 'proxy', 'API keys']) {
      assert.ok(shown.includes(fact), `the menu shows ${fact}: ${shown}`);
    }
    // The proxy decides who is signed in: there is nothing to sign out of here.
    assert.equal(await panel.getByRole('button', { name: 'Sign out' }).count(), 0);
    await screenshot(page, 'proxy');

    // Nothing to do on the sign-in page: on to returnTo.
    await page.goto(`${proxied.base}/login?returnTo=%2Fsettings%2Fapi-keys`);
    await waitForPath(page, '/settings/api-keys');
    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('says when the proxy did not identify the user', async () => {
    const page = await browser.newPage();
    const problems = watchPage(page);
    await page.goto(`${proxied.base}/`);
    await waitForPath(page, '/login?returnTo=%2F');
    assert.match(
      await textOf(page.getByRole('alert')),
      /The sign-in proxy in front of Paddock did not identify you/,
    );
    await screenshot(page, 'proxy-not-identified');
    assert.deepEqual(problems(), []);
    await page.close();
  });
});

describe('anonymous mode in the browser', () => {
  it('lets everyone straight in as Anonymous, without API keys or sign-out', async () => {
    const page = await browser.newPage();
    const problems = watchPage(page);
    await page.goto(`${anonymous.base}/login?returnTo=%2F`);
    await waitForPath(page, '/');
    const menuButton = page.getByRole('button', { name: 'Anonymous (viewer)' });
    await menuButton.click();
    const panel = page.locator(`[id="${await menuButton.getAttribute('aria-controls')}"]`);
    assert.match(await textOf(panel), /lets everyone in without signing in/);
    assert.equal(await page.getByRole('link', { name: 'API keys' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
    await screenshot(page, 'anonymous');

    await page.goto(`${anonymous.base}/settings/api-keys`);
    await page.getByText('API keys belong to signed-in users').waitFor();
    assert.deepEqual(problems(), []);
    await page.close();
  });
});
