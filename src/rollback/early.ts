/**
 * Starting a snapshot before the snapshot code has loaded. The snapshot command's fast path
 * and the UserPromptSubmit hook call {@link startSnapshotEarly} first thing: when the store
 * lock is free right now, it takes the lock and starts the git processes whose output every
 * capture needs (the untracked listing, the snapshot refs and, on an up-to-date private
 * index, `git diff-files`), so that git works while Node loads the rest. takeSnapshot then
 * adopts both the lock and the running processes ({@link takeEarlySnapshot}). Holding the lock
 * from the start means nothing of ours changes the working tree or the private index between
 * those git processes and the rest of the capture.
 *
 * A small module on purpose (no config, no snapshot code): it must cost less than it saves.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { git, type GitResult } from '../git.js';
import { commonDirFast, repoInfoFast } from '../gitdir.js';
import { acquireLock } from './lock.js';

/** Namespace of the snapshot refs (with trailing slash). */
export const SNAPSHOT_REFS = 'refs/kizu/snapshots/';

/** `git ls-files` arguments of the untracked, not ignored listing a capture starts from. */
export const UNTRACKED_ARGS = ['ls-files', '-o', '--exclude-standard', '-z'];

/** `git for-each-ref` arguments listing the snapshots: `<commit> <tree> <ref>` per line. */
export const REFS_ARGS = ['for-each-ref', '--format=%(objectname) %(tree) %(refname)', SNAPSHOT_REFS];

/**
 * `git status` on the store's untracked index (see {@link untrackedIndexFiles}): its
 * untracked files, `?` records of porcelain v2 (git-status(1) "Porcelain Format Version 2"),
 * are `git ls-files -o --exclude-standard` of the user's index, read through git's untracked
 * cache (git-update-index(1) "UNTRACKED CACHE"). Every entry of that index has the
 * assume-unchanged bit, and with core.preloadIndex off git lstat's none of them; the
 * untracked cache then re-reads only directories whose stat data changed. The `-c` options
 * keep the user's settings from changing that: the cache is on and kept for `-uall`,
 * no fsmonitor, no split index (which would write shared index files into the git dir).
 */
export const UNTRACKED_INDEX_CONFIG = [
  '-c', 'core.untrackedCache=true',
  '-c', 'status.showUntrackedFiles=all',
  '-c', 'core.preloadIndex=false',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.splitIndex=false',
];
export const UNTRACKED_STATUS_ARGS = [...UNTRACKED_INDEX_CONFIG, 'status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'];

/** `git update-index` arguments the capture streams the paths to (re)hash to (capture.ts). */
export const UPDATE_ARGS = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'];

/** `git diff-files` arguments naming the private index's entries whose files changed. */
export const DIRTY_ARGS = ['diff-files', '--name-only', '-z'];

/**
 * Environment for git commands on the user's repository from inside its top level. A
 * GIT_DIR / GIT_WORK_TREE / GIT_COMMON_DIR inherited from a calling git hook may be relative
 * to another directory, so they are not passed on as they are: without them git finds the
 * repository from the working directory. When the user names the repository with GIT_DIR or
 * GIT_WORK_TREE (a working tree apart from its git dir, such as a dotfiles repository; git(1)
 * "ENVIRONMENT VARIABLES"), git would not find it that way, so `repo` (the repository as
 * resolved from them: absolute top level and git dir) is passed on explicitly instead.
 * GIT_INDEX_FILE, if set, is kept: that is the user's index of the moment.
 */
export function realEnv(repo?: { root: string; gitDir: string }): NodeJS.ProcessEnv {
  if (repo && (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined)) {
    return { GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.root, GIT_COMMON_DIR: undefined };
  }
  return { GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_COMMON_DIR: undefined };
}

/** The paths of the snapshot store of the worktree whose git dir is `gitDir`. */
export function storePaths(gitDir: string): {
  dir: string;
  indexFile: string;
  stateFile: string;
  shadowDir: string;
  lockFile: string;
  untrackedIndex: string;
  untrackedKey: string;
} {
  const dir = path.join(gitDir, 'kizu', 'snapshot');
  return {
    dir,
    indexFile: path.join(dir, 'index'),
    stateFile: path.join(dir, 'state.json'),
    shadowDir: path.join(dir, 'shadow'),
    lockFile: path.join(dir, 'lock'),
    // The untracked index (see UNTRACKED_STATUS_ARGS) and the checksum of the user's index
    // whose paths it holds (untracked.ts keeps them).
    untrackedIndex: path.join(dir, 'untracked-index'),
    untrackedKey: path.join(dir, 'untracked-index.key'),
  };
}

/**
 * Hex of the trailing checksum of the index file `file` (its last `oidLen` bytes,
 * gitformat-index(5)), or null if it cannot be read, is too short, or the checksum is all
 * zeros (index.skipHash: then it does not identify the content).
 */
export function indexChecksum(file: string, oidLen: number): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size < 12 + oidLen) return null;
    const b = Buffer.alloc(oidLen);
    readSync(fd, b, 0, oidLen, size - oidLen);
    return b.every((x) => x === 0) ? null : b.toString('hex');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The file names of `git status --porcelain=v2 -z` `?` records (untracked), in output order. */
export function untrackedOfStatus(out: Buffer): string[] {
  const recs = out.toString('utf8').split('\0');
  const paths: string[] = [];
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    if (r.startsWith('? ')) paths.push(r.slice(2));
    else if (r.startsWith('2 ')) i++; // a rename record is followed by its original path
  }
  return paths;
}

/** How {@link listUntracked} listed: through the untracked index, or `git ls-files -o`. */
export interface UntrackedListing {
  paths: string[];
  /** The user's index checksum the untracked index was used for, or null (ls-files ran). */
  viaIndex: string | null;
}

/**
 * Lists the untracked files git does not ignore in the worktree at `root` (git dir
 * `gitDir`): `git ls-files -o --exclude-standard -z` ({@link UNTRACKED_ARGS}) of the user's
 * index, or, when the store's untracked index holds the paths of exactly this user index
 * (its key file names the user index's checksum), the same list through that index and git's
 * untracked cache ({@link UNTRACKED_STATUS_ARGS}). A failing status falls back to ls-files
 * (and the key is removed, so the index is rebuilt). Nested repositories are listed as
 * `dir/`, as ls-files does. The caller holds the store lock.
 * @throws KizuError (exit 2) if `git ls-files` fails.
 */
export async function listUntracked(root: string, gitDir: string): Promise<UntrackedListing> {
  const p = storePaths(gitDir);
  let key: string | null = null;
  if (!process.env.GIT_INDEX_FILE) {
    try {
      const want = readFileSync(p.untrackedKey, 'utf8');
      if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(want) && indexChecksum(path.join(gitDir, 'index'), want.length / 2) === want && existsSync(p.untrackedIndex)) key = want;
    } catch {
      /* no key: ls-files */
    }
  }
  if (key) {
    // Optional locks on (git.ts turns them off): status writes the refreshed untracked cache.
    const env = { ...realEnv({ root, gitDir }), GIT_INDEX_FILE: p.untrackedIndex, GIT_OPTIONAL_LOCKS: '1' };
    const r = await git(UNTRACKED_STATUS_ARGS, { cwd: root, env, okStatus: [0, 1, 128, 129] });
    if (r.status === 0) return { paths: untrackedOfStatus(r.stdout), viaIndex: key };
    try {
      rmSync(p.untrackedKey, { force: true });
    } catch {
      /* listed the slow way below either way */
    }
  }
  const r = await git(UNTRACKED_ARGS, { cwd: root, env: realEnv({ root, gitDir }) });
  return { paths: r.stdout.toString('utf8').split('\0').filter((x) => x.length > 0), viaIndex: null };
}

/**
 * Environment for git commands on the private snapshot index: the real git dir, the shadow
 * common dir (store.ts explains why), the repository's objects, the working tree, the index.
 */
export function shadowEnv(s: { root: string; gitDir: string; commonDir: string; shadowDir: string; indexFile: string }): NodeJS.ProcessEnv {
  return {
    GIT_DIR: s.gitDir,
    GIT_COMMON_DIR: s.shadowDir,
    GIT_OBJECT_DIRECTORY: process.env.GIT_OBJECT_DIRECTORY || path.join(s.commonDir, 'objects'),
    GIT_WORK_TREE: s.root,
    GIT_INDEX_FILE: s.indexFile,
  };
}

/** A snapshot started by {@link startSnapshotEarly}. */
export interface EarlySnapshot {
  /** The working-tree top level (real path, as git prints it). */
  root: string;
  gitDir: string;
  /** Releases the store lock (idempotent). */
  release: () => void;
  /** {@link listUntracked} in `root`. */
  untracked: Promise<UntrackedListing>;
  /** `git` {@link REFS_ARGS} in `root`. */
  refs: Promise<GitResult>;
  /** `git` {@link DIRTY_ARGS} on the private index, if it and its shadow config existed. */
  dirty: Promise<GitResult> | null;
  /** The environment `dirty` ran with (the private index's, see store.ts shadowEnv). */
  dirtyEnv: NodeJS.ProcessEnv | null;
}

let early: EarlySnapshot | null = null;

/**
 * Takes the snapshot store lock of the repository containing `cwd` if it is free right now,
 * and starts the capture's git processes (see the module comment). Does nothing when the
 * repository is not known from the files alone (gitdir.ts repoInfoFast), when the lock is
 * held, or when anything fails: the snapshot then starts the usual way. Never throws. The
 * lock is released at process exit if no snapshot adopts it.
 * @returns the working-tree top level it started for (pass it to takeSnapshot), or null.
 */
export async function startSnapshotEarly(cwd: string): Promise<string | null> {
  try {
    if (early) return early.root;
    const info = repoInfoFast(cwd);
    if (!info) return null;
    const p = storePaths(info.gitDir);
    let release: () => void;
    try {
      release = await acquireLock(p.lockFile, 'the snapshot store', 0);
    } catch {
      return null; // busy: takeSnapshot waits for it
    }
    const run = (args: string[], env: NodeJS.ProcessEnv) => {
      const r = git(args, { cwd: info.root, env });
      r.catch(() => {}); // consumed (and reported) by the capture
      return r;
    };
    const untracked = listUntracked(info.root, info.gitDir);
    untracked.catch(() => {}); // consumed (and reported) by the capture
    const refs = run(REFS_ARGS, realEnv(info));
    let dirty: Promise<GitResult> | null = null;
    let dirtyEnv: NodeJS.ProcessEnv | null = null;
    // diff-files only when the private index exists and its shadow config is up to date
    // (store.ts ensureShadow would not rewrite it); the capture decides whether to use it.
    const common = commonDirFast(info.root);
    try {
      if (common && existsSync(p.indexFile) && statSync(path.join(p.shadowDir, 'config')).mtimeMs >= statSync(path.join(common, 'config')).mtimeMs) {
        dirtyEnv = shadowEnv({ root: info.root, gitDir: info.gitDir, commonDir: common, ...p });
        dirty = run(DIRTY_ARGS, dirtyEnv);
      }
    } catch {
      /* no shadow config yet */
    }
    process.once('exit', release);
    early = { root: info.root, gitDir: info.gitDir, release, untracked, refs, dirty, dirtyEnv };
    return info.root;
  } catch {
    return null;
  }
}

/**
 * Releases a snapshot started early that no capture adopted (its lock). Callers of
 * {@link startSnapshotEarly} call it once the snapshot is taken or has failed. Idempotent.
 */
export function abandonEarlySnapshot(): void {
  const e = early;
  early = null;
  e?.release();
}

/**
 * Hands over the snapshot started early for the worktree at `root` with git dir `gitDir`,
 * once. A started snapshot for another worktree is abandoned (its lock released).
 * @returns it, or null if none was started (or it was for another worktree).
 */
export function takeEarlySnapshot(root: string, gitDir: string): EarlySnapshot | null {
  const e = early;
  early = null;
  if (!e) return null;
  if (e.root === root && e.gitDir === gitDir) return e;
  e.release();
  return null;
}
