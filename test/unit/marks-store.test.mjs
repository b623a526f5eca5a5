// The marks store in refs/kizu/marks through its API (src/marks/read.ts, src/marks/commits.ts)
// in child node processes in real temp repos: set, read, tombstones, storage, the cache,
// concurrent writers, corrupt refs, the merge rules, the spawn-free ref reading
// (src/git/repo.ts commonDir, src/git/refs.ts resolveRef), and how objects are deflated.
// Exact values throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EMAIL, TS, sandbox, spawnAsync, src } from '../helpers/sandbox.mjs';
import { ISO_MS, REF, commitWithMarks, corruptHint, count, hid, readMarks, script, setMarks, store, upd } from '../helpers/marks.mjs';
import { rev } from '../helpers/refs.mjs';

/** Checks an entry's fields, with `time` an ISO-8601 ms string; returns the time. */
function checkEntry(e, { state, by = EMAIL, path: p, range }) {
  assert.match(e.time, ISO_MS);
  assert.deepEqual(e, { state, time: e.time, by, path: p, range });
  return e.time;
}

/** Runs ES module `code` with tsx in the sandbox (opts: cwd, env); asserts exit 0 and no stderr; returns its stdout parsed. */
function node(sb, code, opts = {}) {
  const r = sb.runModule(code, opts);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout);
}

test('store: no ref → empty map; set, read back, tombstone; one commit per call with reflog', () => {
  const sb = sandbox();
  assert.deepEqual(readMarks(sb), {});
  assert.equal(rev(sb, REF), '');
  setMarks(sb, [upd('x', 'tapped'), upd('y', 'rejected', 'b.js', 'b.js:7')]);
  let m = readMarks(sb);
  assert.deepEqual(Object.keys(m), [hid('x'), hid('y')].sort());
  const tx = checkEntry(m[hid('x')], { state: 'tapped', path: 'src/a.ts', range: 'src/a.ts:1-2' });
  checkEntry(m[hid('y')], { state: 'rejected', path: 'b.js', range: 'b.js:7' });
  const first = rev(sb, REF);

  setMarks(sb, [upd('x', 'none')]);
  m = readMarks(sb);
  const tu = checkEntry(m[hid('x')], { state: 'none', path: 'src/a.ts', range: 'src/a.ts:1-2' });
  assert.ok(tu > tx, `tombstone time ${tu} must be later than the tap ${tx}`);
  checkEntry(m[hid('y')], { state: 'rejected', path: 'b.js', range: 'b.js:7' });

  // markOf: tombstone and absent → unreviewed
  const r = store(sb, `const m = await M.readMarks(root); out([M.markOf(m, ${JSON.stringify(hid('x'))}), M.markOf(m, ${JSON.stringify(hid('y'))}), M.markOf(m, 'ffff')]);`);
  assert.deepEqual(JSON.parse(r.stdout), ['unreviewed', 'rejected', 'unreviewed']);

  // storage: a linear chain, one marks.json per tree, canonical JSON, reflog per update
  assert.equal(sb.git('rev-list', '--parents', REF).trim(), `${rev(sb, REF)} ${first}\n${first}`);
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
  const before = rev(sb, REF);
  setMarks(sb, []); // an empty update writes nothing
  assert.equal(rev(sb, REF), before);
  assert.equal(count(sb), 1);
  for (const [u, msg, hint] of [
    [{ id: 'XYZ', state: 'tapped', path: 'a', range: 'a:1' }, 'not a hunk id: "XYZ"', 'hunk ids are lowercase hex (see git kizu hunks)'],
    [{ id: 'abcd', state: 'seen', path: 'a', range: 'a:1' }, 'not a mark state: "seen"', 'use tapped, rejected or none'],
  ]) {
    const r = store(sb, `await M.setMarks(root, [${JSON.stringify(u)}]);`);
    assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 2, stdout: '', stderr: `error: ${msg}\nhint: ${hint}\n` });
  }
  assert.equal(rev(sb, REF), before);
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
    kids.push(spawnAsync(process.execPath, [...TS, '--input-type=module', '-e', script(body)], { cwd: sb.dir, env: sb.env }));
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
    assert.equal(rev(sb, REF), oid, 'ref unchanged');
  }
  // a newer format version: named, with an upgrade hint, ref unchanged
  const v2 = commitWithMarks(sb, '{"version": 2, "marks": {}}');
  sb.git('update-ref', REF, v2);
  const w = store(sb, `await M.setMarks(root, ${JSON.stringify([upd('x', 'tapped')])});`);
  assert.deepEqual(
    { status: w.status, stdout: w.stdout, stderr: w.stderr },
    { status: 2, stdout: '', stderr: `error: ${REF} has marks format version 2; this git-kizu reads version 1\nhint: upgrade git-kizu to a version that reads this format (pull and run npm ci && npm link in its clone); nothing was changed\n` },
  );
  assert.equal(rev(sb, REF), v2);
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

test('commonDir and resolveRef from the files agree with git: main tree, linked worktree, absent/loose/packed refs, GIT_DIR', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  sb.git('worktree', 'add', '-q', '-b', 'wt', path.join(sb.base, 'wt'));
  const probe = (cwd, env = {}) =>
    node(
      sb,
      `const R = await import(${JSON.stringify(src('git/repo.ts'))});
const S = await import(${JSON.stringify(src('git/refs.ts'))});
const root = process.cwd();
process.stdout.write(JSON.stringify([await R.commonDir(root), await S.resolveRef(root, 'refs/kizu/marks'), await S.resolveRef(root, 'refs/heads/main'), await S.resolveRef(root, 'refs/heads/wt')]));`,
      { cwd, env },
    );
  const viaGit = (cwd, env = {}) => {
    const g = (...a) => sb.git(...a, { cwd, env, allowFail: true }).trim() || null;
    return [path.resolve(cwd, g('rev-parse', '--git-common-dir')), g('rev-parse', '-q', '--verify', 'refs/kizu/marks'), g('rev-parse', '-q', '--verify', 'refs/heads/main'), g('rev-parse', '-q', '--verify', 'refs/heads/wt')];
  };
  const wt = path.join(sb.base, 'wt');
  for (const cwd of [sb.dir, wt]) assert.deepEqual(probe(cwd), viaGit(cwd));
  sb.git('update-ref', 'refs/kizu/marks', 'HEAD');
  for (const cwd of [sb.dir, wt]) assert.deepEqual(probe(cwd), viaGit(cwd));
  sb.git('pack-refs', '--all');
  for (const cwd of [sb.dir, wt]) assert.deepEqual(probe(cwd), viaGit(cwd));
  const env = { GIT_DIR: sb.path('.git') };
  assert.deepEqual(probe(sb.dir, env), viaGit(sb.dir, env));
});

test('objects: writing marks deflates with pako, not CompressionStream (which would load undici), and leaves the global as it was', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  const out = node(
    sb,
    `const S = await import(${JSON.stringify(src('marks/commits.ts'))});
const before = Object.getOwnPropertyDescriptor(globalThis, 'CompressionStream');
const gitdir = ${JSON.stringify(path.join(sb.dir, '.git'))};
const who = { name: 'A', email: 'a@example.invalid', timestamp: 1700000000, timezoneOffset: 0 };
const c1 = await S.writeMarksCommit(gitdir, new Map(), [], 'one', who);
const c2 = await S.writeMarksCommit(gitdir, new Map(), [c1], 'two', who);
const after = Object.getOwnPropertyDescriptor(globalThis, 'CompressionStream');
process.stdout.write(JSON.stringify({ undici: process.moduleLoadList.some((m) => m.includes('undici')), same: before.get === after.get && before.set === after.set && before.configurable === after.configurable && before.enumerable === after.enumerable, c1, c2 }));`,
  );
  assert.deepEqual([out.undici, out.same], [false, true]);
  assert.equal(sb.git('cat-file', '-t', out.c2).trim(), 'commit');
  assert.equal(sb.git('rev-parse', `${out.c2}^`).trim(), out.c1);
  assert.equal(sb.git('fsck', '--strict', '--no-dangling').trim(), '');
});

test('format: a reject\'s base and old are kept in order and validated; entries without them read as before; a bad one is corrupt', async () => {
  const F = await import(src('marks/format.ts'));
  const base = 'a'.repeat(40);
  const e = { state: 'rejected', time: '2025-01-01T00:00:00.000Z', by: 'a', path: 'p', range: 'p:2', old: '1,4', base };
  const plain = { state: 'tapped', time: '2025-01-01T00:00:00.000Z', by: 'a', path: 'q', range: 'q:1' };
  const text = F.serializeMarks(new Map([['k1', e], ['k2', plain]]));
  assert.equal(
    text,
    '{\n  "version": 1,\n  "marks": {\n    "k1": {\n      "state": "rejected",\n      "time": "2025-01-01T00:00:00.000Z",\n      "by": "a",\n      "path": "p",\n      "range": "p:2",\n' +
      `      "base": "${base}",\n      "old": "1,4"\n    },\n    "k2": {\n      "state": "tapped",\n      "time": "2025-01-01T00:00:00.000Z",\n      "by": "a",\n      "path": "q",\n      "range": "q:1"\n    }\n  }\n}\n`,
  );
  assert.deepEqual(Object.fromEntries(F.parseMarksJson(Buffer.from(text), REF)), { k1: { state: 'rejected', time: e.time, by: 'a', path: 'p', range: 'p:2', base, old: '1,4' }, k2: plain });
  for (const bad of [{ ...e, base: 'HEAD' }, { ...e, old: '1-4' }, { ...e, old: 7 }]) {
    const doc = JSON.stringify({ version: 1, marks: { k1: bad } });
    assert.throws(() => F.parseMarksJson(Buffer.from(doc), REF), { message: `${REF} is corrupt: marks.json has a malformed entry for "k1"` });
  }
  // Equal times and states: the fields break the tie the same way in either order.
  const other = { ...e, base: 'b'.repeat(40) };
  assert.deepEqual([F.newerEntry(e, other), F.newerEntry(other, e)], [other, other]);
});
