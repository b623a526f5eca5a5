// A task worktree holding a repository of its own (an untracked or ignored nested repository,
// with or without a commit, an initialised submodule, a submodule's git directory under
// .git/worktrees/<name>/modules) would lose its history with the worktree: no copy in
// refs/kizu/trash can hold it. `git kizu rollback branch` and `git kizu task land --remove`
// refuse (exit 1) before anything changes, --dry-run and --json included, naming each one;
// no safety snapshot is left behind. In the main worktree, where a switch leaves nested
// repositories alone, `rollback branch` works and leaves them out of its copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { rev } from '../helpers/refs.mjs';
import { commit, sibling, state } from '../helpers/tasks.mjs';

const REPO = 'a git repository of its own (its commits and files would be deleted with the worktree)';
const SUBMODULE = 'an initialised submodule (its git directory, commits and files would be deleted with the worktree)';
const MODULE = 'the git directory of a submodule of this worktree (its commits would be deleted with the worktree)';
const LOOSE = 'a submodule path holding files git does not list (they would be deleted with the worktree)';

/** `git init` at `dir` (made if missing) with files `files` committed, when given (null: no commit). */
function nestedRepo(sb, dir, files) {
  mkdirSync(dir, { recursive: true });
  sb.git('init', '-q', dir);
  if (files) commit(sb, dir, 'nested work', files);
}

const refusal = (what, wt, items, again, alt) =>
  err(
    `not ${what}: its worktree ${wt} holds ${items.length === 1 ? 'a repository' : `${items.length} repositories`} that no copy can keep: ${items.map(([p, r]) => `${p}: ${r}`).join('; ')}`,
    `move ${items.length === 1 ? 'it' : 'them'} out of ${wt}, or push ${items.length === 1 ? 'its' : 'their'} work elsewhere and delete ${items.length === 1 ? 'it' : 'them'}, then run ${again} again${alt ? `; or ${alt}` : ''}`,
  );

/** Everything that must not change: both worktrees' state and every ref (no safety snapshot, no trash). */
const everything = (sb, wt) => ({ main: state(sb), wt: state(sb, wt), refs: sb.git('for-each-ref') });

test('rollback branch refuses a task worktree holding nested repositories (committed and edited, ignored, without a commit): exit 1, --dry-run and --json too, nothing written, no safety snapshot', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': 'vendor/\n' } });
  kizuOk(sb, ['task', 'start', 'tn', '--worktree']);
  const wt = sibling(sb, 'tn');
  nestedRepo(sb, path.join(wt, 'vendor/lib'), { 'w.txt': 'work\n' });
  writeFileSync(path.join(wt, 'vendor/lib/w.txt'), 'work\nmore\n');
  writeFileSync(path.join(wt, 'vendor/lib/u.txt'), 'u\n');
  nestedRepo(sb, path.join(wt, 'lib2'), { 'x.txt': 'x\n' });
  nestedRepo(sb, path.join(wt, 'deep/fresh'), null);
  writeFileSync(path.join(wt, 'deep/note.txt'), 'n\n');
  const before = everything(sb, wt);
  const stderr = refusal('discarding task "tn"', wt, [['deep/fresh/', REPO], ['lib2/', REPO], ['vendor/lib/', REPO]], 'git kizu rollback branch tn');
  expectRun(sb, ['rollback', 'branch', 'tn', '--dry-run'], { status: 1, stderr });
  expectRun(sb, ['rollback', 'branch', 'tn', '--yes'], { status: 1, stderr });
  const tip = rev(sb, 'kizu/tn');
  expectRun(sb, ['rollback', 'branch', 'tn', '--yes', '--json'], {
    status: 1,
    stderr,
    stdout:
      JSON.stringify(
        {
          dryRun: false,
          applied: false,
          task: 'tn',
          branch: 'kizu/tn',
          tip,
          commits: 0,
          mode: 'linked',
          worktree: wt,
          switchTo: null,
          files: ['deep/fresh/', 'deep/note.txt', 'lib2/'],
          savedIgnored: [],
          ignored: ['vendor/lib/'],
          budget: 52428800,
          nested: [
            { path: 'deep/fresh/', reason: REPO },
            { path: 'lib2/', reason: REPO },
            { path: 'vendor/lib/', reason: REPO },
          ],
          trashRef: null,
          copy: null,
          safetySnapshot: null,
          recorded: false,
        },
        null,
        2,
      ) + '\n',
  });
  assert.deepEqual(everything(sb, wt), before);
  assert.equal(readFileSync(path.join(wt, 'vendor/lib/w.txt'), 'utf8'), 'work\nmore\n');
  // Moved out, the task goes and undo brings it back.
  sb.run('mv', [path.join(wt, 'vendor/lib'), path.join(sb.base, 'lib')]);
  sb.run('mv', [path.join(wt, 'lib2'), path.join(sb.base, 'lib2')]);
  sb.run('rm', ['-rf', path.join(wt, 'deep/fresh')]);
  const r = sb.kizu(['rollback', 'branch', 'tn', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  kizuOk(sb, ['undo', '--yes']);
  assert.equal(readFileSync(path.join(wt, 'deep/note.txt'), 'utf8'), 'n\n');
});

/** A repository with submodule `sm` (from a repository beside it) and task `ts` in its own worktree, `sm` initialised there. */
function submoduleTask({ init = true } = {}) {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const src = path.join(sb.base, 'sub');
  nestedRepo(sb, src, { 's.txt': 's\n' });
  sb.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', src, 'sm');
  sb.git('commit', '-q', '-m', 'add sm');
  kizuOk(sb, ['task', 'start', 'ts', '--worktree']);
  const wt = sibling(sb, 'ts');
  if (init) sb.git('-c', 'protocol.file.allow=always', 'submodule', 'update', '--init', '-q', { cwd: wt });
  return { sb, wt };
}

test('rollback branch refuses a task worktree with an initialised submodule (its git directory lives under .git/worktrees/<name>/modules), after deinit too, and files in an uninitialised one', () => {
  const { sb, wt } = submoduleTask();
  commit(sb, path.join(wt, 'sm'), 'sub work', { 's.txt': 's\ntwo\n' });
  writeFileSync(path.join(wt, 'sm/s.txt'), 's\ntwo\nedit\n');
  const before = everything(sb, wt);
  const again = 'git kizu rollback branch ts';
  expectRun(sb, ['rollback', 'branch', 'ts', '--dry-run'], { status: 1, stderr: refusal('discarding task "ts"', wt, [['sm/', SUBMODULE]], again) });
  expectRun(sb, ['rollback', 'branch', 'ts', '--yes'], { status: 1, stderr: refusal('discarding task "ts"', wt, [['sm/', SUBMODULE]], again) });
  assert.deepEqual(everything(sb, wt), before);
  // Deinitialised, its git directory (with the new commit) is still there to lose.
  sb.git('submodule', 'deinit', '-q', '-f', 'sm', { cwd: wt });
  const modules = path.join(realpathSync(sb.dir), '.git/worktrees/repo-ts/modules/sm');
  expectRun(sb, ['rollback', 'branch', 'ts', '--yes'], { status: 1, stderr: refusal('discarding task "ts"', wt, [[modules, MODULE]], again) });
  writeFileSync(path.join(wt, 'sm/loose.txt'), 'l\n');
  expectRun(sb, ['rollback', 'branch', 'ts', '--yes'], { status: 1, stderr: refusal('discarding task "ts"', wt, [[modules, MODULE], ['sm/', LOOSE]], again) });
  assert.equal(sb.git('for-each-ref', 'refs/kizu/snapshots/', 'refs/kizu/trash/'), '');
});

test('task land --remove refuses an ignored nested repository and an initialised submodule before merging (not "over the budget"), --dry-run too', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': 'vendor/\n' } });
  kizuOk(sb, ['task', 'start', 'tl', '--worktree']);
  const wt = sibling(sb, 'tl');
  commit(sb, wt, 'work', { 'b.txt': 'b\n' });
  nestedRepo(sb, path.join(wt, 'vendor/lib'), { 'w.txt': 'work\n' });
  writeFileSync(path.join(wt, 'vendor/lib/w.txt'), 'edited\n');
  const before = everything(sb, wt);
  const stderr = refusal('landing task "tl" with --remove', wt, [['vendor/lib/', REPO]], 'git kizu task land tl --remove', 'land it and keep the worktree: git kizu task land tl');
  expectRun(sb, ['task', 'land', 'tl', '--remove', '--dry-run'], { status: 1, stderr });
  expectRun(sb, ['task', 'land', 'tl', '--remove', '--yes'], { status: 1, stderr });
  assert.deepEqual(everything(sb, wt), before);

  // A clean submodule at the committed commit: git worktree remove would refuse after the merge.
  const s = submoduleTask();
  commit(s.sb, s.wt, 'work', { 'b.txt': 'b\n' });
  const sBefore = everything(s.sb, s.wt);
  expectRun(s.sb, ['task', 'land', 'ts', '--remove'], {
    status: 1,
    stderr: refusal('landing task "ts" with --remove', s.wt, [['sm/', SUBMODULE]], 'git kizu task land ts --remove', 'land it and keep the worktree: git kizu task land ts'),
  });
  assert.deepEqual(everything(s.sb, s.wt), sBefore);
});

test('rollback branch of a task checked out in the main worktree with nested repositories (one without a commit): the switch leaves them, the copy leaves them out, no git error', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 'tm']);
  writeFileSync(sb.path('new.txt'), 'new\n');
  nestedRepo(sb, sb.path('empty'), null);
  nestedRepo(sb, sb.path('full'), { 'f.txt': 'f\n' });
  const r = sb.kizu(['rollback', 'branch', 'tm', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, 'git-kizu: warning: safety snapshot left out empty: untracked nested git repository\ngit-kizu: warning: safety snapshot left out full: untracked nested git repository\n');
  assert.match(r.stdout, /^saved task tm in refs\/kizu\/trash\/tm\/\S+: 0 commits not on the base, 1 changed or untracked file in /m);
  const ref = sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/trash/tm/').trim();
  assert.equal(sb.git('ls-tree', '-r', '--name-only', ref), 'a.txt\nnew.txt\n');
  assert.equal(sb.git('status', '--porcelain', '-uall'), '?? empty/\n?? full/\n?? new.txt\n');
  assert.equal(readFileSync(sb.path('full/f.txt'), 'utf8'), 'f\n');
  assert.equal(sb.git('log', '--format=%s', { cwd: sb.path('full') }), 'nested work\n');
  kizuOk(sb, ['undo', '--yes']);
  assert.equal(sb.git('symbolic-ref', 'HEAD').trim(), 'refs/heads/kizu/tm');
});

test('a submodule not initialised in the task worktree (an empty directory) refuses nothing: rollback branch and undo, then task land --remove', () => {
  const { sb, wt } = submoduleTask({ init: false });
  const tip = commit(sb, wt, 'work', { 'b.txt': 'b\n' });
  assert.equal(sb.git('for-each-ref', 'refs/kizu/trash/'), '');
  const r = sb.kizu(['rollback', 'branch', 'ts', '--yes']);
  // The warning is the safety snapshot's, of the main worktree (where `submodule add` initialised sm).
  assert.deepEqual(
    [r.status, r.stderr],
    [0, 'git-kizu: warning: safety snapshot left out sm: submodule: its working tree is its own repository and is not captured, only the commit checked out in it; commit or stash inside it\n'],
  );
  kizuOk(sb, ['undo', '--yes']);
  expectRun(sb, ['task', 'land', 'ts', '--remove'], {
    status: 0,
    stdout: `landed task ts in main: fast-forward to ${tip.slice(0, 12)}\nremoved worktree ${wt}\ndeleted branch kizu/ts and refs/kizu/tasks/ts\n`,
  });
});

test('a repository made over tracked files (git init in a tracked directory) is refused too: its .git would go with the worktree', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'lib/x.txt': 'x\n' } });
  kizuOk(sb, ['task', 'start', 'tr', '--worktree']);
  const wt = sibling(sb, 'tr');
  nestedRepo(sb, path.join(wt, 'lib'), { 'y.txt': 'y\n' });
  const before = everything(sb, wt);
  expectRun(sb, ['rollback', 'branch', 'tr', '--yes'], { status: 1, stderr: refusal('discarding task "tr"', wt, [['lib/', REPO]], 'git kizu rollback branch tr') });
  assert.deepEqual(everything(sb, wt), before);
});
