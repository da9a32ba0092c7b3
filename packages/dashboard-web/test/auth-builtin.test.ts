import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  Client,
  errorOf,
  freePort,
  launchBrowser,
  screenshot,
  startDashboard,
  startSmtp,
  type RunningDashboard,
  type RunningSmtp,
} from '@paddock/testing';
import {
  assertFitsWidth,
  focused,
  focusedName,
  linkInMail,
  signInWithPassword,
  textOf,
  waitForPath,
  watchPage,
} from './support/journey.js';

const MAX_FAILED_ATTEMPTS = 3;

let smtp: RunningSmtp;
let dashboard: RunningDashboard;
let browser: Browser;
let base: string;

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  [smtp, browser] = await Promise.all([startSmtp(), launchBrowser()]);
  dashboard = await startDashboard({
    SVC_AUTH_MODE: 'builtin',
    SVC_LISTEN_ADDR: `127.0.0.1:${port}`,
    SVC_BASE_URL: base,
    SVC_BUILTIN_ALLOW_SIGNUP: 'true',
    SVC_BUILTIN_VERIFY_EMAIL: 'true',
    SVC_BUILTIN_MAX_FAILED_ATTEMPTS: String(MAX_FAILED_ATTEMPTS),
    SVC_SMTP_URL: smtp.url,
  });
  assert.equal(dashboard.base, base);
});

after(async () => {
  await browser?.close();
  await dashboard?.stop();
  await smtp?.stop();
});

/** A fresh browser profile (its own cookies) with one page, and the page's problems. */
async function openPage(
  options: { width?: number } = {},
): Promise<{ context: BrowserContext; page: Page; problems: () => string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  const page = await context.newPage();
  return { context, page, problems: watchPage(page) };
}

/** An account made through the API, as a person signing up elsewhere would; its confirmation link. */
async function signUpByApi(username: string, password: string): Promise<string> {
  const email = `${username}@example.test`;
  const answer = await new Client(base).post('/api/auth/builtin/signup', {
    username,
    email,
    password,
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return linkInMail(await smtp.nextMailTo(email), 'verify-email');
}

describe('built-in accounts in the browser', () => {
  it('signs up, confirms the e-mail from the mail, signs in back to the page asked for, signs out', async () => {
    const { context, page, problems } = await openPage();
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    assert.match(await focused(page), /^h1: Create an account/, 'the heading has the focus');

    // Checked in the page first: the first field in error takes the focus, with its sentence.
    await page.getByLabel('Username', { exact: true }).fill('ada');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.test');
    await page.getByLabel('Display name (optional)').fill('Ada Lovelace');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const password = page.getByLabel('Password', { exact: true });
    await page.locator('.field-error').waitFor();
    assert.equal(await password.getAttribute('aria-invalid'), 'true');
    assert.equal(await focusedName(page), 'password');
    assert.match(
      await textOf(page.locator('.field-error')),
      /The password must be at least 8 characters long\./,
    );
    await screenshot(page, 'signup');

    await password.fill('correct horse battery');
    await page.getByLabel('Confirm password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    assert.match(await textOf(page.getByRole('status')), /We sent a link to ada@example\.test/);

    // Not confirmed yet: the sign-in says so, in a sentence.
    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await signInWithPassword(page, 'ada', 'correct horse battery');
    const notConfirmed = await textOf(page.getByRole('alert'));
    assert.match(notConfirmed, /not confirmed yet\. Check your mail/);
    assert.match(await focused(page), /^div\[role=alert\]: Your email address is not confirmed/);

    const link = linkInMail(await smtp.nextMailTo('ada@example.test'), 'verify-email');
    assert.ok(link.startsWith(`${base}/verify-email?token=`), link);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Email address confirmed' }).waitFor();
    assert.match(await textOf(page.getByRole('status')), /Your email address is confirmed/);
    await screenshot(page, 'verify-email');

    // Opened signed out: sign-in first, then the page asked for.
    await page.goto(`${base}/settings/api-keys`);
    await waitForPath(page, '/login?returnTo=%2Fsettings%2Fapi-keys');
    await signInWithPassword(page, 'ada', 'correct horse battery');
    await waitForPath(page, '/settings/api-keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    // A signed-in user opening the sign-in page goes on.
    await page.goto(`${base}/login?returnTo=%2Fsettings%2Fapi-keys`);
    await waitForPath(page, '/settings/api-keys');

    const menuButton = page.getByRole('button', { name: 'Ada Lovelace' });
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    await menuButton.click();
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'true');
    const panel = page.locator(`[id="${await menuButton.getAttribute('aria-controls')}"]`);
    const shown = await textOf(panel);
    for (const fact of ['ada@example.test', 'Viewer', 'Paddock account', 'API keys']) {
      assert.ok(shown.includes(fact), `the menu shows ${fact}: ${shown}`);
    }
    await screenshot(page, 'user-menu');
    await page.keyboard.press('Escape');
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    assert.match(await focused(page), /^button: .*Ada Lovelace/, 'focus back on the button');
    assert.equal(await panel.isVisible(), false);

    await menuButton.click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    // At sign-in (with or without a returnTo: auth.tsx's signOut() races RequireAuth for it).
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in to Paddock' }).waitFor();
    await page.goto(`${base}/settings/api-keys`);
    await waitForPath(page, '/login?returnTo=%2Fsettings%2Fapi-keys');

    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('says an account is temporarily locked after too many wrong passwords', async () => {
    await signUpByApi('lucy', 'the right password');
    const { context, page, problems } = await openPage();
    await page.goto(`${base}/login`);
    for (let attempt = 1; attempt < MAX_FAILED_ATTEMPTS; attempt++) {
      await signInWithPassword(page, 'lucy', `wrong password ${attempt}`);
      const alert = page.getByRole('alert');
      assert.match(await textOf(alert), /username or email and password do not match/);
      assert.equal(await page.getByLabel('Password', { exact: true }).inputValue(), '');
    }
    await signInWithPassword(page, 'lucy', 'wrong once more');
    await page.getByRole('alert').filter({ hasText: 'locked' }).waitFor();
    assert.match(
      await textOf(page.getByRole('alert')),
      /This account is temporarily locked after too many failed sign-ins\. Try again in 15 minutes\./,
    );
    // Even the right password waits for the lockout to end.
    await signInWithPassword(page, 'lucy', 'the right password');
    await page.getByRole('alert').filter({ hasText: 'locked' }).waitFor();
    await screenshot(page, 'login-locked');
    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('resets a forgotten password from the mail and signs in with the new one', async () => {
    await signUpByApi('grace', 'the old password');
    const { context, page, problems } = await openPage({ width: 360 });
    await page.goto(`${base}/login`);
    await assertFitsWidth(page);
    await screenshot(page, 'login-narrow');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill('grace@example.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    assert.match(
      await textOf(page.getByRole('status')),
      /If an account exists for grace@example\.test, a link to reset its password was sent/,
    );
    await screenshot(page, 'forgot-password');

    const link = linkInMail(await smtp.nextMailTo('grace@example.test'), 'reset-password');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('the new password');
    await page.getByLabel('Confirm new password').fill('not the same');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    assert.match(await textOf(page.locator('.field-error')), /The two passwords are not the same/);
    await assertFitsWidth(page);
    await screenshot(page, 'reset-password');
    await page.getByLabel('Confirm new password').fill('the new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();

    // The link is used up.
    const again = await context.newPage();
    const againProblems = watchPage(again);
    await again.goto(link);
    await again.getByLabel('New password', { exact: true }).fill('yet another password');
    await again.getByLabel('Confirm new password').fill('yet another password');
    await again.getByRole('button', { name: 'Set the new password' }).click();
    assert.match(
      await textOf(again.getByRole('alert')),
      /This link is invalid, has already been used, or has expired\. Ask for a new link\./,
    );
    assert.deepEqual(againProblems(), []);
    await again.close();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInWithPassword(page, 'grace@example.test', 'the old password');
    await page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    await signInWithPassword(page, 'grace@example.test', 'the new password');
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'grace' }).waitFor();
    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('sends an expired session to sign-in with a notice, and back to the page after', async () => {
    // Confirmed through its mail, as the account must be to sign in.
    const link = await signUpByApi('max', 'max password 1');
    const confirm = await new Client(base).post('/api/auth/builtin/verify-email', {
      token: new URL(link).searchParams.get('token'),
    });
    assert.equal(confirm.status, 200);

    const { context, page, problems } = await openPage();
    await page.goto(`${base}/login?returnTo=%2Fsettings%2Fapi-keys`);
    await signInWithPassword(page, 'max', 'max password 1');
    await waitForPath(page, '/settings/api-keys');
    await page.getByText('You have no API keys yet').waitFor();

    await context.clearCookies();
    await page.getByLabel('Name', { exact: true }).fill('deploy');
    await page.getByRole('button', { name: 'Create key' }).click();
    await waitForPath(page, '/login?returnTo=%2Fsettings%2Fapi-keys&expired=1');
    assert.match(await textOf(page.getByRole('status')), /Your session ended; sign in again/);
    await screenshot(page, 'login-expired');
    await signInWithPassword(page, 'max', 'max password 1');
    await waitForPath(page, '/settings/api-keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('signs out everywhere from the user menu: the other browser’s session ends too', async () => {
    const link = await signUpByApi('lin', 'lin password 1');
    const confirm = await new Client(base).post('/api/auth/builtin/verify-email', {
      token: new URL(link).searchParams.get('token'),
    });
    assert.equal(confirm.status, 200);
    const laptop = await openPage();
    const phone = await openPage();
    for (const { page } of [laptop, phone]) {
      await page.goto(`${base}/login?returnTo=%2Fsettings%2Fapi-keys`);
      await signInWithPassword(page, 'lin', 'lin password 1');
      await waitForPath(page, '/settings/api-keys');
    }

    await laptop.page.getByRole('button', { name: 'lin' }).click();
    await screenshot(laptop.page, 'user-menu-sign-out-everywhere');
    await laptop.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await laptop.page.waitForURL((url) => url.pathname === '/login');
    await phone.page.goto(`${base}/settings/api-keys`);
    await waitForPath(phone.page, '/login?returnTo=%2Fsettings%2Fapi-keys');
    for (const { context, problems } of [laptop, phone]) {
      assert.deepEqual(problems(), []);
      await context.close();
    }
  });

  it('lets the initial admin change a user’s role and disable them', async () => {
    await signUpByApi('bob', 'bob password 1');
    const { context, page, problems } = await openPage();
    await page.goto(`${base}/admin/users`);
    await waitForPath(page, '/login?returnTo=%2Fadmin%2Fusers');
    await signInWithPassword(page, 'admin', ADMIN_PASSWORD);
    await waitForPath(page, '/admin/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

    const role = page.getByLabel('Role of bob');
    assert.equal(await role.inputValue(), '', 'bob’s role comes from his groups');
    await role.selectOption('editor');
    await page.getByLabel('Groups of bob, separated by commas').fill('dev, qa');
    await page.getByRole('button', { name: 'Save bob' }).click();
    assert.match(
      await textOf(page.getByRole('status').filter({ hasText: 'Saved' })),
      /Saved the changes to bob\./,
    );

    await page.getByRole('button', { name: 'Disable bob' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable bob?' });
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('status').filter({ hasText: 'bob is disabled.' }).waitFor();
    await page.getByRole('button', { name: 'Enable bob' }).waitFor();
    await screenshot(page, 'users');

    // As the dashboard has it now.
    await page.reload();
    await page.getByRole('button', { name: 'Enable bob' }).waitFor();
    assert.equal(await page.getByLabel('Role of bob').inputValue(), 'editor');
    assert.equal(
      await page.getByLabel('Groups of bob, separated by commas').inputValue(),
      'dev, qa',
    );
    const row = page.getByRole('row').filter({ hasText: 'bob@example.test' });
    assert.match(await textOf(row), /Disabled/);
    const login = await new Client(base).post('/api/auth/builtin/login', {
      username: 'bob',
      password: 'bob password 1',
    });
    assert.equal(errorOf(login), 'forbidden');

    // The admin cannot lock themselves out.
    assert.equal(await page.getByLabel('Role of admin').isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Disable admin' }).count(), 0);

    await page.setViewportSize({ width: 360, height: 800 });
    await assertFitsWidth(page);
    await screenshot(page, 'users-narrow');
    // The account menu opens within the narrow window, wherever its button wrapped to.
    const menuButton = page.getByRole('button', { name: 'Administrator' });
    await menuButton.click();
    const panel = page.locator(`[id="${await menuButton.getAttribute('aria-controls')}"]`);
    const box = await panel.boundingBox();
    assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
    await screenshot(page, 'user-menu-narrow');
    await page.keyboard.press('Escape');
    assert.deepEqual(problems(), []);
    await context.close();
  });

  it('tells a non-admin that only admins see the users', async () => {
    const { context, page, problems } = await openPage();
    await page.goto(`${base}/login?returnTo=%2Fadmin%2Fusers`);
    await signInWithPassword(page, 'ada', 'correct horse battery');
    await waitForPath(page, '/admin/users');
    assert.match(await textOf(page.getByRole('alert')), /Only admins can see and change the users/);
    assert.deepEqual(problems(), []);
    await context.close();
  });
});
