import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { API_VERSION, KINDS, type ToolRegistry } from '@paddock/kube';
import {
  eventually,
  GREET_SCHEMA,
  screenshot,
  startEchoHttpTool,
  startGreeterMcp,
  type ToolServer,
} from '@paddock/testing';
import { assertFitsWidth, textOf, watchPage } from './support/journey.js';
import { startProxyDashboard, type ProxyDashboard } from './support/proxy-dashboard.js';

/**
 * A workspace's tools as its members see them in the dashboard: discovered live with their
 * descriptions and schemas, tried with a form, against real tool servers, the embedded cluster and
 * the operator; then in Chromium, with the browser tab's title and a phone-wide screen.
 */

const WS = 'tools';
const NAMESPACE = `ns-${WS}`;
const REGISTRY = 'team-tools';
const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;

const USERS = {
  owner: { user: 'ona', groups: 'tools-owners,devs' },
  editor: { user: 'ed', groups: 'tools-devs,devs' },
  viewer: { user: 'vi', groups: 'tools-readers' },
} as const;
type Person = keyof typeof USERS;

let platform: ProxyDashboard;
let mcpTools: ToolServer;
let httpTool: ToolServer;
let closedPort: number;
const greeted: unknown[] = [];
const looked: string[] = [];

const toolsPath = `/api/workspaces/${WS}/toolregistries/${REGISTRY}/tools`;

async function request(
  person: Person,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { user, groups } = USERS[person];
  const response = await fetch(`${platform.dashboard.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'x-forwarded-user': user,
      'x-forwarded-groups': groups,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const callTool = (person: Person, tool: string, args: unknown) =>
  request(person, `${toolsPath}/${encodeURIComponent(tool)}/call`, { arguments: args });

/** A port nothing listens on: one the system gave and took back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

before(async () => {
  [mcpTools, httpTool, closedPort] = await Promise.all([
    startGreeterMcp(greeted),
    startEchoHttpTool(looked),
    freePort(),
  ]);
  platform = await startProxyDashboard();
  await platform.workspace(WS, {
    displayName: 'Tool shop',
    roleBindings: [
      { groups: ['tools-owners'], role: 'owner' },
      { groups: ['tools-devs'], role: 'editor' },
      { groups: ['tools-readers'], role: 'viewer' },
    ],
  });
  await platform.kube.resource<ToolRegistry>(kindOf('ToolRegistry')).create({
    apiVersion: API_VERSION,
    kind: 'ToolRegistry',
    metadata: { name: REGISTRY, namespace: NAMESPACE },
    spec: {
      handlers: [
        {
          name: 'greeter',
          type: 'mcp',
          timeout: '5s',
          mcpConfig: { transport: 'sse', endpoint: `${mcpTools.url}/mcp` },
        },
        {
          name: 'lookup',
          type: 'http',
          endpoint: { url: `${httpTool.url}/lookup` },
          tool: {
            name: 'lookup',
            description: 'Looks a term up',
            inputSchema: {
              type: 'object',
              properties: {
                term: { type: 'string', description: 'The term' },
                limit: { type: 'integer' },
              },
              required: ['term'],
            },
          },
        },
        {
          name: 'down',
          type: 'http',
          timeout: '2s',
          endpoint: { url: `http://127.0.0.1:${closedPort}/gone` },
          tool: { name: 'gone', description: 'Never answers', inputSchema: { type: 'object' } },
        },
      ],
    },
  });
});

after(async () => {
  await platform?.stop();
  await Promise.all([mcpTools?.close(), httpTool?.close()]);
});

describe("a registry's tools through the dashboard's API", () => {
  it('lists each tool with its description, schema, endpoint and status, to viewers too', async () => {
    const answer = await request('viewer', toolsPath);
    assert.equal(answer.status, 200);
    const tools = answer.body['tools'] as Record<string, unknown>[];
    const byName: Record<string, Record<string, unknown>> = Object.fromEntries(
      tools.map((t) => [String(t['name']), t]),
    );
    assert.deepEqual(byName['greet'], {
      handlerName: 'greeter',
      name: 'greet',
      status: 'Available',
      endpoint: `${mcpTools.url}/mcp`,
      error: null,
      description: 'Greets someone',
      inputSchema: GREET_SCHEMA,
      callable: true,
    });
    assert.equal(byName['lookup']?.['description'], 'Looks a term up');
    assert.equal(byName['lookup']?.['endpoint'], `${httpTool.url}/lookup`);
    assert.deepEqual((byName['lookup']?.['inputSchema'] as { required: string[] }).required, [
      'term',
    ]);
    assert.equal(byName['gone']?.['status'], 'Unavailable');
    assert.equal(byName['gone']?.['callable'], false);
    // The handler that cannot be reached says why, on its own.
    const handlers = answer.body['handlers'] as Record<string, unknown>[];
    assert.deepEqual(
      handlers.map((h) => [h['name'], h['state']]),
      [
        ['greeter', 'reached'],
        ['lookup', 'reached'],
        ['down', 'failed'],
      ],
    );
    assert.match(String(handlers[2]?.['error']), /ECONNREFUSED/);
  });

  it('calls a tool for an editor: its answer, how long it took, and who called it in the log', async () => {
    const answer = await callTool('editor', 'greet', { name: 'Ada' });
    assert.equal(answer.status, 200);
    const result = answer.body['result'] as Record<string, unknown>;
    assert.equal(result['text'], 'hello, Ada');
    assert.equal(result['isError'], false);
    assert.equal(result['handlerName'], 'greeter');
    assert.equal(typeof result['durationMs'], 'number');
    assert.deepEqual(greeted.at(-1), { name: 'Ada' });

    const looked_up = await callTool('owner', 'lookup', { term: 'paddock' });
    assert.equal((looked_up.body['result'] as { text: string }).text, 'found {"term":"paddock"}');

    const line = await eventually('the log line of the call', () =>
      platform.dashboard
        .output()
        .split('\n')
        .find((l) => l.includes('tool called from the dashboard') && l.includes('"tool":"greet"')),
    );
    const logged = JSON.parse(line) as Record<string, unknown>;
    assert.equal(logged['user'], 'ed');
    assert.equal(logged['registry'], REGISTRY);
    assert.deepEqual(logged['argumentNames'], ['name']);
    assert.doesNotMatch(line, /Ada/, 'argument values are not logged');
  });

  it('refuses viewers (403), and answers 404 for an unknown tool or registry', async () => {
    const refused = await callTool('viewer', 'greet', { name: 'Eve' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body['error'], 'forbidden');
    const unknown = await callTool('editor', 'nope', {});
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['error'], 'not_found');
    const noRegistry = await request('editor', `/api/workspaces/${WS}/toolregistries/nope/tools`);
    assert.equal(noRegistry.status, 404);
    assert.ok(!greeted.some((args) => JSON.stringify(args).includes('Eve')));
  });

  it('says clearly when the tool’s handler cannot be reached', async () => {
    const down = await callTool('editor', 'gone', {});
    assert.equal(down.status, 502);
    assert.equal(down.body['error'], 'bad_gateway');
    assert.match(String(down.body['message']), /tool "gone" of handler "down" cannot be called/);
    assert.match(String(down.body['message']), /ECONNREFUSED/);
  });

  it('refuses arguments that are not an object', async () => {
    const answer = await request('editor', `${toolsPath}/greet/call`, { arguments: [1] });
    assert.equal(answer.status, 400);
    assert.equal(answer.body['error'], 'invalid_request');
  });
});

/** A page of the person, checked for problems once the steps are done. */
async function onPage(
  person: Person,
  path: string,
  steps: (page: Page) => Promise<void>,
  viewport = { width: 1280, height: 900 },
) {
  const context = await platform.contextOf(USERS[person], { viewport });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems = watchPage(page);
    await page.goto(path);
    await steps(page);
    assert.deepEqual(problems(), []);
  } finally {
    await context.close();
  }
}

describe('the tool registries in Chromium', () => {
  it('shows a tool’s description and schema, and tries it with the form built from the schema', async () => {
    await onPage('editor', `/workspaces/${WS}/toolregistries`, async (page) => {
      const greet = page.getByRole('article', { name: 'greet', exact: true });
      await greet.getByText('Greets someone').waitFor();
      const argument = greet.getByRole('row', { name: /name/ });
      assert.equal(
        await textOf(argument),
        'name string required —',
        'the schema reads as its arguments',
      );
      assert.match(await textOf(greet), /Handler greeter/);
      assert.match(await textOf(greet), new RegExp(`Endpoint ${mcpTools.url}/mcp`));
      // The handler that cannot be reached, said once for the registry.
      assert.match(
        await textOf(page.getByRole('list', { name: `Handlers of ${REGISTRY} not reached` })),
        /Handler down \(http\) could not be reached: .*ECONNREFUSED/,
      );
      await page.waitForFunction(
        `document.title === 'Tool registries · Tool shop — Paddock'`,
        undefined,
        { timeout: 20_000 },
      );

      await greet.getByRole('button', { name: 'Try greet' }).click();
      const form = greet.getByRole('form', { name: 'Try greet' });
      await form.getByRole('button', { name: 'Call greet' }).click();
      // Checked before it is sent: the required field says so and takes the focus.
      await form.getByText('name is required.').waitFor();
      const nameInput = form.getByRole('textbox', { name: 'name (required)' });
      assert.equal(await nameInput.getAttribute('aria-invalid'), 'true');
      await nameInput.fill('Grace');
      await form.getByRole('button', { name: 'Call greet' }).click();
      const result = form.getByRole('status');
      await result.getByText('hello, Grace').waitFor();
      assert.match(await textOf(result), /Result Succeeded Took \d+ ms/);
      assert.deepEqual(greeted.at(-1), { name: 'Grace' });
      await screenshot(page, 'tool-registries-try', { docs: true });
    });
  });

  it('shows viewers the tools without the form', async () => {
    await onPage('viewer', `/workspaces/${WS}/toolregistries`, async (page) => {
      const greet = page.getByRole('article', { name: 'greet', exact: true });
      await greet.getByText('Greets someone').waitFor();
      assert.equal(await greet.getByRole('button', { name: 'Try greet' }).count(), 0);
    });
  });

  /** Waits for the browser tab's title (read through the page, which its policy allows). */
  const titled = (page: Page, want: string) =>
    eventually(`the title ${want}`, async () => ((await page.title()) === want ? true : undefined));

  it('names the page in the browser tab', async () => {
    await onPage('editor', '/', async (page) => {
      await page.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
      await titled(page, 'Workspaces — Paddock');
      await page
        .getByRole('link', { name: /Tool shop/ })
        .first()
        .click();
      await titled(page, 'Overview · Tool shop — Paddock');
    });
  });

  it('keeps every workspace tab reachable and readable 360 px wide', async () => {
    await onPage(
      'owner',
      `/workspaces/${WS}`,
      async (page) => {
        const tabs = page.getByRole('navigation', { name: 'Workspace sections' });
        await tabs.getByRole('link', { name: 'Members' }).waitFor();
        for (const name of ['Overview', 'Agents', 'Prompt packs', 'Tool registries', 'Members']) {
          const box = await tabs.getByRole('link', { name, exact: true }).boundingBox();
          assert.ok(box !== null, name);
          assert.ok(box.x >= 0 && box.x + box.width <= 360, `${name} is wholly in sight`);
        }
        // The workspace switcher, whose option names the workspace and role, stays in sight too.
        const switcher = await page.getByLabel('Workspace', { exact: true }).boundingBox();
        assert.ok(switcher !== null && switcher.x + switcher.width <= 360, 'the switcher fits');
        await assertFitsWidth(page);
        await screenshot(page, 'workspace-tabs-360');
        await tabs.getByRole('link', { name: 'Tool registries' }).click();
        await page
          .getByRole('article', { name: 'greet', exact: true })
          .getByText('Greets someone')
          .waitFor();
        assert.equal(new URL(page.url()).pathname, `/workspaces/${WS}/toolregistries`);
        await assertFitsWidth(page);
        await screenshot(page, 'tool-registries-360');
      },
      { width: 360, height: 740 },
    );
  });
});
