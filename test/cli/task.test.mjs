// `git kizu task start|list|land` through the real bin in real temp repos: exact
// stdout/stderr/exit codes, exact refs and commit ids, and the repository left byte-for-byte
// as it was when a command refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { rev } from '../helpers/refs.mjs';
import { commit, record, rootOf, sibling, state, sym } from '../helpers/tasks.mjs';

const NAME_HINT =
  "task names follow git's branch-name rules (git check-ref-format(1)): e.g. fix-login or feat/search; no spaces, '..', '~', '^', ':', '?', '*', '[', '\\', no leading '-' or '.', no '.lock' ending";

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const recordMsg = (name, from = 'refs/heads/main') => `kizu task: ${name}\n\nkizu-task: ${JSON.stringify(name)}\nkizu-from: ${from}\nkizu-created: <t>\n`;

test('task start --worktree: branch at HEAD, default sibling worktree, base recorded; explicit path; list exact', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const head = rev(sb, 'HEAD');
  const wt = sibling(sb, 'fix/login');
  expectRun(sb, ['task', 'start', 'fix/login', '--worktree'], {
    status: 0,
    stdout: `started task fix/login: branch kizu/fix/login at ${head.slice(0, 12)} (HEAD)\nworktree: ${wt}\nland it in main with: git kizu task land fix/login\n`,
  });
  assert.equal(rev(sb, 'refs/heads/kizu/fix/login'), head);
  assert.equal(sym(sb), 'refs/heads/main', 'the current worktree stays on main');
  assert.equal(sym(sb, wt), 'refs/heads/kizu/fix/login');
  assert.equal(readFileSync(path.join(wt, 'a.txt'), 'utf8'), 'a\n');
  assert.deepEqual(record(sb, 'fix/login'), { tree: EMPTY_TREE, parents: [head], message: recordMsg('fix/login') });
  assert.equal(rev(sb, 'refs/kizu/tasks/fix/login^1'), head);

  // An explicit path, relative to the current directory.
  mkdirSync(sb.path('sub'));
  const other = path.join(rootOf(sb), 'sub', 'wt-two');
  expectRun(sb, ['task', 'start', 'two', '--worktree', 'wt-two'], {
    cwd: sb.path('sub'),
    status: 0,
    stdout: `started task two: branch kizu/two at ${head.slice(0, 12)} (HEAD)\nworktree: ${other}\nland it in main with: git kizu task land two\n`,
  });
  assert.equal(sym(sb, other), 'refs/heads/kizu/two');

  // List: commits ahead of the base, dirty or clean, worktree path.
  const c1 = commit(sb, wt, 'one', { 'b.txt': 'b\n' });
  commit(sb, wt, 'two', { 'c.txt': 'c\n' });
  writeFileSync(path.join(other, 'new.txt'), 'untracked\n');
  expectRun(sb, ['task', 'list'], {
    status: 0,
    stdout:
      `fix/login  kizu/fix/login  base ${head.slice(0, 12)}  +2  clean  ${wt}\n` +
      `two  kizu/two  base ${head.slice(0, 12)}  +0  dirty  ${other}\n`,
  });
  const tip = rev(sb, 'refs/heads/kizu/fix/login');
  assert.equal(rev(sb, `${tip}^`), c1);
  const r = kizuOk(sb, ['task', 'list', '--json']);
  assert.deepEqual(JSON.parse(r), [
    { name: 'fix/login', branch: 'kizu/fix/login', tip, base: head, from: 'main', worktree: wt, ahead: 2, dirty: false },
    { name: 'two', branch: 'kizu/two', tip: head, base: head, from: 'main', worktree: other, ahead: 0, dirty: true },
  ]);

  // Starting a task that exists is refused, changing nothing.
  const before = state(sb);
  expectRun(sb, ['task', 'start', 'two'], {
    status: 1,
    stderr: err('task "two" already exists (branch kizu/two)', 'pick another name, land it (git kizu task land two) or discard it (git kizu rollback branch two); git kizu task list shows them'),
  });
  // A worktree path that exists (not an empty directory) is refused before git creates anything.
  expectRun(sb, ['task', 'start', 'three', '--worktree', 'a.txt'], {
    status: 1,
    stderr: err(`cannot create the worktree of task "three": ${path.join(rootOf(sb), 'a.txt')} already exists`, 'give another path: git kizu task start three --worktree <path>'),
  });
  assert.deepEqual(state(sb), before);
});

test('task start without --worktree: switches like git switch -c (changes carried); from the baseline; refuses when changes would be lost', () => {
  const sb = sandbox({ files: { 'a.txt': 'a1\n', 'keep.txt': 'k\n' } });
  const first = rev(sb, 'HEAD');
  const second = commit(sb, sb.dir, 'a2', { 'a.txt': 'a2\n' });
  writeFileSync(sb.path('keep.txt'), 'k-edited\n');
  writeFileSync(sb.path('u.txt'), 'u\n');
  expectRun(sb, ['task', 'start', 'plain'], {
    status: 0,
    stdout: `started task plain: branch kizu/plain at ${second.slice(0, 12)} (HEAD)\nswitched to kizu/plain\nland it in main with: git kizu task land plain\n`,
  });
  assert.equal(sym(sb), 'refs/heads/kizu/plain');
  assert.equal(rev(sb, 'HEAD'), second);
  assert.equal(sb.read('keep.txt'), 'k-edited\n');
  assert.equal(sb.read('u.txt'), 'u\n');
  assert.deepEqual(record(sb, 'plain'), { tree: EMPTY_TREE, parents: [second], message: recordMsg('plain') });
  expectRun(sb, ['task', 'list'], { status: 0, stdout: `plain  kizu/plain  base ${second.slice(0, 12)}  +0  dirty  ${rootOf(sb)}\n` });

  // Back on main, clean; baseline at the first commit: the task starts there.
  sb.git('checkout', '-q', '--', 'keep.txt');
  unlinkSync(sb.path('u.txt'));
  sb.git('switch', '-q', 'main');
  kizuOk(sb, ['baseline', 'set', first]);
  expectRun(sb, ['task', 'start', 'old'], {
    status: 0,
    stdout: `started task old: branch kizu/old at ${first.slice(0, 12)} (refs/kizu/baseline)\nswitched to kizu/old\nland it in main with: git kizu task land old\n`,
  });
  assert.equal(rev(sb, 'HEAD'), first);
  assert.equal(sb.read('a.txt'), 'a1\n');
  assert.equal(rev(sb, 'refs/kizu/tasks/old^1'), first);

  // Switching to the baseline would overwrite a local change: git refuses, nothing is created.
  sb.git('switch', '-q', 'main');
  writeFileSync(sb.path('a.txt'), 'local\n');
  const before = state(sb);
  expectRun(sb, ['task', 'start', 'lossy'], {
    status: 1,
    stderr: err(
      'could not switch to the new branch kizu/lossy: Your local changes to the following files would be overwritten by checkout:\n\ta.txt\nPlease commit your changes or stash them before you switch branches.\nAborting',
      'commit or stash your changes first (git stash -u), or start the task in its own worktree: git kizu task start lossy --worktree',
    ),
  });
  assert.deepEqual(state(sb), before);
  assert.equal(rev(sb, 'refs/heads/kizu/lossy'), '');
  assert.equal(rev(sb, 'refs/kizu/tasks/lossy'), '');
});

test('bad task names are refused by every command, changing nothing', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const before = state(sb);
  for (const [name, why] of [
    ['a..b', 'git check-ref-format refuses refs/heads/kizu/a..b'],
    ['has space', 'git check-ref-format refuses refs/heads/kizu/has space'],
    ['x.lock', 'git check-ref-format refuses refs/heads/kizu/x.lock'],
    ['a/.b', 'git check-ref-format refuses refs/heads/kizu/a/.b'],
    ['trail/', 'git check-ref-format refuses refs/heads/kizu/trail/'],
    ['we~ird', 'git check-ref-format refuses refs/heads/kizu/we~ird'],
    ['-x', "it starts with '-'"],
  ]) {
    const e = err(`invalid task name "${name}": ${why}`, NAME_HINT);
    expectRun(sb, ['task', 'start', '--', name], { status: 2, stderr: e });
    expectRun(sb, ['task', 'start', '--worktree', '--', name], { status: 2, stderr: e });
    expectRun(sb, ['task', 'land', '--', name], { status: 2, stderr: e });
    expectRun(sb, ['rollback', 'branch', '--yes', '--', name], { status: 2, stderr: e });
  }
  expectRun(sb, ['task', 'land', 'nope'], {
    status: 1,
    stderr: err('no task named "nope" (no branch kizu/nope, no refs/kizu/tasks/nope)', 'start one with git kizu task start <name>'),
  });
  expectRun(sb, ['rollback', 'branch', 'nope', '--yes'], {
    status: 1,
    stderr: err('no task named "nope" (no branch kizu/nope, no refs/kizu/tasks/nope)', 'start one with git kizu task start <name>'),
  });
  expectRun(sb, ['task', 'list'], { status: 0, stdout: 'no tasks (start one with git kizu task start <name>)\n' });
  assert.deepEqual(state(sb), before);
  assert.equal(existsSync(sibling(sb, '-x')), false);
});

test('task start refuses a name whose branch or record path clashes with an existing ref (a beside a/b), with or without --worktree, changing nothing', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 'a/b', '--worktree']);
  const hint = "pick a name that is not a folder of another task's name nor inside one (git kizu task list shows the tasks; git branch --list shows the branches)";
  const clash = (name, have, want) => err(`task "${name}" cannot be created: ${have} exists, and git cannot have ${want} beside it (refs are paths)`, hint);
  let before = state(sb);
  for (const extra of [[], ['--worktree']]) {
    expectRun(sb, ['task', 'start', 'a', ...extra], { status: 1, stderr: clash('a', 'refs/heads/kizu/a/b', 'refs/heads/kizu/a') });
  }
  assert.deepEqual(state(sb), before);
  assert.equal(existsSync(sibling(sb, 'a')), false);
  // Only the record is left of a task whose worktree and branch were removed by hand.
  sb.git('worktree', 'remove', '--force', sibling(sb, 'a/b'));
  sb.git('branch', '-D', 'kizu/a/b');
  before = state(sb);
  expectRun(sb, ['task', 'start', 'a'], { status: 1, stderr: clash('a', 'refs/kizu/tasks/a/b', 'refs/kizu/tasks/a') });
  assert.deepEqual(state(sb), before);
  // A branch named kizu keeps every task branch from being created.
  sb.git('update-ref', '-d', 'refs/kizu/tasks/a/b');
  sb.git('branch', 'kizu');
  before = state(sb);
  expectRun(sb, ['task', 'start', 'c', '--worktree'], { status: 1, stderr: clash('c', 'refs/heads/kizu', 'refs/heads/kizu/c') });
  assert.deepEqual(state(sb), before);
  assert.equal(existsSync(sibling(sb, 'c')), false);
});

test('task land: fast-forward, then a merge commit, then --remove', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
  const base = rev(sb, 'HEAD');
  kizuOk(sb, ['task', 'start', 'ff', '--worktree']);
  const wt = sibling(sb, 'ff');
  const c1 = commit(sb, wt, 'ff work', { 'a.txt': 'a ff\n' });
  expectRun(sb, ['task', 'land', 'ff'], { status: 0, stdout: `landed task ff in main: fast-forward to ${c1.slice(0, 12)}\n` });
  assert.equal(rev(sb, 'refs/heads/main'), c1);
  assert.equal(rev(sb, 'HEAD'), c1);
  assert.equal(sb.read('a.txt'), 'a ff\n');
  assert.equal(sb.git('status', '--porcelain'), '');
  // The base moves to the landed tip: nothing ahead any more; the task and worktree stay.
  assert.equal(rev(sb, 'refs/kizu/tasks/ff^1'), c1);
  expectRun(sb, ['task', 'list'], { status: 0, stdout: `ff  kizu/ff  base ${c1.slice(0, 12)}  +0  clean  ${wt}\n` });
  expectRun(sb, ['task', 'land', 'ff'], { status: 0, stdout: `nothing to land: main already has kizu/ff (${c1.slice(0, 12)})\n` });

  // main moves on; the task commits again: a merge commit.
  const m1 = commit(sb, sb.dir, 'main work', { 'b.txt': 'b main\n' });
  const c2 = commit(sb, wt, 'ff more', { 'c.txt': 'c\n' });
  const r = kizuOk(sb, ['task', 'land', 'ff']);
  const merge = rev(sb, 'HEAD');
  assert.equal(r, `landed task ff in main: merge commit ${merge.slice(0, 12)}\n`);
  assert.equal(sb.git('rev-list', '--parents', '-n', '1', merge).trim(), `${merge} ${m1} ${c2}`);
  assert.equal(sb.git('log', '-1', '--format=%s', merge).trim(), "Merge branch 'kizu/ff'");
  assert.deepEqual([sb.read('a.txt'), sb.read('b.txt'), sb.read('c.txt')], ['a ff\n', 'b main\n', 'c\n']);
  assert.equal(rev(sb, 'refs/kizu/tasks/ff^1'), c2);

  // --remove: worktree, branch and record go (everything is merged).
  commit(sb, wt, 'last', { 'd.txt': 'd\n' });
  const c3 = rev(sb, 'refs/heads/kizu/ff');
  const r2 = kizuOk(sb, ['task', 'land', 'ff', '--remove']);
  const merge2 = rev(sb, 'HEAD');
  assert.equal(r2, `landed task ff in main: merge commit ${merge2.slice(0, 12)}\nremoved worktree ${wt}\ndeleted branch kizu/ff and refs/kizu/tasks/ff\n`);
  assert.equal(sb.git('rev-list', '--parents', '-n', '1', merge2).trim(), `${merge2} ${merge} ${c3}`);
  assert.equal(existsSync(wt), false);
  assert.equal(rev(sb, 'refs/heads/kizu/ff'), '');
  assert.equal(rev(sb, 'refs/kizu/tasks/ff'), '');
  assert.equal(sb.git('worktree', 'list', '--porcelain'), `worktree ${rootOf(sb)}\nHEAD ${merge2}\nbranch refs/heads/main\n\n`);
  assert.equal(sb.git('rev-list', '--count', `${base}..HEAD`).trim(), '6');
});

test('task land: a task without a worktree lands from its own branch (switches to main first)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 'here']);
  const c1 = commit(sb, sb.dir, 'here work', { 'a.txt': 'a here\n' });
  expectRun(sb, ['task', 'land', 'here'], { status: 0, stdout: `switched to main\nlanded task here in main: fast-forward to ${c1.slice(0, 12)}\n` });
  assert.equal(sym(sb), 'refs/heads/main');
  assert.equal(rev(sb, 'HEAD'), c1);
});

test('task land refuses on conflicts and leaves HEAD, index, working tree and refs exactly as they were', () => {
  const sb = sandbox({ files: { 'a.txt': 'line\n', 'b.txt': 'b\n' } });
  kizuOk(sb, ['task', 'start', 'clash', '--worktree']);
  kizuOk(sb, ['task', 'start', 'local']);
  const wt = sibling(sb, 'clash');
  commit(sb, wt, 'task side', { 'a.txt': 'task\n', 't.txt': 't\n' });
  commit(sb, sb.dir, 'local side', { 'a.txt': 'local\n' });
  sb.git('switch', '-q', 'main');
  commit(sb, sb.dir, 'main side', { 'a.txt': 'main\n' });
  // An untracked file in the main worktree is untouched too.
  writeFileSync(sb.path('loose.txt'), 'loose\n');
  const before = state(sb);
  const wtBefore = state(sb, wt);
  expectRun(sb, ['task', 'land', 'clash'], {
    status: 1,
    stderr: err(
      'task "clash" does not merge cleanly into main: conflicts in a.txt; nothing was changed (git merge --abort)',
      `merge main into the task and resolve there: git -C ${wt} merge main; then land again`,
    ),
  });
  assert.deepEqual(state(sb), before);
  assert.deepEqual(state(sb, wt), wtBefore);
  assert.equal(existsSync(path.join(rootOf(sb), '.git', 'MERGE_HEAD')), false);

  // The same for a task without a worktree: it switches to main, fails, and switches back.
  unlinkSync(sb.path('loose.txt'));
  sb.git('switch', '-q', 'kizu/local');
  const before2 = state(sb);
  expectRun(sb, ['task', 'land', 'local'], {
    status: 1,
    stderr: err(
      'task "local" does not merge cleanly into main: conflicts in a.txt; nothing was changed (git merge --abort)',
      `merge main into the task and resolve there: git -C ${rootOf(sb)} merge main; then land again`,
    ),
  });
  assert.deepEqual(state(sb), before2);

  // Other refusals: uncommitted tracked changes here, a dirty task worktree, the wrong branch here.
  sb.git('switch', '-q', 'main');
  writeFileSync(sb.path('b.txt'), 'edited\n');
  expectRun(sb, ['task', 'land', 'clash'], {
    status: 1,
    stderr: err(`${rootOf(sb)} has uncommitted changes; landing would mix them with the merge`, 'commit or stash them first (git stash), then land again'),
  });
  sb.git('checkout', '-q', '--', 'b.txt');
  writeFileSync(path.join(wt, 'wip.txt'), 'wip\n');
  expectRun(sb, ['task', 'land', 'clash'], {
    status: 1,
    stderr: err(
      `task "clash" has uncommitted changes in ${wt} (1 file); they would not be landed`,
      `commit them there (git -C ${wt} add -A && git -C ${wt} commit), or remove them; then land again`,
    ),
  });
  unlinkSync(path.join(wt, 'wip.txt'));
  expectRun(sb, ['task', 'land', 'clash'], {
    cwd: wt,
    status: 1,
    stderr: err(`task "clash" lands in main, which is not checked out in this worktree (${wt})`, `run it where main is checked out: cd ${rootOf(sb)} && git kizu task land clash`),
  });
});
