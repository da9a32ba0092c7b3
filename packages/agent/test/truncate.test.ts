import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { truncateForModel, truncationMarker } from '../src/truncate.js';

describe('truncateForModel', () => {
  const long = 'a'.repeat(3_000) + 'b'.repeat(3_000) + 'c'.repeat(4_000);

  const kept: [name: string, text: string, max: number][] = [
    ['empty', '', 10],
    ['shorter than the bound', 'hello', 10],
    ['exactly the bound', 'x'.repeat(1_000), 1_000],
  ];
  for (const [name, text, max] of kept) {
    it(`keeps text ${name} whole`, () => {
      assert.deepEqual(truncateForModel(text, max), { text, truncated: false, omitted: 0 });
    });
  }

  const cut: [max: number][] = [[1_000], [5_000], [9_999], [200]];
  for (const [max] of cut) {
    it(`cuts 10,000 characters to at most ${max}, head and tail around the marker`, () => {
      const result = truncateForModel(long, max);
      assert.equal(result.truncated, true);
      assert.ok(result.text.length <= max, `${result.text.length} > ${max}`);
      const marker = truncationMarker(result.omitted, long.length);
      const at = result.text.indexOf(marker);
      assert.ok(at >= 0, 'the marker is there');
      const head = result.text.slice(0, at);
      const tail = result.text.slice(at + marker.length);
      assert.ok(long.startsWith(head));
      assert.ok(long.endsWith(tail));
      assert.equal(head.length + tail.length + result.omitted, long.length);
      assert.ok(head.length >= tail.length, 'more of the head than of the tail');
    });
  }

  it('names how much was left out, of how much', () => {
    const result = truncateForModel(long, 1_000);
    assert.match(
      result.text,
      new RegExp(`\\[\\.\\.\\. ${result.omitted} of 10000 characters left out here \\.\\.\\.\\]`),
    );
  });

  it('is the marker alone when the bound leaves no room', () => {
    const result = truncateForModel(long, 10);
    assert.equal(result.text, truncationMarker(long.length, long.length));
    assert.equal(result.omitted, long.length);
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(2_000);
    const result = truncateForModel(emoji, 501);
    assert.equal(result.truncated, true);
    // No lone surrogate on either side of the marker.
    assert.doesNotMatch(
      result.text,
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });
});
