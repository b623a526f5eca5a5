// Derived state under <git-dir>/kizu/ that the agent can write: a cache changes speed, never
// an answer (README "Review queue", "Hunks, marks and revert"). Forged caches against the real
// bin's Stop hook and `status`; the marks merge that keeps a local reject over a mark dated
// in the future or set by an agent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { Q, TEMPLATE, add, line, repo, stop } from '../helpers/queue.mjs';
import { REF } from '../helpers/marks.mjs';

const sha1 = (s) => createHash('sha1').update(s).digest('hex');
const queueCache = (sb) => sb.path('.git/kizu/queue-cache.json');
const marksCache = (sb) => sb.path('.git/kizu/marks-cache.json');
const oneOpen = (id, text) => `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n` + line(id, text);

/** `git kizu status --json` parsed (exit 1: something blocks). */
function status(sb) {
  const r = sb.kizu(['status', '--json']);
  assert.equal(r.status, 1, r.stderr);
  return JSON.parse(r.stdout);
}

test('queue cache: emptied, ticked, reworded or reordered under the right hash, it is not believed (Stop hook and status)', () => {
  const sb = repo();
  const a = add(sb, 'keep the old API');
  const b = add(sb, 'explain the rename');
  sb.kizu(['queue', 'done', b]);
  const text = sb.read(Q);
  const good = JSON.parse(readFileSync(queueCache(sb), 'utf8'));
  assert.equal(good.hash, sha1(text));
  assert.equal(stop(sb, false).reason, oneOpen(a, 'keep the old API'));
  const [x, y] = good.items;
  const forgeries = {
    empty: [],
    ticked: [{ ...x, checked: true }, y],
    reworded: [{ ...x, text: 'nothing to do' }, y],
    dropped: [y],
    'id moved': [{ ...x, id: y.id }, { ...y, id: x.id }],
    'text cut short': [{ ...x, rawEnd: x.rawEnd - 4, text: 'keep the old' }, y],
  };
  for (const [what, items] of Object.entries(forgeries)) {
    writeFileSync(queueCache(sb), JSON.stringify({ ...good, items }));
    assert.equal(stop(sb, false).reason, oneOpen(a, 'keep the old API'), what);
    writeFileSync(queueCache(sb), JSON.stringify({ ...good, items }));
    assert.deepEqual(status(sb).queue.open.map((i) => [i.id, i.checked, i.text]), [[a, false, 'keep the old API']], what);
  }
  // After a forgery the hook parsed the file and wrote the true cache back.
  assert.deepEqual(JSON.parse(readFileSync(queueCache(sb), 'utf8')), good);
});

test('queue cache: the cache written for a file is proven against it (kept: speed); a checkbox in a code block is parsed each time (same answer)', async () => {
  const { provenItems, itemsOf } = await import(src('queue/read.ts'));
  const { parseQueueDetailed } = await import(src('queue/parse.ts'));
  const sb = sandbox();
  const gitDir = path.join(sb.dir, '.git');
  const texts = [
    TEMPLATE + '- [ ] one <!-- kizu:a1 -->\n- [x] two\n  - [ ] nested `src/a.ts:3` child\n\n1. [ ] (ask) numbered\n   continued here\n',
    '\uFEFF- [ ] bom\r\n- [ ] crlf\r\n',
    '> - [ ] quoted\n- - [ ] same line\n- [ ] dup\n- [ ] dup\n',
  ];
  for (const t of texts) {
    const { items, rawEnds } = await parseQueueDetailed(t);
    assert.deepEqual(provenItems(t, items.map((i, k) => ({ ...i, rawEnd: rawEnds[k] }))), items, JSON.stringify(t));
  }
  const fenced = '- [ ] real\n\n```\n- [ ] example in a code block\n```\n';
  const { items, rawEnds } = await parseQueueDetailed(fenced);
  assert.equal(items.length, 1);
  assert.equal(provenItems(fenced, items.map((i, k) => ({ ...i, rawEnd: rawEnds[k] }))), null);
  assert.deepEqual(await itemsOf(fenced, gitDir), items);
  assert.deepEqual(await itemsOf(fenced, gitDir), items);
});

/** A repo with one changed hunk that the human rejected; returns {sb, id}. */
function rejectedHunk() {
  const sb = sandbox({ files: { 'src/a.js': 'one\ntwo\nthree\n' } });
  sb.write({ 'src/a.js': 'one\nTWO\nthree\n' });
  const h = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  assert.equal(h.length, 1);
  const r = sb.kizu(['reject', h[0].shortId]);
  assert.equal(r.status, 0, r.stderr);
  return { sb, id: h[0].id, short: h[0].id.slice(0, 7) };
}

const stopBlocks = (sb) => {
  const out = stop(sb, false);
  return !!out && out.decision === 'block' && /rejected/.test(out.reason);
};

test('marks cache: a forged marks.json under the current commit id is not believed (the reject still blocks)', () => {
  const { sb, id } = rejectedHunk();
  assert.equal(stopBlocks(sb), true);
  const c = JSON.parse(readFileSync(marksCache(sb), 'utf8'));
  assert.equal(c.oid, sb.git('rev-parse', REF).trim());
  const forged = JSON.parse(c.json);
  forged.marks[id].state = 'none';
  const json = JSON.stringify(forged, null, 2) + '\n';
  writeFileSync(marksCache(sb), JSON.stringify({ ...c, json }));
  assert.equal(stopBlocks(sb), true, 'forged json with the proof of another blob');
  writeFileSync(marksCache(sb), JSON.stringify({ oid: c.oid, json })); // the old cache format
  assert.equal(stopBlocks(sb), true, 'forged json without a proof');
  writeFileSync(marksCache(sb), JSON.stringify({ ...c, json }));
  const st = status(sb);
  assert.equal(st.hunks.rejected, 1);
  // The next reader proved the store again and wrote the true entry back.
  assert.deepEqual(JSON.parse(readFileSync(marksCache(sb), 'utf8')), c);
});

/**
 * A bare remote holding a marks commit whose parent is the local one (a fast-forward) or that
 * has no parent (a merge), with `entry` for hunk `id`; returns the remote's path.
 */
function remoteWith(sb, id, entry, { parent }) {
  const local = sb.git('rev-parse', REF).trim();
  const mine = JSON.parse(sb.git('cat-file', 'blob', `${local}:marks.json`));
  const text = JSON.stringify({ version: 1, marks: { ...(parent ? mine.marks : {}), [id]: entry } }, null, 2) + '\n';
  const blob = sb.git('hash-object', '-w', '--stdin', { input: text }).trim();
  const tree = sb.git('mktree', { input: `100644 blob ${blob}\tmarks.json\n` }).trim();
  const commit = sb.git('commit-tree', tree, ...(parent ? ['-p', local] : []), '-m', 'theirs').trim();
  const bare = path.join(sb.base, `remote-${parent ? 'ff' : 'merge'}.git`);
  sb.git('init', '-q', '--bare', bare);
  sb.git('push', '-q', bare, `${commit}:${REF}`);
  return bare;
}

for (const parent of [true, false]) {
  test(`marks pull: a tap dated in the future does not override the human's reject (${parent ? 'fast-forward' : 'merge'}); it is said`, () => {
    const { sb, id, short } = rejectedHunk();
    const bare = remoteWith(sb, id, { state: 'tapped', time: '2999-01-01T00:00:00.000Z', by: 'mallory@example.invalid', path: 'src/a.js', range: 'src/a.js:2' }, { parent });
    const r = sb.kizu(['marks', 'pull', bare]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^merged .* into refs\/kizu\/marks \([0-9a-f]{7}\)\n$/);
    assert.equal(r.stderr, `git-kizu: warning: kept your reject of ${short} src/a.js:2: ${bare}'s mark for it is dated in the future or was set by an agent\n`);
    const m = JSON.parse(sb.kizu(['marks', 'list', '--json']).stdout);
    assert.equal(m[id].state, 'rejected');
    assert.equal(m[id].by, 'kizu@example.invalid');
    assert.equal(stopBlocks(sb), true);
    // Pulling again changes nothing.
    const again = sb.kizu(['marks', 'pull', bare]);
    assert.deepEqual([again.status, again.stdout, again.stderr], [0, `marks up to date with ${bare}\n`, '']);
  });
}

test("marks pull: an agent's tap from elsewhere does not override the human's reject; a person's newer tap does, and it is said", () => {
  const { sb, id, short } = rejectedHunk();
  // The agent's tap is dated just after the reject, not in the future: its `by` keeps the reject.
  const entry = JSON.parse(sb.git('cat-file', 'blob', `${sb.git('rev-parse', REF).trim()}:marks.json`)).marks[id];
  const past = remoteWith(sb, id, { state: 'tapped', time: new Date(Date.parse(entry.time) + 1).toISOString(), by: 'agent:claude', path: 'src/a.js', range: 'src/a.js:2' }, { parent: false });
  const r = sb.kizu(['marks', 'pull', past]);
  assert.equal(r.stderr, `git-kizu: warning: kept your reject of ${short} src/a.js:2: ${past}'s mark for it is dated in the future or was set by an agent\n`);
  assert.equal(JSON.parse(sb.kizu(['marks', 'list', '--json']).stdout)[id].state, 'rejected');
  // A teammate's later tap (not in the future) replaces it, with a line that says so.
  const local = JSON.parse(sb.git('cat-file', 'blob', `${sb.git('rev-parse', REF).trim()}:marks.json`)).marks[id];
  const later = new Date(Date.parse(local.time) + 1).toISOString();
  const sbBare = path.join(sb.base, 'teammate.git');
  sb.git('init', '-q', '--bare', sbBare);
  const text = JSON.stringify({ version: 1, marks: { [id]: { state: 'tapped', time: later, by: 'bob@example.invalid', path: 'src/a.js', range: 'src/a.js:2' } } }, null, 2) + '\n';
  const blob = sb.git('hash-object', '-w', '--stdin', { input: text }).trim();
  const tree = sb.git('mktree', { input: `100644 blob ${blob}\tmarks.json\n` }).trim();
  const commit = sb.git('commit-tree', tree, '-m', 'bob').trim();
  sb.git('push', '-q', sbBare, `${commit}:${REF}`);
  const p = sb.kizu(['marks', 'pull', sbBare]);
  assert.equal(p.stderr, `git-kizu: warning: your reject of ${short} src/a.js:2 was replaced by a newer mark from ${sbBare} (tapped); git kizu reject ${short} sets it again\n`);
  assert.equal(JSON.parse(sb.kizu(['marks', 'list', '--json']).stdout)[id].state, 'tapped');
});
