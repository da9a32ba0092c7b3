import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  freePort,
  launchBrowser,
  screenshot,
  startDashboard,
  startOidcProvider,
  type RunningDashboard,
  type RunningOidcProvider,
} from '@paddock/testing';
import { textOf, waitForPath, watchPage } from './support/journey.js';

const ADMIN_GROUP = 'platform-admins';

let op: RunningOidcProvider;
let dashboard: RunningDashboard;
let browser: Browser;
let base: string;

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  [op, browser] = await Promise.all([
    startOidcProvider({
      redirectUris: [`${base}/api/auth/callback`],
      postLogoutRedirectUris: [`${base}/login`],
      accounts: {
        bob: {
          preferred_username: 'bob',
          email: 'bob@example.test',
          name: 'Bob Builder',
          groups: [ADMIN_GROUP, 'dev'],
        },
      },
    }),
    launchBrowser(),
  ]);
  dashboard = await startDashboard({
    SVC_AUTH_MODE: 'oauth',
    SVC_LISTEN_ADDR: `127.0.0.1:${port}`,
    SVC_BASE_URL: base,
    SVC_OAUTH_PROVIDER: 'generic',
    SVC_OAUTH_ISSUER_URL: op.issuer,
    SVC_OAUTH_CLIENT_ID: op.clientId,
    SVC_OAUTH_CLIENT_SECRET: op.clientSecret,
    SVC_AUTH_ROLE_ADMIN_GROUPS: ADMIN_GROUP,
  });
});

after(async () => {
  await browser?.close();
  await dashboard?.stop();
  await op?.stop();
});

describe('OAuth sign-in in the browser, against a real OpenID provider', () => {
  it('signs in at the provider, comes back signed in, and signs out at the provider', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(`${base}/settings/api-keys`);
    await waitForPath(page, '/login?returnTo=%2Fsettings%2Fapi-keys');
    await page.getByRole('heading', { name: 'Sign in to Paddock' }).waitFor();
    await screenshot(page, 'login-oauth');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();

    await page.waitForURL((url) => url.origin === op.issuer);
    await page.getByLabel('Account').fill('bob');
    await page.getByRole('button', { name: 'Continue' }).click();

    await waitForPath(page, '/settings/api-keys');
    const menuButton = page.getByRole('button', { name: 'Bob Builder' });
    await menuButton.click();
    const panel = page.locator(`[id="${await menuButton.getAttribute('aria-controls')}"]`);
    const shown = await textOf(panel);
    for (const fact of ['Bob Builder', 'bob@example.test', 'Admin', 'Single sign-on']) {
      assert.ok(shown.includes(fact), `the menu shows ${fact}: ${shown}`);
    }
    await screenshot(page, 'user-menu-oauth');

    // Signing out ends the provider's session too, at its own page, which sends the browser back.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.origin === op.issuer);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL((url) => url.origin === base && url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).waitFor();
    await page.goto(`${base}/settings/api-keys`);
    await waitForPath(page, '/login?returnTo=%2Fsettings%2Fapi-keys');

    // Cancelled at the provider: back at sign-in, which says so.
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL((url) => url.origin === op.issuer);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await waitForPath(page, '/login?error=access_denied');
    assert.match(
      await textOf(page.getByRole('alert')),
      /Sign-in was cancelled at the identity provider, or your account may not use this dashboard\./,
    );
    await screenshot(page, 'login-oauth-error');
    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('reads every callback error code as a sentence', async () => {
    const page = await browser.newPage();
    const problems = watchPage(page);
    const sentences: Record<string, RegExp> = {
      access_denied: /Sign-in was cancelled/,
      invalid_state: /took too long or was started in another tab/,
      no_code: /without a sign-in code/,
      callback_failed: /could not be completed with the identity provider/,
      invalid_claims: /did not tell the dashboard your username/,
      config_error: /not set up correctly, or the provider cannot be reached/,
      something_else: /The sign-in did not complete/,
    };
    for (const [code, sentence] of Object.entries(sentences)) {
      await page.goto(`${base}/login?error=${code}`);
      assert.match(await textOf(page.getByRole('alert')), sentence, code);
    }
    assert.deepEqual(problems(), []);
    await page.close();
  });
});
