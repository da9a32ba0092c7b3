import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import { serverInstructions } from '../src/mcp/instructions.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { startSandbox, type RunningSandbox } from './support/sandbox.js';

/**
 * docs/sandbox/mcp.md agrees with the code: its example instructions and its annotations table are
 * the server's, and its offline MCP Inspector commands run as written from a folder outside the
 * repository against a running sandbox.
 */

const run = promisify(execFile);
const repository = resolve(import.meta.dirname, '..', '..', '..');
const doc = await readFile(join(repository, 'docs', 'sandbox', 'mcp.md'), 'utf8');

/** What the documented commands name: the checkout, and the sandbox's documented address. */
const DOCUMENTED_CHECKOUT = 'path/to/paddock';
const DOCUMENTED_BASE = 'http://127.0.0.1:7070';
/** How long one Inspector command may take (an npm start and an MCP session). */
const COMMAND_TIMEOUT_MS = 60_000;
/** The Inspector's JSON answer is printed whole; a tools/list is about 20 KB. */
const COMMAND_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** The shell commands of the ```sh blocks that start with `prefix`, continuations joined. */
function commandsStartingWith(prefix: string): string[] {
  const commands: string[] = [];
  for (const block of doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const command of block[1]!.replace(/\\\n\s*/g, '').split('\n')) {
      if (command.startsWith(prefix)) commands.push(command);
    }
  }
  return commands;
}

describe('docs/sandbox/mcp.md', () => {
  it('shows the instructions the server gives', () => {
    const example = /^```text\n(This server gives access[\s\S]*?)\n```$/m.exec(doc);
    assert.ok(example, 'the instructions example is in the doc');
    assert.equal(example[1], serverInstructions({ root: '/srv/ws' }));
  });

  it("shows each tool's title and hints as the server gives them", () => {
    const yesNo = (value: boolean | undefined) => (value === true ? 'yes' : 'no');
    const rows = new Map<string, string[]>();
    for (const row of doc.matchAll(
      /^\| (\w+) +\| ([^|]+?) +\| (\w+) +\| (\w+) +\| (\w+) +\| (\w+) +\|/gm,
    )) {
      rows.set(row[1]!, row.slice(2, 7));
    }
    for (const tool of TOOLS) {
      const a = tool.annotations!;
      assert.deepEqual(
        rows.get(tool.name),
        [
          a.title,
          yesNo(a.readOnlyHint),
          yesNo(a.destructiveHint),
          yesNo(a.idempotentHint),
          yesNo(a.openWorldHint),
        ],
        tool.name,
      );
    }
  });
});

describe("the MCP Inspector's offline commands of docs/sandbox/mcp.md", () => {
  let workspace: Awaited<ReturnType<typeof tempDir>>;
  let elsewhere: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: RunningSandbox;
  before(async () => {
    workspace = await tempDir();
    await writeFile(join(workspace.path, 'README.md'), 'Hello from the workspace\n');
    elsewhere = await tempDir('paddock-elsewhere-');
    sandbox = await startSandbox(workspace.path);
  });
  after(async () => {
    await sandbox.stop();
    await Promise.all([workspace.remove(), elsewhere.remove()]);
  });

  /** Runs a documented command as a user's shell would, in a folder outside the repository. */
  async function runDocumented(command: string): Promise<unknown> {
    const text = command
      .replaceAll(DOCUMENTED_CHECKOUT, repository)
      .replaceAll(DOCUMENTED_BASE, sandbox.base);
    // A user's shell, not this test run's npm: none of npm's variables, and no network needed.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
    );
    const { stdout } = await run('sh', ['-c', text], {
      cwd: elsewhere.path,
      env: { ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
      timeout: COMMAND_TIMEOUT_MS,
      maxBuffer: COMMAND_MAX_OUTPUT_BYTES,
    });
    return JSON.parse(stdout);
  }

  it('lists the tools and calls one', async () => {
    const commands = commandsStartingWith(`npm exec --prefix ${DOCUMENTED_CHECKOUT} `);
    assert.equal(commands.length, 2, commands.join('\n'));
    const [list, call] = commands as [string, string];

    const listed = (await runDocumented(list)) as {
      tools: Array<{ name: string; annotations?: { title?: string } }>;
    };
    assert.deepEqual(
      listed.tools.map((tool) => [tool.name, tool.annotations?.title]),
      TOOLS.map((tool) => [tool.name, tool.annotations?.title]),
    );
    assert.deepEqual(await runDocumented(call), {
      content: [{ type: 'text', text: '1\tHello from the workspace' }],
    });
  });
});
