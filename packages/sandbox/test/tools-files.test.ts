import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmod,
  mkdir,
  readdir,
  readFile,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDir } from '@paddock/testing';
import type { z } from 'zod';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { SessionState } from '../src/mcp/session.js';
import { ToolFailure, type Tool, type ToolContext } from '../src/mcp/tool.js';
import { editTool } from '../src/mcp/tools/edit.js';
import { globTool } from '../src/mcp/tools/glob.js';
import { grepTool } from '../src/mcp/tools/grep.js';
import {
  GLOB_MAX_RESULTS,
  GREP_MAX_LINES,
  LS_MAX_ENTRIES,
  READ_MAX_BYTES,
  READ_MAX_LINE_CHARS,
} from '../src/mcp/tools/limits.js';
import { lsTool } from '../src/mcp/tools/ls.js';
import { readTool } from '../src/mcp/tools/read.js';
import { runRipgrep } from '../src/mcp/tools/ripgrep.js';
import { writeTool } from '../src/mcp/tools/write.js';
import { Workspace } from '../src/workspace/containment.js';

const removals: Array<() => Promise<void>> = [];
after(async () => {
  await Promise.all(removals.map((remove) => remove()));
});

interface Fixture {
  dir: string;
  ctx: ToolContext;
  /** Writes files relative to the workspace, creating folders. */
  files: (tree: Record<string, string | Buffer>) => Promise<void>;
}

/** A fresh workspace folder with a real context, as the MCP server gives a tool. */
async function workspace(): Promise<Fixture> {
  const temp = await tempDir('paddock-tools-');
  removals.push(temp.remove);
  const ctx: ToolContext = {
    workspace: await Workspace.open(temp.path),
    session: new SessionState(new ProcessGroups()),
    signal: new AbortController().signal,
    childEnv: process.env,
  };
  const dir = ctx.workspace.root;
  return {
    dir,
    ctx,
    files: async (tree) => {
      for (const [path, content] of Object.entries(tree)) {
        await mkdir(join(dir, path, '..'), { recursive: true });
        await writeFile(join(dir, path), content);
      }
    },
  };
}

/** Calls a tool the way the MCP server does: arguments validated by its schema first. */
function call<S extends z.ZodObject>(
  tool: Tool<S>,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<string> {
  return tool.run(tool.input.parse(args), ctx);
}

/** Asserts the call fails as the caller's fault (a ToolFailure) with a message matching `message`. */
async function failsWith(promise: Promise<string>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

/** Sets a file's modification time to `secondsAgo` before now. */
async function age(path: string, secondsAgo: number): Promise<void> {
  const when = new Date(Date.now() - secondsAgo * 1000);
  await utimes(path, when, when);
}

describe('Read', () => {
  test('numbers each line from 1 with a tab after the number', async () => {
    const { ctx, files } = await workspace();
    await files({ 'a.txt': 'first\nsecond\n\nfourth' });
    assert.equal(
      await call(readTool, { file_path: 'a.txt' }, ctx),
      '1\tfirst\n2\tsecond\n3\t\n4\tfourth',
    );
  });

  test('shows the lines from offset up to limit and says where to continue', async () => {
    const { ctx, files } = await workspace();
    await files({
      'a.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
    });
    assert.equal(
      await call(readTool, { file_path: 'a.txt', offset: 3, limit: 2 }, ctx),
      '3\tline 3\n4\tline 4\n… [more lines follow; continue with offset=5]',
    );
    // Ending exactly at the last line: no marker, and the trailing newline is not an extra line.
    assert.equal(
      await call(readTool, { file_path: 'a.txt', offset: 9, limit: 2 }, ctx),
      '9\tline 9\n10\tline 10',
    );
  });

  test('cuts a line longer than the cap with a marker counting the characters left out', async () => {
    const { ctx, files } = await workspace();
    await files({ 'long.txt': `${'x'.repeat(READ_MAX_LINE_CHARS + 500)}\nnext\n` });
    assert.equal(
      await call(readTool, { file_path: 'long.txt' }, ctx),
      `1\t${'x'.repeat(READ_MAX_LINE_CHARS)}… [line truncated, 500 more characters]\n2\tnext`,
    );
  });

  test('counts the characters of a line spanning many read chunks, multi-byte ones included', async () => {
    const { ctx, files } = await workspace();
    await files({ 'huge-line.txt': `${'é'.repeat(300_000)}\r\nafter\r\n` });
    assert.equal(
      await call(readTool, { file_path: 'huge-line.txt' }, ctx),
      `1\t${'é'.repeat(READ_MAX_LINE_CHARS)}… [line truncated, ${300_000 - READ_MAX_LINE_CHARS} more characters]\n2\tafter`,
    );
  });

  test('stops at the byte cap with a marker giving the offset to read on from', async () => {
    const { ctx, files } = await workspace();
    const line = 'y'.repeat(1000);
    await files({ 'big.txt': Array.from({ length: 400 }, () => line).join('\n') });
    const result = await call(readTool, { file_path: 'big.txt' }, ctx);
    const match =
      /\n… \[output truncated at 256 KiB after line (\d+); continue with offset=(\d+)\]$/.exec(
        result,
      );
    assert.ok(match, result.slice(-200));
    const last = Number(match[1]);
    assert.equal(Number(match[2]), last + 1);
    assert.ok(last > 200 && last < 400);
    assert.ok(Buffer.byteLength(result.slice(0, match.index)) <= READ_MAX_BYTES);
    const next = await call(readTool, { file_path: 'big.txt', offset: last + 1, limit: 1 }, ctx);
    assert.ok(next.startsWith(`${last + 1}\t${line}`));
  });

  test('refuses a file with a NUL byte as binary', async () => {
    const { ctx, files } = await workspace();
    await files({
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
    });
    await failsWith(
      call(readTool, { file_path: 'image.png' }, ctx),
      /image\.png looks like a binary file/,
    );
  });

  test('refuses bytes that are mostly invalid UTF-8 but shows text with a stray Latin-1 byte', async () => {
    const { ctx, files } = await workspace();
    await files({
      'noise.bin': Buffer.from(Array.from({ length: 200 }, (_, i) => 0x80 + (i % 120))),
      'latin1.txt': Buffer.concat([
        Buffer.from('caf'),
        Buffer.from([0xe9]),
        Buffer.from(' au lait\n'),
      ]),
    });
    await failsWith(call(readTool, { file_path: 'noise.bin' }, ctx), /looks like a binary file/);
    assert.equal(await call(readTool, { file_path: 'latin1.txt' }, ctx), '1\tcaf\uFFFD au lait');
  });

  test('says an empty file is empty, without failing', async () => {
    const { ctx, files } = await workspace();
    await files({ 'empty.txt': '' });
    assert.equal(
      await call(readTool, { file_path: 'empty.txt' }, ctx),
      '(file is empty: empty.txt)',
    );
  });

  test('refuses a directory and points to LS', async () => {
    const { ctx, files } = await workspace();
    await files({ 'src/a.ts': '' });
    await failsWith(call(readTool, { file_path: 'src' }, ctx), /^src is a directory; use LS/);
  });

  test('says how many lines the file has when offset is past the end', async () => {
    const { ctx, files } = await workspace();
    await files({ 'three.txt': 'a\nb\nc\n' });
    assert.equal(
      await call(readTool, { file_path: 'three.txt', offset: 10 }, ctx),
      'three.txt has 3 lines; offset 10 is past the end',
    );
  });

  test('fails with "File not found" for a missing file', async () => {
    const { ctx } = await workspace();
    await failsWith(
      call(readTool, { file_path: 'nope/missing.txt' }, ctx),
      /^File not found: nope\/missing\.txt$/,
    );
  });

  test('shows a CRLF file without the carriage returns', async () => {
    const { ctx, files } = await workspace();
    await files({ 'dos.txt': 'one\r\ntwo\r\nthree' });
    assert.equal(await call(readTool, { file_path: 'dos.txt' }, ctx), '1\tone\n2\ttwo\n3\tthree');
  });

  test('accepts an absolute path inside the workspace and shows paths relative to the root', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'docs/a.txt': 'hi\n' });
    assert.equal(await call(readTool, { file_path: join(dir, 'docs/a.txt') }, ctx), '1\thi');
    await failsWith(
      call(readTool, { file_path: join(dir, 'docs/b.txt') }, ctx),
      /^File not found: docs\/b\.txt$/,
    );
  });

  test('records the file in the session with the mtime and size it was read at', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'hello\n' });
    await call(readTool, { file_path: 'a.txt', limit: 1 }, ctx);
    const stats = await stat(join(dir, 'a.txt'));
    assert.deepEqual(ctx.session.reads.get(join(dir, 'a.txt')), {
      mtimeMs: stats.mtimeMs,
      size: 6,
    });
  });

  test('refuses a FIFO instead of waiting for a writer', async () => {
    const { dir, ctx } = await workspace();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await failsWith(call(readTool, { file_path: 'pipe' }, ctx), /pipe is not a regular file/);
  });
});

describe('Write', () => {
  test('creates a new file and its missing parent folders without a prior Read', async () => {
    const { dir, ctx } = await workspace();
    assert.equal(
      await call(writeTool, { file_path: 'new/deep/file.txt', content: 'héllo' }, ctx),
      'Wrote 6 bytes to new/deep/file.txt (created)',
    );
    assert.equal(await readFile(join(dir, 'new/deep/file.txt'), 'utf8'), 'héllo');
  });

  test('refuses to overwrite a file this session has not read', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'original' });
    await failsWith(
      call(writeTool, { file_path: 'a.txt', content: 'replaced' }, ctx),
      /a\.txt exists: read the file before overwriting it/,
    );
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'original');
  });

  test('overwrites a file after it was read', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'original' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    assert.equal(
      await call(writeTool, { file_path: 'a.txt', content: 'replaced' }, ctx),
      'Wrote 8 bytes to a.txt (updated)',
    );
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'replaced');
  });

  test('refuses to overwrite a file that changed since it was read', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'original' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    await writeFile(join(dir, 'a.txt'), 'someone else wrote this');
    await failsWith(
      call(writeTool, { file_path: 'a.txt', content: 'mine' }, ctx),
      /a\.txt has changed since it was read; read it again/,
    );
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'someone else wrote this');
  });

  test('keeps the mode of the file it replaces', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'run.sh': '#!/bin/sh\necho hi\n' });
    await chmod(join(dir, 'run.sh'), 0o755);
    await call(readTool, { file_path: 'run.sh' }, ctx);
    await call(writeTool, { file_path: 'run.sh', content: '#!/bin/sh\necho bye\n' }, ctx);
    assert.equal((await stat(join(dir, 'run.sh'))).mode & 0o7777, 0o755);
  });

  test('leaves no temporary file behind', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'one' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    await call(writeTool, { file_path: 'a.txt', content: 'two' }, ctx);
    await call(writeTool, { file_path: 'b.txt', content: 'three' }, ctx);
    assert.deepEqual((await readdir(dir)).sort(), ['a.txt', 'b.txt']);
  });

  test('updates the session so the file can be written or edited again without a new Read', async () => {
    const { dir, ctx } = await workspace();
    await call(writeTool, { file_path: 'a.txt', content: 'v1' }, ctx);
    await call(writeTool, { file_path: 'a.txt', content: 'v2 draft' }, ctx);
    await call(editTool, { file_path: 'a.txt', old_string: 'draft', new_string: 'final' }, ctx);
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'v2 final');
  });

  test('writes through a symlink inside the workspace to its target, keeping the link', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'real.txt': 'old' });
    await symlink('real.txt', join(dir, 'link.txt'));
    await call(readTool, { file_path: 'link.txt' }, ctx);
    assert.equal(
      await call(writeTool, { file_path: 'link.txt', content: 'new' }, ctx),
      'Wrote 3 bytes to real.txt (updated)',
    );
    assert.equal(await readFile(join(dir, 'link.txt'), 'utf8'), 'new');
    assert.ok((await readdir(dir)).includes('link.txt'));
  });

  test('refuses to write over a directory or below a file', async () => {
    const { ctx, files } = await workspace();
    await files({ 'src/a.ts': '', 'notes.txt': '' });
    await failsWith(
      call(writeTool, { file_path: 'src', content: 'x' }, ctx),
      /^src is a directory$/,
    );
    await failsWith(
      call(writeTool, { file_path: 'notes.txt/child.txt', content: 'x' }, ctx),
      /not a directory/,
    );
  });
});

describe('Edit', () => {
  test('replaces the one occurrence and shows the edited lines numbered like Read', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.ts': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n' });
    await call(readTool, { file_path: 'a.ts' }, ctx);
    const result = await call(
      editTool,
      { file_path: 'a.ts', old_string: 'five', new_string: 'FIVE\nFIVE-B' },
      ctx,
    );
    assert.equal(
      result,
      'Edited a.ts: 1 replacement\n2\ttwo\n3\tthree\n4\tfour\n5\tFIVE\n6\tFIVE-B\n7\tsix\n8\tseven\n9\teight',
    );
    assert.equal(
      await readFile(join(dir, 'a.ts'), 'utf8'),
      'one\ntwo\nthree\nfour\nFIVE\nFIVE-B\nsix\nseven\neight\nnine\n',
    );
  });

  test('refuses an old_string that occurs more than once, saying how often', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'x = 1\nx = 1\n' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    await failsWith(
      call(editTool, { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }, ctx),
      /old_string occurs 2 times in a\.txt; add surrounding lines .* or set replace_all to true/,
    );
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'x = 1\nx = 1\n');
  });

  test('replaces every occurrence with replace_all, taking new_string literally', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'foo bar foo baz foo' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    const result = await call(
      editTool,
      { file_path: 'a.txt', old_string: 'foo', new_string: '$&$1', replace_all: true },
      ctx,
    );
    assert.ok(result.startsWith('Edited a.txt: 3 replacements\n1\t'));
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), '$&$1 bar $&$1 baz $&$1');
  });

  test('refuses an old_string that is not in the file', async () => {
    const { ctx, files } = await workspace();
    await files({ 'a.txt': 'hello\n' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    await failsWith(
      call(editTool, { file_path: 'a.txt', old_string: 'Hello', new_string: 'bye' }, ctx),
      /old_string was not found in a\.txt; it must match the file exactly/,
    );
  });

  test('refuses an old_string equal to new_string, and an empty one', async () => {
    const { ctx, files } = await workspace();
    await files({ 'a.txt': 'hello\n' });
    await call(readTool, { file_path: 'a.txt' }, ctx);
    await failsWith(
      call(editTool, { file_path: 'a.txt', old_string: 'hello', new_string: 'hello' }, ctx),
      /old_string and new_string are the same/,
    );
    await failsWith(
      call(editTool, { file_path: 'a.txt', old_string: '', new_string: 'x' }, ctx),
      /old_string is empty; use Write/,
    );
  });

  test('keeps a CRLF file CRLF when old_string and new_string use \\n', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'dos.txt': 'alpha\r\nbeta\r\ngamma\r\n' });
    await call(readTool, { file_path: 'dos.txt' }, ctx);
    const result = await call(
      editTool,
      { file_path: 'dos.txt', old_string: 'alpha\nbeta', new_string: 'one\ntwo\nthree' },
      ctx,
    );
    assert.equal(result, 'Edited dos.txt: 1 replacement\n1\tone\n2\ttwo\n3\tthree\n4\tgamma');
    assert.equal(await readFile(join(dir, 'dos.txt'), 'utf8'), 'one\r\ntwo\r\nthree\r\ngamma\r\n');
  });

  test('requires a Read in this session, and refuses a file changed since', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'a.txt': 'hello\n' });
    await failsWith(
      call(editTool, { file_path: 'a.txt', old_string: 'hello', new_string: 'bye' }, ctx),
      /read the file before editing it/,
    );
    await call(readTool, { file_path: 'a.txt' }, ctx);
    await writeFile(join(dir, 'a.txt'), 'hello world\n');
    await failsWith(
      call(editTool, { file_path: 'a.txt', old_string: 'hello', new_string: 'bye' }, ctx),
      /a\.txt has changed since it was read; read it again/,
    );
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'hello world\n');
  });

  test('can edit the same file twice in a row, keeps its mode and leaves no temporary file', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'run.sh': 'echo one\necho two\n' });
    await chmod(join(dir, 'run.sh'), 0o750);
    await call(readTool, { file_path: 'run.sh' }, ctx);
    await call(editTool, { file_path: 'run.sh', old_string: 'one', new_string: '1' }, ctx);
    await call(editTool, { file_path: 'run.sh', old_string: 'two', new_string: '2' }, ctx);
    assert.equal(await readFile(join(dir, 'run.sh'), 'utf8'), 'echo 1\necho 2\n');
    assert.equal((await stat(join(dir, 'run.sh'))).mode & 0o7777, 0o750);
    assert.deepEqual(await readdir(dir), ['run.sh']);
  });

  test('fails with "File not found" for a missing file', async () => {
    const { ctx } = await workspace();
    await failsWith(
      call(editTool, { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }, ctx),
      /^File not found: missing\.txt$/,
    );
  });
});

describe('LS', () => {
  test('lists the root by default: directories first, then by name, with types and sizes', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'b.txt': '12345', 'a.txt': '', 'zdir/x': '', 'adir/y': '', '.hidden': 'h' });
    await symlink('b.txt', join(dir, 'link'));
    assert.equal(
      await call(lsTool, {}, ctx),
      [
        './: 6 entries',
        'dir      adir/',
        'dir      zdir/',
        'file     .hidden  (1 bytes)',
        'file     a.txt  (0 bytes)',
        'file     b.txt  (5 bytes)',
        'symlink  link -> b.txt',
      ].join('\n'),
    );
    assert.equal(
      await call(lsTool, { path: 'adir' }, ctx),
      'adir/: 1 entry\nfile     y  (0 bytes)',
    );
  });

  test('fails for a file or a missing directory', async () => {
    const { ctx, files } = await workspace();
    await files({ 'a.txt': '' });
    await failsWith(call(lsTool, { path: 'a.txt' }, ctx), /^a\.txt is not a directory; use Read/);
    await failsWith(call(lsTool, { path: 'nope' }, ctx), /^Directory not found: nope$/);
  });

  test('says an empty directory is empty', async () => {
    const { dir, ctx } = await workspace();
    await mkdir(join(dir, 'empty'));
    assert.equal(await call(lsTool, { path: 'empty' }, ctx), 'empty/: empty directory');
  });

  test(`shows at most ${LS_MAX_ENTRIES} entries and counts the rest`, async () => {
    const { ctx, files } = await workspace();
    const tree: Record<string, string> = {};
    for (let i = 0; i < LS_MAX_ENTRIES + 5; i++) tree[`f${String(i).padStart(4, '0')}`] = '';
    await files(tree);
    const lines = (await call(lsTool, {}, ctx)).split('\n');
    assert.equal(lines.length, 1 + LS_MAX_ENTRIES + 1);
    assert.equal(lines.at(-1), '… 5 more entries not shown');
  });
});

describe('Glob', () => {
  test('matches at any depth with **, honours .gitignore, includes hidden files but never .git', async () => {
    const { ctx, files } = await workspace();
    await files({
      '.gitignore': 'build/\n*.gen.ts\n',
      'src/a.ts': '',
      'src/deep/b.ts': '',
      'src/c.gen.ts': '',
      'build/out.ts': '',
      '.config/d.ts': '',
      '.git/hooks/e.ts': '',
      'readme.md': '',
    });
    const result = await call(globTool, { pattern: '**/*.ts' }, ctx);
    assert.deepEqual(result.split('\n').sort(), ['.config/d.ts', 'src/a.ts', 'src/deep/b.ts']);
  });

  test('keeps ignored files out even when the pattern names them, and never lists .git', async () => {
    const { ctx, files } = await workspace();
    await files({
      '.gitignore': '*.log\nsecret.env\n',
      'app.log': '',
      'sub/debug.log': '',
      'secret.env': '',
      'keep.txt': '',
      '.git/HEAD': '',
    });
    assert.equal(await call(globTool, { pattern: '**/*.log' }, ctx), 'No files match **/*.log');
    assert.equal(await call(globTool, { pattern: 'secret.env' }, ctx), 'No files match secret.env');
    assert.equal(await call(globTool, { pattern: '.git/**' }, ctx), 'No files match .git/**');
    assert.deepEqual((await call(globTool, { pattern: '**/*' }, ctx)).split('\n').sort(), [
      '.gitignore',
      'keep.txt',
    ]);
  });

  test('takes an absolute pattern inside the searched folder as relative to it', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'src/a.ts': '', 'src/b.js': '' });
    assert.equal(await call(globTool, { pattern: join(dir, 'src/*.ts') }, ctx), 'src/a.ts');
  });

  test('lists the newest files first', async () => {
    const { dir, ctx, files } = await workspace();
    await files({ 'old.txt': '', 'new.txt': '', 'mid.txt': '' });
    await age(join(dir, 'old.txt'), 300);
    await age(join(dir, 'mid.txt'), 200);
    await age(join(dir, 'new.txt'), 100);
    assert.equal(await call(globTool, { pattern: '*.txt' }, ctx), 'new.txt\nmid.txt\nold.txt');
  });

  test('searches below path and shows paths relative to the workspace root', async () => {
    const { ctx, files } = await workspace();
    await files({ 'pkg/src/x.ts': '', 'pkg/y.ts': '', 'other/z.ts': '' });
    const result = await call(globTool, { pattern: 'src/*.ts', path: 'pkg' }, ctx);
    assert.equal(result, 'pkg/src/x.ts');
  });

  test('says no file matches instead of failing', async () => {
    const { ctx, files } = await workspace();
    await files({ 'a.txt': '' });
    assert.equal(await call(globTool, { pattern: '**/*.rs' }, ctx), 'No files match **/*.rs');
  });

  test('reports an invalid pattern and a missing folder as failures', async () => {
    const { ctx, files } = await workspace();
    await files({ 'a.txt': '' });
    await failsWith(
      call(globTool, { pattern: '{a' }, ctx),
      /^unclosed "\{" in glob pattern: "\{a"$/,
    );
    await failsWith(
      call(globTool, { pattern: '*', path: 'nope' }, ctx),
      /^Directory not found: nope$/,
    );
  });

  test(`shows at most ${GLOB_MAX_RESULTS} paths and counts the rest`, async () => {
    const { ctx, files } = await workspace();
    const tree: Record<string, string> = {};
    for (let i = 0; i < GLOB_MAX_RESULTS + 7; i++) tree[`many/f${i}.txt`] = '';
    await files(tree);
    const lines = (await call(globTool, { pattern: '**/*.txt' }, ctx)).split('\n');
    assert.equal(lines.length, GLOB_MAX_RESULTS + 1);
    assert.ok(lines.slice(0, -1).every((line) => /^many\/f\d+\.txt$/.test(line)));
    assert.equal(lines.at(-1), '… 7 more matches not shown; use a narrower pattern or path');
  });
});

describe('Grep', () => {
  async function project(): Promise<Fixture> {
    const fixture = await workspace();
    await fixture.files({
      '.gitignore': 'dist/\n',
      'src/a.ts': 'const greeting = "Hello";\nexport function hello() {}\n// end\n',
      'src/b.ts': 'export const x = 1;\nhello();\nhello();\n',
      'docs/readme.md': 'Say hello\n',
      'dist/bundle.js': 'hello from the build\n',
      '.git/config': 'hello inside git\n',
    });
    return fixture;
  }

  test('lists the matching files by default, relative to the root, honouring .gitignore', async () => {
    const { ctx } = await project();
    assert.equal(
      await call(grepTool, { pattern: 'hello' }, ctx),
      'docs/readme.md\nsrc/a.ts\nsrc/b.ts',
    );
  });

  test('shows matching lines as path:line:text in content mode, without numbers when -n is false', async () => {
    const { ctx } = await project();
    assert.equal(
      await call(grepTool, { pattern: 'hello\\(', output_mode: 'content', path: 'src/b.ts' }, ctx),
      'src/b.ts:2:hello();\nsrc/b.ts:3:hello();',
    );
    assert.equal(
      await call(grepTool, { pattern: 'Say', output_mode: 'content', '-n': false }, ctx),
      'docs/readme.md:Say hello',
    );
  });

  test('counts matching lines per file and in total', async () => {
    const { ctx } = await project();
    assert.equal(
      await call(grepTool, { pattern: 'hello', output_mode: 'count', path: 'src' }, ctx),
      'src/a.ts:1\nsrc/b.ts:2\n\n3 matching lines in 2 files',
    );
  });

  test('ignores case with -i', async () => {
    const { ctx } = await project();
    assert.equal(
      await call(
        grepTool,
        { pattern: 'HELLO', '-i': true, path: 'src/a.ts', output_mode: 'content' },
        ctx,
      ),
      'src/a.ts:1:const greeting = "Hello";\nsrc/a.ts:2:export function hello() {}',
    );
  });

  test('shows context lines around matches with -A, -B and -C', async () => {
    const { ctx } = await project();
    const args = { pattern: 'function', path: 'src/a.ts', output_mode: 'content' };
    assert.equal(
      await call(grepTool, { ...args, '-C': 1 }, ctx),
      'src/a.ts-1-const greeting = "Hello";\nsrc/a.ts:2:export function hello() {}\nsrc/a.ts-3-// end',
    );
    assert.equal(
      await call(grepTool, { ...args, '-A': 1 }, ctx),
      'src/a.ts:2:export function hello() {}\nsrc/a.ts-3-// end',
    );
    assert.equal(
      await call(grepTool, { ...args, '-B': 1 }, ctx),
      'src/a.ts-1-const greeting = "Hello";\nsrc/a.ts:2:export function hello() {}',
    );
  });

  test('searches only the files the glob matches', async () => {
    const { ctx } = await project();
    assert.equal(await call(grepTool, { pattern: 'hello', glob: '*.md' }, ctx), 'docs/readme.md');
    assert.equal(
      await call(grepTool, { pattern: 'hello', glob: '!*.md' }, ctx),
      'src/a.ts\nsrc/b.ts',
    );
  });

  test('keeps ignored files out when the glob names them, for name and path globs alike', async () => {
    const { ctx, files } = await workspace();
    await files({
      '.gitignore': '*.gen.ts\n',
      'src/a.ts': 'needle\n',
      'src/a.gen.ts': 'needle\n',
      'src/sub/b.ts': 'needle\n',
      'lib/c.ts': 'needle\n',
    });
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob: '*.ts' }, ctx),
      'lib/c.ts\nsrc/a.ts\nsrc/sub/b.ts',
    );
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob: 'src/**/*.ts' }, ctx),
      'src/a.ts\nsrc/sub/b.ts',
    );
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob: 'src/*.gen.ts' }, ctx),
      'No matches found',
    );
  });

  test('matches a glob against paths relative to the searched folder', async () => {
    const { ctx, files } = await workspace();
    await files({
      'pkg/src/a.ts': 'needle\n',
      'pkg/test/b.ts': 'needle\n',
      'src/c.ts': 'needle\n',
    });
    assert.equal(
      await call(
        grepTool,
        { pattern: 'needle', path: 'pkg', glob: 'src/*.ts', output_mode: 'content' },
        ctx,
      ),
      'pkg/src/a.ts:1:needle',
    );
    assert.equal(
      await call(grepTool, { pattern: 'needle', path: 'pkg', glob: '!test/**' }, ctx),
      'pkg/src/a.ts',
    );
  });

  test('keeps ignored files out for a glob with patterns in its folders, in every mode', async () => {
    const { ctx, files } = await workspace();
    await files({
      '.gitignore': '*.gen.ts\n',
      'src/a.ts': 'before\nneedle\n',
      'src/a.gen.ts': 'before\nneedle\nafter\n',
      'lib/sub/b.ts': 'needle\nafter\n',
      'docs/c.ts': 'needle\n',
    });
    const glob = '{src,lib}/**/*.ts';
    assert.equal(await call(grepTool, { pattern: 'needle', glob }, ctx), 'lib/sub/b.ts\nsrc/a.ts');
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob, output_mode: 'count' }, ctx),
      'lib/sub/b.ts:1\nsrc/a.ts:1\n\n2 matching lines in 2 files',
    );
    const content = await call(
      grepTool,
      { pattern: 'needle', glob, output_mode: 'content', '-C': 1 },
      ctx,
    );
    const groups = content.split('\n--\n').sort();
    assert.deepEqual(groups, [
      'lib/sub/b.ts:1:needle\nlib/sub/b.ts-2-after',
      'src/a.ts-1-before\nsrc/a.ts:2:needle',
    ]);
  });

  test('finds nothing below a folder that .gitignore excludes, even when the glob names it', async () => {
    const { ctx, files } = await workspace();
    await files({ '.gitignore': 'build/\n', 'build/out.js': 'needle\n', 'src/in.js': 'needle\n' });
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob: 'build/**' }, ctx),
      'No matches found',
    );
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob: 'build/*.js' }, ctx),
      'No matches found',
    );
    assert.equal(await call(globTool, { pattern: 'build/**' }, ctx), 'No files match build/**');
    assert.equal(
      await call(grepTool, { pattern: 'needle', glob: '*.nothing' }, ctx),
      'No matches found',
    );
  });

  test('applies anchored .gitignore rules of the root when searching a subfolder', async () => {
    const { ctx, files } = await workspace();
    await files({
      '.gitignore': 'pkg/gen/\n',
      'pkg/gen/g.ts': 'needle\n',
      'pkg/src/s.ts': 'needle\n',
    });
    assert.equal(await call(grepTool, { pattern: 'needle', path: 'pkg' }, ctx), 'pkg/src/s.ts');
    assert.equal(await call(grepTool, { pattern: 'needle', glob: 'pkg/**' }, ctx), 'pkg/src/s.ts');
    assert.equal(await call(globTool, { pattern: '**/*.ts', path: 'pkg' }, ctx), 'pkg/src/s.ts');
    assert.equal(await call(globTool, { pattern: 'pkg/**/*.ts' }, ctx), 'pkg/src/s.ts');
  });

  test('stops at head_limit and says so', async () => {
    const { ctx } = await project();
    const result = await call(
      grepTool,
      { pattern: 'hello', path: 'src/b.ts', output_mode: 'content', head_limit: 1 },
      ctx,
    );
    assert.equal(
      result,
      'src/b.ts:2:hello();\n… [stopped at head_limit=1; more results not shown]',
    );
  });

  test(`cuts the output at ${GREP_MAX_LINES} lines without a head_limit`, async () => {
    const { ctx, files } = await workspace();
    await files({ 'many.txt': 'match\n'.repeat(GREP_MAX_LINES + 500) });
    const lines = (await call(grepTool, { pattern: 'match', output_mode: 'content' }, ctx)).split(
      '\n',
    );
    assert.equal(lines.length, GREP_MAX_LINES + 1);
    assert.equal(lines[GREP_MAX_LINES - 1], `many.txt:${GREP_MAX_LINES}:match`);
    assert.match(lines.at(-1)!, /^… \[output cut at 2000 lines; narrow the search/);
  });

  test('reports an invalid regex with rg’s message', async () => {
    const { ctx } = await project();
    await failsWith(
      call(grepTool, { pattern: 'hello(' }, ctx),
      /Grep failed: regex parse error[\s\S]*unclosed group/,
    );
  });

  test('says no match was found instead of failing', async () => {
    const { ctx } = await project();
    assert.equal(await call(grepTool, { pattern: 'nothing-like-this' }, ctx), 'No matches found');
  });

  test('takes a pattern starting with a dash as a pattern', async () => {
    const { ctx, files } = await workspace();
    await files({ 'flags.txt': 'use --verbose here\n' });
    assert.equal(
      await call(grepTool, { pattern: '--verbose', output_mode: 'content' }, ctx),
      'flags.txt:1:use --verbose here',
    );
  });

  test('fails for a missing path', async () => {
    const { ctx } = await project();
    await failsWith(call(grepTool, { pattern: 'x', path: 'nope' }, ctx), /^Path not found: nope$/);
  });
});

describe('runRipgrep', () => {
  test('fails with a plain Error, not a ToolFailure, when rg is not installed', async () => {
    const { dir } = await workspace();
    await assert.rejects(
      runRipgrep({
        args: ['--files'],
        cwd: dir,
        env: { PATH: dir },
        signal: new AbortController().signal,
        maxRecords: 10,
        maxBytes: 1000,
      }),
      (err: unknown) => {
        assert.ok(err instanceof Error && !(err instanceof ToolFailure));
        assert.equal(err.message, 'ripgrep (rg) is not installed');
        return true;
      },
    );
  });

  test('does not blame a missing rg for a missing folder', async () => {
    const { dir } = await workspace();
    await assert.rejects(
      runRipgrep({
        args: ['--files'],
        cwd: join(dir, 'gone'),
        env: process.env,
        signal: new AbortController().signal,
        maxRecords: 10,
        maxBytes: 1000,
      }),
      /^Error: ripgrep \(rg\) could not be started: spawn rg ENOENT$/,
    );
  });

  test('kills rg at the record cap and keeps only whole records', async () => {
    const { dir, files } = await workspace();
    await files({ 'a.txt': 'line\n'.repeat(100_000) });
    const result = await runRipgrep({
      args: ['-e', 'line'],
      cwd: dir,
      env: process.env,
      signal: new AbortController().signal,
      maxRecords: 3,
      maxBytes: 1_000_000,
    });
    assert.deepEqual(result, {
      output: 'a.txt:line\n'.repeat(3),
      records: 3,
      truncated: 'records',
      exitCode: null,
      stderr: '',
    });
  });

  test('kills rg at the byte cap', async () => {
    const { dir, files } = await workspace();
    await files({ 'a.txt': 'line\n'.repeat(100_000) });
    const result = await runRipgrep({
      args: ['--no-filename', '-e', 'line'],
      cwd: dir,
      env: process.env,
      signal: new AbortController().signal,
      maxRecords: 1_000_000,
      maxBytes: 12,
    });
    assert.equal(result.output, 'line\nline\n');
    assert.equal(result.truncated, 'bytes');
  });

  test('counts only the records accept keeps against the caps', async () => {
    const { dir, files } = await workspace();
    await files({ 'a.txt': Array.from({ length: 1000 }, (_, i) => `n${i}`).join('\n') + '\n' });
    const result = await runRipgrep({
      args: ['--no-filename', '-e', 'n'],
      cwd: dir,
      env: process.env,
      signal: new AbortController().signal,
      maxRecords: 2,
      maxBytes: 1000,
      accept: (line) => line.endsWith('7'),
    });
    assert.equal(result.output, 'n7\nn17\n');
    assert.equal(result.truncated, 'records');
  });

  test('rejects as cancelled when the signal is aborted', async () => {
    const { dir } = await workspace();
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      runRipgrep({
        args: ['--files'],
        cwd: dir,
        env: process.env,
        signal: controller.signal,
        maxRecords: 10,
        maxBytes: 1000,
      }),
      { name: 'AbortError' },
    );
  });
});
