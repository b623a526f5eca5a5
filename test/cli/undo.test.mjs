// `git kizu undo` through the real bin: reversing `rollback snapshot` and `rollback branch`
// (a task with its worktree), with exact bytes and modes; what it refuses; output to a closed
// stdout never stops a command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { snapshotLib } from '../helpers/snapshots.mjs';

function logFile(sb) {
  return JSON.parse(readFileSync(sb.path('.git/kizu/rollbacks.json'), 'utf8'));
}

test('undo: dry run and no-terminal refusal change nothing; undo is itself reversible; the log is popped', () => {
  const sb = sandbox({ files: { 'a.txt': 'v1\n', 'tool.sh': '#!/bin/sh\n' } });
  chmodSync(sb.path('tool.sh'), 0o755);
  const name = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  writeFileSync(sb.path('a.txt'), 'v2\n');
  writeFileSync(sb.path('b.txt'), 'agent file\n');
  chmodSync(sb.path('tool.sh'), 0o700);
  const agent = tree(sb.dir);
  ok(sb.kizu(['rollback', 'snapshot', name, '--yes']));
  const rolled = tree(sb.dir);
  assert.equal(rolled['b.txt'], undefined);
  assert.equal(rolled['tool.sh'].mode, '755');
  const [rec] = logFile(sb).records;
  assert.deepEqual(Object.keys(rec), ['level', 'time', 'safetySnapshot', 'description', 'changed']);
  assert.deepEqual(rec.changed.map((c) => c.path), ['a.txt', 'b.txt', 'tool.sh']);
  assert.equal(rec.level, 'snapshot');
  assert.equal(rec.description, `rollback to snapshot ${name}`);

  const dry = ok(sb.kizu(['undo', '--dry-run']));
  assert.ok(dry.stdout.includes(`restore the 3 paths the rollback changed in ${sb.dir} from safety snapshot ${rec.safetySnapshot.slice(0, 12)} (later edits to other files stay; --whole-snapshot restores all of it):\n`), dry.stdout);
  assert.ok(dry.stdout.includes('\n  create  b.txt  (deleted since the snapshot; restored; lines +1)\n'), dry.stdout);
  assert.ok(dry.stdout.includes('\n  mode    tool.sh  (mode 755 -> 700)\n'), dry.stdout);
  // Undo's own safety snapshot is brought back with rollback snapshot, not with another undo.
  assert.ok(dry.stdout.endsWith('\n3 paths would go back to what they held before the rollback; a safety snapshot of the current state is taken first (git kizu rollback snapshot <it> restores it; the name is printed).\n'), dry.stdout);
  assert.deepEqual(tree(sb.dir), rolled);
  const refused = sb.kizu(['undo']);
  assert.equal(refused.status, 1);
  assert.equal(refused.stderr, 'git-kizu: error: not undoing without confirmation: no terminal to ask on\nhint: check the plan above (git kizu undo --dry-run shows it again), then run git kizu undo --yes\n');
  assert.deepEqual(tree(sb.dir), rolled);
  assert.equal(logFile(sb).records.length, 1);

  const u = JSON.parse(ok(sb.kizu(['undo', '--yes', '--json'])).stdout);
  assert.equal(u.popped, true);
  assert.equal(u.plan.applied, true);
  assert.deepEqual(u.plan.failures, []);
  assert.deepEqual(tree(sb.dir), agent, 'exact bytes and modes of before the rollback');
  assert.deepEqual(logFile(sb).records, []);

  // Redo: the undo's own safety snapshot holds the rolled-back state.
  ok(sb.kizu(['rollback', 'snapshot', u.plan.safetyName, '--yes']));
  assert.deepEqual(tree(sb.dir), rolled);
  ok(sb.kizu(['undo', '--yes']));
  assert.deepEqual(tree(sb.dir), agent);
});

test('undo of `rollback branch`: the task branch and its worktree come back (restoreTask), the log is popped', () => {
  const sb = sandbox({ files: { 'a.txt': 'main\n' } });
  const wt = path.join(sb.base, 'wt');
  ok(sb.kizu(['task', 'start', 'feat', '--worktree', wt]), 'task start');
  writeFileSync(path.join(wt, 't.txt'), 'committed\n');
  sb.git('add', 't.txt', { cwd: wt });
  sb.git('commit', '-q', '-m', 'task work', { cwd: wt });
  const tip = sb.git('rev-parse', 'kizu/feat').trim();
  writeFileSync(path.join(wt, 't.txt'), 'uncommitted\r\n');
  writeFileSync(path.join(wt, 'u.txt'), 'untracked\n');
  const before = tree(wt);
  const main = tree(sb.dir);
  ok(sb.kizu(['rollback', 'branch', 'feat', '--yes']), 'rollback branch');
  assert.ok(!existsSync(wt));
  assert.equal(sb.git('branch', '--list', 'kizu/feat'), '');
  const [rec] = logFile(sb).records;
  assert.equal(rec.level, 'branch');
  assert.deepEqual({ ...rec.undo, trashRef: rec.undo.trashRef.replace(/[^/]+$/, '<time>') }, { kind: 'branch', name: 'feat', trashRef: 'refs/kizu/trash/feat/<time>', worktree: wt });

  const dry = ok(sb.kizu(['undo', '--dry-run']));
  assert.deepEqual(dry.stdout.split('\n').slice(1, 4), [
    `  branch  kizu/feat  (recreated at ${tip.slice(0, 12)} from ${rec.undo.trashRef})`,
    `  worktree  ${wt}  (recreated with its saved files)`,
    `restore in ${sb.dir}: nothing (git kizu undo --whole-snapshot would restore all of it to safety snapshot ${rec.safetySnapshot.slice(0, 12)})`,
  ]);
  assert.equal(sb.git('branch', '--list', 'kizu/feat'), '', 'dry run changes nothing');
  assert.equal(sb.kizu(['undo']).status, 1, 'no terminal, no --yes');

  ok(sb.kizu(['undo', '--yes']));
  assert.equal(sb.git('rev-parse', 'kizu/feat').trim(), tip);
  assert.equal(sb.git('rev-parse', 'HEAD', { cwd: wt }).trim(), tip);
  assert.deepEqual(tree(wt), before, 'uncommitted and untracked files are back, byte for byte');
  assert.deepEqual(tree(sb.dir), main);
  assert.deepEqual(logFile(sb).records, []);
});

test('undo refuses when the task branch exists again or the safety snapshot is gone; nothing changes', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  ok(sb.kizu(['task', 'start', 'gone']), 'task start');
  sb.git('commit', '-q', '--allow-empty', '-m', 'task commit');
  sb.git('switch', '-q', 'main');
  ok(sb.kizu(['rollback', 'branch', 'gone', '--yes']), 'rollback branch');
  sb.git('branch', 'kizu/gone', 'main');
  const r = sb.kizu(['undo', '--yes']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^git-kizu: error: cannot bring back branch kizu\/gone: a branch of that name exists again \(at [0-9a-f]{12}\)\nhint: rename or delete it/);
  assert.equal(logFile(sb).records.length, 1);

  // A rollback whose safety snapshot was dropped and garbage-collected.
  const id = snapshotLib(sb, `process.stdout.write((await snap.takeSnapshot(process.cwd(), { kind: 'safety' })).id);`);
  const rec = { level: 'patch', time: new Date().toISOString(), safetySnapshot: id, description: 'rollback patch x' };
  snapshotLib(sb, `await log.recordRollback(process.cwd(), ${JSON.stringify(rec)});`);
  ok(sb.kizu(['snapshot', 'drop', '--force', id.slice(0, 8)]));
  sb.git('reflog', 'expire', '--expire=now', '--all');
  sb.git('gc', '-q', '--prune=now');
  const before = tree(sb.dir);
  const gone = sb.kizu(['undo', '--yes']);
  assert.equal(gone.status, 2);
  assert.match(gone.stderr, /^git-kizu: error: cannot undo "rollback patch x": its safety snapshot [0-9a-f]{12} no longer exists\n/);
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(logFile(sb).records.length, 2);
});

test('a closed stdout (`| true`) drops the output, never the command: rollback still records itself for undo, init still installs everything', () => {
  const files = {};
  for (let i = 0; i < 300; i++) files[`f${i}.txt`] = `o${i}\n`;
  const sb = sandbox({ files });
  const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout);
  for (let i = 0; i < 300; i++) writeFileSync(sb.path(`f${i}.txt`), 'HUMAN\n');
  // The reader has exited before git-kizu writes its first line: every write fails with EPIPE.
  const piped = (args) => sb.run('bash', ['-c', 'git kizu "$@" | true; echo "rc=${PIPESTATUS[0]}"', 'x', ...args]);
  assert.equal(piped(['rollback', 'snapshot', snap.name, '--yes']).stdout, 'rc=0\n');
  assert.equal(sb.read('f0.txt'), 'o0\n');
  assert.equal(sb.read('f299.txt'), 'o299\n');
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.equal(sb.read('f0.txt'), 'HUMAN\n');
  assert.equal(sb.read('f299.txt'), 'HUMAN\n');

  assert.equal(piped(['init']).stdout, 'rc=0\n');
  const status = sb.kizu(['status', '--json']);
  const hooks = JSON.parse(status.stdout).hooks;
  assert.deepEqual({ ...hooks, guard: hooks.guard.state, agents: hooks.agents.filter((a) => a.installed !== 'missing') }, { project: true, local: false, user: false, plugin: false, claudeFix: null, claudeNoStop: [], preCommit: true, guard: 'installed', agents: [] });
});
