/**
 * Never through a link: where a symbolic link stands at a file `git kizu init` or `teardown`
 * writes (a settings file, the hook runner, the slash command, git's exclude file), they
 * replace the link itself by a regular file (rename(2) over it), never write to what it
 * points at, which may be a file of another repository or of the user's dotfiles. Init
 * records the link's text and a hash of what it led to (state.ts `LinkRecord`), and teardown
 * puts the same link back (same text) when the file would otherwise be removed, or would
 * hold again exactly what the link led to.
 */
import { lstatSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { replaceFileSync, replaceWithSync, writeFileAtomic } from '../files.js';
import type { InstallRecord } from './state.js';
import { sha256 } from './digest.js';
export { linkedFolder, refuseLinkedFolders, type LinkedFolder } from './linked-folders.js';

/** The text of the symbolic link at `file` (readlink(2)), or null if none stands there. */
export function linkAt(file: string): string | null {
  try {
    if (!lstatSync(file).isSymbolicLink()) return null;
    return readlinkSync(file);
  } catch {
    return null;
  }
}

/**
 * Records in `rec.links` the symbolic link standing at `file`, if any, before init replaces
 * it: its text and the sha256 of what it leads to (null if nothing). A link recorded by an
 * earlier init stays recorded (the file init wrote in its place is no link).
 */
export function noteLink(rec: InstallRecord, file: string): void {
  const target = linkAt(file);
  if (target === null) return;
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(file);
  } catch {
    /* leads to nothing (or to something unreadable): recorded as null */
  }
  rec.links = { ...(rec.links ?? {}), [file]: { target, sha256: bytes === null ? null : sha256(bytes) } };
}

/**
 * Writes `text` to `file` atomically without following a symbolic link: a link there is
 * replaced by a regular file (mode `mode`, else the mode of what it led to, else 0644); a
 * regular file is rewritten in place (files.ts `writeFileAtomic`: mode and owner kept
 * unless `mode` is given).
 * @throws the fs error (ENOENT for a missing directory, EACCES, ...).
 */
export async function writeNotThroughLink(file: string, text: string, mode?: number): Promise<void> {
  if (linkAt(file) === null) {
    await writeFileAtomic(file, text, mode !== undefined ? { mode } : {});
    return;
  }
  let m = mode;
  if (m === undefined) {
    try {
      m = statSync(file).mode & 0o777;
    } catch {
      m = 0o644;
    }
  }
  replaceFileSync(file, text, { mode: m });
}

/**
 * Removes `file` (whatever stands there), or, if init replaced a link there
 * ({@link noteLink}), puts that link back with its recorded text.
 * @returns 'restored' (the link is back) or 'removed'.
 * @throws the fs error of creating the link.
 */
export function removeOrRestoreLink(rec: InstallRecord | null, file: string): 'restored' | 'removed' {
  const l = rec?.links?.[file];
  if (l) {
    replaceWithSync(file, (tmp) => symlinkSync(l.target, tmp));
    return 'restored';
  }
  rmSync(file, { force: true });
  return 'removed';
}

/**
 * Writes what teardown leaves in `file`: the recorded link is put back if `text` is exactly
 * what it led to before init; else `text` is written ({@link writeNotThroughLink}).
 * @returns 'restored' or 'written'.
 */
export async function writeOrRestoreLink(rec: InstallRecord | null, file: string, text: string): Promise<'restored' | 'written'> {
  const l = rec?.links?.[file];
  if (l && l.sha256 === sha256(text)) {
    removeOrRestoreLink(rec, file);
    return 'restored';
  }
  await writeNotThroughLink(file, text);
  return 'written';
}

