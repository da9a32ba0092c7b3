import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  startDashboard,
  type RunningDashboard,
} from '@paddock/testing';
import { signInWithPassword, textOf, waitForPath, watchPage } from './support/journey.js';

let dashboard: RunningDashboard;
let browser: Browser;

before(async () => {
  // No SMTP: a new user's initial password is shown to the admin.
  [dashboard, browser] = await Promise.all([
    startDashboard({ SVC_AUTH_MODE: 'builtin' }),
    launchBrowser(),
  ]);
});
after(async () => {
  await browser?.close();
  await dashboard?.stop();
});

/** A fresh browser profile at the dashboard, its page and the page's problems. */
async function openPage() {
  const context = await browser.newContext({
    baseURL: dashboard.base,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  return { context, page, problems: watchPage(page) };
}

async function openUserMenu(page: Page, name: string) {
  await page.getByRole('button', { name }).click();
}

describe('the admin’s first day in the browser', () => {
  it('changes the initial password, signs out and in with the new one, and creates a user', async () => {
    const { context, page, problems } = await openPage();
    await page.goto('/login');
    await signInWithPassword(page, 'admin', ADMIN_PASSWORD);
    await waitForPath(page, '/');

    await openUserMenu(page, 'Administrator');
    await page.getByRole('link', { name: 'Change password' }).click();
    await waitForPath(page, '/settings/password');
    await page.getByRole('heading', { name: 'Change password', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not the password');
    await form.getByLabel('New password', { exact: true }).fill('the admin’s own password');
    await form.getByLabel('Confirm new password').fill('the admin’s own password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('This is not your current password.').waitFor();
    await form.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();
    await screenshot(page, 'change-password');

    await openUserMenu(page, 'Administrator');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signInWithPassword(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    await signInWithPassword(page, 'admin', 'the admin’s own password');
    // Signed in: back to the page asked for, if the sign-out kept one (auth.tsx's race).
    await page.waitForURL((url) => url.pathname !== '/login');

    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const newUser = page.getByRole('form', { name: 'New user' });
    await newUser.getByLabel('Username').fill('grace');
    await newUser.getByLabel('Email').fill('grace@example.test');
    await newUser.getByLabel('Display name').fill('Grace Hopper');
    await newUser.getByLabel('Role').selectOption('editor');
    await newUser.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').filter({ hasText: 'Created grace.' }).waitFor();
    const password = await page.getByLabel('Initial password').inputValue();
    assert.ok(password.length >= 16, password);
    const row = page.getByRole('row').filter({ hasText: 'grace@example.test' });
    assert.match(await textOf(row), /Grace Hopper/);
    await screenshot(page, 'new-user');
    await page.getByRole('button', { name: 'Done' }).click();
    assert.deepEqual(problems(), []);
    await context.close();

    // The new user signs in with the password the admin handed over.
    const second = await openPage();
    await second.page.goto('/login');
    await signInWithPassword(second.page, 'grace', password);
    await waitForPath(second.page, '/');
    await openUserMenu(second.page, 'Grace Hopper');
    assert.match(await textOf(second.page.locator('.user-menu-panel')), /Editor/);
    assert.deepEqual(second.problems(), []);
    await second.context.close();
  });
});
