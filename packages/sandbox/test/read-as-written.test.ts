import assert from 'node:assert/strict';
import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '@paddock/testing';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { SessionState } from '../src/mcp/session.js';
import type { ToolContext } from '../src/mcp/tool.js';
import { looksBinary } from '../src/mcp/tools/binary.js';
import { READ_MAX_BYTES, READ_MAX_LINE_CHARS } from '../src/mcp/tools/limits.js';
import { pageOfText, readLines, readTool } from '../src/mcp/tools/read.js';
import { descriptorPath, PathError, Workspace } from '../src/workspace/containment.js';

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const SECRET = 'SECRET-OUTSIDE-7e1f';

let base: string;
let root: string;
let remove: () => Promise<void>;
let workspace: Workspace;
let ctx: ToolContext;

before(async () => {
  const temp = await tempDir('paddock-read-as-written-');
  remove = temp.remove;
  base = temp.path;
  root = join(base, 'ws');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(root, 'plain.txt'), 'plain\n');
  await writeFile(join(root, 'sub', 'inner.txt'), 'inner\n');
  await symlink('sub/inner.txt', join(root, 'link-inside'));
  await symlink('../outside/secret.txt', join(root, 'link-outside'));
  await symlink('sub', join(root, 'link-dir'));
  workspace = await Workspace.open(root);
  ctx = {
    workspace,
    session: new SessionState(new ProcessGroups()),
    signal: new AbortController().signal,
    childEnv: {},
  };
});
after(async () => {
  await remove();
});

const read = (file_path: string) => readTool.run(readTool.input.parse({ file_path }), ctx);

describe('Workspace.openAsWritten', () => {
  test('opens a path without symlinks as written, checked to be that path', () => {
    for (const [given, real] of [
      ['plain.txt', join(root, 'plain.txt')],
      ['sub/inner.txt', join(root, 'sub', 'inner.txt')],
      [join(root, 'sub', 'inner.txt'), join(root, 'sub', 'inner.txt')],
      ['sub/../plain.txt', join(root, 'plain.txt')],
    ] as const) {
      const opened = workspace.openAsWritten(given, READ_FLAGS);
      assert.ok(opened, given);
      try {
        assert.equal(opened.realPath, real);
        assert.equal(descriptorPath(opened.fd), real);
      } finally {
        closeSync(opened.fd);
      }
    }
  });

  test('declines whatever the usual resolution must decide: symlinks, escapes, missing, creating', () => {
    for (const given of [
      'link-inside',
      'link-outside',
      'link-dir/inner.txt',
      '../outside/secret.txt',
      join(base, 'outside', 'secret.txt'),
      'missing.txt',
      'bad\0name',
    ]) {
      assert.equal(workspace.openAsWritten(given, READ_FLAGS), undefined, given);
    }
    assert.equal(workspace.openAsWritten('plain.txt', READ_FLAGS | constants.O_CREAT), undefined);
  });
});

describe('Read after the workspace changed between calls', () => {
  test('follows a file that became a symlink inside, refuses one that points out', async () => {
    await writeFile(join(root, 'swapped.txt'), 'first\n');
    assert.equal(await read('swapped.txt'), '1\tfirst');
    await rm(join(root, 'swapped.txt'));
    await symlink('sub/inner.txt', join(root, 'swapped.txt'));
    assert.equal(await read('swapped.txt'), '1\tinner');
    await rm(join(root, 'swapped.txt'));
    await symlink('../outside/secret.txt', join(root, 'swapped.txt'));
    await assert.rejects(read('swapped.txt'), PathError);
  });

  test('follows a folder that became a symlink inside, refuses one that points out', async () => {
    await mkdir(join(root, 'moving'));
    await writeFile(join(root, 'moving', 'inner.txt'), 'before\n');
    assert.equal(await read('moving/inner.txt'), '1\tbefore');
    await rename(join(root, 'moving'), join(root, 'moved'));
    await symlink('sub', join(root, 'moving'));
    assert.equal(await read('moving/inner.txt'), '1\tinner');
    await rm(join(root, 'moving'));
    await symlink('../outside', join(root, 'moving'));
    await assert.rejects(read('moving/secret.txt'), PathError);
  });

  test('reads what a renamed-over file holds now, and reports a removed one as missing', async () => {
    await writeFile(join(root, 'renamed.txt'), 'old\n');
    assert.equal(await read('renamed.txt'), '1\told');
    await writeFile(join(root, 'renamed.tmp'), 'new\n');
    await rename(join(root, 'renamed.tmp'), join(root, 'renamed.txt'));
    assert.equal(await read('renamed.txt'), '1\tnew');
    await rm(join(root, 'renamed.txt'));
    await assert.rejects(read('renamed.txt'), /renamed\.txt/);
  });
});

describe('pageOfText cuts the same page as reading line by line', () => {
  const long = 'é'.repeat(READ_MAX_LINE_CHARS + 37);
  const contents: Array<[string, string]> = [
    ['one line with a newline', 'a\n'],
    ['one line without', 'a'],
    ['empty lines', '\n\n\nx\n\n'],
    ['CRLF endings and a lone CR', 'a\r\nb\r\n\r\nc\rd\r'],
    ['multi-byte text', 'ünïcödé ✓\n日本語\n😀 emoji\n'],
    ['a long line, cut', `start\n${long}\r\nend`],
    ['a long line of surrogate pairs', `${'😀'.repeat(READ_MAX_LINE_CHARS)}\nnext\n`],
    ['many lines', Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n')],
    // Numbered, 60,000 empty lines (under READ_CHUNK_BYTES) pass READ_MAX_BYTES.
    ['empty lines past the byte cap', '\n'.repeat(60_000)],
  ];
  const windows: Array<[number, number]> = [
    [1, 2000],
    [1, 1],
    [2, 3],
    [5, 100],
    [299, 10],
    [1000, 5],
    [1, 100_000],
  ];
  test('for every content and window', () => {
    const file = join(base, 'page.txt');
    for (const [what, content] of contents) {
      writeFileSync(file, content);
      const size = Buffer.byteLength(content);
      for (const [offset, limit] of windows) {
        const fd = openSync(file, 'r');
        try {
          const lineByLine = readLines(fd, size, offset, limit, 'page.txt', false);
          const whole = pageOfText(content, offset, limit, () => false);
          assert.deepEqual(whole, lineByLine, `${what}, offset ${offset}, limit ${limit}`);
          assert.deepEqual(
            readLines(fd, size, offset, limit, 'page.txt'),
            lineByLine,
            `${what} through Read's own choice`,
          );
        } finally {
          closeSync(fd);
        }
      }
    }
    writeFileSync(file, '\n'.repeat(60_000));
    const fd = openSync(file, 'r');
    try {
      const page = readLines(fd, 60_000, 1, 100_000, 'page.txt');
      assert.equal(page.stop, 'bytes', `the byte cap (${READ_MAX_BYTES}) was reached`);
    } finally {
      closeSync(fd);
    }
  });
});

describe('looksBinary', () => {
  test('takes exactly the control codes text does not use for binary, byte by byte', () => {
    // eslint-disable-next-line no-control-regex -- the rule, written as the character class it is
    const unusual = /[\x01-\x07\x0e-\x1a\x1c-\x1f\x7f]/;
    for (let byte = 1; byte < 0x80; byte++) {
      // One suspicious character in three is over the share that makes a sample binary.
      const sample = Buffer.from([0x61, byte, 0x62]);
      assert.equal(looksBinary(sample), unusual.test(String.fromCharCode(byte)), `byte ${byte}`);
    }
  });
});
