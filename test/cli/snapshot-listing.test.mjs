// What a snapshot holds, step after step: the tracked files that exist, and the untracked files
// git does not ignore (`git ls-files -o --exclude-standard`), whatever changes in between.
// Also the cases a fresh-eyes tester found wrong in an untracked-cache listing (since removed):
// an unstaged edit of a tracked .gitignore, nested repositories appearing and disappearing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';

/** What a snapshot must hold: tracked paths that exist, and untracked files git does not ignore. */
function expected(sb) {
  const z = (s) => s.split('\0').filter(Boolean);
  const exists = (p) => {
    try {
      lstatSync(sb.path(p));
      return true;
    } catch {
      return false;
    }
  };
  const tracked = z(sb.git('ls-files', '-z')).filter(exists);
  const others = z(sb.git('ls-files', '-o', '--exclude-standard', '-z')).filter((p) => !p.endsWith('/'));
  return [...new Set([...tracked, ...others])].sort();
}

/** Takes a snapshot; returns its paths and the result. */
function snap(sb) {
  const res = JSON.parse(ok(sb.kizu(['snapshot', '--json']), 'snapshot').stdout);
  const paths = sb
    .git('ls-tree', '-r', '-z', '--name-only', res.id)
    .split('\0')
    .filter(Boolean)
    .sort();
  return { paths, res };
}

/** Lets the next change fall in a later second than the last snapshot (stat data in seconds). */
const nextSecond = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100);

test('a snapshot holds the tracked files and the untracked, not ignored files at every step', () => {
  const sb = sandbox({
    files: {
      '.gitignore': '*.log\nbuild/\n',
      'src/a.js': 'a\n',
      'src/deep/b.js': 'b\n',
      'docs/readme.md': 'r\n',
    },
  });
  const check = (what) => {
    const s = snap(sb);
    assert.deepEqual(s.paths, expected(sb), what);
    return s;
  };
  const userIndex = readFileSync(sb.path('.git/index'));
  check('first snapshot');
  check('nothing changed');

  sb.write({ 'new/a.txt': 'n\n', 'x.log': 'ignored\n', 'build/out.js': 'ignored\n', 'src/deep/c.js': 'c\n', 'we ird ünï.txt': 'u\n' });
  check('new untracked files, some ignored');

  sb.write({ '.gitignore': '*.log\nbuild/\nnew/\n' });
  check('a tracked .gitignore, edited and not staged, now ignores new/');
  sb.write({ 'src/.gitignore': 'c.js\n' });
  check('a new untracked .gitignore in a subdirectory ignores src/deep/c.js');

  sb.write({ 'keep.txt': 'k\n' });
  writeFileSync(sb.path('.git/info/exclude'), 'keep.txt\n');
  check('.git/info/exclude ignores keep.txt');
  writeFileSync(sb.path('.git/info/exclude'), '');
  check('.git/info/exclude emptied');

  const excludes = path.join(sb.home, 'ignore');
  writeFileSync(excludes, '*.tmp\n');
  sb.git('config', '--global', 'core.excludesFile', excludes);
  sb.write({ 'a.tmp': 't\n' });
  check('core.excludesFile ignores *.tmp');
  writeFileSync(excludes, '');
  check('core.excludesFile emptied');

  rmSync(sb.path('we ird ünï.txt'));
  rmSync(sb.path('src/deep/b.js'));
  sb.write({ 'n1/n2/n3/f.txt': 'f\n' });
  check('an untracked file and a tracked file deleted, a new nested directory');
  assert.ok(readFileSync(sb.path('.git/index')).equals(userIndex), "snapshots never touch the user's index");

  sb.git('add', 'keep.txt');
  check('a path added to the user index');
  sb.git('rm', '-q', '--cached', 'keep.txt');
  check('a path removed from the user index');
  sb.write({ 'src/a.js': 'a\n' });
  sb.git('update-index', '--refresh', { allowFail: true });
  check('the user index rewritten with the same paths');
});

test('an unstaged edit of a committed .gitignore takes effect in the next snapshot, both ways', () => {
  const sb = sandbox({ files: { '.gitignore': 'node_modules/\nout/\n', 'a.txt': 'a\n' } });
  sb.write({ 'out/f': 'precious\n' });
  nextSecond();
  assert.deepEqual(snap(sb).paths, ['.gitignore', 'a.txt']);
  nextSecond();
  snap(sb);
  sb.write({ '.gitignore': 'node_modules/\n' });
  assert.deepEqual(snap(sb).paths, ['.gitignore', 'a.txt', 'out/f'], 'no longer ignored: captured');
  nextSecond();
  sb.write({ '.gitignore': 'node_modules/\nout/\n' });
  assert.deepEqual(snap(sb).paths, ['.gitignore', 'a.txt'], 'ignored again: left out');
});

test('nested repositories appearing and disappearing inside an untracked directory', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.write({ 'a2/sub/f': '1\n' });
  sb.git('init', '-q', 'a2/sub');
  let s = snap(sb);
  assert.deepEqual(s.paths, ['a.txt']);
  assert.deepEqual(s.res.skipped, [{ path: 'a2/sub', reason: 'untracked nested git repository' }]);
  snap(sb);
  nextSecond();
  rmSync(sb.path('a2/sub/.git'), { recursive: true });
  s = snap(sb);
  assert.deepEqual(s.paths, ['a.txt', 'a2/sub/f'], 'no longer a repository: its file is captured');
  snap(sb);
  nextSecond();
  sb.git('init', '-q', 'a2/sub');
  s = snap(sb);
  assert.deepEqual(s.paths, ['a.txt'], 'a repository again: left out');
  assert.deepEqual(s.res.skipped, [{ path: 'a2/sub', reason: 'untracked nested git repository' }]);
});

test('GIT_INDEX_FILE set, or an unmerged user index: snapshots stay exact', () => {
  const sb = sandbox({ files: { 'a.txt': 'base\n' } });
  sb.git('checkout', '-q', '-b', 'other');
  sb.write({ 'a.txt': 'other\n' });
  sb.git('commit', '-q', '-am', 'other');
  sb.git('checkout', '-q', 'main');
  sb.write({ 'a.txt': 'main\n' });
  sb.git('commit', '-q', '-am', 'main');
  sb.git('merge', '-q', 'other', { allowFail: true });
  sb.write({ 'u.txt': 'u\n' });
  assert.deepEqual(snap(sb).paths, expected(sb));
  sb.git('checkout', '-q', '-f', 'main');
  assert.deepEqual(snap(sb).paths, expected(sb));
  const alt = path.join(sb.base, 'alt-index');
  sb.git('read-tree', 'HEAD', { env: { GIT_INDEX_FILE: alt } });
  const r = ok(sb.kizu(['snapshot', '--json'], { env: { GIT_INDEX_FILE: alt } }));
  const id = JSON.parse(r.stdout).id;
  assert.deepEqual(sb.git('ls-tree', '-r', '--name-only', id).split('\n').filter(Boolean).sort(), ['a.txt', 'u.txt']);
});
