// `git kizu review`: the real bin in a real pseudo-terminal (tmux), driven key by key.
// Exact screen transcripts, exact file bytes, marks, trash and queue state afterwards, the
// terminal mode restored on exit, remapped keys from .kizurc.json, and the refusal without
// a terminal. tmux is required: if it is missing the tests fail (CI installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandbox, ROOT } from './helpers.mjs';

const INPUT = pathToFileURL(path.join(ROOT, 'src', 'cli', 'review', 'input.ts')).href;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EMAIL = 'kizu@example.invalid';
const text = (ls) => ls.map((l) => l + '\n').join('');
const lines = (n, p = 'l') => Array.from({ length: n }, (_, k) => `${p}${k + 1}`);
const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PROMPT = 'Review this hunk [space,!,a,r,c,x,X,s,q,?]? ';
const HELP = [
  'space - tap: mark this hunk reviewed and OK',
  '!     - reject: mark this hunk reviewed and not OK',
  'a     - ask scar: write the canned ask scar above the first changed line',
  'r     - reject scar: write the canned reject scar above the first changed line',
  'c     - free scar: type the scar text (Enter writes it, Esc cancels)',
  'x     - revert this hunk (the file is saved in refs/kizu/reverts first)',
  'X     - revert this hunk and write a scar "reverted: <reason>" (type the reason)',
  's     - skip: leave this hunk as it is and go to the next one',
  'q     - quit: stop here and list the hunks not tapped yet',
  '?     - help: show this list',
];
/** What the pane shows after the review exits: its exit status and the terminal's mode. */
const TAIL = ['EXIT=0', 'TTY: isig icanon echo'];

let sessions = 0;

/**
 * Starts `git kizu <argv>` in a detached tmux session (own socket and TMUX_TMPDIR inside the
 * sandbox) in the sandbox repo, with the sandbox env passed explicitly on the command line.
 * After the command the pane prints `EXIT=<status>` and `TTY: <isig|-isig> <icanon|-icanon>
 * <echo|-echo>` (the terminal mode left behind).
 */
function terminal(t, sb, argv, { env = {}, width = 200 } = {}) {
  const sock = `kizu-review-${process.pid}-${++sessions}`;
  const tenv = { PATH: process.env.PATH, HOME: sb.home, TMUX_TMPDIR: sb.base, LANG: 'C.UTF-8' };
  const tmux = (args, { allowFail = false } = {}) => {
    const r = spawnSync('tmux', ['-L', sock, '-f', '/dev/null', ...args], { env: tenv, encoding: 'utf8' });
    if (r.error) {
      if (r.error.code === 'ENOENT') throw new Error('tmux is not installed: test/review.test.mjs needs it to run git kizu review in a real terminal (apt-get install -y tmux)');
      throw r.error;
    }
    if (r.status !== 0 && !allowFail) throw new Error(`tmux ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  const vars = { ...sb.env, ...env };
  const unset = Object.keys(vars).filter((k) => vars[k] === undefined);
  const assigns = [...unset.map((k) => `-u ${k}`), ...Object.keys(vars).filter((k) => vars[k] !== undefined).map((k) => `${k}=${q(vars[k])}`)];
  const cmd =
    `env ${assigns.join(' ')} git kizu ${argv.map(q).join(' ')}; echo EXIT=$?; ` +
    `echo TTY: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e isig -e -isig -e icanon -e -icanon -e echo -e -echo); sleep 120`;
  tmux(['new-session', '-d', '-x', String(width), '-y', '50', '-c', sb.dir, cmd]);
  t.after(() => tmux(['kill-server'], { allowFail: true }));
  const s = {
    /** The whole pane (history included) as lines, trailing spaces and blank lines dropped. */
    screen(escapes = false) {
      const out = tmux(['capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-S', '-', '-E', '-']);
      const ls = out.split('\n').map((l) => l.trimEnd());
      while (ls.length && ls[ls.length - 1] === '') ls.pop();
      return ls;
    },
    /** Types characters literally. */
    type(str) {
      tmux(['send-keys', '-l', str]);
    },
    /** Sends tmux key names (Enter, Escape, BSpace, C-c, C-d). */
    key(...names) {
      tmux(['send-keys', ...names]);
    },
    /** Polls the pane until `str` (trailing spaces ignored, as the pane drops them) occurs `count` times; returns the lines. */
    async waitFor(str, count = 1, timeout = 20000) {
      const end = Date.now() + timeout;
      str = str.trimEnd();
      for (;;) {
        const ls = s.screen();
        if (ls.join('\n').split(str).length - 1 >= count) return ls;
        if (Date.now() > end) throw new Error(`timed out waiting for ${JSON.stringify(str)} x${count}; the pane shows:\n${ls.join('\n')}`);
        await sleep(40);
      }
    },
    /** Waits for the command to end (the TTY line) and returns the whole pane. */
    async done() {
      await s.waitFor('TTY: ');
      return s.screen();
    },
  };
  return s;
}

function hunks(sb) {
  const r = sb.kizu(['hunks', '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function marks(sb) {
  const r = sb.kizu(['marks', 'list', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const m = JSON.parse(r.stdout);
  for (const e of Object.values(m)) {
    assert.match(e.time, ISO_MS);
    e.time = '<time>';
  }
  return m;
}

/** The two lines revert prints about the saved copy of `rel` (newest trash entry). */
function savedLines(sb, rel) {
  const c = sb.git('rev-parse', 'refs/kizu/reverts').trim();
  const blob = sb.git('rev-parse', `${c}:${rel}`).trim();
  return [`saved the previous ${rel} in refs/kizu/reverts; restore it with: git kizu revert --restore ${c.slice(0, 12)}`, `  (or: git cat-file -p ${blob} > ${path.join(realpathSync(sb.dir), rel)})`];
}

const listLine = (h, mark = h.mark) => `  ${h.shortId}  ${h.range}  +${h.added} -${h.removed}  ${h.kind}${mark !== 'unreviewed' ? `  [${mark}]` : ''}`;
const head = (h, mark = 'unreviewed') => `${h.shortId}  ${h.range}  +${h.added} -${h.removed}  ${h.kind}  [${mark}]`;

test('review: ask scar, revert + scar, tap and reject in one session leave exact files, marks, trash and no queue', async (t) => {
  const sb = sandbox({ files: { 'a.py': text(lines(20)), 'c.json': '{"a":1}\n' } });
  const mod = lines(20);
  mod[1] = 'L2';
  mod[14] = 'L15';
  sb.write({ 'a.py': text(mod), 'b.txt': 'new\n', 'c.json': '{"a":2}\n' });
  const [h1, h2, h3, h4] = hunks(sb);
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

  const after = hunks(sb);
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
  assert.deepEqual(marks(sb), {
    [h3.id]: { state: 'tapped', time: '<time>', by: EMAIL, path: 'b.txt', range: 'b.txt:1' },
    [h4.id]: { state: 'rejected', time: '<time>', by: EMAIL, path: 'c.json', range: 'c.json:1' },
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
  const sb = sandbox({ files: { 'm.py': text(lines(30)) } });
  const mod = lines(30);
  mod[4] = 'L5';
  mod[14] = 'L15';
  mod[24] = 'L25';
  sb.write({ 'm.py': text(mod), 'n.txt': 'untracked\n' });
  const [h1, h2, h3, h4] = hunks(sb);
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
  const after = hunks(sb);
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
  assert.deepEqual(marks(sb), {});
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
    const sb = sandbox({ files: { 'a.sh': text(lines(5)) } });
    sb.write({ 'a.sh': text(['l1', 'L2', 'l3', 'l4', 'l5']) });
    const [h] = hunks(sb);
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
    assert.deepEqual(marks(sb), {});
  }
});

test('review: revert + scar on a file without comment syntax offers the queue; n keeps the hunk, y reverts and files the item', async (t) => {
  const sb = sandbox({ files: { 'c.json': '{"a":1}\n' } });
  sb.write({ 'c.json': '{"a":2}\n' });
  const [h] = hunks(sb);
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
  assert.deepEqual(hunks(sb), []);
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
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ review: { keys: { tap: 't', skip: ' ', help: 'h' } } }), 'a.txt': 'a\n', 'b.txt': 'b\n' } });
  sb.write({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
  const [ha, hb] = hunks(sb);
  const s = terminal(t, sb, ['review']);
  const prompt = 'Review this hunk [t,!,a,r,c,x,X,space,q,h]? ';
  await s.waitFor(`(1/2) ${prompt}`);
  s.type('?');
  await s.waitFor(`(1/2) ${prompt}`, 2);
  s.type('h');
  await s.waitFor(`(1/2) ${prompt}`, 3);
  s.type('t');
  await s.waitFor(`(2/2) ${prompt}`);
  s.type(' ');
  const screen = await s.done();
  assert.deepEqual(marks(sb), { [ha.id]: { state: 'tapped', time: '<time>', by: EMAIL, path: 'a.txt', range: 'a.txt:1' } });
  assert.deepEqual(screen, [
    head(ha),
    '@@ -1 +1 @@',
    '-a',
    '+A',
    `(1/2) ${prompt}?`,
    'unknown key "?" (h lists the keys)',
    `(1/2) ${prompt}h`,
    't     - tap: mark this hunk reviewed and OK',
    ...HELP.slice(1, 7),
    'space - skip: leave this hunk as it is and go to the next one',
    HELP[8],
    'h     - help: show this list',
    `(1/2) ${prompt}t`,
    `tapped ${ha.shortId} a.txt:1`,
    head(hb),
    '@@ -1 +1 @@',
    '-b',
    '+B',
    `(2/2) ${prompt}space`,
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
  const dup = sandbox({ files: { '.kizurc.json': JSON.stringify({ review: { keys: { tap: 'x', skip: 'q', quit: 'q' }, other: 1 } }) } });
  const r = dup.kizu(['scan']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [
    2,
    '',
    `git-kizu: error: invalid config in ${path.join(realpathSync(dup.dir), '.kizurc.json')}:\n` +
      '  - unknown key "review.other" (known: review.keys)\n' +
      '  - "review.keys": "x" is bound to more than one action: tap, revert (default)\n' +
      '  - "review.keys": "q" is bound to more than one action: skip, quit\n' +
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
  const [ha, hb, hc] = hunks(sb);
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
  assert.deepEqual(marks(sb), {});
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

test('review: the key splitter turns raw terminal input into keys', async () => {
  const { splitKeys, readLineWith, KeyQueue } = await import(INPUT);
  assert.deepEqual(splitKeys('a X!\x1b[A\x1bOP\x1b\r\n\r\x7f\b\x03\x04\x15\x01é😀'), [
    'a', ' ', 'X', '!', '<other>', '<other>', '<esc>', '<enter>', '<enter>', '<backspace>', '<backspace>', '<ctrl-c>', '<ctrl-d>', '<ctrl-u>', '<other>', 'é', '😀',
  ]);
  const kq = new KeyQueue();
  kq.feed('ab');
  kq.feed('\x7fc\x15xy\r');
  let out = '';
  assert.deepEqual(await readLineWith(() => kq.next(), (s) => (out += s), '> '), { text: 'xy' });
  assert.equal(out, '> ab\b \bc\b \b\b \bxy\n');
  kq.feed('z\x1b');
  assert.equal(await readLineWith(() => kq.next(), () => {}, ''), null);
  kq.end();
  assert.equal(await readLineWith(() => kq.next(), () => {}, ''), 'quit');
  assert.equal(await kq.next(), '<eof>');
});

test('review: a failed action prints the error and shows the hunk at that place again, as it is now', async (t) => {
  const sb = sandbox({ files: { 'bin.dat': Buffer.from([0, 1, 2]), 't.txt': 'a\nb\n' } });
  sb.write({ 'bin.dat': Buffer.from([0, 1, 3]), 't.txt': 'A\nb\n' });
  const [hbin, ht] = hunks(sb);
  const s = terminal(t, sb, ['review']);
  await s.waitFor(`(1/2) ${PROMPT}`);
  s.type('a');
  await s.waitFor(`(1/2) ${PROMPT}`, 2);
  s.type('s');
  await s.waitFor(`(2/2) ${PROMPT}`);
  sb.write({ 't.txt': 'A\nB\n' });
  s.type('x');
  await s.waitFor(`(2/2) ${PROMPT}`, 2);
  const [, ht2] = hunks(sb);
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
