// Marks (tap/reject/untap) in refs/kizu/marks: the store API through dist/marks (child node
// processes in real temp repos), sync between clones through a bare repo, and the commands
// through the real bin. Exact values throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandbox, spawn, ROOT, TS } from './helpers.mjs';

const STORE = pathToFileURL(path.join(ROOT, 'src', 'marks', 'read.ts')).href;
const HUNKS = pathToFileURL(path.join(ROOT, 'src', 'hunks', 'listing.ts')).href;
const EMAIL = 'kizu@example.invalid';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const REF = 'refs/kizu/marks';

/** A made-up full hex hunk id. */
const hid = (name) => createHash('sha1').update(name).digest('hex');

/** Script prelude: the store API as M, root = cwd, KizuError → stderr + its exit code. */
function script(body) {
  return `import * as M from ${JSON.stringify(STORE)};
const root = process.cwd();
const out = (v) => process.stdout.write(JSON.stringify(v) + '\\n');
try {
${body}
} catch (e) {
  if (e && e.name === 'KizuError') { process.stderr.write('error: ' + e.message + '\\nhint: ' + e.hint + '\\n'); process.exit(e.exitCode); }
  throw e;
}`;
}

/** Runs a store script synchronously in `cwd` (default the sandbox repo). */
function store(sb, body, opts = {}) {
  return sb.run(process.execPath, [...TS, '--input-type=module', '-e', script(body)], opts);
}

/** setMarks(root, updates) in a child process; asserts success. */
function setMarks(sb, updates, opts = {}) {
  const r = store(sb, `await M.setMarks(root, ${JSON.stringify(updates)});`, opts);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: '', stderr: '' });
}

/** readMarks(root) as a plain object (sorted keys); asserts success. */
function readMarks(sb, opts = {}) {
  const r = store(sb, `const m = await M.readMarks(root); out(Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1))));`, opts);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout);
}

const upd = (name, state, file = 'src/a.ts', range = `${file}:1-2`) => ({ id: hid(name), state, path: file, range });

/** Checks an entry's fields, with `time` an ISO-8601 ms string; returns the time. */
function checkEntry(e, { state, by = EMAIL, path: p, range }) {
  assert.match(e.time, ISO_MS);
  assert.deepEqual(e, { state, time: e.time, by, path: p, range });
  return e.time;
}

const rev = (sb, ref = REF, cwd) => sb.git('rev-parse', '-q', '--verify', ref, { cwd, allowFail: true }).trim();
const count = (sb, cwd) => Number(sb.git('rev-list', '--count', REF, { cwd }).trim());
const corruptHint = (ref) =>
  `earlier values are in \`git reflog ${ref}\`; restore one with \`git update-ref ${ref} <commit>\`, or drop every mark with \`git update-ref -d ${ref}\``;

// ---------------------------------------------------------------- store: set / read / tombstone

test('store: no ref → empty map; set, read back, tombstone; one commit per call with reflog', () => {
  const sb = sandbox();
  assert.deepEqual(readMarks(sb), {});
  assert.equal(rev(sb), '');
  setMarks(sb, [upd('x', 'tapped'), upd('y', 'rejected', 'b.js', 'b.js:7')]);
  let m = readMarks(sb);
  assert.deepEqual(Object.keys(m), [hid('x'), hid('y')].sort());
  const tx = checkEntry(m[hid('x')], { state: 'tapped', path: 'src/a.ts', range: 'src/a.ts:1-2' });
  checkEntry(m[hid('y')], { state: 'rejected', path: 'b.js', range: 'b.js:7' });
  const first = rev(sb);

  setMarks(sb, [upd('x', 'none')]);
  m = readMarks(sb);
  const tu = checkEntry(m[hid('x')], { state: 'none', path: 'src/a.ts', range: 'src/a.ts:1-2' });
  assert.ok(tu > tx, `tombstone time ${tu} must be later than the tap ${tx}`);
  checkEntry(m[hid('y')], { state: 'rejected', path: 'b.js', range: 'b.js:7' });

  // markOf: tombstone and absent → unreviewed
  const r = store(sb, `const m = await M.readMarks(root); out([M.markOf(m, ${JSON.stringify(hid('x'))}), M.markOf(m, ${JSON.stringify(hid('y'))}), M.markOf(m, 'ffff')]);`);
  assert.deepEqual(JSON.parse(r.stdout), ['unreviewed', 'rejected', 'unreviewed']);

  // storage: a linear chain, one marks.json per tree, canonical JSON, reflog per update
  assert.equal(sb.git('rev-list', '--parents', REF).trim(), `${rev(sb)} ${first}\n${first}`);
  assert.equal(sb.git('ls-tree', '--name-only', REF), 'marks.json\n');
  assert.equal(sb.git('cat-file', '-t', `${REF}:marks.json`), 'blob\n');
  const stored = { version: 1, marks: m };
  assert.equal(sb.git('show', `${REF}:marks.json`), JSON.stringify(stored, null, 2) + '\n');
  assert.equal(sb.git('log', '--format=%an <%ae>|%s|%b', REF), `Kizu Test <${EMAIL}>|kizu: untap 1|untap ${hid('x')} src/a.ts:1-2\n\nKizu Test <${EMAIL}>|kizu: tap 1, reject 1|tap ${hid('x')} src/a.ts:1-2\nreject ${hid('y')} b.js:7\n\n`);
  assert.equal(sb.git('reflog', '--format=%gs', REF), 'kizu: untap 1\nkizu: tap 1, reject 1\n');
  const fsck = sb.run('git', ['fsck', '--strict', '--no-dangling']);
  assert.deepEqual({ status: fsck.status, stderr: fsck.stderr }, { status: 0, stderr: '' });
});

test('store: by is user.email, else user.name; bad ids and states are refused with nothing written', () => {
  const sb = sandbox();
  sb.git('config', 'user.email', '');
  setMarks(sb, [upd('x', 'tapped')]);
  checkEntry(readMarks(sb)[hid('x')], { state: 'tapped', by: 'Kizu Test', path: 'src/a.ts', range: 'src/a.ts:1-2' });
  const before = rev(sb);
  setMarks(sb, []); // an empty update writes nothing
  assert.equal(rev(sb), before);
  assert.equal(count(sb), 1);
  for (const [u, msg, hint] of [
    [{ id: 'XYZ', state: 'tapped', path: 'a', range: 'a:1' }, 'not a hunk id: "XYZ"', 'hunk ids are lowercase hex (see git kizu hunks)'],
    [{ id: 'abcd', state: 'seen', path: 'a', range: 'a:1' }, 'not a mark state: "seen"', 'use tapped, rejected or none'],
  ]) {
    const r = store(sb, `await M.setMarks(root, [${JSON.stringify(u)}]);`);
    assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 2, stdout: '', stderr: `error: ${msg}\nhint: ${hint}\n` });
  }
  assert.equal(rev(sb), before);
});

test('store: readMarks spawns no git, and loads no isomorphic-git when the ref is absent or its marks are cached; works packed, from a linked worktree', () => {
  const sb = sandbox();
  // PATH emptied inside the child: any git spawn would fail.
  const probe = `const { createRequire } = await import('node:module');
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('isomorphic-git'));
process.env.PATH = '';
const m = await M.readMarks(root);
out({ size: m.size, loaded: loaded() });`;
  let r = store(sb, probe);
  assert.deepEqual({ status: r.status, stderr: r.stderr, out: JSON.parse(r.stdout) }, { status: 0, stderr: '', out: { size: 0, loaded: false } });

  sb.git('worktree', 'add', '-q', '-b', 'side', path.join(sb.base, 'wt'));
  const wt = path.join(sb.base, 'wt');
  setMarks(sb, [upd('w', 'tapped')], { cwd: wt });
  // written from the worktree, read in the main tree (shared common dir), loose ref, no git;
  // the writer left the marks of its commit in the cache, so no isomorphic-git either
  r = store(sb, probe);
  assert.deepEqual({ status: r.status, stderr: r.stderr, out: JSON.parse(r.stdout) }, { status: 0, stderr: '', out: { size: 1, loaded: false } });
  const cache = path.join(sb.dir, '.git', 'kizu', 'marks-cache.json');
  assert.equal(JSON.parse(readFileSync(cache, 'utf8')).oid, sb.git('rev-parse', REF).trim());
  // packed ref + packed objects (git gc), no cache: fast path reads packed-refs, isomorphic-git reads the pack
  sb.git('gc', '-q');
  rmSync(cache);
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/'), `${REF}\n`);
  assert.equal(sb.git('count-objects', '-v').match(/^count: (\d+)$/m)[1], '0');
  r = store(sb, probe, { cwd: wt });
  assert.deepEqual({ status: r.status, stderr: r.stderr, out: JSON.parse(r.stdout) }, { status: 0, stderr: '', out: { size: 1, loaded: true } });
  checkEntry(readMarks(sb, { cwd: wt })[hid('w')], { state: 'tapped', path: 'src/a.ts', range: 'src/a.ts:1-2' });
  setMarks(sb, [upd('v', 'rejected')]);
  assert.deepEqual(Object.keys(readMarks(sb, { cwd: wt })), [hid('v'), hid('w')].sort());
});

// ---------------------------------------------------------------- store: CAS race

/** Spawns a child process; resolves {status, stdout, stderr}. */
function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (b) => (stdout += b));
    c.stderr.on('data', (b) => (stderr += b));
    c.on('error', reject);
    c.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('store: 8 concurrent processes × 3 setMarks each lose nothing (CAS + retry)', async () => {
  const sb = sandbox();
  const P = 8;
  const K = 3;
  const startAt = Date.now() + 1500; // all processes start writing at the same moment
  const kids = [];
  for (let p = 0; p < P; p++) {
    const body = `await new Promise((r) => setTimeout(r, Math.max(0, ${startAt} - Date.now())));
for (let k = 0; k < ${K}; k++) {
  const id = (await import('node:crypto')).createHash('sha1').update('p${p}-' + k).digest('hex');
  await M.setMarks(root, [{ id, state: k % 2 ? 'rejected' : 'tapped', path: 'f${p}.txt', range: 'f${p}.txt:' + (k + 1) }]);
}`;
    kids.push(run(process.execPath, [...TS, '--input-type=module', '-e', script(body)], { cwd: sb.dir, env: sb.env }));
  }
  const results = await Promise.all(kids);
  assert.deepEqual(results, Array.from({ length: P }, () => ({ status: 0, stdout: '', stderr: '' })));
  const m = readMarks(sb);
  const want = {};
  for (let p = 0; p < P; p++) for (let k = 0; k < K; k++) want[hid(`p${p}-${k}`)] = { state: k % 2 ? 'rejected' : 'tapped', path: `f${p}.txt`, range: `f${p}.txt:${k + 1}` };
  assert.deepEqual(
    Object.fromEntries(Object.entries(m).map(([id, e]) => [id, { state: e.state, path: e.path, range: e.range }])),
    Object.fromEntries(Object.entries(want).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
  // every write is its own commit on one linear chain, each with a reflog entry
  assert.equal(count(sb), P * K);
  assert.equal(sb.git('rev-list', '--merges', '--count', REF).trim(), '0');
  assert.equal(sb.git('reflog', '--format=%gs', REF).trim().split('\n').length, P * K);
});

// ---------------------------------------------------------------- store: corrupt ref refusal

/** Builds a commit whose tree holds marks.json = text; returns its id. */
function commitWithMarks(sb, text, name = 'marks.json', cwd = sb.dir) {
  const blob = sb.git('hash-object', '-w', '--stdin', { input: text, cwd }).trim();
  const tree = sb.git('mktree', { input: `100644 blob ${blob}\t${name}\n`, cwd }).trim();
  return sb.git('commit-tree', tree, '-m', 'hand-made', { cwd }).trim();
}

test('store + bin: a corrupt or unknown-version marks ref is refused (exit 2, named), nothing overwritten', () => {
  const sb = sandbox();
  const blob = sb.git('hash-object', '-w', '--stdin', { input: 'hello\n' }).trim();
  const head = rev(sb, 'HEAD');
  const badJson = '{"version": 1, "marks": {';
  let jsonMsg;
  try {
    JSON.parse(badJson);
  } catch (e) {
    jsonMsg = e.message;
  }
  const cases = [
    [blob, `${REF} is corrupt: ${blob} is a blob, not a commit`],
    [head, `${REF} is corrupt: commit ${head} has no marks.json file`],
    [commitWithMarks(sb, '{}', 'other.json'), (c) => `${REF} is corrupt: commit ${c} has no marks.json file`],
    [commitWithMarks(sb, badJson), `${REF} is corrupt: marks.json is not valid JSON (${jsonMsg})`],
    [commitWithMarks(sb, '[1]'), `${REF} is corrupt: marks.json is not a JSON object`],
    [commitWithMarks(sb, '{"marks": {}}'), `${REF} is corrupt: marks.json has no integer "version"`],
    [commitWithMarks(sb, '{"version": 1}'), `${REF} is corrupt: marks.json has no "marks" object`],
    [commitWithMarks(sb, '{"version": 1, "marks": {"abcd": {"state": "maybe", "time": "2025-01-01T00:00:00.000Z", "by": "", "path": "a", "range": "a:1"}}}'), `${REF} is corrupt: marks.json has a malformed entry for "abcd"`],
    [commitWithMarks(sb, '{"version": 1, "marks": {"abcd": {"state": "tapped", "time": "yesterday", "by": "", "path": "a", "range": "a:1"}}}'), `${REF} is corrupt: marks.json has a malformed entry for "abcd"`],
  ];
  for (const [oid, msg0] of cases) {
    sb.git('update-ref', REF, oid);
    const msg = typeof msg0 === 'function' ? msg0(oid) : msg0;
    const stderr = `error: ${msg}\nhint: ${corruptHint(REF)}\n`;
    const w = store(sb, `await M.setMarks(root, ${JSON.stringify([upd('x', 'tapped')])});`);
    assert.deepEqual({ status: w.status, stdout: w.stdout, stderr: w.stderr }, { status: 2, stdout: '', stderr }, msg);
    const r = store(sb, `await M.readMarks(root);`);
    assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 2, stdout: '', stderr }, msg);
    const l = sb.kizu(['marks', 'list']);
    assert.deepEqual({ status: l.status, stdout: l.stdout, stderr: l.stderr }, { status: 2, stdout: '', stderr: `git-kizu: ${stderr}` }, msg);
    assert.equal(rev(sb), oid, 'ref unchanged');
  }
  // a newer format version: named, with an upgrade hint, ref unchanged
  const v2 = commitWithMarks(sb, '{"version": 2, "marks": {}}');
  sb.git('update-ref', REF, v2);
  const w = store(sb, `await M.setMarks(root, ${JSON.stringify([upd('x', 'tapped')])});`);
  assert.deepEqual(
    { status: w.status, stdout: w.stdout, stderr: w.stderr },
    { status: 2, stdout: '', stderr: `error: ${REF} has marks format version 2; this git-kizu reads version 1\nhint: upgrade git-kizu to a version that reads this format (pull and run npm ci && npm link in its clone); nothing was changed\n` },
  );
  assert.equal(rev(sb), v2);
});

test('merge rules: newest time wins, ties broken by state then by (order-independent), tombstones kept', () => {
  const sb = sandbox();
  const e = (state, time, by = 'a') => ({ state, time, by, path: 'p', range: 'p:1' });
  const T1 = '2025-01-01T00:00:00.000Z';
  const T2 = '2025-01-01T00:00:00.001Z';
  const pairs = [
    [e('tapped', T1), e('none', T2), e('none', T2)],
    [e('none', T1), e('tapped', T2), e('tapped', T2)],
    [e('tapped', T1), e('rejected', T1), e('rejected', T1)],
    [e('none', T1), e('tapped', T1), e('tapped', T1)],
    [e('tapped', T1, 'a'), e('tapped', T1, 'b'), e('tapped', T1, 'b')],
  ];
  const r = store(
    sb,
    `const pairs = ${JSON.stringify(pairs)};
out(pairs.map(([a, b]) => [M.newerEntry(a, b), M.newerEntry(b, a)]));
const A = new Map([['k1', pairs[0][0]], ['k2', pairs[2][0]], ['only-a', pairs[3][0]]]);
const B = new Map([['k1', pairs[0][1]], ['k2', pairs[2][1]], ['only-b', pairs[4][1]]]);
const sort = (m) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
out([sort(M.mergeMarks(A, B)), sort(M.mergeMarks(B, A)), sort(M.mergeMarks(M.mergeMarks(A, B), B))]);`,
  );
  assert.equal(r.stderr, '');
  const [picks, merges] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(picks, pairs.map(([, , w]) => [w, w]));
  const want = { k1: e('none', T2), k2: e('rejected', T1), 'only-a': e('none', T1), 'only-b': e('tapped', T1, 'b') };
  assert.deepEqual(merges, [want, want, want]);
});

// ---------------------------------------------------------------- sync through a bare repo

/** A bare repo and clones (name → dir) with their own user.email (`<name>@example.invalid`). */
function clones(...names) {
  const sb = sandbox({ init: false });
  const bare = path.join(sb.base, 'remote.git');
  sb.git('init', '-q', '--bare', bare, { cwd: sb.base });
  const dirs = {};
  for (const n of names) {
    dirs[n] = path.join(sb.base, n);
    sb.git('clone', '-q', bare, dirs[n], { cwd: sb.base });
    sb.git('config', 'user.email', `${n}@example.invalid`, { cwd: dirs[n] });
  }
  return { sb, bare, dirs };
}

function kz(sb, cwd, args, want) {
  const r = sb.kizu(args, { cwd });
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: want, stderr: '' }, `git kizu ${args.join(' ')} in ${path.basename(cwd)}`);
}

const s7 = (oid) => oid.slice(0, 7);
const states = (m) => Object.fromEntries(Object.entries(m).map(([id, e]) => [id, `${e.state} by ${e.by}`]));

test('sync: A taps x, B rejects y, A untaps x later; push/pull converge to identical marks; repeats change nothing', () => {
  const { sb, bare, dirs } = clones('a', 'b');
  const A = dirs.a;
  const B = dirs.b;
  kz(sb, A, ['marks', 'push'], 'no marks to push\n');
  kz(sb, B, ['marks', 'pull'], 'origin has no marks\n');
  assert.equal(rev(sb, REF, B), '');

  setMarks(sb, [upd('x', 'tapped')], { cwd: A });
  const a1 = rev(sb, REF, A);
  kz(sb, A, ['marks', 'push'], `pushed ${s7(a1)} to origin\n`);
  assert.equal(rev(sb, REF, bare), a1);
  assert.equal(rev(sb, 'refs/kizu/remotes/origin/marks', A), a1);

  setMarks(sb, [upd('y', 'rejected', 'b.js', 'b.js:3')], { cwd: B });
  const b1 = rev(sb, REF, B);
  // B's push merges origin first: a merge commit with parents [local, remote]
  const r = sb.kizu(['marks', 'push'], { cwd: B });
  const m1 = rev(sb, REF, B);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: `merged origin into ${REF} (${s7(m1)})\npushed ${s7(m1)} to origin\n`, stderr: '' });
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: B }).trim(), `${m1} ${b1} ${a1}`);
  assert.equal(rev(sb, REF, bare), m1);

  setMarks(sb, [upd('x', 'none')], { cwd: A }); // A untaps x after B's merge recorded A's tap
  const a2 = rev(sb, REF, A);
  const p = sb.kizu(['marks', 'pull'], { cwd: A });
  const m2 = rev(sb, REF, A);
  assert.deepEqual({ status: p.status, stdout: p.stdout, stderr: p.stderr }, { status: 0, stdout: `merged origin into ${REF} (${s7(m2)})\n`, stderr: '' });
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${m2} ${a2} ${m1}`);
  kz(sb, A, ['marks', 'push'], `pushed ${s7(m2)} to origin\n`);
  kz(sb, B, ['marks', 'pull'], `fast-forwarded ${REF} to ${s7(m2)} from origin\n`);

  const want = { [hid('x')]: 'none by a@example.invalid', [hid('y')]: 'rejected by b@example.invalid' };
  assert.deepEqual(states(readMarks(sb, { cwd: A })), want);
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  assert.equal(rev(sb, REF, B), m2);
  assert.equal(rev(sb, REF, bare), m2);

  // idempotent: pulling and pushing again create no commit anywhere
  const n = count(sb, A);
  for (const d of [A, B, A, B]) kz(sb, d, ['marks', 'pull'], 'marks up to date with origin\n');
  for (const d of [A, B]) kz(sb, d, ['marks', 'push'], `origin already has ${s7(m2)}\n`);
  for (const d of [A, B, bare]) assert.equal(rev(sb, REF, d), m2);
  assert.equal(count(sb, A), n);
  assert.equal(count(sb, B), n);
});

test('sync: pulling straight from another clone (a path as remote) both ways; a stale tap cannot resurrect a newer untap', () => {
  const { sb, dirs } = clones('a', 'b');
  const A = dirs.a;
  const B = dirs.b;
  setMarks(sb, [upd('x', 'tapped'), upd('z', 'rejected')], { cwd: A });
  kz(sb, B, ['marks', 'pull', A], `fast-forwarded ${REF} to ${s7(rev(sb, REF, A))} from ${A}\n`);
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/remotes/', { cwd: B }).trim(), `refs/kizu/remotes/${A.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|[._]+$/g, '')}/marks`);
  // both sides now diverge: B untaps x (B holds the stale tap), A taps y
  setMarks(sb, [upd('x', 'none')], { cwd: B });
  setMarks(sb, [upd('y', 'tapped', 'y.md', 'y.md:9')], { cwd: A });
  const a = rev(sb, REF, A);
  const b = rev(sb, REF, B);
  // each pulls the other's pre-merge tip: two different merge commits, equal marks
  const pa = sb.kizu(['marks', 'pull', B], { cwd: A });
  const pb = sb.kizu(['marks', 'pull', A], { cwd: B });
  assert.equal(pa.status, 0);
  assert.equal(pb.status, 0);
  const ma = rev(sb, REF, A);
  const mb = rev(sb, REF, B);
  assert.equal(pa.stdout, `merged ${B} into ${REF} (${s7(ma)})\n`);
  // B pulled after A merged, and A's merge contains B's tip → fast-forward, not a new merge
  assert.equal(pb.stdout, `fast-forwarded ${REF} to ${s7(ma)} from ${A}\n`);
  assert.equal(mb, ma);
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${ma} ${a} ${b}`);
  const want = {
    [hid('x')]: 'none by b@example.invalid',
    [hid('y')]: 'tapped by a@example.invalid',
    [hid('z')]: 'rejected by a@example.invalid',
  };
  assert.deepEqual(states(readMarks(sb, { cwd: A })), want);
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  kz(sb, A, ['marks', 'pull', B], `marks up to date with ${B}\n`);
  kz(sb, B, ['marks', 'pull', A], `marks up to date with ${A}\n`);
  assert.equal(rev(sb, REF, A), ma);
});

test('sync: merges made on both sides at once (criss-cross) converge through origin, then stay put', () => {
  const { sb, bare, dirs } = clones('a', 'b');
  const A = dirs.a;
  const B = dirs.b;
  const side = path.join(sb.base, 'side.git');
  sb.git('init', '-q', '--bare', side, { cwd: sb.base });
  setMarks(sb, [upd('x', 'tapped')], { cwd: A });
  setMarks(sb, [upd('y', 'rejected')], { cwd: B });
  const a = rev(sb, REF, A);
  const b = rev(sb, REF, B);
  kz(sb, A, ['marks', 'push'], `pushed ${s7(a)} to origin\n`);
  kz(sb, B, ['marks', 'push', side], `pushed ${s7(b)} to ${side}\n`);
  // B merges origin (a) while A merges side (b): two different merge commits, equal marks
  const pb = sb.kizu(['marks', 'pull'], { cwd: B });
  const pa = sb.kizu(['marks', 'pull', side], { cwd: A });
  const mb = rev(sb, REF, B);
  const ma = rev(sb, REF, A);
  assert.equal(pb.stdout, `merged origin into ${REF} (${s7(mb)})\n`);
  assert.equal(pa.stdout, `merged ${side} into ${REF} (${s7(ma)})\n`);
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: B }).trim(), `${mb} ${b} ${a}`);
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${ma} ${a} ${b}`);
  assert.notEqual(ma, mb);
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  // B pushes mb (a fast-forward of origin); A must merge mb before its push
  kz(sb, B, ['marks', 'push'], `pushed ${s7(mb)} to origin\n`);
  const r = sb.kizu(['marks', 'push'], { cwd: A });
  const m3 = rev(sb, REF, A);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: `merged origin into ${REF} (${s7(m3)})\npushed ${s7(m3)} to origin\n`, stderr: '' });
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${m3} ${ma} ${mb}`);
  kz(sb, B, ['marks', 'pull'], `fast-forwarded ${REF} to ${s7(m3)} from origin\n`);
  for (const d of [A, B, bare]) assert.equal(rev(sb, REF, d), m3);
  assert.deepEqual(states(readMarks(sb, { cwd: B })), { [hid('x')]: 'tapped by a@example.invalid', [hid('y')]: 'rejected by b@example.invalid' });
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  for (const d of [A, B]) kz(sb, d, ['marks', 'pull'], 'marks up to date with origin\n');
  for (const d of [A, B, bare]) assert.equal(rev(sb, REF, d), m3);
});

test('sync: 4 clones pushing at the same moment all land (lease CAS + retry)', async () => {
  const names = ['a', 'b', 'c', 'd'];
  const { sb, bare, dirs } = clones(...names);
  for (const n of names) setMarks(sb, [upd(n, 'tapped', `${n}.txt`, `${n}.txt:1`)], { cwd: dirs[n] });
  const results = await Promise.all(names.map((n) => run('git', ['kizu', 'marks', 'push'], { cwd: dirs[n], env: sb.env })));
  for (const [i, r] of results.entries()) {
    assert.equal(r.status, 0, `${names[i]}: ${r.stderr}`);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /(^|\n)pushed [0-9a-f]{7} to origin\n$/);
  }
  for (const n of names) sb.kizu(['marks', 'pull'], { cwd: dirs[n] });
  const want = Object.fromEntries(names.map((n) => [hid(n), `tapped by ${n}@example.invalid`]));
  for (const n of names) {
    assert.deepEqual(states(readMarks(sb, { cwd: dirs[n] })), want, n);
    assert.equal(rev(sb, REF, dirs[n]), rev(sb, REF, bare), n);
  }
});

test('sync: unknown remote → exit 2 with git message and hint; corrupt remote marks refused, local unchanged', () => {
  const sb = sandbox();
  const hint = 'hint: check the name with `git remote -v` (add one with `git remote add <name> <url>`), or pass a URL or path\n';
  for (const args of [['marks', 'pull'], ['marks', 'push'], ['marks', 'pull', 'nope'], ['marks', 'push', 'nope']]) {
    const name = args[2] ?? 'origin';
    const r = sb.kizu(args);
    assert.deepEqual(
      { status: r.status, stdout: r.stdout, stderr: r.stderr },
      {
        status: 2,
        stdout: '',
        stderr: `git-kizu: error: cannot reach remote "${name}" (git exit 128): fatal: '${name}' does not appear to be a git repository; fatal: Could not read from remote repository.\n${hint}`,
      },
    );
  }

  const { sb: s2, bare, dirs } = clones('a');
  const A = dirs.a;
  setMarks(s2, [upd('x', 'tapped')], { cwd: A });
  const local = rev(s2, REF, A);
  const blob = s2.git('hash-object', '-w', '--stdin', { cwd: bare, input: 'junk\n' }).trim();
  s2.git('update-ref', REF, blob, { cwd: bare });
  const remoteHint =
    'hint: your refs/kizu/marks was not changed; the remote\'s marks are fetched into refs/kizu/remotes/origin/marks for inspection; whoever can push there can replace them with `git push origin +<good commit>:refs/kizu/marks` (or delete them with `git push origin :refs/kizu/marks`)\n';
  for (const cmd of ['pull', 'push']) {
    const r = s2.kizu(['marks', cmd], { cwd: A });
    assert.deepEqual(
      { status: r.status, stdout: r.stdout, stderr: r.stderr },
      { status: 2, stdout: '', stderr: `git-kizu: error: origin's refs/kizu/marks is corrupt: ${blob} is a blob, not a commit\n${remoteHint}` },
    );
    assert.equal(rev(s2, REF, A), local);
    assert.equal(rev(s2, REF, bare), blob);
  }
  // a corrupt local ref is never published
  s2.git('update-ref', '-d', REF, { cwd: bare });
  const bad = commitWithMarks(s2, '{"version": 1, "marks": 3}', 'marks.json', A);
  s2.git('update-ref', REF, bad, { cwd: A });
  const r = s2.kizu(['marks', 'push'], { cwd: A });
  assert.deepEqual(
    { status: r.status, stdout: r.stdout, stderr: r.stderr },
    { status: 2, stdout: '', stderr: `git-kizu: error: ${REF} is corrupt: marks.json has no "marks" object\nhint: ${corruptHint(REF)}\n` },
  );
  assert.equal(rev(s2, REF, bare), '');
});

// ---------------------------------------------------------------- commands (need src/hunks)

/** listHunks in the sandbox: [{id, short, range, path}] via the hunks module API. */
function hunks(sb) {
  const r = sb.run(process.execPath, [
    ...TS,
    '--input-type=module',
    '-e',
    `import * as H from ${JSON.stringify(HUNKS)};
const { hunks } = await H.listHunks(process.cwd());
process.stdout.write(JSON.stringify(hunks.map((h) => ({ id: h.id, short: H.shortId(h), range: H.hunkRange(h), path: h.path }))));`,
  ]);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
}

function changedRepo() {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  const sb = sandbox({ files: { 'a.txt': lines.join('\n') + '\n', 'b.txt': 'one\ntwo\n' } });
  const edited = [...lines];
  edited[1] = 'LINE 2';
  edited[24] = 'LINE 25';
  sb.write({ 'a.txt': edited.join('\n') + '\n', 'b.txt': 'one\nTWO\n', 'new.txt': 'fresh\n' });
  return sb;
}

test('commands: tap by id prefix, reject by path:line, untap; one line per mark; stored with path and range', () => {
  const sb = changedRepo();
  const hs = hunks(sb);
  assert.deepEqual(hs.map((h) => h.range), ['a.txt:2', 'a.txt:25', 'b.txt:2', 'new.txt:1']);
  const [h1, h2, h3, h4] = hs;
  kz(sb, sb.dir, ['tap', h1.id.slice(0, 6), h3.short], `tapped ${h1.short} a.txt:2\ntapped ${h3.short} b.txt:2\n`);
  kz(sb, sb.dir, ['reject', 'a.txt:25', 'new.txt:1'], `rejected ${h2.short} a.txt:25\nrejected ${h4.short} new.txt:1\n`);
  kz(sb, sb.dir, ['untap', h1.short], `untapped ${h1.short} a.txt:2\n`);
  const m = readMarks(sb);
  assert.deepEqual(
    Object.fromEntries(Object.entries(m).map(([id, e]) => [id, [e.state, e.by, e.path, e.range]])),
    Object.fromEntries(
      [
        [h1.id, ['none', EMAIL, 'a.txt', 'a.txt:2']],
        [h2.id, ['rejected', EMAIL, 'a.txt', 'a.txt:25']],
        [h3.id, ['tapped', EMAIL, 'b.txt', 'b.txt:2']],
        [h4.id, ['rejected', EMAIL, 'new.txt', 'new.txt:1']],
      ].sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );
  assert.equal(count(sb), 3);
  // marks list: tombstones hidden, sorted by path/range
  const l = sb.kizu(['marks', 'list']);
  assert.equal(l.status, 0);
  assert.equal(
    l.stdout,
    `rejected ${h2.id} a.txt:25  ${EMAIL} ${m[h2.id].time}\ntapped ${h3.id} b.txt:2  ${EMAIL} ${m[h3.id].time}\nrejected ${h4.id} new.txt:1  ${EMAIL} ${m[h4.id].time}\n`,
  );
  const j = sb.kizu(['marks', 'list', '--json']);
  assert.deepEqual(JSON.parse(j.stdout), m);
  // the same hunk twice is marked once
  kz(sb, sb.dir, ['tap', h3.short, 'b.txt:2'], `tapped ${h3.short} b.txt:2\n`);
});

test('commands: --all taps / rejects / untaps every current hunk', () => {
  const sb = changedRepo();
  const hs = hunks(sb);
  const lines = (verb) => hs.map((h) => `${verb} ${h.short} ${h.range}\n`).join('');
  kz(sb, sb.dir, ['tap', '--all'], lines('tapped'));
  assert.deepEqual(Object.values(readMarks(sb)).map((e) => e.state), ['tapped', 'tapped', 'tapped', 'tapped']);
  kz(sb, sb.dir, ['reject', '--all'], lines('rejected'));
  assert.deepEqual(Object.values(readMarks(sb)).map((e) => e.state), ['rejected', 'rejected', 'rejected', 'rejected']);
  kz(sb, sb.dir, ['untap', '--all'], lines('untapped'));
  assert.deepEqual(Object.values(readMarks(sb)).map((e) => e.state), ['none', 'none', 'none', 'none']);
  assert.equal(count(sb), 3);
  // nothing changed → nothing to mark, no commit
  const clean = sandbox({ files: { 'a.txt': 'x\n' } });
  const r = clean.kizu(['tap', '--all']);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: '', stderr: 'git-kizu: warning: no hunks to tap\n' });
  assert.equal(rev(clean), '');
});

test('commands: unknown or ambiguous hunk → exit 1 with candidates, nothing written; usage errors → exit 2', () => {
  const sb = changedRepo();
  const hs = hunks(sb);
  const cands = hs.map((h) => `  ${h.short}  ${h.range}`).join('\n');
  const r = sb.kizu(['tap', hs[0].short, 'ffffffff']);
  assert.deepEqual(
    { status: r.status, stdout: r.stdout, stderr: r.stderr },
    { status: 1, stdout: '', stderr: `git-kizu: error: no hunk matches "ffffffff" (the file may have changed since it was listed)\nhint: current hunks (git kizu hunks lists them all):\n${cands}\n` },
  );
  const a = sb.kizu(['reject', 'a.txt']);
  assert.deepEqual(
    { status: a.status, stdout: a.stdout, stderr: a.stderr },
    { status: 1, stdout: '', stderr: `git-kizu: error: "a.txt" matches 2 hunks\nhint: name one by a longer id or by path:line:\n  ${hs[0].short}  a.txt:2\n  ${hs[1].short}  a.txt:25\n` },
  );
  assert.equal(rev(sb), '');
  for (const [args, msg, hint] of [
    [['tap'], 'tap: no hunk given', 'git kizu tap <id prefix or path:line>... (see git kizu hunks), or --all'],
    [['untap', '--all', hs[0].short], 'untap: give hunks or --all, not both', 'git kizu untap --all, or git kizu untap <hunk>...'],
  ]) {
    const u = sb.kizu(args);
    assert.deepEqual({ status: u.status, stdout: u.stdout, stderr: u.stderr }, { status: 2, stdout: '', stderr: `git-kizu: error: ${msg}\nhint: ${hint}\n` });
  }
  assert.equal(rev(sb), '');
});

test('store: the marks cache is used only for the commit it names; a stale or garbled cache is ignored', () => {
  const sb = sandbox();
  setMarks(sb, [upd('a', 'tapped')]);
  const first = sb.git('rev-parse', REF).trim();
  setMarks(sb, [upd('b', 'rejected')]);
  assert.deepEqual(Object.keys(readMarks(sb)).sort(), [hid('a'), hid('b')].sort());
  // The ref moves back behind our back (another tool, a reset): the cache names the newer commit.
  sb.git('update-ref', REF, first);
  assert.deepEqual(Object.keys(readMarks(sb)), [hid('a')]);
  const cache = path.join(sb.dir, '.git', 'kizu', 'marks-cache.json');
  assert.equal(JSON.parse(readFileSync(cache, 'utf8')).oid, first, 'the cache now names what was read');
  writeFileSync(cache, '{"oid": "' + first + '", "json": 12');
  assert.deepEqual(Object.keys(readMarks(sb)), [hid('a')]);
  writeFileSync(cache, JSON.stringify({ oid: first, json: '{"version": 1, "marks": {}}' }).replace(first, 'f'.repeat(40)));
  assert.deepEqual(Object.keys(readMarks(sb)), [hid('a')]);
});
