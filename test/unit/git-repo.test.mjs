// Spawn-free repository discovery (repoInfoFast in src/git/repo.ts, headFast in src/git/refs.ts)
// against git itself: in each layout the spawn-free answer is either exactly what `git rev-parse`
// prints or undefined (then repoInfo, also in src/git/repo.ts, asks git, and its answer or error
// is unchanged).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync, rmSync, renameSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src, withEnv } from '../helpers/sandbox.mjs';

const F = await import(src('git/repo.ts'));
const R = await import(src('git/refs.ts'));

/**
 * The current directory a process started in `dir` has: the physical path (getcwd resolves
 * symbolic links), what the bin passes on from process.cwd().
 */
const cwdIn = (dir) => realpathSync.native(dir);

/**
 * repoInfoFast and repoInfo (or its error) for a process started in `cwd` (cwdIn), called in
 * this process with exactly the sandbox's environment and `env` (withEnv, as a child process
 * would have it), and git's own answer.
 */
async function probe(sb, cwd, env = {}) {
  const out = await withEnv({ ...sb.env, ...env }, async () => {
    const fast = F.repoInfoFast(cwdIn(cwd)) ?? null;
    let info = null;
    let error = null;
    try {
      info = await F.repoInfo(cwdIn(cwd));
    } catch (e) {
      error = e.message + ' | ' + e.hint;
    }
    // Plain objects, as JSON from a child gave them.
    return JSON.parse(JSON.stringify({ fast, info, error }));
  });
  const g = sb.run('git', ['rev-parse', '--show-toplevel', '--absolute-git-dir'], { cwd, env });
  out.git = g.status === 0 ? { root: g.stdout.split('\n')[0], gitDir: g.stdout.split('\n')[1] } : null;
  return out;
}

/** The fast path answers, and exactly like git. */
async function expectFast(sb, cwd, env) {
  const p = await probe(sb, cwd, env);
  assert.ok(p.git, `git finds a repository from ${cwd}`);
  assert.deepEqual(p.fast, p.git, `fast path from ${cwd}`);
  assert.deepEqual(p.info, p.git);
  return p.git;
}

/** The fast path steps aside; repoInfo gives git's answer (or the usual error when git has none). */
async function expectFallback(sb, cwd, env) {
  const p = await probe(sb, cwd, env);
  assert.equal(p.fast, null, `no fast answer from ${cwd}`);
  if (p.git) assert.deepEqual(p.info, p.git);
  else assert.equal(p.error, `not inside a git working tree: ${cwd} | run git kizu from inside a git repository (git init creates one)`);
  return p;
}

test('repoInfoFast: root, subdirectory, symlinked paths, linked worktree, relative gitfile, .git symlink: same as git rev-parse', async () => {
  const sb = sandbox({ files: { 'sub/deep/f.txt': 'x\n' } });
  const real = sb.git('rev-parse', '--show-toplevel').trim();
  assert.deepEqual(await expectFast(sb, sb.dir), { root: real, gitDir: path.join(real, '.git') });
  await expectFast(sb, sb.path('sub/deep'));
  // A symlinked path: git reports the real path, so does the fast path.
  symlinkSync(sb.dir, path.join(sb.base, 'link'));
  assert.equal((await expectFast(sb, path.join(sb.base, 'link', 'sub'))).root, real);
  // Linked worktree: a gitfile with an absolute path into .git/worktrees/<name>.
  sb.git('worktree', 'add', '-q', '-b', 'side', path.join(sb.base, 'wt'));
  const wt = await expectFast(sb, path.join(sb.base, 'wt', 'sub', 'deep'));
  assert.equal(wt.gitDir, path.join(real, '.git', 'worktrees', 'wt'));
  // A relative gitfile (the submodule layout) and a .git that is a symbolic link.
  const other = path.join(sb.base, 'other');
  mkdirSync(other);
  sb.git('init', '-q', '--separate-git-dir', path.join(sb.base, 'store.git'), other);
  writeFileSync(path.join(other, '.git'), 'gitdir: ../store.git\n');
  assert.equal((await expectFast(sb, other)).gitDir, path.join(path.dirname(real), 'store.git'));
  const viaLink = path.join(sb.base, 'vialink');
  mkdirSync(viaLink);
  symlinkSync(path.join(real, '.git'), path.join(viaLink, '.git'));
  assert.deepEqual(await expectFast(sb, viaLink), { root: path.join(path.dirname(real), 'vialink'), gitDir: path.join(real, '.git') });
});

test('repoInfoFast steps aside: git env vars, inside .git, bare repo, broken nested .git, core.bare, core.worktree, no repository', async () => {
  const sb = sandbox({ files: { 'sub/f.txt': 'x\n' } });
  const real = sb.git('rev-parse', '--show-toplevel').trim();
  // GIT_DIR set: git takes the current directory as the working tree.
  let p = await expectFallback(sb, sb.path('sub'), { GIT_DIR: path.join(real, '.git') });
  assert.deepEqual(p.info, { root: path.join(real, 'sub'), gitDir: path.join(real, '.git') });
  await expectFallback(sb, sb.path('sub'), { GIT_CEILING_DIRECTORIES: real });
  // Inside the git dir, and a bare repository: no working tree, the usual error.
  p = await expectFallback(sb, sb.path('.git/refs'));
  assert.equal(p.git, null);
  sb.git('init', '-q', '--bare', path.join(sb.base, 'bare.git'));
  assert.equal((await expectFallback(sb, path.join(sb.base, 'bare.git'))).git, null);
  // A nested .git without HEAD is not a repository: git goes on to the outer one.
  mkdirSync(sb.path('sub/nested/.git/objects'), { recursive: true });
  mkdirSync(sb.path('sub/nested/.git/refs'));
  assert.equal((await expectFallback(sb, sb.path('sub/nested'))).info.root, real);
  rmSync(sb.path('sub/nested'), { recursive: true });
  // core.worktree and core.bare in the repository config.
  sb.git('config', 'core.worktree', sb.path('sub'));
  const apart = await probe(sb, sb.path('sub'));
  assert.deepEqual([apart.fast, apart.info, apart.git], [null, null, { root: path.join(real, 'sub'), gitDir: path.join(real, '.git') }]);
  assert.equal(
    apart.error,
    `the working tree ${path.join(real, 'sub')} is apart from its git dir ${path.join(real, '.git')} (core.worktree): git kizu does not support this layout | git kizu needs the git dir at ${path.join(real, 'sub', '.git')} (a directory, or a .git file naming it, as in linked worktrees)`,
  );
  sb.git('config', '--unset', 'core.worktree');
  sb.git('config', 'core.bare', 'true');
  assert.equal((await expectFallback(sb, sb.path('sub'))).git, null);
  sb.git('config', 'core.bare', 'false');
  await expectFast(sb, sb.path('sub'));
  // No repository at all: the error is unchanged.
  const outside = path.join(sb.base, 'plain');
  mkdirSync(outside);
  renameSync(sb.path('.git'), path.join(sb.base, 'moved.git'));
  await expectFallback(sb, outside);
  await expectFallback(sb, sb.dir);
});

test('headFast: branch (loose, packed), detached, unborn; agrees with git rev-parse HEAD', async () => {
  const sb = sandbox({ files: { 'a.txt': 'x\n' } });
  const code = (cwd) =>
    withEnv(sb.env, () => {
      const i = F.repoInfoFast(cwdIn(cwd));
      return R.headFast(i.gitDir, F.commonDirFast(i.root)) ?? null;
    });
  const head = () => sb.git('rev-parse', 'HEAD').trim();
  assert.equal(await code(sb.dir), head());
  sb.git('pack-refs', '--all');
  assert.equal(await code(sb.dir), head());
  sb.git('commit', '-q', '--allow-empty', '-m', 'two');
  assert.equal(await code(sb.dir), head());
  sb.git('checkout', '-q', '--detach', 'HEAD~1');
  assert.equal(await code(sb.dir), head());
  sb.git('worktree', 'add', '-q', '-b', 'wt', path.join(sb.base, 'wt'), 'main');
  assert.equal(await code(path.join(sb.base, 'wt')), sb.git('rev-parse', 'main').trim());
  sb.git('checkout', '-q', '--orphan', 'fresh');
  assert.equal(await code(sb.dir), null);
});
