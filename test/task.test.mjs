// `git kizu task start|list|land` and `git kizu rollback branch` through the real bin in real
// temp repos: exact stdout/stderr/exit codes, exact refs and commit ids, the repository left
// byte-for-byte as it was when a command refuses, and discarded tasks (commits not on the
// base, changed, staged and untracked files) brought back exactly by `git kizu undo` and by
// the printed manual commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, lstatSync, readlinkSync, realpathSync, writeFileSync, mkdirSync, chmodSync, unlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from './helpers.mjs';

const err = (msg, hint) => `git-kizu: error: ${msg}\nhint: ${hint}\n`;
const NAME_HINT =
  "task names follow git's branch-name rules (git check-ref-format(1)): e.g. fix-login or feat/search; no spaces, '..', '~', '^', ':', '?', '*', '[', '\\', no leading '-' or '.', no '.lock' ending";

function expectRun(sb, args, { status, stdout = '', stderr = '', cwd } = {}) {
  const r = sb.kizu(args, cwd ? { cwd } : {});
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status, stdout, stderr }, `git kizu ${args.join(' ')}`);
  return r;
}

function ok(sb, args, opts = {}) {
  const r = sb.kizu(args, opts);
  assert.equal(r.status, 0, `git kizu ${args.join(' ')}: ${r.stderr}`);
  assert.equal(r.stderr, '', `git kizu ${args.join(' ')}`);
  return r.stdout;
}

/** Repo root as git reports it (realpath), and the default sibling worktree of a task. */
const rootOf = (sb) => realpathSync(sb.dir);
const sibling = (sb, name) => path.join(path.dirname(rootOf(sb)), `repo-${name.replace(/\//g, '-')}`);

const rev = (sb, r, cwd) => sb.git('rev-parse', '--verify', '-q', r, { allowFail: true, cwd }).trim();
const sym = (sb, cwd) => sb.git('symbolic-ref', '-q', 'HEAD', { allowFail: true, cwd }).trim();
const refs = (sb) => sb.git('for-each-ref', '--format=%(objectname) %(refname)');
const commit = (sb, cwd, msg, files) => {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(cwd, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  sb.git('add', '-A', { cwd });
  sb.git('commit', '-q', '-m', msg, { cwd });
  return rev(sb, 'HEAD', cwd);
};

/** Every file under `dir` except .git: {rel: 'file <mode> <base64>' | 'link <target>'}. */
function tree(dir) {
  const out = {};
  const walk = (d, pre) => {
    for (const e of readdirSync(d).sort()) {
      if (pre === '' && e === '.git') continue;
      const p = path.join(d, e);
      const rel = pre + e;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p, rel + '/');
      else out[rel] = `file ${(st.mode & 0o777).toString(8)} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir, '');
  return out;
}

/** HEAD, branch, index entries, status, files and refs of a worktree. */
function state(sb, cwd = sb.dir) {
  return {
    head: rev(sb, 'HEAD', cwd),
    sym: sym(sb, cwd),
    index: sb.git('ls-files', '-s', '-z', { cwd }),
    staged: sb.git('diff', '--cached', '--binary', { cwd }),
    status: sb.git('status', '--porcelain=v1', '-z', '--untracked-files=all', { cwd }),
    files: tree(cwd),
    refs: refs(sb),
    worktrees: sb.git('worktree', 'list', '--porcelain'),
  };
}

/** The record commit of a task: parent (base), and message. */
function record(sb, name) {
  const c = rev(sb, `refs/kizu/tasks/${name}`);
  const body = sb.git('cat-file', 'commit', c);
  return {
    tree: sb.git('rev-parse', `${c}^{tree}`).trim(),
    parents: [...body.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]),
    message: body.slice(body.indexOf('\n\n') + 2).replace(/^kizu-created: .*$/m, 'kizu-created: <t>'),
  };
}
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
  const r = ok(sb, ['task', 'list', '--json']);
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
  ok(sb, ['baseline', 'set', first]);
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

test('task land: fast-forward, then a merge commit, then --remove', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
  const base = rev(sb, 'HEAD');
  ok(sb, ['task', 'start', 'ff', '--worktree']);
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
  const r = ok(sb, ['task', 'land', 'ff']);
  const merge = rev(sb, 'HEAD');
  assert.equal(r, `landed task ff in main: merge commit ${merge.slice(0, 12)}\n`);
  assert.equal(sb.git('rev-list', '--parents', '-n', '1', merge).trim(), `${merge} ${m1} ${c2}`);
  assert.equal(sb.git('log', '-1', '--format=%s', merge).trim(), "Merge branch 'kizu/ff'");
  assert.deepEqual([sb.read('a.txt'), sb.read('b.txt'), sb.read('c.txt')], ['a ff\n', 'b main\n', 'c\n']);
  assert.equal(rev(sb, 'refs/kizu/tasks/ff^1'), c2);

  // --remove: worktree, branch and record go (everything is merged).
  commit(sb, wt, 'last', { 'd.txt': 'd\n' });
  const c3 = rev(sb, 'refs/heads/kizu/ff');
  const r2 = ok(sb, ['task', 'land', 'ff', '--remove']);
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
  ok(sb, ['task', 'start', 'here']);
  const c1 = commit(sb, sb.dir, 'here work', { 'a.txt': 'a here\n' });
  expectRun(sb, ['task', 'land', 'here'], { status: 0, stdout: `switched to main\nlanded task here in main: fast-forward to ${c1.slice(0, 12)}\n` });
  assert.equal(sym(sb), 'refs/heads/main');
  assert.equal(rev(sb, 'HEAD'), c1);
});

test('task land refuses on conflicts and leaves HEAD, index, working tree and refs exactly as they were', () => {
  const sb = sandbox({ files: { 'a.txt': 'line\n', 'b.txt': 'b\n' } });
  ok(sb, ['task', 'start', 'clash', '--worktree']);
  ok(sb, ['task', 'start', 'local']);
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

/** Parses rollback branch's output; checks it line by line against the expected shape. */
function parseRollback(sb, stdout, { name, tip, commits, files, wt, mode = 'linked', ignored = '' }) {
  const m = new RegExp(`^safety snapshot: (\\S+)\\nsaved task ${name.replace(/[/.]/g, '\\$&')} in (refs/kizu/trash/${name}/\\d{8}T\\d{6}Z(?:-\\d+)?): `).exec(stdout);
  assert.ok(m, stdout);
  const [, snap, ref] = m;
  const trash = rev(sb, ref);
  const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
  let want = `safety snapshot: ${snap}\nsaved task ${name} in ${ref}: ${plural(commits, 'commit')} not on the base`;
  if (mode !== 'none') want += `, ${plural(files, 'changed or untracked file')} in ${wt}`;
  want += '\n';
  if (mode === 'linked') want += `removed worktree ${wt}${ignored}\n`;
  if (mode === 'main') want += `switched ${wt} back to main\n`;
  want += `deleted branch kizu/${name} (was ${tip.slice(0, 12)})\nbring it back: git kizu undo\n  or by hand: git branch kizu/${name} ${tip}\n`;
  if (mode === 'linked') want += `              git worktree add ${wt} kizu/${name}\n              git -C ${wt} restore --source=${trash} --worktree -- :/\n`;
  if (mode === 'main') want += `              git switch kizu/${name}\n`;
  assert.equal(stdout, want);
  return { ref, trash, snap };
}

/** A task with two unmerged commits and every kind of uncommitted change in its worktree. */
function messyTask(sb, name) {
  commit(sb, sb.dir, 'ignore logs', { '.gitignore': '*.log\n', 'del.txt': 'delete me\n', 'mod.txt': 'm1\nm2\n', 'stage.txt': 's\n' });
  const base = rev(sb, 'HEAD');
  ok(sb, ['task', 'start', name, '--worktree']);
  const wt = sibling(sb, name);
  const c1 = commit(sb, wt, 'task one', { 'one.txt': 'one\n' });
  const c2 = commit(sb, wt, 'task two', { 'mod.txt': 'm1\nm2 task\n' });
  writeFileSync(path.join(wt, 'mod.txt'), 'm1\nm2 task\nm3 uncommitted\n');
  unlinkSync(path.join(wt, 'del.txt'));
  writeFileSync(path.join(wt, 'stage.txt'), 's staged\n');
  sb.git('add', 'stage.txt', { cwd: wt });
  writeFileSync(path.join(wt, 'stage.txt'), 's staged\nand unstaged\n');
  mkdirSync(path.join(wt, 'new/deep'), { recursive: true });
  writeFileSync(path.join(wt, 'new/deep/bin.dat'), Buffer.from([0, 1, 2, 255, 254, 10, 0]));
  writeFileSync(path.join(wt, 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(path.join(wt, 'run.sh'), 0o755);
  symlinkSync('one.txt', path.join(wt, 'link'));
  writeFileSync(path.join(wt, 'debug.log'), 'ignored\n');
  return { base, wt, c1, c2 };
}

test('rollback branch: saves commits and files (untracked, staged) in refs/kizu/trash, removes worktree and branch; git kizu undo brings them back exactly', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const { base, wt, c1, c2 } = messyTask(sb, 'mess');
  const wtBefore = state(sb, wt);
  const mainBefore = state(sb);
  delete wtBefore.refs;
  delete wtBefore.worktrees;
  const filesBefore = { ...wtBefore.files };
  delete filesBefore['debug.log'];

  // --dry-run says what would happen and changes nothing.
  expectRun(sb, ['rollback', 'branch', 'mess', '--dry-run'], {
    status: 0,
    stdout:
      `would save task mess in refs/kizu/trash/mess/<time>: 2 commits not on the base, 6 changed or untracked files in ${wt}\n` +
      `would remove worktree ${wt} (with 1 ignored path, not saved: debug.log)\n` +
      `would delete branch kizu/mess (at ${c2.slice(0, 12)})\n`,
  });
  // Without --yes and without a terminal it refuses.
  expectRun(sb, ['rollback', 'branch', 'mess'], {
    status: 1,
    stderr: err('not discarding task "mess" without confirmation: no terminal to ask on', 'check what it would do (git kizu rollback branch mess --dry-run), then run git kizu rollback branch mess --yes'),
  });
  assert.deepEqual(state(sb), mainBefore);

  const r = sb.kizu(['rollback', 'branch', 'mess', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const { ref, trash } = parseRollback(sb, r.stdout, { name: 'mess', tip: c2, commits: 2, files: 6, wt, ignored: ' (with 1 ignored path, not saved: debug.log)' });

  // Gone: worktree, branch, record. Kept: main worktree, and the copy under refs/kizu/.
  assert.equal(existsSync(wt), false);
  assert.equal(rev(sb, 'refs/heads/kizu/mess'), '');
  assert.equal(rev(sb, 'refs/kizu/tasks/mess'), '');
  assert.equal(sb.git('worktree', 'list', '--porcelain'), `worktree ${rootOf(sb)}\nHEAD ${base}\nbranch refs/heads/main\n\n`);
  assert.deepEqual(state(sb).files, mainBefore.files);
  // The trash commit: first parent the tip (so every unmerged commit is reachable), second the index.
  const parents = sb.git('rev-list', '--parents', '-n', '1', trash).trim().split(' ').slice(1);
  assert.equal(parents[0], c2);
  assert.equal(parents.length, 2);
  assert.equal(rev(sb, `${parents[1]}^`), c2);
  assert.equal(sb.git('show', `${parents[1]}:stage.txt`), 's staged\n');
  assert.deepEqual(sb.git('rev-list', '--first-parent', `${base}..${ref}`).trim().split('\n'), [trash, c2, c1]);
  assert.equal(sb.git('show', `${trash}:new/deep/bin.dat`, { encoding: 'buffer' }).equals(Buffer.from([0, 1, 2, 255, 254, 10, 0])), true);
  assert.equal(sb.git('ls-tree', trash, 'run.sh', 'link', 'del.txt', 'debug.log').replace(/ [0-9a-f]{40}\t/g, ' <oid>\t'), '120000 blob <oid>\tlink\n100755 blob <oid>\trun.sh\n');
  const msg = sb.git('log', '-1', '--format=%B', trash);
  assert.match(msg, new RegExp(`^kizu trash: task mess\n\nkizu-task: "mess"\nkizu-tip: ${c2}\nkizu-base: ${base}\nkizu-from: refs/heads/main\nkizu-worktree: ${JSON.stringify(wt).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\nkizu-checkout: none\nkizu-index: ${parents[1]}\nkizu-time: \\S+\n`));

  // git kizu undo: the branch at the same commit, the worktree at the same path, the same files,
  // the same staged and unstaged state, untracked files untracked again, and the record back.
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr + u.stdout);
  assert.equal(rev(sb, 'refs/heads/kizu/mess'), c2);
  assert.equal(rev(sb, 'refs/kizu/tasks/mess^1'), base);
  const after = state(sb, wt);
  delete after.refs;
  delete after.worktrees;
  assert.deepEqual(after.files, filesBefore);
  assert.deepEqual({ ...after, files: null }, { ...wtBefore, files: null, status: wtBefore.status.replace('?? debug.log\0', '') });
  assert.equal(sb.git('rev-list', `${base}..kizu/mess`).trim(), `${c2}\n${c1}`);
  // The copy stays.
  assert.equal(rev(sb, ref), trash);
});

test('rollback branch: the printed manual commands bring the commits and files back byte-exactly', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const { base, wt, c2 } = messyTask(sb, 'feat/x');
  const filesBefore = tree(wt);
  delete filesBefore['debug.log'];
  const statusBefore = sb.git('status', '--porcelain=v1', '-z', '--untracked-files=all', { cwd: wt }).replace('?? debug.log\0', '').replace('M  stage.txt', 'MM stage.txt');
  const r = sb.kizu(['rollback', 'branch', 'feat/x', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  parseRollback(sb, r.stdout, { name: 'feat/x', tip: c2, commits: 2, files: 6, wt, ignored: ' (with 1 ignored path, not saved: debug.log)' });
  const manual = r.stdout.split('\n').filter((l) => /^ +(or by hand: )?git /.test(l)).map((l) => l.replace(/^ +(or by hand: )?/, ''));
  assert.equal(manual.length, 3);
  for (const line of manual) {
    const x = sb.run('sh', ['-c', line]);
    assert.equal(x.status, 0, `${line}: ${x.stderr}`);
  }
  assert.equal(rev(sb, 'refs/heads/kizu/feat/x'), c2);
  assert.deepEqual(tree(wt), filesBefore);
  // The manual route restores the files unstaged (what was staged shows as unstaged).
  const st = sb.git('status', '--porcelain=v1', '-z', '--untracked-files=all', { cwd: wt });
  assert.equal(st, statusBefore.replace('MM stage.txt', ' M stage.txt'));
  assert.equal(sb.git('rev-list', '--count', `${base}..kizu/feat/x`).trim(), '2');
});

test('rollback branch refuses when the current directory is inside the worktree, or it is locked; nothing changes', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  ok(sb, ['task', 'start', 'busy', '--worktree']);
  const wt = sibling(sb, 'busy');
  commit(sb, wt, 'work', { 'w/x.txt': 'x\n' });
  writeFileSync(path.join(wt, 'u.txt'), 'u\n');
  const before = state(sb);
  const wtBefore = state(sb, wt);
  for (const cwd of [wt, path.join(wt, 'w')]) {
    expectRun(sb, ['rollback', 'branch', 'busy', '--yes'], {
      cwd,
      status: 1,
      stderr: err(`the current directory is inside task "busy"'s worktree ${wt}; it cannot be removed from within`, `cd out of it (e.g. cd ${rootOf(sb)}) and run git kizu rollback branch busy again`),
    });
  }
  sb.git('worktree', 'lock', '--reason', 'agent running', wt);
  const locked = state(sb);
  expectRun(sb, ['rollback', 'branch', 'busy', '--yes'], {
    status: 1,
    stderr: err(`task "busy"'s worktree ${wt} is locked (agent running)`, `if it may go, unlock it first (git worktree unlock ${wt}), then run git kizu rollback branch busy again`),
  });
  expectRun(sb, ['rollback', 'branch', 'busy', '--dry-run'], {
    status: 1,
    stderr: err(`task "busy"'s worktree ${wt} is locked (agent running)`, `if it may go, unlock it first (git worktree unlock ${wt}), then run git kizu rollback branch busy again`),
  });
  assert.deepEqual(state(sb), locked);
  sb.git('worktree', 'unlock', wt);
  assert.deepEqual(state(sb), before);
  assert.deepEqual(state(sb, wt), wtBefore);
  assert.equal(sb.git('for-each-ref', 'refs/kizu/trash', 'refs/kizu/snapshots'), '');
});

test('rollback branch of a task checked out in the main worktree: switches back to main when clean, refuses when not; undo brings the branch back and switches to it', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const base = rev(sb, 'HEAD');
  ok(sb, ['task', 'start', 'inplace']);
  const c1 = commit(sb, sb.dir, 'in place', { 'a.txt': 'a changed\n', 'n.txt': 'n\n' });
  writeFileSync(sb.path('a.txt'), 'dirty\n');
  const before = state(sb);
  expectRun(sb, ['rollback', 'branch', 'inplace', '--yes'], {
    status: 1,
    stderr: err(
      `task "inplace" is checked out in ${rootOf(sb)}, which has uncommitted changes (1 file); switching back to main could lose them`,
      'commit them (or stash them: git stash -u), then run git kizu rollback branch inplace again',
    ),
  });
  assert.deepEqual(state(sb), before);

  sb.git('checkout', '-q', '--', 'a.txt');
  writeFileSync(sb.path('stray.txt'), 'stray\n');
  expectRun(sb, ['rollback', 'branch', 'inplace', '--dry-run'], {
    status: 0,
    stdout: `would save task inplace in refs/kizu/trash/inplace/<time>: 1 commit not on the base, 1 changed or untracked file in ${rootOf(sb)}\nwould switch ${rootOf(sb)} back to main\nwould delete branch kizu/inplace (at ${c1.slice(0, 12)})\n`,
  });
  const r = sb.kizu(['rollback', 'branch', 'inplace', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  const { trash } = parseRollback(sb, r.stdout, { name: 'inplace', tip: c1, commits: 1, files: 1, wt: rootOf(sb), mode: 'main' });
  assert.equal(sym(sb), 'refs/heads/main');
  assert.equal(rev(sb, 'HEAD'), base);
  assert.equal(sb.read('a.txt'), 'a\n');
  assert.equal(sb.read('stray.txt'), 'stray\n', 'untracked files stay where they were');
  assert.equal(rev(sb, 'refs/heads/kizu/inplace'), '');
  assert.equal(rev(sb, `${trash}^1`), c1);
  assert.equal(sb.git('show', `${trash}:stray.txt`), 'stray\n');

  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr + u.stdout);
  assert.equal(rev(sb, 'refs/heads/kizu/inplace'), c1);
  assert.equal(rev(sb, 'refs/kizu/tasks/inplace^1'), base);
  assert.equal(sym(sb), 'refs/heads/kizu/inplace', 'the main worktree is switched back to the task');
  assert.equal(rev(sb, 'HEAD'), c1);
  assert.deepEqual([sb.read('a.txt'), sb.read('n.txt'), sb.read('stray.txt')], ['a changed\n', 'n\n', 'stray\n']);
  assert.equal(sb.git('status', '--porcelain=v1', '-z', '--untracked-files=all'), '?? stray.txt\0');
});

test('ignored files that snapshot.include keeps (.env): rollback branch saves them and undo brings them back; task land --remove refuses to delete them; other ignored files are named', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': '.env\n*.log\n', '.kizurc.json': '{"snapshot": {"include": [".env"]}}\n' } });
  ok(sb, ['task', 'start', 'e', '--worktree']);
  const wt = sibling(sb, 'e');
  commit(sb, wt, 'e work', { 'b.txt': 'b\n' });
  writeFileSync(path.join(wt, '.env'), 'SECRET=1\n');
  writeFileSync(path.join(wt, 'debug.log'), 'log\n');
  expectRun(sb, ['rollback', 'branch', 'e', '--dry-run'], {
    status: 0,
    stdout:
      `would save task e in refs/kizu/trash/e/<time>: 1 commit not on the base, 1 changed or untracked file in ${wt}\n` +
      `would remove worktree ${wt} (with 1 ignored path, not saved: debug.log)\n` +
      `would delete branch kizu/e (at ${rev(sb, 'refs/heads/kizu/e').slice(0, 12)})\n`,
  });
  const r = sb.kizu(['rollback', 'branch', 'e', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(existsSync(wt), false);
  const trash = sb.git('for-each-ref', '--format=%(objectname)', 'refs/kizu/trash/e/').trim();
  assert.equal(sb.git('show', `${trash}:.env`), 'SECRET=1\n');
  assert.equal(sb.git('ls-tree', '--name-only', trash, 'debug.log'), '');
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr + u.stdout);
  assert.equal(readFileSync(path.join(wt, '.env'), 'utf8'), 'SECRET=1\n');
  assert.equal(sb.git('status', '--porcelain', '--ignored', { cwd: wt }), '!! .env\n');

  // land --remove would delete .env with the worktree: refused before anything changes.
  const before = state(sb);
  expectRun(sb, ['task', 'land', 'e', '--remove'], {
    status: 1,
    stderr: err(`task "e"'s worktree ${wt} holds .env, which git ignores but snapshot.include keeps; --remove would delete it with the worktree`, `move it out of ${wt} first, or land without --remove`),
  });
  assert.deepEqual(state(sb), before);
  unlinkSync(path.join(wt, '.env'));
  writeFileSync(path.join(wt, 'debug.log'), 'log\n');
  const out = ok(sb, ['task', 'land', 'e', '--remove']);
  assert.equal(out.split('\n')[1], `removed worktree ${wt} (with its ignored file: debug.log)`);
  assert.equal(existsSync(wt), false);
});

test('rollback branch --dry-run: an ignored directory holding files snapshot.include keeps is named as partly saved', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': 'secrets/\n', '.kizurc.json': '{"snapshot": {"include": ["secrets/*.key"]}}\n' } });
  ok(sb, ['task', 'start', 's', '--worktree']);
  const wt = sibling(sb, 's');
  mkdirSync(path.join(wt, 'secrets'));
  writeFileSync(path.join(wt, 'secrets', 'prod.key'), 'k\n');
  writeFileSync(path.join(wt, 'secrets', 'cache.tmp'), 't\n');
  const out = ok(sb, ['rollback', 'branch', 's', '--dry-run']);
  assert.equal(out.split('\n')[1], `would remove worktree ${wt} (with 1 ignored path, not saved: secrets/ (except what snapshot.include keeps))`);
});

test('undo of rollback branch: refuses (nothing changed) while the worktree it must switch back has uncommitted changes; a recreated task worktree keeps its identity, so older rollbacks made in it still undo', () => {
  // A task without a worktree of its own, checked out in the main worktree.
  const sb = sandbox({ files: { 'f.txt': 'a\n' } });
  ok(sb, ['task', 'start', 't2']);
  commit(sb, sb.dir, 't2', { 't2.txt': 't2\n' });
  sb.kizu(['rollback', 'branch', 't2', '--yes']);
  assert.equal(sym(sb), 'refs/heads/main');
  writeFileSync(sb.path('f.txt'), 'a\nhuman\n');
  const before = state(sb);
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 1, u.stderr);
  assert.equal(u.stderr.split('\n')[0], `git-kizu: error: cannot bring back task "t2": ${rootOf(sb)} has uncommitted changes (f.txt), and undo has to switch it back to kizu/t2`);
  assert.deepEqual(state(sb), before);
  sb.git('stash', '-q');
  ok(sb, ['undo', '--yes']);
  assert.equal(sym(sb), 'refs/heads/kizu/t2');
  assert.equal(sb.read('t2.txt'), 't2\n');

  // A task worktree with a snapshot rollback in it, then discarded and brought back by undo:
  // the rollback made in it before can still be undone there.
  const sb2 = sandbox({ files: { 'f.txt': 'a\n' } });
  ok(sb2, ['task', 'start', 't', '--worktree']);
  const wt = sibling(sb2, 't');
  writeFileSync(path.join(wt, 'work.txt'), 'v1\n');
  const snap = JSON.parse(sb2.kizu(['snapshot', '--json'], { cwd: wt }).stdout);
  writeFileSync(path.join(wt, 'work.txt'), 'agent\n');
  assert.equal(sb2.kizu(['rollback', 'snapshot', snap.name, '--yes'], { cwd: wt }).status, 0);
  assert.equal(sb2.kizu(['rollback', 'branch', 't', '--yes']).status, 0);
  const u1 = sb2.kizu(['undo', '--yes']);
  assert.equal(u1.status, 0, u1.stderr);
  assert.equal(readFileSync(path.join(wt, 'work.txt'), 'utf8'), 'v1\n');
  const u2 = sb2.kizu(['undo', '--yes']);
  assert.equal(u2.status, 0, u2.stderr);
  assert.equal(readFileSync(path.join(wt, 'work.txt'), 'utf8'), 'agent\n');
});
