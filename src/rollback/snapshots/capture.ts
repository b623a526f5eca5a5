/**
 * Capturing the working tree as a git tree object through the private snapshot index
 * (store.ts), re-reading only files whose stat data changed.
 *
 * What is captured (the set C): the user's tracked files (the paths of the user's index, as
 * they are in the working tree: a deleted one is absent), untracked files git does not
 * ignore (`git ls-files -o --exclude-standard`), ignored files matching `snapshot.include`
 * (`git ls-files -o -i --exclude-standard -- :(glob)<pattern>`), and any `extra` paths that
 * exist. Regular files larger than `snapshot.maxFileBytes`, unreadable and special files and
 * untracked nested repositories are left out and listed in `skipped`, as are files whose name
 * is not valid UTF-8 ({@link UNREADABLE_NAME}). A submodule is
 * captured as git records it, its checked-out commit (a gitlink); its working tree, its own
 * repository, is not, so every submodule is listed in `skipped` too ({@link SUBMODULE_SKIPPED}).
 *
 * How (git-update-index(1), git-diff-files(1), git-write-tree(1), gitformat-index(5)):
 * 1. The private index P. If there is none, the user's index is copied as a seed when it is
 *    safe (git/index-file.ts seedProblem; no clean filter or line-ending conversion can have made
 *    its blobs differ from the files: filterRisk, gitattributesIn), with its mtime kept no later than the original so git's
 *    racy-entry check still applies; otherwise P starts empty.
 * 2. In parallel: the listings above and `git diff-files --name-only` on P, which compares
 *    stat data only (git's stat cache) and so names the entries whose files changed.
 * 3. The paths to (re)hash: what diff-files named, and captured paths not in P yet. They are
 *    lstat'ed here (size limit, file type, readability) and streamed, as they are found, to
 *    one `git update-index --add --remove --replace -z --stdin`, which hashes them, and only
 *    them, and stores their new stat data; tracked paths missing from P (every path on a cold
 *    start) are streamed while the listings still run. Entries no longer captured (deleted,
 *    now ignored, now too large) then go with `git update-index --force-remove -z --stdin`.
 *    Without a valid state, the permission bits of every file in P are read in the same
 *    overlapped way (step 5 below).
 * 4. `git write-tree` turns P into the tree (its cached subtrees make this cheap).
 *
 * Fast path: the state file remembers which entries of P the user does not track and which
 * tracked paths are not in P (deleted, skipped). While P and the user's index are byte for
 * byte what the last capture saw (their trailing checksums), and the config is the same,
 * neither index is parsed: only the listings, diff-files, update-index and write-tree run.
 *
 * Exact permission bits: git stores only 100644/100755, so the state file keeps the bits of
 * every file as defaults (the most common bits of non-executable and of executable files)
 * plus exceptions per path. A later capture re-lstat's only the files it re-hashes (a chmod
 * changes ctime, so git's stat check names the file). Git compares whole seconds (unless
 * built with USE_NSEC), so files whose ctime fell in the capture's second are remembered with
 * their exact ctime and lstat'ed by the next capture itself. With core.trustctime=false or
 * core.checkStat=minimal, a chmod that keeps the executable bit goes unnoticed until the file
 * changes otherwise. Without a valid state every captured file is lstat'ed once.
 *
 * Diagnostics: with the environment variable KIZU_SNAPSHOT_NO_SEED set, a missing private
 * index is never seeded from the user's (the benchmark uses it to time a cold start).
 */
import {
  accessSync,
  existsSync,
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { git, gitStream, splitZ } from '../../git/run.js';
import { KizuError } from '../../errors.js';
import { replaceFileSync, replaceWithSync } from '../../files.js';
import { parseIndex, seedProblem, type ParsedIndex } from '../../git/index-file.js';
import { ensureShadow, realGit, shadowEnv, type SnapshotStore } from './store.js';
import { DIRTY_ARGS, indexChecksum, listUntracked, UPDATE_ARGS, type BegunSnapshot } from './begin.js';
import { pathProblem } from '../../git/verify-path.js';

/** Permission bits used for files without an exception. */
export interface ModeDefaults {
  /** Bits of non-executable regular files (git mode 100644), e.g. 0o644. */
  file: number;
  /** Bits of executable regular files (git mode 100755), e.g. 0o755. */
  exec: number;
}

/** A path left out of a capture and why. */
export interface Skipped {
  path: string;
  reason: string;
}

/** The reason listed in `skipped` for each submodule (its gitlink is in the tree, its files are not). */
export const SUBMODULE_SKIPPED = 'submodule: its working tree is its own repository and is not captured, only the commit checked out in it; commit or stash inside it';

/** The reason listed in `skipped` for a file whose name is not valid UTF-8 (its path shows U+FFFD for the bad bytes). */
export const UNREADABLE_NAME = 'its name is not valid UTF-8 (shown with U+FFFD for the bad bytes), so git-kizu cannot capture it; rename it (git mv, or mv for an untracked file)';

/** The result of {@link capture}. */
export interface Capture {
  /** The tree object holding every captured file. */
  tree: string;
  /** Exact permission bits (`st_mode & 0o7777`) of regular files that differ from `defaults`. */
  modes: Record<string, number>;
  defaults: ModeDefaults;
  skipped: Skipped[];
  /** Entries in the tree (files, symlinks, submodules). */
  files: number;
  /** Paths handed to `git update-index` to be read and hashed again. */
  hashed: number;
  /** True if the private index was seeded from the user's index. */
  seeded: boolean;
}

interface State {
  v: 2;
  /** Checksum (hex) of the private index this state describes. */
  index: string;
  /** Checksum of the user's index at that time ('none' if it had none). */
  user: string;
  /** snapshot.maxFileBytes and snapshot.include (JSON) it was made with. */
  max: number;
  include: string;
  tree: string;
  files: number;
  defaults: ModeDefaults;
  modes: Record<string, number>;
  /** Entries of the private index that the user does not track. */
  untracked: string[];
  /** Paths the user tracks that are not in the private index (missing, skipped). */
  absent: string[];
  /** ctimeMs of files whose last stat fell in the capture's second (see the module comment). */
  recheck: Record<string, number>;
  /** Submodules (gitlinks) in the private index. */
  submodules: string[];
}

const DEFAULTS: ModeDefaults = { file: 0o644, exec: 0o755 };

function readState(file: string): State | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as State;
    const ok =
      v?.v === 2 &&
      typeof v.index === 'string' &&
      typeof v.tree === 'string' &&
      typeof v.files === 'number' &&
      typeof v.modes === 'object' &&
      !!v.defaults &&
      Array.isArray(v.untracked) &&
      Array.isArray(v.absent) &&
      Array.isArray(v.submodules) &&
      typeof v.recheck === 'object';
    return ok ? v : null;
  } catch {
    return null;
  }
}

function writeState(file: string, st: State): void {
  replaceFileSync(file, JSON.stringify(st));
}

function readIndexFile(file: string, oidLen: number): ParsedIndex | null {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return null;
  }
  try {
    return parseIndex(buf, oidLen);
  } catch {
    return null;
  }
}

/** The most frequent value of `xs`, or `dflt` when empty. */
function mostCommon(xs: number[], dflt: number): number {
  const n = new Map<number, number>();
  let best = dflt;
  let bestN = 0;
  for (const x of xs) {
    const c = (n.get(x) ?? 0) + 1;
    n.set(x, c);
    if (c > bestN) (best = x), (bestN = c);
  }
  return best;
}

/** What capture keeps of an lstat: `st_mode` (type and permission bits) and ctimeMs. */
interface Seen {
  mode: number;
  ctime: number;
}

/** Class of a regular file as git records it with core.fileMode=true (`st_mode`). */
function isExec(mode: number): boolean {
  return (mode & 0o100) !== 0;
}

function isFileMode(mode: number): boolean {
  return (mode & 0o170000) === 0o100000;
}

const uid = process.getuid?.() ?? -1;
const groups = new Set([process.getgid?.() ?? -1, ...(process.getgroups?.() ?? [])]);

/** True if the permission bits alone show `st` readable by this process (else ask access(2)). */
function readableByMode(st: Stats): boolean {
  if (uid === 0) return true;
  if (st.uid === uid) return (st.mode & 0o400) !== 0;
  if (groups.has(st.gid)) return (st.mode & 0o040) !== 0;
  return (st.mode & 0o004) !== 0;
}

/** Paths handled between two yields to the event loop in the capture's lstat loops. */
const CHUNK = 256;

/** Lets pending I/O callbacks (git exiting, output arriving) run. */
function yieldNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null; // ENOTDIR, EACCES, ...
  }
}

/**
 * Why blobs in the user's index may not be the bytes of the files (so the index must not seed
 * the private one), or null. `git add` runs clean filters and line-ending conversion
 * (gitattributes(5) `filter`, `text`, `eol`, `ident`, `working-tree-encoding`; git-config(1)
 * core.autocrlf), and a seeded entry whose stat data is unchanged keeps the user's blob; the
 * snapshot wants the bytes as they are. Looked for: core.autocrlf true or input, and an
 * attributes file outside the tree (`$GIT_COMMON_DIR/info/attributes`, core.attributesFile or
 * `$XDG_CONFIG_HOME/git/attributes` / `~/.config/git/attributes`, `/etc/gitattributes` unless
 * GIT_ATTR_NOSYSTEM). Tracked `.gitattributes` files: see {@link gitattributesIn}.
 * @returns a reason, or null when no conversion can apply.
 * @throws KizuError (exit 2) if `git config` fails.
 */
async function filterRisk(s: SnapshotStore): Promise<string | null> {
  const nonEmpty = (f: string): boolean => {
    try {
      return readFileSync(f, 'utf8').trim().length > 0;
    } catch {
      return false;
    }
  };
  const r = await realGit(s, ['config', '-z', '--get-regexp', '^core\\.(autocrlf|attributesfile)$'], { okStatus: [0, 1] });
  const cfg = new Map<string, string>();
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    const nl = rec.indexOf('\n');
    if (nl > 0) cfg.set(rec.slice(0, nl).toLowerCase(), rec.slice(nl + 1));
  }
  const autocrlf = (cfg.get('core.autocrlf') ?? 'false').toLowerCase();
  if (autocrlf !== 'false' && autocrlf !== 'no' && autocrlf !== 'off' && autocrlf !== '0') return `core.autocrlf is ${autocrlf}`;
  const home = process.env.HOME ?? '';
  const global = cfg.get('core.attributesfile')?.replace(/^~(?=\/)/, home) ?? path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'attributes');
  for (const f of [path.join(s.commonDir, 'info', 'attributes'), global, ...(process.env.GIT_ATTR_NOSYSTEM ? [] : ['/etc/gitattributes'])]) {
    if (nonEmpty(path.resolve(s.root, f))) return `attributes in ${f}`;
  }
  return null;
}

/** A tracked `.gitattributes` file (at any depth) in index `ix`, as a reason, or null. */
function gitattributesIn(ix: ParsedIndex): string | null {
  const e = ix.entries.find((x) => x.path === '.gitattributes' || x.path.endsWith('/.gitattributes'));
  return e ? `attributes in ${e.path}` : null;
}

/**
 * Captures the working tree of `s.root` (see the module comment). Touches only the private
 * index, its state file and the object database; never the user's index, HEAD or files.
 * The caller holds the store lock.
 * @param extra repository-relative paths to capture too if they exist (even if ignored).
 * @throws KizuError (exit 2) if git fails twice (the private index is rebuilt from scratch
 *   after a first failure), fs errors writing under `<git-dir>/kizu/snapshot`.
 */
export async function capture(s: SnapshotStore, extra: Iterable<string> = [], begun: BegunSnapshot | null = null, progress?: HashProgress): Promise<Capture> {
  const more = [...extra];
  try {
    return await captureOnce(s, more, begun, progress);
  } catch (e) {
    if (!(e instanceof KizuError)) throw e;
    // A broken private index (or state) must never block snapshots: start over once.
    rmSync(s.indexFile, { force: true });
    rmSync(s.stateFile, { force: true });
    return captureOnce(s, more, null, progress);
  }
}

/**
 * Progress of a capture's hashing: called with the files git has hashed into the snapshot
 * index so far (counted from `git update-index --verbose`, which reports each path as it is
 * added) and the files handed to it so far (the total grows while the working tree is read).
 * Where a first snapshot of a large tree spends its time.
 */
export type HashProgress = (hashed: number, total: number) => void;

/** Newlines in `chunk`: the paths `git update-index --verbose` reported in it (`add '<path>'`, one line each). */
function lines(chunk: Buffer): number {
  let n = 0;
  for (let k = chunk.indexOf(10); k >= 0; k = chunk.indexOf(10, k + 1)) n++;
  return n;
}

async function captureOnce(s: SnapshotStore, extra: string[], begun: BegunSnapshot | null, progress?: HashProgress): Promise<Capture> {
  const startSec = Math.floor(Date.now() / 1000);
  mkdirSync(s.dir, { recursive: true });
  ensureShadow(s);
  const env = shadowEnv(s);
  const max = s.config.maxFileBytes;
  const includeKey = JSON.stringify(s.config.include);
  const zlist = async (args: string[], shadow = false): Promise<string[]> =>
    splitZ((await (shadow ? git(args, { cwd: s.root, env }) : realGit(s, args))).stdout);

  // The listings do not depend on anything below: start them first.
  const untrackedP = begun ? begun.untracked : listUntracked(s.root, s.gitDir);
  const includeP = s.config.include.length
    ? zlist(['ls-files', '-o', '-i', '--exclude-standard', '-z', '--', ...s.config.include.map((g) => `:(glob)${g}`)])
    : Promise.resolve([]);
  untrackedP.catch(() => {});
  includeP.catch(() => {});

  const userIndexFile = process.env.GIT_INDEX_FILE ? null : path.join(s.gitDir, 'index');
  // 'none': no index yet; 'unhashed': an index without checksum (index.skipHash), which
  // never matches a recorded one, so every capture then reads it.
  const userSum = userIndexFile ? (indexChecksum(userIndexFile, s.oidLen) ?? (existsSync(userIndexFile) ? 'unhashed' : 'none')) : 'env';
  const privSum = indexChecksum(s.indexFile, s.oidLen);
  const state = readState(s.stateFile);
  const stateValid = privSum !== null && state !== null && state.index === privSum;
  const fast = stateValid && userSum !== 'env' && userSum !== 'unhashed' && state!.user === userSum && state!.max === max && state!.include === includeKey && !extra.length;

  // 1. What P holds (fast: from the state; slow: parsed), or a seed.
  let untrackedInP: Set<string>;
  let absent: Set<string>;
  let P: Map<string, number> | null = null; // slow path: path -> recorded size (regular files)
  let U: { has(p: string): boolean } | null = null;
  let seeded = false;
  let dirtyP: Promise<string[]>;
  // lstat results kept (only what is needed, so the Stats objects die young).
  const stats = new Map<string, Seen>();
  // Submodules (gitlinks) in P: from the state, or from P's entries; kept up to date below.
  const subs = new Set<string>(fast ? state!.submodules : []);

  if (fast) {
    // diff-files started by beginSnapshot ran on this same private index (the lock was held since).
    const adopt = begun?.dirty && JSON.stringify(begun.dirtyEnv) === JSON.stringify(env);
    dirtyP = adopt ? begun!.dirty!.then((r) => splitZ(r.stdout)) : zlist(DIRTY_ARGS, true);
    untrackedInP = new Set(state!.untracked);
    absent = new Set(state!.absent);
  } else {
    let priv = privSum !== null ? readIndexFile(s.indexFile, s.oidLen) : null;
    let userIx: ParsedIndex | null = null;
    let early: Promise<string[]> | null = null;
    if (!priv) {
      rmSync(s.indexFile, { force: true });
      let riskP: Promise<string | null> = Promise.resolve(null);
      if (userIndexFile && !process.env.KIZU_SNAPSHOT_NO_SEED) {
        riskP = filterRisk(s);
        riskP.catch(() => {});
        // Copy first and let git compare stat data while the copy is parsed and checked.
        try {
          const mtime = statSync(userIndexFile).mtimeMs;
          replaceWithSync(s.indexFile, (tmp) => {
            copyFileSync(userIndexFile, tmp);
            // Not later than the original: entries racy there stay racy here.
            const t = Math.floor(mtime) / 1000;
            utimesSync(tmp, t, t);
          });
          early = zlist(DIRTY_ARGS, true);
          early.catch(() => {});
        } catch {
          /* no index yet: nothing to seed with */
        }
      }
      userIx = early ? readIndexFile(s.indexFile, s.oidLen) : userIndexFile ? readIndexFile(userIndexFile, s.oidLen) : null;
      if (early && userIx && !seedProblem(userIx) && !gitattributesIn(userIx) && !(await riskP)) {
        priv = userIx;
        seeded = true;
      } else if (early) {
        rmSync(s.indexFile, { force: true }); // not a usable seed; its diff-files result is dropped
        early = null;
      }
    }
    dirtyP = early ?? (priv ? zlist(DIRTY_ARGS, true) : Promise.resolve([]));
    dirtyP.catch(() => {});
    P = new Map();
    for (const e of priv?.entries ?? []) {
      P.set(e.path, (e.mode & 0o170000) === 0o100000 ? e.size : -1);
      if ((e.mode & 0o170000) === 0o160000) subs.add(e.path);
    }
    if (seeded) {
      U = P;
      untrackedInP = new Set();
      absent = new Set();
    } else {
      if (!userIx && userIndexFile) userIx = readIndexFile(userIndexFile, s.oidLen);
      const tracked =
        userIx && !userIx.extensions.includes('link') && !userIx.extensions.includes('sdir')
          ? new Set(userIx.entries.map((e) => e.path))
          : new Set(await zlist(['ls-files', '-z']));
      U = tracked;
      untrackedInP = new Set();
      for (const p of P.keys()) if (!tracked.has(p)) untrackedInP.add(p);
      absent = new Set();
      for (const p of tracked) if (!P.has(p)) absent.add(p);
    }
  }
  // 2. What to hash again or drop. Paths to (re)hash stream into one `git update-index
  //    --add --remove -z --stdin` as they are found, so git hashes while this process is
  //    still lstat'ing; the lstat loops run in chunks that yield to the event loop, so that
  //    they overlap with the git processes started above. `--replace` lets a path replace an
  //    entry it conflicts with (a file `x` where P holds `x/y`, or the reverse): such entries
  //    are gone from the working tree, and would otherwise have to be removed first.
  const skipped: Skipped[] = [];
  const skippedSet = new Set<string>();
  const skip = (p: string, reason: string) => {
    if (!skippedSet.has(p)) (skippedSet.add(p), skipped.push({ path: p, reason }));
  };
  let hashed = 0;
  let handed = 0;
  const sink = progress
    ? gitStream([UPDATE_ARGS[0], '--verbose', ...UPDATE_ARGS.slice(1)], {
        cwd: s.root,
        env,
        onStdout: (b) => {
          hashed = Math.min(handed, hashed + lines(b)); // a path holding a newline counts twice
          progress(hashed, handed);
        },
      })
    : gitStream(UPDATE_ARGS, { cwd: s.root, env });
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    sink.write(pending.join('\0') + '\0');
    handed += pending.length;
    progress?.(hashed, handed);
    pending = [];
  };
  const add: string[] = [];
  const added = new Set<string>(); // added and not in P before
  const remove = new Set<string>();
  const dirs = new Map<string, boolean>([['', true]]);
  // True if every directory on the way to `dir` is a real directory (git refuses paths
  // beyond a symbolic link).
  const realDir = (dir: string): boolean => {
    let ok = dirs.get(dir);
    if (ok === undefined) {
      const slash = dir.lastIndexOf('/');
      ok = realDir(slash < 0 ? '' : dir.slice(0, slash)) && !!lstatOrNull(path.join(s.root, dir))?.isDirectory();
      dirs.set(dir, ok);
    }
    return ok;
  };
  const consider = (p: string, inP: boolean, inC: boolean) => {
    const abs = path.join(s.root, p);
    const slash = p.lastIndexOf('/');
    // A name a restore would refuse (git/verify-path.ts) is not captured, and said so: a
    // snapshot holding it could not be restored at all.
    const unsafe = inC ? pathProblem(p) : null;
    if (unsafe) skip(p, `a name git-kizu does not write back (${unsafe})`);
    const st = inC && !unsafe && realDir(slash < 0 ? '' : p.slice(0, slash)) ? lstatOrNull(abs) : null;
    let ok = false;
    if (!st) {
      // A name that is not valid UTF-8 reaches here with U+FFFD for its bad bytes, a name no
      // file has: said, not silently left out (git/run.ts nonUtf8Records).
      if (inC && !unsafe && p.includes('\ufffd')) skip(p, UNREADABLE_NAME);
    } else if (st.isSymbolicLink()) ok = true;
    else if (st.isFile()) {
      if (st.size > max) skip(p, `larger than snapshot.maxFileBytes (${st.size} > ${max} bytes)`);
      else if (readableByMode(st)) ok = true;
      else {
        try {
          accessSync(abs, constants.R_OK);
          ok = true;
        } catch (e) {
          skip(p, `not readable (${(e as NodeJS.ErrnoException).code})`);
        }
      }
    } else if (st.isDirectory() && lstatOrNull(path.join(abs, '.git'))) {
      ok = true; // a submodule: git records its HEAD commit
    } else if (!st.isDirectory()) skip(p, 'not a regular file or symbolic link');
    if (ok && st!.isDirectory()) subs.add(p);
    else subs.delete(p);
    if (ok) {
      if (st!.isFile() || st!.isSymbolicLink()) stats.set(p, { mode: st!.mode, ctime: st!.ctimeMs });
      add.push(p);
      pending.push(p);
      if (!inP) added.add(p);
    } else {
      stats.delete(p);
      if (inP) remove.add(p);
    }
  };
  // Tracked paths missing from P (all of them on a cold start) do not depend on the
  // listings: consider them now. Then, without a valid state, read the permission bits of
  // every file in P (step 5 needs them) while git works.
  const pre = new Map<string, Seen | null>();
  const absentDone = (async () => {
    let n = 0;
    for (const p of absent) {
      consider(p, false, true);
      if (++n % CHUNK === 0) {
        flush();
        await yieldNow();
      }
    }
    flush();
  })();
  const prefetchDone = (async () => {
    await absentDone;
    if (stateValid || !P) return;
    let n = 0;
    for (const p of P.keys()) {
      if (++n % CHUNK === 0) await yieldNow();
      const st = lstatOrNull(path.join(s.root, p));
      pre.set(p, st?.isFile() ? { mode: st.mode, ctime: st.ctimeMs } : null);
    }
  })();
  prefetchDone.catch(() => {});

  // The captured untracked paths (OI).
  const OI = new Set<string>();
  try {
    const [untracked, included, dirty] = await Promise.all([untrackedP, includeP, dirtyP]);

    for (const p of untracked) {
      if (p.endsWith('/')) skip(p.slice(0, -1), 'untracked nested git repository');
      else OI.add(p);
    }
    for (const p of included) if (!p.endsWith('/')) OI.add(p);
    for (const p of extra) {
      if (!U!.has(p) && !OI.has(p) && !pathProblem(p)) {
        const st = lstatOrNull(path.join(s.root, p));
        if (st && (st.isFile() || st.isSymbolicLink())) OI.add(p);
      }
    }
    const dirtySet = new Set(dirty);
    if (stateValid) {
      for (const [p, ctime] of Object.entries(state!.recheck)) {
        if (!dirtySet.has(p) && !absent.has(p) && (!untrackedInP.has(p) || OI.has(p)) && lstatOrNull(path.join(s.root, p))?.ctimeMs !== ctime) {
          dirty.push(p);
          dirtySet.add(p);
        }
      }
    }
    for (const p of dirty) consider(p, true, !untrackedInP.has(p) || OI.has(p));
    for (const p of untrackedInP) if (!dirtySet.has(p) && !OI.has(p)) remove.add(p);
    for (const p of OI) if (!untrackedInP.has(p) && !(U?.has(p) ?? false)) consider(p, false, true);
    await absentDone;
    flush();
    if (P && (!stateValid || seeded || state!.max !== max)) {
      for (const [p, size] of P) {
        if (size > max && !dirtySet.has(p) && !remove.has(p)) {
          skip(p, `larger than snapshot.maxFileBytes (${size} > ${max} bytes)`);
          remove.add(p);
        }
      }
    }
  } finally {
    // Never leave the stream open (it holds the private index's lock).
    if (sink.started) await sink.end().catch(() => {});
  }
  if (sink.started) await sink.end();
  // git has exited without an error: every path handed to it is in the index.
  if (sink.started) progress?.(handed, handed);

  // 3. Drop what is no longer captured, and write the tree.
  if (remove.size) await git(['update-index', '--force-remove', '-z', '--stdin'], { cwd: s.root, env, input: [...remove].join('\0') + '\0' });
  const changed = add.length > 0 || remove.size > 0;
  const tree = !changed && stateValid ? state!.tree : (await git(['write-tree'], { cwd: s.root, env })).stdout.toString('utf8').trim();
  await prefetchDone;

  // 4. Bookkeeping for the next capture.
  const isTracked = (p: string) => (U ? U.has(p) : !untrackedInP.has(p) && !OI.has(p)) || absent.has(p);
  const nextUntracked = new Set<string>();
  for (const p of untrackedInP) if (!remove.has(p)) nextUntracked.add(p);
  for (const p of added) if (!isTracked(p)) nextUntracked.add(p);
  const nextAbsent = new Set<string>();
  for (const p of absent) if (!added.has(p)) nextAbsent.add(p);
  for (const p of remove) if (!untrackedInP.has(p) && (U ? U.has(p) : true)) nextAbsent.add(p);
  const files = (P ? P.size : state!.files) - remove.size + added.size;
  for (const p of remove) subs.delete(p);
  const submodules = [...subs].sort();
  for (const p of submodules) skip(p, SUBMODULE_SKIPPED);

  // 5. Exact permission bits.
  let defaults: ModeDefaults;
  const modes: Record<string, number> = {};
  if (stateValid) {
    defaults = state!.defaults;
    for (const [p, m] of Object.entries(state!.modes)) if (!remove.has(p) && !stats.has(p)) modes[p] = m;
  } else {
    const plain: number[] = [];
    const exec: number[] = [];
    for (const p of [...P!.keys(), ...added]) {
      if (remove.has(p)) continue;
      let seen = stats.get(p);
      if (!seen) {
        const q = pre.get(p);
        if (q !== undefined) {
          if (q) stats.set(p, (seen = q));
        } else {
          const st = lstatOrNull(path.join(s.root, p));
          if (st?.isFile()) stats.set(p, (seen = { mode: st.mode, ctime: st.ctimeMs }));
        }
      }
      if (seen && isFileMode(seen.mode)) (isExec(seen.mode) ? exec : plain).push(seen.mode & 0o7777);
    }
    defaults = { file: mostCommon(plain, DEFAULTS.file), exec: mostCommon(exec, DEFAULTS.exec) };
  }
  const recheck: Record<string, number> = {};
  for (const [p, seen] of stats) {
    if (!isFileMode(seen.mode) || remove.has(p)) continue;
    const bits = seen.mode & 0o7777;
    if (bits !== (isExec(seen.mode) ? defaults.exec : defaults.file)) modes[p] = bits;
    if (Math.floor(seen.ctime / 1000) >= startSec - 1) recheck[p] = seen.ctime;
  }
  if (stateValid) {
    for (const [p, c] of Object.entries(state!.recheck)) if (!remove.has(p) && !stats.has(p) && Math.floor(c / 1000) >= startSec - 1) recheck[p] = c;
  }
  const index = changed || !stateValid ? indexChecksum(s.indexFile, s.oidLen) : privSum;
  const next: State = {
    v: 2,
    index: index ?? '',
    user: userSum,
    max,
    include: includeKey,
    tree,
    files,
    defaults,
    modes,
    untracked: [...nextUntracked],
    absent: [...nextAbsent],
    recheck,
    submodules,
  };
  const same =
    stateValid &&
    !changed &&
    state!.user === userSum &&
    state!.max === max &&
    state!.include === includeKey &&
    JSON.stringify(state!.recheck) === JSON.stringify(recheck) &&
    state!.absent.length === next.absent.length &&
    state!.untracked.length === next.untracked.length &&
    JSON.stringify(state!.submodules) === JSON.stringify(submodules);
  if (index && !same) writeState(s.stateFile, next);
  return { tree, modes, defaults, skipped, files, hashed: add.length, seeded };
}

/** True if two captures hold the same tree, permission bits and skipped paths. */
export function sameCapture(a: Capture, b: Capture): boolean {
  const canon = (c: Capture) =>
    JSON.stringify([c.tree, c.defaults.file, c.defaults.exec, Object.entries(c.modes).sort(), c.skipped.map((k) => [k.path, k.reason]).sort()]);
  return canon(a) === canon(b);
}
