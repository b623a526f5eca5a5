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
import { KizuError } from '../errors.js';
import type { InstallRecord } from './state.js';
import { sha256 } from './digest.js';

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

/** A folder on the way to a file init or teardown writes that is a symbolic link. */
export interface LinkedFolder {
  /** The folder (absolute), e.g. `<root>/.claude`. */
  dir: string;
  /** The link's text (readlink(2)). */
  target: string;
}

/**
 * The first folder between the innermost of `tops` that holds `file` (exclusive: the
 * repository's root, its git dir, its common git dir, which may themselves be reached
 * through links) and `file` (exclusive) that is a symbolic link; lstat on each, from the
 * top down. Folders that do not exist yet end the walk (init creates them as folders).
 * A file outside every top (the home directory's) is not looked at.
 * @returns the link, or null.
 */
export function linkedFolder(tops: readonly string[], file: string): LinkedFolder | null {
  const inside = tops
    .map((top) => ({ top, rel: path.relative(top, path.dirname(file)) }))
    .filter(({ rel }) => !rel.startsWith('..') && !path.isAbsolute(rel))
    .sort((a, b) => a.rel.length - b.rel.length)[0];
  if (!inside || inside.rel === '') return null;
  let p = inside.top;
  for (const part of inside.rel.split(path.sep)) {
    p = path.join(p, part);
    let target: string | null = null;
    try {
      const st = lstatSync(p);
      if (!st.isSymbolicLink()) continue;
      target = readlinkSync(p);
    } catch {
      return null; // not there yet: created as a folder
    }
    return { dir: p, target };
  }
  return null;
}

/**
 * Refuses, before anything is written, when a folder on the way to one of `files` inside
 * the repository or its git dir ({@link linkedFolder}) is a symbolic link: git-kizu never
 * writes through a link it did not create (a `.claude -> .git` or `.git/hooks -> elsewhere`
 * committed through plumbing, or made by the agent).
 * @param what the command, for the message (`git kizu init`).
 * @param show how a path is shown.
 * @throws KizuError (exit 2) naming the link, where it leads and the fix.
 */
export function refuseLinkedFolders(tops: readonly string[], files: readonly string[], what: string, show: (p: string) => string = (p) => p): void {
  for (const f of files) {
    const l = linkedFolder(tops, f);
    if (!l) continue;
    throw new KizuError(`${what}: ${show(l.dir)} is a symbolic link (to ${l.target}) on the way to ${show(f)}, and git-kizu never writes through a link it did not create: nothing was changed`, {
      hint: `if the link is not yours (an agent or a commit may have made it), remove it (rm ${show(l.dir)}) and put the real folder there; if it is yours, replace it with the folder it leads to; then run ${what} again`,
    });
  }
}
