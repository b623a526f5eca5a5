// The plural and list helpers of src/words.ts that command and capability messages share,
// and showValue, how a message shows a value read from JSON or YAML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { count, joinAnd, plural, showValue } = await import(src('words.ts'));

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

test('showValue: JSON text, except numbers JSON cannot write (Infinity, -Infinity, NaN, -0), dates, undefined and cycles', () => {
  assert.equal(showValue(JSON.parse('1e400')), 'Infinity');
  assert.equal(showValue(-Infinity), '-Infinity');
  assert.equal(showValue(NaN), 'NaN');
  assert.equal(showValue(-0), '-0');
  assert.equal(showValue(0), '0');
  assert.equal(showValue(1e21), '1e+21');
  assert.equal(showValue('a"b\n'), '"a\\"b\\n"');
  assert.equal(showValue(null), 'null');
  assert.equal(showValue(true), 'true');
  assert.equal(showValue(undefined), 'undefined');
  assert.equal(showValue(new Date(Date.UTC(2024, 0, 2))), '2024-01-02T00:00:00.000Z');
  assert.equal(showValue([1, -0, [NaN], { a: Infinity, 'b"': 'x' }]), '[1,-0,[NaN],{"a":Infinity,"b\\"":"x"}]');
  assert.equal(showValue({ a: [1, 2], b: {} }), JSON.stringify({ a: [1, 2], b: {} }));
  const loop = { a: [] };
  loop.a.push(loop, loop);
  assert.equal(showValue(loop), '{"a":[[Circular],[Circular]]}');
  const shared = [1];
  assert.equal(showValue([shared, shared]), '[[1],[1]]');
});
