// Ignored files (such as `.env`) that a checkout or merge kizu runs would overwrite: git
// replaces them silently by default (--overwrite-ignore), so task start, task land,
// rollback branch and undo refuse up front (the --dry-run too), naming them, and change
// nothing. Real repos, real bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { rev } from '../helpers/refs.mjs';
import { commit, rootOf, sibling, state, sym } from '../helpers/tasks.mjs';

const WHY = '(git replaces an ignored file with the tracked file of the same path, keeping no copy); nothing was changed';
const refusal = (what, wt, files, again, first = files[0]) =>
  err(
    `${what} would overwrite ${files.length === 1 ? 'an ignored file' : `${files.length} ignored files`} in ${wt}: ${files.join(', ')} ${WHY}`,
    `move ${files.length === 1 ? 'it' : 'them'} aside first (e.g. mv ${first} ${first}.mine), then run ${again} again; compare and put your copy back afterwards`,
  );

/** A repo ignoring .env, holding a local .env, and task `te` (own worktree) that commits a template .env. */
function envTask(files = {}) {
  const sb = sandbox({ files: { '.gitignore': '.env\n', 'a.txt': 'a\n', ...files } });
  writeFileSync(sb.path('.env'), 'SECRET=mine\n');
  kizuOk(sb, ['task', 'start', 'te', '--worktree']);
  const wt = sibling(sb, 'te');
  writeFileSync(path.join(wt, '.env'), 'SECRET=tmpl\n');
  sb.git('add', '-f', '.env', { cwd: wt });
  sb.git('commit', '-q', '-m', 'env template', { cwd: wt });
  return { sb, wt };
}

/** Commits config.json as untracked and ignored on the current branch, then gives it local settings. */
function untrackConfig(sb) {
  sb.git('rm', '-q', '--cached', 'config.json');
  writeFileSync(sb.path('.gitignore'), 'config.json\n');
  sb.git('add', '.gitignore');
  sb.git('commit', '-q', '-m', 'untrack config');
  writeFileSync(sb.path('config.json'), '{"local":1}\n');
}

test('task land: a task that commits an ignored file the target worktree holds is refused (dry run too), with or without --remove, fast-forward or merge, snapshot.include or not', () => {
  for (const variant of ['ff', 'merge', 'include']) {
    const { sb, wt } = envTask(variant === 'include' ? { '.kizurc.json': '{"snapshot":{"include":[".env"]}}\n' } : {});
    if (variant === 'merge') commit(sb, sb.dir, 'main moves on', { 'b.txt': 'b\n' });
    const root = rootOf(sb);
    const before = state(sb);
    const beforeWt = state(sb, wt);
    for (const args of [['--dry-run'], [], ['--remove'], ['--remove', '--yes'], ['--remove', '--dry-run']]) {
      expectRun(sb, ['task', 'land', 'te', ...args], {
        status: 1,
        stderr: refusal('landing task "te" in main', root, ['.env'], `git kizu task land te${args.includes('--remove') ? ' --remove' : ''}`),
      });
    }
    assert.equal(sb.read('.env'), 'SECRET=mine\n', variant);
    assert.deepEqual(state(sb), before, variant);
    assert.deepEqual(state(sb, wt), beforeWt, variant);

    // Moved aside, it lands (the template arrives; the user's copy is where they put it).
    renameSync(sb.path('.env'), sb.path('.env.mine'));
    const r = sb.kizu(['task', 'land', 'te']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(sb.read('.env'), 'SECRET=tmpl\n');
    assert.equal(sb.read('.env.mine'), 'SECRET=mine\n');
  }
});

test('task land: directory/file clashes with ignored paths are refused too (ignored dir where the task has a file, ignored file where it has a directory, a file under an ignored dir)', () => {
  const sb = sandbox({ files: { '.gitignore': 'build\nout\ncache/\n', 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 'dd', '--worktree']);
  const wt = sibling(sb, 'dd');
  for (const [p, c] of [['build', 'a file\n'], ['out/x', 'x\n'], ['cache/k', 'k\n']]) {
    mkdirSync(path.dirname(path.join(wt, p)), { recursive: true });
    writeFileSync(path.join(wt, p), c);
    sb.git('add', '-f', p, { cwd: wt });
  }
  sb.git('commit', '-q', '-m', 'tracked where main ignores', { cwd: wt });
  // Main: build/ is an ignored directory, out an ignored file, cache/k an ignored file, cache/other unrelated.
  sb.write({ 'build/log': 'mine\n', out: 'mine\n', 'cache/k': 'mine\n', 'cache/other': 'mine\n' });
  const before = state(sb);
  expectRun(sb, ['task', 'land', 'dd', '--dry-run'], {
    status: 1,
    stderr: err(
      `landing task "dd" in main would overwrite 3 ignored files and directories in ${rootOf(sb)}: build/, cache/k, out ` +
        '(git replaces an ignored directory with the tracked file of its name; git replaces an ignored file with the tracked file of the same path; ' +
        'git replaces an ignored file with the tracked directory of its name, keeping no copy); nothing was changed',
      'move them aside first (e.g. mv build build.mine), then run git kizu task land dd again; compare and put your copy back afterwards',
    ),
  });
  assert.deepEqual(state(sb), before);
});

/** Runs the `mv <a> <b>` of the hint in `stderr` in `cwd`: what a user who follows it does. */
function followHint(sb, stderr, cwd) {
  const m = /\(e\.g\. mv (\S+) (\S+)\)/.exec(stderr);
  assert.ok(m, stderr);
  const r = sb.run('mv', [m[1], m[2]], { cwd });
  assert.equal(r.status, 0, r.stderr);
  return [m[1], m[2]];
}

test('an ignored directory where the target tracks a file: the refusal names the directory and what git would do, and following its hint (mv cache cache.mine) lets task land and rollback branch go on', () => {
  // task land: main ignores cache/ and holds cache/data.bin; the task commits a file named cache.
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  writeFileSync(sb.path('.git/info/exclude'), 'cache\n');
  sb.write({ 'cache/data.bin': 'X\n' });
  kizuOk(sb, ['task', 'start', 't', '--worktree']);
  const wt = sibling(sb, 't');
  writeFileSync(path.join(wt, 'cache'), 'f');
  sb.git('add', '-f', 'cache', { cwd: wt });
  sb.git('commit', '-q', '-m', 'cache file', { cwd: wt });
  const root = rootOf(sb);
  const before = state(sb);
  const r = expectRun(sb, ['task', 'land', 't', '--yes'], {
    status: 1,
    stderr: err(
      `landing task "t" in main would overwrite an ignored directory in ${root}: cache/ (git replaces the ignored directory cache/ with the tracked file cache, keeping no copy); nothing was changed`,
      'move it aside first (e.g. mv cache cache.mine), then run git kizu task land t again; compare and put your copy back afterwards',
    ),
  });
  assert.deepEqual(state(sb), before);
  assert.deepEqual(followHint(sb, r.stderr, sb.dir), ['cache', 'cache.mine']);
  const again = sb.kizu(['task', 'land', 't', '--yes']);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(sb.read('cache'), 'f');
  assert.equal(sb.read('cache.mine/data.bin'), 'X\n');

  // rollback branch: main tracks a file build; on the task (checked out here) build/ is an ignored directory.
  const sb2 = sandbox({ files: { 'a.txt': 'a\n', build: 'tracked\n' } });
  kizuOk(sb2, ['task', 'start', 'rb']);
  sb2.git('rm', '-q', '--cached', 'build');
  writeFileSync(sb2.path('.gitignore'), 'build\n');
  sb2.git('add', '.gitignore');
  sb2.git('commit', '-q', '-m', 'untrack build');
  sb2.run('rm', ['build']);
  sb2.write({ 'build/out/app.js': 'mine\n' });
  const root2 = rootOf(sb2);
  const before2 = state(sb2);
  const r2 = expectRun(sb2, ['rollback', 'branch', 'rb', '--yes'], {
    status: 1,
    stderr: err(
      `switching ${root2} back to main would overwrite an ignored directory in ${root2}: build/ (git replaces the ignored directory build/ with the tracked file build, keeping no copy); nothing was changed`,
      'move it aside first (e.g. mv build build.mine), then run git kizu rollback branch rb again; compare and put your copy back afterwards',
    ),
  });
  assert.deepEqual(state(sb2), before2);
  followHint(sb2, r2.stderr, sb2.dir);
  const again2 = sb2.kizu(['rollback', 'branch', 'rb', '--yes']);
  assert.equal(again2.status, 0, again2.stderr);
  assert.equal(sb2.read('build'), 'tracked\n');
  assert.equal(sb2.read('build.mine/out/app.js'), 'mine\n');
});

test('task land from the task branch (no worktree): the switch to the target branch must not overwrite an ignored file the target tracks', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'config.json': '{"tmpl":1}\n' } });
  kizuOk(sb, ['task', 'start', 'cf']);
  untrackConfig(sb); // on the task: config.json untracked and ignored, holding local settings
  const before = state(sb);
  expectRun(sb, ['task', 'land', 'cf', '--dry-run'], {
    status: 1,
    stderr: refusal('landing task "cf" in main', rootOf(sb), ['config.json'], 'git kizu task land cf'),
  });
  expectRun(sb, ['task', 'land', 'cf'], {
    status: 1,
    stderr: refusal('landing task "cf" in main', rootOf(sb), ['config.json'], 'git kizu task land cf'),
  });
  assert.deepEqual(state(sb), before);
  assert.equal(sb.read('config.json'), '{"local":1}\n');
});

test('task start in place: switching to a baseline that tracks a now-ignored file is refused', () => {
  const sb = sandbox({ files: { 'config.json': '{"tmpl":1}\n' } });
  untrackConfig(sb);
  kizuOk(sb, ['baseline', 'set', 'HEAD~1']);
  const base = rev(sb, 'HEAD~1');
  const before = state(sb);
  expectRun(sb, ['task', 'start', 'bx'], {
    status: 1,
    stderr: refusal(`starting task "bx" here (git switch -c kizu/bx ${base.slice(0, 12)})`, rootOf(sb), ['config.json'], 'git kizu task start bx'),
  });
  assert.deepEqual(state(sb), before);
  assert.equal(sb.read('config.json'), '{"local":1}\n');
  // In its own worktree nothing is in the way.
  const r = sb.kizu(['task', 'start', 'bx', '--worktree']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('config.json'), '{"local":1}\n');
});

test('rollback branch of a task checked out here: switching back must not overwrite an ignored file the branch tracks', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'config.json': '{"tmpl":1}\n' } });
  kizuOk(sb, ['task', 'start', 'rb']);
  untrackConfig(sb);
  const before = state(sb);
  for (const args of [['--dry-run'], ['--yes']]) {
    expectRun(sb, ['rollback', 'branch', 'rb', ...args], {
      status: 1,
      stderr: refusal(`switching ${rootOf(sb)} back to main`, rootOf(sb), ['config.json'], 'git kizu rollback branch rb'),
    });
  }
  assert.deepEqual(state(sb), before);
});

test('undo of a rollback branch made in this worktree: the preview says it switches branches; an ignored file the task tracks is not overwritten', () => {
  const sb = sandbox({ files: { '.gitignore': '.env\n', 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 'tu']);
  writeFileSync(sb.path('.env'), 'K=task\n');
  sb.git('add', '-f', '.env');
  sb.git('commit', '-q', '-m', 'env');
  const tip = rev(sb, 'HEAD');
  kizuOk(sb, ['rollback', 'branch', 'tu', '--yes']);
  writeFileSync(sb.path('.env'), 'K=mine\n');
  const root = rootOf(sb);
  const before = state(sb);
  for (const args of [['--dry-run'], ['--yes']]) {
    expectRun(sb, ['undo', ...args], { status: 1, stderr: refusal(`undo (switching ${root} back to kizu/tu)`, root, ['.env'], 'git kizu undo') });
  }
  assert.deepEqual(state(sb), before);
  assert.equal(sb.read('.env'), 'K=mine\n');

  renameSync(sb.path('.env'), sb.path('.env.mine'));
  const r = sb.kizu(['undo', '--dry-run']);
  assert.equal(r.status, 0, r.stderr);
  const trash = /from (refs\/kizu\/trash\/tu\/\S+)\)/.exec(r.stdout)[1];
  assert.equal(
    r.stdout,
    `undo: discarded task tu (kizu/tu at ${tip.slice(0, 12)}) (branch rollback of ${/rollback of (\S+)\)/.exec(r.stdout)[1]})\n` +
      `  branch  kizu/tu  (recreated at ${tip.slice(0, 12)} from ${trash})\n` +
      `  switch  ${root}  (from main back to kizu/tu: git switch kizu/tu; its files become the task's)\n` +
      `restore in ${root}: nothing (git kizu undo --whole-snapshot would restore all of it to safety snapshot ${/safety snapshot ([0-9a-f]{12})\)/.exec(r.stdout)[1]})\n`,
  );
  assert.equal(sb.kizu(['undo', '--yes']).status, 0);
  assert.equal(sym(sb), 'refs/heads/kizu/tu');
  assert.equal(readFileSync(sb.path('.env'), 'utf8'), 'K=task\n');
  assert.equal(sb.read('.env.mine'), 'K=mine\n');
});

test('task land: a path the target branch stopped tracking (now ignored) that the task left unchanged is no obstacle: the merge keeps the local file', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'config.json': '{"tmpl":1}\n' } });
  kizuOk(sb, ['task', 'start', 'keep', '--worktree']);
  const wt = sibling(sb, 'keep');
  commit(sb, wt, 'task work', { 'b.txt': 'b\n' });
  untrackConfig(sb);
  const r = sb.kizu(['task', 'land', 'keep']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^landed task keep in main: merge commit [0-9a-f]{12}\n$/);
  assert.equal(sb.read('config.json'), '{"local":1}\n');
  assert.equal(sb.read('b.txt'), 'b\n');
});
