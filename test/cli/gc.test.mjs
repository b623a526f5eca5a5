// Retention and `git kizu gc` through the real bin: a simulated week of edits (journal
// entries and snapshots backdated with their recorded times), rollbacks and undos on the
// last day; the budgets hold, what undo needs stays, ids printed before gc keep working, and
// git drops the objects of what was dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync, utimesSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { sandbox, EMAIL } from '../helpers/sandbox.mjs';
import { ok, exits, err, jsonError } from '../helpers/expect.mjs';
import { agentEdit, entries } from '../helpers/journal.mjs';
import { hunksJson } from '../helpers/hunks.mjs';
import { commitConfig } from '../helpers/config.mjs';

const DAY = 86_400_000;

/** The id git gives a blob holding `s` (SHA-1 of `blob <size>\0<bytes>`, as `git hash-object`). */
const blobId = (s) => createHash('sha1').update(`blob ${Buffer.byteLength(s)}\0`).update(s).digest('hex');

/**
 * Writes `n` journal entries at `time` (ms) directly on top of refs/kizu/journal, as the journal
 * hook stores them: each a commit (author and committer the sandbox user, dated its entry's
 * time) of a tree holding only `0.after`. One `git fast-import` writes them all (loose objects,
 * as hash-object, mktree and commit-tree would: fastimport.unpackLimit), not five git
 * processes per entry.
 */
function oldEntries(sb, time, n, tag) {
  const parent = sb.git('rev-parse', '-q', '--verify', 'refs/kizu/journal', { allowFail: true }).trim();
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  let stream = '';
  for (let k = 0; k < n; k++) {
    const content = `${tag} ${k}\n`;
    const iso = new Date(time + k * 1000).toISOString();
    const body = { version: 1, time: iso, tool: 'Write', session: 's', toolUseId: `old-${tag}-${k}`, files: [{ path: `old/${tag}-${k}.txt`, before: null, after: blobId(content), added: 1, removed: 0, mode: 420 }], worktree: sb.dir };
    const who = `Kizu Test <${EMAIL}> ${Math.floor((time + k * 1000) / 1000)} +0000`;
    stream += `commit refs/kizu/journal\nauthor ${who}\ncommitter ${who}\n${data(`kizu journal: Write old/${tag}-${k}.txt\n\n${JSON.stringify(body)}\n`)}`;
    if (k === 0 && parent) stream += `from ${parent}\n`;
    stream += `deleteall\nM 100644 inline 0.after\n${data(content)}\n`;
  }
  sb.git('-c', 'fastimport.unpackLimit=1000000', 'fast-import', '--quiet', { input: stream });
}

/** Sets every object file's modification time back `ms` (so git's prune grace has passed for them). */
function ageObjects(sb, ms) {
  const t = new Date(Date.now() - ms);
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else utimesSync(p, t, t);
    }
  };
  walk(sb.path('.git/objects'));
}

const gcJson = (sb, args = []) => JSON.parse(ok(sb.kizu(['gc', '--json', ...args])).stdout);
const byKind = (j, f) => Object.fromEntries(j.kinds.map((k) => [k.kind, f(k)]));
const undoRecords = (sb) => JSON.parse(readFileSync(sb.path('.git/kizu/rollbacks.json'), 'utf8')).records;


test('a simulated week: gc holds every budget, keeps what undo needs, every undo and printed id still works, git drops the objects', () => {
  const config = {
    snapshot: { keep: 12 },
    retention: {
      journal: { minEntries: 10, maxEntries: 40, maxAgeDays: 3 },
      snapshots: { minEntries: 3, maxAgeDays: 3 },
      reverts: { minEntries: 2, maxEntries: 3, maxAgeDays: 3 },
      undo: { minEntries: 2, maxEntries: 3, maxAgeDays: 3 },
    },
  };
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify(config), 'a.txt': 'a1\na2\na3\n', 'b.txt': Array.from({ length: 30 }, (_, k) => `b${k}`).join('\n') + '\n' } });
  const now = Date.now();
  // Six days back: ten journal entries and two snapshots a day.
  const oldSnaps = [];
  for (let d = 6; d >= 1; d--) {
    const t = now - d * DAY - 3600_000;
    oldEntries(sb, t, 10, `day${d}`);
    for (const h of [0, 1]) {
      const date = `@${Math.floor((t + h * 60_000) / 1000)} +0000`;
      sb.write({ 'a.txt': `a1\nday ${d}.${h}\na3\n` });
      oldSnaps.push({ d, name: /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot', '-m', `day ${d}.${h}`], { env: { GIT_COMMITTER_DATE: date } })).stdout)[1] });
    }
  }
  sb.write({ 'a.txt': 'a1\na2\na3\n' });
  const firstDropped = sb.git('rev-list', '--max-parents=0', 'refs/kizu/journal').trim();

  // Today: saved reverts (five), agent edits through the journal hook, rollbacks at each level.
  const revertIds = [];
  for (let k = 0; k < 5; k++) {
    sb.write({ 'b.txt': readFileSync(sb.path('b.txt'), 'utf8').replace(`b${k * 5}\n`, `B${k * 5}\n`) });
    const [h] = hunksJson(sb);
    const r = ok(sb.kizu(['revert', h.shortId]));
    revertIds.push(/git kizu revert --restore ([0-9a-f]{12})/.exec(r.stdout)[1]);
  }
  const e1 = agentEdit(sb, 'a.txt', 'a2', 'A2');
  const e2 = agentEdit(sb, 'b.txt', 'b1\n', 'B1\n');
  const snapToday = /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot', '-m', 'today'])).stdout)[1];
  const e3 = agentEdit(sb, 'a.txt', 'a3', 'A3');
  ok(sb.kizu(['rollback', 'patch', '--yes', e3.shortId]));
  ok(sb.kizu(['rollback', 'patch', '--yes', e2.shortId]));
  ok(sb.kizu(['rollback', 'snapshot', '--yes', snapToday]));
  ok(sb.kizu(['rollback', 'patch', '--yes', e1.shortId]));
  const records = undoRecords(sb);
  assert.equal(records.length, 4, JSON.stringify(records, null, 1));
  const journalBefore = entries(sb);
  assert.equal(journalBefore.length, 60 + 3 + 3);
  const work = { a: sb.read('a.txt'), b: sb.read('b.txt') };

  // The dry run plans and changes nothing.
  const refsBefore = sb.git('for-each-ref', 'refs/kizu/');
  const dry = gcJson(sb, ['--dry-run']);
  assert.equal(dry.dryRun, true);
  assert.equal(dry.dropped, null);
  assert.equal(dry.objects, null);
  const planned = byKind(dry, (k) => [k.entries, k.drop]);
  // Journal: entries older than 3 days (days 3-6, 40 of them) go; 26 stay (<= 40).
  // Snapshots: 12 kept by snapshot.keep when taken (+1 today, + 4 safety snapshots); those
  // older than 3 days go unless undo needs them. Reverts: 5, keep 3. Undo: 4 records, keep 3.
  assert.deepEqual(planned.journal, [66, 40]);
  assert.deepEqual(planned.reverts, [5, 2]);
  assert.deepEqual(planned.undo, [4, 1]);
  assert.deepEqual(planned.marks, [0, 0]);
  assert.deepEqual(planned.trash, [0, 0]);
  const snapsBefore = sb.git('for-each-ref', '--format=%(refname:lstrip=3) %(objectname) %(committerdate:unix)', 'refs/kizu/snapshots/').trim().split('\n').map((l) => l.split(' '));
  const cutoff = (now - 3 * DAY) / 1000;
  const safety = new Set(records.slice(1).map((r) => r.safetySnapshot));
  const wantGone = snapsBefore.filter(([, id, t]) => Number(t) < cutoff && !safety.has(id)).map(([n]) => n);
  assert.ok(wantGone.length >= 2, `${wantGone.length} old snapshots`); // snapshot.keep dropped the oldest when they were taken
  assert.deepEqual(planned.snapshots, [snapsBefore.length, wantGone.length]);
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), refsBefore, 'the dry run changed no ref');
  assert.equal(undoRecords(sb).length, 4);

  // gc: objects written "a day ago" so that git's prune grace (1 hour) has passed for them.
  ageObjects(sb, DAY);
  const j = gcJson(sb);
  assert.deepEqual(j.dropped, { journal: 40, snapshots: wantGone.length, reverts: 2, trash: 0, marks: 0, undo: 1 });
  assert.deepEqual(j.skipped, []);
  assert.equal(j.objects, 'git gc --cruft --prune=1.hour.ago');
  assert.deepEqual({ a: sb.read('a.txt'), b: sb.read('b.txt') }, work, 'gc changes no working-tree file');

  // The budgets hold: a second plan drops nothing.
  const again = gcJson(sb, ['--dry-run']);
  assert.deepEqual(byKind(again, (k) => k.drop), { journal: 0, snapshots: 0, reverts: 0, trash: 0, marks: 0, undo: 0 });
  assert.deepEqual(byKind(again, (k) => k.entries), { journal: 26, snapshots: snapsBefore.length - wantGone.length, reverts: 3, trash: 0, marks: 0, undo: 3 });

  // The kept journal entries keep their ids (and everything else); the dropped commits are gone.
  const journalAfter = entries(sb);
  assert.deepEqual(journalAfter, journalBefore.slice(40));
  assert.equal(sb.run('git', ['cat-file', '-e', firstDropped]).status, 1, 'the oldest journal commit was pruned');
  const snapNames = sb.git('for-each-ref', '--format=%(refname:lstrip=3)', 'refs/kizu/snapshots/').trim().split('\n');
  for (const n of wantGone) assert.ok(!snapNames.includes(n), n);
  for (const id of safety) assert.ok(sb.run('git', ['cat-file', '-e', id]).status === 0, `safety snapshot ${id} kept`);

  // Saved reverts: the newest three still restore by the ids printed before gc; the oldest are gone.
  // revert --list shows the kept ones by the ids revert printed (gc wrote their commits again).
  const listed = ok(sb.kizu(['revert', '--list']));
  assert.equal(listed.stderr, '');
  assert.deepEqual(
    listed.stdout.split('\n').map((l) => l.split('  ').slice(0, 2)),
    [[revertIds[4], 'b.txt'], [revertIds[3], 'b.txt'], [revertIds[2], 'b.txt'], ['']],
  );
  assert.ok(!sb.git('log', '--format=%H', 'refs/kizu/reverts').includes(revertIds[4]), 'the chain was written again: new commit ids');
  // A dropped id is not called a non-entry: the error says gc may have dropped it and how to list the kept ids.
  const gone = exits(sb.kizu(['revert', '--restore', revertIds[0]]), 1);
  assert.deepEqual(
    [gone.stdout, gone.stderr],
    [
      '',
      err(
        `no saved revert ${revertIds[0]}: it may have been dropped by git kizu gc (retention.reverts), or never existed`,
        'list the saved reverts that are kept, by the ids revert printed, with git kizu revert --list',
      ),
    ],
  );
  const restored = ok(sb.kizu(['revert', '--restore', revertIds[4]]));
  assert.ok(restored.stdout.startsWith(`restored b.txt from ${revertIds[4]}\n`), restored.stdout);

  // Every undo the log still holds works, newest first, with exact contents.
  assert.deepEqual(undoRecords(sb), records.slice(1));
  const wantAfterUndo = [
    // undo of rollback patch e1: A2 back (e3 stays rolled back)
    (s) => assert.equal(s.read('a.txt'), 'a1\nA2\na3\n'),
    // undo of rollback snapshot today: the state before it (e2 rolled back)
    (s) => assert.deepEqual([s.read('a.txt'), s.read('b.txt').includes('B1\n')], ['a1\nA2\na3\n', false]),
    // undo of rollback patch e2: B1 back
    (s) => assert.ok(s.read('b.txt').includes('B1\n')),
  ];
  for (const check of wantAfterUndo) {
    ok(sb.kizu(['undo', '--yes']));
    check(sb);
  }
  assert.deepEqual(undoRecords(sb), []);
  // A rollback patch by an id printed before gc still works.
  ok(sb.kizu(['rollback', 'patch', '--yes', e2.shortId]));
  assert.ok(!sb.read('b.txt').includes('B1\n'));
});

test('gc appends lost to no concurrent journal write: entries recorded while the chain is rewritten are kept', async () => {
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ retention: { journal: { minEntries: 5, maxEntries: 5 } } }), 'a.txt': 'x\n' } });
  oldEntries(sb, Date.now() - 60_000, 300, 'bulk');
  const gc = sb.kizuAsync(['gc', '--json']);
  // Real appends from the hook (payloads through the helper) while gc runs.
  const added = [];
  for (let k = 0; k < 3; k++) added.push(agentEdit(sb, 'a.txt', k ? `y${k - 1}` : 'x', `y${k}`).id);
  const r = await gc;
  assert.equal(r.status, 0, r.stderr);
  const ids = entries(sb).map((e) => e.id);
  for (const id of added) assert.ok(ids.includes(id), `entry ${id} recorded during gc is kept`);
  assert.ok(ids.length <= 5 + added.length, `${ids.length} entries`);
});

test('gc refuses to drop anything with an unreadable undo log, and names the fix', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  ok(sb.kizu(['snapshot']));
  writeFileSync(sb.path('.git/kizu/rollbacks.json'), '{oops');
  const refs = sb.git('for-each-ref', 'refs/kizu/');
  const r = sb.kizu(['gc']);
  assert.deepEqual(
    { status: r.status, stdout: r.stdout, stderr: r.stderr },
    {
      status: 2,
      stdout: '',
      stderr: err(
        `the undo log ${sb.path('.git/kizu/rollbacks.json')} cannot be read (${jsonError('{oops')}), so retention cannot tell what undo still needs; nothing was dropped`,
        'fix or move the file away (git kizu undo cannot use it either), then run git kizu gc again',
      ),
    },
  );
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), refs);
});

test('gc --auto does nothing within budget; over budget it drops and records what it did; the prompt hook starts it at most once an hour', async () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n', '.kizurc.json': JSON.stringify({ retention: { journal: { minEntries: 3, maxEntries: 3 } } }) } });
  oldEntries(sb, Date.now() - 60_000, 3, 'a');
  const refs = sb.git('for-each-ref', 'refs/kizu/');
  assert.equal(ok(sb.kizu(['gc', '--auto'])).stdout, [
    'journal    3 journal entries, ' + /, (\S+ \S+)\n/.exec(ok(sb.kizu(['gc', '--dry-run'])).stdout)[1],
    'snapshots  0 snapshots',
    'reverts    0 saved reverts',
    'trash      0 discarded tasks',
    'marks      0 marks',
    'undo       0 undo records',
    'nothing to drop: every kind is within its budget',
    '',
  ].join('\n'));
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), refs, 'nothing changed');
  const state = JSON.parse(readFileSync(sb.path('.git/kizu/gc-auto.json'), 'utf8'));
  assert.deepEqual([state.state, state.dropped], ['done', null]);

  // The prompt hook: a stamp younger than an hour starts nothing; an older one starts gc --auto.
  oldEntries(sb, Date.now() - 30_000, 4, 'b');
  const payload = { session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' };
  const hook = () => sb.kizu(['hook', 'user-prompt-submit'], { input: JSON.stringify(payload) });
  assert.deepEqual(pick(hook()), { status: 0, stdout: '', stderr: '' });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(entries(sb).length, 7, 'no background gc within the hour');
  const old = new Date(Date.now() - 2 * 3600_000);
  utimesSync(sb.path('.git/kizu/gc-auto.json'), old, old);
  assert.deepEqual(pick(hook()), { status: 0, stdout: '', stderr: '' });
  const fresh = () => {
    const v = JSON.parse(readFileSync(sb.path('.git/kizu/gc-auto.json'), 'utf8'));
    return v.state === 'done' && v.time > state.time;
  };
  for (let k = 0; k < 150 && !fresh(); k++) await new Promise((r) => setTimeout(r, 100));
  const done = JSON.parse(readFileSync(sb.path('.git/kizu/gc-auto.json'), 'utf8'));
  assert.equal(done.state, 'done');
  assert.equal(done.dropped.journal, 4);
  assert.equal(entries(sb).length, 3);
});

const pick = (r) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr });

test('retention config: wrong values are named with their key; snapshots count with snapshot.keep', () => {
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ retention: { journal: { maxEntries: 0, minEntries: 2 }, snapshots: { maxEntries: 5 }, nope: {}, auto: 'yes', marks: { tombstoneDays: -1 } } }) } });
  const r = sb.kizu(['gc', '--dry-run']);
  assert.equal(r.status, 2);
  assert.equal(
    r.stderr,
    `git-kizu: error: invalid config in ${sb.path('.kizurc.json')}:\n` +
      '  - "retention.journal.maxEntries" must be an integer >= 1, got 0\n' +
      '  - unknown key "retention.snapshots.maxEntries" (the number of snapshots kept is "snapshot.keep") (known: retention.snapshots.minEntries, retention.snapshots.maxAgeDays, retention.snapshots.maxBytes)\n' +
      '  - unknown key "retention.nope" (known: retention.auto, retention.journal, retention.snapshots, retention.reverts, retention.trash, retention.undo, retention.marks)\n' +
      '  - "retention.auto" must be true or false, got "yes"\n' +
      '  - "retention.marks.tombstoneDays" must be a number of days > 0, got -1\n' +
      'hint: fix the listed keys (see README "Config")\n',
  );
  assert.equal(existsSync(sb.path('.git/kizu/gc.lock')), false);
});

test('discarded tasks: gc keeps every one an undo record brings back; once the undo log is trimmed the others go and undo still works', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n', '.kizurc.json': JSON.stringify({ retention: { trash: { minEntries: 1, maxEntries: 1 } } }) } });
  for (const name of ['t1', 't2', 't3']) {
    ok(sb.kizu(['task', 'start', name, '--worktree']));
    const wt = path.join(path.dirname(sb.dir), `repo-${name}`);
    writeFileSync(path.join(wt, 'work.txt'), `${name}\n`);
    sb.git('add', '-A', { cwd: wt });
    sb.git('commit', '-q', '-m', name, { cwd: wt });
    ok(sb.kizu(['rollback', 'branch', name, '--yes']));
  }
  const trash = () => sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/trash/').trim().split('\n').filter(Boolean);
  assert.equal(trash().length, 3);
  // Every discarded task is named by an undo record: none goes, whatever the budget.
  assert.deepEqual(byKind(gcJson(sb), (k) => [k.entries, k.drop]).trash, [3, 0]);
  assert.equal(trash().length, 3);
  // With the undo log held to one record, the two older records go, then their tasks.
  commitConfig(sb, { '.kizurc.json': JSON.stringify({ retention: { trash: { minEntries: 1, maxEntries: 1 }, undo: { minEntries: 1, maxEntries: 1 } } }) });
  const j = gcJson(sb);
  assert.deepEqual([j.dropped.undo, j.dropped.trash], [2, 2]);
  assert.deepEqual(trash().map((r) => r.split('/')[3]), ['t3']);
  ok(sb.kizu(['undo', '--yes']));
  assert.equal(sb.git('rev-parse', '--abbrev-ref', 'kizu/t3').trim(), 'kizu/t3');
  assert.equal(readFileSync(path.join(path.dirname(sb.dir), 'repo-t3', 'work.txt'), 'utf8'), 't3\n');
});

test('mark tombstones older than retention.marks.tombstoneDays are removed; live marks stay', async () => {
  const lines = Array.from({ length: 30 }, (_, k) => `l${k}`);
  const sb = sandbox({ files: { 'a.txt': lines.join('\n') + '\n', '.kizurc.json': JSON.stringify({ retention: { marks: { tombstoneDays: 0.00001 } } }) } });
  sb.write({ 'a.txt': ['L0', ...lines.slice(1, 29), 'L29'].join('\n') + '\n' });
  const [h1, h2] = hunksJson(sb);
  ok(sb.kizu(['tap', h1.shortId, h2.shortId]));
  ok(sb.kizu(['untap', h1.shortId]));
  const marksJson = () => JSON.parse(sb.git('cat-file', 'blob', 'refs/kizu/marks:marks.json')).marks;
  assert.deepEqual(Object.entries(marksJson()).map(([id, m]) => [id, m.state]).sort(), [[h1.id, 'none'], [h2.id, 'tapped']].sort());
  await new Promise((r) => setTimeout(r, 1500)); // older than 0.00001 days (0.864 s)
  const j = gcJson(sb);
  assert.deepEqual(byKind(j, (k) => [k.entries, k.drop]).marks, [2, 1]);
  assert.equal(j.kinds.find((k) => k.kind === 'marks').tombstones, 1);
  assert.equal(j.dropped.marks, 1);
  assert.deepEqual(Object.entries(marksJson()).map(([id, m]) => [id, m.state]), [[h2.id, 'tapped']]);
  assert.deepEqual(hunksJson(sb).map((h) => h.mark), ['unreviewed', 'tapped']);
});

test('the bytes budget drops the oldest entries until the kind fits, never the newest minEntries', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n', '.kizurc.json': JSON.stringify({ retention: { journal: { minEntries: 4, maxBytes: 1 }, reverts: { maxBytes: 1 } } }) } });
  oldEntries(sb, Date.now() - 60_000, 30, 'b');
  const ids = entries(sb).map((e) => e.id);
  const j = gcJson(sb);
  assert.deepEqual(byKind(j, (k) => [k.entries, k.drop]).journal, [30, 26]);
  assert.ok(j.kinds[0].dropBytes > 0 && j.kinds[0].dropBytes < j.kinds[0].bytes, JSON.stringify(j.kinds[0]));
  assert.deepEqual(entries(sb).map((e) => e.id), ids.slice(26));
  // Within the bytes it still holds, nothing more goes: the newest four are kept.
  assert.equal(gcJson(sb, ['--dry-run']).kinds[0].drop, 0);
});

test('gc keeps the journal entry of a patch rollback that undo can still reverse, so the undo is recorded as its rollback', () => {
  const TEN = Array.from({ length: 10 }, (_, i) => `l${i + 1}\n`).join('');
  const sb = sandbox({ files: { 'f.txt': TEN, 'g.txt': 'g\n', '.kizurc.json': JSON.stringify({ retention: { journal: { minEntries: 1, maxEntries: 1 } } }) } });
  const a = agentEdit(sb, 'f.txt', 'l2\n', 'two\n');
  ok(sb.kizu(['rollback', 'patch', '--yes', a.shortId]));
  const rb = entries(sb).find((e) => e.tool === 'rollback');
  for (let k = 0; k < 3; k++) agentEdit(sb, 'g.txt', k ? `g${k}\n` : 'g\n', `g${k + 1}\n`);
  assert.equal(gcJson(sb).dropped.journal, 1, 'only the entry below the rollback goes');
  assert.equal(entries(sb)[0].id, rb.id);
  ok(sb.kizu(['undo', '--yes']));
  assert.equal(sb.read('f.txt'), TEN.replace('l2\n', 'two\n'));
  const last = entries(sb).at(-1);
  assert.deepEqual([last.tool, last.rollbackOf], ['undo', [rb.id]]);
});
