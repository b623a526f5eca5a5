// src/git/quote.ts: paths quoted exactly as git quotes them (quote_c_style), checked against
// `git ls-files` for the same names, with core.quotePath true (git's default) and false.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';

const { quoteCStyle, pathQuoter } = await import(src('git/quote.ts'));

// Every control character git can store in a name (not NUL, not '/'), DEL, quote, backslash,
// UTF-8 of two, three and four bytes, and plain names (a space is not quoted).
const NAMES = [
  ...Array.from({ length: 31 }, (_, k) => `c${String.fromCharCode(k + 1)}x`),
  'del\x7fx',
  'q"uote',
  'back\\slash',
  'été',
  '日本',
  'emoji😀',
  'sp ace',
  'plain-name.txt',
  "it's",
];

function gitQuoted(quotePath) {
  const sb = sandbox({ commit: false });
  for (const n of NAMES) writeFileSync(path.join(sb.dir, n), 'x\n');
  sb.git('add', '-A');
  const out = sb.git('-c', `core.quotePath=${quotePath}`, 'ls-files').split('\n').filter(Boolean);
  const raw = sb.git('ls-files', '-z').split('\0').filter(Boolean);
  assert.equal(out.length, NAMES.length);
  return { raw, out, sb };
}

for (const quotePath of [true, false]) {
  test(`quoteCStyle(name, ${quotePath}) is git ls-files' line for every name (core.quotePath=${quotePath})`, () => {
    const { raw, out } = gitQuoted(quotePath);
    assert.deepEqual(raw.map((n) => quoteCStyle(n, quotePath)), out);
  });
}

test('quoteCStyle: exact strings', () => {
  assert.equal(quoteCStyle('a\tb'), '"a\\tb"');
  assert.equal(quoteCStyle('a\nb'), '"a\\nb"');
  assert.equal(quoteCStyle('a"b'), '"a\\"b"');
  assert.equal(quoteCStyle('a\\b'), '"a\\\\b"');
  assert.equal(quoteCStyle('\x1b[2J'), '"\\033[2J"');
  assert.equal(quoteCStyle('été'), '"\\303\\251t\\303\\251"');
  assert.equal(quoteCStyle('été', false), 'été');
  assert.equal(quoteCStyle('été\t', false), '"été\\t"');
  assert.equal(quoteCStyle('sp ace'), 'sp ace');
});

test('pathQuoter: reads core.quotePath from the repository only for a path beyond ASCII', () => {
  const sb = sandbox();
  sb.git('config', 'core.quotePath', 'false');
  const q = pathQuoter(sb.dir);
  assert.equal(q('a\tb'), '"a\\tb"');
  assert.equal(q('été'), 'été');
  // The setting is read once, at the first path that needs it.
  sb.git('config', 'core.quotePath', 'true');
  assert.equal(q('ü'), 'ü');
  assert.equal(pathQuoter(sb.dir)('ü'), '"\\303\\274"');
  sb.git('config', '--unset', 'core.quotePath');
  assert.equal(pathQuoter(sb.dir)('ü'), '"\\303\\274"');
});
