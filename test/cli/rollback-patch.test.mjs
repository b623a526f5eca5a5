// `git kizu rollback patch` through the real bin: rolling journal entries back when the file
// is unchanged since, when later edits elsewhere are kept (hunks reversed by context), by a
// three-way merge, refusing overlaps (naming them; --cascade), created files, and entries
// recorded in another worktree. Each rollback is itself an entry and `git kizu undo` reverses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { TEN, agentEdit, agentWrite, entries, noMs } from '../helpers/journal.mjs';

const SNAP = /^safety snapshot (\S+) was taken first; git kizu undo reverses this rollback$/;

/** Runs a rollback that succeeds; checks stdout: `lines`, the journal line, the snapshot line. Returns the rollback entry. */
function rollbackOk(sb, args, lines) {
  const r = sb.kizu(['rollback', 'patch', '--yes', ...args]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = r.stdout.split('\n');
  assert.equal(out.pop(), '');
  const rb = entries(sb).at(-1);
  assert.deepEqual(out.slice(0, -2), lines);
  assert.equal(out.at(-2), `journal entry ${rb.shortId} records this rollback; git kizu rollback patch ${rb.shortId} re-applies it`);
  assert.match(out.at(-1), SNAP);
  return rb;
}

test('rollback patch: a file unchanged since gets its old bytes back exactly; --dry-run writes nothing; the rollback is itself an entry; git kizu undo reverses it', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'five\nFIVE\n');
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  expectRun(sb, ['rollback', 'patch', e.shortId, '--dry-run'], {
    status: 0,
    stdout: `would roll back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\ndry run: 1 file would change; nothing written\n`,
  });
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  const rb = rollbackOk(sb, [e.id.slice(0, 6)], [`rolled back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('f.txt'), TEN);
  assert.deepEqual(rb.rollbackOf, [e.id]);
  assert.deepEqual(rb.files, [{ path: 'f.txt', before: e.files[0].after, after: e.files[0].before, added: 1, removed: 2 }]);
  expectRun(sb, ['journal'], {
    status: 0,
    stdout:
      `${e.shortId}  ${noMs(e.time)}  Edit f.txt  +2 -1  rolled back by ${rb.shortId}  session sess-1\n` +
      `${rb.shortId}  ${noMs(rb.time)}  rollback f.txt  +1 -2  undoes ${e.shortId}\n`,
  });
  // Rolled back already: nothing to do, nothing written, no snapshot.
  expectRun(sb, ['rollback', 'patch', '--yes', e.shortId], {
    status: 0,
    stdout: `nothing to do for ${e.shortId} (Edit): f.txt already holds its content from before it\nnothing to write: the files already hold their content from before these entries\n`,
  });
  // git kizu undo reverses the rollback (its safety snapshot); then the entry can be rolled back again.
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  const rb2 = rollbackOk(sb, [e.shortId], [`rolled back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('f.txt'), TEN);
  // Rolling back the rollback re-applies the entry.
  rollbackOk(sb, [rb2.shortId], [`rolled back ${rb2.shortId} (rollback): restored f.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  // Ids: unknown, not hex, none.
  expectRun(sb, ['rollback', 'patch', '--yes', 'ffff0000'], { status: 1, stderr: 'git-kizu: error: no journal entry ffff0000\nhint: list the entries with git kizu journal\n' });
  expectRun(sb, ['rollback', 'patch', '--yes', 'xyz'], { status: 2, stderr: 'git-kizu: error: not a journal entry id: "xyz"\nhint: entry ids are hex (at least 4 digits); see git kizu journal\n' });
});

test('rollback patch: a later edit elsewhere in the file is kept (hunks reversed by context), also when it moved the lines', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e1 = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  agentEdit(sb, 'f.txt', 'l9\n', 'L9\n');
  writeFileSync(sb.path('f.txt'), 'new first line\n' + sb.read('f.txt')); // a human edit above: everything moves down
  rollbackOk(sb, [e1.shortId], [`rolled back ${e1.shortId} (Edit): reversed 1 hunk in f.txt (later edits kept)`]);
  assert.equal(sb.read('f.txt'), 'new first line\n' + TEN.replace('l9\n', 'L9\n'));
  // A hunk that touched line 1 stays anchored at the start (git-apply(1) does the same): with
  // a line added above it, the reversal falls back to the three-way merge, which keeps it.
  const e3 = agentEdit(sb, 'f.txt', 'new first line\nl1\n', 'new first line\nL1\n');
  writeFileSync(sb.path('f.txt'), 'another top line\n' + sb.read('f.txt'));
  rollbackOk(sb, [e3.shortId], [`rolled back ${e3.shortId} (Edit): merged the reversal into f.txt (three-way merge; later edits kept)`]);
  assert.equal(sb.read('f.txt'), 'another top line\nnew first line\n' + TEN.replace('l9\n', 'L9\n'));
});

test('rollback patch: where the context changed, a three-way merge keeps both', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  writeFileSync(sb.path('f.txt'), sb.read('f.txt').replace('l7\n', 'human 7\n')); // inside the hunk's context
  rollbackOk(sb, [e.shortId], [`rolled back ${e.shortId} (Edit): merged the reversal into f.txt (three-way merge; later edits kept)`]);
  assert.equal(sb.read('f.txt'), TEN.replace('l7\n', 'human 7\n'));
});

test('rollback patch: an overlapping later entry is named and nothing is written; --cascade undoes both, newest first', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e1 = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  const e2 = agentEdit(sb, 'f.txt', 'l9\n', 'L9\n'); // does not overlap
  const e3 = agentEdit(sb, 'f.txt', 'L5\n', 'LL5\n'); // overlaps e1
  const now = sb.read('f.txt');
  const line = (e, c) => `    ${e.shortId}  ${noMs(e.time)}  Edit f.txt  ${c}`;
  for (const dry of [[], ['--dry-run']]) {
    expectRun(sb, ['rollback', 'patch', e1.shortId, ...dry], {
      status: 1,
      stderr:
        `git-kizu: error: cannot roll back ${e1.shortId} (Edit f.txt): its change conflicts with what changed in f.txt since\n` +
        '  overlapping later changes:\n' +
        line(e3, '+1 -1') +
        '\n' +
        `hint: roll the overlapping entries back first (git kizu rollback patch ${e3.shortId} ${e1.shortId}), or add --cascade to undo them newest first\n`,
    });
  }
  assert.equal(sb.read('f.txt'), now);
  assert.equal(entries(sb).length, 3);
  expectRun(sb, ['rollback', 'patch', '--cascade', '--dry-run', e1.shortId], {
    status: 0,
    stdout:
      `would roll back ${e3.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\n` +
      `would roll back ${e1.shortId} (Edit): reversed 1 hunk in f.txt (later edits kept)\n` +
      'dry run: 1 file would change; nothing written\n',
  });
  const rb = rollbackOk(sb, ['--cascade', e1.shortId], [
    `rolled back ${e3.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`,
    `rolled back ${e1.shortId} (Edit): reversed 1 hunk in f.txt (later edits kept)`,
  ]);
  assert.equal(sb.read('f.txt'), TEN.replace('l9\n', 'L9\n'));
  assert.deepEqual(rb.rollbackOf, [e3.id, e1.id]);
  assert.equal(entries(sb).find((e) => e.id === e2.id).rolledBackBy, null);
});

test('rollback patch: an overlapping edit made outside the journal is named; --cascade cannot undo it', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  writeFileSync(sb.path('f.txt'), sb.read('f.txt').replace('L5\n', 'human\n'));
  for (const c of [[], ['--cascade']]) {
    expectRun(sb, ['rollback', 'patch', '--yes', ...c, e.shortId], {
      status: 1,
      stderr:
        `git-kizu: error: cannot roll back ${e.shortId} (Edit f.txt): its change conflicts with what changed in f.txt since\n` +
        '  overlapping later changes:\n' +
        `    edits after ${e.shortId} that are not in the journal\n` +
        'hint: the overlapping change is not in the journal: edit the file by hand (git kizu undo and git kizu revert can help)\n',
    });
  }
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'human\n'));
});

test('rollback patch: a created file is deleted only while unchanged; a Write over an existing file restores it', () => {
  const sb = sandbox({ files: { 'keep.txt': 'original\n' } });
  const c1 = agentWrite(sb, 'new/one.txt', 'one\n');
  rollbackOk(sb, [c1.shortId], [`rolled back ${c1.shortId} (Write): deleted new/one.txt (it created the file, unchanged since)`]);
  assert.ok(!existsSync(sb.path('new')));

  const c2 = agentWrite(sb, 'two.txt', 'two\n');
  writeFileSync(sb.path('two.txt'), 'two\nhuman line\n');
  expectRun(sb, ['rollback', 'patch', '--yes', c2.shortId], {
    status: 1,
    stderr:
      `git-kizu: error: cannot roll back ${c2.shortId} (Write two.txt): it created two.txt, which changed since; a created file is deleted only while it holds exactly what the entry wrote\n` +
      '  overlapping later changes:\n' +
      `    edits after ${c2.shortId} that are not in the journal\n` +
      'hint: the overlapping change is not in the journal: edit the file by hand (git kizu undo and git kizu revert can help)\n',
  });
  assert.equal(sb.read('two.txt'), 'two\nhuman line\n');

  // Changed by a later agent edit instead: --cascade undoes that edit, then deletes the file.
  const c3 = agentWrite(sb, 'three.txt', 'three\n');
  const e3 = agentEdit(sb, 'three.txt', 'three\n', 'three\nmore\n');
  expectRun(sb, ['rollback', 'patch', '--yes', c3.shortId], {
    status: 1,
    stderr:
      `git-kizu: error: cannot roll back ${c3.shortId} (Write three.txt): it created three.txt, which changed since; a created file is deleted only while it holds exactly what the entry wrote\n` +
      '  overlapping later changes:\n' +
      `    ${e3.shortId}  ${noMs(e3.time)}  Edit three.txt  +1 -0\n` +
      `hint: roll the overlapping entries back first (git kizu rollback patch ${e3.shortId} ${c3.shortId}), or add --cascade to undo them newest first\n`,
  });
  rollbackOk(sb, ['--cascade', c3.shortId], [
    `rolled back ${e3.shortId} (Edit): restored three.txt (unchanged since, put back exactly)`,
    `rolled back ${c3.shortId} (Write): deleted three.txt (it created the file, unchanged since)`,
  ]);
  assert.ok(!existsSync(sb.path('three.txt')));

  const w = agentWrite(sb, 'keep.txt', 'replaced entirely\n');
  rollbackOk(sb, [w.shortId], [`rolled back ${w.shortId} (Write): restored keep.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('keep.txt'), 'original\n');
  // Even after later edits, a Write over an existing file is never a deletion.
  const w2 = agentWrite(sb, 'keep.txt', 'a\nb\nc\nd\ne\nf\ng\nh\n');
  agentEdit(sb, 'keep.txt', 'h\n', 'H\n');
  const r = sb.kizu(['rollback', 'patch', '--yes', w2.shortId]);
  assert.equal(r.status, 1);
  assert.ok(existsSync(sb.path('keep.txt')));
  rollbackOk(sb, ['--cascade', w2.shortId], [
    `rolled back ${entries(sb).at(-1).shortId} (Edit): restored keep.txt (unchanged since, put back exactly)`,
    `rolled back ${w2.shortId} (Write): restored keep.txt (unchanged since, put back exactly)`,
  ]);
  assert.equal(sb.read('keep.txt'), 'original\n');
});

test('rollback patch refuses an entry recorded in another worktree (the journal is shared), naming where to run it; there it works; journal names that worktree', () => {
  const sb = sandbox({ files: { 'n.txt': '1\n2\n3\n4\n5\n' } });
  const wt = path.join(sb.base, 'linked');
  sb.git('worktree', 'add', '-q', '-b', 't', wt);
  const wtReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', wt]).stdout.trim();
  const patch = '--- a/n.txt\n+++ b/n.txt\n@@ -2,3 +2,3 @@\n 2\n-3\n+THREE\n 4\n';
  assert.equal(sb.kizu(['patch', 'apply', '--yes', '-'], { cwd: wt, input: patch }).status, 0);
  writeFileSync(sb.path('n.txt'), '1\n2\nTHREE\n4\n5\n'); // the same fix by hand in the main worktree
  const [entry] = JSON.parse(sb.kizu(['journal', '--json']).stdout);
  // The listing names the worktree of an entry made in another one, and only then.
  assert.deepEqual([entry.worktree, entry.otherWorktree], [wtReal, true]);
  expectRun(sb, ['journal'], { status: 0, stdout: `${entry.shortId}  ${noMs(entry.time)}  patch-apply n.txt  +1 -1  worktree ${wtReal}\n` });
  expectRun(sb, ['journal'], { cwd: wt, status: 0, stdout: `${entry.shortId}  ${noMs(entry.time)}  patch-apply n.txt  +1 -1\n` });
  assert.equal(JSON.parse(sb.kizu(['journal', '--json'], { cwd: wt }).stdout)[0].otherWorktree, false);
  const r = sb.kizu(['rollback', 'patch', '--yes', entry.shortId]);
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [1, '', `git-kizu: error: ${entry.shortId} was recorded in another worktree (${wtReal}), not in this one (${realpathSync(sb.dir)})\nhint: roll it back there: cd ${wtReal} && git kizu rollback patch ${entry.shortId}; nothing was changed\n`],
  );
  assert.equal(sb.read('n.txt'), '1\n2\nTHREE\n4\n5\n');
  assert.equal(sb.kizu(['rollback', 'patch', '--yes', entry.shortId], { cwd: wt }).status, 0);
  assert.equal(readFileSync(path.join(wt, 'n.txt'), 'utf8'), '1\n2\n3\n4\n5\n');
});

test('rollback patch --dry-run of edits that cancel out: each step is listed, and the summary says why no file would change', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const a = agentEdit(sb, 'f.txt', 'l5\n', 'five\n');
  const b = agentEdit(sb, 'f.txt', 'five\n', 'l5\n');
  assert.equal(sb.read('f.txt'), TEN);
  expectRun(sb, ['rollback', 'patch', '--dry-run', a.shortId, b.shortId], {
    status: 0,
    stdout:
      `would roll back ${b.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\n` +
      `would roll back ${a.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\n` +
      'dry run: 0 files would change (together these steps leave every file as it is now); nothing written\n',
  });
  assert.equal(sb.read('f.txt'), TEN);
});
