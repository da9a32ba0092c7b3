import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '@paddock/testing';
import type { z } from 'zod';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { SessionState } from '../src/mcp/session.js';
import type { Tool, ToolContext } from '../src/mcp/tool.js';
import { editTool } from '../src/mcp/tools/edit.js';
import { globTool } from '../src/mcp/tools/glob.js';
import { grepTool } from '../src/mcp/tools/grep.js';
import { lsTool } from '../src/mcp/tools/ls.js';
import { readTool } from '../src/mcp/tools/read.js';
import { writeTool } from '../src/mcp/tools/write.js';
import { isWithin, PathError, Workspace } from '../src/workspace/containment.js';

const SECRET = 'TOP-SECRET-CONTENT-4b1d';

let base: string;
let root: string;
let outside: string;
let evil: string;
let removeTemp: () => Promise<void>;
let ctx: ToolContext;
/** Every result and error message a tool gave in this file: none may show the secret. */
const seen: string[] = [];

/**
 * <base>/ws is the workspace; <base>/outside and <base>/ws-evil (whose path starts with the
 * root's) hold the secret. Inside, symlinks point out, in, nowhere and in circles.
 */
before(async () => {
  const temp = await tempDir('paddock-containment-');
  removeTemp = temp.remove;
  base = temp.path;
  root = join(base, 'ws');
  outside = join(base, 'outside');
  evil = join(base, 'ws-evil');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await mkdir(evil);
  await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(evil, 'file'), `${SECRET}\n`);
  await writeFile(join(root, 'a.txt'), 'inside a\n');
  await writeFile(join(root, 'sub', 'inner.txt'), 'inside inner\n');
  await writeFile(join(root, '..notparent'), 'dots in a name\n');
  await symlink('../outside/secret.txt', join(root, 'link-file'));
  await symlink(outside, join(root, 'link-dir'));
  await symlink('../ws-evil', join(root, 'evil-link'));
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  await symlink('../outside/created-through-link.txt', join(root, 'dangling-out'));
  await symlink('../outside/new-dir', join(root, 'dangling-dir-out'));
  await symlink('sub/inner.txt', join(root, 'link-inside'));
  await symlink('sub', join(root, 'link-inside-dir'));
  await symlink('sub/later.txt', join(root, 'dangling-in'));
  ctx = {
    workspace: await Workspace.open(root),
    session: new SessionState(new ProcessGroups()),
    signal: new AbortController().signal,
    childEnv: process.env,
  };
});

after(async () => {
  await removeTemp();
});

async function call<S extends z.ZodObject>(
  tool: Tool<S>,
  args: Record<string, unknown>,
): Promise<string> {
  try {
    const result = await tool.run(tool.input.parse(args), ctx);
    seen.push(result);
    return result;
  } catch (err) {
    seen.push(String(err));
    throw err;
  }
}

/** Every file below a folder with its content, to prove nothing was written there. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    result[path] = entry.isFile()
      ? await readFile(path, 'utf8')
      : entry.isDirectory()
        ? 'dir'
        : '?';
  }
  return result;
}

/** Paths that leave the workspace one way or another, each with why. */
const escapes = (): Array<[string, string]> => [
  ['a parent-relative path', '../outside/secret.txt'],
  ['an absolute system path', '/etc/passwd'],
  ['the outside folder, absolute', outside],
  ['a file of the outside folder, absolute', join(outside, 'secret.txt')],
  ['a path climbing out through a subfolder', 'a/../../outside/secret.txt'],
  ['a symlink to an outside file', 'link-file'],
  ['a symlink to an outside folder', 'link-dir'],
  ['a file through a symlinked outside folder', 'link-dir/secret.txt'],
  ['a new file through a symlinked outside folder', 'link-dir/new.txt'],
  ['a new nested file through a symlinked outside folder', 'link-dir/new-dir/new.txt'],
  ['a dangling symlink pointing out', 'dangling-out'],
  ['a new file below a dangling symlink pointing out', 'dangling-dir-out/new.txt'],
  ['a symlink loop', 'loop-a'],
  ['a path below a symlink loop', 'loop-a/x.txt'],
  ['a NUL byte', 'a.txt\0../outside/secret.txt'],
  ['a 5000-character path', `${'d/'.repeat(2499)}xy`],
  ['a 300-character segment', 'x'.repeat(300)],
  ['a sibling whose path starts with the root, absolute', join(evil, 'file')],
  ['a sibling whose path starts with the root, relative', '../ws-evil/file'],
  ['a symlink to a sibling whose path starts with the root', 'evil-link/file'],
];

describe('Workspace.resolve refuses every path that leaves the workspace', () => {
  test('with a PathError for each escape', async () => {
    for (const [why, path] of escapes()) {
      await assert.rejects(ctx.workspace.resolve(path), PathError, why);
    }
  });

  test('names the reason: outside, symlink loop, NUL byte, length', async () => {
    await assert.rejects(ctx.workspace.resolve('../outside/secret.txt'), {
      message: '../outside/secret.txt is outside the workspace',
    });
    await assert.rejects(ctx.workspace.resolve('link-file'), {
      message: 'link-file resolves outside the workspace',
    });
    await assert.rejects(ctx.workspace.resolve('loop-a'), { message: 'loop-a is a symlink loop' });
    await assert.rejects(ctx.workspace.resolve('a\0b'), { message: 'path contains a NUL byte' });
    await assert.rejects(ctx.workspace.resolve('x'.repeat(5000)), {
      message: 'path is longer than 4096 characters',
    });
    await assert.rejects(ctx.workspace.resolve(`ok/${'x'.repeat(300)}`), {
      message: 'a path segment is longer than 255 characters',
    });
  });
});

describe('the file tools refuse every path that leaves the workspace', () => {
  const tools: Array<[string, (path: string) => Promise<string>]> = [
    ['Read', (path) => call(readTool, { file_path: path })],
    ['Write', (path) => call(writeTool, { file_path: path, content: 'pwned' })],
    ['Edit', (path) => call(editTool, { file_path: path, old_string: 'TOP', new_string: 'x' })],
    ['LS', (path) => call(lsTool, { path })],
    ['Glob', (path) => call(globTool, { pattern: '**/*', path })],
    ['Grep', (path) => call(grepTool, { pattern: 'SECRET', path, output_mode: 'content' })],
  ];

  for (const [name, run] of tools) {
    test(`${name} fails with a PathError for each escape`, async () => {
      for (const [why, path] of escapes()) {
        await assert.rejects(run(path), PathError, `${name}: ${why}`);
      }
    });
  }

  test('searches and listings of the root do not follow symlinks out', async () => {
    assert.equal(await call(grepTool, { pattern: 'SECRET' }), 'No matches found');
    const globbed = await call(globTool, { pattern: '**/*' });
    assert.ok(!globbed.includes('secret.txt') && !globbed.includes('ws-evil'), globbed);
  });

  test('patterns that climb out of the workspace match nothing', async () => {
    for (const pattern of ['../outside/*', '../**', '/../outside/secret.txt', 'link-dir/**']) {
      assert.equal(await call(globTool, { pattern }), `No files match ${pattern}`);
      assert.equal(await call(grepTool, { pattern: 'SECRET', glob: pattern }), 'No matches found');
    }
    assert.equal(
      await call(grepTool, { pattern: 'SECRET', glob: '{..,link-dir}/**' }),
      'No matches found',
    );
  });

  test('the secret was never shown and nothing was created or changed outside', async () => {
    // Runs after the tests above (node:test runs a file's tests in order).
    assert.ok(seen.length > 100);
    for (const text of seen) assert.ok(!text.includes(SECRET), text);
    assert.deepEqual(await snapshot(outside), {
      [join(outside, 'secret.txt')]: `${SECRET}\n`,
    });
    assert.deepEqual(await snapshot(evil), { [join(evil, 'file')]: `${SECRET}\n` });
    assert.deepEqual((await readdir(base)).sort(), ['outside', 'ws', 'ws-evil']);
  });
});

describe('paths inside the workspace keep working', () => {
  test('a symlink inside pointing inside reads and writes its target', async () => {
    assert.equal(await call(readTool, { file_path: 'link-inside' }), '1\tinside inner');
    assert.equal(
      await call(readTool, { file_path: 'link-inside-dir/inner.txt' }),
      '1\tinside inner',
    );
    assert.equal(
      await call(writeTool, { file_path: 'link-inside', content: 'changed inner\n' }),
      'Wrote 14 bytes to sub/inner.txt (updated)',
    );
    assert.equal(await readFile(join(root, 'sub', 'inner.txt'), 'utf8'), 'changed inner\n');
  });

  test('an absolute path inside the root works', async () => {
    assert.equal(await call(readTool, { file_path: join(root, 'a.txt') }), '1\tinside a');
    assert.equal(await ctx.workspace.resolve(join(root, 'sub')), join(root, 'sub'));
  });

  test('the root itself, as "." or absolute, lists with LS', async () => {
    const listing = await call(lsTool, { path: '.' });
    assert.match(listing, /^\.\/: \d+ entries\n/);
    assert.match(listing, /^dir {6}sub\/$/m);
    assert.equal(await call(lsTool, { path: root }), listing);
    assert.equal(await ctx.workspace.resolve('.'), root);
  });

  test('a name starting with two dots is not taken for the parent', async () => {
    assert.equal(await call(readTool, { file_path: '..notparent' }), '1\tdots in a name');
    assert.ok(isWithin('/tmp/x/ws', '/tmp/x/ws/..notparent'));
  });

  test('a new file in new folders resolves inside, and Write creates it there', async () => {
    assert.equal(
      await ctx.workspace.resolve('new/deeper/file.txt'),
      join(root, 'new/deeper/file.txt'),
    );
    await call(writeTool, { file_path: 'new/deeper/file.txt', content: 'x' });
    assert.equal(await readFile(join(root, 'new/deeper/file.txt'), 'utf8'), 'x');
  });

  test('a dangling symlink pointing inside resolves to its future target', async () => {
    assert.equal(await ctx.workspace.resolve('dangling-in'), join(root, 'sub', 'later.txt'));
    await call(writeTool, { file_path: 'dangling-in', content: 'now here\n' });
    assert.equal(await readFile(join(root, 'dangling-in'), 'utf8'), 'now here\n');
    assert.ok((await stat(join(root, 'sub', 'later.txt'))).isFile());
  });

  test('a symlinked root is resolved once and works', async () => {
    const links = await tempDir('paddock-containment-link-');
    const linkedRoot = join(links.path, 'ws-link');
    await symlink(root, linkedRoot);
    const linked = await Workspace.open(linkedRoot);
    assert.equal(linked.root, root);
    assert.equal(await linked.resolve('a.txt'), join(root, 'a.txt'));
    await assert.rejects(linked.resolve(join(linkedRoot, '../outside/secret.txt')), PathError);
    await links.remove();
  });
});

describe('isWithin', () => {
  test('compares by path segments, never by string prefix', () => {
    assert.equal(isWithin('/tmp/x/ws', '/tmp/x/ws'), true);
    assert.equal(isWithin('/tmp/x/ws', '/tmp/x/ws/a/b'), true);
    assert.equal(isWithin('/tmp/x/ws', '/tmp/x/ws-evil/file'), false);
    assert.equal(isWithin('/tmp/x/ws', '/tmp/x'), false);
    assert.equal(isWithin('/tmp/x/ws', '/etc/passwd'), false);
  });
});
