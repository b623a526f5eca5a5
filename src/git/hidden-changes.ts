/**
 * Changes git does not show: a working-tree file whose index entry carries the
 * assume-unchanged flag (`git update-index --assume-unchanged`, CE_VALID) or the
 * skip-worktree flag (`--skip-worktree`, also set by sparse checkout) is not compared with the
 * index by `git status`, `git diff` or `git grep` (git-update-index(1) "USING 'ASSUME
 * UNCHANGED' BIT", "SKIP-WORKTREE BIT"), so an edit to it shows nowhere. Here such entries are
 * read from the index file (git/index-file.ts flaggedEntries) and each file is compared with
 * its entry by content: the file hashed as a blob against the entry's object id, its type and
 * executable bit against the entry's mode. Nothing is cached: every call reads the index and
 * the flagged files again.
 *
 * An absent file is a deletion whichever flag its entry carries: a skip-worktree entry whose
 * file sparse checkout leaves out counts as deleted too (a sparse checkout set after a file was
 * deleted hides the deletion otherwise; issue 22). Not a change: gitlinks, an entry whose file
 * equals it.
 */
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { flaggedEntries, indexWithoutFlags, type FlaggedEntry } from './index-file.js';
import { indexBytesFast } from './repo.js';
import { git, splitZ } from './run.js';

/** One flagged entry whose working-tree file differs from it. */
export interface HiddenChange {
  /** Repository-relative path, decoded as UTF-8. */
  path: string;
  /** The flag that hides it (assume-unchanged when both are set). */
  flag: 'assume-unchanged' | 'skip-worktree';
  /** `modified` (content, type or executable bit), `deleted` (the file is gone; for skip-worktree, sparse checkout may have left it out). */
  change: 'modified' | 'deleted';
}

/** The flagged entries and, when read from the index file, what {@link unflaggedIndex} needs. */
export interface HiddenScan {
  changes: HiddenChange[];
  /** The index file's bytes, its object id length and the offsets of the changed entries; null when git listed the entries (split or sparse index, GIT_DIR...). */
  index: { bytes: Buffer; oidLen: number; offsets: number[] } | null;
}

const NONE: HiddenScan = { changes: [], index: null };

let crypto: typeof import('node:crypto') | undefined;

/** How the file at `abs` differs from the entry, or null when it does not (node:crypto loaded first). */
function differs(abs: string | Buffer, e: { mode: number; oid: string; skipWorktree: boolean }): HiddenChange['change'] | null {
  const type = e.mode & 0o170000;
  if (type === 0o160000) return null; // a submodule: its own repository
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    // Absent: deleted, whichever flag hides it. A skip-worktree file that sparse checkout leaves
    // out is absent too, but the agent can set a sparse checkout after deleting a file
    // (`git sparse-checkout set --no-cone '/*' '!/tests/'`), which hides the deletion: so every
    // absent flagged file is reviewed as deleted, and the user is told which flag hides it.
    return 'deleted';
  }
  let content: Buffer;
  if (st.isSymbolicLink()) {
    if (type !== 0o120000) return 'modified';
    content = readlinkSync(abs, { encoding: 'buffer' });
  } else if (st.isFile()) {
    if (type !== 0o100000 || ((st.mode & 0o100) !== 0) !== ((e.mode & 0o100) !== 0)) return 'modified';
    content = readFileSync(abs);
  } else return 'modified';
  const h = crypto!.createHash(e.oid.length === 64 ? 'sha256' : 'sha1');
  h.update(`blob ${content.length}\0`);
  h.update(content);
  return h.digest('hex') === e.oid ? null : 'modified';
}

function change(e: { path: string; assumeUnchanged: boolean }, c: HiddenChange['change']): HiddenChange {
  return { path: e.path, flag: e.assumeUnchanged ? 'assume-unchanged' : 'skip-worktree', change: c };
}

/**
 * The hidden changes of the working tree at `root` (see the module comment). Reads
 * `<git-dir>/index` (or GIT_INDEX_FILE) directly; with a split or sparse index, or a variable
 * that changes repository discovery, asks `git ls-files -v -s -z` instead (its tag letter is
 * lower case for assume-unchanged, `S` for skip-worktree).
 * @param paths limit to these repository-relative files or directories ([] for all).
 * @returns the changes in index order (byte order of paths).
 * @throws KizuError when git fails (the fallback only).
 */
export async function hiddenChanges(root: string, paths: string[] = []): Promise<HiddenScan> {
  const within = (p: string) => !paths.length || paths.some((q) => q === '' || q === '.' || p === q || p.startsWith(q.endsWith('/') ? q : q + '/'));
  const bytes = indexBytesFast(root);
  if (bytes === null) return NONE; // no index yet: nothing is flagged
  if (bytes) {
    for (const oidLen of [20, 32]) {
      let scan;
      try {
        scan = flaggedEntries(bytes, oidLen);
      } catch {
        continue;
      }
      if (scan.extensions.includes('link') || scan.extensions.includes('sdir')) break;
      const changes: HiddenChange[] = [];
      const offsets: number[] = [];
      if (scan.entries.length) crypto ??= await import('node:crypto');
      const rootBytes = Buffer.from(root + path.sep);
      for (const e of scan.entries) {
        if (!within(e.path)) continue;
        const c = differs(Buffer.concat([rootBytes, e.raw]), e);
        if (c) changes.push(change(e, c)), offsets.push(e.offset);
      }
      return { changes, index: changes.length ? { bytes, oidLen, offsets } : null };
    }
  }
  const r = await git(['ls-files', '-v', '-s', '-z'], { cwd: root });
  const changes: HiddenChange[] = [];
  crypto ??= await import('node:crypto');
  for (const rec of splitZ(r.stdout)) {
    const m = /^(\S) (\d+) ([0-9a-f]+) 0\t([^]*)$/.exec(rec);
    if (!m) continue;
    const assumeUnchanged = m[1] >= 'a' && m[1] <= 'z';
    const skipWorktree = m[1] === 'S' || m[1] === 's';
    if ((!assumeUnchanged && !skipWorktree) || !within(m[4])) continue;
    const e: Pick<FlaggedEntry, 'path' | 'mode' | 'oid' | 'assumeUnchanged' | 'skipWorktree'> = { path: m[4], mode: parseInt(m[2], 8), oid: m[3], assumeUnchanged, skipWorktree };
    const c = differs(path.join(root, m[4]), e);
    if (c) changes.push(change(e, c));
  }
  return { changes, index: null };
}

/**
 * Runs `fn` with the path of a temporary index file that is the user's index with the flags
 * of the hidden changes cleared ({@link indexWithoutFlags}), for `GIT_INDEX_FILE`; removes it
 * afterwards. The user's index is not touched.
 * @returns what `fn` returns; null when `scan` was not read from the index file.
 */
export async function withUnflaggedIndex<T>(scan: HiddenScan, fn: (indexFile: string) => Promise<T>): Promise<T | null> {
  if (!scan.index) return null;
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  crypto ??= await import('node:crypto');
  const { bytes, oidLen, offsets } = scan.index;
  const alg = oidLen === 32 ? 'sha256' : 'sha1';
  const copy = indexWithoutFlags(bytes, oidLen, offsets, (b) => crypto!.createHash(alg).update(b).digest());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kizu-index-'));
  try {
    const file = path.join(dir, 'index');
    writeFileSync(file, copy, { mode: 0o600 });
    return await fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
