// `git kizu tap|reject|untap` and `git kizu marks list` through the real bin: one line per
// mark, marks stored with path and range, candidates for unknown hunks, paths relative to the
// current directory, and marks commits git accepts (fsck) or refuses to build on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EMAIL, sandbox, src } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { REF, count, readMarks } from '../helpers/marks.mjs';
import { rev } from '../helpers/refs.mjs';

/** listHunks in the sandbox: [{id, short, range, path}] via the hunks module API (src/hunks/listing.ts). */
function hunks(sb) {
  const r = sb.runModule(`import * as H from ${JSON.stringify(src('hunks/listing.ts'))};
const { hunks } = await H.listHunks(process.cwd());
process.stdout.write(JSON.stringify(hunks.map((h) => ({ id: h.id, short: H.shortId(h), range: H.hunkRange(h), path: h.path }))));`);
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
  expectRun(sb, ['tap', h1.id.slice(0, 6), h3.short], { status: 0, stdout: `tapped ${h1.short} a.txt:2\ntapped ${h3.short} b.txt:2\n`, cwd: sb.dir });
  expectRun(sb, ['reject', 'a.txt:25', 'new.txt:1'], { status: 0, stdout: `rejected ${h2.short} a.txt:25\nrejected ${h4.short} new.txt:1\n`, cwd: sb.dir });
  expectRun(sb, ['untap', h1.short], { status: 0, stdout: `untapped ${h1.short} a.txt:2\n`, cwd: sb.dir });
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
  expectRun(sb, ['tap', h3.short, 'b.txt:2'], { status: 0, stdout: `tapped ${h3.short} b.txt:2\n`, cwd: sb.dir });
});

test('commands: --all taps / rejects / untaps every current hunk', () => {
  const sb = changedRepo();
  const hs = hunks(sb);
  const lines = (verb) => hs.map((h) => `${verb} ${h.short} ${h.range}\n`).join('');
  expectRun(sb, ['tap', '--all'], { status: 0, stdout: lines('tapped'), cwd: sb.dir });
  assert.deepEqual(Object.values(readMarks(sb)).map((e) => e.state), ['tapped', 'tapped', 'tapped', 'tapped']);
  expectRun(sb, ['reject', '--all'], { status: 0, stdout: lines('rejected'), cwd: sb.dir });
  assert.deepEqual(Object.values(readMarks(sb)).map((e) => e.state), ['rejected', 'rejected', 'rejected', 'rejected']);
  expectRun(sb, ['untap', '--all'], { status: 0, stdout: lines('untapped'), cwd: sb.dir });
  assert.deepEqual(Object.values(readMarks(sb)).map((e) => e.state), ['none', 'none', 'none', 'none']);
  assert.equal(count(sb), 3);
  // nothing changed → nothing to mark, no commit
  const clean = sandbox({ files: { 'a.txt': 'x\n' } });
  const r = clean.kizu(['tap', '--all']);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: '', stderr: 'git-kizu: warning: no hunks to tap\n' });
  assert.equal(rev(clean, REF), '');
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
  assert.equal(rev(sb, REF), '');
  for (const [args, msg, hint] of [
    [['tap'], 'tap: no hunk given', 'git kizu tap <id prefix or path:line>... (see git kizu hunks), or --all'],
    [['untap', '--all', hs[0].short], 'untap: give hunks or --all, not both', 'git kizu untap --all, or git kizu untap <hunk>...'],
  ]) {
    const u = sb.kizu(args);
    assert.deepEqual({ status: u.status, stdout: u.stdout, stderr: u.stderr }, { status: 2, stdout: '', stderr: `git-kizu: error: ${msg}\nhint: ${hint}\n` });
  }
  assert.equal(rev(sb, REF), '');
});

test('tap/reject/untap resolve path:line relative to the current directory, like revert and scar', () => {
  const sb = sandbox({ files: { 'src/app.ts': 'a;\nb;\nc;\n' } });
  sb.write({ 'src/app.ts': 'a;\nB;\nc;\n' });
  const cwd = path.join(sb.dir, 'src');
  const r = sb.kizu(['tap', 'app.ts:2'], { cwd });
  assert.equal(r.status, 0, r.stderr);
  const [h] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  assert.equal(r.stdout, `tapped ${h.shortId} src/app.ts:2\n`);
  assert.equal(h.mark, 'tapped');
  assert.equal(sb.kizu(['reject', 'app.ts:2'], { cwd }).status, 0);
  assert.equal(JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0].mark, 'rejected');
  assert.equal(sb.kizu(['untap', 'app.ts:2'], { cwd }).status, 0);
  assert.equal(JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0].mark, 'unreviewed');
});

test('a hunk id shorter than 4 hex digits gets its own message (exit 1)', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n' } });
  sb.write({ 'a.js': 'b\n' });
  const r = sb.kizu(['tap', '9']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^git-kizu: error: "9" is too short for a hunk id: use at least 4 hex digits\n/);
});

test('objects: tap and untap through the bin leave objects git accepts (fsck --strict, cat-file), before and after git gc', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\ntwo\n' } });
  sb.write({ 'a.txt': 'one\nTWO\n', 'n.txt': 'new\n' });
  const hs = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  const fsck = () => {
    const f = sb.run('git', ['fsck', '--strict', '--no-dangling']);
    assert.deepEqual({ status: f.status, stderr: f.stderr }, { status: 0, stderr: '' });
  };
  const kz = (args, stdout) => {
    const r = sb.kizu(args);
    assert.deepEqual({ status: r.status, stderr: r.stderr, stdout: r.stdout }, { status: 0, stderr: '', stdout });
  };
  kz(['tap', hs[0].shortId], `tapped ${hs[0].shortId} a.txt:2\n`);
  kz(['reject', hs[1].shortId], `rejected ${hs[1].shortId} n.txt:1\n`);
  fsck();
  const c = sb.git('cat-file', '-p', 'refs/kizu/marks');
  assert.match(c, /^tree [0-9a-f]{40}\nparent [0-9a-f]{40}\nauthor Kizu Test <kizu@example\.invalid> \d+ [+-]\d{4}\ncommitter Kizu Test <kizu@example\.invalid> \d+ [+-]\d{4}\n\nkizu: reject 1\n\nreject [0-9a-f]{40} n\.txt:1\n$/);
  assert.match(sb.git('cat-file', '-p', 'refs/kizu/marks^{tree}'), /^100644 blob [0-9a-f]{40}\tmarks\.json\n$/);
  const stored = JSON.parse(sb.git('cat-file', '-p', 'refs/kizu/marks:marks.json'));
  assert.deepEqual(Object.keys(stored.marks).sort(), [hs[0].id, hs[1].id].sort());
  // Packed by git gc: read through isomorphic-git, the next write is loose again.
  sb.git('gc', '-q');
  kz(['untap', hs[0].shortId], `untapped ${hs[0].shortId} a.txt:2\n`);
  fsck();
  assert.equal(JSON.parse(sb.git('cat-file', '-p', 'refs/kizu/marks:marks.json')).marks[hs[0].id].state, 'none');
  assert.equal(sb.git('rev-list', '--count', 'refs/kizu/marks').trim(), '3');
  const r = sb.kizu(['hunks']);
  assert.equal(r.stdout, `${hs[0].shortId}  a.txt:2  +1 -1  modified\n${hs[1].shortId}  n.txt:1  +1 -0  untracked  [rejected]\n`);
});

test('objects: a damaged loose marks commit is refused, and nothing is written over it', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  sb.write({ 'a.txt': 'y\n' });
  const h = JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0];
  assert.equal(sb.kizu(['tap', h.shortId]).status, 0);
  const oid = sb.git('rev-parse', 'refs/kizu/marks').trim();
  const file = sb.path(`.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`);
  chmodSync(file, 0o644);
  writeFileSync(file, 'not zlib data');
  // A writer reads through isomorphic-git, not the marks cache: it refuses and writes nothing.
  const t = sb.kizu(['tap', h.shortId]);
  assert.equal(t.status, 2);
  assert.match(t.stderr, new RegExp(`^git-kizu: error: refs/kizu/marks is corrupt: cannot read commit ${oid} \\(.+\\)\\nhint: earlier values are in`));
  assert.equal(sb.git('rev-parse', 'refs/kizu/marks').trim(), oid);
  assert.ok(readdirSync(path.dirname(file)).every((f) => !f.endsWith('.tmp')));
  // A reader without the cache of that commit refuses too.
  rmSync(sb.path('.git/kizu/marks-cache.json'));
  const r = sb.kizu(['marks', 'list']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`^git-kizu: error: refs/kizu/marks is corrupt: cannot read commit ${oid} \\(.+\\)\\nhint: earlier values are in`));
});

test('objects: in a SHA-256 repository tap refuses with a clear error and writes no object', () => {
  const sb = sandbox({ init: false });
  sb.git('init', '-q', '--object-format=sha256');
  sb.write({ f: '1\n2\n3\n' });
  sb.git('add', 'f');
  sb.git('commit', '-q', '-m', 'i');
  sb.write({ f: '1\n2\n3\n4\n' });
  const objects = sb.git('count-objects', '-v');
  const r = sb.kizu(['tap', 'f:4']);
  assert.equal(r.status, 2);
  assert.equal(
    r.stderr,
    'git-kizu: error: review marks are not available in a SHA-256 repository: isomorphic-git, which writes them, supports SHA-1 objects only\n' +
      'hint: use scars (git kizu scar) or the review queue (git kizu queue add) to review here; snapshots and rollback work in SHA-256 repositories\n',
  );
  assert.equal(sb.git('count-objects', '-v'), objects);
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), '');
  assert.equal(sb.git('fsck', '--strict', '--no-dangling').trim(), '');
});
