import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import {
  eventually,
  launchBrowser,
  screenshot,
  startAgentPlatform,
  type AgentPlatform,
} from '@paddock/testing';
import { onProxyPage, PEOPLE, type Person } from './support/journey.js';

/**
 * An agent's workspace in the web interface, in Chromium, against the whole platform: the
 * embedded cluster, the operator, the local node running the agent's real pod (its sandbox) and
 * the dashboard in proxy mode, each browser context playing the proxy for one person.
 */

const WS = 'studio';
const AGENT = 'coder';
const POD = `${AGENT}-0`;

/** A 1×1 PNG. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let platform: AgentPlatform;
let browser: Browser;
const agentPage = `/workspaces/${WS}/agents/${AGENT}`;

before(async () => {
  platform = await startAgentPlatform();
  browser = await launchBrowser();
  await platform.workspace(WS, {
    roleBindings: [
      { groups: ['readers'], role: 'viewer' },
      { groups: ['devs'], role: 'editor' },
    ],
  });
  await platform.agent(WS, AGENT, { sandbox: { exec: true } });
  // What the agent has made so far, straight into the pod's workspace.
  const folder = platform.workspaceFolder(WS, POD);
  await mkdir(join(folder, 'src'), { recursive: true });
  await mkdir(join(folder, 'dist'), { recursive: true });
  await writeFile(join(folder, '.gitignore'), 'dist/\n*.log\n');
  await writeFile(
    join(folder, 'src', 'greet.ts'),
    '// Greets <someone> & everyone.\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  );
  await writeFile(join(folder, 'README.md'), '# Studio\n\nA workspace for the coder agent.\n');
  await writeFile(join(folder, 'dist', 'greet.js'), 'export const greet = 1;\n');
  await writeFile(join(folder, 'build.log'), 'built\n');
  await writeFile(join(folder, 'pixel.png'), Buffer.from(PIXEL_PNG, 'base64'));
  await writeFile(join(folder, 'data.bin'), Buffer.from([0, 1, 2, 255, 254, 0]));
});

after(async () => {
  await browser?.close();
  await platform?.stop();
});

/**
 * Runs `steps` on a page of the person on the agent page (with `search`), once it shows its tabs,
 * then checks that nothing went wrong on it; the page is closed either way.
 */
async function onAgentPage(
  person: Person,
  search: string,
  steps: (page: Page) => Promise<void>,
): Promise<void> {
  const path = `${agentPage}${search}`;
  const at = { base: platform.dashboard.base, person: PEOPLE[person], path, timeoutMs: 15_000 };
  await onProxyPage(browser, at, async (page) => {
    await page.getByRole('tab', { name: 'Overview' }).waitFor();
    await steps(page);
  });
}

const tabNames = (page: Page) => page.getByRole('tab').allInnerTexts();

/** An MCP client of the agent through the dashboard, as the editor. */
async function mcpAsEditor(): Promise<McpClient> {
  const client = new McpClient({ name: 'agent-workspace-test', version: '1.0.0' });
  const { user, groups } = PEOPLE.editor;
  const url = new URL(`${platform.dashboard.base}/api/workspaces/${WS}/agents/${AGENT}/mcp`);
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { 'x-forwarded-user': user, 'x-forwarded-groups': groups } },
    }),
  );
  return client;
}

describe("an agent's workspace in the web interface", () => {
  it('Files: the tree folder by folder, ignored entries marked, a file highlighted', async () => {
    await onAgentPage('editor', '?tab=files', async (page) => {
      const tree = page.getByRole('navigation', { name: 'Files' });
      await tree.getByRole('button', { name: 'src/' }).click();
      await tree.getByRole('button', { name: /greet\.ts/ }).click();
      const code = page.getByRole('region', { name: 'File viewer' }).locator('pre.ws-code');
      await code.locator('.hljs-keyword', { hasText: 'function' }).waitFor();
      // The file's text, markup characters included, is shown as text.
      assert.match(await code.innerText(), /Greets <someone> & everyone\./);
      assert.equal(await code.locator('someone').count(), 0);
      // git's rules: dist/ and *.log are ignored, the rest is not.
      const ignored = await tree.locator('.ws-tree-ignored > .ws-tree-item').allInnerTexts();
      assert.deepEqual(
        ignored.map((t) => t.split('\n').find((line) => /\w/.test(line))),
        ['dist/', 'build.log'],
      );
      await screenshot(page, 'agent-files', { docs: true });
      // An image is shown as one, a binary file is offered for download.
      await tree.getByRole('button', { name: /pixel\.png/ }).click();
      const image = page.getByRole('img', { name: 'pixel.png' });
      await image.waitFor();
      await eventually('the image loaded', async () =>
        (await image.evaluate(
          (img) => (img as unknown as { naturalWidth: number }).naturalWidth,
        )) === 1
          ? true
          : undefined,
      );
      await tree.getByRole('button', { name: /data\.bin/ }).click();
      await page.getByText('This file is not text').waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download', exact: true }).click();
      assert.equal((await download).suggestedFilename(), 'data.bin');
      // Keyboard: the arrows move along the tabs.
      await page.getByRole('tab', { name: 'Files' }).focus();
      await page.keyboard.press('ArrowRight');
      await page.getByRole('tab', { name: 'Changes', selected: true }).waitFor();
    });
  });

  it('Changes: a file the agent writes appears at once and opens in Files', async () => {
    await onAgentPage('editor', '?tab=changes', async (page) => {
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      const client = await mcpAsEditor();
      try {
        const wrote = await client.callTool({
          name: 'Write',
          arguments: { file_path: 'notes/plan.md', content: '# Plan\n\n1. Write the tests.\n' },
        });
        assert.ok(wrote.isError !== true, JSON.stringify(wrote));
      } finally {
        await client.close();
      }
      const entry = page.getByRole('button', { name: 'notes/plan.md' }).first();
      await entry.waitFor();
      await screenshot(page, 'agent-changes', { docs: true });
      await entry.click();
      await page.getByRole('tab', { name: 'Files', selected: true }).waitFor();
      await page.locator('pre.ws-code', { hasText: 'Write the tests.' }).waitFor();
      assert.match(page.url(), /tab=files&path=notes%2Fplan\.md/);
    });
  });

  it('Terminal: a shell in the workspace runs a command, then says how it ended', async () => {
    await onAgentPage('editor', '?tab=terminal', async (page) => {
      await page.getByRole('status').filter({ hasText: 'A login shell' }).waitFor();
      const rows = page.locator('.ws-terminal-box .xterm-rows');
      // The prompt is there: the shell reads what is typed from now on.
      const row = (text: RegExp) => rows.locator('> div').filter({ hasText: text }).first();
      await row(/\S/).waitFor();
      await page.locator('.ws-terminal-box').click();
      // A short prompt and a clear screen, for the picture.
      await page.keyboard.type("PS1='workspace $ '; clear\n");
      await row(/^\s*workspace\s\$\s*$/).waitFor();
      await page.keyboard.type('echo hello-from-terminal\n');
      // The command line, then its output on a line of its own.
      await row(/^\s*hello-from-terminal\s*$/).waitFor();
      assert.match(await rows.innerText(), /workspace \$ echo hello-from-terminal/);
      await screenshot(page, 'agent-terminal', { docs: true });
      await page.keyboard.type('exit 3\n');
      await page.getByRole('status').filter({ hasText: 'The shell exited with code 3.' }).waitFor();
      await page.getByRole('button', { name: 'Reconnect' }).click();
      await page.getByRole('status').filter({ hasText: 'A login shell' }).waitFor();
      // The new shell has the focus, and follows the window's size.
      await row(/\S/).waitFor();
      const size = async (mark: string) => {
        await page.keyboard.type(`echo ${mark} $(stty size)\n`);
        const line = await row(new RegExp(`^\\s*${mark} \\d+ \\d+\\s*$`)).innerText();
        return line.trim().split(/\s+/).slice(1).map(Number);
      };
      const [rowsBefore, colsBefore] = await size('wide');
      await page.setViewportSize({ width: 800, height: 700 });
      await eventually('the terminal resized', async () => {
        const [rowsAfter, colsAfter] = await size(`narrow${Date.now()}`);
        return colsAfter! < colsBefore! && rowsAfter! < rowsBefore! ? true : undefined;
      });
      // Tab completes in the shell; F6 leaves the terminal for its tab.
      await page.keyboard.press('F6');
      assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Terminal');
    });
  });

  it('with several pods, a picker chooses whose workspace the tabs show', async () => {
    await platform.agent(WS, 'pair', {}, 2);
    await writeFile(join(platform.workspaceFolder(WS, 'pair-0'), 'on-zero.txt'), 'zero\n');
    await writeFile(join(platform.workspaceFolder(WS, 'pair-1'), 'on-one.txt'), 'one\n');
    await onAgentPage('editor', '', async (page) => {
      await page.goto(`/workspaces/${WS}/agents/pair?tab=files`);
      const picker = page.getByLabel('Pod');
      assert.equal(await picker.inputValue(), 'pair-0');
      const tree = page.getByRole('navigation', { name: 'Files' });
      await tree.getByRole('button', { name: /on-zero\.txt/ }).waitFor();
      assert.equal(await tree.getByRole('button', { name: /on-one\.txt/ }).count(), 0);
      await picker.selectOption('pair-1');
      await tree.getByRole('button', { name: /on-one\.txt/ }).waitFor();
      assert.equal(await tree.getByRole('button', { name: /on-zero\.txt/ }).count(), 0);
      assert.match(page.url(), /pod=pair-1/);
    });
  });

  it('a viewer reads Files and Changes, and has no Terminal tab at all', async () => {
    await onAgentPage('viewer', '?tab=terminal', async (page) => {
      assert.deepEqual(await tabNames(page), [
        'Overview',
        'Runs',
        'Files',
        'Changes',
        'Connect',
        'Log',
      ]);
      // Asked for by address, the terminal is not there either: the overview shows.
      await page.getByRole('tab', { name: 'Overview', selected: true }).waitFor();
      await page.getByRole('tab', { name: 'Files' }).click();
      await page
        .getByRole('navigation', { name: 'Files' })
        .getByRole('button', { name: /README\.md/ })
        .click();
      await page.locator('pre.ws-code', { hasText: 'A workspace for the coder agent.' }).waitFor();
    });
  });
});
