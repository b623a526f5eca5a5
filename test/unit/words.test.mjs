// The plural and list helpers of src/words.ts that command and capability messages share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { count, joinAnd, plural } = await import(src('words.ts'));

test('plural and count: the word for 1, the plural (default word + s) for everything else', () => {
  assert.equal(plural(1, 'file'), 'file');
  assert.equal(plural(0, 'file'), 'files');
  assert.equal(plural(2, 'it', 'them'), 'them');
  assert.equal(plural(1, 'was', 'were'), 'was');
  assert.equal(count(1, 'path'), '1 path');
  assert.equal(count(3, 'done item'), '3 done items');
  assert.equal(count(0, 'entry', 'entries'), '0 entries');
});

test('joinAnd: no serial comma', () => {
  assert.equal(joinAnd([]), '');
  assert.equal(joinAnd(['a']), 'a');
  assert.equal(joinAnd(['a', 'b']), 'a and b');
  assert.equal(joinAnd(['a', 'b', 'c']), 'a, b and c');
});
