// `git kizu snapshot` (take, list, show, drop) and the UserPromptSubmit hook through the real
// bin in real repositories: what a snapshot holds (seeded from the user index or cold, the
// bytes on disk), the private index, retention, the store lock, and an invalid config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox, spawnAsync } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { mutate, richRepo, snapshots } from '../helpers/snapshots.mjs';
import { commitConfig } from '../helpers/config.mjs';

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

test('UserPromptSubmit hook: a bad payload → exit 0, nothing on stdout, one stderr line; no repository → silent', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  for (const bad of ['', 'not json', '[]', JSON.stringify({ cwd: sb.dir, prompt: 5 }), JSON.stringify({ cwd: sb.dir, hook_event_name: 'Stop' })]) {
    const r = hook(sb, 'user-prompt-submit', bad);
    assert.equal(r.status, 0, bad);
    assert.equal(r.stdout, '', bad);
    assert.match(r.stderr, /^git-kizu: ignored a bad hook payload: [^\n]+\n$/, bad);
  }
  const outside = sandbox({ init: false });
  const r = hook(outside, 'user-prompt-submit', { cwd: outside.dir, hook_event_name: 'UserPromptSubmit', prompt: 'x' });
  // Nothing to snapshot outside a repository (user-scope hooks and the plugin run in every folder).
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  assert.equal(snapshots(sb).length, 0);
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
      'hint: pass --force to drop it anyway (undo can restore it only until git gc removes its objects, which nothing else keeps)\n',
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
  assert.deepEqual([refused.status, refused.stderr], [1, `git-kizu: error: snapshot ${redo} is the safety snapshot a recent git kizu undo took (its redo point)\nhint: pass --force to drop it anyway (undo can restore it only until git gc removes its objects, which nothing else keeps)\n`]);
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

test('an invalid config: the UserPromptSubmit hook still takes its snapshot, list and show work, rollback works with the same one warning line', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n', '.gitignore': '.env\n' } });
  sb.write({ '.env': 'SECRET=1\n', 'a.txt': 'two\n' });
  // snapshot.include is valid (and used), snapshot.keep is not.
  commitConfig(sb, { '.kizurc.json': '{"snapshot": {"include": [".env"], "keep": 0}}\n' });
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
  writeFileSync(sb.path('a.txt'), 'three\n');
  const r = sb.kizu(['rollback', 'snapshot', list[0].name, '--yes']);
  assert.deepEqual([r.status, r.stderr], [0, `git-kizu: warning: ${problem}; its valid keys and the defaults for the rest are used until it is fixed (see README "Config")\n`], r.stdout);
  assert.equal(sb.read('a.txt'), 'two\n');
  assert.equal(sb.read('.env'), 'SECRET=1\n');
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
  const waiting = spawnAsync(process.execPath, [BIN, 'snapshot', '--json'], { cwd: sb.dir, env: { ...process.env, ...sb.env } }).then((r) => ({ status: r.status, out: r.stdout }));
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(existsSync(lock), true, 'the waiting snapshot did not take the held lock');
  rmSync(lock);
  const done = await waiting;
  assert.equal(done.status, 0);
  assert.equal(JSON.parse(done.out).files, 1);
  assert.ok(Date.now() - started >= 600, 'it waited for the lock');
  assert.equal(existsSync(lock), false);
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

test('snapshots an agent takes count apart: 3 of them with snapshot.keep 2 drop only the agent\'s own, never the prompt\'s or the reviewer\'s (#67)', () => {
  const sb = sandbox({ files: { 'a.txt': '0\n' } });
  commitConfig(sb, { '.kizurc.json': JSON.stringify({ snapshot: { keep: 2 } }) });
  const payload = { session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'fix it' };
  // The prompt hook runs under the agent's process, marker set: its snapshot is still the reviewer's.
  ok(hook(sb, 'user-prompt-submit', payload, { env: { CLAUDECODE: '1' } }));
  writeFileSync(sb.path('a.txt'), 'human\n');
  const human = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot', '-m', 'mine'])).stdout)[1];
  const [prompt] = snapshots(sb).filter((x) => x.kind === 'prompt').map((x) => x.name);
  const agent = [];
  for (let i = 1; i <= 3; i++) {
    writeFileSync(sb.path('a.txt'), `agent ${i}\n`);
    const out = ok(sb.kizu(['snapshot', '-m', 'wip'], { env: { CLAUDECODE: '1' } })).stdout;
    agent.push(/^snapshot (\S+):/.exec(out)[1]);
    if (i === 3) assert.equal(out.split('\n').slice(1).join('\n'), `dropped ${agent[0]} (snapshot.keep)\n`);
  }
  const list = snapshots(sb);
  assert.deepEqual(
    list.map((x) => [x.name, x.kind, x.by]),
    [
      [agent[2], 'manual', 'agent:claude'],
      [agent[1], 'manual', 'agent:claude'],
      [human, 'manual', null],
      [prompt, 'prompt', null],
    ],
  );
  assert.match(ok(sb.kizu(['snapshot', 'list'])).stdout.split('\n')[0], new RegExp(`^${agent[2]}  manual  2 files  \\[agent:claude\\]  wip$`));
  // The reviewer's next snapshot drops the reviewer's oldest, never the agent's.
  writeFileSync(sb.path('a.txt'), 'human 2\n');
  const out = ok(sb.kizu(['snapshot'])).stdout;
  assert.equal(out.split('\n').slice(1).join('\n'), `dropped ${prompt} (snapshot.keep)\n`);
  assert.deepEqual(snapshots(sb).map((x) => x.by).sort(), [null, null, 'agent:claude', 'agent:claude'].sort());
});
