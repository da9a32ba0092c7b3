import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesFields, parseFieldSelector } from '../src/query/field-selector.js';
import { matchesLabels, parseLabelSelector, SelectorError } from '../src/query/label-selector.js';

const labels = { app: 'web', tier: 'front', version: '3' };
const matches = (selector: string, on: Record<string, string> | undefined = labels) =>
  matchesLabels(parseLabelSelector(selector), on);

describe('label selectors', () => {
  it('match equality, inequality, sets, existence and comparisons', () => {
    assert.equal(matches(''), true);
    assert.equal(matches('app=web'), true);
    assert.equal(matches('app==web,tier=front'), true);
    assert.equal(matches('app!=web'), false);
    assert.equal(matches('missing!=x'), true);
    assert.equal(matches('tier in (back, front)'), true);
    assert.equal(matches('tier notin (back,front)'), false);
    assert.equal(matches('missing notin (x)'), true);
    assert.equal(matches('app'), true);
    assert.equal(matches('!app'), false);
    assert.equal(matches('!missing'), true);
    assert.equal(matches('version>2,version<4'), true);
    assert.equal(matchesLabels(parseLabelSelector('app=web'), undefined), false);
    assert.equal(matches('example.com/role=x', { 'example.com/role': 'x' }), true);
  });

  it('refuse what does not parse', () => {
    for (const bad of ['app=web,', 'a b', 'version>x', 'app in ()', 'app=-bad-']) {
      assert.throws(() => parseLabelSelector(bad), SelectorError, bad);
    }
  });
});

describe('field selectors', () => {
  it('match =, == and != with escapes', () => {
    const fields: Record<string, string> = { 'metadata.name': 'a,b', 'status.phase': 'Running' };
    const matchesText = (text: string) =>
      matchesFields(parseFieldSelector(text), (field) => fields[field]);
    assert.equal(matchesText('status.phase=Running'), true);
    assert.equal(matchesText('status.phase==Running,metadata.name=a\\,b'), true);
    assert.equal(matchesText('status.phase!=Running'), false);
    assert.equal(matchesText('spec.nodeName='), true);
    assert.throws(() => parseFieldSelector('nonsense'), SelectorError);
  });
});
