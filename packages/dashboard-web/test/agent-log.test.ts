import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { agentPod, eventually, screenshot } from '@paddock/testing';
import { assertFitsWidth, textOf, watchPage } from './support/journey.js';
import { startProxyDashboard, type ProxyDashboard } from './support/proxy-dashboard.js';

/**
 * The agent page's log viewer and Connect panel in Chromium, against the embedded cluster with
 * the operator running: the dashboard in proxy mode, each browser context playing the
 * authenticating proxy for one user.
 */

let platform: ProxyDashboard;

/** `devs` is the dashboard's editors: a workspace role acts within the dashboard-wide one. */
const USERS = {
  editor: { user: 'erin', groups: 'gamma-devs,devs' },
  viewer: { user: 'vic', groups: 'gamma-readers' },
} as const;
type Person = keyof typeof USERS;

const T = Date.parse('2026-11-26T05:00:00.000Z');
/** The agent's log: pino JSON lines of every level, a plain line and a long one. */
const LOG = [
  'booting the sandbox',
  JSON.stringify({
    level: 30,
    time: T,
    pid: 1,
    hostname: 'worker-0',
    msg: 'listening',
    port: 7070,
  }),
  JSON.stringify({ level: 20, time: T + 10, msg: 'cache warm' }),
  JSON.stringify({ level: 40, time: T + 20, msg: 'slow tool call', tool: 'search', ms: 2300 }),
  JSON.stringify({ level: 50, time: T + 30, msg: 'upstream failed', err: { code: 'ECONNRESET' } }),
  `a long line ${'0123456789'.repeat(60)}`,
];

before(async () => {
  platform = await startProxyDashboard();
  await platform.workspace('gamma', {
    displayName: 'Gamma',
    roleBindings: [
      { groups: ['gamma-devs'], role: 'editor' },
      { groups: ['gamma-readers'], role: 'viewer' },
    ],
  });
  await agentPod(platform.kube, 'ns-gamma', 'worker', `${LOG.join('\n')}\n`);
  await platform.agent('ns-gamma', 'worker', { promptPackRef: { name: 'any' }, replicas: 1 });
});

after(() => platform?.stop());

/** A page of the person (the proxy's headers on every request), and what went wrong on it. */
async function open(person: Person, path: string) {
  const context = await platform.contextOf(USERS[person], { acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: platform.dashboard.base,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const unexpected = watchPage(page);
  await page.goto(path);
  return { page, unexpected };
}

/**
 * Shows one part of the agent page: its tab where the page has tabs, else the page as it is
 * (where the part is one section of the page).
 */
async function show(page: Page, tab: string, part: Locator): Promise<void> {
  const tabLocator = page.getByRole('tab', { name: tab, exact: true });
  await tabLocator.or(part).first().waitFor();
  if (await tabLocator.isVisible()) await tabLocator.click();
  await part.waitFor();
}

/** The messages of the log's lines, in order, as shown (page-side code as text: no DOM types here). */
function shownMessages(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    "[...document.querySelectorAll('pre.log .log-line')].map((l) => (l.querySelector('.log-message') ?? l).textContent)",
  );
}

describe('the agent log viewer', () => {
  it('parses JSON lines, filters by level and text, wraps, downloads and keeps the newest lines', async () => {
    const { page, unexpected } = await open('viewer', '/workspaces/gamma/agents/worker');
    const log = page.getByRole('log', { name: 'Log of pod worker-0, container agent' });
    await show(page, 'Log', log);
    await log.getByText('upstream failed').waitFor();

    // JSON lines: time, level and message; plain lines as they are.
    assert.deepEqual(await shownMessages(page), [
      'booting the sandbox',
      'listening',
      'cache warm',
      'slow tool call',
      'upstream failed',
      LOG[5],
    ]);
    const listening = log.locator('.log-line', { hasText: 'listening' });
    assert.match(await textOf(listening), /^\d\d:\d\d:\d\d\.000 INFO listening \+3 fields$/);
    assert.equal(
      await listening.locator('time').getAttribute('datetime'),
      '2026-11-26T05:00:00.000Z',
    );
    assert.match(
      await textOf(log.locator('.log-line', { hasText: 'upstream' })),
      /ERROR upstream failed \+1 field$/,
    );

    // The other fields unfold, and fold again, from the keyboard.
    const more = listening.getByRole('button', { name: '+3 fields' });
    await more.focus();
    await page.keyboard.press('Enter');
    const fields = listening.getByRole('button', { name: 'hide fields', expanded: true });
    await fields.waitFor();
    assert.match(
      await textOf(listening.locator('.log-fields')),
      /^pid: 1 hostname: worker-0 port: 7070$/,
    );
    await page.keyboard.press('Enter');
    await listening.getByRole('button', { name: '+3 fields', expanded: false }).waitFor();
    assert.equal(await listening.locator('.log-fields').count(), 0);

    const count = page.locator('.ws-log-count');
    assert.match(await textOf(count), /^6 lines\. The viewer keeps the newest 5,000 lines\.$/);

    // Levels: warnings and errors only, then lines without a level only.
    const levels = page.getByRole('group', { name: 'Levels' });
    await levels.getByLabel('Debug').uncheck();
    await levels.getByLabel('Info').uncheck();
    await levels.getByLabel('No level').uncheck();
    await page.getByText('2 of 6 lines match the filter.').waitFor();
    assert.deepEqual(await shownMessages(page), ['slow tool call', 'upstream failed']);
    await levels.getByLabel('Warning').uncheck();
    await levels.getByLabel('Error').uncheck();
    await log.getByText('No line matches the filter.').waitFor();
    await levels.getByLabel('No level').check();
    await page.getByText('2 of 6 lines match the filter.').waitFor();
    assert.deepEqual(await shownMessages(page), ['booting the sandbox', LOG[5]]);
    for (const level of ['Debug', 'Info', 'Warning', 'Error']) {
      await levels.getByLabel(level).check();
    }
    await page.getByText('6 lines.', { exact: false }).waitFor();

    // Text, in any case, anywhere in the line as written (field names and values too).
    const filter = page.getByLabel('Filter lines');
    await filter.fill('ECONNRESET');
    await page.getByText('1 of 6 lines match the filter.').waitFor();
    assert.deepEqual(await shownMessages(page), ['upstream failed']);
    await filter.fill('SLOW');
    await page.getByText('1 of 6 lines match the filter.').waitFor();
    assert.deepEqual(await shownMessages(page), ['slow tool call']);

    // Download: the lines shown, as they were written, in a .log file.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), 'worker-0-agent.log');
    assert.equal(await readFile(await download.path(), 'utf8'), `${LOG[3]}\n`);
    await filter.fill('');
    await page.getByText(/^6 lines\./).waitFor();

    // Wrap: long lines fold by default, and scroll sideways without it.
    const overflows = () =>
      page.evaluate<boolean>(
        "(p => p.scrollWidth > p.clientWidth + 1)(document.querySelector('pre.log'))",
      );
    assert.equal(await overflows(), false);
    await page.getByLabel('Wrap long lines').uncheck();
    await eventually('the long line unwrapped', async () =>
      (await overflows()) ? true : undefined,
    );
    await screenshot(page, 'agent-log', { docs: true });
    await page.getByLabel('Wrap long lines').check();
    await eventually('the long line wrapped', async () => ((await overflows()) ? undefined : true));

    // Following many thousand lines keeps the newest 5,000, and the page keeps answering.
    await page.getByRole('button', { name: 'Follow' }).click();
    await page.getByText('Following the log: new lines appear as they are written.').waitFor();
    await log.getByText('upstream failed').waitFor();
    const burst = Array.from({ length: 6000 }, (_, i) =>
      JSON.stringify({ level: 30, time: T + 1000 + i, msg: `step ${i + 1}` }),
    );
    await platform.kube.appendPodLog('ns-gamma', 'worker-0', `${burst.join('\n')}\n`);
    await log.getByText('step 6000', { exact: true }).waitFor();
    await page
      .getByText(
        /^5,000 lines\. Only the newest 5,000 lines are kept: \d[\d,]* older ones gave way\.$/,
      )
      .waitFor();
    assert.equal(await log.locator('.log-line').count(), 5000);
    assert.equal(await log.getByText('step 1000', { exact: true }).count(), 0);
    await filter.fill('step 5999');
    await page.getByText('1 of 5,000 lines match the filter.').waitFor();
    await page.getByRole('button', { name: 'Follow', pressed: true }).click();
    await page.setViewportSize({ width: 360, height: 800 });
    await assertFitsWidth(page);
    await screenshot(page, 'agent-log-360');
    assert.deepEqual(unexpected(), []);
  });
});

describe('the agent Connect panel', () => {
  it('gives an editor the MCP address, client configurations and paddock-forward commands to copy', async () => {
    const { page, unexpected } = await open('editor', '/workspaces/gamma/agents/worker');
    const mcp = page.getByRole('heading', { level: 3, name: 'MCP server' });
    await show(page, 'Connect', mcp);
    const base = platform.dashboard.base;
    const http = `${base}/api/workspaces/gamma/agents/worker/mcp`;
    const snippet = (title: string) => page.getByLabel(title, { exact: true });

    assert.equal(await textOf(snippet('Streamable HTTP address')), http);
    assert.equal(
      await textOf(snippet('SSE address (older clients)')),
      `${base}/api/workspaces/gamma/agents/worker/sse`,
    );
    const claude = `claude mcp add --transport http gamma-worker ${http} --header 'X-API-Key: <your API key>'`;
    assert.equal(await textOf(snippet('Claude Code')), claude);
    const vscode = JSON.parse(await snippet('VS Code').innerText()) as {
      servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    assert.deepEqual(vscode.servers['gamma-worker'], {
      type: 'http',
      url: http,
      headers: { 'X-API-Key': '${input:paddock-api-key}' },
    });
    const cursor = JSON.parse(await snippet('Cursor').innerText()) as unknown;
    assert.deepEqual(cursor, {
      mcpServers: { 'gamma-worker': { url: http, headers: { 'X-API-Key': '<your API key>' } } },
    });
    assert.equal(
      await textOf(snippet('MCP Inspector')),
      `npx -y @modelcontextprotocol/inspector@0.18.0 --cli ${http} --transport http --method tools/list --header 'X-API-Key: <your API key>'`,
    );
    assert.equal(
      await page.getByRole('link', { name: 'API keys page' }).getAttribute('href'),
      '/settings/api-keys',
    );

    // Copy, from the keyboard: the command is on the clipboard, and the page says so.
    await page.getByRole('button', { name: 'Copy the Claude Code command' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), claude);

    const through = `--dashboard ${base} --workspace gamma --agent worker --api-key '<your API key>'`;
    assert.equal(
      await textOf(snippet('1. Set up SSH (once)')),
      `paddock-forward ssh-setup gamma-worker ${through}`,
    );
    assert.equal(await textOf(snippet('2. Connect')), 'ssh gamma-worker');
    await page.getByText('Remote-SSH: Connect to Host…').waitFor();
    assert.equal(await textOf(snippet('Port forward')), `paddock-forward --port 3000 ${through}`);
    const port = page.getByLabel('Port in the workspace');
    await port.fill('70000');
    await page.getByText('A port is a number from 1 to 65535.').waitFor();
    assert.equal(await snippet('Port forward').count(), 0);
    await port.fill('8080');
    await page.getByText(`paddock-forward --port 8080 ${through}`).waitFor();
    await page.getByRole('button', { name: 'Copy the port forward command' }).click();
    assert.equal(
      await page.evaluate<string>('navigator.clipboard.readText()'),
      `paddock-forward --port 8080 ${through}`,
    );
    await screenshot(page, 'agent-connect', { docs: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await assertFitsWidth(page);
    assert.deepEqual(unexpected(), []);
  });

  it('tells a viewer that connecting needs the editor role, and offers nothing to copy', async () => {
    const { page, unexpected } = await open('viewer', '/workspaces/gamma/agents/worker');
    const refusal = page.getByText(/^Connecting to this agent .* needs the editor or owner role/);
    await show(page, 'Connect', refusal);
    assert.equal(await page.getByRole('button', { name: /^Copy/ }).count(), 0);
    assert.equal(await page.getByRole('heading', { name: 'MCP server' }).count(), 0);
    assert.equal(await page.getByText('paddock-forward').count(), 0);
    assert.deepEqual(unexpected(), []);
  });
});
