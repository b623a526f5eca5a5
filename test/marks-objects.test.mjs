// The marks store's own object reading and writing (src/marks/objects.ts, store.ts): the
// objects are byte for byte what isomorphic-git wrote before, git accepts them (fsck --strict,
// cat-file), packed or damaged objects are still read by isomorphic-git, and the spawn-free
// commonDir/resolveRef agree with git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, chmodSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandbox, ROOT } from './helpers.mjs';

const STORE = pathToFileURL(path.join(ROOT, 'dist', 'marks', 'store.js')).href;
const FORMAT = pathToFileURL(path.join(ROOT, 'dist', 'marks', 'format.js')).href;

function node(sb, code, opts = {}) {
  const r = sb.run(process.execPath, ['--input-type=module', '-e', code], opts);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout);
}

test('objects: writeMarksCommit writes exactly the objects isomorphic-git wrote (names, time zones, -0, messages)', () => {
  const sb = sandbox();
  sb.git('init', '-q', '--bare', path.join(sb.base, 'ref.git'));
  const entry = (state, t) => ({ state, time: t, by: 'zoë@example.invalid', path: 'src/ä b.ts', range: 'src/ä b.ts:1-2' });
  const cases = [
    { marks: { ['a'.repeat(40)]: entry('tapped', '2025-01-01T00:00:00.000Z') }, parents: [], message: 'kizu: tap 1\n\ntap aaaa src/a.ts:1', who: { name: 'Kizu Test', email: 'k@example.invalid', timestamp: 1700000000, timezoneOffset: 0 } },
    { marks: {}, parents: ['1'.repeat(40)], message: 'no newline at the end', who: { name: 'Zoë 名前', email: '', timestamp: 1, timezoneOffset: -0 } },
    { marks: { ['b'.repeat(40)]: entry('none', '2025-02-03T04:05:06.789Z') }, parents: ['2'.repeat(40), '3'.repeat(40)], message: '\n\nleading\r\nand trailing\n\n\n', who: { name: 'x', email: 'y', timestamp: 1700000001, timezoneOffset: -330 } },
    { marks: {}, parents: [], message: 'west', who: { name: 'w', email: 'w@w', timestamp: 2000000000, timezoneOffset: 300 } },
    { marks: {}, parents: [], message: 'far east', who: { name: 'e', email: 'e@e', timestamp: 2000000000, timezoneOffset: -840 } },
    { marks: {}, parents: [], message: 'half hour west', who: { name: 'h', email: 'h@h', timestamp: 2000000000, timezoneOffset: 570 } },
  ];
  const code = `import { createRequire } from 'node:module';
const S = await import(${JSON.stringify(STORE)});
const F = await import(${JSON.stringify(FORMAT)});
const igit = createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))})('isomorphic-git');
const fs = (await import('node:fs')).default;
const cases = ${JSON.stringify(cases)};
const out = [];
for (const c of cases) {
  if (c.who.timezoneOffset === 0 && c.who.name === 'Zoë 名前') c.who.timezoneOffset = -0;
  const marks = new Map(Object.entries(c.marks));
  const ours = await S.writeMarksCommit(${JSON.stringify(sb.path('.git'))}, marks, c.parents, c.message, c.who);
  // The implementation before ./objects.ts, verbatim.
  const gitdir = ${JSON.stringify(path.join(sb.base, 'ref.git'))};
  const blob = await igit.writeBlob({ fs, gitdir, blob: new TextEncoder().encode(F.serializeMarks(marks)) });
  const tree = await igit.writeTree({ fs, gitdir, tree: [{ mode: '100644', path: F.MARKS_FILE, oid: blob, type: 'blob' }] });
  const person = { name: c.who.name, email: c.who.email, timestamp: c.who.timestamp, timezoneOffset: c.who.timezoneOffset };
  const theirs = await igit.writeCommit({ fs, gitdir, commit: { message: c.message.endsWith('\\n') ? c.message : c.message + '\\n', tree, parent: c.parents, author: person, committer: person } });
  out.push([ours, theirs]);
}
process.stdout.write(JSON.stringify(out));`;
  const pairs = node(sb, code);
  assert.equal(pairs.length, cases.length);
  for (const [ours, theirs] of pairs) {
    assert.equal(ours, theirs);
    // the same bytes for the commit and what it names
    assert.equal(sb.git('cat-file', 'commit', ours), sb.git('--git-dir', path.join(sb.base, 'ref.git'), 'cat-file', 'commit', theirs));
    assert.equal(sb.git('cat-file', '-p', `${ours}:marks.json`), sb.git('--git-dir', path.join(sb.base, 'ref.git'), 'cat-file', '-p', `${theirs}:marks.json`));
  }
  assert.match(sb.git('cat-file', 'commit', pairs[1][0]), /^author Zoë 名前 <> 1 -0000$/m);
  assert.match(sb.git('cat-file', 'commit', pairs[2][0]), /^committer x <y> 1700000001 \+0530\n\nleading\nand trailing\n$/m);
  assert.match(sb.git('cat-file', 'commit', pairs[3][0]), / -0500$/m);
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

test('objects: a damaged loose marks commit is read by isomorphic-git and refused as before', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  sb.write({ 'a.txt': 'y\n' });
  const h = JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0];
  assert.equal(sb.kizu(['tap', h.shortId]).status, 0);
  const oid = sb.git('rev-parse', 'refs/kizu/marks').trim();
  const file = sb.path(`.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`);
  chmodSync(file, 0o644);
  writeFileSync(file, 'not zlib data');
  const r = sb.kizu(['marks', 'list']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`^git-kizu: error: refs/kizu/marks is corrupt: cannot read commit ${oid} \\(.+\\)\\nhint: earlier values are in`));
  // nothing was written over it
  const t = sb.kizu(['tap', h.shortId]);
  assert.equal(t.status, 2);
  assert.equal(sb.git('rev-parse', 'refs/kizu/marks').trim(), oid);
  assert.ok(readdirSync(path.dirname(file)).every((f) => !f.endsWith('.tmp')));
});

test('commonDir and resolveRef from the files agree with git: main tree, linked worktree, absent/loose/packed refs, GIT_DIR', () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  sb.git('worktree', 'add', '-q', '-b', 'wt', path.join(sb.base, 'wt'));
  const probe = (cwd, env = {}) =>
    node(
      sb,
      `const S = await import(${JSON.stringify(STORE)});
const root = process.cwd();
process.stdout.write(JSON.stringify([await S.commonDir(root), await S.resolveRef(root, 'refs/kizu/marks'), await S.resolveRef(root, 'refs/heads/main'), await S.resolveRef(root, 'refs/heads/wt')]));`,
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
