import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addChange,
  canOpen,
  changeVerb,
  parseChange,
  type FileChange,
} from '../../src/pages/workspaces/change-feed.js';

const change = (id: string, path = `f${id}`): FileChange => ({
  id,
  type: 'create',
  kind: 'file',
  path,
  time: '2026-11-22T05:16:18.092Z',
});
const ids = (list: FileChange[]) => list.map((c) => c.id);

describe('parseChange', () => {
  it('reads a change and a rename', () => {
    assert.deepEqual(
      parseChange('17', '{"type":"create","kind":"file","path":"src/a.ts","time":"t"}'),
      { id: '17', type: 'create', kind: 'file', path: 'src/a.ts', time: 't' },
    );
    assert.deepEqual(
      parseChange('18', '{"type":"rename","kind":"dir","path":"b","from":"a","time":"t"}'),
      { id: '18', type: 'rename', kind: 'dir', path: 'b', from: 'a', time: 't' },
    );
  });
  const bad: [string, string, string][] = [
    ['no id', '', '{"type":"create","kind":"file","path":"a"}'],
    ['an id that is no number', 'x1', '{"type":"create","kind":"file","path":"a"}'],
    ['not JSON', '1', 'create a'],
    ['an unknown type', '1', '{"type":"chmod","kind":"file","path":"a"}'],
    ['an unknown kind', '1', '{"type":"create","kind":"link","path":"a"}'],
    ['no path', '1', '{"type":"create","kind":"file"}'],
    ['not an object', '1', '"create"'],
  ];
  for (const [name, id, data] of bad) {
    it(`refuses ${name}`, () => assert.equal(parseChange(id, data), undefined));
  }
});

describe('addChange', () => {
  it('puts the newest first', () => {
    let list: FileChange[] = [];
    for (const id of ['1', '2', '3']) list = addChange(list, change(id));
    assert.deepEqual(ids(list), ['3', '2', '1']);
  });
  it('leaves out a change it has (a replay after reconnecting)', () => {
    const list = addChange(addChange([], change('1')), change('2'));
    assert.deepEqual(ids(addChange(list, change('2'))), ['2', '1']);
    assert.deepEqual(ids(addChange(list, change('1'))), ['2', '1']);
  });
  it('puts a late change in its place', () => {
    const list = addChange(addChange([], change('1')), change('3'));
    assert.deepEqual(ids(addChange(list, change('2'))), ['3', '2', '1']);
  });
  it('keeps at most max, dropping the oldest', () => {
    let list: FileChange[] = [];
    for (let id = 1; id <= 5; id++) list = addChange(list, change(String(id)), 3);
    assert.deepEqual(ids(list), ['5', '4', '3']);
    assert.deepEqual(ids(addChange(list, change('1'), 3)), ['5', '4', '3']);
  });
  it('compares ids past 2^53 exactly', () => {
    const list = addChange([], change('9007199254740993'));
    assert.deepEqual(ids(addChange(list, change('9007199254740992'))), [
      '9007199254740993',
      '9007199254740992',
    ]);
  });
});

describe('changeVerb and canOpen', () => {
  const cases: [FileChange['type'], FileChange['kind'], string, boolean][] = [
    ['create', 'file', 'Created', true],
    ['change', 'file', 'Modified', true],
    ['rename', 'file', 'Renamed', true],
    ['delete', 'file', 'Deleted', false],
    ['create', 'dir', 'Created', false],
  ];
  for (const [type, kind, verb, open] of cases) {
    it(`${type} ${kind}`, () => {
      const c = { ...change('1'), type, kind };
      assert.equal(changeVerb(type), verb);
      assert.equal(canOpen(c), open);
    });
  }
});
