/**
 * The store's untracked index: a copy of the user's index in which every entry has the
 * assume-unchanged bit, kept so that the untracked files of a capture can be listed through
 * git's untracked cache (early.ts UNTRACKED_STATUS_ARGS) instead of `git ls-files -o`, which
 * reads every directory of the working tree each time.
 *
 * Its cached trees (the TREE extension copied from the user's index) let that status compare
 * it with HEAD cheaply. Only the paths of the user's index matter to that listing (which files are tracked), not
 * their stat data or object ids. So the index is kept while the user's index holds the same
 * entries (path, stage, gitlink or not): its key file names the checksum of the user's
 * index it was last checked against, and a capture that found the user's index changed
 * compares the paths ({@link keepUntrackedIndex}) and either renews the key or builds the
 * index again. Git itself keeps the untracked cache inside it valid
 * (git-update-index(1) "UNTRACKED CACHE": directory stat data, the .gitignore, info/exclude
 * and core.excludesFile contents are checked on every use).
 *
 * Not used (captures list with ls-files) when GIT_INDEX_FILE is set, when the user's index
 * has no checksum (index.skipHash), a split-index or sparse-index extension, or unmerged
 * entries.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parseIndex, withAssumeValid, type ParsedIndex } from './indexfile.js';
import type { Store } from './store.js';

/** True if the untracked listings of `a` and `b` are the same: same paths, stages, gitlinks. */
function samePaths(a: ParsedIndex, b: ParsedIndex): boolean {
  if (a.entries.length !== b.entries.length) return false;
  for (let i = 0; i < a.entries.length; i++) {
    const x = a.entries[i];
    const y = b.entries[i];
    if (x.path !== y.path || x.stage !== y.stage || (x.mode === 0o160000) !== (y.mode === 0o160000)) return false;
  }
  return true;
}

/** Why the user's index `ix` cannot back an untracked index, or null. */
function unusable(ix: ParsedIndex): string | null {
  if (ix.extensions.includes('link')) return 'split index';
  if (ix.extensions.includes('sdir')) return 'sparse index';
  if (ix.entries.some((e) => e.stage !== 0)) return 'unmerged entries';
  return null;
}

function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

function parseOrNull(buf: Buffer, oidLen: number): ParsedIndex | null {
  try {
    return parseIndex(buf, oidLen);
  } catch {
    return null;
  }
}

/**
 * Makes the store's untracked index match the user's index whose checksum is `userSum`
 * (hex; anything else removes the key, so listings use ls-files): nothing when the key names
 * it already; a new key when the index holds the same paths; else a new index (a copy of the
 * user's with every entry marked assume-unchanged: indexfile.ts withAssumeValid). The caller
 * holds the store lock. Failures are not errors: the key is removed and listings fall back to ls-files.
 * @param userIx the user's index as parsed by the caller, if it has it (read here otherwise).
 */
export async function keepUntrackedIndex(s: Store, userSum: string, userIx: ParsedIndex | null): Promise<void> {
  const dropKey = () => rmSync(s.untrackedKey, { force: true });
  try {
    if (!/^[0-9a-f]+$/.test(userSum) || userSum.length !== s.oidLen * 2) return dropKey();
    let key = '';
    try {
      key = readFileSync(s.untrackedKey, 'utf8');
    } catch {
      /* none */
    }
    if (key === userSum) return;
    const userFile = `${s.gitDir}/index`;
    let buf: Buffer | null = null;
    let ix = userIx && userIx.checksum === userSum ? userIx : null;
    if (!ix) {
      buf = readBytes(userFile);
      ix = buf ? parseOrNull(buf, s.oidLen) : null;
    }
    if (!ix || ix.checksum !== userSum || unusable(ix)) return dropKey();
    dropKey();
    const current = readBytes(s.untrackedIndex);
    const cur = current ? parseOrNull(current, s.oidLen) : null;
    if (!cur || !samePaths(cur, ix)) {
      buf ??= readBytes(userFile);
      // The bytes must be the index that was compared (the user's may change meanwhile).
      if (!buf || buf.toString('hex', buf.length - s.oidLen) !== userSum) return;
      const { createHash } = await import('node:crypto');
      const bytes = withAssumeValid(buf, s.oidLen, (b) => createHash(s.hashAlgo).update(b).digest());
      const tmp = `${s.untrackedIndex}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, bytes);
        renameSync(tmp, s.untrackedIndex);
      } finally {
        rmSync(tmp, { force: true });
      }
    }
    writeFileSync(s.untrackedKey, userSum);
  } catch {
    try {
      dropKey();
    } catch {
      /* listings fall back to ls-files whenever the key does not match */
    }
  }
}
