// `git kizu review`: every write of a session lands where its hunk is at that moment, after
// the scars and reverts the same session wrote before it (the real bin in a real terminal,
// tmux, as in review.test.mjs). Exact file text after each key, and the whole screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { countedLines, text } from '../helpers/files.mjs';
import { hunksJson, savedLines } from '../helpers/hunks.mjs';
import { PROMPT, TAIL, head, listLine } from '../helpers/review.mjs';
import { terminal } from '../helpers/terminal.mjs';

const ASK = '# @kizu[ask]: explain this change';
const REJECT = '# @kizu[reject]: revert this change';

/**
 * What review shows for hunk `h` (as `hunks --json` lists it while the hunk is shown) of a
 * file whose baseline lines are `old` and whose lines are `now`: the header, the `@@` line
 * (git's default function name: the baseline line above the hunk) and the body, for a hunk
 * with one block of changed lines.
 */
function shown(h, old, now) {
  const o = old.slice(h.oldStart - 1, h.oldStart - 1 + h.oldCount);
  const n = now.slice(h.newStart - 1, h.newStart - 1 + h.newCount);
  let p = 0;
  while (p < o.length && p < n.length && o[p] === n[p]) p++;
  let q = 0;
  while (q < o.length - p && q < n.length - p && o[o.length - 1 - q] === n[n.length - 1 - q]) q++;
  return [
    head(h),
    `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@${h.oldStart > 1 ? ` ${old[h.oldStart - 2]}` : ''}`,
    ...o.slice(0, p).map((l) => ` ${l}`),
    ...o.slice(p, o.length - q).map((l) => `-${l}`),
    ...n.slice(p, n.length - q).map((l) => `+${l}`),
    ...o.slice(o.length - q).map((l) => ` ${l}`),
  ];
}

/** `lines` with `add` inserted before index `at` (0-based). */
const insert = (lines, at, ...add) => [...lines.slice(0, at), ...add, ...lines.slice(at)];

test('review: ask, reject and free scars in one session each land directly above their changed line', async (t) => {
  const base = countedLines(40);
  const mod = base.slice();
  mod[9] = 'L10';
  mod[19] = 'L20';
  mod[29] = 'L30';
  const sb = sandbox({ files: { 'f.py': text(base) } });
  sb.write({ 'f.py': text(mod) });
  const [h1, h2, h3] = hunksJson(sb);
  assert.deepEqual([h1.range, h2.range, h3.range], ['f.py:10', 'f.py:20', 'f.py:30']);
  const s = terminal(t, sb, ['review']);

  await s.waitFor(`(1/3) ${PROMPT}`);
  s.type('a');
  await s.waitFor(`(2/3) ${PROMPT}`);
  const one = insert(mod, 9, ASK);
  assert.equal(sb.read('f.py'), text(one));
  const [, n2] = hunksJson(sb);
  assert.deepEqual([n2.id, n2.range], [h2.id, 'f.py:21']);

  s.type('r');
  await s.waitFor(`(3/3) ${PROMPT}`);
  const two = insert(one, 20, REJECT);
  assert.equal(sb.read('f.py'), text(two));
  const [, , n3] = hunksJson(sb);
  assert.deepEqual([n3.id, n3.range], [h3.id, 'f.py:32']);

  s.type('c');
  await s.waitFor('scar text: ');
  s.type('why thirty');
  s.key('Enter');
  const screen = await s.done();
  const three = insert(two, 31, '# @kizu[free]: why thirty');
  assert.equal(sb.read('f.py'), text(three));
  assert.deepEqual(
    [three.slice(8, 12), three.slice(19, 23), three.slice(30, 34)],
    [
      ['l9', ASK, 'L10', 'l11'],
      ['l19', REJECT, 'L20', 'l21'],
      ['l29', '# @kizu[free]: why thirty', 'L30', 'l31'],
    ],
  );
  const after = hunksJson(sb);
  assert.deepEqual(
    after.map((h) => h.range),
    ['f.py:10-11', 'f.py:21-22', 'f.py:32-33'],
  );
  assert.deepEqual(screen, [
    ...shown(h1, base, mod),
    `(1/3) ${PROMPT}a`,
    `scarred f.py:10  ${ASK}`,
    ...shown(n2, base, one),
    `(2/3) ${PROMPT}r`,
    `scarred f.py:21  ${REJECT}`,
    ...shown(n3, base, two),
    `(3/3) ${PROMPT}c`,
    'scar text: why thirty',
    'scarred f.py:32  # @kizu[free]: why thirty',
    'review: 0 tapped, 0 rejected, 3 scarred, 0 reverted, 0 skipped',
    'not tapped (3):',
    ...after.map((h) => listLine(h)),
    ...TAIL,
  ]);
});

test('review: after a revert of a hunk that added 3 lines, revert + scar and an ask scar on later hunks land at their lines', async (t) => {
  const base = countedLines(50);
  const mod = insert(base, 10, 'N1', 'N2', 'N3');
  mod[32] = 'L30';
  mod[47] = 'L45';
  const sb = sandbox({ files: { 'f.py': text(base) } });
  sb.write({ 'f.py': text(mod) });
  const [h1, h2, h3] = hunksJson(sb);
  assert.deepEqual([h1.range, h2.range, h3.range], ['f.py:11-13', 'f.py:33', 'f.py:48']);
  const s = terminal(t, sb, ['review']);

  await s.waitFor(`(1/3) ${PROMPT}`);
  s.type('x');
  await s.waitFor(`(2/3) ${PROMPT}`);
  const one = base.slice();
  one[29] = 'L30';
  one[44] = 'L45';
  assert.equal(sb.read('f.py'), text(one));
  const saved = savedLines(sb, 'f.py');
  const [n2] = hunksJson(sb);
  assert.deepEqual([n2.id, n2.range], [h2.id, 'f.py:30']);

  s.type('X');
  await s.waitFor('reason: ');
  s.type('keep l30');
  s.key('Enter');
  await s.waitFor(`(3/3) ${PROMPT}`);
  const two = insert(one, 29, '# @kizu[reject]: reverted: keep l30');
  two[30] = 'l30';
  assert.equal(sb.read('f.py'), text(two));
  const [, n3] = hunksJson(sb);
  assert.deepEqual([n3.id, n3.range], [h3.id, 'f.py:46']);

  s.type('a');
  const screen = await s.done();
  const three = insert(two, 45, ASK);
  assert.equal(sb.read('f.py'), text(three));
  assert.deepEqual(three.slice(44, 48), ['l44', ASK, 'L45', 'l46']);
  const after = hunksJson(sb);
  assert.deepEqual(
    after.map((h) => h.range),
    ['f.py:30', 'f.py:46-47'],
  );
  assert.deepEqual(screen, [
    ...shown(h1, base, mod),
    `(1/3) ${PROMPT}x`,
    `reverted ${h1.shortId}  f.py:11-13`,
    ...saved,
    ...shown(n2, base, one),
    `(2/3) ${PROMPT}X`,
    'reason: keep l30',
    `reverted ${h2.shortId}  f.py:30`,
    'scarred f.py:30  # @kizu[reject]: reverted: keep l30',
    ...savedLines(sb, 'f.py'),
    ...shown(n3, base, two),
    `(3/3) ${PROMPT}a`,
    `scarred f.py:46  ${ASK}`,
    'review: 0 tapped, 0 rejected, 1 scarred, 2 reverted, 0 skipped',
    'not tapped (2):',
    ...after.map((h) => listLine(h)),
    ...TAIL,
  ]);
});

test('review: an ask scar, then a revert of a later hunk that replaced 1 line by 3, then a free scar on the hunk after it', async (t) => {
  const base = countedLines(50);
  const mod = base.slice();
  mod[9] = 'L10';
  mod.splice(29, 1, 'M1', 'M2', 'M3');
  mod[46] = 'L45';
  const sb = sandbox({ files: { 'f.py': text(base) } });
  sb.write({ 'f.py': text(mod) });
  const [h1, h2, h3] = hunksJson(sb);
  assert.deepEqual([h1.range, h2.range, h3.range], ['f.py:10', 'f.py:30-32', 'f.py:47']);
  const s = terminal(t, sb, ['review']);

  await s.waitFor(`(1/3) ${PROMPT}`);
  s.type('a');
  await s.waitFor(`(2/3) ${PROMPT}`);
  const one = insert(mod, 9, ASK);
  assert.equal(sb.read('f.py'), text(one));
  const [, n2] = hunksJson(sb);
  assert.deepEqual([n2.id, n2.range], [h2.id, 'f.py:31-33']);

  s.type('x');
  await s.waitFor(`(3/3) ${PROMPT}`);
  const two = insert(base, 9, ASK);
  two[10] = 'L10';
  two[45] = 'L45';
  assert.equal(sb.read('f.py'), text(two));
  const saved = savedLines(sb, 'f.py');
  const [, n3] = hunksJson(sb);
  assert.deepEqual([n3.id, n3.range], [h3.id, 'f.py:46']);

  s.type('c');
  await s.waitFor('scar text: ');
  s.type('why 45');
  s.key('Enter');
  const screen = await s.done();
  const three = insert(two, 45, '# @kizu[free]: why 45');
  assert.equal(sb.read('f.py'), text(three));
  assert.deepEqual(three.slice(44, 48), ['l44', '# @kizu[free]: why 45', 'L45', 'l46']);
  const after = hunksJson(sb);
  assert.deepEqual(
    after.map((h) => h.range),
    ['f.py:10-11', 'f.py:46-47'],
  );
  assert.deepEqual(screen, [
    ...shown(h1, base, mod),
    `(1/3) ${PROMPT}a`,
    `scarred f.py:10  ${ASK}`,
    ...shown(n2, base, one),
    `(2/3) ${PROMPT}x`,
    `reverted ${h2.shortId}  f.py:31-33`,
    ...saved,
    ...shown(n3, base, two),
    `(3/3) ${PROMPT}c`,
    'scar text: why 45',
    'scarred f.py:46  # @kizu[free]: why 45',
    'review: 0 tapped, 0 rejected, 2 scarred, 1 reverted, 0 skipped',
    'not tapped (2):',
    ...after.map((h) => listLine(h)),
    ...TAIL,
  ]);
});

test('review: in a file with a lone CR (old Mac line end) the scar lands above the changed line, not one line higher', async (t) => {
  const sb = sandbox({ files: { 'g.py': 'a = 1\rb = 2\nc = 3\nd = 4\n' } });
  sb.write({ 'g.py': 'a = 1\rb = 2\nc = 3\nD = 4\n' });
  const [h] = hunksJson(sb);
  // git counts lines at LF only: the change is its line 3 (the editor's and scan's line 4).
  assert.equal(h.range, 'g.py:3');
  const s = terminal(t, sb, ['review']);
  await s.waitFor(`(1/1) ${PROMPT}`);
  s.type('a');
  const screen = await s.done();
  assert.equal(sb.read('g.py'), `a = 1\rb = 2\nc = 3\n${ASK}\nD = 4\n`);
  const after = hunksJson(sb);
  assert.deepEqual(
    after.map((x) => x.range),
    ['g.py:3-4'],
  );
  assert.deepEqual(screen, [
    ...shown(h, ['a = 1\\x0db = 2', 'c = 3', 'd = 4'], ['a = 1\\x0db = 2', 'c = 3', 'D = 4']),
    `(1/1) ${PROMPT}a`,
    `scarred g.py:4  ${ASK}`,
    'review: 0 tapped, 0 rejected, 1 scarred, 0 reverted, 0 skipped',
    'not tapped (1):',
    listLine(after[0]),
    ...TAIL,
  ]);
  // scan (which counts lines as the editor does) names the scar's line; exit 1: a scar found.
  const scan = sb.kizu(['scan']);
  assert.deepEqual([scan.status, scan.stdout, scan.stderr], [1, 'g.py:4  [ask]  explain this change\n', '']);
});
