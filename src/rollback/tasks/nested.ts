/**
 * Nested repositories in a task's linked worktree: what removing that worktree would delete
 * that no copy of ours can hold. A removed-task commit (./removed.ts) records a nested
 * repository as a gitlink at most (one commit id), so its history, its uncommitted files and
 * a submodule's git directory (for a submodule initialised in a linked worktree:
 * `<worktree's git dir>/modules/<name>`, gitsubmodules(7)) would go with the worktree.
 * `git kizu rollback branch` and `task land --remove` refuse before anything changes while
 * {@link nestedRepositories} finds any (as `git worktree remove` refuses a worktree with
 * submodules, git-worktree(1)).
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { quoteCStyle, shellPath } from '../../git/quote.js';
import { git, splitZ } from '../../git/run.js';

/** One nested repository found in a worktree. */
export interface NestedRepository {
  /**
   * Its path relative to the worktree, `/`-separated, with a trailing `/` (e.g.
   * `vendor/lib/`); for a submodule git directory no checkout points at, its absolute path.
   */
  path: string;
  /** Why removing the worktree would lose it (a phrase: `a git repository of its own (...)`). */
  reason: string;
}

const REASON = {
  repo: 'a git repository of its own (its commits and files would be deleted with the worktree)',
  submodule: 'an initialised submodule (its git directory, commits and files would be deleted with the worktree)',
  gitlink: 'a submodule path holding files git does not list (they would be deleted with the worktree)',
  module: 'the git directory of a submodule of this worktree (its commits would be deleted with the worktree)',
};

async function kind(p: string): Promise<'dir' | 'file' | 'other' | 'none'> {
  try {
    const st = await lstat(p);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return 'none';
  }
}

const real = (p: string) => realpath(p).catch(() => path.resolve(p));

/** The git directory a `.git` entry at `dotGit` stands for (a directory, or a `gitdir: <path>` file), or null. */
async function gitDirOf(dotGit: string): Promise<string | null> {
  const k = await kind(dotGit);
  if (k === 'dir') return real(dotGit);
  if (k !== 'file') return null;
  const m = /^gitdir: (.*)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''));
  return m ? real(path.resolve(path.dirname(dotGit), m[1].trim())) : null;
}

/** The git directories under `dir` (a directory holding `HEAD` and `objects/`), not looking inside one. */
async function gitDirsUnder(dir: string): Promise<string[]> {
  if ((await kind(path.join(dir, 'HEAD'))) === 'file' && (await kind(path.join(dir, 'objects'))) === 'dir') return [dir];
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) found.push(...(await gitDirsUnder(path.join(dir, e.name))));
  return found;
}

/**
 * Every nested repository in worktree `wt` that removing it would delete:
 * - untracked and ignored ones (`git ls-files -o -z`, no excludes: git lists a directory
 *   that is a repository of its own as `dir/` and does not look inside it, whether it has a
 *   commit or not);
 * - tracked submodules (gitlinks, mode 160000 in `git ls-files -s`) whose directory is
 *   initialised (has a `.git`) or holds any file;
 * - a `.git` in a directory of tracked files (a repository made over tracked files);
 * - submodule git directories under `<git dir of wt>/modules/` that no checkout above points
 *   at (e.g. after `git submodule deinit`).
 * @returns them sorted by path ([] when there are none).
 * @throws KizuError (exit 2) when git fails.
 */
export async function nestedRepositories(wt: string): Promise<NestedRepository[]> {
  const found = new Map<string, string>();
  const usedGitDirs = new Set<string>();
  const note = async (rel: string, reason: string) => {
    const key = rel.endsWith('/') ? rel : `${rel}/`;
    if (!found.has(key)) found.set(key, reason);
    const gd = await gitDirOf(path.join(wt, ...key.split('/').filter(Boolean), '.git'));
    if (gd) usedGitDirs.add(gd);
  };
  for (const p of splitZ((await git(['ls-files', '-o', '-z'], { cwd: wt })).stdout)) {
    if (p.endsWith('/')) await note(p, REASON.repo);
  }
  const dirs = new Set<string>();
  for (const rec of splitZ((await git(['ls-files', '-s', '-z'], { cwd: wt })).stdout)) {
    const tab = rec.indexOf('\t');
    const file = rec.slice(tab + 1);
    if (rec.startsWith('160000 ')) {
      const abs = path.join(wt, ...file.split('/'));
      if ((await kind(path.join(abs, '.git'))) !== 'none') await note(file, REASON.submodule);
      else if ((await kind(abs)) === 'dir' && (await readdir(abs)).length > 0) await note(file, REASON.gitlink);
    }
    for (let d = path.posix.dirname(file); d !== '.' && !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
  }
  for (const d of dirs) {
    if ((await kind(path.join(wt, ...d.split('/'), '.git'))) !== 'none') await note(d, REASON.repo);
  }
  const gitDir = (await git(['rev-parse', '--absolute-git-dir'], { cwd: wt })).stdout.toString('utf8').trim();
  for (const m of await gitDirsUnder(path.join(gitDir, 'modules'))) {
    if (!usedGitDirs.has(await real(m))) found.set(m, REASON.module);
  }
  return [...found].map(([p, reason]) => ({ path: p, reason })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The refusal for nested repositories in worktree `wt` (exit 1), naming each one and why;
 * `what` is the refused action (`discarding task "x"`), `again` the command to run after,
 * `alt` (optional) a way that keeps the worktree, added to the hint.
 */
export function nestedRefusal(what: string, wt: string, nested: NestedRepository[], again: string, alt?: string): KizuError {
  const list = nested.map((n) => `${quoteCStyle(n.path)}: ${n.reason}`).join('; ');
  return new KizuError(`not ${what}: its worktree ${quoteCStyle(wt)} holds ${nested.length === 1 ? 'a repository' : `${nested.length} repositories`} that no copy can keep: ${list}`, {
    hint: `move ${nested.length === 1 ? 'it' : 'them'} out of ${shellPath(wt)}, or push ${nested.length === 1 ? 'its' : 'their'} work elsewhere and delete ${nested.length === 1 ? 'it' : 'them'}, then run ${again} again${alt ? `; or ${alt}` : ''}`,
    exitCode: EXIT.FOUND,
  });
}
