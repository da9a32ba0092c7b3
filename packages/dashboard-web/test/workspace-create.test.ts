import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CORE_KINDS, KINDS, type KubeObject, type Workspace } from '@paddock/kube';
import { eventually, screenshot } from '@paddock/testing';
import { textOf, watchPage, type ProxyPerson } from './support/journey.js';
import { startProxyDashboard, type ProxyDashboard } from './support/proxy-dashboard.js';

/**
 * Creating a workspace from the dashboard in Chromium, against the embedded cluster with the
 * operator running: the dashboard in proxy mode, `admins` its admins and `devs` its editors.
 */

const ADMIN: ProxyPerson = { user: 'ada', groups: 'admins' };
const EDITOR: ProxyPerson = { user: 'dave', groups: 'devs' };

let platform: ProxyDashboard;

before(async () => {
  platform = await startProxyDashboard();
});

after(() => platform?.stop());

/** Runs the steps on a page of the person at `path`; nothing may go wrong on it unasked. */
async function onPage(person: ProxyPerson, path: string, steps: (page: Page) => Promise<void>) {
  const page = await (await platform.contextOf(person)).newPage();
  page.setDefaultTimeout(10_000);
  const unexpected = watchPage(page);
  try {
    await page.goto(path);
    await steps(page);
    assert.deepEqual(unexpected(), []);
  } catch (error) {
    await screenshot(page, 'workspace-create-failed').catch(() => undefined);
    const shown = await page
      .locator('body')
      .innerText({ timeout: 1_000 })
      .catch(() => '');
    throw new Error(`${(error as Error).message}\n\nThe page at ${page.url()}:\n${shown}`, {
      cause: error,
    });
  } finally {
    await page.close();
  }
}

describe('creating a workspace from the dashboard', () => {
  it('lets an admin create one from the list, with inline errors, and lands on it', async () => {
    await onPage(ADMIN, '/', async (page) => {
      await page.getByText('You have no workspaces yet').waitFor();
      await page.getByRole('link', { name: 'New workspace' }).click();
      await page.getByRole('heading', { level: 1, name: 'New workspace' }).waitFor();
      assert.equal(await page.getByText('You become the workspace’s owner.').count(), 1);

      // The form's own checks: the name is a DNS-1123 label, a display name is needed.
      const name = page.getByLabel('Name', { exact: true });
      await name.fill('Launch_Pad');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      assert.match(await textOf(page.locator('.field-error').first()), /not a valid name/);
      assert.equal(await page.getByLabel('Display name').getAttribute('aria-invalid'), 'true');

      await name.fill('launch-pad');
      await page.getByLabel('Display name').fill('Launch pad');
      await page.getByLabel('Description (optional)').fill('Where launches are prepared');
      await page.getByLabel('Environment').selectOption('staging');
      assert.equal(
        await page.getByLabel('Namespace (optional)').getAttribute('placeholder'),
        'launch-pad',
      );
      await page.getByLabel('Group', { exact: true }).fill('pilots');
      await page.getByLabel('Its role').selectOption('editor');
      await screenshot(page, 'workspace-new', { docs: true });
      await page.getByRole('button', { name: 'Create workspace' }).click();

      await page.waitForURL((url) => url.pathname === '/workspaces/launch-pad');
      await page.getByRole('heading', { level: 1, name: 'Launch pad' }).waitFor();
    });

    const workspace = await platform.kube
      .resource<Workspace>(KINDS.find((kind) => kind.kind === 'Workspace')!)
      .get('launch-pad');
    assert.deepEqual(
      {
        environment: workspace.spec.environment,
        description: workspace.spec.description,
        namespace: workspace.spec.namespace,
        roleBindings: workspace.spec.roleBindings,
        directGrants: workspace.spec.directGrants,
      },
      {
        environment: 'staging',
        description: 'Where launches are prepared',
        namespace: { name: 'launch-pad', create: true },
        roleBindings: [{ groups: ['pilots'], role: 'editor' }],
        directGrants: [{ user: 'ada', role: 'owner' }],
      },
    );
    // The operator creates the namespace.
    await eventually('the namespace created', async () =>
      platform.kube
        .resource<KubeObject>(CORE_KINDS.namespace)
        .get('launch-pad')
        .catch(() => undefined),
    );

    // The dashboard's refusal shows next to the field it is about.
    await onPage(ADMIN, '/admin/workspaces/new', async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('launch-pad');
      await page.getByLabel('Display name').fill('Again');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      const error = page.locator('.field-error');
      assert.match(await textOf(error), /Workspace "launch-pad" already exists/);
      assert.equal(
        await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'),
        'true',
      );
    });
  });

  it('offers nothing of the kind to anyone else', async () => {
    await onPage(EDITOR, '/', async (page) => {
      await page.getByText('You have no workspaces yet').waitFor();
      assert.equal(await page.getByRole('link', { name: 'New workspace' }).count(), 0);
    });
    await onPage(EDITOR, '/admin/workspaces/new', async (page) => {
      await page.getByText('Only admins of the dashboard create workspaces').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Create workspace' }).count(), 0);
    });
  });
});
