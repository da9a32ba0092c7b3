import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadSlabs } from '../src/api/read-slabs.js';

test('a slab given back is read into again, and only up to the spare bound', () => {
  const slabs = new ReadSlabs(1024, 1);
  const first = slabs.take();
  const second = slabs.take();
  assert.equal(first.length, 1024);
  assert.equal(slabs.inUse, 2);
  slabs.give(first);
  slabs.give(second); // beyond the one spare: left to the collector
  assert.equal(slabs.inUse, 0);
  const again = slabs.take();
  assert.equal(again, first);
  assert.notEqual(slabs.take(), second);
});

test('a forgotten slab is no longer counted and never handed out again', () => {
  const slabs = new ReadSlabs(16, 4);
  const lost = slabs.take();
  slabs.forget();
  assert.equal(slabs.inUse, 0);
  assert.notEqual(slabs.take(), lost);
});
