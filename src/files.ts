/**
 * Writing files atomically: a reader (another process, the editor, git) sees the old content
 * or the new one, never a part, and a crash leaves no half-written file. Two writers, for two
 * kinds of file, both here and nowhere else:
 *
 * - {@link writeFileAtomic}: the user's files (and records the user may edit or move), through
 *   write-file-atomic: temp file in the same directory + fsync + rename, the mode and owner
 *   of an existing file kept, a symbolic link followed so that the link survives.
 * - {@link replaceFileSync} and {@link replaceWithSync}: git-kizu's own files (caches, state,
 *   logs, git objects it writes with isomorphic-git) and files restored byte for byte: a
 *   temp file beside the target, renamed over it (replacing a symbolic link, not following
 *   it), no fsync. No dependency to load: they run on hook hot paths, where loading
 *   write-file-atomic (with signal-exit) would cost more than the write itself.
 *
 * And {@link lstatInTree}: what is at a path of a working tree, never looking through a
 * symbolic link on the way, for the checks that come before and after such writes.
 */
import { chmodSync, rmSync, renameSync, writeFileSync, lstatSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// Loaded on first use only (about 12 ms with signal-exit): most processes never write a user's file.
let wfa: typeof import('write-file-atomic') | undefined;

/**
 * Writes `data` to `file` atomically (write-file-atomic). If `file` exists its mode (and
 * ownership) is kept unless `opts.mode` is given; a symlink is followed so that the link
 * itself survives and its target is replaced.
 * @param opts.mode permission bits for the file (applied exactly, umask aside).
 * @throws the underlying fs error (ENOENT for a missing directory, EACCES, ...).
 */
export async function writeFileAtomic(file: string, data: Buffer | string, opts: { mode?: number } = {}): Promise<void> {
  let target = file;
  try {
    if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
  } catch {
    /* new file */
  }
  wfa ??= createRequire(import.meta.url)('write-file-atomic') as typeof import('write-file-atomic');
  await wfa(target, data, opts.mode !== undefined ? { mode: opts.mode } : {});
}

/**
 * Replaces `file` atomically with what `make(tmp)` creates at a fresh temp path in the same
 * directory (`.<name>.kizu-<pid>-<random>.tmp`): a file, a symbolic link, a copy. Whatever is
 * at `file` (a symlink included) is replaced by the rename (rename(2)), not followed.
 * @throws what `make` throws or the rename's fs error; the temp path is removed then.
 */
export function replaceWithSync(file: string, make: (tmp: string) => void): void {
  const rand = Math.random().toString(36).slice(2, 10);
  const tmp = path.join(path.dirname(file), `.${path.basename(file).slice(0, 64)}.kizu-${process.pid}-${rand}.tmp`);
  try {
    make(tmp);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Writes `data` to `file` atomically ({@link replaceWithSync}); a symlink at `file` is
 * replaced, not followed. A new file gets mode 0o666 less the umask, or exactly `opts.mode`.
 * @throws the fs error (ENOENT for a missing directory, EACCES, ...).
 */
export function replaceFileSync(file: string, data: Uint8Array | string, opts: { mode?: number } = {}): void {
  replaceWithSync(file, (tmp) => {
    writeFileSync(tmp, data, { flag: 'wx', mode: opts.mode === undefined ? 0o666 : 0o600 });
    if (opts.mode !== undefined) chmodSync(tmp, opts.mode);
  });
}

/**
 * lstat of `rel` ('/'-separated, relative to `root`) with lstat semantics on every path
 * component: each parent directory of `rel` below `root` is lstat'ed, and when one is
 * missing, a symbolic link or anything but a directory, `rel` is not there (null), even if
 * the link leads to a file of that name outside the tree. `root` itself may be reached
 * through links.
 * @returns the Stats of `rel` itself (not followed), or null when it is absent or
 *   unreadable (any lstat error).
 */
export function lstatInTree(root: string, rel: string): import('node:fs').Stats | null {
  const parts = rel.split('/').filter((x) => x !== '');
  let p = root;
  try {
    for (let i = 0; i < parts.length; i++) {
      p = path.join(p, parts[i]);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (!st) return null;
      if (i === parts.length - 1) return st;
      if (!st.isDirectory()) return null;
    }
  } catch {
    return null;
  }
  return null;
}
