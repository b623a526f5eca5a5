/**
 * All-or-nothing writes of several working-tree files: the one place `patch apply` and
 * `rollback patch` change files. Each file is checked against the content the caller
 * planned against, right before it is written (so a change made meanwhile is not lost),
 * and written atomically (src/files.ts writeFileAtomic: temp file + rename, mode kept), all
 * under the working-tree write lock (git/lock.ts withWorkTreeLock) that `scar`, `unscar` and
 * `revert` take too, so that no write lands between the check and the write. If any file cannot
 * be written, the files already written are put back as they were, so either every file
 * changes or none does.
 */
import { lstatSync, mkdirSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { quoteCStyle } from '../../git/quote.js';
import { count, plural } from '../../words.js';
import { writeFileAtomic } from '../../files.js';
import { withWorkTreeLock } from '../../git/lock.js';
import { repoInfo } from '../../git/repo.js';
import { recordRewrite } from '../../scars/insert.js';
import { isDotGitComponent, pathProblem } from '../../git/verify-path.js';

/** One planned file change. */
export interface FileWrite {
  /** Repo-root-relative '/'-separated path. */
  path: string;
  /** What the file must hold right before the write; null: it must not exist. */
  expect: Buffer | null;
  /** The new content; null deletes the file. */
  after: Buffer | null;
  /** Permission bits (e.g. 0o644) for a file that does not exist yet; default: the umask's. */
  mode?: number;
}

/**
 * Why git-kizu must not read or write the working-tree file `rel` of `root` as a regular
 * file, or null. Patches change regular files only: not a symbolic link (git would read a
 * text patch of one as a change of the link's target path, and following it could write
 * outside the repository or into `.git`), not a FIFO, socket or device (reading a FIFO would
 * block), not a directory; and every directory on the way must resolve (symbolic links
 * followed) to a place inside the repository and outside `.git`.
 */
function workFileProblem(root: string, rel: string): string | null {
  const abs = path.join(root, rel);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return null; // no root to compare with: the read reports what is wrong
  }
  // The nearest existing directory on the way, resolved.
  for (let d = path.dirname(abs); ; d = path.dirname(d)) {
    let real: string;
    try {
      real = realpathSync(d);
    } catch {
      if (path.dirname(d) === d) break;
      continue;
    }
    const r = path.relative(realRoot, real);
    if (r === '..' || r.startsWith('..' + path.sep) || path.isAbsolute(r)) return `${path.relative(root, d) || '.'} leads outside the repository (to ${real})`;
    if (r.split(path.sep).some(isDotGitComponent)) return `${path.relative(root, d)} leads into a .git directory (${real})`;
    break;
  }
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return null; // nothing there (or a parent is not a directory)
  }
  if (st.isSymbolicLink()) return 'it is a symbolic link; git-kizu patches regular files only';
  if (st.isDirectory()) return 'it is a directory';
  if (!st.isFile()) return 'it is not a regular file (a FIFO, socket or device)';
  return null;
}

/**
 * Reads a working-tree file that patches may change (see {@link workFileProblem}).
 * @returns the bytes, or null if nothing is there (also when a parent is not a directory).
 * @throws KizuError (exit 2) for a symbolic link, a special file, a directory, or a path
 *   that leads outside the repository or into `.git`; the fs error for anything else
 *   (EACCES, ...).
 */
export function readWorkFile(root: string, rel: string): Buffer | null {
  const problem = workFileProblem(root, rel);
  if (problem) throw new KizuError(`${quoteCStyle(rel)}: ${problem}`, { hint: 'patch the file itself, inside the working tree (nothing was written)' });
  try {
    return readFileSync(path.join(root, rel));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    return null;
  }
}

/** Permission bits of a file (e.g. 0o644), or undefined if it does not exist. */
export function fileMode(root: string, rel: string): number | undefined {
  try {
    return statSync(path.join(root, rel)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

interface Done {
  rel: string;
  abs: string;
  before: Buffer | null;
  mode: number | undefined;
  /** Directories created for the file (outermost first). */
  dirs: string[];
  /** Directories removed because deleting the file emptied them (innermost first). */
  removedDirs: string[];
}

/**
 * Holding the working-tree write lock (git/lock.ts withWorkTreeLock, of `root`'s git dir),
 * writes every change in order; on the first failure restores the files already written
 * (old bytes and mode back, created files and directories removed) and throws. A deleted
 * file's directories that it leaves empty are removed too (as `git rm` does).
 * @param root absolute working-tree root.
 * @throws KizuError: exit 1 if a file no longer holds `expect` (changed since it was read:
 *   run the command again); exit 2 if a write fails (the fs error is named). Either way every
 *   file is as it was before the call, unless the message says a restore failed too.
 */
export async function writeAllOrNothing(root: string, writes: FileWrite[]): Promise<void> {
  const { gitDir } = await repoInfo(root);
  await withWorkTreeLock(gitDir, async () => {
    await writeLocked(root, writes);
    // For the scar and unscar runs waiting for the lock: which lines moved (scars/insert.ts lineSince).
    for (const w of writes) {
      if (!w.expect || !w.after) continue;
      try {
        const realRel = path.relative(realpathSync(root), realpathSync(path.join(root, w.path))).split(path.sep).join('/');
        await recordRewrite(gitDir, w.path, realRel, w.expect, w.after);
      } catch {
        // the files are written: a record that cannot be written only leaves a concurrent scar unmoved
      }
    }
  });
}

/** {@link writeAllOrNothing} once the lock is held. */
async function writeLocked(root: string, writes: FileWrite[]): Promise<void> {
  // Every path first (git/verify-path.ts): the callers checked them; this is the last line, before any write.
  for (const w of writes) {
    const unsafe = pathProblem(w.path);
    if (unsafe) throw new KizuError(`${quoteCStyle(w.path)}: ${unsafe}; nothing changed`, { hint: 'write files inside the working tree, outside .git' });
  }
  const done: Done[] = [];
  for (const w of writes) {
    const abs = path.join(root, w.path);
    let failure: KizuError;
    try {
      const cur = readWorkFile(root, w.path);
      const same = cur === null || w.expect === null ? cur === w.expect : cur.equals(w.expect);
      if (same) {
        const d: Done = { rel: w.path, abs, before: cur, mode: fileMode(root, w.path), dirs: [], removedDirs: [] };
        done.push(d);
        if (w.after === null) {
          rmSync(abs, { force: true });
          // Like git rm: directories left empty go too (and come back on a restore).
          for (let dir = path.dirname(abs); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
            try {
              rmdirSync(dir);
            } catch {
              break;
            }
            d.removedDirs.push(dir);
          }
        } else {
          for (let dir = path.dirname(abs); dir.startsWith(root + path.sep) && !existsSync(dir); dir = path.dirname(dir)) d.dirs.unshift(dir);
          if (d.dirs.length) mkdirSync(path.dirname(abs), { recursive: true });
          await writeFileAtomic(abs, w.after, cur === null && w.mode !== undefined ? { mode: w.mode } : {});
        }
        continue;
      }
      failure = new KizuError(`${quoteCStyle(w.path)} changed while git-kizu was writing (it no longer holds what was checked)`, {
        hint: 'run the command again',
        exitCode: EXIT.FOUND,
      });
    } catch (e) {
      failure = new KizuError(`could not write ${quoteCStyle(w.path)}: ${(e as Error).message}`, {
        hint: 'fix the cause (permissions, disk space, a directory in the way) and run the command again',
      });
    }
    const notRestored = await restore(done);
    const n = done.length - (failure.exitCode === EXIT.FOUND ? 0 : 1);
    const written = done.slice(0, n).map((d) => d.rel);
    const what = notRestored.length
      ? `; could NOT restore ${notRestored.join(', ')}: check ${plural(notRestored.length, 'it', 'them')} by hand`
      : n
        ? `; put back the ${count(n, 'file')} already written (${written.join(', ')}), so nothing changed`
        : '; nothing changed';
    throw new KizuError(failure.message + what, { hint: failure.hint, exitCode: failure.exitCode });
  }
}

/** Undoes `done` in reverse order. @returns the paths that could not be restored. */
async function restore(done: Done[]): Promise<string[]> {
  const failed: string[] = [];
  for (const d of [...done].reverse()) {
    try {
      const now = readWorkFile('/', d.abs);
      const unchanged = now === null || d.before === null ? now === d.before : now.equals(d.before);
      if (!unchanged) {
        if (d.before === null) rmSync(d.abs, { force: true });
        else {
          if (d.removedDirs.length) mkdirSync(path.dirname(d.abs), { recursive: true });
          await writeFileAtomic(d.abs, d.before, d.mode !== undefined ? { mode: d.mode } : {});
        }
      }
      for (const dir of [...d.dirs].reverse()) {
        try {
          rmdirSync(dir);
        } catch {
          /* not empty: leave it */
        }
      }
    } catch {
      failed.push(d.rel);
    }
  }
  return failed;
}
