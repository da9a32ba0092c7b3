import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { eventually, tempDir } from '@paddock/testing';
import {
  connect,
  startSandbox,
  textOf,
  type RunningSandbox,
  type TransportKind,
} from './support/sandbox.js';

const TOOL_NAMES = [
  'Bash',
  'BashOutput',
  'Edit',
  'Glob',
  'Grep',
  'KillShell',
  'LS',
  'Read',
  'Write',
];

let dir: Awaited<ReturnType<typeof tempDir>>;
let sandbox: RunningSandbox;
const version = (
  JSON.parse(await readFile(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

before(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'hello.txt'), 'first\nsecond\n');
  sandbox = await startSandbox(dir.path);
});
after(async () => {
  await sandbox.stop();
  await dir.remove();
});

for (const kind of ['sse', 'streamable'] as TransportKind[]) {
  describe(`the MCP SDK client over ${kind === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'}`, () => {
    it('initializes with the server name, version and tools.listChanged', async () => {
      const client = await connect(sandbox.base, kind);
      assert.deepEqual(client.getServerVersion(), { name: 'paddock-sandbox', version });
      assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
      await client.close();
    });

    it('lists every tool with an object input schema and a description', async () => {
      const client = await connect(sandbox.base, kind);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        assert.ok((tool.description ?? '').length > 20, `${tool.name} has a description`);
      }
      const read = tools.find((t) => t.name === 'Read')!;
      assert.deepEqual(read.inputSchema.required, ['file_path']);
      await client.close();
    });

    it('reads, writes and edits files, and runs commands', async () => {
      const client = await connect(sandbox.base, kind);
      const file = `${kind}-notes.txt`;
      assert.match(
        textOf(
          await client.callTool({
            name: 'Write',
            arguments: { file_path: file, content: 'a\nb\n' },
          }),
        ),
        /Wrote/,
      );
      assert.equal(
        textOf(await client.callTool({ name: 'Read', arguments: { file_path: file } })),
        '1\ta\n2\tb',
      );
      const edit = await client.callTool({
        name: 'Edit',
        arguments: { file_path: file, old_string: 'b', new_string: 'c' },
      });
      assert.notEqual(edit.isError, true, textOf(edit));
      assert.equal(await readFile(join(dir.path, file), 'utf8'), 'a\nc\n');
      const bash = await client.callTool({
        name: 'Bash',
        arguments: { command: `cat ${file} | wc -l` },
      });
      assert.match(textOf(bash), /^2$/m);
      assert.match(textOf(bash), /exit code: 0/);
      await client.close();
    });

    it('answers a caller mistake with an isError result naming the problem', async () => {
      const client = await connect(sandbox.base, kind);
      const missing = await client.callTool({ name: 'Read', arguments: {} });
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /Invalid arguments for Read:\n- file_path: /);
      const mistyped = await client.callTool({ name: 'Read', arguments: { file_path: 42 } });
      assert.equal(mistyped.isError, true);
      assert.match(textOf(mistyped), /file_path: .*expected string/);
      const outside = await client.callTool({
        name: 'Read',
        arguments: { file_path: '../../etc/passwd' },
      });
      assert.equal(outside.isError, true);
      assert.match(textOf(outside), /outside the workspace/);
      const notFound = await client.callTool({
        name: 'Read',
        arguments: { file_path: 'nope.txt' },
      });
      assert.equal(notFound.isError, true);
      const failed = await client.callTool({
        name: 'Bash',
        arguments: { command: 'echo oops >&2; exit 3' },
      });
      assert.equal(failed.isError, true);
      assert.match(textOf(failed), /oops[\s\S]*exit code: 3/);
      await client.close();
    });

    it('lists, globs and greps the workspace, and runs, reads and kills a background shell', async () => {
      const client = await connect(sandbox.base, kind);
      const ls = textOf(await client.callTool({ name: 'LS', arguments: { path: '.' } }));
      assert.match(ls, /file {5}hello\.txt {2}\(13 bytes\)/);
      const glob = textOf(await client.callTool({ name: 'Glob', arguments: { pattern: '*.txt' } }));
      assert.match(glob, /^hello\.txt$/m);
      const grep = await client.callTool({
        name: 'Grep',
        arguments: { pattern: 'sec.nd', output_mode: 'content' },
      });
      assert.match(textOf(grep), /hello\.txt:2:second/);

      const started = textOf(
        await client.callTool({
          name: 'Bash',
          arguments: { command: 'echo ready; sleep 60', run_in_background: true },
        }),
      );
      const shellId = /Started background shell (\S+?)[. ]/.exec(started)?.[1];
      assert.ok(shellId, started);
      let output = '';
      await eventually('the background shell ready', async () => {
        output += textOf(
          await client.callTool({ name: 'BashOutput', arguments: { shell_id: shellId } }),
        );
        return output.includes('ready') ? true : undefined;
      });
      assert.match(output, /state: running/);
      const killed = await client.callTool({ name: 'KillShell', arguments: { shell_id: shellId } });
      assert.match(textOf(killed), /killed: its process group is gone/);
      const after = await client.callTool({ name: 'BashOutput', arguments: { shell_id: shellId } });
      assert.doesNotMatch(textOf(after), /state: running/);
      const unknown = await client.callTool({ name: 'KillShell', arguments: { shell_id: 'x' } });
      assert.equal(unknown.isError, true);
      await client.close();
    });

    it('refuses a Write or Edit of a file not read in this session, and failed searches', async () => {
      const client = await connect(sandbox.base, kind);
      const write = await client.callTool({
        name: 'Write',
        arguments: { file_path: 'hello.txt', content: 'clobbered' },
      });
      assert.equal(write.isError, true);
      assert.match(textOf(write), /read the file before/);
      const edit = await client.callTool({
        name: 'Edit',
        arguments: { file_path: 'hello.txt', old_string: 'first', new_string: 'x' },
      });
      assert.equal(edit.isError, true);
      assert.equal(await readFile(join(dir.path, 'hello.txt'), 'utf8'), 'first\nsecond\n');
      const grep = await client.callTool({ name: 'Grep', arguments: { pattern: '(' } });
      assert.equal(grep.isError, true);
      const ls = await client.callTool({ name: 'LS', arguments: { path: 'hello.txt' } });
      assert.equal(ls.isError, true);
      const glob = await client.callTool({
        name: 'Glob',
        arguments: { pattern: '*', path: 'missing' },
      });
      assert.equal(glob.isError, true);
      await client.close();
    });

    it('answers an unknown tool with JSON-RPC invalid params', async () => {
      const client = await connect(sandbox.base, kind);
      await assert.rejects(
        client.callTool({ name: 'Teleport', arguments: {} }),
        (err: unknown) =>
          err instanceof McpError &&
          err.code === -32602 &&
          /Unknown tool: Teleport/.test(err.message),
      );
      await client.close();
    });
  });
}
