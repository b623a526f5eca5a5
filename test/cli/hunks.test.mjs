// `git kizu hunks` and `git kizu baseline` through the real bin in real temp repos: exact
// stdout/stderr/exit codes, exact JSON, and hunk ids recomputed here from the documented
// identity formula (so the formula itself is under test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { unlinkSync, chmodSync } from 'node:fs';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { err, expectRun } from '../helpers/expect.mjs';
import { countedLines, text } from '../helpers/files.mjs';
import { hunksJson } from '../helpers/hunks.mjs';

const OPTS =
  '--no-ext-diff --no-textconv --no-color --no-renames --no-relative --ignore-submodules --full-index --src-prefix=a/ --dst-prefix=b/ --diff-algorithm=myers --indent-heuristic --inter-hunk-context=0 -U3';

const sha1 = (s) => createHash('sha1').update(s).digest('hex');

/** The documented id: sha1(sha1(version, options, path, lines) + NUL + occurrence). */
function hunkId(path, lines, { n = 0, binary = null, mode = null } = {}) {
  let s = `kizu-hunk/1\0${OPTS}\0${path}\0`;
  if (mode) s += `mode\0${mode[0]}\0${mode[1]}\0`;
  if (binary) s += `binary\0${binary[0]}\0${binary[1]}\0`;
  for (const l of lines) s += l + '\n';
  return sha1(sha1(s) + '\0' + n);
}

const lines15 = countedLines(15);

test('hunks: modified, added, deleted, untracked and binary files, text and exact --json', () => {
  const sb = sandbox({ files: { 'a.txt': text(lines15), 'del.sh': 'keep\n', 'img.bin': Buffer.from('x\0y') } });
  const mod = lines15.slice();
  mod[1] = 'L2';
  mod[12] = 'L13';
  sb.write({ 'a.txt': text(mod), 'new.txt': 'n1\nn2\n', 'sub/u.md': 'u1\nu2', 'img.bin': Buffer.from('x\0z') });
  sb.git('add', 'new.txt');
  unlinkSync(sb.path('del.sh'));
  const h1 = [' l1', '-l2', '+L2', ' l3', ' l4', ' l5'];
  const h2 = [' l10', ' l11', ' l12', '-l13', '+L13', ' l14', ' l15'];
  const oldBin = sb.git('rev-parse', 'HEAD:img.bin').trim();
  const newBin = sb.git('hash-object', 'img.bin').trim();
  const ids = {
    h1: hunkId('a.txt', h1),
    h2: hunkId('a.txt', h2),
    del: hunkId('del.sh', ['-keep']),
    bin: hunkId('img.bin', [], { binary: [oldBin, newBin] }),
    add: hunkId('new.txt', ['+n1', '+n2']),
    u: hunkId('sub/u.md', ['+u1', '+u2', '\\ No newline at end of file']),
  };
  const row = (id, path, kind, range, o, n, added, removed) => ({
    id,
    shortId: id.slice(0, 8),
    path,
    kind,
    range,
    oldStart: o[0],
    oldCount: o[1],
    newStart: n[0],
    newCount: n[1],
    added,
    removed,
    mark: 'unreviewed',
  });
  assert.deepEqual(hunksJson(sb), [
    row(ids.h1, 'a.txt', 'modified', 'a.txt:2', [1, 5], [1, 5], 1, 1),
    row(ids.h2, 'a.txt', 'modified', 'a.txt:13', [10, 6], [10, 6], 1, 1),
    row(ids.del, 'del.sh', 'deleted', 'del.sh (deleted file)', [1, 1], [0, 0], 0, 1),
    row(ids.bin, 'img.bin', 'modified', 'img.bin (binary)', [0, 0], [0, 0], 0, 0),
    row(ids.add, 'new.txt', 'added', 'new.txt:1-2', [0, 0], [1, 2], 2, 0),
    row(ids.u, 'sub/u.md', 'untracked', 'sub/u.md:1-2', [0, 0], [1, 2], 2, 0),
  ]);
  const s = (id) => id.slice(0, 8);
  expectRun(sb, ['hunks'], {
    status: 0,
    stdout:
      `${s(ids.h1)}  a.txt:2  +1 -1  modified\n` +
      `${s(ids.h2)}  a.txt:13  +1 -1  modified\n` +
      `${s(ids.del)}  del.sh (deleted file)  +0 -1  deleted\n` +
      `${s(ids.bin)}  img.bin (binary)  +0 -0  modified\n` +
      `${s(ids.add)}  new.txt:1-2  +2 -0  added\n` +
      `${s(ids.u)}  sub/u.md:1-2  +2 -0  untracked\n`,
  });
  // Path limits: relative to the current directory; the repo root means everything.
  expectRun(sb, ['hunks', 'u.md'], { status: 0, stdout: `${s(ids.u)}  sub/u.md:1-2  +2 -0  untracked\n`, cwd: sb.path('sub') });
  expectRun(sb, ['hunks', 'new.txt', 'del.sh'], { status: 0, stdout: `${s(ids.del)}  del.sh (deleted file)  +0 -1  deleted\n${s(ids.add)}  new.txt:1-2  +2 -0  added\n` });
  assert.equal(hunksJson(sb, ['.']).length, 6);
  expectRun(sb, ['hunks', '../x'], { status: 2, stderr: err(`../x: path is outside the repository ${sb.git('rev-parse', '--show-toplevel').trim()}`, 'name paths inside the working tree') });
});

test('hunk ids are pinned: known ids for fixed input; lines decode like each raw line on its own (invalid UTF-8 too)', () => {
  const sb = sandbox({ files: { 'a.txt': 'l1\nl2\nl3\nl4\nl5\nl6\n', 'bad.txt': Buffer.from('ok\n\xe2\x82\nx\n', 'latin1') } });
  sb.write({ 'a.txt': 'l1\nL2\nl3\nl4\nl5\nl6\n', 'sub/u.md': 'u1\nu2' });
  // Bytes that are not valid UTF-8 at line ends and inside lines, CRLF, no final newline.
  const bad = Buffer.concat([Buffer.from('ok\n'), Buffer.from([0xe2, 0x82, 0x0a, 0xc3, 0x0d, 0x0a, 0xf0, 0x9f, 0x98, 0x0a, 0x80, 0x41, 0x0a, 0xed, 0xa0, 0x80, 0x0a]), Buffer.from('x\n'), Buffer.from([0xff])]);
  sb.write({ 'bad.txt': bad, 'ubad.txt': bad });
  const ids = hunksJson(sb).map((h) => [h.path, h.id]);
  assert.deepEqual(ids.slice(0, 1), [['a.txt', '815c9e8617abc323b8e0e2d85149ba0636265dd5']]);
  assert.deepEqual(ids.slice(2), [['sub/u.md', 'a384380ae8a0d238d93a68f418243ce5026cd535'], ['ubad.txt', ids[3][1]]]);
  const code = `const H = await import(${JSON.stringify(src('hunks/listing.ts'))});
const { hunks } = await H.listHunks(process.cwd());
process.stdout.write(JSON.stringify(hunks.map((h) => {
  const raw = H.hunkDetail(h).raw;
  return [h.id, JSON.stringify(h.lines) === JSON.stringify(raw.map((r) => r.toString('utf8'))), Buffer.concat(raw.flatMap((r) => [r, Buffer.from('\\n')])).toString('base64')];
})));`;
  const r = sb.runModule(code);
  assert.equal(r.stderr, '');
  const got = JSON.parse(r.stdout);
  assert.deepEqual(got.map((g) => g[1]), [true, true, true, true]);
  // The bad files' ids follow the documented formula over their raw bytes.
  const OPTSB = Buffer.from(`kizu-hunk/1\0${OPTS}\0`);
  const idOf = (p, body) => sha1(createHash('sha1').update(Buffer.concat([OPTSB, Buffer.from(`${p}\0`), body])).digest('hex') + '\0' + 0);
  assert.equal(got[1][0], idOf('bad.txt', Buffer.from(got[1][2], 'base64')));
  assert.equal(got[3][0], idOf('ubad.txt', Buffer.from(got[3][2], 'base64')));
  const plus = Buffer.concat([...bad.toString('latin1').split('\n').map((l) => Buffer.from(`+${l}\n`, 'latin1')), Buffer.from('\\ No newline at end of file\n')]);
  assert.equal(Buffer.from(got[3][2], 'base64').toString('latin1'), plus.toString('latin1'));
});

test('hunks: no changes; pure deletions, an emptied file, CRLF and no final newline', () => {
  const sb = sandbox({ files: { 'a.txt': text(lines15), 'e.txt': 'x\ny\n', 'w.txt': 'a\r\nb\r\nc\r\n', 'n.txt': 'a\nb' } });
  const head = sb.git('rev-parse', 'HEAD').trim();
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${head}\n` });
  assert.deepEqual(hunksJson(sb), []);
  const del = lines15.filter((l) => l !== 'l7' && l !== 'l8');
  sb.write({ 'a.txt': text(del), 'e.txt': '', 'w.txt': 'a\r\nB\r\nc\r\n', 'n.txt': 'a\nb\nc\n' });
  const got = hunksJson(sb);
  assert.deepEqual(
    got.map((h) => [h.id, h.range, h.oldStart, h.oldCount, h.newStart, h.newCount, h.added, h.removed]),
    [
      [hunkId('a.txt', [' l4', ' l5', ' l6', '-l7', '-l8', ' l9', ' l10', ' l11']), 'a.txt:7 (deleted lines)', 4, 8, 4, 6, 0, 2],
      [hunkId('e.txt', ['-x', '-y']), 'e.txt:1 (deleted lines)', 1, 2, 0, 0, 0, 2],
      [hunkId('n.txt', [' a', '-b', '\\ No newline at end of file', '+b', '+c']), 'n.txt:2-3', 1, 2, 1, 3, 2, 1],
      [hunkId('w.txt', [' a\r', '-b\r', '+B\r', ' c\r']), 'w.txt:2', 1, 3, 1, 3, 1, 1],
    ],
  );
});

test('hunk ids: stable across edits above and below, new after an edit inside or in its context lines', () => {
  const lines30 = Array.from({ length: 30 }, (_, k) => `l${k + 1}`);
  const sb = sandbox({ files: { 'a.txt': text(lines30) } });
  const mod = lines30.slice();
  mod[14] = 'L15';
  sb.write({ 'a.txt': text(mod) });
  const [h] = hunksJson(sb);
  const want = hunkId('a.txt', [' l12', ' l13', ' l14', '-l15', '+L15', ' l16', ' l17', ' l18']);
  assert.equal(h.id, want);
  assert.equal(h.range, 'a.txt:15');
  // Insert two lines at the top and change the last line: the hunk moves, its id stays.
  sb.write({ 'a.txt': text(['top1', 'top2', ...mod.slice(0, 29), 'L30']) });
  const after = hunksJson(sb);
  assert.equal(after.length, 3);
  assert.equal(after[1].id, want);
  assert.equal(after[1].range, 'a.txt:17');
  assert.equal(after[1].newStart, 14);
  // An edit in a context line (l13 -> l13!) makes a new id.
  const ctx = mod.slice();
  ctx[12] = 'l13!';
  sb.write({ 'a.txt': text(ctx) });
  const [c] = hunksJson(sb);
  assert.equal(c.id, hunkId('a.txt', [' l10', ' l11', ' l12', '-l13', '+l13!', ' l14', '-l15', '+L15', ' l16', ' l17', ' l18']));
  assert.notEqual(c.id, want);
  // An edit of the changed line itself makes a new id; changing it back restores the old id.
  const inner = mod.slice();
  inner[14] = 'L15 again';
  sb.write({ 'a.txt': text(inner) });
  assert.notEqual(hunksJson(sb)[0].id, want);
  sb.write({ 'a.txt': text(mod) });
  assert.equal(hunksJson(sb)[0].id, want);
});

test('hunk ids: identical hunks in one file differ by occurrence; the same change in two files differs by path', () => {
  const base = ['a', 'b', 'c', 'd', 'x', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'a', 'b', 'c', 'd', 'x', 'e', 'f', 'g', 'h'];
  const sb = sandbox({ files: { 'r.txt': text(base), 's.txt': text(base) } });
  const mod = base.map((l) => (l === 'x' ? 'X' : l));
  sb.write({ 'r.txt': text(mod), 's.txt': text(mod) });
  const lines = [' b', ' c', ' d', '-x', '+X', ' e', ' f', ' g'];
  assert.deepEqual(
    hunksJson(sb).map((h) => [h.path, h.id, h.range]),
    [
      ['r.txt', hunkId('r.txt', lines, { n: 0 }), 'r.txt:5'],
      ['r.txt', hunkId('r.txt', lines, { n: 1 }), 'r.txt:17'],
      ['s.txt', hunkId('s.txt', lines, { n: 0 }), 's.txt:5'],
      ['s.txt', hunkId('s.txt', lines, { n: 1 }), 's.txt:17'],
    ],
  );
});

test('hunks: empty added and untracked files, a mode-only change is a hunk of kind mode, untracked ignored files are not listed', () => {
  const sb = sandbox({ files: { 'run.sh': 'echo\n', '.gitignore': 'build/\n' } });
  chmodSync(sb.path('run.sh'), 0o755);
  sb.write({ 'empty.txt': '', 'build/out.txt': 'x\n' });
  const got = hunksJson(sb);
  assert.deepEqual(
    got.map((h) => [h.path, h.kind, h.range, h.id, h.newStart, h.newCount]),
    [
      ['empty.txt', 'untracked', 'empty.txt (empty file)', hunkId('empty.txt', []), 0, 0],
      ['run.sh', 'mode', 'run.sh (mode 100644 → 100755)', hunkId('run.sh', [], { mode: ['100644', '100755'] }), 0, 0],
    ],
  );
  sb.git('add', 'empty.txt');
  const [a] = hunksJson(sb);
  assert.deepEqual([a.kind, a.range, a.id], ['added', 'empty.txt (empty file)', hunkId('empty.txt', [])]);
});

test('baseline: show, set to a revision, reset; hunks follow it', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n' } });
  const first = sb.git('rev-parse', 'HEAD').trim();
  sb.write({ 'b.txt': 'two\n' });
  sb.git('add', 'b.txt');
  sb.git('commit', '-q', '-m', 'second');
  const second = sb.git('rev-parse', 'HEAD').trim();
  expectRun(sb, ['baseline'], { status: 0, stdout: `baseline: HEAD ${second}\n` });
  expectRun(sb, ['baseline', 'show'], { status: 0, stdout: `baseline: HEAD ${second}\n` });
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${second}\n` });
  sb.git('tag', '-a', '-m', 'annotated', 'v1', first);
  expectRun(sb, ['baseline', 'set', 'v1'], { status: 0, stdout: `baseline set: refs/kizu/baseline ${first}\n` });
  assert.equal(sb.git('rev-parse', 'refs/kizu/baseline').trim(), first, 'the tag is peeled to its commit');
  expectRun(sb, ['baseline'], { status: 0, stdout: `baseline: refs/kizu/baseline ${first}\n` });
  const id = hunkId('b.txt', ['+two']);
  expectRun(sb, ['hunks'], { status: 0, stdout: `${id.slice(0, 8)}  b.txt:1  +1 -0  added\n` });
  expectRun(sb, ['baseline', 'set'], { status: 0, stdout: `baseline set: refs/kizu/baseline ${second}\n` });
  expectRun(sb, ['baseline', 'reset'], { status: 0, stdout: 'baseline reset: using HEAD\n' });
  assert.equal(sb.git('rev-parse', '--verify', '-q', 'refs/kizu/baseline', { allowFail: true }), '');
  expectRun(sb, ['baseline', 'reset'], { status: 0, stdout: 'no baseline was set: using HEAD\n' });
  expectRun(sb, ['baseline'], { status: 0, stdout: `baseline: HEAD ${second}\n` });
});

test('hunks: HEAD read from the ref files (loose, packed, detached, linked worktree) or from git (GIT_DIR) gives the same list', () => {
  const sb = sandbox({ files: { 'a.txt': text(lines15) } });
  sb.git('commit', '-q', '--allow-empty', '-m', 'second');
  const mod = lines15.slice();
  mod[6] = 'L7';
  sb.write({ 'a.txt': text(mod), 'u.txt': 'u\n' });
  const expected = hunksJson(sb);
  assert.deepEqual(expected.map((h) => h.path), ['a.txt', 'u.txt']);
  const head = sb.git('rev-parse', 'HEAD').trim();
  sb.git('pack-refs', '--all');
  assert.deepEqual(hunksJson(sb), expected);
  sb.git('checkout', '-q', '--detach');
  assert.deepEqual(hunksJson(sb), expected);
  expectRun(sb, ['hunks', 'nothing-here.txt'], { status: 2, stderr: err('no such path in the working tree or the baseline: nothing-here.txt', 'paths are relative to the current directory') });
  // git finds the repository through the environment: the same hunks.
  const env = { GIT_DIR: sb.path('.git'), GIT_WORK_TREE: sb.dir };
  const r = sb.kizu(['hunks', '--json'], { cwd: sb.base, env });
  assert.equal(r.stderr, '');
  assert.deepEqual(JSON.parse(r.stdout), expected);
  // A linked worktree on the same commit with the same edit.
  const wt = `${sb.base}/wt`;
  sb.git('worktree', 'add', '-q', '-b', 'side', wt, head);
  sb.run('cp', [sb.path('a.txt'), sb.path('u.txt'), wt]);
  const w = sb.kizu(['hunks', '--json'], { cwd: wt });
  assert.equal(w.stderr, '');
  assert.deepEqual(JSON.parse(w.stdout), expected);
  // HEAD naming an object that does not exist: explained as before, exit 2.
  sb.git('checkout', '-q', 'main');
  sb.git('update-ref', '-d', 'refs/heads/main');
  const refFile = sb.path('.git/refs/heads/main');
  sb.run('sh', ['-c', `printf '%s\\n' 0123456789012345678901234567890123456789 > '${refFile}'`]);
  const msg = 'HEAD has no commit yet (unborn branch), so there is no baseline to compare the working tree with';
  const hint = 'make a first commit (git commit --allow-empty -m init), or set a baseline with git kizu baseline set <rev>';
  expectRun(sb, ['hunks'], { status: 2, stderr: err(msg, hint) });
});

test('baseline set: a revision that is not a commit is refused (exit 2) and nothing is written', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n' } });
  const head = sb.git('rev-parse', 'HEAD').trim();
  const blob = sb.git('rev-parse', 'HEAD:a.txt').trim();
  const hint = 'name a commit, e.g. git kizu baseline set HEAD~1 (git log --oneline lists them)';
  expectRun(sb, ['baseline', 'set', blob], { status: 2, stderr: err(`"${blob}" does not name a commit`, hint) });
  expectRun(sb, ['baseline', 'set', 'no-such-branch'], { status: 2, stderr: err('"no-such-branch" does not name a commit', hint) });
  expectRun(sb, ['baseline', 'set', '--', '--all'], { status: 2, stderr: err('"--all" does not name a commit', hint) });
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), '');
  expectRun(sb, ['baseline', 'set', 'HEAD'], { status: 0, stdout: `baseline set: refs/kizu/baseline ${head}\n` });
  // A failed set keeps the previous baseline.
  expectRun(sb, ['baseline', 'set', blob], { status: 2, stderr: err(`"${blob}" does not name a commit`, hint) });
  assert.equal(sb.git('rev-parse', 'refs/kizu/baseline').trim(), head);
});

test('baseline: an unborn HEAD (no commit yet) is explained, exit 2', () => {
  const sb = sandbox({ commit: false, files: { 'a.txt': 'x\n' } });
  const hint = 'make a first commit (git commit --allow-empty -m init), or set a baseline with git kizu baseline set <rev>';
  const msg = 'HEAD has no commit yet (unborn branch), so there is no baseline to compare the working tree with';
  expectRun(sb, ['hunks'], { status: 2, stderr: err(msg, hint) });
  expectRun(sb, ['baseline'], { status: 2, stderr: err(msg, hint) });
  expectRun(sb, ['baseline', 'set'], { status: 2, stderr: err('"HEAD" does not name a commit', 'make a first commit, or name a commit: git kizu baseline set <rev>') });
});

test('hunks: config that changes git diff output (prefixes, context, algorithm, colour, relative, quoting) changes no id', () => {
  const sb = sandbox({ files: { 'sub/f': 'a\n\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n' } });
  sb.write({ 'sub/f': 'a\n\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\n' });
  const clean = hunksJson(sb);
  assert.deepEqual(
    clean.map((h) => [h.id, h.range]),
    [
      [hunkId('sub/f', [' a', ' ', '-b', '+B', ' c', ' d', ' e']), 'sub/f:3'],
      [hunkId('sub/f', [' h', ' i', ' j', '-k', '+K']), 'sub/f:12'],
    ],
  );
  for (const [k, v] of Object.entries({
    'diff.noprefix': 'true',
    'diff.mnemonicPrefix': 'true',
    'diff.suppressBlankEmpty': 'true',
    'diff.algorithm': 'patience',
    'diff.context': '10',
    'diff.interHunkContext': '20',
    'diff.relative': 'true',
    'diff.renames': 'copies',
    'color.ui': 'always',
    'color.diff': 'always',
    'core.quotePath': 'true',
  })) {
    sb.git('config', k, v);
  }
  const r = sb.kizu(['hunks', '--json'], { cwd: sb.path('sub') });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), clean);
});

test('hunks with a path that names nothing: exit 2; a deleted file is still a valid path', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n', 'gone.js': 'g\n' } });
  const r = sb.kizu(['hunks', 'nothere']);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'git-kizu: error: no such path in the working tree or the baseline: nothere\nhint: paths are relative to the current directory\n');
  sb.run('rm', ['gone.js']);
  const d = sb.kizu(['hunks', '--json', 'gone.js']);
  assert.equal(d.status, 0, d.stderr);
  assert.deepEqual(JSON.parse(d.stdout).map((h) => [h.range, h.kind]), [['gone.js (deleted file)', 'deleted']]);
});
