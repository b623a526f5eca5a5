// `git kizu undo` brings back exact permission bits on every restore path: a task worktree
// discarded by `rollback branch` (untracked, changed and tracked files with unusual bits), and
// the working tree of `rollback snapshot` and `rollback patch`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { TEN, agentEdit } from '../helpers/journal.mjs';

test('undo of rollback branch: the task worktree comes back with the exact permission bits of every file (0600 untracked, 0640 changed, 0700 executable, 0444 tracked)', () => {
  const sb = sandbox({ files: { 'a.txt': 'main\n' } });
  const wt = path.join(sb.base, 'wt');
  ok(sb.kizu(['task', 'start', 'feat', '--worktree', wt]), 'task start');
  writeFileSync(path.join(wt, 't.txt'), 'committed\n');
  writeFileSync(path.join(wt, 'ro.txt'), 'read only\n');
  sb.git('add', 't.txt', 'ro.txt', { cwd: wt });
  sb.git('commit', '-q', '-m', 'task work', { cwd: wt });
  writeFileSync(path.join(wt, 'secret.txt'), 'untracked secret\n');
  chmodSync(path.join(wt, 'secret.txt'), 0o600);
  writeFileSync(path.join(wt, 't.txt'), 'changed\n');
  chmodSync(path.join(wt, 't.txt'), 0o640);
  chmodSync(path.join(wt, 'ro.txt'), 0o444);
  writeFileSync(path.join(wt, 'run.sh'), '#!/bin/sh\n');
  chmodSync(path.join(wt, 'run.sh'), 0o700);
  const before = tree(wt);
  assert.deepEqual(
    Object.fromEntries(Object.entries(before).map(([p, f]) => [p, f.mode])),
    { 'a.txt': '644', 'ro.txt': '444', 'run.sh': '700', 'secret.txt': '600', 't.txt': '640' },
  );
  ok(sb.kizu(['rollback', 'branch', 'feat', '--yes']), 'rollback branch');
  assert.ok(!existsSync(wt));
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.deepEqual(tree(wt), before, 'bytes and permission bits as before the rollback');
});

test('undo of rollback snapshot and of rollback patch: permission bits come back exactly', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'f.txt': TEN } });
  const name = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  writeFileSync(sb.path('a.txt'), 'agent\n');
  chmodSync(sb.path('a.txt'), 0o600);
  writeFileSync(sb.path('new.txt'), 'new\n');
  chmodSync(sb.path('new.txt'), 0o604);
  const agent = tree(sb.dir);
  ok(sb.kizu(['rollback', 'snapshot', name, '--yes']), 'rollback snapshot');
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.deepEqual(tree(sb.dir), agent);

  chmodSync(sb.path('f.txt'), 0o600);
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  const edited = tree(sb.dir);
  ok(sb.kizu(['rollback', 'patch', e.shortId, '--yes']), 'rollback patch');
  assert.equal(tree(sb.dir)['f.txt'].mode, '600', 'rollback patch keeps the bits');
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.deepEqual(tree(sb.dir), edited);
});

test('undo of rollback branch: directories come back with their bits too (an ignored 0700 directory, a tracked 0750 one)', () => {
  const sb = sandbox({ files: { 'a.txt': 'main\n', '.gitignore': 'secrets/\n' } });
  const wt = path.join(sb.base, 'wt');
  ok(sb.kizu(['task', 'start', 'feat', '--worktree', wt]), 'task start');
  mkdirSync(path.join(wt, 'lib'));
  writeFileSync(path.join(wt, 'lib', 'x.txt'), 'x\n');
  sb.git('add', 'lib', { cwd: wt });
  sb.git('commit', '-q', '-m', 'lib', { cwd: wt });
  chmodSync(path.join(wt, 'lib'), 0o750);
  mkdirSync(path.join(wt, 'secrets'));
  writeFileSync(path.join(wt, 'secrets', 'key'), 'k\n');
  chmodSync(path.join(wt, 'secrets', 'key'), 0o600);
  chmodSync(path.join(wt, 'secrets'), 0o700);
  const bits = (rel) => (statSync(path.join(wt, rel)).mode & 0o7777).toString(8);
  assert.deepEqual([bits('lib'), bits('secrets'), bits('secrets/key')], ['750', '700', '600']);
  ok(sb.kizu(['rollback', 'branch', 'feat', '--yes']), 'rollback branch');
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.deepEqual([bits('lib'), bits('secrets'), bits('secrets/key')], ['750', '700', '600']);
});
