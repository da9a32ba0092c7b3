import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TREE_PAGE,
  ancestors,
  folderPage,
  gitignoreOf,
  initiallyExpanded,
  nameOf,
  otherKindText,
  parentOf,
  sortedEntries,
  toggled,
  type TreeEntry,
} from '../../src/pages/workspaces/file-tree.js';

const entry = (path: string, type: TreeEntry['type'] = 'file'): TreeEntry => ({
  path,
  type,
  size: 1,
  mtime: '2026-11-26T08:00:00Z',
});
const paths = (list: TreeEntry[]) => list.map((e) => e.path);

describe('paths', () => {
  const cases: [string, string, string, string[]][] = [
    ['a.ts', 'a.ts', '.', []],
    ['src/a.ts', 'a.ts', 'src', ['src']],
    ['src/lib/a.ts', 'a.ts', 'src/lib', ['src', 'src/lib']],
    ['.gitignore', '.gitignore', '.', []],
  ];
  for (const [path, name, parent, above] of cases) {
    it(`reads ${path}`, () => {
      assert.equal(nameOf(path), name);
      assert.equal(parentOf(path), parent);
      assert.deepEqual(ancestors(path), above);
    });
  }
});

describe('sortedEntries', () => {
  it('puts folders first, then files, each by name', () => {
    const list = [
      entry('b.ts'),
      entry('z', 'dir'),
      entry('a.ts'),
      entry('c', 'dir'),
      entry('l', 'symlink'),
    ];
    assert.deepEqual(paths(sortedEntries(list)), ['c', 'z', 'a.ts', 'b.ts', 'l']);
    assert.deepEqual(paths(list), ['b.ts', 'z', 'a.ts', 'c', 'l']);
  });
  it('orders by name, not by the folders above', () => {
    assert.deepEqual(paths(sortedEntries([entry('x/b'), entry('x/a')])), ['x/a', 'x/b']);
  });
});

describe('expanded folders', () => {
  it('opens the root, and the folders above the file shown', () => {
    assert.deepEqual([...initiallyExpanded(null)], ['.']);
    assert.deepEqual([...initiallyExpanded('src/lib/a.ts')], ['.', 'src', 'src/lib']);
  });
  it('toggles a folder without changing the set it was given', () => {
    const open = new Set(['.', 'src']);
    assert.deepEqual([...toggled(open, 'src')], ['.']);
    assert.deepEqual([...toggled(open, 'lib')], ['.', 'src', 'lib']);
    assert.deepEqual([...open], ['.', 'src']);
  });
});

describe('gitignoreOf', () => {
  it('finds the folder’s own .gitignore file', () => {
    assert.equal(gitignoreOf([entry('a.ts'), entry('src/.gitignore')])?.path, 'src/.gitignore');
    assert.equal(gitignoreOf([entry('.gitignore', 'dir')]), undefined);
    assert.equal(gitignoreOf([entry('a.gitignore')]), undefined);
  });
});

describe('folderPage', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => entry(`d/f${i}`));
  it('shows all of a small folder', () => {
    const page = folderPage('.', many(3), TREE_PAGE);
    assert.equal(page.visible.length, 3);
    assert.equal(page.rest, 0);
    assert.equal(page.more, null);
  });
  const cases: [string, number, number, string][] = [
    ['the root', 450, TREE_PAGE, 'Show 200 more of 250 in this folder'],
    ['a folder, by its name', 250, TREE_PAGE, 'Show 50 more of 50 in d'],
    ['a folder shown further', 450, 2 * TREE_PAGE, 'Show 50 more of 50 in d'],
  ];
  for (const [name, count, limit, more] of cases) {
    it(`offers more of ${name}`, () => {
      const page = folderPage(name === 'the root' ? '.' : 'src/d', many(count), limit);
      assert.equal(page.visible.length, limit);
      assert.equal(page.rest, count - limit);
      assert.equal(page.more, more);
    });
  }
});

describe('otherKindText', () => {
  it('names what cannot be opened', () => {
    assert.equal(otherKindText('symlink'), 'symbolic link');
    assert.equal(otherKindText('other'), 'special file');
  });
});
