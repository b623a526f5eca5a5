/**
 * Finding the repository: its working-tree top level, this worktree's git dir and the common
 * git dir ({@link findRepo}, {@link Repo}). From the file system alone when the answer is
 * certain (no process spawn, which would dominate the cost of a hook), else from
 * `git rev-parse`. The sync `*Fast` functions are the file-system halves, for hot paths that
 * fall back to git themselves.
 */
import { existsSync, statSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { quoteCStyle } from './quote.js';

/** This worktree's place in its repository: top level and git dir (`git rev-parse --show-toplevel --absolute-git-dir`). */
export interface RepoInfo {
  /** Absolute path of the working tree's top level (`git rev-parse --show-toplevel`). */
  root: string;
  /** Absolute path of this worktree's git dir (`--absolute-git-dir`). */
  gitDir: string;
}

/** A repository as git-kizu works on it: {@link RepoInfo} plus the common git dir (refs, objects, `<common-dir>/kizu/`). */
export interface Repo extends RepoInfo {
  /** Absolute path of the common git dir (`git rev-parse --git-common-dir`): equals gitDir outside linked worktrees. */
  commonDir: string;
}

/**
 * Environment variables that change where git looks for the working tree, the git dir, or
 * its objects and refs (git(1) "ENVIRONMENT VARIABLES"). With any of them set, even empty,
 * the fast paths here step aside and git is asked.
 */
const DISCOVERY_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
];

/**
 * True if `env` sets a variable that changes repository discovery or ref and object lookup
 * (GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES,
 * GIT_DISCOVERY_ACROSS_FILESYSTEM, GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES,
 * GIT_NAMESPACE; git(1)): then only git can locate the repository.
 */
export function discoveryOverridden(env: NodeJS.ProcessEnv = process.env): boolean {
  return DISCOVERY_ENV.some((k) => env[k] !== undefined);
}

/**
 * The repository named by GIT_DIR together with GIT_WORK_TREE (git(1) "ENVIRONMENT
 * VARIABLES"; a working tree apart from its git dir, such as a dotfiles repository), both
 * resolved against the current directory as git does; null unless both are set.
 */
function namedRepo(): { root: string; gitDir: string } | null {
  const { GIT_DIR: gd, GIT_WORK_TREE: wt } = process.env;
  if (!gd || !wt) return null;
  try {
    return { root: path.resolve(wt), gitDir: path.resolve(gd) };
  } catch {
    return null; // no current directory to resolve against
  }
}

/** True if `p` is `dir` or below it. */
function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Finds the working-tree top level without spawning git, by walking up from `start` to the
 * first directory holding a `.git` entry (directory or gitfile); GIT_WORK_TREE when `start`
 * is inside it and GIT_DIR is set too. Used on hook hot paths.
 * @returns the absolute directory, or null if none is found.
 */
export function findRootFast(start: string): string | null {
  const named = namedRepo();
  if (named && isInside(path.resolve(start), named.root)) return named.root;
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The git dir for a working-tree root without spawning git: GIT_DIR when `root` is the
 * GIT_WORK_TREE it is set with, else `<root>/.git` if a directory, else the `gitdir:` target
 * of a `.git` file (linked worktrees, submodules).
 * @returns absolute path, or null if `.git` is neither.
 */
export function gitDirFast(root: string): string | null {
  const named = namedRepo();
  if (named && named.root === path.resolve(root)) return named.gitDir;
  const dotgit = path.join(root, '.git');
  try {
    const st = statSync(dotgit);
    if (st.isDirectory()) return dotgit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotgit, 'utf8'));
    return m ? path.resolve(root, m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The common git dir for a working-tree root without spawning git: the `.git` dir, or for a
 * linked worktree the target of its `commondir` file (gitrepository-layout(5)).
 * @returns absolute path, or null if `<root>/.git` is neither a directory nor a gitfile.
 */
export function commonDirFast(root: string): string | null {
  const gd = gitDirFast(root);
  if (!gd) return null;
  try {
    return path.resolve(gd, readFileSync(path.join(gd, 'commondir'), 'utf8').trim());
  } catch {
    return gd;
  }
}

/**
 * `<gitDir>/HEAD` as git validates it (setup.c validate_headref): a symref into refs/, or an object id.
 * @returns the ref or object id it holds; null if it is missing, unreadable or not valid.
 */
export function headOf(gitDir: string): { ref: string } | { oid: string } | null {
  let s: string;
  try {
    s = readFileSync(path.join(gitDir, 'HEAD'), 'utf8');
  } catch {
    return null;
  }
  const m = /^ref:[ \t]*(refs\/[^\s]+)[ \t]*\n?$/.exec(s);
  if (m) return { ref: m[1] };
  return /^[0-9a-f]{40}([0-9a-f]{24})?\n?$/.test(s) ? { oid: s.trim() } : null;
}

function ownedByUs(p: string, uid: number): boolean {
  try {
    return lstatSync(p).uid === uid;
  } catch {
    return false;
  }
}

/**
 * Repository config that changes what discovery finds (core.worktree, core.bare true,
 * extensions such as worktreeConfig, a repository format other than 0): a reason to ask git.
 */
function configNeedsGit(common: string): boolean {
  let cfg: string;
  try {
    cfg = readFileSync(path.join(common, 'config'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  if (/worktree|\[\s*extensions|\[\s*include/i.test(cfg)) return true;
  for (const m of cfg.matchAll(/^[ \t]*(bare|repositoryformatversion)\b(.*)$/gim)) {
    const key = m[1].toLowerCase();
    const v = m[2].replace(/[#;].*$/, '').trim();
    if (key === 'bare' && !/^=\s*(false|no|off|0)$/i.test(v)) return true;
    if (key === 'repositoryformatversion' && !/^=\s*0$/.test(v)) return true;
  }
  return false;
}

/**
 * Locates the repository containing `cwd` from the file system alone, the way git's discovery
 * does it (git-rev-parse(1) `--show-toplevel --absolute-git-dir`; setup.c
 * setup_git_directory_gently): from the real path of `cwd` up to the first directory with a
 * `.git` directory or gitfile (`gitdir: <path>`, as in linked worktrees and submodules) that
 * names a valid git dir (a HEAD file, `objects` and `refs` in its common dir).
 * @returns `root`: that directory (a real path, symbolic links resolved, like git's);
 *   `gitDir`: the real path of its git dir; `commonDir`: the target of its `commondir`
 *   file, else the git dir (gitrepository-layout(5); as {@link commonDirFast}).
 *   undefined whenever git might answer otherwise or fail: a discovery environment variable set ({@link discoveryOverridden}), Windows, `cwd`
 *   inside a git dir or a bare repository, a `.git` that is not a valid git dir or gitfile,
 *   a file-system boundary crossed, paths not owned by the current user (safe.directory),
 *   core.worktree, core.bare, extensions or a repository format other than 0 in the
 *   config, no repository at all. Ask git then.
 */
export function findRepoFast(cwd: string): Repo | undefined {
  if (process.platform === 'win32' || discoveryOverridden()) return undefined;
  const uid = process.geteuid?.();
  if (uid === undefined || (uid === 0 && process.env.SUDO_UID !== undefined)) return undefined;
  let dir: string;
  let dev: number;
  try {
    dir = realpathSync.native(cwd);
    dev = statSync(dir).dev;
  } catch {
    return undefined;
  }
  for (;;) {
    const dotgit = path.join(dir, '.git');
    let st;
    try {
      st = statSync(dotgit);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    }
    if (st) {
      let gitDir: string;
      if (st.isDirectory()) gitDir = dotgit;
      else if (st.isFile()) {
        let m: RegExpExecArray | null;
        try {
          m = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(dotgit, 'utf8'));
        } catch {
          return undefined;
        }
        if (!m) return undefined;
        gitDir = path.resolve(dir, m[1]);
      } else return undefined;
      let common = gitDir;
      try {
        common = path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').replace(/\r?\n$/, ''));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
      }
      if (!headOf(gitDir) || !existsSync(path.join(common, 'objects')) || !existsSync(path.join(common, 'refs'))) return undefined;
      if (configNeedsGit(common)) return undefined;
      let real: string;
      try {
        real = realpathSync.native(gitDir);
      } catch {
        return undefined;
      }
      if (!ownedByUs(dir, uid) || !ownedByUs(dotgit, uid) || !ownedByUs(real, uid)) return undefined;
      return { root: dir, gitDir: real, commonDir: common };
    }
    // No .git here: git would take this directory itself for a git dir if it looks like one
    // (a bare repository, or cwd inside .git), which has no working tree.
    if (existsSync(path.join(dir, 'HEAD'))) return undefined;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    try {
      if (statSync(up).dev !== dev) return undefined;
    } catch {
      return undefined;
    }
    dir = up;
  }
}

/**
 * {@link findRepoFast} without the common dir: `{root, gitDir}` exactly as `git rev-parse
 * --show-toplevel --absolute-git-dir` prints them, or undefined (then ask git).
 */
export function repoInfoFast(cwd: string): RepoInfo | undefined {
  const r = findRepoFast(cwd);
  return r && { root: r.root, gitDir: r.gitDir };
}

/**
 * Locates the repository containing `cwd`, as `git rev-parse --show-toplevel
 * --absolute-git-dir --git-common-dir` does (root and git dir are real paths; the common
 * dir is resolved against `cwd`): from the file system when that is certain
 * ({@link findRepoFast}), else by running git.
 * @throws KizuError (exit 2) if `cwd` is not inside a git working tree (bare repos
 *   included), or for a working tree apart from its git dir ({@link assertGitDirInTree}).
 */
export async function findRepo(cwd: string): Promise<Repo> {
  const fast = findRepoFast(cwd);
  if (fast) return fast;
  // git/run.ts (and with it child_process) loads only when git has to be asked: the hooks
  // that find the repository from the files never start a process.
  const { git } = await import('./run.js');
  const r = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], { cwd, okStatus: [0, 128] });
  const lines = r.stdout.toString('utf8').split('\n').filter(Boolean);
  if (r.status !== 0 || lines.length < 3) {
    throw new KizuError(`not inside a git working tree: ${quoteCStyle(cwd)}`, {
      hint: 'run git kizu from inside a git repository (git init creates one)',
    });
  }
  const repo = { root: lines[0], gitDir: lines[1], commonDir: path.resolve(cwd, lines[2]) };
  assertGitDirInTree(repo);
  return repo;
}

/**
 * The top level and git dir of the repository containing `cwd` ({@link findRepo} without
 * the common dir); same errors.
 */
export async function repoInfo(cwd: string): Promise<RepoInfo> {
  const r = await findRepo(cwd);
  return { root: r.root, gitDir: r.gitDir };
}

/**
 * Refuses a working tree that is apart from the git dir git found for it (core.worktree set in
 * a repository's config, git-config(1)), unless GIT_DIR/GIT_WORK_TREE say so explicitly: git
 * kizu runs git from the working tree, where git would not find that git dir, so it would
 * read and write the wrong place.
 * @throws KizuError (exit 2) for such a layout.
 */
export function assertGitDirInTree(info: RepoInfo): void {
  if (discoveryOverridden()) return;
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const own = gitDirFast(info.root);
  if (own && real(own) === real(info.gitDir)) return;
  throw new KizuError(`the working tree ${quoteCStyle(info.root)} is apart from its git dir ${quoteCStyle(info.gitDir)} (core.worktree): git kizu does not support this layout`, {
    hint: `git kizu needs the git dir at ${quoteCStyle(path.join(info.root, '.git'))} (a directory, or a .git file naming it, as in linked worktrees)`,
  });
}

/**
 * The absolute common git dir of the repository whose working-tree top level is `root`
 * (`git rev-parse --git-common-dir`): the main `.git` even from a linked worktree, so all
 * worktrees share objects, refs and `<common-dir>/kizu/`. From the files
 * ({@link commonDirFast}) unless a git environment variable changes discovery, else
 * {@link findRepo}.
 * @throws KizuError (exit 2) as findRepo.
 */
export async function commonDir(root: string): Promise<string> {
  const fast = discoveryOverridden() ? null : commonDirFast(root);
  return fast ?? (await findRepo(root)).commonDir;
}

/**
 * The bytes of the index file git would use for the working tree at `root`, read without git:
 * `GIT_INDEX_FILE` resolved as git resolves it (against the directory git runs in, `root`),
 * else `<git-dir>/index`.
 * @returns the bytes; null when there is no index yet; undefined when the files cannot answer
 *   (a discovery variable such as GIT_DIR is set, or no git dir was found): ask git then.
 */
export function indexBytesFast(root: string): Buffer | null | undefined {
  const gd = !discoveryOverridden() ? gitDirFast(root) : null;
  if (!gd) return undefined;
  try {
    return readFileSync(process.env.GIT_INDEX_FILE ? path.resolve(root, process.env.GIT_INDEX_FILE) : path.join(gd, 'index'));
  } catch {
    return null;
  }
}
