// What `git kizu undo` leaves in the edit journal: the undo of a `rollback patch R` is itself
// a journal entry that rolls back R (as `git kizu rollback patch R` would record), so the
// journal shows the change back in effect and rolling back the entries R had undone works
// afterwards; the undo of a `rollback snapshot` changes files outside the journal both ways,
// so the journal's picture is what it was before that rollback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun, kizuOk, ok } from '../helpers/expect.mjs';
import { TEN, agentEdit, entries, noMs, overlapRefusal } from '../helpers/journal.mjs';

const log = (sb) => JSON.parse(readFileSync(sb.path('.git/kizu/rollbacks.json'), 'utf8'));

test('undo of rollback patch R records an entry that rolls back R: the journal shows the change in effect again, rollback patch --cascade a and rollback patch b a work', () => {
  const setup = () => {
    const sb = sandbox({ files: { 'f.txt': TEN } });
    const a = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
    const b = agentEdit(sb, 'f.txt', 'L5\n', 'LL5\n');
    ok(sb.kizu(['rollback', 'patch', '--yes', b.shortId]), 'rollback patch b');
    assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
    const rb = entries(sb).at(-1);
    const rec = log(sb).records[0];
    assert.equal(rec.journalEntry, rb.id);
    const out = kizuOk(sb, ['undo', '--yes']);
    assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'LL5\n'));
    const u = entries(sb).at(-1);
    const redo = /\nsafety snapshot: (\S+) \(to redo: /.exec(out)[1];
    assert.equal(
      out,
      `undo: rollback patch ${b.shortId} (f.txt) (patch rollback of ${rec.time})\n` +
        `restore the 1 path the rollback changed in ${sb.dir} from safety snapshot ${rec.safetySnapshot.slice(0, 12)} (later edits to other files stay; --whole-snapshot restores all of it):\n` +
        '  modify  f.txt  (changed since the snapshot; lines +1 -1)\n' +
        '1 path would go back to what it held before the rollback; a safety snapshot of the current state is taken first (git kizu rollback snapshot <it> restores it; the name is printed).\n' +
        `undone: rollback patch ${b.shortId} (f.txt)\n` +
        `journal entry ${u.shortId} records this undo: it rolls back ${rb.shortId}, so what ${rb.shortId} rolled back is in effect again\n` +
        `safety snapshot: ${redo} (to redo: git kizu rollback snapshot ${redo})\n`,
    );
    return { sb, a, b, rb, u };
  };
  const { sb, a, b, rb, u } = setup();
  assert.equal(u.tool, 'undo');
  assert.deepEqual(u.rollbackOf, [rb.id]);
  assert.deepEqual(u.files, [{ path: 'f.txt', before: rb.files[0].after, after: rb.files[0].before, added: 1, removed: 1, mode: 0o644 }]);
  expectRun(sb, ['journal'], {
    status: 0,
    stdout:
      `${a.shortId}  ${noMs(a.time)}  Edit f.txt  +1 -1  session sess-1\n` +
      `${b.shortId}  ${noMs(b.time)}  Edit f.txt  +1 -1  rolled back by ${rb.shortId}  session sess-1\n` +
      `${rb.shortId}  ${noMs(rb.time)}  rollback f.txt  +1 -1  rolled back by ${u.shortId}  undoes ${b.shortId}\n` +
      `${u.shortId}  ${noMs(u.time)}  undo f.txt  +1 -1  undoes ${rb.shortId}\n`,
  });
  // b is in effect again: it is named as overlapping (not "edits not in the journal"), and --cascade takes it.
  expectRun(sb, ['rollback', 'patch', '--yes', a.shortId], {
    status: 1,
    stderr: overlapRefusal(a, b),
  });
  const both = (x, y) => [`rolled back ${y.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`, `rolled back ${x.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`];
  const lines = (r) => r.stdout.split('\n').slice(0, 2);
  assert.deepEqual(lines(ok(sb.kizu(['rollback', 'patch', '--yes', '--cascade', a.shortId]), '--cascade a')), both(a, b));
  assert.equal(sb.read('f.txt'), TEN);
  const again = setup();
  assert.deepEqual(lines(ok(again.sb.kizu(['rollback', 'patch', '--yes', again.b.shortId, again.a.shortId]), 'b a')), both(again.a, again.b));
  assert.equal(again.sb.read('f.txt'), TEN);
});

test('undo of rollback patch: rolling back the undo entry rolls back again; undo --json names the entry', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const a = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  ok(sb.kizu(['rollback', 'patch', '--yes', a.shortId]));
  const rb = entries(sb).at(-1);
  const u = JSON.parse(kizuOk(sb, ['undo', '--yes', '--json']));
  const ue = entries(sb).at(-1);
  assert.deepEqual(u.journalEntry, { id: ue.id, short: ue.shortId, undoes: rb.shortId });
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
  const out = kizuOk(sb, ['rollback', 'patch', '--yes', ue.shortId]).split('\n');
  assert.equal(out[0], `rolled back ${ue.shortId} (undo): restored f.txt (unchanged since, put back exactly)`);
  assert.equal(sb.read('f.txt'), TEN);
  // a counts as rolled back again: nothing to do.
  expectRun(sb, ['rollback', 'patch', '--yes', a.shortId], {
    status: 0,
    stdout: `nothing to do for ${a.shortId} (Edit): f.txt already holds its content from before it\nnothing to write: the files already hold their content from before these entries\n`,
  });
});

test('undo of rollback snapshot: files change outside the journal both ways, nothing is recorded, and the entries roll back as before the rollback', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const name = JSON.parse(kizuOk(sb, ['snapshot', '--json'])).name;
  const a = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  ok(sb.kizu(['rollback', 'snapshot', name, '--yes']));
  assert.equal(sb.read('f.txt'), TEN);
  ok(sb.kizu(['undo', '--yes']));
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
  assert.deepEqual(entries(sb).map((e) => e.id), [a.id]);
  expectRun(sb, ['journal'], { status: 0, stdout: `${a.shortId}  ${noMs(a.time)}  Edit f.txt  +1 -1  session sess-1\n` });
  assert.equal(kizuOk(sb, ['rollback', 'patch', '--yes', a.shortId]).split('\n')[0], `rolled back ${a.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`);
  assert.equal(sb.read('f.txt'), TEN);
});

test('undo of rollback patch: a record written before the journal entry id was kept finds the rollback entry by its time; a journal that cannot be written is a warning, the files are restored all the same', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const a = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  ok(sb.kizu(['rollback', 'patch', '--yes', a.shortId]));
  const rb = entries(sb).at(-1);
  const file = sb.path('.git/kizu/rollbacks.json');
  const old = log(sb);
  delete old.records[0].journalEntry;
  writeFileSync(file, JSON.stringify(old, null, 2) + '\n');
  ok(sb.kizu(['undo', '--yes']));
  assert.deepEqual(entries(sb).at(-1).rollbackOf, [rb.id]);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));

  // The journal ref at a blob: undo restores, then says the journal entry could not be written.
  ok(sb.kizu(['rollback', 'patch', '--yes', a.shortId]));
  const tip = sb.git('rev-parse', 'refs/kizu/journal').trim();
  const blobId = sb.git('hash-object', '-w', '--stdin', { input: 'not a commit\n' }).trim();
  sb.git('update-ref', 'refs/kizu/journal', blobId);
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
  assert.equal(
    u.stderr,
    `git-kizu: warning: the undo is done but could not be recorded in the journal: refs/kizu/journal points at a blob (${blobId}), not a commit; git-kizu reads and writes nothing through it\n`,
  );
  assert.equal(log(sb).records.length, 0);
  sb.git('update-ref', 'refs/kizu/journal', tip);
});
