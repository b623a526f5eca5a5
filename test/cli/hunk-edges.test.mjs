// The edges of the hunk listing and of revert, through the real bin in real repos: reverts
// of whole-file hunks whose index entry was changed too (staged deletion, addition, rename,
// intent-to-add, `git rm --cached`) leave no hunk and no index change behind (no loop of
// hunks that come back); a change of the executable bit is a hunk (listed, counted, marked,
// reverted); a submodule's change is a hunk too, which revert refuses without touching it;
// symbolic links are reverted as links (changed target, deleted, added, type changes), never
// written through, and never written below; a failed --queue puts the index entry back exactly;
// a path with a conflict in progress is one hunk of kind conflict, which revert refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

const link = (sb, rel) => (lstatSync(sb.path(rel)).isSymbolicLink() ? `-> ${readlinkSync(sb.path(rel))}` : `file ${sb.read(rel)}`);
/** The line revert prints about a saved symbolic link (no `git cat-file` line: a link is not redirected into). */
const savedLinkLine = (sb, rel) => `saved the previous ${rel} in refs/kizu/reverts; restore it with: git kizu revert --restore ${trashHead(sb).slice(0, 12)}\n`;
/** A sandbox with target.txt, other.txt and the committed link `l -> target.txt` (and `f.txt`). */
function withLink() {
  const sb = sandbox({ files: { 'target.txt': 't\n', 'other.txt': 'o\n', 'f.txt': 'f\n' } });
  symlinkSync('target.txt', sb.path('l'));
  sb.git('add', 'l');
  sb.git('commit', '-q', '-m', 'link');
  return sb;
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
  assert.match(JSON.parse(stop.stdout).reason, /- "run\.sh" \(mode 100644 → 100755\) → a reviewer rejected this change/);
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

test('revert of a symbolic link whose target changed puts the link itself back (never writes through it); revert --restore brings the changed link back', () => {
  const sb = withLink();
  unlinkSync(sb.path('l'));
  symlinkSync('missing/nowhere', sb.path('l')); // dangling: nothing to follow
  const [h] = hunksJson(sb);
  assert.deepEqual([h.path, h.kind, h.range], ['l', 'modified', 'l (symlink)']);
  revertOk(sb, h.shortId, () => `reverted ${h.shortId}  l (symlink)\n` + savedLinkLine(sb, 'l'));
  assert.equal(link(sb, 'l'), '-> target.txt');
  assert.equal(sb.read('target.txt'), 't\n');
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
  const id = trashHead(sb).slice(0, 12);
  assert.equal(sb.kizu(['revert', '--restore', id]).status, 0);
  assert.equal(link(sb, 'l'), '-> missing/nowhere');
  // A link to a file whose target changed to another file: the files keep their bytes.
  unlinkSync(sb.path('l'));
  symlinkSync('other.txt', sb.path('l'));
  const [h2] = hunksJson(sb);
  assert.equal(sb.kizu(['revert', h2.shortId]).status, 0);
  assert.deepEqual([link(sb, 'l'), sb.read('target.txt'), sb.read('other.txt')], ['-> target.txt', 't\n', 'o\n']);
});

test('revert of a deleted symbolic link (rm, git rm, git rm --cached) brings the link back with its index entry: no hunk comes back, git status is clean', () => {
  const sb = withLink();
  for (const how of [['rm'], ['git', 'rm', '-q'], ['git', 'rm', '-q', '--cached']]) {
    if (how[0] === 'rm') unlinkSync(sb.path('l'));
    else sb.git(...how.slice(1), 'l');
    const [h] = hunksJson(sb);
    assert.deepEqual([h.path, h.kind, h.range], ['l', 'deleted', 'l (symlink)'], how.join(' '));
    const staged = how.length > 1 ? 'tracked l again in the index: the staged deletion is undone\n' : '';
    const kept = how.includes('--cached');
    revertOk(sb, h.shortId, () => `reverted ${h.shortId}  l (symlink)\n` + staged + (kept ? '' : absentLine(sb, 'l')));
    assert.equal(link(sb, 'l'), '-> target.txt', how.join(' '));
    assert.deepEqual(hunksJson(sb), [], how.join(' '));
    assert.equal(porcelain(sb), '', how.join(' '));
  }
});

test('a symbolic link replaced by a file (two hunks): reverting the deletion puts the link in place of the file, saved and restorable; reverting the addition removes the file', () => {
  const sb = withLink();
  unlinkSync(sb.path('l'));
  sb.write({ l: 'now a file\n' });
  assert.equal(porcelain(sb), ' T l\n');
  const [d, a] = hunksJson(sb);
  assert.deepEqual([d.kind, d.range, a.kind, a.range], ['deleted', 'l (symlink)', 'added', 'l:1']);
  revertOk(sb, d.shortId, () => `reverted ${d.shortId}  l (symlink)\n` + savedLines(sb, 'l').join('\n') + '\n');
  assert.equal(link(sb, 'l'), '-> target.txt');
  assert.equal(sb.read('target.txt'), 't\n');
  assert.deepEqual(hunksJson(sb), []);
  assert.equal(porcelain(sb), '');
  assert.equal(sb.kizu(['revert', '--restore', trashHead(sb).slice(0, 12)]).status, 0);
  assert.equal(link(sb, 'l'), 'file now a file\n');
  // The addition first: the file goes, then the deletion: the link comes back.
  const [, a2] = hunksJson(sb);
  assert.equal(a2.id, a.id);
  assert.equal(sb.kizu(['revert', a2.shortId]).status, 0);
  assert.equal(existsSync(sb.path('l')), false);
  assert.deepEqual(rows(sb), [['l', 'deleted', 'l (symlink)']]);
  assert.equal(sb.kizu(['revert', 'l']).status, 0);
  assert.equal(link(sb, 'l'), '-> target.txt');
  assert.equal(porcelain(sb), '');
});

test('a file replaced by a symbolic link (two hunks): reverting the deletion puts the file in place of the link (the link target untouched), saved and restorable; reverting the addition removes the link, not its target', () => {
  const sb = withLink();
  unlinkSync(sb.path('f.txt'));
  symlinkSync('target.txt', sb.path('f.txt'));
  const [d, a] = hunksJson(sb);
  assert.deepEqual([d.kind, d.range, a.kind, a.range], ['deleted', 'f.txt (deleted file)', 'added', 'f.txt (symlink)']);
  revertOk(sb, d.shortId, () => `reverted ${d.shortId}  f.txt (deleted file)\n` + savedLinkLine(sb, 'f.txt'));
  assert.deepEqual([link(sb, 'f.txt'), mode(sb, 'f.txt'), sb.read('target.txt')], ['file f\n', 0o644, 't\n']);
  assert.equal(porcelain(sb), '');
  assert.equal(sb.kizu(['revert', '--restore', trashHead(sb).slice(0, 12)]).status, 0);
  assert.equal(link(sb, 'f.txt'), '-> target.txt');
  const [, a2] = hunksJson(sb);
  revertOk(sb, a2.shortId, () => `reverted ${a.shortId}  f.txt (symlink)\n` + savedLinkLine(sb, 'f.txt'));
  assert.deepEqual([existsSync(sb.path('f.txt')), sb.read('target.txt')], [false, 't\n']);
  assert.equal(sb.kizu(['revert', 'f.txt']).status, 0);
  assert.equal(link(sb, 'f.txt'), 'file f\n');
  assert.equal(porcelain(sb), '');
});

test('revert of a staged new symbolic link removes the link (not its target) and its index entry; -m is refused for a link (nothing changed, hint --queue), --queue files the reason without an anchor', () => {
  const sb = withLink();
  symlinkSync('target.txt', sb.path('n'));
  sb.git('add', 'n');
  const [h] = hunksJson(sb);
  assert.deepEqual([h.kind, h.range], ['added', 'n (symlink)']);
  revertOk(sb, h.shortId, () => `reverted ${h.shortId}  n (symlink)\nremoved n from the index: the staged addition is undone\n` + savedLinkLine(sb, 'n'));
  assert.deepEqual([existsSync(sb.path('n')), sb.read('target.txt'), porcelain(sb)], [false, 't\n', '']);
  unlinkSync(sb.path('l'));
  symlinkSync('other.txt', sb.path('l'));
  const [c] = hunksJson(sb);
  expectRun(sb, ['revert', c.shortId, '-m', 'keep the old target'], {
    status: 2,
    stderr: err('reverting l (symlink) leaves a symbolic link at l, which cannot hold a scar; nothing was reverted', `revert and file the reason in the review queue instead: git kizu revert ${c.shortId} -m 'keep the old target' --queue`),
  });
  assert.equal(link(sb, 'l'), '-> other.txt');
  const q = sb.kizu(['revert', c.shortId, '-m', 'keep the old target', '--queue']);
  assert.equal(q.status, 0, q.stderr);
  const [item] = JSON.parse(kizuOk(sb, ['queue', 'list', '--json']));
  assert.deepEqual([item.path, item.line, item.text], [null, null, 'reverted: keep the old target (l: symbolic link)']);
  assert.equal(q.stdout.split('\n')[1], `queued ${item.id}  l  (reject) reverted: keep the old target (l: symbolic link)`);
  assert.equal(link(sb, 'l'), '-> target.txt');
});

test('revert and revert --restore never write through a parent directory replaced by a symbolic link: refused (exit 2), nothing written there or saved', () => {
  const sb = sandbox({ files: { 'd/f.txt': 'f\n', 'keep.txt': 'k\n' } });
  const outside = mkdtempSync(path.join(tmpdir(), 'kizu-outside-'));
  try {
    sb.write({ 'd/f.txt': 'f\nmore\n' });
    assert.equal(sb.kizu(['revert', 'd/f.txt']).status, 0); // saves d/f.txt as edited
    const saved = trashHead(sb);
    rmSync(sb.path('d'), { recursive: true });
    symlinkSync(outside, sb.path('d'));
    assert.deepEqual(rows(sb), [['d', 'untracked', 'd (symlink)'], ['d/f.txt', 'deleted', 'd/f.txt (deleted file)']]);
    const refusal = err('d/f.txt: its parent d is a symbolic link, and git kizu never writes through one; nothing was changed', 'move d aside first (revert its own hunk, or rename it), then run the command again');
    expectRun(sb, ['revert', 'd/f.txt'], { status: 2, stderr: refusal });
    expectRun(sb, ['revert', '--restore', saved.slice(0, 12)], { status: 2, stderr: refusal });
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(trashHead(sb), saved);
    // The link's own hunk first (it is removed, not what it points to), then the file comes back.
    assert.equal(sb.kizu(['revert', 'd']).status, 0);
    assert.equal(sb.kizu(['revert', 'd/f.txt']).status, 0);
    assert.deepEqual([sb.read('d/f.txt'), readdirSync(outside), porcelain(sb)], ['f\n', [], '']);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

/** A sandbox on `main` whose merge of `side` conflicts: f.txt both modified (UU), g.txt deleted by them (UD, the working tree as HEAD has it). */
function inConflict() {
  const sb = sandbox({ files: { 'f.txt': 'a\nb\nc\n', 'g.txt': 'g\n', 'k.txt': 'k\n' } });
  sb.git('branch', '-M', 'main');
  sb.git('checkout', '-q', '-b', 'side');
  sb.write({ 'f.txt': 'a\nB1\nc\n', 'k.txt': 'k\nfrom side\n' });
  sb.git('rm', '-q', 'g.txt');
  sb.git('commit', '-q', '-am', 'side');
  sb.git('checkout', '-q', 'main');
  sb.write({ 'f.txt': 'a\nB2\nc\n', 'g.txt': 'g2\n' });
  sb.git('commit', '-q', '-am', 'main');
  const m = sb.run('git', ['merge', '-q', 'side']);
  assert.equal(m.status, 1, m.stderr);
  assert.equal(porcelain(sb), 'UU f.txt\nUD g.txt\nM  k.txt\n');
  return sb;
}

const conflictRefusal = (range, hint) => err(`${range} is unmerged in the index; git kizu does not resolve conflicts, nothing was changed`, hint);

test('a merge conflict: each unmerged path is one hunk of kind conflict (also where the working tree equals HEAD), counted; revert refuses (exit 2) naming git\'s ways out, and changes neither the file nor the index', () => {
  const sb = inConflict();
  const conflicted = sb.read('f.txt');
  const unmerged = sb.git('ls-files', '-u');
  const [f, g, k] = hunksJson(sb);
  assert.deepEqual([f, g, k].map((h) => [h.path, h.kind, h.range, h.added, h.removed]), [
    ['f.txt', 'conflict', 'f.txt (conflict: both modified)', 0, 0],
    ['g.txt', 'conflict', 'g.txt (conflict: deleted by them)', 0, 0],
    ['k.txt', 'modified', 'k.txt:2', 1, 0],
  ]);
  expectRun(sb, ['hunks'], { status: 0, stdout: `${f.shortId}  f.txt (conflict: both modified)  +0 -0  conflict\n${g.shortId}  g.txt (conflict: deleted by them)  +0 -0  conflict\n${k.shortId}  k.txt:2  +1 -0  modified\n` });
  assert.match(kizuOk(sb, ['status']), /^hunks {5}3: 3 unreviewed, 0 tapped, 0 rejected$/m);
  expectRun(sb, ['revert', f.shortId], {
    status: 2,
    stderr: conflictRefusal('f.txt (conflict: both modified)', 'resolve it: edit f.txt, then git add -- f.txt (or git rm -- f.txt to delete it)\nor take one side: git checkout --ours -- f.txt, or git checkout --theirs -- f.txt, then git add -- f.txt\nor give up the whole merge: git merge --abort'),
  });
  expectRun(sb, ['revert', 'g.txt', '-m', 'no', '--queue'], {
    status: 2,
    stderr: conflictRefusal('g.txt (conflict: deleted by them)', 'resolve it: edit g.txt, then git add -- g.txt (or git rm -- g.txt to delete it)\nor take one side: git checkout --ours -- g.txt, then git add -- g.txt\nor give up the whole merge: git merge --abort'),
  });
  assert.deepEqual([sb.read('f.txt'), sb.read('g.txt'), sb.git('ls-files', '-u'), trashHead(sb)], [conflicted, 'g2\n', unmerged, '']);
  assert.equal(kizuOk(sb, ['queue', 'list', '--json']), '[]\n');
  // Resolved (git add): the path's ordinary hunks come back; the other stays a conflict.
  sb.write({ 'f.txt': 'a\nB\nc\n' });
  sb.git('add', 'f.txt');
  assert.deepEqual(rows(sb), [['f.txt', 'modified', 'f.txt:2'], ['g.txt', 'conflict', 'g.txt (conflict: deleted by them)'], ['k.txt', 'modified', 'k.txt:2']]);
  sb.git('merge', '--abort');
  assert.deepEqual(hunksJson(sb), []);
});

test('a conflict of a rebase, a cherry-pick or git stash pop: the hint gives up that operation (a rebase notes that --ours is the branch rebased onto; stash pop has nothing to abort)', () => {
  const sb = sandbox({ files: { 'f.txt': 'a\n' } });
  sb.git('branch', '-M', 'main');
  sb.git('checkout', '-q', '-b', 'side');
  sb.write({ 'f.txt': 'side\n' });
  sb.git('commit', '-q', '-am', 'side');
  sb.git('checkout', '-q', 'main');
  sb.write({ 'f.txt': 'main\n' });
  sb.git('commit', '-q', '-am', 'main');
  const refusal = (extra, op) =>
    conflictRefusal('f.txt (conflict: both modified)', `resolve it: edit f.txt, then git add -- f.txt (or git rm -- f.txt to delete it)\nor take one side: git checkout --ours -- f.txt, or git checkout --theirs -- f.txt${extra}, then git add -- f.txt` + (op ? `\nor give up the whole ${op}: git ${op} --abort` : ''));
  assert.equal(sb.run('git', ['cherry-pick', 'side']).status, 1);
  expectRun(sb, ['revert', 'f.txt'], { status: 2, stderr: refusal('', 'cherry-pick') });
  sb.git('cherry-pick', '--abort');
  assert.equal(sb.run('git', ['rebase', '-q', 'side']).status, 1);
  expectRun(sb, ['revert', 'f.txt'], { status: 2, stderr: refusal(' (in a rebase, --ours is the branch rebased onto)', 'rebase') });
  sb.git('rebase', '--abort');
  sb.write({ 'f.txt': 'stashed\n' });
  sb.git('stash', '-q');
  sb.write({ 'f.txt': 'other\n' });
  sb.git('commit', '-q', '-am', 'other');
  assert.equal(sb.run('git', ['stash', 'pop', '-q']).status, 1);
  expectRun(sb, ['revert', 'f.txt'], { status: 2, stderr: refusal('', null) });
  assert.equal(porcelain(sb), 'UU f.txt\n');
});

test('stop hook: a rejected conflict hunk tells the agent to resolve the conflict, not to compare with the baseline', () => {
  const sb = inConflict();
  const [f] = hunksJson(sb);
  expectRun(sb, ['reject', f.shortId], { status: 0, stdout: `rejected ${f.shortId} f.txt (conflict: both modified)\n` });
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual([r.status, r.stderr], [0, '']);
  assert.equal(
    JSON.parse(r.stdout).reason,
    'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
      '- "f.txt" (conflict: both modified) → a reviewer rejected this change without giving a reason: compare it with the baseline ' +
      '("f.txt" has an unresolved conflict: `git status` and `git diff -- f.txt` show both sides; resolve it and `git add f.txt`), work out what is wrong, and rework or revert it',
  );
});
