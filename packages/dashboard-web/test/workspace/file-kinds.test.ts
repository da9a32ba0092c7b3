import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_HIGHLIGHT_BYTES,
  MAX_TEXT_BYTES,
  fileView,
  formatBytes,
  languageOf,
  looksBinary,
  notShown,
  readText,
} from '../../src/pages/workspaces/file-kinds.js';

describe('fileView', () => {
  const cases: [string, number, ReturnType<typeof fileView>][] = [
    ['src/index.ts', 10, { kind: 'text', language: 'typescript' }],
    ['README.md', 10, { kind: 'text', language: 'markdown' }],
    ['notes.txt', 10, { kind: 'text', language: undefined }],
    ['LICENSE', 10, { kind: 'text', language: undefined }],
    ['Dockerfile', 10, { kind: 'text', language: 'dockerfile' }],
    ['build/Makefile', 10, { kind: 'text', language: 'makefile' }],
    ['logo.PNG', 10, { kind: 'image' }],
    ['icon.svg', 10, { kind: 'image' }],
    ['huge.png', 50 * 1024 * 1024, { kind: 'download', reason: 'too-large' }],
    ['dist/app.zip', 10, { kind: 'download', reason: 'binary' }],
    ['big.log', MAX_TEXT_BYTES + 1, { kind: 'download', reason: 'too-large' }],
    ['exact.log', MAX_TEXT_BYTES, { kind: 'text', language: undefined }],
    ['.gitignore', 10, { kind: 'text', language: undefined }],
  ];
  for (const [path, size, expected] of cases) {
    it(`${path} (${size} bytes)`, () => assert.deepEqual(fileView(path, size), expected));
  }
});

describe('languageOf', () => {
  it('knows names without extensions and leaves unknown ones plain', () => {
    assert.equal(languageOf('deploy/web.dockerfile'), 'dockerfile');
    assert.equal(languageOf('a/b/c.yml'), 'yaml');
    assert.equal(languageOf('a.unknown'), undefined);
    assert.equal(languageOf('dir.d/file'), undefined);
  });
});

describe('looksBinary', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const cases: [string, Uint8Array, boolean][] = [
    ['ASCII', utf8('hello\n'), false],
    ['UTF-8', utf8('héllo → ✓'), false],
    ['empty', new Uint8Array(), false],
    ['a NUL byte', new Uint8Array([104, 0, 105]), true],
    ['not UTF-8', new Uint8Array([0xff, 0xfe, 0x41]), true],
    ['a character cut at the end', utf8('ab✓').subarray(0, 4), false],
  ];
  for (const [name, bytes, expected] of cases) {
    it(name, () => assert.equal(looksBinary(bytes), expected));
  }
});

describe('formatBytes', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [5 * 1024 * 1024, '5.0 MiB'],
  ];
  for (const [bytes, expected] of cases) {
    it(`${bytes}`, () => assert.equal(formatBytes(bytes), expected));
  }
});

describe('readText', () => {
  const text = (n: number) => new TextEncoder().encode('a'.repeat(n));
  it('decodes text, highlighted when small enough', () => {
    assert.deepEqual(readText(new TextEncoder().encode('héllo\n')), {
      kind: 'text',
      text: 'héllo\n',
      highlight: true,
    });
    assert.deepEqual(readText(new Uint8Array()), { kind: 'text', text: '', highlight: true });
  });
  it('shows large text plain', () => {
    assert.equal((readText(text(MAX_HIGHLIGHT_BYTES)) as { highlight: boolean }).highlight, true);
    assert.equal(
      (readText(text(MAX_HIGHLIGHT_BYTES + 1)) as { highlight: boolean }).highlight,
      false,
    );
  });
  it('refuses what is too large, before looking at it', () => {
    assert.deepEqual(readText(text(MAX_TEXT_BYTES + 1)), { kind: 'too-large' });
    assert.equal(readText(text(MAX_TEXT_BYTES)).kind, 'text');
  });
  it('tells binary bytes', () => {
    assert.deepEqual(readText(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])), {
      kind: 'binary',
    });
  });
});

describe('notShown', () => {
  it('says why a file is not shown', () => {
    assert.deepEqual(notShown(true), {
      title: 'A binary file',
      text: 'This file is not text, so it is not shown here.',
    });
    assert.deepEqual(notShown(false), {
      title: 'Too large to show here',
      text: `Files are shown here up to ${formatBytes(MAX_TEXT_BYTES)}.`,
    });
  });
});
