// The line model of src/scars/lines.ts and parse.ts splitLines: a line ends at `\r\n`, `\n` or
// a lone `\r`; every byte is accounted for, and git's `\n`-only numbering converts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { toLines, lineCount, lineText, eolFor, lineOfGitLine, insertLine, removeLine } = await import(src('scars/lines.ts'));
const { splitLines } = await import(src('scars/parse.ts'));

const texts = (f) => Array.from({ length: lineCount(f) }, (_, k) => lineText(f, k + 1));

test('toLines: CR-only, LF, CRLF and mixed endings; a lone CR before CRLF is two line ends; final ending or not', () => {
  const cases = [
    ['a\rb\rc\r', ['a', 'b', 'c'], true],
    ['a\rb', ['a', 'b'], false],
    ['a\r\nb\nc\rd', ['a', 'b', 'c', 'd'], false],
    ['a\r\r\n\r\nb\r\n', ['a', '', '', 'b'], true],
    ['\r', [''], true],
    ['', [], false],
    ['\ufeffx\ry', ['x', 'y'], false],
  ];
  for (const [s, lines, final] of cases) {
    const f = toLines(Buffer.from(s));
    assert.deepEqual(texts(f), lines, JSON.stringify(s));
    assert.equal(f.finalNewline, final, JSON.stringify(s));
    assert.deepEqual(splitLines(s.replace(/^\ufeff/, '')).slice(0, lines.length), lines, `splitLines ${JSON.stringify(s)}`);
  }
});

test('eolFor: the line\'s own ending, else the first in the file; insertLine and removeLine round-trip byte for byte', () => {
  const s = 'a\rb\r\nc\nd';
  const f = toLines(Buffer.from(s));
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => eolFor(f, n)), ['\r', '\r\n', '\n', '\r', '\r']);
  for (let n = 1; n <= 5; n++) {
    const out = insertLine(f, n, 'S', eolFor(f, n));
    const at = n <= 4 ? n : 5;
    assert.equal(lineText(toLines(out), at), 'S', `insert at ${n}`);
    assert.equal(removeLine(toLines(out), at).toString(), s, `remove at ${n}`);
  }
});

test('lineOfGitLine: git numbers lines at LF only; each converts to the line that starts there', () => {
  const f = toLines(Buffer.from('p\nx\ry\nz\n'));
  assert.deepEqual([1, 2, 3, 4].map((g) => lineOfGitLine(f, g)), [1, 2, 4, 5]);
  const cr = toLines(Buffer.from('a\rb\rc\r'));
  assert.deepEqual([1, 2].map((g) => lineOfGitLine(cr, g)), [1, 4]);
  assert.equal(lineOfGitLine(toLines(Buffer.from('')), 1), 1);
  const lf = toLines(Buffer.from('a\nb\n'));
  assert.deepEqual([1, 2, 3].map((g) => lineOfGitLine(lf, g)), [1, 2, 3]);
});
