import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IgnoreRules } from '../../src/pages/workspaces/ignore-rules.js';

describe('IgnoreRules', () => {
  const rules = new IgnoreRules();
  rules.add('.', 'dist/\n*.log\n!keep.log\n/secret.txt\n');
  rules.add('packages/app', 'coverage\n*.tmp\n');

  const cases: [string, boolean, boolean][] = [
    ['dist', true, true],
    ['dist', false, false], // a file named dist is not the folder pattern
    ['a/dist', true, true],
    ['build.log', false, true],
    ['logs/build.log', false, true],
    ['keep.log', false, false],
    ['secret.txt', false, true],
    ['a/secret.txt', false, false], // anchored to the root
    ['packages/app/coverage', true, true],
    ['packages/app/x.tmp', false, true],
    ['packages/other/x.tmp', false, false],
    ['packages/app', true, false],
    ['src/index.ts', false, false],
  ];
  for (const [path, dir, expected] of cases) {
    it(`${path}${dir ? '/' : ''}`, () => assert.equal(rules.ignores(path, dir), expected));
  }
});
