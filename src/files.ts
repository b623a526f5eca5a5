/**
 * File-writing helpers. Every write of a user's file goes through {@link writeFileAtomic}:
 * temp file in the same directory + rename, mode bits of an existing file kept
 * (write-file-atomic).
 */
import writeFileAtomicLib from 'write-file-atomic';
import { lstatSync, realpathSync } from 'node:fs';

/**
 * Writes `data` to `file` atomically. If `file` exists its mode (and ownership) is kept;
 * a symlink is followed so that the link itself survives and its target is replaced.
 * @throws the underlying fs error (ENOENT for a missing directory, EACCES, ...).
 */
export async function writeFileAtomic(file: string, data: Buffer | string, opts: { mode?: number } = {}): Promise<void> {
  let target = file;
  try {
    if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
  } catch {
    /* new file */
  }
  await writeFileAtomicLib(target, data, opts.mode !== undefined ? { mode: opts.mode } : {});
}
