// `git kizu review` in a real pseudo-terminal (tmux): files without comment syntax (the queue
// instead), keys remapped in .kizurc.json, --all and paths, colours and escaped control
// characters, a failed action, and the refusal without a terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { EMAIL, sandbox } from '../helpers/sandbox.mjs';
import { hunksJson, savedLines } from '../helpers/hunks.mjs';
import { marksList } from '../helpers/marks.mjs';
import { HELP, PROMPT, TAIL, head, listLine } from '../helpers/review.mjs';
import { terminal } from '../helpers/terminal.mjs';

test('review: revert + scar on a file without comment syntax offers the queue; n keeps the hunk, y reverts and files the item', async (t) => {
  const sb = sandbox({ files: { 'c.json': '{"a":1}\n' } });
  sb.write({ 'c.json': '{"a":2}\n' });
  const [h] = hunksJson(sb);
  const s = terminal(t, sb, ['review']);
  await s.waitFor(`(1/1) ${PROMPT}`);
  s.type('X');
  await s.waitFor('reason: ');
  s.type('keep a at 1');
  s.key('Enter');
  await s.waitFor('[y,n]? ');
  s.type('n');
  await s.waitFor(`(1/1) ${PROMPT}`, 2);
  assert.equal(sb.read('c.json'), '{"a":2}\n');
  assert.equal(existsSync(sb.path('.claude/review-queue.md')), false);
  s.type('X');
  await s.waitFor('reason: ', 2);
  s.type('keep a at 1');
  s.key('Enter');
  await s.waitFor('[y,n]? ', 2);
  s.type('y');
  const screen = await s.done();
  assert.equal(sb.read('c.json'), '{"a":1}\n');
  assert.deepEqual(hunksJson(sb), []);
  const ql = sb.kizu(['queue', 'list', '--json']);
  assert.equal(ql.status, 0, ql.stderr);
  const items = JSON.parse(ql.stdout);
  assert.equal(items.length, 1);
  const qid = items[0].id;
  assert.deepEqual(items, [{ id: qid, checked: false, kind: 'reject', path: 'c.json', line: 1, text: 'reverted: keep a at 1', queueLine: items[0].queueLine }]);
  assert.equal(sb.read('.claude/review-queue.md').split('\n').at(-2), `- [ ] (reject) \`c.json:1\` reverted: keep a at 1 <!-- kizu:${qid} -->`);
  const refused = 'git-kizu: error: cannot write the scar, so nothing was reverted: c.json: this file type has no comment syntax, so a scar cannot be written into it';
  assert.deepEqual(screen, [
    head(h),
    '@@ -1 +1 @@',
    '-{"a":1}',
    '+{"a":2}',
    `(1/1) ${PROMPT}X`,
    'reason: keep a at 1',
    refused,
    'Revert and file the reason in the review queue instead [y,n]? n',
    'nothing reverted',
    `(1/1) ${PROMPT}X`,
    'reason: keep a at 1',
    refused,
    'Revert and file the reason in the review queue instead [y,n]? y',
    `reverted ${h.shortId}  c.json:1`,
    `queued ${qid}  c.json:1  (reject) reverted: keep a at 1`,
    ...savedLines(sb, 'c.json'),
    'review: 0 tapped, 0 rejected, 0 scarred, 1 reverted, 0 skipped',
    'no hunks left',
    ...TAIL,
  ]);
});

test('review: keys remapped in .kizurc.json work and show in the prompt and help; bad review.keys is one config error', async (t) => {
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ review: { keys: { tap: 't', skip: 'n', help: 'h' } } }), 'a.txt': 'a\n', 'b.txt': 'b\n' } });
  sb.write({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
  const [ha, hb] = hunksJson(sb);
  const s = terminal(t, sb, ['review']);
  const prompt = 'Review this hunk [t,!,a,r,c,x,X,n,q,h]? ';
  await s.waitFor(`(1/2) ${prompt}`);
  s.type('?');
  await s.waitFor(`(1/2) ${prompt}`, 2);
  s.type('h');
  await s.waitFor(`(1/2) ${prompt}`, 3);
  s.type('t');
  await s.waitFor(`(2/2) ${prompt}`);
  s.type('n');
  const screen = await s.done();
  assert.deepEqual(marksList(sb), { [ha.id]: { state: 'tapped', time: '<time>', by: EMAIL, path: 'a.txt', range: 'a.txt:1' } });
  assert.deepEqual(screen, [
    // The keys in force, named before the first hunk when config remapped any.
    'keys from config review.keys: tap t, skip n, help h (h lists every key)',
    head(ha),
    '@@ -1 +1 @@',
    '-a',
    '+A',
    `(1/2) ${prompt}?`,
    'unknown key "?" (h lists the keys)',
    `(1/2) ${prompt}h`,
    't     - tap: mark this hunk reviewed and OK',
    ...HELP.slice(1, 7),
    'n     - skip: leave this hunk as it is and go to the next one',
    HELP[8],
    'h     - help: show this list',
    `(1/2) ${prompt}t`,
    `tapped ${ha.shortId} a.txt:1`,
    head(hb),
    '@@ -1 +1 @@',
    '-b',
    '+B',
    `(2/2) ${prompt}n`,
    'review: 1 tapped, 0 rejected, 0 scarred, 0 reverted, 1 skipped',
    'not tapped (1):',
    listLine(hb),
    ...TAIL,
  ]);

  // Invalid review.keys: every problem in one error, in the terminal too; nothing shown.
  const bad = sandbox({ files: { '.kizurc.json': JSON.stringify({ review: { keys: { tap: 'tt', quit: '', free: '\u0003', undo: 'u', extra: 1 } } }), 'a.txt': 'a\n' } });
  bad.write({ 'a.txt': 'A\n' });
  const file = path.join(realpathSync(bad.dir), '.kizurc.json');
  const problems = [
    `git-kizu: error: invalid config in ${file}:`,
    '  - "review.keys.tap" must be a single character, got "tt"',
    '  - "review.keys.quit" must be a single character, got ""',
    '  - "review.keys.free" must be a printable character (control characters are reserved), got "\\u0003"',
    '  - unknown key "review.keys.undo" (known: review.keys.tap, review.keys.reject, review.keys.ask, review.keys.rejectScar, review.keys.free, review.keys.revert, review.keys.revertScar, review.keys.skip, review.keys.quit, review.keys.help)',
    '  - unknown key "review.keys.extra" (known: review.keys.tap, review.keys.reject, review.keys.ask, review.keys.rejectScar, review.keys.free, review.keys.revert, review.keys.revertScar, review.keys.skip, review.keys.quit, review.keys.help)',
    'hint: fix the listed keys (see README "Config")',
  ];
  const bs = terminal(t, bad, ['review'], { width: 400 });
  assert.deepEqual(await bs.done(), [...problems, 'EXIT=2', 'TTY: isig icanon echo']);
  const dup = sandbox({ files: { '.kizurc.json': JSON.stringify({ review: { keys: { tap: 'y', skip: 'z', quit: 'z' }, other: 1 } }) } });
  const r = dup.kizu(['scan']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [
    2,
    '',
    `git-kizu: error: invalid config in ${path.join(realpathSync(dup.dir), '.kizurc.json')}:\n` +
      '  - unknown key "review.other" (known: review.keys)\n' +
      '  - "review.keys": "z" is bound to more than one action: skip, quit\n' +
      'hint: fix the listed keys (see README "Config")\n',
  ]);
  const shape = sandbox({ files: { '.kizurc.json': JSON.stringify({ review: { keys: ['t'] } }) } });
  const r2 = shape.kizu(['scan']);
  assert.equal(r2.status, 2);
  assert.equal(r2.stderr.split('\n')[1], '  - "review.keys" must be an object mapping actions to single characters, like {"tap": "t", "skip": "n"}');
});

test('review: tapped hunks are skipped unless --all; paths limit the review; nothing to review is said so', async (t) => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'd/b.txt': 'b\n', 'd/c.txt': 'c\n' } });
  sb.write({ 'a.txt': 'A\n', 'd/b.txt': 'B\n', 'd/c.txt': 'C\n' });
  const [ha, hb, hc] = hunksJson(sb);
  assert.equal(sb.kizu(['tap', hb.shortId]).status, 0);

  const s1 = terminal(t, sb, ['review']);
  await s1.waitFor(`(1/2) ${PROMPT}`);
  s1.type('s');
  await s1.waitFor(`(2/2) ${PROMPT}`);
  s1.type('q');
  assert.deepEqual(await s1.done(), [
    head(ha),
    '@@ -1 +1 @@',
    '-a',
    '+A',
    `(1/2) ${PROMPT}s`,
    head(hc),
    '@@ -1 +1 @@',
    '-c',
    '+C',
    `(2/2) ${PROMPT}q`,
    'review: 0 tapped, 0 rejected, 0 scarred, 0 reverted, 1 skipped',
    'not tapped (2):',
    listLine(ha),
    listLine(hc),
    ...TAIL,
  ]);

  const s2 = terminal(t, sb, ['review', '--all', 'd']);
  await s2.waitFor(`(1/2) ${PROMPT}`);
  s2.type('!');
  await s2.waitFor(`(2/2) ${PROMPT}`);
  s2.type('s');
  assert.deepEqual(await s2.done(), [
    head(hb, 'tapped'),
    '@@ -1 +1 @@',
    '-b',
    '+B',
    `(1/2) ${PROMPT}!`,
    `rejected ${hb.shortId} d/b.txt:1`,
    head(hc),
    '@@ -1 +1 @@',
    '-c',
    '+C',
    `(2/2) ${PROMPT}s`,
    'review: 0 tapped, 1 rejected, 0 scarred, 0 reverted, 1 skipped',
    'not tapped (2):',
    listLine(hb, 'rejected'),
    listLine(hc),
    ...TAIL,
  ]);

  assert.equal(sb.kizu(['tap', hc.shortId]).status, 0);
  assert.equal(sb.kizu(['tap', hb.shortId]).status, 0);
  const s3 = terminal(t, sb, ['review', 'd']);
  assert.deepEqual(await s3.done(), ['every hunk is tapped (git kizu review --all shows them too)', ...TAIL]);
  const clean = sandbox({ files: { 'a.txt': 'a\n' } });
  const s4 = terminal(t, clean, ['review']);
  assert.deepEqual(await s4.done(), ['no hunks to review', ...TAIL]);
});

test('review: without a terminal on stdin it refuses with exit 2 and points at the scriptable commands', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.write({ 'a.txt': 'A\n' });
  const r = sb.kizu(['review'], { input: ' ' });
  assert.deepEqual([r.status, r.stdout, r.stderr], [
    2,
    '',
    'git-kizu: error: git kizu review needs a terminal: stdin is not a TTY\n' +
      'hint: in scripts, list hunks with git kizu hunks --json and act on them with git kizu tap, git kizu reject, git kizu scar or git kizu revert\n',
  ]);
  assert.deepEqual(marksList(sb), {});
  assert.equal(sb.read('a.txt'), 'A\n');
});

test('review: hunk lines are coloured (+ green, - red, @@ cyan) on a colour terminal, and control characters are shown escaped', async (t) => {
  const sb = sandbox({ files: { 'a.txt': 'a\nb\n' } });
  sb.write({ 'a.txt': 'A\x1b[2Jx\nb\n' });
  const s = terminal(t, sb, ['review'], { env: { NO_COLOR: undefined, FORCE_COLOR: undefined } });
  await s.waitFor(PROMPT);
  const ls = s.screen(true);
  assert.ok(ls.includes('\x1b[36m@@ -1,2 +1,2 @@'), ls.join('\n'));
  assert.ok(ls.includes('\x1b[31m-a'), ls.join('\n'));
  assert.ok(ls.includes('\x1b[32m+A\\x1b[2Jx'), ls.join('\n'));
  s.type('q');
  const plain = await s.done();
  assert.equal(plain[3], '+A\\x1b[2Jx');
});

test('review: a failed action prints the error and shows the hunk at that place again, as it is now', async (t) => {
  const sb = sandbox({ files: { 'bin.dat': Buffer.from([0, 1, 2]), 't.txt': 'a\nb\n' } });
  sb.write({ 'bin.dat': Buffer.from([0, 1, 3]), 't.txt': 'A\nb\n' });
  const [hbin, ht] = hunksJson(sb);
  const s = terminal(t, sb, ['review']);
  await s.waitFor(`(1/2) ${PROMPT}`);
  s.type('a');
  await s.waitFor(`(1/2) ${PROMPT}`, 2);
  s.type('s');
  await s.waitFor(`(2/2) ${PROMPT}`);
  sb.write({ 't.txt': 'A\nB\n' });
  s.type('x');
  await s.waitFor(`(2/2) ${PROMPT}`, 2);
  const [, ht2] = hunksJson(sb);
  s.type('q');
  const screen = await s.done();
  assert.equal(sb.read('t.txt'), 'A\nB\n');
  assert.equal(sb.git('rev-parse', '--verify', '-q', 'refs/kizu/reverts', { allowFail: true }), '');
  const binHead = [head(hbin), 'Binary files a/bin.dat and b/bin.dat differ'];
  assert.deepEqual(screen, [
    ...binHead,
    `(1/2) ${PROMPT}a`,
    'git-kizu: error: bin.dat: binary file (NUL byte in the first 8 KiB); scars go into text files',
    'hint: queue the remark instead: git kizu queue add --at bin.dat:1 "<text>"',
    ...binHead,
    `(1/2) ${PROMPT}s`,
    head(ht),
    '@@ -1,2 +1,2 @@',
    '-a',
    '+A',
    ' b',
    `(2/2) ${PROMPT}x`,
    `git-kizu: warning: t.txt changed since hunk ${ht.shortId} was shown; nothing was done`,
    head(ht2),
    '@@ -1,2 +1,2 @@',
    '-a',
    '-b',
    '+A',
    '+B',
    `(2/2) ${PROMPT}q`,
    'review: 0 tapped, 0 rejected, 0 scarred, 0 reverted, 1 skipped',
    'not tapped (2):',
    listLine(hbin),
    listLine(ht2),
    ...TAIL,
  ]);
  assert.equal(ht2.range, 't.txt:1-2');
});
