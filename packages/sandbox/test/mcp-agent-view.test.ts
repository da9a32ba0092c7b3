import assert from 'node:assert/strict';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '@paddock/testing';
import { serverInstructions } from '../src/mcp/instructions.js';
import { connect, startSandbox, textOf, type RunningSandbox } from './support/sandbox.js';

// The MCP tools as an agent sees them, through the official SDK client: annotations, the server
// instructions, schemas any function-calling API accepts, and Grep's type and multiline.

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let sandbox: RunningSandbox;
let client: Client;

before(async () => {
  dir = await tempDir();
  root = await realpath(dir.path);
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src', 'app.js'), 'function greet() {\n  return "hello";\n}\n');
  await writeFile(join(root, 'src', 'tool.py'), 'def greet():\n    return "hello"\n');
  await writeFile(join(root, '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
  sandbox = await startSandbox(dir.path);
  client = await connect(sandbox.base, 'streamable');
});
after(async () => {
  await client.close();
  await sandbox.stop();
  await dir.remove();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describe('tools/list', () => {
  // What each tool does to the workspace, as a client deciding whether to ask first needs it.
  const expected: Record<
    string,
    [
      title: string,
      readOnly: boolean,
      destructive: boolean,
      idempotent: boolean,
      openWorld: boolean,
    ]
  > = {
    Read: ['Read file', true, false, true, false],
    Write: ['Write file', false, true, true, false],
    Edit: ['Edit file', false, true, false, false],
    LS: ['List directory', true, false, true, false],
    Glob: ['Find files', true, false, true, false],
    Grep: ['Search file contents', true, false, true, false],
    Bash: ['Run command', false, true, false, true],
    BashOutput: ['Read background output', true, false, true, false],
    KillShell: ['Stop background command', false, true, true, false],
  };

  it('annotates every tool with a title and its hints', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      Object.keys(expected),
    );
    for (const tool of tools) {
      const [title, readOnly, destructive, idempotent, openWorld] = expected[tool.name]!;
      assert.equal(tool.title, title, `${tool.name}'s title`);
      assert.deepEqual(
        tool.annotations,
        {
          title,
          readOnlyHint: readOnly,
          destructiveHint: destructive,
          idempotentHint: idempotent,
          openWorldHint: openWorld,
        },
        tool.name,
      );
    }
  });

  it('gives input schemas without $schema or safe-integer bounds, in every nested schema', async () => {
    const { tools } = await client.listTools();
    const found: string[] = [];
    /** Every key and value of a schema, depth first, with where it is. */
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) {
        node.forEach((item, i) => walk(item, `${at}[${i}]`));
        return;
      }
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$schema') found.push(`${at}.$schema`);
        if (
          typeof value === 'number' &&
          Math.abs(value) >= Number.MAX_SAFE_INTEGER &&
          /^(exclusiveM|m)(in|ax)imum$/.test(key)
        ) {
          found.push(`${at}.${key} = ${value}`);
        }
        walk(value, `${at}.${key}`);
      }
    };
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      walk(tool.inputSchema, tool.name);
    }
    assert.deepEqual(found, []);
    // The bounds the tools state themselves stay.
    const bash = tools.find((tool) => tool.name === 'Bash')!;
    assert.deepEqual(bash.inputSchema.properties!.timeout, {
      ...(bash.inputSchema.properties!.timeout as object),
      minimum: 1,
      maximum: 600_000,
    });
  });
});

describe('the server instructions', () => {
  it('are in the initialize result: the real workspace root and how to work in it', () => {
    const instructions = client.getInstructions();
    assert.equal(instructions, serverInstructions({ root }));
    assert.ok(instructions.split('\n').includes(`Workspace root: ${root}`), instructions);
  });

  it('tell the truth: each Bash call starts in the root, whatever the last one did', async () => {
    assert.equal(
      textOf(await call('Bash', { command: 'cd src && pwd' })),
      `${root}/src\nexit code: 0`,
    );
    assert.equal(textOf(await call('Bash', { command: 'pwd' })), `${root}\nexit code: 0`);
  });

  it('tell the truth: paths are relative to the root or absolute inside it, and values are redacted as said', async () => {
    const relative = textOf(await call('Read', { file_path: '.env' }));
    assert.equal(relative, '1\tDB_PASSWORD=[REDACTED:secret-assignment]');
    assert.equal(textOf(await call('Read', { file_path: join(root, '.env') })), relative);
  });
});

describe('Grep type and multiline', () => {
  it('searches the files of a type', async () => {
    const result = await call('Grep', { pattern: 'hello', type: 'py' });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), 'src/tool.py');
  });

  it('answers an unknown type with an isError result naming the likely one', async () => {
    const result = await call('Grep', { pattern: 'hello', type: 'python' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Unknown file type "python" .*did you mean "py"\?/);
  });

  it('matches across lines in multiline mode', async () => {
    const result = await call('Grep', {
      pattern: 'greet\\(\\) \\{\\n\\s+return',
      multiline: true,
      output_mode: 'content',
    });
    assert.equal(textOf(result), 'src/app.js:1:function greet() {\nsrc/app.js:2:  return "hello";');
    const refused = await call('Grep', { pattern: 'greet\\(\\) \\{\\n' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /With Grep, set multiline to true\.$/);
  });
});
