import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addQuantities,
  canonicalQuantity,
  compareQuantities,
  formatQuantity,
  parseQuantity,
} from '../src/quota/quantity.js';

describe('quantities', () => {
  it('are written back in the canonical form the API server uses', () => {
    const cases: Array<[string | number, string]> = [
      ['0', '0'],
      ['0.5', '500m'],
      ['1.5', '1500m'],
      ['1500', '1500'],
      ['2000', '2k'],
      ['1000m', '1'],
      ['100m', '100m'],
      ['128Mi', '128Mi'],
      ['1024Mi', '1Gi'],
      ['1536Mi', '1536Mi'],
      ['512', '512'],
      ['0.5Gi', '512Mi'],
      ['1.5Ki', '1536'],
      ['100M', '100M'],
      ['1e3', '1e3'],
      ['1E', '1E'],
      ['0.1m', '100u'],
      ['1.1n', '2n'],
      ['-2', '-2'],
      [2, '2'],
      [0.25, '250m'],
    ];
    for (const [text, canonical] of cases) {
      assert.equal(canonicalQuantity(text), canonical, `${String(text)}`);
    }
  });

  it('are no quantities when malformed', () => {
    for (const text of ['', 'abc', '1Kb', '1.2.3', 'm', '1 Gi', '1e1000', null, {}]) {
      assert.equal(parseQuantity(text), undefined, JSON.stringify(text));
    }
  });

  it('compare by value, exactly, whatever their spelling', () => {
    const q = (text: string) => parseQuantity(text)!;
    assert.equal(compareQuantities(q('1Gi'), q('1024Mi')), 0);
    assert.equal(compareQuantities(q('1G'), q('1Gi')), -1);
    assert.equal(compareQuantities(q('0.3'), q('300m')), 0);
    assert.equal(compareQuantities(q('1Ei'), q('1E')), 1);
    // Floats would round these together.
    assert.equal(compareQuantities(q('9007199254740993'), q('9007199254740992')), 1);
  });

  it('add in the format of the first amount that is not zero', () => {
    const sum = (a: string, b: string) =>
      formatQuantity(addQuantities(parseQuantity(a)!, parseQuantity(b)!));
    assert.equal(sum('128Mi', '128Mi'), '256Mi');
    assert.equal(sum('0', '64Mi'), '64Mi');
    assert.equal(sum('100M', '1Mi'), '101048576');
    assert.equal(sum('1Mi', '100M'), '101048576');
    assert.equal(sum('500m', '500m'), '1');
    assert.equal(sum('1', '1'), '2');
  });
});
