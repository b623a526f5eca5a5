// The edges of the hunk listing and of revert, through the real bin in real repos: reverts
// of whole-file hunks whose index entry was changed too (staged deletion, addition, rename,
// intent-to-add, `git rm --cached`) leave no hunk and no index change behind (no loop of
// hunks that come back); a change of the executable bit is a hunk (listed, counted, marked,
// reverted); a submodule's change is a hunk too, which revert refuses without touching it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { hunksJson, savedLines } from '../helpers/hunks.mjs';
import { trashHead } from '../helpers/refs.mjs';
import { stopPayload } from '../helpers/hooks.mjs';

const mode = (sb, rel) => statSync(sb.path(rel)).mode & 0o777;
const porcelain = (sb) => sb.git('status', '--porcelain');
const rows = (sb) => hunksJson(sb).map((h) => [h.path, h.kind, h.range]);

/** Reverts `spec` and asserts exit 0, empty stderr and the exact stdout (a function: called after the run); returns stdout. */
function revertOk(sb, spec, want) {
  const r = sb.kizu(['revert', spec]);
  const stdout = typeof want === 'function' ? want() : want;
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout, stderr: '' }, `git kizu revert ${spec}`);
  return r.stdout;
}

const absentLine = (sb, rel) => `${rel} did not exist before the revert; git kizu revert --restore ${trashHead(sb).slice(0, 12)} removes it again\n`;

test('revert of a staged deletion (git rm) restores the file and its index entry: no hunk comes back, git status is clean', () => {
  const sb = sandbox({ files: { 'f.txt': 'one\ntwo\n', 'keep.txt': 'k\n' } });
  sb.git('rm', '-q', 'f.txt');
  const [h] = hunksJson(sb);
  assert.deepEqual([h.path, h.kind, h.range], ['f.txt', 'deleted', 'f.txt (deleted file)']);
  revertOk(sb, h.shortId, () => `reverted ${h.shortId}  f.txt (deleted file)\ntracked f.txt again in the index: the staged deletion is undone\n` + absentLine(sb, 'f.txt'));
  assert.equal(sb.read('f.txt'), 'one\ntwo\n');
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
});

test('revert of a staged addition (git add) removes the file and its index entry; a staged version that differs is saved and restorable', () => {
  const sb = sandbox({ files: { 'keep.txt': 'k\n' } });
  sb.write({ 'new.txt': 'n\n' });
  sb.git('add', 'new.txt');
  const [h] = hunksJson(sb);
  assert.deepEqual([h.kind, h.range], ['added', 'new.txt:1']);
  const r0 = sb.kizu(['revert', h.shortId]);
  assert.deepEqual(
    { status: r0.status, stdout: r0.stdout, stderr: r0.stderr },
    { status: 0, stdout: `reverted ${h.shortId}  new.txt:1\nremoved new.txt from the index: the staged addition is undone\n` + savedLines(sb, 'new.txt').join('\n') + '\n', stderr: '' },
  );
  assert.equal(existsSync(sb.path('new.txt')), false);
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
  // Staged, then edited: the staged version goes from the index, saved first.
  sb.write({ 'st.txt': 'staged\n' });
  sb.git('add', 'st.txt');
  sb.write({ 'st.txt': 'edited\n' });
  const [s] = hunksJson(sb);
  const r = sb.kizu(['revert', s.shortId]);
  assert.equal(r.status, 0, r.stderr);
  const log = sb.git('log', '--format=%h', '-2', '--abbrev=12', 'refs/kizu/reverts').split('\n');
  assert.equal(
    r.stdout,
    `reverted ${s.shortId}  st.txt:1\nremoved st.txt from the index: the staged addition is undone\n` +
      `saved the staged st.txt (it differed from the working-tree file) in refs/kizu/reverts; restore it to the working tree with: git kizu revert --restore ${log[1]}\n` +
      savedLines(sb, 'st.txt').join('\n') +
      '\n',
  );
  assert.equal(porcelain(sb), '');
  assert.equal(sb.kizu(['revert', '--restore', log[1]]).status, 0);
  assert.equal(sb.read('st.txt'), 'staged\n');
});

test('revert of both sides of a staged rename (git mv) leaves nothing: the old path is tracked again, the new one leaves the index', () => {
  const sb = sandbox({ files: { 'old.txt': 'o\n' } });
  sb.git('mv', 'old.txt', 'new.txt');
  const [a, d] = hunksJson(sb);
  assert.deepEqual([a.range, a.kind, d.range, d.kind], ['new.txt:1', 'added', 'old.txt (deleted file)', 'deleted']);
  assert.equal(sb.kizu(['revert', d.shortId]).status, 0);
  assert.deepEqual(rows(sb), [['new.txt', 'added', 'new.txt:1']]);
  assert.equal(sb.kizu(['revert', a.shortId]).status, 0);
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
  assert.equal(sb.read('old.txt'), 'o\n');
});

test('revert of an intent-to-add file (git add -N) removes the file and the intent-to-add entry', () => {
  const sb = sandbox({ files: { 'keep.txt': 'k\n' } });
  sb.write({ 'ita.txt': 'i\n' });
  sb.git('add', '-N', 'ita.txt');
  const [h] = hunksJson(sb);
  assert.equal(h.kind, 'added');
  assert.equal(sb.kizu(['revert', h.shortId]).status, 0);
  assert.equal(existsSync(sb.path('ita.txt')), false);
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
});

test('git rm --cached: reverting the deleted-file hunk tracks the file again and keeps its bytes (nothing saved, nothing lost)', () => {
  const sb = sandbox({ files: { 'f.txt': 'base\n' } });
  sb.git('rm', '-q', '--cached', 'f.txt');
  sb.write({ 'f.txt': 'base\nmore\n' });
  const [d, u] = hunksJson(sb);
  assert.deepEqual([d.kind, u.kind], ['deleted', 'untracked']);
  revertOk(sb, d.shortId, `reverted ${d.shortId}  f.txt (deleted file)\ntracked f.txt again in the index: the staged deletion is undone\n`);
  assert.equal(sb.read('f.txt'), 'base\nmore\n');
  assert.deepEqual(rows(sb), [['f.txt', 'modified', 'f.txt:2']]);
  assert.equal(porcelain(sb), ' M f.txt\n');
});

test('a mode-only change is a hunk: listed, counted by status, tapped, reverted to the exact bits; its id stays with the content hunks', () => {
  const sb = sandbox({ files: { 'f.txt': 'a\nb\n', 'g.txt': 'g\n' } });
  chmodSync(sb.path('f.txt'), 0o755);
  const [m] = hunksJson(sb);
  assert.deepEqual(
    { ...m, id: undefined, shortId: undefined },
    { id: undefined, shortId: undefined, path: 'f.txt', kind: 'mode', range: 'f.txt (mode 100644 → 100755)', oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, added: 0, removed: 0, mark: 'unreviewed' },
  );
  expectRun(sb, ['hunks'], { status: 0, stdout: `${m.shortId}  f.txt (mode 100644 → 100755)  +0 -0  mode\n` });
  assert.match(kizuOk(sb, ['status']), /^hunks {5}1: 1 unreviewed, 0 tapped, 0 rejected$/m);
  // A content change too: two hunks, the mode first; the mode hunk keeps its id.
  sb.write({ 'f.txt': 'a\nB\n' });
  const [m2, c] = hunksJson(sb);
  assert.deepEqual([m2.id, m2.kind, c.kind, c.range], [m.id, 'mode', 'modified', 'f.txt:2']);
  // path:line names a content hunk only; the bare path names both.
  expectRun(sb, ['tap', 'f.txt'], { status: 1, stderr: err('"f.txt" matches 2 hunks', `name one by a longer id or by path:line:\n  ${m.shortId}  f.txt (mode 100644 → 100755)\n  ${c.shortId}  f.txt:2`) });
  assert.equal(sb.kizu(['tap', m.shortId]).status, 0);
  assert.deepEqual(hunksJson(sb).map((h) => h.mark), ['tapped', 'unreviewed']);
  // Revert: the bits go back exactly (0755 -> 0644 here, 0750 -> 0640 below), the bytes stay.
  const r = sb.kizu(['revert', m.shortId]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0], `reverted ${m.shortId}  f.txt (mode 100644 → 100755)`);
  assert.equal(mode(sb, 'f.txt'), 0o644);
  assert.equal(sb.read('f.txt'), 'a\nB\n');
  assert.deepEqual(hunksJson(sb).map((h) => h.id), [c.id]);
  sb.git('checkout', '--', 'f.txt');
  chmodSync(sb.path('g.txt'), 0o640); // still 100644 for git
  assert.deepEqual(hunksJson(sb), []);
  chmodSync(sb.path('g.txt'), 0o750);
  const [gm] = hunksJson(sb);
  assert.equal(sb.kizu(['revert', gm.shortId]).status, 0);
  assert.equal(mode(sb, 'g.txt'), 0o640);
  chmodSync(sb.path('g.txt'), 0o750);
  sb.git('commit', '-q', '-am', '750');
  chmodSync(sb.path('g.txt'), 0o640);
  const [gx] = hunksJson(sb);
  assert.equal(gx.range, 'g.txt (mode 100755 → 100644)');
  assert.equal(sb.kizu(['revert', gx.shortId]).status, 0);
  assert.equal(mode(sb, 'g.txt'), 0o750);
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
});

test('a mode hunk: revert -m puts its scar at line 1, refused above a #! line (nothing changed, hint --queue); --queue anchors at line 1; a rejected mode hunk blocks the Stop hook', () => {
  const sb = sandbox({ files: { 'f.py': 'x = 1\n', 'run.sh': '#!/bin/sh\necho hi\n' } });
  chmodSync(sb.path('f.py'), 0o755);
  chmodSync(sb.path('run.sh'), 0o755);
  const [fm, rm] = hunksJson(sb);
  const r = sb.kizu(['revert', fm.shortId, '-m', 'not a script']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n').slice(0, 2).join('\n'), `reverted ${fm.shortId}  f.py (mode 100644 → 100755)\nscarred f.py:1  # @kizu[reject]: reverted: not a script`);
  assert.equal(sb.read('f.py'), '# @kizu[reject]: reverted: not a script\nx = 1\n');
  assert.equal(mode(sb, 'f.py'), 0o644);
  const refused = sb.kizu(['revert', rm.shortId, '-m', 'keep it plain']);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /^git-kizu: error: cannot write the scar, so nothing was reverted: .*#! interpreter line/);
  assert.match(refused.stderr, /--queue\n$/);
  assert.equal(mode(sb, 'run.sh'), 0o755);
  // Rejected: the Stop hook names it.
  assert.equal(sb.kizu(['reject', rm.shortId]).status, 0);
  const stop = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(stop.status, 0, stop.stderr);
  assert.match(JSON.parse(stop.stdout).reason, /- run\.sh \(mode 100644 → 100755\) → a reviewer rejected this change/);
  const q = sb.kizu(['revert', rm.shortId, '-m', 'keep it plain', '--queue']);
  assert.equal(q.status, 0, q.stderr);
  assert.match(q.stdout, /^queued \S+ {2}run\.sh:1 {2}\(reject\) reverted: keep it plain$/m);
  assert.equal(mode(sb, 'run.sh'), 0o644);
});

/** A sandbox whose repository has a submodule `sm` (from a second repository `sub`). */
function withSubmodule() {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const sub = sandbox({ files: { 's.txt': 's\n' } });
  sb.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'sm');
  sb.git('commit', '-q', '-m', 'submodule');
  const first = sb.git('-C', 'sm', 'rev-parse', 'HEAD').trim();
  return { sb, first };
}

test('a submodule with untracked or modified content, or new commits, is one hunk: listed, counted, tapped; revert refuses (exit 2) and changes nothing', () => {
  const { sb, first } = withSubmodule();
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${sb.git('rev-parse', 'HEAD').trim()}\n` });
  sb.write({ 'sm/u.txt': 'untracked inside\n' });
  assert.equal(sb.git('status', '--short'), ' ? sm\n');
  const [h] = hunksJson(sb);
  assert.deepEqual([h.path, h.kind, h.range, h.added, h.removed], ['sm', 'submodule', 'sm (submodule: modified content)', 0, 0]);
  expectRun(sb, ['hunks'], { status: 0, stdout: `${h.shortId}  sm (submodule: modified content)  +0 -0  submodule\n` });
  assert.match(kizuOk(sb, ['status']), /^hunks {5}1: 1 unreviewed, 0 tapped, 0 rejected$/m);
  expectRun(sb, ['revert', 'sm'], {
    status: 2,
    stderr: err(
      'sm (submodule: modified content) is a submodule, its own repository: git kizu does not revert it; nothing was changed',
      'its working tree has changes of its own: look at them with git -C sm status, and commit or stash them there (git kizu never discards work inside a submodule)',
    ),
  });
  assert.equal(sb.read('sm/u.txt'), 'untracked inside\n');
  assert.equal(sb.kizu(['tap', 'sm']).status, 0);
  assert.deepEqual(hunksJson(sb).map((x) => x.mark), ['tapped']);
  // New commits inside it, and a modified tracked file: a new id, both named.
  sb.git('-C', 'sm', 'add', 'u.txt');
  sb.git('-C', 'sm', 'commit', '-q', '-m', 'u');
  const second = sb.git('-C', 'sm', 'rev-parse', 'HEAD').trim();
  sb.write({ 'sm/s.txt': 'changed\n' });
  const [h2] = hunksJson(sb);
  assert.notEqual(h2.id, h.id);
  assert.equal(h2.range, `sm (submodule: new commits ${first.slice(0, 7)}..${second.slice(0, 7)}, modified content)`);
  expectRun(sb, ['revert', h2.shortId], {
    status: 2,
    stderr: err(
      `sm (submodule: new commits ${first.slice(0, 7)}..${second.slice(0, 7)}, modified content) is a submodule, its own repository: git kizu does not revert it; nothing was changed`,
      'its working tree has changes of its own: look at them with git -C sm status, and commit or stash them there (git kizu never discards work inside a submodule)\n' +
        `to go back to the recorded commit once its work is saved: git -C sm checkout ${first.slice(0, 12)}`,
    ),
  });
  assert.equal(sb.git('-C', 'sm', 'rev-parse', 'HEAD').trim(), second);
  assert.equal(sb.read('sm/s.txt'), 'changed\n');
});

test('an untracked nested repository is one hunk (git status shows it as ?? dir/): listed, counted; revert refuses (exit 2) and removes nothing', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.git('init', '-q', 'nested');
  sb.write({ 'nested/work.txt': 'w\n' });
  assert.equal(porcelain(sb), '?? nested/\n');
  const [h] = hunksJson(sb);
  assert.deepEqual([h.path, h.kind, h.range], ['nested', 'submodule', 'nested (untracked nested repository)']);
  assert.match(kizuOk(sb, ['status']), /^hunks {5}1: 1 unreviewed, 0 tapped, 0 rejected$/m);
  expectRun(sb, ['revert', 'nested'], {
    status: 2,
    stderr: err('nested is an untracked nested repository: git kizu does not remove a repository; nothing was changed', 'move it out of the working tree by hand, ignore it (.gitignore), or make it a submodule (git submodule add)'),
  });
  assert.equal(sb.read('nested/work.txt'), 'w\n');
});

test('revert --queue whose queue filing fails puts the index entry back exactly: an intent-to-add entry stays intent-to-add, a staged version keeps its bytes', () => {
  const sb = sandbox({ files: { 'keep.txt': 'k\n' } });
  sb.write({ 'ita.txt': 'i\n', 'st.txt': 'staged\n', '.claude': 'not a directory\n' }); // the queue file cannot be read
  sb.git('add', '-N', 'ita.txt');
  sb.git('add', 'st.txt');
  sb.write({ 'st.txt': 'edited\n' });
  const v2 = () => sb.git('status', '--porcelain=v2', '--untracked-files=no');
  const before = v2();
  assert.match(before, /^1 \.A N\.\.\. 000000 000000 100644 0{40} 0{40} ita\.txt$/m);
  const staged = sb.git('rev-parse', ':st.txt');
  for (const rel of ['ita.txt', 'st.txt']) {
    expectRun(sb, ['revert', rel, '-m', 'no', '--queue'], { status: 2, stderr: err('.claude/review-queue.md cannot be read (ENOTDIR)', 'make .claude/review-queue.md a readable regular file, or move it aside') });
    assert.equal(v2(), before, rel);
  }
  assert.equal(sb.read('ita.txt'), 'i\n');
  assert.equal(sb.read('st.txt'), 'edited\n');
  assert.equal(sb.git('rev-parse', ':st.txt'), staged);
});
