// `git kizu review`: the real bin in a real pseudo-terminal (tmux), driven key by key. Exact
// screen transcripts, exact file bytes, marks, trash and queue state afterwards, and the
// terminal mode restored on exit (Ctrl-C, Ctrl-D). tmux is required: if it is missing the
// tests fail (CI installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { EMAIL, sandbox } from '../helpers/sandbox.mjs';
import { countedLines, text } from '../helpers/files.mjs';
import { hunksJson, savedLines } from '../helpers/hunks.mjs';
import { marksList } from '../helpers/marks.mjs';
import { HELP, PROMPT, TAIL, head, listLine } from '../helpers/review.mjs';
import { terminal } from '../helpers/terminal.mjs';

test('review: ask scar, revert + scar, tap and reject in one session leave exact files, marks, trash and no queue', async (t) => {
  const sb = sandbox({ files: { 'a.py': text(countedLines(20)), 'c.json': '{"a":1}\n' } });
  const mod = countedLines(20);
  mod[1] = 'L2';
  mod[14] = 'L15';
  sb.write({ 'a.py': text(mod), 'b.txt': 'new\n', 'c.json': '{"a":2}\n' });
  const [h1, h2, h3, h4] = hunksJson(sb);
  assert.deepEqual([h1.range, h2.range, h3.range, h4.range], ['a.py:2', 'a.py:15', 'b.txt:1', 'c.json:1']);
  const s = terminal(t, sb, ['review']);

  await s.waitFor(`(1/4) ${PROMPT}`);
  s.type('a');
  await s.waitFor(`(2/4) ${PROMPT}`);
  const scarred = mod.slice();
  scarred.splice(1, 0, '# @kizu[ask]: explain this change');
  assert.equal(sb.read('a.py'), text(scarred));

  s.type('X');
  await s.waitFor('reason: ');
  s.type('wrong fix');
  s.key('Enter');
  await s.waitFor(`(3/4) ${PROMPT}`);
  const reverted = scarred.slice();
  reverted.splice(15, 1, '# @kizu[reject]: reverted: wrong fix', 'l15');
  assert.equal(sb.read('a.py'), text(reverted));
  const saved = savedLines(sb, 'a.py');
  // The trash holds a.py as it was before the revert (ask scar in, L15 still there).
  assert.equal(sb.git('cat-file', '-p', `refs/kizu/reverts:a.py`), text(scarred));

  s.type(' ');
  await s.waitFor(`(4/4) ${PROMPT}`);
  s.type('!');
  const screen = await s.done();

  const after = hunksJson(sb);
  const [a1, a2] = after;
  assert.deepEqual(
    after.map((h) => [h.id, h.range, h.mark]),
    [
      [a1.id, 'a.py:2-3', 'unreviewed'],
      [a2.id, 'a.py:16', 'unreviewed'],
      [h3.id, 'b.txt:1', 'tapped'],
      [h4.id, 'c.json:1', 'rejected'],
    ],
  );
  assert.deepEqual(marksList(sb), {
    [h3.id]: { state: 'tapped', time: '<time>', by: EMAIL, path: 'b.txt', range: 'b.txt:1' },
    // A reject records the baseline commit and the hunk's place in it (issue 22).
    [h4.id]: { state: 'rejected', time: '<time>', by: EMAIL, path: 'c.json', range: 'c.json:1', base: sb.git('rev-parse', 'HEAD').trim(), old: '1,1' },
  });
  assert.equal(sb.read('a.py'), text(reverted));
  assert.equal(sb.read('c.json'), '{"a":2}\n');
  assert.equal(sb.read('b.txt'), 'new\n');
  assert.equal(existsSync(sb.path('.claude/review-queue.md')), false);
  assert.deepEqual(screen, [
    head(h1),
    '@@ -1,5 +1,5 @@',
    ' l1',
    '-l2',
    '+L2',
    ' l3',
    ' l4',
    ' l5',
    `(1/4) ${PROMPT}a`,
    'scarred a.py:2  # @kizu[ask]: explain this change',
    `${h2.shortId}  a.py:16  +1 -1  modified  [unreviewed]`,
    '@@ -12,7 +13,7 @@ l11',
    ' l12',
    ' l13',
    ' l14',
    '-l15',
    '+L15',
    ' l16',
    ' l17',
    ' l18',
    `(2/4) ${PROMPT}X`,
    'reason: wrong fix',
    `reverted ${h2.shortId}  a.py:16`,
    'scarred a.py:16  # @kizu[reject]: reverted: wrong fix',
    ...saved,
    head(h3),
    '@@ -0,0 +1 @@',
    '+new',
    `(3/4) ${PROMPT}space`,
    `tapped ${h3.shortId} b.txt:1`,
    head(h4),
    '@@ -1 +1 @@',
    '-{"a":1}',
    '+{"a":2}',
    `(4/4) ${PROMPT}!`,
    `rejected ${h4.shortId} c.json:1`,
    'review: 1 tapped, 1 rejected, 1 scarred, 1 reverted, 0 skipped',
    'not tapped (3):',
    listLine(a1),
    listLine(a2),
    listLine(h4, 'rejected'),
    ...TAIL,
  ]);
  // The saved copy restores the pre-revert bytes.
  const id = /--restore ([0-9a-f]{12})/.exec(saved[0])[1];
  const r = sb.kizu(['revert', '--restore', id]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('a.py'), text(scarred));
});

test('review: ? lists the keys, unknown keys are named, free scar with line editing and Esc, plain revert, skip, q quits with the list', async (t) => {
  const sb = sandbox({ files: { 'm.py': text(countedLines(30)) } });
  const mod = countedLines(30);
  mod[4] = 'L5';
  mod[14] = 'L15';
  mod[24] = 'L25';
  sb.write({ 'm.py': text(mod), 'n.txt': 'untracked\n' });
  const [h1, h2, h3, h4] = hunksJson(sb);
  assert.deepEqual([h1.range, h2.range, h3.range, h4.range], ['m.py:5', 'm.py:15', 'm.py:25', 'n.txt:1']);
  const s = terminal(t, sb, ['review']);
  await s.waitFor(`(1/4) ${PROMPT}`);
  s.type('?');
  await s.waitFor(`(1/4) ${PROMPT}`, 2);
  s.type('z');
  await s.waitFor(`(1/4) ${PROMPT}`, 3);
  s.type('c');
  await s.waitFor('scar text: ');
  s.type('oops');
  s.key('Escape');
  await s.waitFor(`(1/4) ${PROMPT}`, 4);
  s.type('c');
  await s.waitFor('scar text: ', 2);
  s.type('chekc');
  s.key('BSpace', 'BSpace');
  s.type('ck this');
  s.key('Enter');
  await s.waitFor(`(2/4) ${PROMPT}`);
  const scarred = mod.slice();
  scarred.splice(4, 0, '# @kizu[free]: check this');
  assert.equal(sb.read('m.py'), text(scarred));
  s.type('x');
  await s.waitFor(`(3/4) ${PROMPT}`);
  const reverted = scarred.slice();
  reverted[15] = 'l15';
  assert.equal(sb.read('m.py'), text(reverted));
  const saved = savedLines(sb, 'm.py');
  s.type('s');
  await s.waitFor(`(4/4) ${PROMPT}`);
  s.type('q');
  const screen = await s.done();
  const after = hunksJson(sb);
  assert.deepEqual(
    after.map((h) => [h.range, h.mark]),
    [
      ['m.py:5-6', 'unreviewed'],
      ['m.py:26', 'unreviewed'],
      ['n.txt:1', 'unreviewed'],
    ],
  );
  assert.equal(after[1].id, h3.id);
  assert.equal(after[2].id, h4.id);
  assert.deepEqual(marksList(sb), {});
  assert.deepEqual(screen, [
    head(h1),
    '@@ -2,7 +2,7 @@ l1',
    ' l2',
    ' l3',
    ' l4',
    '-l5',
    '+L5',
    ' l6',
    ' l7',
    ' l8',
    `(1/4) ${PROMPT}?`,
    ...HELP,
    `(1/4) ${PROMPT}z`,
    'unknown key "z" (? lists the keys)',
    `(1/4) ${PROMPT}c`,
    'scar text: oops',
    'cancelled: no scar written',
    `(1/4) ${PROMPT}c`,
    'scar text: check this',
    'scarred m.py:5  # @kizu[free]: check this',
    `${h2.shortId}  m.py:16  +1 -1  modified  [unreviewed]`,
    '@@ -12,7 +13,7 @@ l11',
    ' l12',
    ' l13',
    ' l14',
    '-l15',
    '+L15',
    ' l16',
    ' l17',
    ' l18',
    `(2/4) ${PROMPT}x`,
    `reverted ${h2.shortId}  m.py:16`,
    ...saved,
    `${h3.shortId}  m.py:26  +1 -1  modified  [unreviewed]`,
    '@@ -22,7 +23,7 @@ l21',
    ' l22',
    ' l23',
    ' l24',
    '-l25',
    '+L25',
    ' l26',
    ' l27',
    ' l28',
    `(3/4) ${PROMPT}s`,
    head(h4),
    '@@ -0,0 +1 @@',
    '+untracked',
    `(4/4) ${PROMPT}q`,
    'review: 0 tapped, 0 rejected, 1 scarred, 1 reverted, 1 skipped',
    'not tapped (3):',
    ...after.map((h) => listLine(h)),
    ...TAIL,
  ]);
});

test('review: Ctrl-C at the key prompt and Ctrl-D in the reason prompt quit cleanly, terminal mode restored, nothing written', async (t) => {
  for (const [keys, echo] of [
    [['C-c'], `(1/1) ${PROMPT}`],
    [['X', 'C-d'], 'reason: '],
  ]) {
    const sb = sandbox({ files: { 'a.sh': text(countedLines(5)) } });
    sb.write({ 'a.sh': text(['l1', 'L2', 'l3', 'l4', 'l5']) });
    const [h] = hunksJson(sb);
    const s = terminal(t, sb, ['review']);
    await s.waitFor(`(1/1) ${PROMPT}`);
    for (const k of keys) {
      if (k.length === 1) s.type(k);
      else s.key(k);
    }
    const screen = await s.done();
    assert.deepEqual(screen, [
      head(h),
      '@@ -1,5 +1,5 @@',
      ' l1',
      '-l2',
      '+L2',
      ' l3',
      ' l4',
      ' l5',
      ...(keys.length === 2 ? [`(1/1) ${PROMPT}X`] : []),
      echo.trimEnd(),
      'review: 0 tapped, 0 rejected, 0 scarred, 0 reverted, 0 skipped',
      'not tapped (1):',
      listLine(h),
      ...TAIL,
    ]);
    assert.equal(sb.read('a.sh'), text(['l1', 'L2', 'l3', 'l4', 'l5']));
    assert.equal(sb.git('rev-parse', '--verify', '-q', 'refs/kizu/reverts', { allowFail: true }), '');
    assert.deepEqual(marksList(sb), {});
  }
});
