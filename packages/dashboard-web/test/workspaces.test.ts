import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  API_VERSION,
  KINDS,
  type AgentRuntime,
  type PromptPack,
  type ToolRegistry,
  type Workspace,
} from '@paddock/kube';
import { agentPod, eventually, screenshot } from '@paddock/testing';
import { watchPage } from './support/journey.js';
import { startProxyDashboard, type ProxyDashboard } from './support/proxy-dashboard.js';

/**
 * The workspace pages in Chromium, against the embedded cluster with the operator running: the
 * dashboard in proxy mode, each browser context playing the authenticating proxy for one user.
 */

const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;

let platform: ProxyDashboard;

const workspaces = () => platform.kube.resource<Workspace>(kindOf('Workspace'));
const agents = () => platform.kube.resource<AgentRuntime>(kindOf('AgentRuntime'));
const packs = () => platform.kube.resource<PromptPack>(kindOf('PromptPack'));
const registries = () => platform.kube.resource<ToolRegistry>(kindOf('ToolRegistry'));

/** The people of the journeys: their proxy identity headers. `devs` is the dashboard's editors. */
const USERS = {
  owner: { user: 'olga', groups: 'alpha-owners,devs' },
  editor: { user: 'dave', groups: 'alpha-devs,devs' },
  viewer: { user: 'rita', groups: 'alpha-readers' },
} as const;
type Person = keyof typeof USERS;

/** What the dashboard answers a person, as the browser would ask. */
async function apiAs(person: Person, path: string): Promise<unknown> {
  const { user, groups } = USERS[person];
  const answer = await fetch(`${platform.dashboard.base}${path}`, {
    headers: { 'x-forwarded-user': user, 'x-forwarded-groups': groups },
  });
  return answer.json();
}

/** The alpha workspace's objects: a prompt pack, agents, a pod with a log and an event, tools. */
async function seedAlpha() {
  await packs().create({
    apiVersion: API_VERSION,
    kind: 'PromptPack',
    metadata: { name: 'helper', namespace: 'ns-alpha' },
    spec: {
      description: 'Helps',
      systemPrompt: 'Be helpful.',
      prompts: [{ name: 'hi', content: 'Say hi.' }],
    },
  });
  await agentPod(platform.kube, 'ns-alpha', 'logger', 'starting\nready\n');
  await Promise.all([
    platform.agent('ns-alpha', 'logger', {
      promptPackRef: { name: 'helper' },
      replicas: 1,
      model: 'claude-sonnet-4',
    }),
    platform.agent('ns-alpha', 'doomed', { promptPackRef: { name: 'helper' }, replicas: 0 }),
    registries().create({
      apiVersion: API_VERSION,
      kind: 'ToolRegistry',
      metadata: { name: 'tools', namespace: 'ns-alpha' },
      spec: {
        handlers: [
          {
            name: 'search',
            type: 'http',
            endpoint: { url: 'http://127.0.0.1:9/search' },
            tool: { name: 'search', description: 'Search', inputSchema: { type: 'object' } },
          },
        ],
      },
    }),
  ]);
}

/** The spender workspace: a daily budget of a dollar, blocking, and an agent that spent five. */
async function seedSpender() {
  const created = await platform.agent('ns-spender', 'costly', { promptPackRef: { name: 'any' } });
  const now = new Date();
  await agents().replaceStatus({
    ...created,
    status: {
      costUsage: {
        day: now.toISOString().slice(0, 10),
        dailySpend: '5.00',
        month: now.toISOString().slice(0, 7),
        monthlySpend: '5.00',
      },
    },
  });
}

before(async () => {
  platform = await startProxyDashboard();
  await Promise.all([
    platform
      .workspace('alpha', {
        displayName: 'Alpha team',
        description: 'Where the alpha agents run',
        environment: 'staging',
        roleBindings: [
          { groups: ['alpha-owners'], role: 'owner' },
          { groups: ['alpha-devs'], role: 'editor' },
          { groups: ['alpha-readers'], role: 'viewer' },
        ],
        directGrants: [{ user: 'old-timer', role: 'viewer', expires: '2020-01-01T00:00:00Z' }],
        quotas: { agents: { maxAgentRuntimes: 10, maxReplicasPerAgent: 5 } },
        networkPolicy: { isolate: true },
        costControls: { dailyBudget: '50.00', monthlyBudget: '500.00' },
      })
      .then(seedAlpha),
    platform.workspace('beta', {
      displayName: 'Beta',
      roleBindings: [
        { groups: ['beta-owners'], role: 'owner' },
        { groups: ['alpha-devs'], role: 'viewer' },
      ],
    }),
    platform.workspace('hidden', {
      displayName: 'Hidden',
      roleBindings: [{ groups: ['others'], role: 'owner' }],
    }),
    platform
      .workspace('spender', {
        displayName: 'Spender',
        roleBindings: [{ groups: ['alpha-devs'], role: 'editor' }],
        costControls: { dailyBudget: '1.00', budgetExceededAction: 'block' },
      })
      .then(seedSpender),
  ]);
});

after(() => platform?.stop());

/** A browser context acting as one person (the proxy's headers on every request). */
async function contextOf(person: Person, options: { width?: number } = {}) {
  return platform.contextOf(USERS[person], {
    viewport: { width: options.width ?? 1280, height: 900 },
    // Expiry inputs are in the browser's time zone: one with an offset shows the conversion.
    timezoneId: 'Europe/Paris',
    locale: 'en-GB',
  });
}

/** The pages of the running journey, for the report of a failure. */
const pages: { page: Page; api: string[] }[] = [];

/**
 * A page of the person, and what went wrong on it (watchPage: the API error answers the journey
 * provokes on purpose are not problems); the API's error statuses and every API call are kept.
 */
async function open(person: Person, path: string, options: { width?: number } = {}) {
  const page = await (await contextOf(person, options)).newPage();
  page.setDefaultTimeout(10_000);
  const unexpected = watchPage(page);
  const apiErrors: number[] = [];
  const api: string[] = [];
  pages.push({ page, api });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/')) return;
    api.push(`${response.request().method()} ${url.pathname}${url.search} ${response.status()}`);
    if (response.status() >= 400) apiErrors.push(response.status());
  });
  await page.goto(path);
  return { page, unexpected, apiErrors };
}

/**
 * A test of one journey. When it fails, the report says what its pages showed and asked the API,
 * and a screenshot of each is left as failed-<n>.
 */
function journey(name: string, run: () => Promise<void>) {
  it(name, async () => {
    pages.length = 0;
    try {
      await run();
    } catch (error) {
      const report: string[] = [];
      for (const [i, { page, api }] of pages.entries()) {
        const shown = await page
          .locator('body')
          .innerText({ timeout: 1_000 })
          .catch(() => '(unreadable)');
        await screenshot(page, `failed-${i}`).catch(() => undefined);
        report.push(`page ${i} at ${page.url()}:\n${shown}\nAPI:\n${api.join('\n')}`);
      }
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n\n${report.join('\n\n')}`,
        { cause: error },
      );
    } finally {
      await Promise.all(pages.map(({ page }) => page.close()));
    }
  });
}

async function textOf(locator: Locator): Promise<string> {
  await locator.first().waitFor();
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim();
}

/** No part of the page is wider than the window (tables scroll inside their own frame). */
async function fitsWidth(page: Page) {
  const [scrollWidth, innerWidth] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, window.innerWidth]',
  );
  assert.ok(scrollWidth <= innerWidth, `the page is ${scrollWidth}px wide in ${innerWidth}px`);
}

describe('the workspace pages', () => {
  journey(
    'list, and offer in the switcher, exactly the user’s workspaces with their roles',
    async () => {
      const { page, unexpected } = await open('editor', '/');
      const cards = page.getByRole('list', { name: 'Your workspaces' }).getByRole('listitem');
      await cards.first().waitFor();
      const seen = [];
      for (const card of await cards.all()) {
        seen.push([
          await card.getByRole('heading').textContent(),
          await card.locator('.ws-role').textContent(),
        ]);
      }
      assert.deepEqual(seen, [
        ['Alpha team', 'editor'],
        ['Beta', 'viewer'],
        ['Spender', 'editor'],
      ]);
      assert.match(await textOf(cards.first()), /Where the alpha agents run.*staging/);
      await screenshot(page, 'workspaces-list');

      const switcher = page.getByLabel('Workspace', { exact: true });
      const options = await switcher.locator('option').allTextContents();
      assert.deepEqual(options, [
        'All workspaces',
        'Alpha team (alpha) — editor',
        'Beta (beta) — viewer',
        'Spender (spender) — editor',
      ]);
      await switcher.selectOption('beta');
      await page.waitForURL('**/workspaces/beta');
      // Exact: while the workspace loads, the heading shows its name ("beta").
      await page.getByRole('heading', { level: 1, name: 'Beta', exact: true }).waitFor();
      assert.equal(await switcher.inputValue(), 'beta');
      // The heading of the new page has the focus.
      await page.waitForFunction("document.activeElement?.textContent === 'Beta'");
      assert.deepEqual(unexpected(), []);

      const viewer = await open('viewer', '/');
      const theirs = viewer.page.getByRole('list', { name: 'Your workspaces' }).getByRole('link');
      await theirs.first().waitFor();
      assert.deepEqual(await theirs.allTextContents(), ['Alpha team']);
      await viewer.page.goto('/workspaces/hidden');
      assert.equal(
        await textOf(viewer.page.getByRole('alert')),
        'No workspace named hidden, or you have no access to it.',
      );
      assert.deepEqual(viewer.unexpected(), []);
    },
  );

  journey(
    'shows the overview: phase, conditions, members, isolation, cost against budget',
    async () => {
      const { page, unexpected } = await open('owner', '/workspaces/alpha');
      await page.getByRole('heading', { level: 1, name: 'Alpha team' }).waitFor();
      await page.getByText('Phase: Ready', { exact: true }).waitFor();
      const conditions = page.getByRole('table', { name: 'Conditions of the workspace' });
      assert.match(await textOf(conditions.getByRole('row', { name: /^Ready/ })), /Ready True/);
      const members = await textOf(page.getByRole('region', { name: 'Members' }));
      assert.match(members, /Owners 1 Editors 1 Viewers 1/);
      const network = await textOf(page.getByRole('region', { name: 'Network isolation' }));
      assert.match(network, /Isolated Yes/);
      assert.match(network, /Policy workspace-alpha/);
      const daily = page.getByRole('meter', { name: 'Daily spend against budget' });
      assert.match((await daily.getAttribute('aria-valuetext')) ?? '', /of \$50\.00/);
      assert.equal(await daily.getAttribute('aria-valuemax'), '50');
      await page.getByRole('meter', { name: 'Monthly spend against budget' }).waitFor();
      assert.match(
        await textOf(page.getByRole('region', { name: 'Quotas' })),
        /Replicas per agent 5/,
      );
      await screenshot(page, 'workspace-overview');
      await page.setViewportSize({ width: 360, height: 800 });
      await fitsWidth(page);
      await screenshot(page, 'workspace-overview-360');
      assert.deepEqual(unexpected(), []);
    },
  );

  journey('lets an editor scale, create and delete agents', async () => {
    const { page, unexpected } = await open('editor', '/workspaces/alpha/agents');
    await page.getByRole('link', { name: 'logger' }).waitFor();

    await page.getByLabel('Replicas of logger', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Save replicas of logger' }).click();
    await page.getByRole('status').getByText('Scaled the agent “logger” to 2 replicas.').waitFor();
    assert.equal((await agents().get('logger', 'ns-alpha')).spec.replicas, 2);

    await page.getByRole('button', { name: 'Create agent' }).click();
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByLabel('Name').fill('writer');
    await form.getByLabel('Prompt pack').selectOption('helper');
    await form.getByLabel('Replicas').fill('1');
    await form.getByLabel('Model (optional)').fill('claude-opus-4');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Created the agent “writer”.').waitFor();
    const writer = await agents().get('writer', 'ns-alpha');
    assert.deepEqual(
      [writer.spec.promptPackRef.name, writer.spec.replicas, writer.spec.model],
      ['helper', 1, 'claude-opus-4'],
    );
    await page.getByRole('link', { name: 'writer' }).waitFor();

    await page.getByRole('button', { name: 'Delete doomed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the agent “doomed”?' });
    await dialog.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByText('Deleted the agent “doomed”.').waitFor();
    await eventually('doomed deleted', async () =>
      (await agents().list({ namespace: 'ns-alpha' })).items.some(
        (a) => a.metadata.name === 'doomed',
      )
        ? undefined
        : true,
    );
    await page.getByRole('link', { name: 'doomed' }).waitFor({ state: 'detached' });
    await screenshot(page, 'workspace-agents');
    await page.setViewportSize({ width: 360, height: 800 });
    await fitsWidth(page);
    await screenshot(page, 'workspace-agents-360');
    assert.deepEqual(unexpected(), []);
  });

  journey('shows a viewer no write action anywhere', async () => {
    const { page, unexpected } = await open('viewer', '/workspaces/alpha/agents');
    await page.getByRole('link', { name: 'logger' }).waitFor();
    const tabs = page.getByRole('navigation', { name: 'Workspace sections' }).getByRole('link');
    assert.deepEqual(await tabs.allTextContents(), [
      'Overview',
      'Agents',
      'Prompt packs',
      'Tool registries',
    ]);
    const writes = page.getByRole('button', { name: /Save|Delete|Create|Edit|New/ });
    assert.equal(await writes.count(), 0);
    assert.equal(await page.getByRole('spinbutton').count(), 0);
    await tabs.getByText('Prompt packs').click();
    await page.getByRole('heading', { level: 3, name: 'helper' }).waitFor();
    assert.equal(await writes.count(), 0);
    await tabs.getByText('Tool registries').click();
    await page.getByRole('heading', { level: 3, name: 'tools' }).waitFor();
    assert.equal(await writes.count(), 0);
    assert.deepEqual(unexpected(), []);
  });

  journey('shows an agent’s pods, its log, followed as it grows, and its events', async () => {
    const { page, unexpected } = await open('viewer', '/workspaces/alpha/agents/logger');
    await page.getByRole('heading', { level: 2, name: 'Agent logger' }).waitFor();
    await page
      .getByRole('table', { name: 'Pods of the agent logger' })
      .getByText('logger-0')
      .waitFor();
    const events = page.getByRole('table', { name: /Events of the agent logger/ });
    assert.match(
      await textOf(events.getByRole('row').nth(1)),
      /Normal Started Started container agent Pod logger-0 1/,
    );
    // The log has a tab of its own.
    await page.getByRole('tab', { name: 'Log' }).click();
    const log = page.getByRole('log', { name: 'Log of pod logger-0, container agent' });
    await log.getByText(/starting\s+ready/).waitFor();

    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().includes('follow=true')) aborted.push(request.failure()?.errorText ?? '');
    });
    const follow = page.getByRole('button', { name: 'Follow' });
    await follow.click();
    await page.getByRole('button', { name: 'Follow', pressed: true }).waitFor();
    await page.getByText('Following the log: new lines appear as they are written.').waitFor();
    // The stream is open once its first lines are in.
    await log.getByText(/starting\s+ready/).waitFor();
    await platform.kube.appendPodLog('ns-alpha', 'logger-0', 'working on it\n');
    await log.getByText(/ready\s+working on it/).waitFor();
    await screenshot(page, 'workspace-agent-logs');

    // The newest line stays in view, unless the reader scrolled up.
    const belowView = () =>
      page.evaluate<number>(
        "(l => l.scrollHeight - l.scrollTop - l.clientHeight)(document.querySelector('pre.log'))",
      );
    const lines = Array.from({ length: 150 }, (_, i) => `line ${i + 1}`);
    await platform.kube.appendPodLog('ns-alpha', 'logger-0', `${lines.join('\n')}\n`);
    await log.getByText(/line 150/).waitFor();
    assert.ok((await belowView()) < 30, 'scrolled to the newest line');
    await page.evaluate("document.querySelector('pre.log').scrollTop = 0");
    const jump = page.getByRole('button', { name: 'Jump to the newest lines' });
    await jump.waitFor();
    await platform.kube.appendPodLog('ns-alpha', 'logger-0', 'while reading\n');
    await log.getByText(/while reading/).waitFor();
    assert.ok((await belowView()) > 500, 'left where the reader scrolled to');
    await jump.click();
    assert.ok((await belowView()) < 30, 'back at the newest line');

    // Turning Follow off, or leaving the page, ends the stream.
    await page.getByRole('button', { name: 'Follow', pressed: true }).click();
    await page.getByRole('button', { name: 'Follow', pressed: false }).waitFor();
    await log.getByText(/while reading/).waitFor();
    await eventually('the stream aborted', () => (aborted.length === 1 ? true : undefined));
    await follow.click();
    await log.getByText(/while reading/).waitFor();
    await page.getByRole('link', { name: 'All agents' }).click();
    await page.getByRole('heading', { level: 2, name: 'Agents' }).waitFor();
    await eventually('the stream aborted again', () => (aborted.length === 2 ? true : undefined));
    assert.deepEqual(aborted, ['net::ERR_ABORTED', 'net::ERR_ABORTED']);
    assert.deepEqual(unexpected(), []);
  });

  journey('lets an editor edit and create prompt packs', async () => {
    const { page, unexpected } = await open('editor', '/workspaces/alpha/promptpacks');
    await page.getByRole('button', { name: 'Edit helper' }).click();
    const form = page.getByRole('form', { name: 'Edit helper' });
    await form.getByLabel('System prompt').fill('Be very helpful.');
    await form.getByLabel('Content of prompt 1').fill('Say hello.');
    await form.getByRole('button', { name: 'Add prompt' }).click();
    await form.getByLabel('Name of prompt 2').fill('bye');
    await form.getByLabel('Content of prompt 2').fill('Say bye.');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved the prompt pack “helper”.').waitFor();
    const helper = await packs().get('helper', 'ns-alpha');
    assert.equal(helper.spec.systemPrompt, 'Be very helpful.');
    assert.equal(helper.spec.description, 'Helps');
    assert.deepEqual(helper.spec.prompts, [
      { name: 'hi', content: 'Say hello.' },
      { name: 'bye', content: 'Say bye.' },
    ]);

    await page.getByRole('button', { name: 'New prompt pack' }).click();
    const creating = page.getByRole('form', { name: 'New prompt pack' });
    await creating.getByLabel('Name').fill('helper');
    await creating.getByLabel('System prompt').fill('Review.');
    await creating.getByRole('button', { name: 'Create prompt pack' }).click();
    await creating
      .getByRole('alert')
      .getByText(/already exists/)
      .waitFor();
    await creating.getByLabel('Name').fill('reviewer');
    await creating.getByLabel('Description (optional)').fill('Reviews changes');
    await creating.getByRole('button', { name: 'Create prompt pack' }).click();
    await page.getByText('Created the prompt pack “reviewer”.').waitFor();
    await page.getByRole('heading', { level: 3, name: 'reviewer' }).waitFor();
    assert.equal((await packs().get('reviewer', 'ns-alpha')).spec.systemPrompt, 'Review.');
    await screenshot(page, 'workspace-prompt-packs');
    assert.deepEqual(unexpected(), []);
  });

  journey(
    'lets an editor edit a tool registry’s spec, refusing invalid ones with a sentence',
    async () => {
      const { page, unexpected, apiErrors } = await open(
        'editor',
        '/workspaces/alpha/toolregistries',
      );
      const card = page.getByRole('article', { name: 'tools' });
      await card.getByText(/\d+ discovered/).waitFor();
      await page.getByRole('button', { name: 'Edit tools' }).click();
      const form = page.getByRole('form', { name: 'Edit tools' });
      const spec = form.getByLabel('Spec (JSON)');
      assert.match(await spec.inputValue(), /"handlers"/);

      await spec.fill('{ "handlers": [');
      await form.getByRole('button', { name: 'Save' }).click();
      await form
        .getByRole('alert')
        .getByText(/^The spec is not valid JSON/)
        .waitFor();
      assert.deepEqual(apiErrors, [], 'nothing is sent');

      await spec.fill(JSON.stringify({ handlers: [{ name: 'x', type: 'carrier-pigeon' }] }));
      await form.getByRole('button', { name: 'Save' }).click();
      const refusal = await textOf(form.getByRole('alert'));
      assert.match(refusal, /^The dashboard refused this: .*carrier-pigeon/);
      assert.deepEqual(apiErrors, [400]);

      const handlers = [
        {
          name: 'search',
          type: 'http',
          endpoint: { url: 'http://127.0.0.1:9/find' },
          tool: { name: 'find', description: 'Finds', inputSchema: { type: 'object' } },
        },
      ];
      await spec.fill(JSON.stringify({ handlers }, null, 2));
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').getByText('Saved the tool registry “tools”.').waitFor();
      const saved = await registries().get('tools', 'ns-alpha');
      assert.equal(saved.spec.handlers[0]?.tool?.name, 'find');
      await screenshot(page, 'workspace-tool-registries');
      assert.deepEqual(unexpected(), []);
    },
  );

  journey(
    'lets an owner grant access until a time, and refuses to remove the last owner',
    async () => {
      const { page, unexpected } = await open('owner', '/workspaces/alpha/members');
      await page.getByRole('heading', { level: 2, name: 'Members' }).waitFor();
      const grants = page.getByRole('group', { name: 'Direct grants' });
      await grants.getByText('expired', { exact: true }).waitFor();
      await grants.getByRole('button', { name: 'Add grant' }).click();
      const added = grants.getByRole('group', { name: 'Grant 2' });
      await added.getByLabel('User').fill('frank');
      await added.getByLabel('Role').selectOption('editor');
      await added.getByLabel('Expires (optional)').fill('2030-01-02T03:04');
      await page.getByRole('button', { name: 'Save members' }).click();
      await page.getByRole('status').getByText('Members saved.').waitFor();
      const spec = (await workspaces().get('alpha')).spec;
      assert.deepEqual(spec.directGrants, [
        { user: 'old-timer', role: 'viewer', expires: '2020-01-01T00:00:00Z' },
        // 03:04 in Paris in January is 02:04 UTC.
        { user: 'frank', role: 'editor', expires: '2030-01-02T02:04:00Z' },
      ]);
      assert.equal(spec.roleBindings?.length, 3);
      await grants
        .getByRole('group', { name: 'Grant 2' })
        .getByText('active', { exact: true })
        .waitFor();

      const bindings = page.getByRole('group', { name: 'Role bindings' });
      assert.equal(
        await bindings.getByRole('group', { name: 'Binding 1' }).getByLabel('Groups').inputValue(),
        'alpha-owners',
      );
      await bindings.getByRole('button', { name: 'Remove binding 1' }).click();
      await page.getByRole('button', { name: 'Save members' }).click();
      const refusal = await textOf(page.getByRole('alert'));
      assert.match(refusal, /would leave the workspace without an owner/);
      assert.equal((await workspaces().get('alpha')).spec.roleBindings?.length, 3);
      await screenshot(page, 'workspace-members');
      assert.deepEqual(unexpected(), []);
    },
  );

  journey(
    'shows a suspended workspace’s notice, and the refusal of a change as a sentence',
    async () => {
      await eventually(
        'spender suspended, as the dashboard sees it',
        async () => {
          const body = (await apiAs('editor', '/api/workspaces/spender')) as {
            workspace?: { phase: string };
          };
          return body.workspace?.phase === 'Suspended' ? true : undefined;
        },
        20_000,
      );
      const { page, unexpected } = await open('editor', '/workspaces/spender/agents');
      await page.getByText('This workspace is suspended: changes are blocked.').waitFor();
      assert.match(
        await textOf(page.locator('.ws-suspended')),
        /today \$5\.00 of a \$1\.00 daily budget/,
      );
      await page.getByLabel('Replicas of costly', { exact: true }).fill('3');
      await page.getByRole('button', { name: 'Save replicas of costly' }).click();
      const refusal = await textOf(page.getByRole('alert'));
      assert.match(refusal, /^The workspace is suspended because its budget is exceeded/);
      assert.notEqual((await agents().get('costly', 'ns-spender')).spec.replicas, 3);
      await screenshot(page, 'workspace-suspended');
      assert.deepEqual(unexpected(), []);
    },
  );
});
