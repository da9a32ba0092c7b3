import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesFields, parseFieldSelector } from '../src/query/field-selector.js';
import {
  labelSelectorOf,
  matchesLabelSelector,
  matchesLabels,
  parseLabelSelector,
  SelectorError,
} from '../src/query/label-selector.js';

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

describe('label selector objects (metav1.LabelSelector)', () => {
  it('match matchLabels and matchExpressions together, as the query form would', () => {
    const table: [selector: unknown, query: string | undefined, matches: boolean][] = [
      [{}, '', true],
      [{ matchLabels: { app: 'web' } }, 'app=web', true],
      [{ matchLabels: { app: 'api' } }, 'app=api', false],
      [
        { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] },
        'tier in (front)',
        true,
      ],
      [
        { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] },
        'tier notin (front)',
        false,
      ],
      [
        { matchExpressions: [{ key: 'missing', operator: 'NotIn', values: ['x'] }] },
        'missing notin (x)',
        true,
      ],
      [{ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, 'app', true],
      [{ matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, '!app', false],
      [
        {
          matchLabels: { app: 'web' },
          matchExpressions: [{ key: 'version', operator: 'In', values: ['2', '3'] }],
        },
        'app=web,version in (2,3)',
        true,
      ],
      // Malformed: matches nothing, as Kubernetes refuses to use it.
      [undefined, undefined, false],
      [{ matchLabels: { app: 1 } }, undefined, false],
      [{ matchLabels: [] }, undefined, false],
      [{ matchExpressions: {} }, undefined, false],
      [{ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, undefined, false],
      [
        { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] },
        undefined,
        false,
      ],
      [{ matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] }, undefined, false],
      [{ matchExpressions: [{ operator: 'Exists' }] }, undefined, false],
    ];
    for (const [selector, query, expected] of table) {
      const name = JSON.stringify(selector);
      assert.equal(matchesLabelSelector(selector, labels), expected, name);
      if (query === undefined) {
        assert.equal(labelSelectorOf(selector), undefined, name);
      } else {
        assert.deepEqual(labelSelectorOf(selector), parseLabelSelector(query), name);
      }
    }
  });

  it('treat a label that is not a string as set, never as equal', () => {
    const odd = { app: 1 } as Record<string, unknown>;
    assert.equal(
      matchesLabelSelector({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, odd),
      true,
    );
    assert.equal(matchesLabelSelector({ matchLabels: { app: '1' } }, odd), false);
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
