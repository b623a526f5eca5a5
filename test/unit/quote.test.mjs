// src/git/quote.ts (and git/path-quoter.ts): paths quoted exactly as git quotes them (quote_c_style), checked against
// `git ls-files` for the same names, with core.quotePath true (git's default) and false.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';

const { quoteCStyle, unquoteCStyle, unquotePathArg, quoteArg, pathArg } = await import(src('git/quote.ts'));
const { pathQuoter } = await import(src('git/path-quoter.ts'));

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
  test(`quoteCStyle(name, ${quotePath}) is git ls-files' line for every name (core.quotePath=${quotePath}); unquotePathArg reads each quoted line back`, () => {
    const { raw, out } = gitQuoted(quotePath);
    assert.deepEqual(raw.map((n) => quoteCStyle(n, quotePath)), out);
    const quoted = out.filter((l) => l.startsWith('"'));
    assert.ok(quoted.length >= 33, quoted.join(' '));
    assert.deepEqual(out.map((l) => unquotePathArg(l)), raw);
    assert.deepEqual(out.map((l) => unquotePathArg(`${l}:12`)), raw.map((n) => `${n}:12`));
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

test('unquoteCStyle / unquotePathArg: only a whole quoted string is unquoted; anything else is left as given', () => {
  assert.equal(unquoteCStyle('"a\\tb"'), 'a\tb');
  assert.equal(unquoteCStyle('"\\303\\251"'), 'é');
  for (const s of ['abc', '"abc', 'abc"', '"a"b"', '"bad \\q escape"', '"\\"', '"a\\']) assert.equal(unquoteCStyle(s), null, s);
  assert.equal(unquotePathArg('"tab\\there.js":1'), 'tab\there.js:1');
  assert.equal(unquotePathArg('"x":a:3'), 'x:a:3');
  assert.equal(unquotePathArg('"x"y:3'), '"x"y:3');
  assert.equal(unquotePathArg('plain.js:3'), 'plain.js:3');
  assert.equal(unquotePathArg('"\\"x\\""'), '"x"');
  assert.equal(quoteArg('a\tb:1'), '"a\\tb:1"');
  assert.equal(quoteArg('ab:1'), '"ab:1"');
  assert.equal(pathArg('ab.js', ':1'), 'ab.js:1');
  assert.equal(pathArg("it's\t", ':1'), `'"it'\\''s\\t":1'`);
  // A name the shell would read as more than a word (tester #95: a restore hint ran `touch`).
  assert.equal(pathArg('src/x;touch INJECTED;.js', ':2'), `'src/x;touch INJECTED;.js:2'`);
  assert.equal(pathArg('my file $(id).js'), `'my file $(id).js'`);
  assert.equal(pathArg("a'b.js"), `'a'\\''b.js'`);
});
