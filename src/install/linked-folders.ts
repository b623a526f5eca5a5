/**
 * Folders on the way to what init, teardown and doctor write that are symbolic links: the
 * check behind "never write through a link git-kizu did not create" for folders, apart from
 * links.ts (which hashes what a link led to) so that the prompt hook's integrity check loads
 * no node:crypto.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';

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

/** A state folder of git-kizu that is a symbolic link (see {@link linkedStateFolders}). */
export interface LinkedStateFolder {
  /** The folder (absolute): `<git-dir>/kizu` or `<common-dir>/kizu`. */
  dir: string;
  /** The link's text (readlink(2)). */
  target: string;
}

/**
 * git-kizu's state folders (`<git-dir>/kizu`, and `<common-dir>/kizu` of a linked worktree)
 * that are symbolic links: the install records, the launcher the pre-commit hook runs, the
 * review ledger and the queue record would all be read from, and written to, where the link
 * leads (a tester's agent extracted a tar member `.git/kizu -> /tmp/x` and put an `exit 0`
 * launcher there). lstat only, no git process: cheap enough for the prompt hook.
 * @returns each linked folder once; [] when none is a link or they do not exist.
 */
export function linkedStateFolders(gitDir: string, commonDir: string): LinkedStateFolder[] {
  const out: LinkedStateFolder[] = [];
  for (const dir of [...new Set([path.join(gitDir, 'kizu'), path.join(commonDir, 'kizu')])]) {
    try {
      if (lstatSync(dir).isSymbolicLink()) out.push({ dir, target: readlinkSync(dir) });
    } catch {
      /* not there (nothing installed yet), or gone meanwhile */
    }
  }
  return out;
}
