// The index-file parser behind snapshots (src/git/index-file.ts), checked against what git
// itself says about the same index: versions 2, 3 and 4, extended flags, non-ASCII paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';

const { parseIndex, seedProblem } = await import(src('git/index-file.ts'));

/** What `git ls-files -s -z` says: [mode (number), stage, path] per entry, in index order. */
function gitEntries(sb) {
  return sb
    .git('ls-files', '-s', '-z')
    .split('\0')
    .filter(Boolean)
    .map((l) => {
      const [meta, p] = l.split('\t');
      const [mode, , stage] = meta.split(' ');
      return [parseInt(mode, 8), Number(stage), p];
    });
}

function makeRepo() {
  const sb = sandbox();
  sb.write({
    'a.txt': 'a\n',
    'dir/b.txt': 'bb\n',
    'dir/sub/c.txt': 'ccc\n',
    'héllo wörld/ünïcode.txt': 'u\n',
    'dir/sub/deeper/and-a-rather-long-file-name-to-exercise-the-v4-prefix-compression.txt': 'x\n',
  });
  sb.git('add', '-A');
  sb.git('commit', '-q', '-m', 'files');
  return sb;
}

// Version 3 differs from 2 only by entries with extended flags, and git writes 2 when there are
// none: the intent-to-add test below reads a version 3 index.
for (const version of ['2', '4']) {
  test(`parseIndex reads an index of version ${version} exactly as git lists it`, () => {
    const sb = makeRepo();
    sb.git('update-index', '--index-version', version);
    const ix = parseIndex(readFileSync(path.join(sb.dir, '.git', 'index')));
    assert.equal(ix.version, Number(version));
    assert.deepEqual(
      ix.entries.map((e) => [e.mode, e.stage, e.path]),
      gitEntries(sb),
    );
    assert.deepEqual(
      ix.entries.map((e) => e.size),
      ix.entries.map((e) => readFileSync(path.join(sb.dir, e.path)).length),
    );
    assert.equal(seedProblem(ix), null);
  });
}

test('parseIndex sees intent-to-add, skip-worktree and assume-unchanged entries; seedProblem names them', () => {
  const sb = makeRepo();
  sb.write({ 'new.txt': 'n\n' });
  sb.git('add', '-N', 'new.txt');
  let ix = parseIndex(readFileSync(path.join(sb.dir, '.git', 'index')));
  assert.equal(ix.version, 3);
  assert.deepEqual(
    ix.entries.filter((e) => e.intentToAdd).map((e) => e.path),
    ['new.txt'],
  );
  assert.deepEqual(
    ix.entries.map((e) => [e.mode, e.stage, e.path]),
    gitEntries(sb),
  );
  assert.equal(seedProblem(ix), 'intent-to-add entry new.txt');
  sb.git('rm', '-q', '--cached', 'new.txt');
  sb.git('update-index', '--skip-worktree', 'dir/b.txt');
  ix = parseIndex(readFileSync(path.join(sb.dir, '.git', 'index')));
  assert.deepEqual(
    ix.entries.filter((e) => e.skipWorktree).map((e) => e.path),
    ['dir/b.txt'],
  );
  assert.equal(seedProblem(ix), 'skip-worktree entry dir/b.txt');
  sb.git('update-index', '--no-skip-worktree', 'dir/b.txt');
  sb.git('update-index', '--assume-unchanged', 'a.txt');
  ix = parseIndex(readFileSync(path.join(sb.dir, '.git', 'index')));
  assert.equal(seedProblem(ix), 'assume-unchanged entry a.txt');
  assert.deepEqual(
    ix.entries.map((e) => [e.mode, e.stage, e.path]),
    gitEntries(sb),
  );
});

test('parseIndex refuses bytes that are not an index', () => {
  assert.throws(() => parseIndex(Buffer.from('not an index at all, just text')), /not a git index file \(no DIRC header\)/);
  const sb = makeRepo();
  const buf = readFileSync(path.join(sb.dir, '.git', 'index'));
  assert.throws(() => parseIndex(buf.subarray(0, 80)), /not a git index file/);
});
