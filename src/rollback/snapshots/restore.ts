/**
 * Restoring a snapshot: making the working tree (or some paths of it) equal to a snapshot,
 * file by file, with a safety snapshot first and a way back if anything fails.
 *
 * Plan: the current working tree is captured (capture.ts; the paths the snapshot holds are
 * captured too when they exist, even if ignored now, so nothing the restore overwrites is
 * lost), then `git diff-tree -r -z --no-renames` between the current tree and the snapshot
 * tree gives the files to create, modify or delete, and the exact permission bits of both
 * sides give the mode-only changes. Left alone ("kept", with a reason): submodules, files
 * the snapshot could not save (too large, unreadable), and files too large for the safety
 * snapshot (deleting or overwriting them could not be undone), and ignored files the snapshot
 * did not capture (its own `snapshot.include` did not name them: see keepUncapturedIgnored).
 *
 * Apply (not for a dry run): the current capture is committed as a safety snapshot (kind
 * 'safety'); deletions run first (deepest paths first; directories they empty are removed),
 * then writes, then mode changes. Each write goes to a temporary file in the same directory
 * (exact bytes, exact permission bits, or a symlink) renamed over the path, so a reader sees
 * the old or the new file, never a mix. A parent that is not a real directory (a file or a
 * symlink left in the way) is an error rather than something to follow. If any step fails,
 * the paths already changed are put back from the current capture, in reverse order, and
 * the plan comes back with `applied: false` and the failures. After a complete apply, every
 * changed path is checked again (type, permission bits, and the git object id of its bytes)
 * and each mismatch is a failure.
 *
 * The user's index, HEAD and stash are never touched.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { quoteCStyle } from '../../git/quote.js';
import { capture, sameCapture, type Capture, type ModeDefaults } from './capture.js';
import { acquireLock } from '../../git/lock.js';
import { lstatInTree, replaceFileSync, replaceWithSync } from '../../files.js';
import { openStore, realGit, type SnapshotStore } from './store.js';
import { commitSnapshot, captureModes, headCommit, readIn, retain, LOCK_TIMEOUT_MS, type SnapshotInfo } from './snapshot.js';
import { git } from '../../git/run.js';
import { treeProblem, unsafePathError } from '../../git/verify-path.js';

/** One side of a change. */
export interface FileState {
  type: 'file' | 'symlink' | 'submodule';
  /** Exact permission bits as octal digits ("644", "600", "755"); null for symlinks and submodules. */
  mode: string | null;
  /** Object id of the blob (file bytes or link target), or the submodule commit. */
  oid: string;
}

/** What restoring does to one path. */
export interface RestoreChange {
  /** Repository-relative path, '/'-separated. */
  path: string;
  /**
   * create: absent now, in the snapshot; delete: present now, not in the snapshot; modify:
   * different bytes or type; mode: same bytes, different permission bits; kept: left as is
   * (see `reason`).
   */
  action: 'create' | 'modify' | 'delete' | 'mode' | 'kept';
  /** The working tree now (null: absent). */
  current: FileState | null;
  /** The snapshot (null: absent). */
  target: FileState | null;
  /** Lines restoring adds / removes in this file (git diff --numstat); null for binary files or no content change. */
  added: number | null;
  removed: number | null;
  /** For 'kept': why. */
  reason?: string;
  /**
   * Set by `git kizu undo` (rollback/undo.ts): what is there now was edited after the
   * rollback being undone, so restoring takes that edit away (it is kept in the safety snapshot).
   */
  editedSinceRollback?: boolean;
}

/** The outcome of {@link restoreSnapshot}. */
export interface RestorePlan {
  /** The snapshot restored (commit id) and its name. */
  snapshot: string;
  name: string;
  /** The paths the restore was limited to, or null for the whole tree. */
  paths: string[] | null;
  /** Tree object of the working tree as captured before the restore. */
  currentTree: string;
  /** Every path that differs, sorted by path. Paths changed since the snapshot lose those changes. */
  changes: RestoreChange[];
  dryRun: boolean;
  /** True once the working tree was changed (or needed no change). */
  applied: boolean;
  /** The safety snapshot taken before changing anything (commit id, name), or null. */
  safetySnapshot: string | null;
  safetyName: string | null;
  /** Paths that could not be restored (or put back), with the error. */
  failures: { path: string; error: string }[];
}

/** Options of {@link restoreSnapshot}. */
export interface RestoreOptions {
  /** Compute and return the plan only (no safety snapshot, no change). */
  dryRun?: boolean;
  /** Limit the restore to these repository-relative paths (files or directories). */
  paths?: string[];
  /**
   * Called with the plan before anything changes (and only if something would change);
   * resolving false cancels (`applied: false`). If the working tree changes while it
   * waits, the restore stops with an error (exit 1) and changes nothing.
   */
  confirm?: (plan: RestorePlan) => Promise<boolean>;
  /** Message of the safety snapshot (default `before restoring <name>`). */
  safetyMessage?: string;
  /** How long to wait for a concurrent snapshot or restore (ms, default 30 000). */
  lockTimeoutMs?: number;
  /**
   * When given, an invalid config gives this one-line warning instead of an error: its valid
   * keys and the defaults for the rest are used (store.ts openStore), so a broken config never
   * locks anyone out of rollback and undo. That is safe for the restore: the current capture
   * still holds every path the restore changes (files the defaults would leave out of the
   * safety snapshot are not overwritten: "kept"), and no snapshot is dropped by `snapshot.keep`
   * retention after the safety snapshot, since the config's own `keep` may be what is broken.
   * Without it an invalid config is an error (exit 2), before anything changes.
   */
  configProblem?: (line: string) => void;
  /**
   * Told how far the restore is: phase `hashing` (files of the working tree git has hashed of
   * those handed to it, capture.ts HashProgress) and `writing` (paths deleted, written or
   * changed of those the plan changes).
   */
  progress?: (phase: 'hashing' | 'writing', done: number, total: number) => void;
}

interface TreeEntry {
  mode: string;
  oid: string;
}

/** The entries of `tree` (`git ls-tree -r`) by path, and the paths it lists more than once (a forged tree). */
async function lsTree(s: SnapshotStore, tree: string): Promise<{ entries: Map<string, TreeEntry>; dups: string[] }> {
  const out = (await realGit(s, ['ls-tree', '-r', '-z', '--full-tree', tree])).stdout.toString('utf8');
  const m = new Map<string, TreeEntry>();
  const dups: string[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, , oid] = rec.slice(0, tab).split(' ');
    const p = rec.slice(tab + 1);
    if (m.has(p)) dups.push(p);
    m.set(p, { mode, oid });
  }
  return { entries: m, dups };
}

/**
 * Refuses a snapshot whose tree git-kizu must not write from (git/verify-path.ts treeProblem:
 * a path leaving the working tree or leading into `.git`, an unknown mode, a path under a
 * file or a symbolic link of the same tree), before anything is captured or written.
 * @throws KizuError exit 2 naming the snapshot, its ref and the first such path.
 */
function refuseUnsafeTree(target: SnapshotInfo, tgt: Map<string, TreeEntry>, dups: string[]): void {
  const bad = dups.length ? { path: dups[0], why: 'the tree lists it twice' } : treeProblem([...tgt].map(([p, e]) => ({ path: p, mode: e.mode })));
  if (!bad) return;
  const where = target.ref || target.id;
  const drop = target.ref ? `, and drop it with git kizu snapshot drop ${target.name}` : '';
  throw unsafePathError(`snapshot ${target.name}${target.ref ? ` (${target.ref})` : ''}`, bad.path, bad.why, `git kizu snapshot never writes such a path, so this snapshot was made or changed by something else: see what it holds with git ls-tree -r ${where}${drop}`);
}

function stateOf(gitMode: string, oid: string, p: string, perms: { modes: Record<string, number>; defaults: ModeDefaults }): FileState | null {
  if (/^0+$/.test(gitMode)) return null;
  if (gitMode === '120000') return { type: 'symlink', mode: null, oid };
  if (gitMode === '160000') return { type: 'submodule', mode: null, oid };
  const bits = perms.modes[p] ?? (gitMode === '100755' ? perms.defaults.exec : perms.defaults.file);
  return { type: 'file', mode: bits.toString(8), oid };
}

function normalisePaths(paths: string[]): string[] {
  return paths.map((p) => {
    const n = path.posix.normalize(p.split(path.sep).join('/')).replace(/\/+$/, '');
    if (n === '.' || n === '') return '';
    if (path.posix.isAbsolute(n) || n === '..' || n.startsWith('../')) {
      throw new KizuError(`${quoteCStyle(p)}: not a path inside the repository`, { hint: 'give paths relative to the repository root' });
    }
    return n;
  });
}

function under(p: string, paths: string[] | null): boolean {
  return !paths || paths.some((q) => q === '' || p === q || p.startsWith(q + '/'));
}

async function planChanges(
  s: SnapshotStore,
  target: SnapshotInfo,
  tgt: Map<string, TreeEntry>,
  cur: Capture,
  paths: string[] | null,
): Promise<RestoreChange[]> {
  const [raw, num] = await Promise.all([
    realGit(s, ['diff-tree', '-r', '-z', '--no-renames', '--raw', cur.tree, target.tree]),
    realGit(s, ['diff-tree', '-r', '-z', '--no-renames', '--numstat', cur.tree, target.tree]),
  ]);
  const numstat = new Map<string, [number | null, number | null]>();
  for (const rec of num.stdout.toString('utf8').split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(rec);
    if (m) numstat.set(m[3], [m[1] === '-' ? null : Number(m[1]), m[2] === '-' ? null : Number(m[2])]);
  }
  const tgtPerms = captureModes(target.meta);
  const tgtSkipped = new Map(target.meta.skipped.map((x) => [x.path, x.reason]));
  const curSkipped = new Map(cur.skipped.map((x) => [x.path, x.reason]));
  const changes = new Map<string, RestoreChange>();
  const tokens = raw.stdout.toString('utf8').split('\0');
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const meta = tokens[i];
    const p = tokens[i + 1];
    const m = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])/.exec(meta);
    if (!m) continue;
    const current = stateOf(m[1], m[3], p, cur);
    const tg = stateOf(m[2], m[4], p, tgtPerms);
    const [added, removed] = numstat.get(p) ?? [null, null];
    const c: RestoreChange = { path: p, action: 'modify', current, target: tg, added, removed };
    if (current?.type === 'submodule' || tg?.type === 'submodule') (c.action = 'kept'), (c.reason = 'submodule: not restored');
    else if (!current && curSkipped.has(p)) {
      c.action = 'kept';
      c.reason = `${curSkipped.get(p)} now, so the safety snapshot cannot save it; not overwritten`;
    } else if (!tg && tgtSkipped.has(p)) {
      c.action = 'kept';
      c.reason = `the snapshot could not save it (${tgtSkipped.get(p)}); left as it is`;
    } else if (!current) c.action = 'create';
    else if (!tg) c.action = 'delete';
    else if (current.type === tg.type && current.oid === tg.oid) {
      if (current.mode === tg.mode) continue;
      c.action = 'mode';
      c.added = c.removed = null;
    }
    changes.set(p, c);
  }
  // Permission bits of files whose bytes and git mode are unchanged.
  const curPerms = { modes: cur.modes, defaults: cur.defaults };
  const sameDefaults = cur.defaults.file === tgtPerms.defaults.file && cur.defaults.exec === tgtPerms.defaults.exec;
  const candidates = sameDefaults ? new Set([...Object.keys(cur.modes), ...Object.keys(tgtPerms.modes)]) : tgt.keys();
  for (const p of candidates) {
    if (changes.has(p)) continue;
    const e = tgt.get(p);
    if (!e || (e.mode !== '100644' && e.mode !== '100755')) continue;
    const a = stateOf(e.mode, e.oid, p, curPerms)!;
    const b = stateOf(e.mode, e.oid, p, tgtPerms)!;
    if (a.mode !== b.mode) changes.set(p, { path: p, action: 'mode', current: a, target: b, added: null, removed: null });
  }
  for (const [p, reason] of tgtSkipped) {
    if (!changes.has(p)) changes.set(p, { path: p, action: 'kept', current: null, target: null, added: null, removed: null, reason: `the snapshot could not save it (${reason}); left as it is` });
  }
  for (const [p, reason] of curSkipped) {
    if (!changes.has(p) && !tgt.has(p)) {
      changes.set(p, { path: p, action: 'kept', current: null, target: null, added: null, removed: null, reason: `${reason}, so the safety snapshot cannot save it; left as it is` });
    }
  }
  await keepUncapturedIgnored(s, target, changes);
  return [...changes.values()].filter((c) => under(c.path, paths)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A path absent from the snapshot is deleted as "created since" — unless it is an ignored
 * file now (`git check-ignore`: ignored and not in the user's index) that the snapshot did
 * not look at: snapshots capture ignored files only when config `snapshot.include` names
 * them, so its absence says nothing unless the snapshot's own include patterns (recorded in
 * its metadata) name it. Such a path becomes 'kept' (`ignored, not captured by that
 * snapshot`). A snapshot that did not record its patterns keeps every ignored file.
 */
async function keepUncapturedIgnored(s: SnapshotStore, target: SnapshotInfo, changes: Map<string, RestoreChange>): Promise<void> {
  const deletes = [...changes.values()].filter((c) => c.action === 'delete').map((c) => c.path);
  if (!deletes.length) return;
  const ci = await git(['check-ignore', '-z', '--stdin'], { cwd: s.root, input: deletes.join('\0') + '\0', okStatus: [0, 1] });
  const ignored = ci.stdout.toString('utf8').split('\0').filter(Boolean);
  if (!ignored.length) return;
  const include = target.meta.include ?? [];
  const captured = new Set<string>();
  if (include.length) {
    const r = await git(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--full-name', '--', ...include.map((g) => `:(glob)${g}`)], { cwd: s.root });
    for (const p of r.stdout.toString('utf8').split('\0')) if (p) captured.add(p);
  }
  for (const p of ignored) {
    if (captured.has(p)) continue;
    const c = changes.get(p)!;
    c.action = 'kept';
    c.added = c.removed = null;
    c.reason = 'ignored, not captured by that snapshot; left as it is';
  }
}

/**
 * The writes of `changes` that would fail on what is on disk and that the plan's deletions
 * do not clear: a directory at the path that still holds files the restore leaves (ignored
 * or kept ones; an empty subdirectory nothing is deleted from), or a parent path that is a
 * file or a symlink the plan does not delete. Same order and words as the writes' own errors.
 */
function blockedWrites(s: SnapshotStore, changes: RestoreChange[]): { path: string; error: string }[] {
  const deleted = new Set(changes.filter((c) => c.action === 'delete').map((c) => c.path));
  const hasDeleted = (dir: string) => [...deleted].some((d) => d.startsWith(dir + '/'));
  // What is left under directory `rel` once the deletions ran and their emptied parents went.
  const left = (rel: string): string[] => {
    let names: string[];
    try {
      names = readdirSync(abs(s, rel)).sort();
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const n of names) {
      const p = `${rel}/${n}`;
      const st = stAt(s, p);
      if (st?.isDirectory()) {
        const sub = left(p);
        if (sub.length) out.push(...sub);
        else if (!hasDeleted(p)) out.push(`${p}/`);
      } else if (!deleted.has(p)) out.push(p);
    }
    return out;
  };
  const out: { path: string; error: string }[] = [];
  for (const c of changes) {
    if (c.action !== 'create' && c.action !== 'modify') continue;
    const parts = c.path.split('/');
    let parentBad = false;
    for (let i = 1; i < parts.length && !parentBad; i++) {
      const a = parts.slice(0, i).join('/');
      const st = stAt(s, a);
      if (!st) break;
      if (!st.isDirectory() && !deleted.has(a)) {
        out.push({ path: c.path, error: `${a} is ${st.isSymbolicLink() ? 'a symbolic link' : 'a file'}, not a directory` });
        parentBad = true;
      }
      if (!st.isDirectory()) break;
    }
    if (parentBad) continue;
    if (stAt(s, c.path)?.isDirectory()) {
      const rest = left(c.path);
      if (rest.length) out.push({ path: c.path, error: `a directory with other files is in the way (${rest.slice(0, 5).map((p) => quoteCStyle(p)).join(', ')}${rest.length > 5 ? ', ...' : ''})` });
    }
  }
  return out;
}

/**
 * Throws when {@link blockedWrites} finds a write of `changes` that would fail.
 * @throws KizuError exit 1, naming the first such path and what is in the way.
 */
function refuseBlocked(s: SnapshotStore, target: SnapshotInfo, changes: RestoreChange[]): void {
  const blocked = blockedWrites(s, changes);
  if (!blocked.length) return;
  const b = blocked[0];
  const more = blocked.length > 1 ? ` (and ${blocked.length - 1} more: ${blocked.slice(1, 6).map((x) => quoteCStyle(x.path)).join(', ')})` : '';
  throw new KizuError(`cannot restore snapshot ${target.name}: ${quoteCStyle(b.path)}: ${b.error}${more}; nothing was changed`, {
    hint: 'move what is in the way aside (it is not part of the snapshot, so the restore does not remove it), then run the command again',
    exitCode: EXIT.FOUND,
  });
}

/** Reads blobs with one `git cat-file --batch`. */
async function readBlobs(s: SnapshotStore, oids: string[]): Promise<Map<string, Buffer>> {
  const uniq = [...new Set(oids)];
  const map = new Map<string, Buffer>();
  if (!uniq.length) return map;
  const out = (await realGit(s, ['cat-file', '--batch'], { input: uniq.join('\n') + '\n' })).stdout;
  let pos = 0;
  for (const oid of uniq) {
    const nl = out.indexOf(0x0a, pos);
    const header = out.toString('utf8', pos, nl).split(' ');
    if (header[1] === 'missing' || header.length < 3) throw new KizuError(`object ${oid} is missing from the repository`, { hint: 'run git fsck' });
    const size = Number(header[2]);
    map.set(oid, out.subarray(nl + 1, nl + 1 + size));
    pos = nl + 1 + size + 1;
  }
  return map;
}

function abs(s: SnapshotStore, p: string): string {
  return path.join(s.root, ...p.split('/'));
}

/**
 * What is at `p` in the working tree, never through a symbolic link (files.ts lstatInTree):
 * a path under a link, a file or nothing is absent. Every check of the plan, the writes
 * and the verification looks with it, so that a link in a parent directory never makes a
 * file outside the repository count (or be changed) as the repository's.
 */
function stAt(s: SnapshotStore, p: string) {
  return lstatInTree(s.root, p);
}

function lstatOrNull(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

/** Creates missing parent directories; refuses a parent that is a file or a symlink. */
function ensureParents(s: SnapshotStore, p: string): void {
  const parts = p.split('/').slice(0, -1);
  let dir = s.root;
  for (let i = 0; i < parts.length; i++) {
    dir = path.join(dir, parts[i]);
    const st = lstatOrNull(dir);
    if (!st) mkdirSync(dir);
    else if (!st.isDirectory()) {
      throw new Error(`${parts.slice(0, i + 1).join('/')} is ${st.isSymbolicLink() ? 'a symbolic link' : 'a file'}, not a directory`);
    }
  }
}

/** Replaces `p` atomically by `state` (bytes `content`). */
function writePath(s: SnapshotStore, p: string, state: FileState, content: Buffer): void {
  ensureParents(s, p);
  const file = abs(s, p);
  const st = stAt(s, p);
  if (st?.isDirectory()) {
    try {
      rmdirSync(file);
    } catch {
      throw new Error('a directory with other files is in the way');
    }
  }
  if (state.type === 'symlink') replaceWithSync(file, (tmp) => symlinkSync(content, tmp));
  else replaceFileSync(file, content, { mode: parseInt(state.mode ?? '644', 8) });
}

function deletePath(s: SnapshotStore, p: string): void {
  // Nothing of the repository is there when a parent is a link (or not a directory).
  if (!stAt(s, p)) return;
  try {
    unlinkSync(abs(s, p));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
}

function setMode(s: SnapshotStore, p: string, state: FileState): void {
  const file = abs(s, p);
  const st = stAt(s, p);
  if (!st?.isFile()) throw new Error(st ? 'not a regular file any more' : 'missing');
  chmodSync(file, parseInt(state.mode!, 8));
}

/** Removes the now-empty parent directories of `paths` (never the root). */
function pruneDirs(s: SnapshotStore, paths: string[]): void {
  const dirs = new Set<string>();
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = parts.length - 1; i > 0; i--) dirs.add(parts.slice(0, i).join('/'));
  }
  for (const d of [...dirs].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? 1 : -1))) {
    if (!stAt(s, d)?.isDirectory()) continue;
    try {
      rmdirSync(abs(s, d));
    } catch {
      /* not empty (or gone) */
    }
  }
}

function gitOid(s: SnapshotStore, data: Buffer): string {
  return createHash(s.hashAlgo).update(`blob ${data.length}\0`).update(data).digest('hex');
}

/** Null if `p` is in `want` state, else what differs. */
function verifyPath(s: SnapshotStore, p: string, want: FileState | null): string | null {
  const file = abs(s, p);
  const st = stAt(s, p);
  // Absent as a file or link: a directory there is right when the snapshot holds files under it.
  if (!want) return st && !st.isDirectory() ? 'still present' : null;
  if (!st) return 'missing';
  if (want.type === 'symlink') {
    if (!st.isSymbolicLink()) return 'not a symbolic link';
    return gitOid(s, readlinkSync(file, { encoding: 'buffer' })) === want.oid ? null : 'link target differs';
  }
  if (!st.isFile()) return 'not a regular file';
  if ((st.mode & 0o7777).toString(8) !== want.mode) return `mode ${(st.mode & 0o7777).toString(8)}, expected ${want.mode}`;
  return gitOid(s, readFileSync(file)) === want.oid ? null : 'content differs';
}

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err?.code && err.message ? err.message.replace(/^[A-Z]+: /, '') : String(err?.message ?? e);
}

/**
 * Makes the working tree of the repository at `root` (or only `opts.paths`) equal to
 * snapshot `id` (name, ref, or commit id prefix; see readSnapshot): restores deleted and
 * modified files, removes files created since (tracked and untracked), restores exact
 * permission bits and symlinks; leaves the index, HEAD and stash alone. Unless `dryRun`,
 * takes a safety snapshot of the current state first (its id is in the result), applies
 * atomically per file, puts everything back if a step fails, and verifies the result (see
 * the module comment). Does not write the undo log (a rollback does: ./rollback.ts).
 * @returns the plan; check `applied` and `failures`.
 * @throws KizuError: exit 1 for an unknown snapshot, a working tree that changed while
 *   `confirm` waited, or a write that what is on disk would make fail (a directory holding
 *   files the restore leaves, or a file or symlink where a directory must go; checked before
 *   the dry run returns and again after `confirm`); exit 2 for paths outside the repository, a locked store or git
 *   failures.
 */
export async function restoreSnapshot(root: string, id: string, opts: RestoreOptions = {}): Promise<RestorePlan> {
  const s = await openStore(root, { configProblem: opts.configProblem });
  const target = await readIn(s, id);
  const paths = opts.paths ? normalisePaths(opts.paths) : null;
  const listed = await lsTree(s, target.tree);
  const tgt = listed.entries;
  // Every path is checked before anything is captured or written, the dry run included.
  refuseUnsafeTree(target, tgt, listed.dups);
  const timeout = opts.lockTimeoutMs ?? LOCK_TIMEOUT_MS;
  let release = await acquireLock(s.lockFile, 'the snapshot store', timeout);
  try {
    const hashing = opts.progress ? (d: number, t: number) => opts.progress!('hashing', d, t) : undefined;
    let cur = await capture(s, tgt.keys(), null, hashing);
    const plan: RestorePlan = {
      snapshot: target.id,
      name: target.name,
      paths,
      currentTree: cur.tree,
      changes: await planChanges(s, target, tgt, cur, paths),
      dryRun: !!opts.dryRun,
      applied: false,
      safetySnapshot: null,
      safetyName: null,
      failures: [],
    };
    const ops = plan.changes.filter((c) => c.action !== 'kept');
    // What the writes would fail on is refused here, so that a dry run says it too.
    refuseBlocked(s, target, plan.changes);
    if (opts.dryRun) return plan;
    if (!ops.length) {
      plan.applied = true;
      return plan;
    }
    if (opts.confirm) {
      release();
      const ok = await opts.confirm(plan);
      if (!ok) return plan;
      release = await acquireLock(s.lockFile, 'the snapshot store', timeout);
      const again = await capture(s, tgt.keys(), null, hashing);
      if (!sameCapture(again, cur)) {
        throw new KizuError('the working tree changed while waiting for the answer; nothing was changed', {
          hint: 'run the command again to see the new plan',
          exitCode: EXIT.FOUND,
        });
      }
      cur = again;
      // Ignored files are not in the capture: one put in the way meanwhile is refused here.
      refuseBlocked(s, target, plan.changes);
    }
    const safety = await commitSnapshot(s, cur, {
      kind: 'safety',
      message: opts.safetyMessage ?? `before restoring ${target.name}`,
      head: await headCommit(s),
    });
    plan.safetySnapshot = safety.id;
    plan.safetyName = safety.name;
    // Nothing is dropped while the config is broken (snapshot.ts retentionPlan).
    await retain(s);

    const blobs = await readBlobs(s, ops.filter((c) => c.target && (c.action === 'create' || c.action === 'modify')).map((c) => c.target!.oid));
    const deletes = ops.filter((c) => c.action === 'delete').sort((a, b) => (a.path < b.path ? 1 : -1));
    const writes = ops.filter((c) => c.action === 'create' || c.action === 'modify');
    const chmods = ops.filter((c) => c.action === 'mode');
    const done: RestoreChange[] = [];
    let failed: { path: string; error: string } | null = null;
    for (const c of [...deletes, ...writes, ...chmods]) {
      try {
        if (c.action === 'delete') deletePath(s, c.path);
        else if (c.action === 'mode') setMode(s, c.path, c.target!);
        else writePath(s, c.path, c.target!, blobs.get(c.target!.oid)!);
        done.push(c);
        opts.progress?.('writing', done.length, ops.length);
        if (c === deletes[deletes.length - 1]) pruneDirs(s, deletes.map((d) => d.path));
      } catch (e) {
        failed = { path: c.path, error: errText(e) };
        break;
      }
    }
    if (failed) {
      plan.failures.push(failed);
      await putBack(s, done, plan.failures);
      return plan;
    }
    plan.applied = true;
    for (const c of ops) {
      const bad = verifyPath(s, c.path, c.target);
      if (bad) plan.failures.push({ path: c.path, error: `not restored: ${bad}` });
    }
    return plan;
  } finally {
    release();
  }
}

/** Undoes `done` (newest first) from the states recorded in the plan. */
async function putBack(s: SnapshotStore, done: RestoreChange[], failures: { path: string; error: string }[]): Promise<void> {
  let blobs: Map<string, Buffer>;
  try {
    blobs = await readBlobs(s, done.filter((c) => c.current && c.current.type !== 'submodule').map((c) => c.current!.oid));
  } catch (e) {
    for (const c of done) failures.push({ path: c.path, error: `could not be put back: ${errText(e)}` });
    return;
  }
  const removed: string[] = [];
  for (const c of [...done].reverse()) {
    try {
      if (!c.current) {
        deletePath(s, c.path);
        removed.push(c.path);
      } else if (c.action === 'mode') setMode(s, c.path, c.current);
      else writePath(s, c.path, c.current, blobs.get(c.current.oid)!);
    } catch (e) {
      failures.push({ path: c.path, error: `could not be put back: ${errText(e)}` });
    }
  }
  if (removed.length) pruneDirs(s, removed);
}
