// `git kizu rollback branch` through the real bin: a discarded task (commits not on the
// base, changed, staged, untracked and ignored files) saved in refs/kizu/trash and
// brought back exactly by `git kizu undo` and by the printed manual commands; what it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync, chmodSync, unlinkSync, symlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { rev } from '../helpers/refs.mjs';
import { commit, rootOf, sibling, state, sym } from '../helpers/tasks.mjs';
import { promptTerminal } from '../helpers/terminal.mjs';

/** Parses rollback branch's output; checks it line by line against the expected shape. */
function parseRollback(sb, stdout, { name, tip, commits, files, wt, mode = 'linked', saved = '', ignored = '' }) {
  const m = new RegExp(`^safety snapshot: (\\S+)\\nsaved task ${name.replace(/[/.]/g, '\\$&')} in (refs/kizu/trash/${name}/\\d{8}T\\d{6}Z(?:-\\d+)?): `).exec(stdout);
  assert.ok(m, stdout);
  const [, snap, ref] = m;
  const trash = rev(sb, ref);
  const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
  let want = `safety snapshot: ${snap}\nsaved task ${name} in ${ref}: ${plural(commits, 'commit')} not on the base`;
  if (mode !== 'none') want += `, ${plural(files, 'changed or untracked file')} in ${wt}`;
  want += saved + '\n';
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
  kizuOk(sb, ['task', 'start', name, '--worktree']);
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

  // --dry-run says what would happen and changes nothing.
  expectRun(sb, ['rollback', 'branch', 'mess', '--dry-run'], {
    status: 0,
    stdout:
      `would save task mess in refs/kizu/trash/mess/<time>: 2 commits not on the base, 6 changed or untracked files in ${wt}, and 1 ignored file (debug.log)\n` +
      `would remove worktree ${wt}\n` +
      `would delete branch kizu/mess (at ${c2.slice(0, 12)})\n`,
  });
  // Without --yes and without a terminal it prints the plan and refuses (README, Confirmation).
  expectRun(sb, ['rollback', 'branch', 'mess'], {
    status: 1,
    stdout:
      `would save task mess in refs/kizu/trash/mess/<time>: 2 commits not on the base, 6 changed or untracked files in ${wt}, and 1 ignored file (debug.log)\n` +
      `would remove worktree ${wt}\n` +
      `would delete branch kizu/mess (at ${c2.slice(0, 12)})\n`,
    stderr: err('not discarding task "mess" without confirmation: no terminal to ask on', 'check the plan above (git kizu rollback branch mess --dry-run shows it again), then run git kizu rollback branch mess --yes'),
  });
  assert.deepEqual(state(sb), mainBefore);

  const r = sb.kizu(['rollback', 'branch', 'mess', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const { ref, trash } = parseRollback(sb, r.stdout, { name: 'mess', tip: c2, commits: 2, files: 6, wt, saved: ', and 1 ignored file (debug.log)' });

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
  assert.equal(sb.git('ls-tree', trash, 'run.sh', 'link', 'del.txt', 'debug.log').replace(/ [0-9a-f]{40}\t/g, ' <oid>\t'), '100644 blob <oid>\tdebug.log\n120000 blob <oid>\tlink\n100755 blob <oid>\trun.sh\n');
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
  assert.deepEqual({ ...after, files: null }, { ...wtBefore, files: null });
  assert.equal(sb.git('rev-list', `${base}..kizu/mess`).trim(), `${c2}\n${c1}`);
  // The copy stays.
  assert.equal(rev(sb, ref), trash);
});

test('rollback branch: the printed manual commands bring the commits and files back byte-exactly', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const { base, wt, c2 } = messyTask(sb, 'feat/x');
  const filesBefore = tree(wt);
  const statusBefore = sb.git('status', '--porcelain=v1', '-z', '--untracked-files=all', { cwd: wt }).replace('M  stage.txt', 'MM stage.txt');
  const r = sb.kizu(['rollback', 'branch', 'feat/x', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  parseRollback(sb, r.stdout, { name: 'feat/x', tip: c2, commits: 2, files: 6, wt, saved: ', and 1 ignored file (debug.log)' });
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
  kizuOk(sb, ['task', 'start', 'busy', '--worktree']);
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
  kizuOk(sb, ['task', 'start', 'inplace']);
  const c1 = commit(sb, sb.dir, 'in place', { 'a.txt': 'a changed\n', 'n.txt': 'n\n' });
  writeFileSync(sb.path('a.txt'), 'dirty\n');
  const before = state(sb);
  expectRun(sb, ['rollback', 'branch', 'inplace', '--yes'], {
    status: 1,
    stderr: err(
      `task "inplace" is checked out in ${rootOf(sb)}, which has uncommitted changes to 1 tracked file (a.txt); switching back to main could lose them`,
      'commit them (or stash them: git stash -u), then run git kizu rollback branch inplace again',
    ),
  });
  assert.deepEqual(state(sb), before);

  writeFileSync(sb.path('untracked.txt'), 'u\n'); // counted apart: untracked files stay with a switch
  expectRun(sb, ['rollback', 'branch', 'inplace', '--yes'], {
    status: 1,
    stderr: err(
      `task "inplace" is checked out in ${rootOf(sb)}, which has uncommitted changes to 1 tracked file (a.txt); switching back to main could lose them`,
      'commit them (or stash them: git stash -u), then run git kizu rollback branch inplace again',
    ),
  });
  rmSync(sb.path('untracked.txt'));
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

test('ignored files (.env, logs): rollback branch saves them as task land --remove does and undo brings them back', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': '.env\n*.log\n', '.kizurc.json': '{"snapshot": {"include": [".env"]}}\n' } });
  kizuOk(sb, ['task', 'start', 'e', '--worktree']);
  const wt = sibling(sb, 'e');
  commit(sb, wt, 'e work', { 'b.txt': 'b\n' });
  writeFileSync(path.join(wt, '.env'), 'SECRET=1\n');
  writeFileSync(path.join(wt, 'debug.log'), 'log\n');
  expectRun(sb, ['rollback', 'branch', 'e', '--dry-run'], {
    status: 0,
    stdout:
      `would save task e in refs/kizu/trash/e/<time>: 1 commit not on the base, 0 changed or untracked files in ${wt}, and 2 ignored files (.env, debug.log)\n` +
      `would remove worktree ${wt}\n` +
      `would delete branch kizu/e (at ${rev(sb, 'refs/heads/kizu/e').slice(0, 12)})\n`,
  });
  const r = sb.kizu(['rollback', 'branch', 'e', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(existsSync(wt), false);
  const trash = sb.git('for-each-ref', '--format=%(objectname)', 'refs/kizu/trash/e/').trim();
  assert.equal(sb.git('show', `${trash}:.env`), 'SECRET=1\n');
  assert.equal(sb.git('show', `${trash}:debug.log`), 'log\n');
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr + u.stdout);
  assert.equal(readFileSync(path.join(wt, '.env'), 'utf8'), 'SECRET=1\n');
  assert.equal(sb.git('status', '--porcelain', '--ignored', { cwd: wt }), '!! .env\n!! debug.log\n');

  // land --remove saves .env and every other ignored file before the worktree goes.
  const out = kizuOk(sb, ['task', 'land', 'e', '--remove']);
  const ref = sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/trash/e/').trim().split('\n').find((r) => rev(sb, r) !== trash);
  assert.deepEqual(out.split('\n').slice(1, 3), [`saved 2 ignored files of ${wt} in ${ref}: .env, debug.log`, `removed worktree ${wt} (with 2 ignored files and directories: .env, debug.log)`]);
  assert.equal(sb.git('show', `${ref}:.env`), 'SECRET=1\n');
  assert.equal(existsSync(wt), false);
});

test('rollback branch saves the ignored files within the budget (snapshot.maxFileBytes in total, smallest first; snapshot.include ones whatever their size), names the rest in the plan and the question, and undo brings the saved ones back with their exact permission bits', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': 'secrets/\nbuild/\n.secret\n', '.kizurc.json': '{"snapshot": {"include": ["secrets/*.key"], "maxFileBytes": 50}}\n' } });
  kizuOk(sb, ['task', 'start', 's', '--worktree']);
  const wt = sibling(sb, 's');
  const tip = rev(sb, 'refs/heads/kizu/s');
  mkdirSync(path.join(wt, 'secrets'));
  mkdirSync(path.join(wt, 'build'));
  writeFileSync(path.join(wt, 'secrets', 'prod.key'), 'k'.repeat(80) + '\n'); // over the budget, but named by snapshot.include
  writeFileSync(path.join(wt, 'secrets', 'cache.tmp'), 't\n');
  writeFileSync(path.join(wt, '.secret'), 'TOKEN=x\n');
  chmodSync(path.join(wt, '.secret'), 0o600);
  writeFileSync(path.join(wt, 'build', 'small.js'), 's'.repeat(30) + '\n');
  writeFileSync(path.join(wt, 'build', 'big.bin'), 'b'.repeat(40) + '\n'); // 2 + 8 + 31 = 41 bytes so far: 41 more do not fit
  const before = tree(wt);
  const unsaved = '1 ignored path not saved (over the 50-byte budget, snapshot.maxFileBytes, or a nested repository): build/big.bin';
  expectRun(sb, ['rollback', 'branch', 's', '--dry-run'], {
    status: 0,
    stdout:
      `would save task s in refs/kizu/trash/s/<time>: 0 commits not on the base, 0 changed or untracked files in ${wt}, and 4 ignored files (.secret, build/small.js, secrets/cache.tmp, secrets/prod.key)\n` +
      `would remove worktree ${wt} (with ${unsaved})\n` +
      `would delete branch kizu/s (at ${tip.slice(0, 12)})\n`,
  });
  const plan = JSON.parse(kizuOk(sb, ['rollback', 'branch', 's', '--dry-run', '--json']));
  assert.deepEqual([plan.files, plan.savedIgnored, plan.ignored, plan.budget], [[], ['.secret', 'build/small.js', 'secrets/cache.tmp', 'secrets/prod.key'], ['build/big.bin'], 50]);
  const r = sb.kizu(['rollback', 'branch', 's', '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[2], `removed worktree ${wt} (with ${unsaved})`);
  assert.equal(existsSync(wt), false);
  const trash = sb.git('for-each-ref', '--format=%(objectname)', 'refs/kizu/trash/s/').trim();
  assert.equal(sb.git('ls-tree', '-r', '--name-only', trash), '.gitignore\n.kizurc.json\n.secret\na.txt\nbuild/small.js\nsecrets/cache.tmp\nsecrets/prod.key\n');
  kizuOk(sb, ['undo', '--yes']);
  const back = { ...before };
  delete back['build/big.bin'];
  assert.deepEqual(tree(wt), back);
  assert.equal(back['.secret'].mode, '600');
});

test('undo of rollback branch: refuses (nothing changed) while the worktree it must switch back has uncommitted changes; a recreated task worktree keeps its identity, so older rollbacks made in it still undo', () => {
  // A task without a worktree of its own, checked out in the main worktree.
  const sb = sandbox({ files: { 'f.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 't2']);
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
  kizuOk(sb, ['undo', '--yes']);
  assert.equal(sym(sb), 'refs/heads/kizu/t2');
  assert.equal(sb.read('t2.txt'), 't2\n');

  // A task worktree with a snapshot rollback in it, then discarded and brought back by undo:
  // the rollback made in it before can still be undone there.
  const sb2 = sandbox({ files: { 'f.txt': 'a\n' } });
  kizuOk(sb2, ['task', 'start', 't', '--worktree']);
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

test('rollback branch --json: the plan (--dry-run, or refused without a terminal) and the result as one object; undo brings the task back', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': '*.log\n' } });
  kizuOk(sb, ['task', 'start', 'feat', '--worktree']);
  const wt = sibling(sb, 'feat');
  const tip = commit(sb, wt, 'task work', { 't.txt': 't\n' });
  writeFileSync(path.join(wt, 'u.txt'), 'untracked\n');
  writeFileSync(path.join(wt, 'debug.log'), 'ignored\n');
  const plan = {
    dryRun: true,
    applied: false,
    task: 'feat',
    branch: 'kizu/feat',
    tip,
    commits: 1,
    mode: 'linked',
    worktree: wt,
    switchTo: null,
    files: ['u.txt'],
    savedIgnored: ['debug.log'],
    ignored: [],
    budget: 52428800,
    nested: [],
    trashRef: null,
    copy: null,
    safetySnapshot: null,
    recorded: false,
  };
  expectRun(sb, ['rollback', 'branch', 'feat', '--dry-run', '--json'], { status: 0, stdout: JSON.stringify(plan, null, 2) + '\n' });
  expectRun(sb, ['rollback', 'branch', 'feat', '--json'], {
    status: 1,
    stdout: JSON.stringify({ ...plan, dryRun: false }, null, 2) + '\n',
    stderr: err('not discarding task "feat" without confirmation: no terminal to ask on', 'check the plan above (git kizu rollback branch feat --dry-run shows it again), then run git kizu rollback branch feat --yes'),
  });
  assert.ok(existsSync(wt));
  const r = sb.kizu(['rollback', 'branch', 'feat', '--yes', '--json']);
  assert.deepEqual([r.status, r.stderr], [0, '']);
  const out = JSON.parse(r.stdout);
  assert.match(out.trashRef, /^refs\/kizu\/trash\/feat\/\d{8}T\d{6}Z$/);
  assert.match(out.safetySnapshot, /^\d{8}-\d{6}-\d{3}-[0-9a-f]{8}$/);
  assert.deepEqual(out, { ...plan, dryRun: false, applied: true, trashRef: out.trashRef, copy: rev(sb, out.trashRef), safetySnapshot: out.safetySnapshot, recorded: true });
  assert.ok(!existsSync(wt));
  kizuOk(sb, ['undo', '--yes']);
  assert.equal(readFileSync(path.join(wt, 'u.txt'), 'utf8'), 'untracked\n');
});

test('rollback branch on a terminal shows the plan, names the ignored files that would go without a copy in its question; "n" changes nothing', async (t) => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': 'build/\n', '.kizurc.json': '{"snapshot": {"maxFileBytes": 50}}\n' } });
  kizuOk(sb, ['task', 'start', 'q', '--worktree']);
  const wt = sibling(sb, 'q');
  mkdirSync(path.join(wt, 'build'));
  writeFileSync(path.join(wt, 'build', 'huge.bin'), 'B'.repeat(80) + '\n');
  const before = state(sb);
  const wtBefore = tree(wt);
  const no = promptTerminal(t, sb, ['rollback', 'branch', 'q']);
  await no.waitFor('[y/N]');
  no.answer('n');
  const lines = await no.done();
  const unsaved = '1 ignored path not saved (over the 50-byte budget, snapshot.maxFileBytes, or a nested repository): build/huge.bin';
  assert.equal(
    lines.join(''),
    `would save task q in refs/kizu/trash/q/<time>: 0 commits not on the base, 0 changed or untracked files in ${wt}` +
      `would remove worktree ${wt} (with ${unsaved})` +
      `would delete branch kizu/q (at ${sb.git('rev-parse', 'kizu/q').trim().slice(0, 12)})` +
      `Discard task q (branch kizu/q and worktree ${wt}; a copy is kept in refs/kizu/trash, except 1 ignored path not saved (over the 50-byte budget, snapshot.maxFileBytes, or a nested repository): build/huge.bin)? [y/N] n` +
      'cancelled: nothing changedEXIT=0',
  );
  assert.deepEqual(state(sb), before);
  assert.deepEqual(tree(wt), wtBefore);
});
