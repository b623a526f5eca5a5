// `git kizu revert` of a hunk whose change is staged too, through the real bin in real
// repos: the index follows (the rejected change cannot reach a commit), other staged changes
// of the file stay byte-exact, a different staged version of those lines is undone as well,
// a staged mode change goes back, and `revert --restore` puts the working tree and the index
// back as they were. Nothing is written when the index part cannot be done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun } from '../helpers/expect.mjs';
import { bytes, countedLines, text } from '../helpers/files.mjs';
import { hunksJson, savedLines } from '../helpers/hunks.mjs';
import { trashHead } from '../helpers/refs.mjs';

const mode = (sb, rel) => statSync(sb.path(rel)).mode & 0o777;
/** The stage-0 index entry of `rel`: `<mode> <oid>`. */
const entry = (sb, rel) => sb.git('ls-files', '-s', '--', rel).split('\t')[0].replace(/ 0$/, '');
/** The staged bytes of `rel`. */
const staged = (sb, rel) => sb.run('git', ['cat-file', 'blob', `:${rel}`], { encoding: 'buffer' }).stdout;

/**
 * The lines revert prints about the saved copy of `rel` saved with its index entry (the
 * newest trash entry): the restore line, the cat-file line, the update-index line.
 */
function savedWithIndex(sb, rel, { bits = '644', oldEntry }) {
  const c = trashHead(sb);
  const blob = sb.git('rev-parse', `${c}:${rel}`).trim();
  const root = realpathSync(sb.dir);
  const [m, oid] = oldEntry.split(' ');
  return (
    `saved the previous ${rel} and its index entry in refs/kizu/reverts; restore both with: git kizu revert --restore ${c.slice(0, 12)}\n` +
    `  (or: git cat-file -p ${blob} > ${path.join(root, rel)} && chmod ${bits} ${path.join(root, rel)})\n` +
    `  (and the index entry alone: git -C ${root} update-index --add --cacheinfo ${m},${oid},${rel})\n`
  );
}

/** `git kizu <args>`: asserts exit 0, empty stderr and the exact stdout (a function: called after the run). */
function kizuExact(sb, args, want) {
  const r = sb.kizu(args);
  const stdout = typeof want === 'function' ? want() : want;
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout, stderr: '' }, `git kizu ${args.join(' ')}`);
  return r.stdout;
}

const restoreId = (stdout) => /git kizu revert --restore ([0-9a-f]{12})/.exec(stdout)[1];

test('revert -m of a fully staged change: the index goes back too, the scar stays unstaged, a commit does not carry the change; --restore puts both back', () => {
  const sb = sandbox({ files: { 'f.py': 'x = 1\ny = 2\n' } });
  sb.write({ 'f.py': 'x = 1\ny = 99\n' });
  sb.git('add', 'f.py');
  const stagedEntry = entry(sb, 'f.py');
  const [h] = hunksJson(sb);
  const out = kizuExact(sb, ['revert', 'f.py:2', '-m', 'do not change y'], () =>
    `reverted ${h.shortId}  f.py:2\n` +
      'scarred f.py:2  # @kizu[reject]: reverted: do not change y\n' +
      'reverted f.py:2 in the index too: the change was staged (any other staged change of f.py stays staged)\n' +
      savedWithIndex(sb, 'f.py', { oldEntry: stagedEntry }),
  );
  assert.equal(sb.read('f.py'), 'x = 1\n# @kizu[reject]: reverted: do not change y\ny = 2\n');
  assert.equal(sb.git('diff', '--cached'), '');
  assert.equal(staged(sb, 'f.py').toString(), 'x = 1\ny = 2\n');
  // The scar is unstaged: the guard's scan of the index finds nothing; staging it would be refused.
  expectRun(sb, ['scan', '--staged'], { status: 0 });
  // A commit of other work does not carry the rejected change.
  sb.write({ 'g.txt': 'g\n' });
  sb.git('add', 'g.txt');
  sb.git('commit', '-q', '-m', 'x');
  assert.equal(sb.git('show', 'HEAD:f.py'), 'x = 1\ny = 2\n');
  assert.equal(sb.git('diff', '--name-only', 'HEAD~1', 'HEAD'), 'g.txt\n');
  sb.git('add', 'f.py');
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: 'f.py:2  [reject]  reverted: do not change y\n' });
  sb.git('reset', '-q', '--', 'f.py');
  // --restore: the working-tree file and the staged version, as they were.
  const id = restoreId(out);
  const scarred = entry(sb, 'f.py');
  kizuExact(sb, ['revert', '--restore', id], () => `restored f.py from ${id}, and its index entry as it was\n` + savedWithIndex(sb, 'f.py', { oldEntry: scarred }));
  assert.equal(sb.read('f.py'), 'x = 1\ny = 99\n');
  assert.equal(entry(sb, 'f.py'), stagedEntry);
  assert.equal(sb.git('diff'), '');
  kizuExact(sb, ['revert', '--restore', id], 'unchanged: f.py already holds the saved content, and its index entry the saved one\n');
});

test('revert of one staged hunk of a CRLF executable: the other staged hunk stays staged byte-exactly, mode 100755 kept; --restore puts the index back', () => {
  const base = countedLines(30).map((l) => `${l}\r`);
  const sb = sandbox({ files: { 'run.sh': text(base) } });
  chmodSync(sb.path('run.sh'), 0o755);
  sb.git('commit', '-q', '-am', 'exec');
  const mod = base.slice();
  mod[4] = 'L5\r';
  mod[19] = 'L20\r';
  sb.write({ 'run.sh': text(mod) });
  sb.git('add', 'run.sh');
  const before = bytes(sb, 'run.sh');
  const stagedEntry = entry(sb, 'run.sh');
  const [h5, h20] = hunksJson(sb);
  const out = kizuExact(sb, ['revert', h5.shortId], () =>
    `reverted ${h5.shortId}  run.sh:5\n` +
      'reverted run.sh:5 in the index too: the change was staged (any other staged change of run.sh stays staged)\n' +
      savedWithIndex(sb, 'run.sh', { bits: '755', oldEntry: stagedEntry }),
  );
  const want = base.slice();
  want[19] = 'L20\r';
  assert.equal(sb.read('run.sh'), text(want));
  assert.deepEqual(staged(sb, 'run.sh'), Buffer.from(text(want)));
  assert.match(entry(sb, 'run.sh'), /^100755 /);
  assert.equal(mode(sb, 'run.sh'), 0o755);
  assert.equal(sb.git('diff'), '');
  assert.deepEqual(hunksJson(sb), [h20]);
  const id = restoreId(out);
  const after = entry(sb, 'run.sh');
  kizuExact(sb, ['revert', '--restore', id], () => `restored run.sh from ${id}, and its index entry as it was\n` + savedWithIndex(sb, 'run.sh', { bits: '755', oldEntry: after }));
  assert.deepEqual(bytes(sb, 'run.sh'), before);
  assert.equal(entry(sb, 'run.sh'), stagedEntry);
  assert.equal(mode(sb, 'run.sh'), 0o755);
});

test('revert of a hunk staged in another version (staged, then edited again): the staged lines are undone too and saved; --restore brings back both versions', () => {
  const sb = sandbox({ files: { 'f.py': 'x = 1\ny = 2\n' } });
  sb.write({ 'f.py': 'x = 1\ny = 99\n' });
  sb.git('add', 'f.py');
  const stagedEntry = entry(sb, 'f.py');
  sb.write({ 'f.py': 'x = 1\ny = 100\n' });
  const [h] = hunksJson(sb);
  const out = kizuExact(sb, ['revert', h.shortId], () =>
    `reverted ${h.shortId}  f.py:2\n` +
      'reverted f.py:2 in the index too: the index held a different version of those lines, which is undone as well (the staged f.py is saved below)\n' +
      savedWithIndex(sb, 'f.py', { oldEntry: stagedEntry }),
  );
  assert.equal(sb.read('f.py'), 'x = 1\ny = 2\n');
  assert.equal(sb.git('status', '--porcelain'), '');
  // The staged version is kept in the saved revert's tree (reachable), by the blob id printed.
  assert.equal(sb.git('cat-file', 'blob', stagedEntry.split(' ')[1]), 'x = 1\ny = 99\n');
  assert.equal(sb.git('ls-tree', '--name-only', trashHead(sb)), 'f.py\nf.py.kizu-index\n');
  const reverted = entry(sb, 'f.py');
  kizuExact(sb, ['revert', '--restore', restoreId(out)], () => `restored f.py from ${restoreId(out)}, and its index entry as it was\n` + savedWithIndex(sb, 'f.py', { oldEntry: reverted }));
  assert.equal(sb.read('f.py'), 'x = 1\ny = 100\n');
  assert.equal(entry(sb, 'f.py'), stagedEntry);
});

test('revert of an unstaged hunk leaves the index alone: staged changes elsewhere in the file, also between the hunk\'s changed lines, stay as they are', () => {
  const base = countedLines(30);
  const sb = sandbox({ files: { 'a.txt': text(base) } });
  // Staged: line 7 and line 25. Working tree: lines 5 and 9 (one hunk) and line 25, line 7 as in HEAD.
  const idx = base.slice();
  idx[6] = 'S7';
  idx[24] = 'L25';
  sb.write({ 'a.txt': text(idx) });
  sb.git('add', 'a.txt');
  const stagedEntry = entry(sb, 'a.txt');
  const wt = base.slice();
  wt[4] = 'L5';
  wt[8] = 'L9';
  wt[24] = 'L25';
  sb.write({ 'a.txt': text(wt) });
  const [h, h25] = hunksJson(sb);
  assert.deepEqual([h.range, h25.range], ['a.txt:5-9', 'a.txt:25']);
  kizuExact(sb, ['revert', h.shortId], () => `reverted ${h.shortId}  a.txt:5-9\n` + savedLines(sb, 'a.txt').join('\n') + '\n');
  const want = base.slice();
  want[24] = 'L25';
  assert.equal(sb.read('a.txt'), text(want));
  assert.equal(entry(sb, 'a.txt'), stagedEntry);
  assert.equal(sb.git('log', '-1', '--format=%B', 'refs/kizu/reverts').includes('kizu-index'), false);
});

test('revert of a staged mode change puts the index mode back too; --restore makes it executable and staged again', () => {
  const sb = sandbox({ files: { 't.sh': 'echo\n' } });
  chmodSync(sb.path('t.sh'), 0o755);
  sb.git('add', 't.sh');
  const stagedEntry = entry(sb, 't.sh');
  assert.match(stagedEntry, /^100755 /);
  const [h] = hunksJson(sb);
  const out = kizuExact(sb, ['revert', h.shortId], () =>
    `reverted ${h.shortId}  t.sh (mode 100644 → 100755)\n` +
      'reverted t.sh (mode 100644 → 100755) in the index too: the change was staged (any other staged change of t.sh stays staged)\n' +
      savedWithIndex(sb, 't.sh', { bits: '755', oldEntry: stagedEntry }),
  );
  assert.equal(mode(sb, 't.sh'), 0o644);
  assert.equal(entry(sb, 't.sh'), stagedEntry.replace('100755', '100644'));
  assert.equal(sb.git('status', '--porcelain'), '');
  const reverted = entry(sb, 't.sh');
  kizuExact(sb, ['revert', '--restore', restoreId(out)], () => `restored t.sh from ${restoreId(out)}, and its index entry as it was\n` + savedWithIndex(sb, 't.sh', { oldEntry: reverted }));
  assert.equal(mode(sb, 't.sh'), 0o755);
  assert.equal(entry(sb, 't.sh'), stagedEntry);
});

test('revert writes nothing when the index part cannot be done: a staged type change is refused first; a locked index puts the working tree back', () => {
  const sb = sandbox({ files: { 'f.py': 'x = 1\ny = 2\n' } });
  sb.write({ 'f.py': 'x = 1\ny = 99\n' });
  sb.git('add', 'f.py');
  const stagedEntry = entry(sb, 'f.py');
  const [h] = hunksJson(sb);
  // The index is locked by "another git process": the working tree is written, then put back.
  const lock = path.join(realpathSync(sb.dir), '.git', 'index.lock');
  writeFileSync(lock, '');
  expectRun(sb, ['revert', h.shortId, '-m', 'no'], {
    status: 2,
    stderr: err(
      `f.py: its index entry could not be set: git update-index failed (exit 128): fatal: Unable to create '${lock}': File exists.; the working tree is put back, nothing was reverted`,
      'if another git command is running, let it finish (a crashed one leaves index.lock in the git directory: remove that file), then run the command again',
    ),
  });
  sb.run('rm', [lock]);
  assert.equal(sb.read('f.py'), 'x = 1\ny = 99\n');
  assert.equal(entry(sb, 'f.py'), stagedEntry);
  // A symbolic link staged where HEAD has the file: refused before anything is written.
  const blob = sb.git('hash-object', '-w', '--stdin', { input: 'elsewhere' }).trim();
  sb.git('update-index', '--cacheinfo', `120000,${blob},f.py`);
  const tip = trashHead(sb);
  expectRun(sb, ['revert', h.shortId], {
    status: 2,
    stderr: err(
      'f.py: the index holds a symbolic link there (a staged type change), which git kizu does not revert with a hunk; nothing was reverted',
      'unstage it first with git restore --staged -- f.py, then revert the hunk again',
    ),
  });
  assert.equal(sb.read('f.py'), 'x = 1\ny = 99\n');
  assert.equal(entry(sb, 'f.py'), `120000 ${blob}`);
  assert.equal(trashHead(sb), tip);
});

test('revert --queue of a staged change: filed, the index reverted too; when filing fails, the working tree and the index stay as they were', () => {
  const sb = sandbox({ files: { 'f.py': 'x = 1\ny = 2\n', 'g.py': 'a = 1\n' } });
  sb.write({ 'f.py': 'x = 1\ny = 99\n', 'g.py': 'a = 2\n', '.claude': 'not a directory\n' }); // the queue file cannot be read
  sb.git('add', 'f.py', 'g.py');
  const stagedEntry = entry(sb, 'f.py');
  expectRun(sb, ['revert', 'f.py:2', '-m', 'no', '--queue'], { status: 2, stderr: err('.claude/review-queue.md cannot be read (ENOTDIR)', 'make .claude/review-queue.md a readable regular file, or move it aside') });
  assert.equal(sb.read('f.py'), 'x = 1\ny = 99\n');
  assert.equal(entry(sb, 'f.py'), stagedEntry);
  sb.run('rm', [sb.path('.claude')]);
  const [h] = hunksJson(sb, ['f.py']);
  kizuExact(sb, ['revert', 'f.py:2', '-m', 'no', '--queue'], () =>
    `reverted ${h.shortId}  f.py:2\n` +
      `queued ${JSON.parse(sb.kizu(['queue', 'list', '--json']).stdout)[0].id}  f.py:2  (reject) reverted: no\n` +
      'reverted f.py:2 in the index too: the change was staged (any other staged change of f.py stays staged)\n' +
      savedWithIndex(sb, 'f.py', { oldEntry: stagedEntry }),
  );
  assert.equal(sb.read('f.py'), 'x = 1\ny = 2\n');
  assert.equal(sb.git('diff', '--cached', '--name-only'), 'g.py\n');
});

test('revert against an older baseline: the index is left alone while it holds what HEAD has (a later commit is not unstaged), reverted when the change is staged', () => {
  const sb = sandbox({ files: { 'f.py': 'x = 1\ny = 2\n' } });
  const base = sb.git('rev-parse', 'HEAD').trim();
  sb.write({ 'f.py': 'x = 1\ny = 50\n' });
  sb.git('commit', '-q', '-am', 'y = 50');
  expectRun(sb, ['baseline', 'set', base], { status: 0, stdout: `baseline set: refs/kizu/baseline ${base}\n` });
  const headEntry = entry(sb, 'f.py');
  sb.write({ 'f.py': 'x = 1\ny = 99\n' });
  let [h] = hunksJson(sb);
  kizuExact(sb, ['revert', h.shortId], () => `reverted ${h.shortId}  f.py:2\n` + savedLines(sb, 'f.py').join('\n') + '\n');
  assert.equal(sb.read('f.py'), 'x = 1\ny = 2\n');
  assert.equal(entry(sb, 'f.py'), headEntry);
  sb.write({ 'f.py': 'x = 1\ny = 99\n' });
  sb.git('add', 'f.py');
  const stagedEntry = entry(sb, 'f.py');
  [h] = hunksJson(sb);
  kizuExact(sb, ['revert', h.shortId], () =>
    `reverted ${h.shortId}  f.py:2\n` +
      'reverted f.py:2 in the index too: the change was staged (any other staged change of f.py stays staged)\n' +
      savedWithIndex(sb, 'f.py', { oldEntry: stagedEntry }),
  );
  assert.equal(staged(sb, 'f.py').toString(), 'x = 1\ny = 2\n');
});
