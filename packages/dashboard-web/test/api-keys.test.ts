import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  startDashboard,
  type RunningDashboard,
} from '@paddock/testing';
import {
  assertFitsWidth,
  signInWithPassword,
  textOf,
  waitForPath,
  watchPage,
} from './support/journey.js';

const run = promisify(execFile);

let dashboard: RunningDashboard;
let browser: Browser;

before(async () => {
  [dashboard, browser] = await Promise.all([
    startDashboard({ SVC_AUTH_MODE: 'builtin' }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await dashboard?.stop();
});

/** `curl -s <base>/api/auth/me` with the key: its status and body. */
async function curlMe(key: string): Promise<{ status: number; body: string }> {
  const { stdout } = await run('curl', [
    '-s',
    '-w',
    '\n%{http_code}',
    '-H',
    `Authorization: Bearer ${key}`,
    `${dashboard.base}/api/auth/me`,
  ]);
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

describe('API keys in the browser', () => {
  it('creates a key shown once, which works from the command line until it is revoked', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: dashboard.base,
    });
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(`${dashboard.base}/settings/api-keys`);
    await signInWithPassword(page, 'admin', ADMIN_PASSWORD);
    await waitForPath(page, '/settings/api-keys');
    await page.getByText('You have no API keys yet').waitFor();

    // A name is needed, and said so.
    await page.getByRole('button', { name: 'Create key' }).click();
    assert.match(await textOf(page.locator('.field-error')), /Give the key a name/);

    await page.getByLabel('Name', { exact: true }).fill('ci pipeline');
    await page.getByLabel('Expires after').selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyField = page.getByLabel('Your new API key');
    await keyField.waitFor();
    const key = await keyField.inputValue();
    assert.match(key, /^svc_sk_[A-Za-z0-9_-]+$/);
    assert.match(
      await textOf(page.locator('.new-key .notice')),
      /Copy the key now .* it will not be shown again/,
    );
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), key);

    const row = page.getByRole('row', { name: /ci pipeline/ });
    const listed = await textOf(row);
    assert.ok(listed.includes(`${key.slice(0, 12)}`), `the row shows the key's start: ${listed}`);
    assert.match(listed, /Never/, 'not used yet');
    const expires = new Date(Date.now() + 30 * 86_400_000).getFullYear();
    assert.match(listed, new RegExp(String(expires)));
    await screenshot(page, 'api-keys');

    const me = await curlMe(key);
    assert.equal(me.status, 200, me.body);
    const { user } = JSON.parse(me.body) as { user: { username: string; role: string } };
    assert.equal(user.username, 'admin');
    assert.equal(user.role, 'admin');

    // Gone for good once dismissed; the list shows the use.
    await page.getByRole('button', { name: 'Done, I saved it' }).click();
    assert.equal(await page.getByLabel('Your new API key').count(), 0);
    await page.reload();
    await page.getByRole('row', { name: /ci pipeline/ }).waitFor();
    assert.doesNotMatch(await textOf(page.getByRole('row', { name: /ci pipeline/ })), /Never/);
    assert.equal(await page.getByText(key).count(), 0, 'the key is not shown again');

    await page.setViewportSize({ width: 360, height: 800 });
    await assertFitsWidth(page);
    await screenshot(page, 'api-keys-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Revoke ci pipeline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the key “ci pipeline”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'is revoked' }).waitFor();
    await page.getByText('You have no API keys yet').waitFor();

    const refused = await curlMe(key);
    assert.equal(refused.status, 401, refused.body);
    assert.deepEqual(problems(), []);
    await context.close();
  });
});
