// git kizu snapshot / rollback snapshot / the UserPromptSubmit hook, through the real bin in
// real repositories. Files are compared by exact bytes and exact permission bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, hook, spawn, BIN } from './helpers.mjs';
import { tree, terminal } from './snapshot-helpers.mjs';

function ok(r, what = 'command') {
  assert.equal(r.status, 0, `${what} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** The user's state that snapshots and rollbacks must not touch. */
function userState(sb) {
  return {
    head: sb.git('rev-parse', 'HEAD'),
    index: readFileSync(sb.path('.git/index')).toString('hex'),
    stash: sb.git('stash', 'list'),
    refs: sb.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/stash'),
  };
}

function snapshots(sb) {
  return JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout);
}

const CONFIG = JSON.stringify({ snapshot: { include: ['.env'], maxFileBytes: 1000 } });

/** A repository with every kind of file; the user has a stash entry and staged nothing. */
function richRepo() {
  const sb = sandbox({
    files: {
      '.gitattributes': '* text=auto\n',
      '.gitignore': 'build/\n.env\n',
      '.kizurc.json': CONFIG,
      'a.txt': 'alpha\n',
      'del.txt': 'delete me\n',
      'ren-old.txt': 'rename me\n',
      'run.sh': '#!/bin/sh\necho hi\n',
      'crlf.txt': 'one\r\ntwo\r\n',
      empty: '',
      secret: 'token\n',
    },
    commit: false,
  });
  chmodSync(sb.path('run.sh'), 0o755);
  symlinkSync('a.txt', sb.path('link'));
  sb.git('config', 'core.autocrlf', 'true');
  sb.git('add', '-A');
  sb.git('commit', '-q', '-m', 'initial');
  // A stash entry the snapshot code must leave alone.
  writeFileSync(sb.path('a.txt'), 'stashed change\n');
  sb.git('stash', '-q');
  // What git does not keep: the CRLF bytes in the working tree, a 0600 file.
  writeFileSync(sb.path('crlf.txt'), 'one\r\ntwo\r\n');
  chmodSync(sb.path('secret'), 0o600);
  sb.write({ 'notes.txt': 'untracked\n', '.env': 'KEY=1\n', 'build/out.log': 'log1\n', 'big.bin': 'x'.repeat(2000) });
  return sb;
}

function mutate(sb) {
  writeFileSync(sb.path('a.txt'), 'alpha changed\n');
  rmSync(sb.path('del.txt'));
  renameSync(sb.path('ren-old.txt'), sb.path('ren-new.txt'));
  chmodSync(sb.path('run.sh'), 0o644);
  chmodSync(sb.path('secret'), 0o644);
  rmSync(sb.path('link'));
  symlinkSync('crlf.txt', sb.path('link'));
  writeFileSync(sb.path('crlf.txt'), 'one\r\nTWO\r\n');
  writeFileSync(sb.path('empty'), 'now full\n');
  sb.write({ 'new/dir/file.txt': 'new\n' });
  rmSync(sb.path('notes.txt'));
  writeFileSync(sb.path('.env'), 'KEY=2\n');
  writeFileSync(sb.path('build/out.log'), 'log2\n');
  writeFileSync(sb.path('big.bin'), 'y'.repeat(3000));
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
      `hint: check the plan above, then run git kizu rollback snapshot ${name} --yes\n`,
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

test('the private index: the second snapshot of a 20,000-file repository re-reads only the changed file', () => {
  const files = {};
  for (let i = 0; i < 20000; i++) files[`d${i % 400}/f${i}.txt`] = `file ${i}\n`;
  const sb = sandbox({ files });
  // Stat data from the past, so no entry is "racily clean" (git would re-read those).
  const past = new Date('2020-01-01T00:00:00Z');
  for (const f of Object.keys(files)) utimesSync(sb.path(f), past, past);
  // Let the ctime of those utimes calls age past the second the snapshot starts in (the
  // snapshot lstat's files whose ctime falls in that second itself; see capture.ts).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
  sb.git('config', 'core.trustctime', 'false');
  const userIndex = readFileSync(sb.path('.git/index'));

  const first = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout);
  assert.equal(first.files, 20000);
  assert.ok(existsSync(sb.path('.git/kizu/snapshot/index')), 'private index under .git/kizu/snapshot/');

  // One real change (new size), and one file whose bytes change behind git's back: same size,
  // same mtime (ctime is not trusted here), so only a re-read would notice.
  writeFileSync(sb.path('d1/f1.txt'), 'file 1 changed\n');
  writeFileSync(sb.path('d7/f7.txt'), 'FILE 7\n');
  utimesSync(sb.path('d7/f7.txt'), past, past);
  const second = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout);
  assert.equal(second.hashed, 1, 'only the changed file was handed to git update-index');
  assert.equal(sb.git('cat-file', 'blob', `${second.id}:d1/f1.txt`), 'file 1 changed\n');
  assert.equal(sb.git('cat-file', 'blob', `${second.id}:d7/f7.txt`), 'file 7\n', 'unchanged stat data: taken from the stat cache, not re-read');

  // Once its stat data changes, the file is read again.
  utimesSync(sb.path('d7/f7.txt'), new Date('2021-01-01T00:00:00Z'), new Date('2021-01-01T00:00:00Z'));
  const third = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout);
  assert.equal(third.hashed, 1);
  assert.equal(sb.git('cat-file', 'blob', `${third.id}:d7/f7.txt`), 'FILE 7\n');
  assert.ok(readFileSync(sb.path('.git/index')).equals(userIndex), "the user's index is untouched");
});

test('UserPromptSubmit hook: nothing on stdout, a prompt snapshot; an unchanged tree reuses it', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const payload = { session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: '\n  fix the login bug  \nand more\n' };
  const r = hook(sb, 'user-prompt-submit', payload);
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  let list = snapshots(sb);
  assert.equal(list.length, 1);
  assert.deepEqual([list[0].kind, list[0].message, list[0].files], ['prompt', 'fix the login bug', 1]);

  const same = hook(sb, 'user-prompt-submit', { ...payload, prompt: 'next prompt' });
  assert.deepEqual([same.status, same.stdout, same.stderr], [0, '', '']);
  assert.equal(snapshots(sb).length, 1, 'nothing changed: no new snapshot');

  writeFileSync(sb.path('a.txt'), 'b\n');
  const changed = hook(sb, 'user-prompt-submit', { ...payload, prompt: 'third' });
  assert.deepEqual([changed.status, changed.stdout, changed.stderr], [0, '', '']);
  list = snapshots(sb);
  assert.deepEqual(list.map((x) => x.message), ['third', 'fix the login bug']);
  assert.equal(sb.git('cat-file', 'blob', `${list[0].id}:a.txt`), 'b\n');

  // The same through the script init installs.
  ok(sb.kizu(['init', '--no-pre-commit']));
  writeFileSync(sb.path('a.txt'), 'c\n');
  const viaScript = sb.run(sb.path('.claude/hooks/kizu-hook.sh'), ['user-prompt-submit'], { input: JSON.stringify({ ...payload, prompt: 'via script' }) });
  assert.deepEqual([viaScript.status, viaScript.stdout, viaScript.stderr], [0, '', '']);
  assert.equal(snapshots(sb)[0].message, 'via script');
});

test('UserPromptSubmit hook: a bad payload or no repository → exit 0, nothing on stdout, one stderr line', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  for (const bad of ['', 'not json', '[]', JSON.stringify({ cwd: sb.dir, prompt: 5 }), JSON.stringify({ cwd: sb.dir, hook_event_name: 'Stop' })]) {
    const r = hook(sb, 'user-prompt-submit', bad);
    assert.equal(r.status, 0, bad);
    assert.equal(r.stdout, '', bad);
    assert.match(r.stderr, /^git-kizu: ignored a bad hook payload: [^\n]+\n$/, bad);
  }
  const outside = sandbox({ init: false });
  const r = hook(outside, 'user-prompt-submit', { cwd: outside.dir, hook_event_name: 'UserPromptSubmit', prompt: 'x' });
  assert.deepEqual([r.status, r.stdout], [0, '']);
  assert.equal(r.stderr, `git-kizu: snapshot skipped because of an error: not inside a git repository: ${outside.dir}\n`);
  assert.equal(snapshots(sb).length, 0);
});

test('a failure midway puts back what the rollback had changed; nothing is recorded for undo', () => {
  const sb = sandbox({ files: { '.gitignore': '*.log\n', 'a.txt': 'a1\n', x: 'x was a file\n' } });
  const name = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  writeFileSync(sb.path('a.txt'), 'a2\n');
  rmSync(sb.path('x'));
  sb.write({ 'x/tracked.txt': 'now a directory\n', 'x/keep.log': 'ignored, so not ours to delete\n' });
  const before = tree(sb.dir);
  const r = sb.kizu(['rollback', 'snapshot', name, '--yes']);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.ok(r.stderr.includes('git-kizu: warning: x: a directory with other files is in the way\n'), r.stderr);
  assert.match(r.stderr, /git-kizu: error: rollback failed at x; everything it had changed was put back\nhint: the state before the attempt is also in safety snapshot \S+; fix the cause and run the command again\n$/);
  assert.deepEqual(tree(sb.dir), before, 'a.txt and x/tracked.txt are back');
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 1);
  assert.match(u.stderr, /nothing to undo/);
});

test('retention keeps snapshot.keep snapshots, never the safety snapshot the undo log needs; drop refuses it without --force', () => {
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ snapshot: { keep: 2 } }), 'a.txt': '0\n' } });
  const take = () => /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  const a = take();
  writeFileSync(sb.path('a.txt'), '1\n');
  const safety = /\nsafety snapshot: (\S+) /.exec(ok(sb.kizu(['rollback', 'snapshot', a, '--yes'])).stdout)[1];
  const names = [];
  for (let i = 2; i < 6; i++) {
    writeFileSync(sb.path('a.txt'), `${i}\n`);
    names.push(take());
  }
  // Two kept: the newest and the protected safety snapshot (it counts towards snapshot.keep).
  assert.deepEqual(snapshots(sb).map((x) => x.name), [names[3], safety]);
  const refused = sb.kizu(['snapshot', 'drop', safety]);
  assert.equal(refused.status, 1);
  assert.equal(
    refused.stderr,
    `git-kizu: error: snapshot ${safety} is the safety snapshot of a rollback that git kizu undo can still reverse\n` +
      'hint: pass --force to drop it anyway (undo then cannot restore it)\n',
  );
  assert.equal(ok(sb.kizu(['snapshot', 'drop', names[3]])).stdout, `dropped ${names[3]}\n`);
  const unknown = sb.kizu(['snapshot', 'drop', 'nope']);
  assert.equal(unknown.status, 1);
  assert.equal(unknown.stderr, 'git-kizu: error: no snapshot "nope"\nhint: list snapshots with git kizu snapshot list\n');
  assert.equal(ok(sb.kizu(['snapshot', 'drop', '--force', safety])).stdout, `dropped ${safety}\n`);
  assert.deepEqual(snapshots(sb), []);
});

test('the safety snapshot an undo takes (its printed redo point) survives retention; drop names it', () => {
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ snapshot: { keep: 2 } }), 'a.txt': '0\n' } });
  const take = () => /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  const a = take();
  writeFileSync(sb.path('a.txt'), '1\n');
  ok(sb.kizu(['rollback', 'snapshot', a, '--yes']));
  writeFileSync(sb.path('b.txt'), 'b\n');
  const u = ok(sb.kizu(['undo', '--yes'])).stdout;
  const redo = /to redo: git kizu rollback snapshot (\S+)\)/.exec(u)[1];
  for (let i = 2; i < 6; i++) {
    writeFileSync(sb.path('a.txt'), `${i}\n`);
    take();
  }
  assert.ok(snapshots(sb).some((x) => x.name === redo), 'the redo point is kept');
  const refused = sb.kizu(['snapshot', 'drop', redo]);
  assert.deepEqual([refused.status, refused.stderr], [1, `git-kizu: error: snapshot ${redo} is the safety snapshot a recent git kizu undo took (its redo point)\nhint: pass --force to drop it anyway (undo then cannot restore it)\n`]);
  // The redo point is the state just before the undo: a.txt rolled back, b.txt added.
  ok(sb.kizu(['rollback', 'snapshot', redo, '--yes']), 'redo');
  assert.equal(sb.read('a.txt'), '0\n');
  assert.equal(sb.read('b.txt'), 'b\n');
});

test('snapshot show: metadata, git diff from the snapshot to the working tree, permission bits; ids by commit prefix', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n', 'b.txt': 'b\n' } });
  chmodSync(sb.path('b.txt'), 0o600);
  const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'show me'])).stdout);
  const same = ok(sb.kizu(['snapshot', 'show', snap.id.slice(0, 7)]));
  assert.ok(same.stdout.startsWith(`snapshot ${snap.name}\ncommit:   ${snap.id}\nkind:     manual\n`), same.stdout);
  assert.ok(same.stdout.includes('\nmessage:  show me\n'), same.stdout);
  assert.ok(same.stdout.endsWith('files:    2\n(the working tree matches the snapshot)\n'), same.stdout);
  writeFileSync(sb.path('a.txt'), 'two\n');
  chmodSync(sb.path('b.txt'), 0o644);
  const r = ok(sb.kizu(['snapshot', 'show', snap.name]));
  assert.ok(r.stdout.includes('--- snapshot/a.txt\n+++ worktree/a.txt\n@@ -1 +1 @@\n-one\n+two\n'), r.stdout);
  assert.ok(r.stdout.endsWith('mode b.txt: 600 in the snapshot, 644 now\n'), r.stdout);
  const j = JSON.parse(ok(sb.kizu(['snapshot', 'show', snap.name, '--json'])).stdout);
  assert.deepEqual(j.changes.map((c) => [c.path, c.action]), [['a.txt', 'modify'], ['b.txt', 'mode']]);
  assert.deepEqual(tree(sb.dir)['b.txt'], { mode: '644', hex: Buffer.from('b\n').toString('hex') }, 'show changes nothing');
});

test('on a terminal rollback and undo ask first: "n" changes nothing, "y" goes ahead', async (t) => {
  const sb = sandbox({ files: { 'a.txt': 'one\n' } });
  const name = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot'])).stdout)[1];
  writeFileSync(sb.path('a.txt'), 'two\n');
  const no = terminal(t, sb, ['rollback', 'snapshot', name]);
  await no.waitFor(`Roll back 1 path to snapshot ${name}? [y/N]`);
  no.type('n');
  const noScreen = await no.done();
  assert.deepEqual(noScreen.slice(-2), ['cancelled: nothing was changed', 'EXIT=0']);
  assert.ok(noScreen.includes('  modify  a.txt  (changed since the snapshot; lines +1 -1)'), noScreen.join('\n'));
  assert.equal(sb.read('a.txt'), 'two\n');
  assert.equal(snapshots(sb).length, 1, 'no safety snapshot when cancelled');

  const yes = terminal(t, sb, ['rollback', 'snapshot', name]);
  await yes.waitFor('[y/N]');
  yes.type('y');
  const yesScreen = await yes.done();
  assert.equal(yesScreen.at(-1), 'EXIT=0');
  assert.ok(yesScreen.includes(`rolled back 1 path to snapshot ${name}`), yesScreen.join('\n'));
  assert.equal(sb.read('a.txt'), 'one\n');

  const undo = terminal(t, sb, ['undo']);
  await undo.waitFor('Undo it? [y/N]');
  undo.type('y');
  assert.equal((await undo.done()).at(-1), 'EXIT=0');
  assert.equal(sb.read('a.txt'), 'two\n');
});

/** Tree id and exact permission bits of snapshot `name` (from `snapshot list --json`). */
function snapshotContent(sb, name) {
  const info = snapshots(sb).find((s) => s.name === name);
  assert.ok(info, `snapshot ${name} is listed`);
  const meta = JSON.parse(/^kizu-snapshot: (.*)$/m.exec(sb.git('cat-file', 'commit', info.id))[1]);
  return { tree: sb.git('rev-parse', `${info.id}^{tree}`).trim(), files: info.files, skipped: info.skipped, defaults: meta.defaults, modes: meta.modes };
}

test('a first snapshot seeded from the user index holds exactly what a cold one (KIZU_SNAPSHOT_NO_SEED) holds, flagged index entries included', () => {
  const sb = richRepo();
  mutate(sb);
  // Index entries git would trust without looking at the file: the seed must not be used.
  writeFileSync(sb.path('ren-new.txt'), 'renamed and intent-to-add\n');
  sb.git('add', '-N', 'ren-new.txt');
  const take = (env = {}) => {
    rmSync(sb.path('.git/kizu/snapshot'), { recursive: true, force: true });
    const r = ok(sb.kizu(['snapshot', '--json'], { env }));
    return JSON.parse(r.stdout);
  };
  const cold = take({ KIZU_SNAPSHOT_NO_SEED: '1' });
  const withFlag = take();
  assert.deepEqual(snapshotContent(sb, withFlag.name), snapshotContent(sb, cold.name));
  assert.equal(sb.git('cat-file', 'blob', `${withFlag.id}:ren-new.txt`), 'renamed and intent-to-add\n');
  sb.git('rm', '-q', '--cached', 'ren-new.txt');
  // assume-unchanged on a file that did change: only a seed would miss it.
  sb.git('update-index', '--assume-unchanged', 'a.txt');
  writeFileSync(sb.path('a.txt'), 'changed behind an assume-unchanged entry\n');
  const cold2 = take({ KIZU_SNAPSHOT_NO_SEED: '1' });
  const assumed = take();
  assert.deepEqual(snapshotContent(sb, assumed.name), snapshotContent(sb, cold2.name));
  assert.equal(sb.git('cat-file', 'blob', `${assumed.id}:a.txt`), 'changed behind an assume-unchanged entry\n');
  // This repository has a .gitattributes file and core.autocrlf: never seeded.
  sb.git('update-index', '--no-assume-unchanged', 'a.txt');
  const cold3 = take({ KIZU_SNAPSHOT_NO_SEED: '1' });
  const unseeded = take();
  assert.equal(unseeded.hashed, cold3.hashed);
  assert.deepEqual(snapshotContent(sb, unseeded.name), snapshotContent(sb, cold3.name));

  // Without conversions: seeded (fewer files read), the same content as cold, permission bits included.
  const plain = sandbox({ files: { 'a.txt': 'a\n', 'run.sh': '#!/bin/sh\n', secret: 's\n', 'd/e.txt': 'e\n' } });
  const takeP = (env = {}) => {
    rmSync(plain.path('.git/kizu/snapshot'), { recursive: true, force: true });
    return JSON.parse(ok(plain.kizu(['snapshot', '--json'], { env })).stdout);
  };
  writeFileSync(plain.path('a.txt'), 'a changed\n');
  plain.write({ 'new.txt': 'new\n' });
  const coldP = takeP({ KIZU_SNAPSHOT_NO_SEED: '1' });
  const seededP = takeP();
  assert.equal(seededP.hashed < coldP.hashed, true, `seeded read ${seededP.hashed} files, cold ${coldP.hashed}`);
  const content = snapshotContent(plain, seededP.name);
  assert.deepEqual(content, snapshotContent(plain, coldP.name));
  assert.deepEqual([content.defaults, content.modes], [{ file: '644', exec: '755' }, {}]);
  chmodSync(plain.path('secret'), 0o600);
  chmodSync(plain.path('run.sh'), 0o750);
  const cold4 = takeP({ KIZU_SNAPSHOT_NO_SEED: '1' });
  const seeded4 = takeP();
  // run.sh is the only executable file, so its bits are the default for executables.
  const c4 = snapshotContent(plain, seeded4.name);
  assert.deepEqual([c4.defaults, c4.modes], [{ file: '644', exec: '750' }, { secret: '600' }]);
  assert.deepEqual(c4, snapshotContent(plain, cold4.name));
});

test('the store lock (taken early by the command and the hook) is released after success and after an error; a held lock is waited for', async () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const lock = sb.path('.git/kizu/snapshot/lock');
  ok(sb.kizu(['snapshot']));
  assert.equal(existsSync(lock), false, 'released after a snapshot');
  const payload = { session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' };
  writeFileSync(sb.path('a.txt'), 'a2\n');
  const h = hook(sb, 'user-prompt-submit', payload);
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, '', '']);
  assert.equal(existsSync(lock), false, 'released after the hook');
  // An invalid config fails the snapshot after the lock was taken: it must still be released.
  writeFileSync(sb.path('.kizurc.json'), JSON.stringify({ snapshot: { keep: 'many' } }));
  const bad = sb.kizu(['snapshot']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^git-kizu: error: invalid config in .*\.kizurc\.json:\n.*snapshot\.keep/);
  assert.equal(existsSync(lock), false, 'released after an error');
  const badHook = hook(sb, 'user-prompt-submit', payload);
  assert.equal(badHook.status, 0);
  assert.equal(badHook.stdout, '');
  assert.equal(existsSync(lock), false, 'released after a failing hook');
  rmSync(sb.path('.kizurc.json'));
  // Another live process holds the lock: the snapshot waits for it, then goes ahead.
  writeFileSync(lock, `${process.pid} ${(await import('node:os')).hostname()} ${new Date().toISOString()}\n`);
  const started = Date.now();
  const waiting = new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'snapshot', '--json'], { cwd: sb.dir, env: { ...process.env, ...sb.env } });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('close', (status) => resolve({ status, out }));
  });
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(existsSync(lock), true, 'the waiting snapshot did not take the held lock');
  rmSync(lock);
  const done = await waiting;
  assert.equal(done.status, 0);
  assert.equal(JSON.parse(done.out).files, 1);
  assert.ok(Date.now() - started >= 600, 'it waited for the lock');
  assert.equal(existsSync(lock), false);
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

test('a first snapshot holds the bytes on disk, not what clean filters or line-ending conversion put in the index', () => {
  const past = new Date('2020-01-01T00:00:00Z');
  const cases = [
    { name: 'eol=crlf attribute', attrs: { '.gitattributes': '*.txt text eol=crlf\n' }, config: [], file: 'a.txt', bytes: 'l1\r\nl2\r\n' },
    { name: 'clean filter', attrs: { '.gitattributes': '*.u filter=up\n' }, config: [['filter.up.clean', 'tr a-z A-Z'], ['filter.up.smudge', 'cat']], file: 'a.u', bytes: 'hello\n' },
    { name: 'core.autocrlf=true', attrs: {}, config: [['core.autocrlf', 'true']], file: 'a.txt', bytes: 'l1\r\nl2\r\n' },
    { name: 'info/attributes', attrs: {}, info: '*.txt text\n', config: [], file: 'a.txt', bytes: 'l1\r\nl2\r\n' },
  ];
  for (const c of cases) {
    const sb = sandbox({ commit: false });
    for (const [k, v] of c.config) sb.git('config', k, v);
    if (c.info) writeFileSync(sb.path('.git/info/attributes'), c.info);
    sb.write({ ...c.attrs, [c.file]: c.bytes, 'plain.bin': 'x\r\n' });
    // Old mtimes: the index entries are not "racily clean", so git would trust them.
    for (const f of [...Object.keys(c.attrs), c.file, 'plain.bin']) utimesSync(sb.path(f), past, past);
    sb.git('add', '-A');
    sb.git('commit', '-q', '-m', 'files');
    const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout);
    assert.equal(sb.git('cat-file', 'blob', `${snap.id}:${c.file}`), c.bytes, c.name);
    writeFileSync(sb.path(c.file), 'changed\n');
    ok(sb.kizu(['rollback', 'snapshot', snap.name, '--yes']), c.name);
    assert.equal(readFileSync(sb.path(c.file), 'utf8'), c.bytes, `${c.name}: rollback restores the exact bytes`);
  }
});

test('a working tree apart from its git dir (core.worktree) is refused clearly by snapshot, the hook and hunks; nothing is written', () => {
  const sb = sandbox({ init: false });
  const tree = path.join(sb.base, 'tree');
  sb.git('init', '-q');
  sb.git('config', 'core.worktree', tree);
  sb.run('mkdir', ['-p', tree]);
  writeFileSync(path.join(tree, 'f'), 'f\n');
  sb.git('add', 'f');
  sb.git('commit', '-q', '-m', 'i');
  writeFileSync(path.join(tree, 'f'), 'f2\n');
  const msg = `git-kizu: error: the working tree ${tree} is apart from its git dir ${path.join(sb.dir, '.git')} (core.worktree): git kizu does not support this layout\nhint: git kizu needs the git dir at ${path.join(tree, '.git')} (a directory, or a .git file naming it, as in linked worktrees)\n`;
  for (const args of [['snapshot'], ['hunks'], ['tap', 'f:1']]) {
    const r = sb.kizu(args);
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', msg], args.join(' '));
  }
  const h = hook(sb, 'user-prompt-submit', { session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  assert.deepEqual([h.status, h.stdout], [0, '']);
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), '');
});

test('snapshots of a working tree named by GIT_DIR/GIT_WORK_TREE (a dotfiles repository), and with a relative GIT_DIR as a git hook passes it', () => {
  const sb = sandbox({ init: false });
  const repo = path.join(sb.base, 'dotfiles.git');
  const home = path.join(sb.base, 'tree');
  sb.git('init', '-q', '--bare', repo);
  sb.run('mkdir', ['-p', home]);
  const env = { GIT_DIR: repo, GIT_WORK_TREE: home };
  writeFileSync(path.join(home, '.bashrc'), 'a\n');
  sb.git('add', '.bashrc', { env, cwd: home });
  sb.git('commit', '-q', '-m', 'i', { env, cwd: home });
  writeFileSync(path.join(home, '.bashrc'), 'a\nb\n');
  const first = JSON.parse(ok(sb.kizu(['snapshot', '--json'], { env, cwd: home })).stdout);
  assert.equal(sb.git('cat-file', 'blob', `${first.id}:.bashrc`, { env, cwd: home }), 'a\nb\n');
  assert.equal(existsSync(path.join(repo, 'kizu', 'snapshot', 'index')), true, 'the store is in the named git dir');
  writeFileSync(path.join(home, '.bashrc'), 'changed\n');
  writeFileSync(path.join(home, 'new.txt'), 'n\n');
  ok(sb.kizu(['rollback', 'snapshot', first.name, '--yes'], { env, cwd: home }), 'rollback');
  assert.deepEqual(tree(home), { '.bashrc': { mode: '644', hex: Buffer.from('a\nb\n').toString('hex') } });
  ok(sb.kizu(['undo', '--yes'], { env, cwd: home }), 'undo');
  assert.equal(readFileSync(path.join(home, '.bashrc'), 'utf8'), 'changed\n');
  assert.equal(readFileSync(path.join(home, 'new.txt'), 'utf8'), 'n\n');

  // A git hook runs with GIT_DIR=.git (relative) in the top level: same repository.
  const sb2 = sandbox({ files: { 'a.txt': 'a\n' } });
  sb2.write({ 'u.txt': 'u\n' });
  const s2 = JSON.parse(ok(sb2.kizu(['snapshot', '--json'], { env: { GIT_DIR: '.git' } })).stdout);
  assert.deepEqual(sb2.git('ls-tree', '-r', '--name-only', s2.id).split('\n').filter(Boolean), ['a.txt', 'u.txt']);
});

test('snapshots of another worktree: listed with the worktree they come from; rollback refuses them without --other-worktree', () => {
  const sb = sandbox({ files: { 'a.txt': 'main\n' } });
  const wt = path.join(sb.base, 'linked');
  sb.git('worktree', 'add', '-q', wt);
  const wtReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', wt]).stdout.trim();
  const mainReal = sb.run('sh', ['-c', 'pwd -P'], {}).stdout.trim();
  sb.write({ 'a.txt': 'main changed\n' });
  const s = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'in main'])).stdout);
  const mine = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'in linked'], { cwd: wt })).stdout);

  const list = ok(sb.kizu(['snapshot', 'list'], { cwd: wt })).stdout.split('\n').filter(Boolean);
  assert.deepEqual(list, [
    `${mine.name}  manual  1 file  in linked`,
    `${s.name}  manual  1 file  [worktree ${mainReal}]  in main`,
  ]);
  const show = ok(sb.kizu(['snapshot', 'show', s.name], { cwd: wt })).stdout;
  assert.ok(show.includes(`\nworktree: ${mainReal} (another worktree of this repository)\n`), show);

  const before = tree(wt);
  const r = sb.kizu(['rollback', 'snapshot', s.name, '--yes'], { cwd: wt });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `git-kizu: error: snapshot ${s.name} was taken in another worktree (${mainReal}), not in this one (${wtReal})\n` +
      `hint: git kizu snapshot list shows where each snapshot was taken; to make this worktree equal to it anyway: git kizu rollback snapshot ${s.name} --other-worktree\n`,
  );
  assert.deepEqual(tree(wt), before, 'nothing changed');
  const dry = ok(sb.kizu(['rollback', 'snapshot', s.name, '--dry-run'], { cwd: wt })).stdout;
  const time = JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout).find((x) => x.name === s.name).time;
  assert.equal(dry.split('\n')[0], `rollback to snapshot ${s.name} (manual, ${time}, "in main", taken in worktree ${mainReal}):`);
  ok(sb.kizu(['rollback', 'snapshot', s.name, '--yes', '--other-worktree'], { cwd: wt }), 'rollback --other-worktree');
  assert.equal(readFileSync(path.join(wt, 'a.txt'), 'utf8'), 'main changed\n');
});

test('an invalid config: the UserPromptSubmit hook still takes its snapshot, list and show work, rollback refuses', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n', '.gitignore': '.env\n' } });
  sb.write({ '.env': 'SECRET=1\n', 'a.txt': 'two\n' });
  // snapshot.include is valid (and used), snapshot.keep is not.
  writeFileSync(sb.path('.kizurc.json'), '{"snapshot": {"include": [".env"], "keep": 0}}\n');
  const file = path.join(sb.run('sh', ['-c', 'pwd -P']).stdout.trim(), '.kizurc.json');
  const problem = `invalid config in ${file}: "snapshot.keep" must be an integer >= 1, got 0`;
  const payload = { session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
  const h = hook(sb, 'user-prompt-submit', payload);
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, '', `git-kizu: warning: ${problem}; its valid keys and the defaults for the rest are used until it is fixed (see README "Config")\n`]);
  const list = snapshots(sb);
  assert.equal(list.length, 1);
  assert.equal(list[0].kind, 'prompt');
  assert.equal(sb.git('show', `${list[0].id}:.env`), 'SECRET=1\n');
  const show = sb.kizu(['snapshot', 'show', list[0].name]);
  assert.equal(show.status, 0, show.stderr);
  assert.equal(show.stderr, `git-kizu: warning: ${problem}; its valid keys and the defaults for the rest are used until it is fixed (see README "Config")\n`);
  const r = sb.kizu(['rollback', 'snapshot', list[0].name, '--yes']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', `git-kizu: error: ${problem.replace(': "', ':\n  - "')}\nhint: fix the listed keys (see README "Config")\n`]);
  assert.equal(sb.read('a.txt'), 'two\n');
});

test('a moved repository keeps its snapshots as its own; a new worktree at an old worktree\'s path does not take them over', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n' } });
  sb.write({ 'a.txt': 'two\n' });
  const s = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'before the move'])).stdout);
  const moved = path.join(sb.base, 'moved repo');
  renameSync(sb.dir, moved);
  const movedReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', moved], { cwd: moved }).stdout.trim();
  const oldReal = path.join(path.dirname(movedReal), 'repo');
  assert.deepEqual(ok(sb.kizu(['snapshot', 'list'], { cwd: moved })).stdout.split('\n').filter(Boolean), [`${s.name}  manual  1 file  before the move`]);
  const show = ok(sb.kizu(['snapshot', 'show', s.name], { cwd: moved })).stdout;
  assert.ok(show.includes(`\nworktree: ${oldReal} (this worktree, since moved to ${movedReal})\n`), show);
  writeFileSync(path.join(moved, 'a.txt'), 'three\n');
  ok(sb.kizu(['rollback', 'snapshot', s.name, '--yes'], { cwd: moved }), 'rollback in the moved repository');
  assert.equal(readFileSync(path.join(moved, 'a.txt'), 'utf8'), 'two\n');
  ok(sb.kizu(['undo', '--yes'], { cwd: moved }), 'undo in the moved repository');
  assert.equal(readFileSync(path.join(moved, 'a.txt'), 'utf8'), 'three\n');

  // A linked worktree removed and another added at the same path: the old one's snapshots
  // are not this one's.
  const wt = path.join(sb.base, 'linked');
  sb.git('worktree', 'add', '-q', '-b', 'w1', wt, { cwd: moved });
  const wtReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', wt], { cwd: moved }).stdout.trim();
  writeFileSync(path.join(wt, 'a.txt'), 'linked\n');
  const old = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'old linked'], { cwd: wt })).stdout);
  sb.git('worktree', 'remove', '--force', wt, { cwd: moved });
  sb.git('worktree', 'add', '-q', '-b', 'w2', wt, { cwd: moved });
  const r = sb.kizu(['rollback', 'snapshot', old.name, '--yes'], { cwd: wt });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.split('\n')[0], `git-kizu: error: snapshot ${old.name} was taken in an earlier worktree at this path (${wtReal}), removed since; this one is a new worktree`);
  assert.equal(readFileSync(path.join(wt, 'a.txt'), 'utf8'), 'one\n');
});

test('undo of a rollback made in a linked worktree: restores there when it moved, refuses when it was removed or replaced (nothing changes here)', () => {
  const sb = sandbox({ files: { 'm.txt': 'main\n' } });
  const main = sb.dir;
  const mk = (name) => {
    const wt = path.join(sb.base, name);
    sb.git('worktree', 'add', '-q', '-b', name, wt);
    writeFileSync(path.join(wt, 'm.txt'), `${name} 1\n`);
    const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json'], { cwd: wt })).stdout);
    writeFileSync(path.join(wt, 'm.txt'), `${name} 2\n`);
    ok(sb.kizu(['rollback', 'snapshot', snap.name, '--yes'], { cwd: wt }), 'rollback');
    assert.equal(readFileSync(path.join(wt, 'm.txt'), 'utf8'), `${name} 1\n`);
    return wt;
  };
  // Moved: undo from the main worktree finds it by identity and restores there.
  const a = mk('wa');
  const moved = path.join(sb.base, 'wa-moved');
  sb.git('worktree', 'move', a, moved);
  writeFileSync(path.join(main, 'm.txt'), 'my work\n');
  const movedReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', moved]).stdout.trim();
  const u = ok(sb.kizu(['undo', '--yes']), 'undo').stdout;
  assert.ok(u.includes(`\nrestore ${movedReal} (another worktree: the rollback was made there) to safety snapshot `), u);
  assert.match(u, new RegExp(`\\(to redo: cd ${movedReal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} && git kizu rollback snapshot \\S+\\)\\n$`));
  assert.equal(readFileSync(path.join(moved, 'm.txt'), 'utf8'), 'wa 2\n');
  assert.equal(readFileSync(path.join(main, 'm.txt'), 'utf8'), 'my work\n');

  // Removed, then replaced by a new worktree at its path: refused, nothing changes.
  const b = mk('wb');
  const bReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', b]).stdout.trim();
  sb.git('worktree', 'remove', '--force', b);
  const r = sb.kizu(['undo', '--yes']);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.split('\n')[0], `git-kizu: error: the rollback to undo was made in the worktree ${bReal}, which no longer exists`);
  assert.equal(readFileSync(path.join(main, 'm.txt'), 'utf8'), 'my work\n');
  sb.git('worktree', 'add', '-q', '-b', 'wb2', b);
  const r2 = sb.kizu(['undo', '--yes'], { cwd: b });
  assert.equal(r2.status, 1, r2.stderr);
  assert.equal(r2.stderr.split('\n')[0], `git-kizu: error: the rollback to undo was made in the worktree ${bReal}, which no longer exists (the worktree there now is a new one)`);
  assert.equal(readFileSync(path.join(b, 'm.txt'), 'utf8'), 'main\n');
});

test('hooks in a working tree named by GIT_DIR/GIT_WORK_TREE: Stop blocks on a scar, PostToolUse names it, UserPromptSubmit takes a snapshot', () => {
  const sb = sandbox({ init: false });
  const repo = path.join(sb.base, 'dotfiles.git');
  const home = path.join(sb.base, 'tree');
  sb.git('init', '-q', '--bare', repo);
  sb.run('mkdir', ['-p', path.join(home, 'sub')]);
  const env = { GIT_DIR: repo, GIT_WORK_TREE: home };
  writeFileSync(path.join(home, '.bashrc'), 'a\n');
  sb.git('add', '.bashrc', { env, cwd: home });
  sb.git('commit', '-q', '-m', 'i', { env, cwd: home });
  writeFileSync(path.join(home, '.bashrc'), 'a\n# @kizu[ask]: why?\nalias x=y\n');
  const stop = hook(sb, 'stop', { session_id: 's', cwd: path.join(home, 'sub'), hook_event_name: 'Stop', stop_hook_active: false }, { env, cwd: home });
  assert.equal(stop.status, 0, stop.stderr);
  assert.equal(JSON.parse(stop.stdout).decision, 'block');
  assert.match(JSON.parse(stop.stdout).reason, /- \.bashrc:2 \[ask\] why\?/);
  const ptu = hook(sb, 'post-tool-use', { session_id: 's', cwd: home, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(home, '.bashrc') } }, { env, cwd: home });
  assert.match(JSON.parse(ptu.stdout).hookSpecificOutput.additionalContext, /\.bashrc:2 \[ask\] why\?/);
  const ups = hook(sb, 'user-prompt-submit', { session_id: 's', transcript_path: '/dev/null', cwd: home, hook_event_name: 'UserPromptSubmit', prompt: 'go' }, { env, cwd: home });
  assert.deepEqual([ups.status, ups.stdout, ups.stderr], [0, '', '']);
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/', { env, cwd: home }).split('\n').filter(Boolean).length, 1);
});
