// The untracked listing of snapshots through the store's untracked index and git's
// untracked cache (src/rollback/untracked.ts, early.ts listUntracked) must give exactly what
// `git ls-files -o --exclude-standard` gives, whatever changes in between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from './helpers.mjs';

function ok(r, what = 'command') {
  assert.equal(r.status, 0, `${what} failed (${r.status}): ${r.stderr}`);
  return r;
}

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

/**
 * Takes a snapshot with git's trace on; returns the snapshot's paths and how the untracked
 * files were listed: 'index' (status on the untracked index), 'ls-files', or both.
 */
function snap(sb) {
  const trace = path.join(sb.base, `trace-${Date.now()}-${Math.random()}.json`);
  const r = ok(sb.kizu(['snapshot', '--json'], { env: { GIT_TRACE2_EVENT: trace } }), 'snapshot');
  const res = JSON.parse(r.stdout);
  const argvs = readFileSync(trace, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((e) => e.event === 'start')
    .map((e) => e.argv.slice(1));
  rmSync(trace);
  const via = [];
  if (argvs.some((a) => a.includes('status') && a.includes('--porcelain=v2'))) via.push('index');
  if (argvs.some((a) => a[0] === 'ls-files' && a.includes('-o'))) via.push('ls-files');
  const paths = sb
    .git('ls-tree', '-r', '-z', '--name-only', res.id)
    .split('\0')
    .filter(Boolean)
    .sort();
  return { paths, via: via.join('+'), res };
}

function userChecksum(sb) {
  const b = readFileSync(sb.path('.git/index'));
  return b.subarray(b.length - 20).toString('hex');
}

test('untracked files listed through the untracked index equal git ls-files -o at every step', () => {
  const sb = sandbox({
    files: {
      '.gitignore': '*.log\nbuild/\n',
      'src/a.js': 'a\n',
      'src/deep/b.js': 'b\n',
      'docs/readme.md': 'r\n',
    },
  });
  const key = sb.path('.git/kizu/snapshot/untracked-index.key');
  const check = (what, via) => {
    const s = snap(sb);
    assert.deepEqual(s.paths, expected(sb), `${what}: the snapshot holds exactly the tracked and untracked, not ignored files`);
    assert.equal(s.via, via, `${what}: untracked files listed via ${via}`);
    assert.equal(readFileSync(key, 'utf8'), userChecksum(sb), `${what}: the key names the user's index`);
    return s;
  };

  const userIndex = readFileSync(sb.path('.git/index'));
  check('first snapshot (builds the untracked index)', 'ls-files');
  check('nothing changed', 'index');

  sb.write({ 'new/a.txt': 'n\n', 'x.log': 'ignored\n', 'build/out.js': 'ignored\n', 'src/deep/c.js': 'c\n', 'we ird ünï.txt': 'u\n' });
  check('new untracked files, some ignored', 'index');

  sb.write({ '.gitignore': '*.log\nbuild/\nnew/\n' });
  check('a tracked .gitignore now ignores new/', 'index');
  sb.write({ 'src/.gitignore': 'c.js\n' });
  check('a new untracked .gitignore in a subdirectory ignores src/deep/c.js', 'index');

  sb.write({ 'keep.txt': 'k\n' });
  writeFileSync(sb.path('.git/info/exclude'), 'keep.txt\n');
  check('.git/info/exclude ignores keep.txt', 'index');
  writeFileSync(sb.path('.git/info/exclude'), '');
  check('.git/info/exclude emptied', 'index');

  const excludes = path.join(sb.home, 'ignore');
  writeFileSync(excludes, '*.tmp\n');
  sb.git('config', '--global', 'core.excludesFile', excludes);
  sb.write({ 'a.tmp': 't\n' });
  check('core.excludesFile ignores *.tmp', 'index');
  writeFileSync(excludes, '');
  check('core.excludesFile emptied', 'index');

  rmSync(sb.path('we ird ünï.txt'));
  rmSync(sb.path('src/deep/b.js'));
  sb.write({ 'n1/n2/n3/f.txt': 'f\n' });
  check('an untracked file and a tracked file deleted, a new nested directory', 'index');
  assert.ok(readFileSync(sb.path('.git/index')).equals(userIndex), "snapshots never touch the user's index");

  // The tracked paths change: listed with ls-files once, and the untracked index is rebuilt.
  sb.git('add', 'keep.txt');
  check('a path added to the user index', 'ls-files');
  check('after the rebuild', 'index');
  sb.git('rm', '-q', '--cached', 'keep.txt');
  check('a path removed from the user index', 'ls-files');

  // Same paths, other stat data: only the key is renewed (the index, with its cache, stays).
  const uindex = sb.path('.git/kizu/snapshot/untracked-index');
  const before = statSync(uindex).ino;
  sb.write({ 'src/a.js': 'a\n' });
  sb.git('update-index', '--refresh', { allowFail: true });
  assert.notEqual(readFileSync(key, 'utf8'), userChecksum(sb), 'the user index was rewritten');
  check('the user index rewritten with the same paths', 'ls-files');
  assert.equal(statSync(uindex).ino, before, 'the untracked index was kept, not rebuilt');
  check('after renewing the key', 'index');

  // An untracked nested repository is left out (listed as skipped) both ways.
  sb.git('init', '-q', 'nested');
  writeFileSync(sb.path('nested/f.txt'), 'f\n');
  const s = check('an untracked nested repository', 'index');
  assert.deepEqual(s.res.skipped, [{ path: 'nested', reason: 'untracked nested git repository' }]);

  // A damaged untracked index: the listing falls back to ls-files, and it is rebuilt.
  writeFileSync(uindex, 'not an index');
  sb.write({ 'late.txt': 'l\n' });
  const d = snap(sb);
  assert.deepEqual(d.paths, expected(sb), 'a damaged untracked index changes nothing in the snapshot');
  assert.equal(d.via, 'index+ls-files', 'status on the damaged index failed, then ls-files listed');
  check('after a damaged untracked index', 'index');
});

test('no untracked index with GIT_INDEX_FILE set or an unmerged user index; snapshots stay exact', () => {
  const sb = sandbox({ files: { 'a.txt': 'base\n' } });
  const key = sb.path('.git/kizu/snapshot/untracked-index.key');
  sb.git('checkout', '-q', '-b', 'other');
  sb.write({ 'a.txt': 'other\n' });
  sb.git('commit', '-q', '-am', 'other');
  sb.git('checkout', '-q', 'main');
  sb.write({ 'a.txt': 'main\n' });
  sb.git('commit', '-q', '-am', 'main');
  sb.git('merge', '-q', 'other', { allowFail: true });
  sb.write({ 'u.txt': 'u\n' });
  let s = snap(sb);
  assert.deepEqual(s.paths, expected(sb));
  assert.equal(s.via, 'ls-files');
  assert.equal(existsSync(key), false, 'no key for an index with unmerged entries');

  sb.git('checkout', '-q', '-f', 'main');
  s = snap(sb);
  assert.equal(existsSync(key), true, 'a key once the index is usable');
  const alt = path.join(sb.base, 'alt-index');
  sb.git('read-tree', 'HEAD', { env: { GIT_INDEX_FILE: alt } });
  const r = ok(sb.kizu(['snapshot', '--json'], { env: { GIT_INDEX_FILE: alt } }));
  const id = JSON.parse(r.stdout).id;
  assert.deepEqual(sb.git('ls-tree', '-r', '--name-only', id).split('\n').filter(Boolean).sort(), ['a.txt', 'u.txt']);
  assert.equal(existsSync(key), false, 'GIT_INDEX_FILE: the key is dropped, listings use ls-files');
});
