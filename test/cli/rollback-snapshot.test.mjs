// `git kizu snapshot`, `git kizu rollback snapshot` and `git kizu undo` through the real bin
// in real repositories: every kind of file put back exactly (bytes and permission bits), a
// failure midway undone, a file that became a directory, and the question on a terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { mutate, richRepo, snapshots } from '../helpers/snapshots.mjs';
import { promptTerminal } from '../helpers/terminal.mjs';

/** The user's state that snapshots and rollbacks must not touch. */
function userState(sb) {
  return {
    head: sb.git('rev-parse', 'HEAD'),
    index: readFileSync(sb.path('.git/index')).toString('hex'),
    stash: sb.git('stash', 'list'),
    refs: sb.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/stash'),
  };
}

test('snapshot + rollback snapshot + undo: untracked, deleted, renamed, executable, symlink, 0600, empty, CRLF, included and large files', () => {
  const sb = richRepo();
  const user = userState(sb);
  const t0 = tree(sb.dir);

  const s = ok(sb.kizu(['snapshot', '-m', 'before the agent']));
  const name = /^snapshot (\S+): 13 files \(\d+ read again\)\n$/.exec(s.stdout)?.[1];
  assert.ok(name, s.stdout);
  assert.equal(s.stderr, 'git-kizu: warning: not in the snapshot: big.bin: larger than snapshot.maxFileBytes (2000 > 1000 bytes)\n');
  const [info] = snapshots(sb);
  assert.equal(info.name, name);
  assert.equal(info.ref, `refs/kizu/snapshots/${name}`);
  assert.equal(info.kind, 'manual');
  assert.equal(info.message, 'before the agent');
  assert.equal(info.files, 13);
  assert.equal(info.head, user.head.trim());
  assert.deepEqual(info.skipped, [{ path: 'big.bin', reason: 'larger than snapshot.maxFileBytes (2000 > 1000 bytes)' }]);
  // The snapshot commit holds the exact bytes (raw CRLF, not git's normalised blob) and the ignored-but-included .env.
  assert.equal(sb.git('cat-file', 'blob', `${info.id}:crlf.txt`), 'one\r\ntwo\r\n');
  assert.equal(sb.git('cat-file', 'blob', `${info.id}:.env`), 'KEY=1\n');
  assert.equal(sb.git('cat-file', '-e', `${info.id}:build/out.log`, { allowFail: true }), '');
  assert.deepEqual(tree(sb.dir), t0, 'taking a snapshot changes no file');
  assert.deepEqual(userState(sb), user);

  mutate(sb);
  const t1 = tree(sb.dir);

  // Dry run: the exact plan, and nothing changes.
  const dry = ok(sb.kizu(['rollback', 'snapshot', name, '--dry-run', '--json']));
  const plan = JSON.parse(dry.stdout);
  assert.deepEqual(
    plan.changes.map((c) => [c.path, c.action]),
    [
      ['.env', 'modify'],
      ['a.txt', 'modify'],
      ['big.bin', 'kept'],
      ['crlf.txt', 'modify'],
      ['del.txt', 'create'],
      ['empty', 'modify'],
      ['link', 'modify'],
      ['new/dir/file.txt', 'delete'],
      ['notes.txt', 'create'],
      ['ren-new.txt', 'delete'],
      ['ren-old.txt', 'create'],
      ['run.sh', 'mode'],
      ['secret', 'mode'],
    ],
  );
  const byPath = Object.fromEntries(plan.changes.map((c) => [c.path, c]));
  assert.deepEqual([byPath.secret.current.mode, byPath.secret.target.mode], ['644', '600']);
  assert.deepEqual([byPath['run.sh'].current.mode, byPath['run.sh'].target.mode], ['644', '755']);
  assert.deepEqual([byPath.link.current.type, byPath.link.target.type], ['symlink', 'symlink']);
  assert.deepEqual([byPath['a.txt'].added, byPath['a.txt'].removed], [1, 1]);
  assert.equal(byPath['big.bin'].reason, 'the snapshot could not save it (larger than snapshot.maxFileBytes (2000 > 1000 bytes)); left as it is');
  assert.equal(plan.dryRun, true);
  assert.equal(plan.applied, false);
  assert.equal(plan.safetySnapshot, null);
  assert.deepEqual(tree(sb.dir), t1, 'dry run changes nothing');
  assert.equal(snapshots(sb).length, 1, 'dry run takes no safety snapshot');

  // No terminal and no --yes: the plan, exit 1, a hint; nothing changes.
  const refused = sb.kizu(['rollback', 'snapshot', name]);
  assert.equal(refused.status, 1);
  assert.ok(refused.stdout.startsWith(`rollback to snapshot ${name} (manual, `), refused.stdout);
  assert.ok(refused.stdout.includes('\n  mode    secret  (mode 644 -> 600)\n'), refused.stdout);
  assert.ok(refused.stdout.includes('\n  delete  new/dir/file.txt  (created since the snapshot; removed; lines -1)\n'), refused.stdout);
  assert.ok(refused.stdout.includes('12 paths would change; the changes made since the snapshot are taken away, but they stay recoverable'), refused.stdout);
  assert.equal(
    refused.stderr,
    'git-kizu: error: not rolling back without confirmation: no terminal to ask on\n' +
      `hint: check the plan above (git kizu rollback snapshot ${name} --dry-run shows it again), then run git kizu rollback snapshot ${name} --yes\n`,
  );
  assert.deepEqual(tree(sb.dir), t1);

  // The rollback.
  const r = ok(sb.kizu(['rollback', 'snapshot', name, '--yes']));
  const safety = /\nsafety snapshot: (\S+) \(undo with: git kizu undo\)\n$/.exec(r.stdout)?.[1];
  assert.ok(safety, r.stdout);
  assert.ok(r.stdout.includes(`\nrolled back 12 paths to snapshot ${name}\n`), r.stdout);
  assert.equal(
    r.stderr,
    'git-kizu: warning: kept big.bin: the snapshot could not save it (larger than snapshot.maxFileBytes (2000 > 1000 bytes)); left as it is\n',
  );
  const expected = { ...t0, 'build/out.log': t1['build/out.log'], 'big.bin': t1['big.bin'] };
  assert.deepEqual(tree(sb.dir), expected, 'the working tree is the snapshot again (ignored build/ and the large file left alone)');
  assert.deepEqual(userState(sb), user, 'index, HEAD, stash and branches untouched');
  const list = snapshots(sb);
  assert.deepEqual(list.map((x) => [x.name, x.kind]), [[safety, 'safety'], [name, 'manual']]);
  assert.equal(list[0].message, `before rollback to ${name}`);
  assert.equal(sb.git('cat-file', 'blob', `${list[0].id}:new/dir/file.txt`), 'new\n');

  // Undo: back to exactly the state before the rollback.
  const u = ok(sb.kizu(['undo', '--yes']));
  assert.ok(u.stdout.startsWith(`undo: rollback to snapshot ${name} (snapshot rollback of `), u.stdout);
  assert.ok(u.stdout.includes(`\nundone: rollback to snapshot ${name}\n`), u.stdout);
  assert.deepEqual(tree(sb.dir), t1);
  assert.deepEqual(userState(sb), user);
  const again = sb.kizu(['undo', '--yes']);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /^git-kizu: error: nothing to undo: no rollback is recorded\n/);
});

test('a write that would fail midway (a directory in the way holding an ignored file) is refused by the plan: nothing changed, nothing recorded for undo', () => {
  const sb = sandbox({ files: { '.gitignore': '*.log\n', 'a.txt': 'a1\n', x: 'x was a file\n' } });
  const name = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  writeFileSync(sb.path('a.txt'), 'a2\n');
  rmSync(sb.path('x'));
  sb.write({ 'x/tracked.txt': 'now a directory\n', 'x/keep.log': 'ignored, so not ours to delete\n' });
  const before = tree(sb.dir);
  const r = sb.kizu(['rollback', 'snapshot', name, '--yes']);
  assert.deepEqual(r, {
    status: 1,
    stdout: '',
    stderr:
      `git-kizu: error: cannot restore snapshot ${name}: x: a directory with other files is in the way (x/keep.log); nothing was changed\n` +
      'hint: move what is in the way aside (it is not part of the snapshot, so the restore does not remove it), then run the command again\n',
  });
  assert.deepEqual(tree(sb.dir), before);
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 1);
  assert.match(u.stderr, /nothing to undo/);
});

test('on a terminal rollback and undo ask first: "n" changes nothing, "y" goes ahead', async (t) => {
  const sb = sandbox({ files: { 'a.txt': 'one\n' } });
  const name = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  writeFileSync(sb.path('a.txt'), 'two\n');
  const no = promptTerminal(t, sb, ['rollback', 'snapshot', name]);
  await no.waitFor(`Roll back 1 path to snapshot ${name}? [y/N]`);
  no.answer('n');
  const noScreen = await no.done();
  assert.deepEqual(noScreen.slice(-2), ['cancelled: nothing was changed', 'EXIT=0']);
  assert.ok(noScreen.includes('  modify  a.txt  (changed since the snapshot; lines +1 -1)'), noScreen.join('\n'));
  assert.equal(sb.read('a.txt'), 'two\n');
  assert.equal(snapshots(sb).length, 1, 'no safety snapshot when cancelled');

  const yes = promptTerminal(t, sb, ['rollback', 'snapshot', name]);
  await yes.waitFor('[y/N]');
  yes.answer('y');
  const yesScreen = await yes.done();
  assert.equal(yesScreen.at(-1), 'EXIT=0');
  assert.ok(yesScreen.includes(`rolled back 1 path to snapshot ${name}`), yesScreen.join('\n'));
  assert.equal(sb.read('a.txt'), 'one\n');

  const undo = promptTerminal(t, sb, ['undo']);
  await undo.waitFor('Undo it? [y/N]');
  undo.answer('y');
  assert.equal((await undo.done()).at(-1), 'EXIT=0');
  assert.equal(sb.read('a.txt'), 'two\n');
});

test('rollback snapshot and undo when a file became a directory, and back: exact tree, exit 0', () => {
  const sb = sandbox({ files: { base: 'base\n' } });
  const take = (m) => JSON.parse(ok(sb.kizu(['snapshot', '-m', m, '--json'])).stdout).name;
  writeFileSync(sb.path('x'), 'xfile\n');
  const a = take('A');
  const tA = tree(sb.dir);
  rmSync(sb.path('x'));
  sb.write({ 'x/a': 'a\n', 'x/y/b': 'b\n' });
  const b = take('B');
  const tB = tree(sb.dir);
  rmSync(sb.path('x'), { recursive: true });
  writeFileSync(sb.path('x'), 'xfile2\n');
  const tC = tree(sb.dir);
  ok(sb.kizu(['rollback', 'snapshot', b, '--yes']), 'rollback to the directory');
  assert.deepEqual(tree(sb.dir), tB);
  ok(sb.kizu(['undo', '--yes']), 'undo back to the file');
  assert.deepEqual(tree(sb.dir), tC);
  ok(sb.kizu(['rollback', 'snapshot', a, '--yes']), 'rollback to the first file');
  assert.deepEqual(tree(sb.dir), tA);
  ok(sb.kizu(['rollback', 'snapshot', b, '--yes']), 'file to directory again');
  assert.deepEqual(tree(sb.dir), tB);
});

test('a directory that was a symbolic link to outside the repository: rollback snapshot and undo check the repository only (lstat on every path component), exit 0, the outside never touched', () => {
  const sb = sandbox({ files: { a: 'a\n' } });
  const out = mkdtempSync(path.join(tmpdir(), 'kizu-outside-'));
  mkdirSync(path.join(out, 'o2', 'y'), { recursive: true });
  writeFileSync(path.join(out, 'x'), 'OUT\n');
  writeFileSync(path.join(out, 'o2', 'y', 'f'), 'OUT-f\n');
  const outside = tree(out);
  // A: d and e are links to directories outside the repository, which hold d/x (a file) and e/y (a directory).
  symlinkSync(out, sb.path('d'));
  symlinkSync(path.join(out, 'o2'), sb.path('e'));
  const a = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout).name;
  const tA = tree(sb.dir);
  // B: real directories in their place, with the user's files d/x and e/y.
  rmSync(sb.path('d'));
  rmSync(sb.path('e'));
  sb.write({ 'd/x': 'MINE\n', 'e/y': 'MINE-y\n' });
  const tB = tree(sb.dir);

  const r = ok(sb.kizu(['rollback', 'snapshot', a, '--yes']), 'rollback to the links');
  assert.equal(r.stderr, '');
  assert.deepEqual(tree(sb.dir), tA);
  assert.deepEqual(tree(out), outside);
  // Undo plans e/y as a file although e/y through the link is a directory, and checks d/x and e/y in the repository.
  const u = ok(sb.kizu(['undo', '--yes']), 'undo back to the directories');
  assert.equal(u.stderr, '');
  assert.deepEqual(tree(sb.dir), tB);
  assert.deepEqual(tree(out), outside);
  // And the way back once more, from a plain rollback to a snapshot of B.
  const b = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout).name;
  ok(sb.kizu(['rollback', 'snapshot', a, '--yes']), 'rollback to the links again');
  assert.deepEqual(tree(sb.dir), tA);
  ok(sb.kizu(['rollback', 'snapshot', b, '--yes']), 'rollback to the directories');
  assert.deepEqual(tree(sb.dir), tB);
  ok(sb.kizu(['undo', '--yes']), 'undo back to the links');
  assert.deepEqual(tree(sb.dir), tA);
  assert.deepEqual(tree(out), outside);
});
