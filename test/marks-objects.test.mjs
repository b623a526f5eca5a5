// The marks store's objects (written with isomorphic-git, deflated with its pako: see
// src/marks/store.ts withPakoDeflate): git accepts them (fsck --strict, cat-file), packed or
// damaged objects are read or refused as before, and the spawn-free commonDir/resolveRef
// agree with git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, chmodSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandbox, ROOT, TS } from './helpers.mjs';

const STORE = pathToFileURL(path.join(ROOT, 'src', 'marks', 'commits.ts')).href;
const FORMAT = pathToFileURL(path.join(ROOT, 'src', 'marks', 'format.ts')).href;
const REPO = pathToFileURL(path.join(ROOT, 'src', 'git', 'repo.ts')).href;
const REFS = pathToFileURL(path.join(ROOT, 'src', 'git', 'refs.ts')).href;

function node(sb, code, opts = {}) {
  const r = sb.run(process.execPath, [...TS, '--input-type=module', '-e', code], opts);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout);
}

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

test('commonDir and resolveRef from the files agree with git: main tree, linked worktree, absent/loose/packed refs, GIT_DIR', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  sb.git('worktree', 'add', '-q', '-b', 'wt', path.join(sb.base, 'wt'));
  const probe = (cwd, env = {}) =>
    node(
      sb,
      `const R = await import(${JSON.stringify(REPO)});
const S = await import(${JSON.stringify(REFS)});
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
    `const S = await import(${JSON.stringify(STORE)});
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
