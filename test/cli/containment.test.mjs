// Containment through the real bin: stored state under refs/kizu/* and <git-dir>/kizu/* that
// someone forged (tree entries named `..`, `.git` or a name a file system takes for it, a link
// with a file under it in the same tree, a tree nested too deep, paths in commit messages)
// makes no git-kizu command write outside the working tree or into a git dir: each command
// refuses the whole operation before its first write, names the ref and the bad entry
// (escaped), exits 2, and its --dry-run says the same. The alias classes themselves are
// checked in-process, against git, in test/unit/verify-path.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { rev } from '../helpers/refs.mjs';
import { commit, sibling } from '../helpers/tasks.mjs';

/** A blob of `content` in the sandbox's object store; its id. */
const blob = (sb, content) => sb.git('hash-object', '-w', '--stdin', { input: content }).trim();

/**
 * A tree object written as given (`git hash-object -t tree --literally`: no name checks, no
 * sorting), from [name, mode, oid] entries in the order given; its id.
 */
function rawTree(sb, entries) {
  const body = Buffer.concat(entries.map(([name, mode, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')])));
  return sb.git('hash-object', '-t', 'tree', '--literally', '-w', '--stdin', { input: body }).trim();
}

/** A commit of `treeId` with `message` (and `parents`), written by git commit-tree; its id. */
const commitOf = (sb, treeId, message, parents = []) => sb.git('commit-tree', treeId, ...parents.flatMap((p) => ['-p', p]), { input: message }).trim();

/** The commit message of `c`. */
const messageOf = (sb, c) => {
  const body = sb.git('cat-file', 'commit', c);
  return body.slice(body.indexOf('\n\n') + 2);
};

/**
 * What a forged command could have touched: the files beside the repository (the sandbox's
 * base dir, its home and bin aside), the git dir's hooks, the working tree, and the refs.
 */
function world(sb, extra = []) {
  const outside = {};
  for (const e of readdirSync(sb.base).sort()) {
    if (e === 'repo' || e === 'home' || e === 'bin' || extra.includes(e)) continue;
    const p = path.join(sb.base, e);
    const st = statSync(p);
    outside[e] = st.isDirectory() ? { dir: (st.mode & 0o7777).toString(8), files: tree(p) } : readFileSync(p, 'hex');
  }
  return {
    outside,
    hooks: readdirSync(path.join(sb.dir, '.git', 'hooks')).sort(),
    inside: tree(sb.dir),
    refs: sb.git('for-each-ref', '--format=%(objectname) %(refname)'),
    undoLog: existsSync(path.join(sb.dir, '.git/kizu/rollbacks.json')) ? readFileSync(path.join(sb.dir, '.git/kizu/rollbacks.json'), 'utf8') : null,
  };
}

/** A real snapshot of the sandbox ('base'), and a forged copy whose tree is `forgedTree`: {name, ref}. */
function forgedSnapshot(sb, forgedTree) {
  const out = kizuOk(sb, ['snapshot', '-m', 'base', '--json']);
  const real = JSON.parse(out);
  const c = commitOf(sb, forgedTree, messageOf(sb, real.id), [sb.git('rev-parse', `${real.id}^`).trim()]);
  const name = `20200101-000000-000-${c.slice(0, 8)}`;
  const ref = `refs/kizu/snapshots/${name}`;
  sb.git('update-ref', ref, c);
  return { name, ref, commit: c };
}

const snapshotHint = (name, ref) =>
  `git kizu snapshot never writes such a path, so this snapshot was made or changed by something else: see what it holds with git ls-tree -r ${ref}, and drop it with git kizu snapshot drop ${name}`;

/** Runs each of `runs` (git kizu args) and asserts exit 2, no stdout, exactly `stderr`, and nothing changed. */
function refusedEverywhere(sb, runs, stderr, extra = []) {
  const before = world(sb, extra);
  for (const args of runs) {
    expectRun(sb, args, { status: 2, stderr });
    assert.deepEqual(world(sb, extra), before, `git kizu ${args.join(' ')} changed something`);
  }
}

test('rollback snapshot, snapshot show: a forged snapshot tree with `..` and `.git/hooks` entries is refused before anything is written, dry run included', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const payload = blob(sb, '#!/bin/sh\necho pwned\n');
  const hooks = rawTree(sb, [['pre-commit', '100755', payload]]);
  const dotgit = rawTree(sb, [['hooks', '40000', hooks]]);
  const up = rawTree(sb, [['outside.txt', '100644', payload]]);
  const t = rawTree(sb, [['..', '40000', up], ['.git', '40000', dotgit], ['a.txt', '100644', blob(sb, 'a\n')]]);
  const { name, ref } = forgedSnapshot(sb, t);
  writeFileSync(sb.path('a.txt'), 'changed since\n');
  const stderr = err(`snapshot ${name} (${ref}) names an unsafe path ../outside.txt: a ".." component leaves the working tree; nothing was changed`, snapshotHint(name, ref));
  refusedEverywhere(sb, [['rollback', 'snapshot', name, '--dry-run'], ['rollback', 'snapshot', name, '--yes'], ['rollback', 'snapshot', name, '--yes', '--json'], ['snapshot', 'show', name]], stderr);
  assert.equal(existsSync(path.join(sb.base, 'outside.txt')), false);
  assert.equal(existsSync(sb.path('.git/hooks/pre-commit')), false);
});

test('rollback snapshot: `.git` in another case, as an NTFS short name and with an HFS+-ignored code point inside are refused, escaped', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const payload = blob(sb, '#!/bin/sh\necho pwned\n');
  const hooks = rawTree(sb, [['pre-commit', '100755', payload]]);
  const dotgit = rawTree(sb, [['hooks', '40000', hooks]]);
  for (const [entry, shown, why] of [
    ['.GIT', '.GIT/hooks/pre-commit', 'it leads into a .git directory'],
    ['git~1', 'git~1/hooks/pre-commit', '"git~1" is taken for .git by some file systems'],
    ['.g\u200cit', '".g\\342\\200\\214it/hooks/pre-commit"', '".g\\342\\200\\214it" is taken for .git by some file systems'],
  ]) {
    const { name, ref } = forgedSnapshot(sb, rawTree(sb, [[entry, '40000', dotgit], ['a.txt', '100644', blob(sb, 'a\n')]]));
    const stderr = err(`snapshot ${name} (${ref}) names an unsafe path ${shown}: ${why}; nothing was changed`, snapshotHint(name, ref));
    refusedEverywhere(sb, [['rollback', 'snapshot', name, '--dry-run'], ['rollback', 'snapshot', name, '--yes']], stderr);
    assert.deepEqual(readdirSync(sb.dir).sort(), ['.git', 'a.txt']);
  }
});

test('rollback snapshot: a symbolic link and a file under it in the same tree, and a tree nested deeper than git allows, are refused', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  mkdirSync(path.join(sb.base, 'victim'));
  // `l` -> `../victim` and a directory `l` holding x.txt: written in order, x.txt would go through the link.
  const t = rawTree(sb, [['a.txt', '100644', blob(sb, 'a\n')], ['l', '120000', blob(sb, '../victim')], ['l', '40000', rawTree(sb, [['x.txt', '100644', blob(sb, 'pwned\n')]])]]);
  const linked = forgedSnapshot(sb, t);
  refusedEverywhere(
    sb,
    [['rollback', 'snapshot', linked.name, '--dry-run'], ['rollback', 'snapshot', linked.name, '--yes']],
    err(`snapshot ${linked.name} (${linked.ref}) names an unsafe path l/x.txt: it is under l, which the same tree holds as a file, symbolic link or submodule; nothing was changed`, snapshotHint(linked.name, linked.ref)),
  );
  assert.deepEqual(readdirSync(path.join(sb.base, 'victim')), []);

  // 2049 directories deep (git's core.maxTreeDepth is 2048), written as loose objects in-process.
  const objects = path.join(sb.dir, '.git', 'objects');
  const put = (type, body) => {
    const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
    const id = createHash('sha1').update(raw).digest('hex');
    mkdirSync(path.join(objects, id.slice(0, 2)), { recursive: true });
    const file = path.join(objects, id.slice(0, 2), id.slice(2));
    if (!existsSync(file)) writeFileSync(file, deflateSync(raw));
    return id;
  };
  const entry = (mode, name, id) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(id, 'hex')]);
  let deep = put('tree', entry('100644', 'f', blob(sb, 'deep\n')));
  for (let k = 0; k < 2048; k++) deep = put('tree', entry('40000', 'd', deep));
  const nested = forgedSnapshot(sb, rawTree(sb, [['a.txt', '100644', blob(sb, 'a\n')], ['d', '40000', deep]]));
  const shown = `${'d/'.repeat(2049)}f`;
  refusedEverywhere(
    sb,
    [['rollback', 'snapshot', nested.name, '--dry-run'], ['rollback', 'snapshot', nested.name, '--yes']],
    err(`snapshot ${nested.name} (${nested.ref}) names an unsafe path ${shown}: it is nested 2050 directories deep (at most 2048); nothing was changed`, snapshotHint(nested.name, nested.ref)),
  );
});

test('undo --whole-snapshot: a forged safety snapshot (its ref and the undo log moved to it) is refused before anything is written', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const s1 = JSON.parse(kizuOk(sb, ['snapshot', '-m', 'one', '--json']));
  writeFileSync(sb.path('a.txt'), 'two\n');
  kizuOk(sb, ['rollback', 'snapshot', s1.name, '--yes']);
  const logFile = sb.path('.git/kizu/rollbacks.json');
  const log = JSON.parse(readFileSync(logFile, 'utf8'));
  const safety = log.records.at(-1).safetySnapshot;
  const safetyRef = sb.git('for-each-ref', '--format=%(refname)', '--points-at', safety, 'refs/kizu/snapshots/').trim();
  const up = rawTree(sb, [['outside.txt', '100644', blob(sb, 'pwned\n')]]);
  const forged = commitOf(sb, rawTree(sb, [['..', '40000', up], ['a.txt', '100644', blob(sb, 'two\n')]]), messageOf(sb, safety), [sb.git('rev-parse', `${safety}^`).trim()]);
  sb.git('update-ref', safetyRef, forged);
  writeFileSync(logFile, readFileSync(logFile, 'utf8').split(safety).join(forged));
  const name = safetyRef.slice('refs/kizu/snapshots/'.length);
  refusedEverywhere(
    sb,
    [['undo', '--dry-run', '--whole-snapshot'], ['undo', '--yes', '--whole-snapshot'], ['undo', '--yes']],
    err(`snapshot ${name} (${safetyRef}) names an unsafe path ../outside.txt: a ".." component leaves the working tree; nothing was changed`, snapshotHint(name, safetyRef)),
  );
  assert.equal(existsSync(path.join(sb.base, 'outside.txt')), false);
});

test('revert --restore: a saved revert whose path is `.git` in another case is refused, nothing written', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const payload = blob(sb, '#!/bin/sh\necho pwned\n');
  const t = rawTree(sb, [['.GIT', '40000', rawTree(sb, [['hooks', '40000', rawTree(sb, [['pre-commit', '100755', payload]])]])]]);
  const c = commitOf(sb, t, 'kizu trash: .GIT/hooks/pre-commit\n\nkizu-path: ".GIT/hooks/pre-commit"\nkizu-type: file\nkizu-mode: 0755\nkizu-reason: revert abc\n');
  sb.git('update-ref', 'refs/kizu/reverts', c);
  refusedEverywhere(
    sb,
    [['revert', '--restore', c]],
    err(
      `saved revert ${c} (refs/kizu/reverts) names an unsafe path .GIT/hooks/pre-commit: it leads into a .git directory; nothing was changed`,
      `git kizu revert never saves such a path, so this entry was made or changed by something else: see it with git show ${c}`,
    ),
  );
  assert.equal(existsSync(sb.path('.GIT')), false);
});

test('rollback patch: a journal entry naming `.git` in another case is refused, dry run included, nothing written', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const before = blob(sb, '#!/bin/sh\necho pwned\n');
  // An entry that deleted the file: rolling it back would create it again.
  const t = rawTree(sb, [['0.before', '100644', before]]);
  const p = '.GIT/hooks/pre-commit';
  const json = { version: 1, time: '2026-01-01T00:00:00.000Z', tool: 'Edit', session: null, toolUseId: null, files: [{ path: p, before, after: null, added: 0, removed: 2 }] };
  const c = commitOf(sb, t, `kizu journal: Edit ${p}\n\n${JSON.stringify(json)}\n`);
  sb.git('update-ref', 'refs/kizu/journal', c);
  const short = c.slice(0, 8);
  refusedEverywhere(
    sb,
    [['rollback', 'patch', short, '--dry-run'], ['rollback', 'patch', short, '--yes']],
    err(
      `journal entry ${short} (refs/kizu/journal) names an unsafe path ${p}: it leads into a .git directory; nothing was changed`,
      `git kizu never journals such a path, so this entry was made or changed by something else: see it with git show ${c}`,
    ),
  );
  assert.equal(existsSync(sb.path('.GIT')), false);
});

test('undo of rollback branch: a saved task whose kizu-modes name a directory outside the worktree is refused before anything is written', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 't1', '--worktree']);
  const wt = sibling(sb, 't1');
  commit(sb, wt, 'task work', { 'b.txt': 'b\n' });
  writeFileSync(path.join(wt, 'c.txt'), 'uncommitted\n');
  kizuOk(sb, ['rollback', 'branch', 't1', '--yes']);
  const trashRef = sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/trash/').trim();
  const real = rev(sb, trashRef);
  mkdirSync(path.join(sb.base, 'victim'));
  chmodSync(path.join(sb.base, 'victim'), 0o700);
  const msg = messageOf(sb, real).replace(/^kizu-modes: .*$/m, 'kizu-modes: {"file":"644","exec":"755","modes":{},"dirs":{"../victim":"777"}}');
  const parents = [...sb.git('cat-file', 'commit', real).matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]);
  const forged = commitOf(sb, sb.git('rev-parse', `${real}^{tree}`).trim(), msg, parents);
  sb.git('update-ref', trashRef, forged);
  refusedEverywhere(
    sb,
    [['undo', '--dry-run'], ['undo', '--yes']],
    err(
      `saved task ${trashRef} (commit ${forged.slice(0, 12)}) names an unsafe path ../victim: kizu-modes: a ".." component leaves the working tree; nothing was changed`,
      `git kizu rollback branch never saves such a path, so this copy was made or changed by something else: see what it holds with git ls-tree -r ${forged}`,
    ),
  );
  assert.equal((statSync(path.join(sb.base, 'victim')).mode & 0o7777).toString(8), '700');
  assert.equal(existsSync(wt), false);
});

test('revert <hunk>: a forged baseline (refs/kizu/baseline) holding `.git/hooks/pre-commit` lists it as a deleted file, but reverting it is refused, nothing written', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const payload = blob(sb, '#!/bin/sh\necho pwned\n');
  const dotgit = rawTree(sb, [['hooks', '40000', rawTree(sb, [['pre-commit', '100755', payload]])]]);
  const base = commitOf(sb, rawTree(sb, [['.git', '40000', dotgit], ['a.txt', '100644', blob(sb, 'a\n')]]), 'forged baseline\n', [rev(sb, 'HEAD')]);
  sb.git('update-ref', 'refs/kizu/baseline', base);
  // The forged commit in HEAD's history too (a branch moved to it by plumbing): else revert
  // refuses earlier, for a baseline outside HEAD's history (test/cli/baseline-moved.test.mjs).
  sb.git('update-ref', 'HEAD', base);
  const listed = kizuOk(sb, ['hunks']);
  const id = /^(\S+) {2}\.git\/hooks\/pre-commit \(deleted file\)/m.exec(listed)?.[1];
  assert.ok(id, listed);
  refusedEverywhere(
    sb,
    [['revert', id], ['revert', id, '-m', 'no']],
    err(
      `hunk ${id} (against the baseline ${base.slice(0, 12)}) names an unsafe path .git/hooks/pre-commit: it leads into a .git directory; nothing was changed`,
      `git never checks out such a path, so the baseline commit was made by something else: see it with git ls-tree -r ${base}, and where it comes from with git kizu baseline show`,
    ),
  );
  assert.equal(existsSync(sb.path('.git/hooks/pre-commit')), false);
});

test('snapshot: a working-tree file whose name a restore would refuse (a backslash, a name taken for .git) is skipped and named, so that the snapshot stays restorable', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.write({ 'we\\ird.txt': 'w\n', 'git~1/x.txt': 'x\n' });
  const s = JSON.parse(kizuOk(sb, ['snapshot', '-m', 'with odd names', '--json']));
  assert.deepEqual(s.skipped, [
    { path: 'git~1/x.txt', reason: 'a name git-kizu does not write back ("git~1" is taken for .git by some file systems)' },
    { path: 'we\\ird.txt', reason: 'a name git-kizu does not write back (it holds a backslash, which Windows reads as a directory separator)' },
  ]);
  writeFileSync(sb.path('a.txt'), 'changed\n');
  const r = sb.kizu(['rollback', 'snapshot', s.name, '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('a.txt'), 'a\n');
  assert.equal(sb.read('we\\ird.txt'), 'w\n');
  assert.equal(sb.read('git~1/x.txt'), 'x\n');
});

test('undo of rollback branch: an undo log naming another place for the task worktree than the saved copy is refused, dry run included', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 't2', '--worktree']);
  const wt = sibling(sb, 't2');
  commit(sb, wt, 'task work', { 'b.txt': 'b\n' });
  kizuOk(sb, ['rollback', 'branch', 't2', '--yes']);
  const trashRef = sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/trash/').trim();
  const logFile = sb.path('.git/kizu/rollbacks.json');
  const elsewhere = path.join(sb.base, 'elsewhere');
  const log = readFileSync(logFile, 'utf8');
  assert.ok(log.includes(JSON.stringify(wt)), log);
  writeFileSync(logFile, log.split(JSON.stringify(wt)).join(JSON.stringify(elsewhere)));
  refusedEverywhere(
    sb,
    [['undo', '--dry-run'], ['undo', '--yes']],
    err(
      `cannot bring back the worktree of task "t2": the undo log names ${elsewhere}, but ${trashRef} was saved from ${wt}; nothing was changed`,
      `one of them was changed outside git kizu; the copy stays in ${trashRef}; by hand: git branch kizu/t2 ${sb.git('rev-parse', `${trashRef}^1`).trim()}`,
    ),
  );
  assert.equal(existsSync(elsewhere), false);
});

test('teardown: an install record whose exclude lines name a file outside the repository leaves that file alone', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['init', '--scope', 'local']);
  const recFile = sb.path('.git/kizu/install-local.json');
  const rec = JSON.parse(readFileSync(recFile, 'utf8'));
  assert.ok(rec.exclude?.length, JSON.stringify(rec));
  const victim = path.join(sb.base, 'victim.txt');
  writeFileSync(victim, 'secret\n');
  rec.exclude.push({ file: victim, offset: 0, text: 'secret\n', createdFile: true });
  writeFileSync(recFile, JSON.stringify(rec, null, 2) + '\n');
  const r = sb.kizu(['teardown', '--scope', 'local']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, `git-kizu: warning: left ${victim} alone: the install record says git-kizu added lines to it, but git-kizu only ever adds them to this repository's exclude file (.git/info/exclude)\n`);
  assert.equal(readFileSync(victim, 'utf8'), 'secret\n');
  assert.equal(readFileSync(sb.path('.git/info/exclude'), 'utf8').includes('.claude'), false);
});

test('teardown: an install record whose guard insertion names a file outside the working tree leaves that file alone', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['init']);
  const recFile = sb.path('.git/kizu/install-project.json');
  const rec = JSON.parse(readFileSync(recFile, 'utf8'));
  const victim = path.join(sb.base, 'victim.txt');
  writeFileSync(victim, 'secret\n');
  rec.guard = [...(rec.guard ?? []), { manager: 'husky', file: victim, offset: 0, text: 'secret\n', createdFile: true }];
  writeFileSync(recFile, JSON.stringify(rec, null, 2) + '\n');
  const r = sb.kizu(['teardown']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, `git-kizu: warning: left ${victim} alone: the install record says git-kizu put the guard in it, but git-kizu only puts it in hook manager files of this working tree\n`);
  assert.equal(readFileSync(victim, 'utf8'), 'secret\n');
  assert.equal(existsSync(sb.path('.claude')), false);
});
