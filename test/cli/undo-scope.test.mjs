// `git kizu undo` reverses what the rollback changed, and only that: later edits to files the
// rollback did not write stay (rollback patch, rollback snapshot, rollback branch); a file the
// rollback wrote and that was edited since is marked in the preview and kept in undo's own
// safety snapshot; --whole-snapshot brings the whole working tree back to the safety snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun, ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { TEN, agentEdit } from '../helpers/journal.mjs';

const log = (sb) => JSON.parse(readFileSync(sb.path('.git/kizu/rollbacks.json'), 'utf8'));
const safety = (sb) => log(sb).records.at(-1).safetySnapshot;
/** The name of the undo's own safety snapshot, from its output. */
const redo = (stdout) => /\nsafety snapshot: (\S+) \(to redo: /.exec(stdout)[1];

test('undo of a one-file rollback patch restores that file only: later edits to other files stay', () => {
  const sb = sandbox({ files: { 'f.txt': TEN, 'g.txt': 'g\n' } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  ok(sb.kizu(['rollback', 'patch', e.shortId, '--yes']), 'rollback patch');
  assert.equal(sb.read('f.txt'), TEN);
  assert.deepEqual(log(sb).records[0].changed.map((c) => c.path), ['f.txt']);
  // The human goes on working after the rollback.
  writeFileSync(sb.path('g.txt'), 'g edited after the rollback\n');
  writeFileSync(sb.path('new.txt'), 'created after the rollback\n');
  const snap = safety(sb).slice(0, 12);
  const desc = log(sb).records[0].description;
  const time = log(sb).records[0].time;
  expectRun(sb, ['undo', '--dry-run'], {
    status: 0,
    stdout:
      `undo: ${desc} (patch rollback of ${time})\n` +
      `restore the 1 path the rollback changed in ${sb.dir} from safety snapshot ${snap} (later edits to other files stay; --whole-snapshot restores all of it):\n` +
      '  modify  f.txt  (changed since the snapshot; lines +1 -1)\n' +
      '1 path would go back to what it held before the rollback; a safety snapshot of the current state is taken first (git kizu rollback snapshot <it> restores it; the name is printed).\n',
  });
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
  assert.equal(sb.read('g.txt'), 'g edited after the rollback\n');
  assert.equal(sb.read('new.txt'), 'created after the rollback\n');
  assert.deepEqual(log(sb).records, []);
});

test('undo of rollback snapshot: only the paths it changed; one edited since is marked and kept in the undo safety snapshot; --whole-snapshot takes all', () => {
  for (const whole of [false, true]) {
    const sb = sandbox({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' } });
    const name = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout).name;
    writeFileSync(sb.path('a.txt'), 'agent a\n');
    writeFileSync(sb.path('agent.txt'), 'agent file\n');
    chmodSync(sb.path('c.txt'), 0o600);
    const agent = tree(sb.dir);
    ok(sb.kizu(['rollback', 'snapshot', name, '--yes']), 'rollback snapshot');
    assert.deepEqual(log(sb).records[0].changed.map((c) => [c.path, c.sha256 === null]), [['a.txt', false], ['agent.txt', true], ['c.txt', false]]);
    // After the rollback: b.txt (not touched by it) and a.txt (written by it) are edited.
    writeFileSync(sb.path('b.txt'), 'b after\n');
    writeFileSync(sb.path('a.txt'), 'a after\n');
    const snap = safety(sb).slice(0, 12);
    const rec = log(sb).records[0];
    const mark = '; edited since the rollback: that edit is taken away too, kept in the safety snapshot)';
    const args = ['undo', ...(whole ? ['--whole-snapshot'] : [])];
    expectRun(sb, [...args, '--dry-run'], {
      status: 0,
      stdout:
        `undo: ${rec.description} (snapshot rollback of ${rec.time})\n` +
        (whole
          ? `restore ${sb.dir} to safety snapshot ${snap} (the whole working tree):\n`
          : `restore the 3 paths the rollback changed in ${sb.dir} from safety snapshot ${snap} (later edits to other files stay; --whole-snapshot restores all of it):\n`) +
        `  modify  a.txt  (changed since the snapshot; lines +1 -1${mark}\n` +
        '  create  agent.txt  (deleted since the snapshot; restored; lines +1)\n' +
        (whole ? `  modify  b.txt  (changed since the snapshot; lines +1 -1${mark}\n` : '') +
        '  mode    c.txt  (mode 644 -> 600)\n' +
        `${whole ? 4 : 3} paths would go back to what they held before the rollback; a safety snapshot of the current state is taken first (git kizu rollback snapshot <it> restores it; the name is printed).` +
        (whole ? ' 2 of them were edited since the rollback (marked above): those edits are taken away too, and kept in that safety snapshot.\n' : ' 1 of them was edited since the rollback (marked above): that edit is taken away too, and kept in that safety snapshot.\n'),
    });
    const u = ok(sb.kizu([...args, '--yes']), 'undo');
    assert.deepEqual(tree(sb.dir), { ...agent, 'b.txt': whole ? agent['b.txt'] : { mode: '644', hex: Buffer.from('b after\n').toString('hex') } });
    // What undo took away is in its own safety snapshot.
    const id = JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout).find((s) => s.name === redo(u.stdout)).id;
    assert.equal(sb.git('show', `${id}:a.txt`), 'a after\n');
    assert.equal(sb.git('show', `${id}:b.txt`), 'b after\n');
  }
});

test('undo of rollback branch brings the task back without touching the current worktree: edits made there after the rollback stay', () => {
  const sb = sandbox({ files: { 'a.txt': 'main\n' } });
  const wt = path.join(sb.base, 'wt');
  ok(sb.kizu(['task', 'start', 'feat', '--worktree', wt]), 'task start');
  writeFileSync(path.join(wt, 'u.txt'), 'task file\n');
  const task = tree(wt);
  ok(sb.kizu(['rollback', 'branch', 'feat', '--yes']), 'rollback branch');
  assert.deepEqual(log(sb).records[0].changed, []);
  writeFileSync(sb.path('a.txt'), 'main edited after the rollback\n');
  writeFileSync(sb.path('later.txt'), 'later\n');
  const main = tree(sb.dir);
  const rec = log(sb).records[0];
  expectRun(sb, ['undo', '--dry-run'], {
    status: 0,
    stdout:
      `undo: ${rec.description} (branch rollback of ${rec.time})\n` +
      `  branch  kizu/feat  (recreated at ${sb.git('rev-parse', `${rec.undo.trashRef}^`).trim().slice(0, 12)} from ${rec.undo.trashRef})\n` +
      `  worktree  ${wt}  (recreated with its saved files)\n` +
      `restore in ${sb.dir}: nothing (git kizu undo --whole-snapshot would restore all of it to safety snapshot ${rec.safetySnapshot.slice(0, 12)})\n`,
  });
  ok(sb.kizu(['undo', '--yes']), 'undo');
  assert.deepEqual(tree(wt), task);
  assert.deepEqual(tree(sb.dir), main);
  assert.deepEqual(log(sb).records, []);
});
