/**
 * Beginning a snapshot before the snapshot code has loaded. `git kizu snapshot` and the
 * UserPromptSubmit hook call {@link beginSnapshot} first thing: when the store lock is free
 * right now, it takes the lock and starts the git processes whose output every
 * capture needs (the untracked listing, the snapshot refs and, on an up-to-date private
 * index, `git diff-files`), so that git works while Node loads the rest. takeSnapshot then
 * adopts both the lock and the running processes ({@link takeBegunSnapshot}). Holding the lock
 * from the start means nothing of ours changes the working tree or the private index between
 * those git processes and the rest of the capture.
 *
 * A small module on purpose (no config, no snapshot code): it must cost less than it saves.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { git, type GitResult } from '../../git/run.js';
import { findRepoFast } from '../../git/repo.js';
import { acquireLock } from '../../git/lock.js';
import { SNAPSHOT_REFS, snapshotPaths } from '../../git/layout.js';


/** `git ls-files` arguments of the untracked, not ignored listing a capture starts from. */
export const UNTRACKED_ARGS = ['ls-files', '-o', '--exclude-standard', '-z'];

/** `git for-each-ref` arguments listing the snapshots: `<commit> <object type> <tree> <ref> <subject>` per line (the tree empty for a ref at a blob; the subject tells an agent's snapshot, snapshot.ts). */
export const REFS_ARGS = ['for-each-ref', '--format=%(objectname) %(objecttype) %(tree) %(refname) %(subject)', SNAPSHOT_REFS];

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

/**
 * The untracked files git does not ignore in the worktree at `root` (git dir `gitDir`):
 * `git ls-files -o --exclude-standard -z` ({@link UNTRACKED_ARGS}) of the user's index;
 * untracked nested repositories are listed as `dir/`.
 * @throws KizuError (exit 2) if git fails.
 */
export async function listUntracked(root: string, gitDir: string): Promise<string[]> {
  const r = await git(UNTRACKED_ARGS, { cwd: root, env: realEnv({ root, gitDir }) });
  return r.stdout.toString('utf8').split('\0').filter((x) => x.length > 0);
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

/** A snapshot begun by {@link beginSnapshot}. */
export interface BegunSnapshot {
  /** The working-tree top level (real path, as git prints it). */
  root: string;
  gitDir: string;
  /** Releases the store lock (idempotent). */
  release: () => void;
  /** {@link listUntracked} in `root`. */
  untracked: Promise<string[]>;
  /** `git` {@link REFS_ARGS} in `root`. */
  refs: Promise<GitResult>;
  /** `git` {@link DIRTY_ARGS} on the private index, if it and its shadow config existed. */
  dirty: Promise<GitResult> | null;
  /** The environment `dirty` ran with (the private index's, see store.ts shadowEnv). */
  dirtyEnv: NodeJS.ProcessEnv | null;
}

let begun: BegunSnapshot | null = null;

/**
 * Takes the snapshot store lock of the repository containing `cwd` if it is free right now,
 * and starts the capture's git processes (see the module comment). Does nothing when the
 * repository is not known from the files alone (git/repo.ts findRepoFast), when the lock is
 * held, or when anything fails: the snapshot then starts the usual way. Never throws. The
 * lock is released at process exit if no snapshot adopts it.
 * @returns the working-tree top level it started for (pass it to takeSnapshot), or null.
 */
export async function beginSnapshot(cwd: string): Promise<string | null> {
  try {
    if (begun) return begun.root;
    const info = findRepoFast(cwd);
    if (!info) return null;
    const p = snapshotPaths(info.gitDir);
    let release: () => void;
    try {
      release = await acquireLock(p.lockFile, 'the snapshot store', 0);
    } catch {
      return null; // busy: takeSnapshot waits for it
    }
    process.once('exit', release);
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
    const common = info.commonDir;
    try {
      if (common && existsSync(p.indexFile) && statSync(path.join(p.shadowDir, 'config')).mtimeMs >= statSync(path.join(common, 'config')).mtimeMs) {
        dirtyEnv = shadowEnv({ root: info.root, gitDir: info.gitDir, commonDir: common, ...p });
        dirty = run(DIRTY_ARGS, dirtyEnv);
      }
    } catch {
      /* no shadow config yet */
    }
    begun = { root: info.root, gitDir: info.gitDir, release, untracked, refs, dirty, dirtyEnv };
    return info.root;
  } catch {
    return null;
  }
}

/**
 * Releases a begun snapshot that no capture adopted (its lock). Callers of
 * {@link beginSnapshot} call it once the snapshot is taken or has failed. Idempotent.
 */
export function abandonBegunSnapshot(): void {
  const e = begun;
  begun = null;
  e?.release();
}

/**
 * Hands over the snapshot begun for the worktree at `root` with git dir `gitDir`,
 * once. A started snapshot for another worktree is abandoned (its lock released).
 * @returns it, or null if none was started (or it was for another worktree).
 */
export function takeBegunSnapshot(root: string, gitDir: string): BegunSnapshot | null {
  const e = begun;
  begun = null;
  if (!e) return null;
  if (e.root === root && e.gitDir === gitDir) return e;
  e.release();
  return null;
}
