/**
 * The undo log: every rollback, at any level (snapshot, patch, branch), records itself here
 * so that `git kizu undo` can reverse the last one.
 *
 * Storage: `<git-common-dir>/kizu/rollbacks.json` (shared by all worktrees, like refs), a
 * JSON object `{"version": 1, "records": [<RollbackRecord>, ...]}` with the newest record
 * last, written atomically (temp file + rename) under the lock file
 * `<git-common-dir>/kizu/rollbacks.lock`. A missing file is an empty log; an unreadable or
 * invalid one (not JSON, another format, or a record that is not a valid RollbackRecord) is
 * an error naming the file and how to move it aside (never silently replaced or pruned, since
 * it is the only way back). Every rollback command reads it ({@link checkUndoLog}) before it
 * changes the first file, so a broken log stops the command with nothing written.
 * Snapshots that records refer to, and the safety snapshots of the last undos (`redo`, the
 * snapshots undo tells the user to redo with), are protected from `snapshot.keep` retention
 * and from `git kizu snapshot drop` without --force.
 */
import { mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { showValue } from '../words.js';
import { commonDir } from '../git/repo.js';
import { acquireLock } from '../git/lock.js';
import { undoLogFile, undoLogLockFile } from '../git/layout.js';
import { shellPath } from '../git/quote.js';
import { lstatInTree, replaceFileSync } from '../files.js';
import { isDotGitComponent, pathProblem } from '../git/verify-path.js';

/** What a rollback left at one path it changed (see {@link RollbackRecord}.changed). */
export interface RollbackChange {
  /** Repository-relative path, '/'-separated. */
  path: string;
  /** {@link contentHash} of what the rollback left there; null when it removed the path. */
  sha256: string | null;
}

/** SHA-256 (hex) of bytes: how the undo log identifies what a rollback left at a path. */
export function contentHash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * {@link contentHash} of what is at `rel` in the worktree `root` now: of the bytes of a
 * regular file, of the target of a symbolic link (prefixed `symlink:`, so a link never equals
 * a file); null when nothing is there; `other` for anything else (a directory, a socket).
 * Never follows a symlink, in the path's parent directories either (files.ts lstatInTree).
 */
export function pathHash(root: string, rel: string): string | null {
  const file = path.join(root, ...rel.split('/'));
  // lstat semantics on every component: a file reached through a linked directory is not there.
  const st = lstatInTree(root, rel);
  if (!st) return null;
  if (st.isSymbolicLink()) return contentHash(Buffer.concat([Buffer.from('symlink:'), readlinkSync(file, { encoding: 'buffer' })]));
  if (!st.isFile()) return 'other';
  try {
    return contentHash(readFileSync(file));
  } catch {
    return 'unreadable';
  }
}

/** One rollback that `git kizu undo` can reverse. */
export interface RollbackRecord {
  /** Which rollback command made it. */
  level: 'snapshot' | 'patch' | 'branch';
  /** ISO 8601 UTC time of the rollback. */
  time: string;
  /**
   * Commit id of the snapshot (snapshot.ts) taken of the working tree just before the
   * rollback changed it; undo restores the worktree that snapshot was taken in to it.
   */
  safetySnapshot: string;
  /** One line for humans, e.g. `rollback to snapshot 20250101-120000-000-1a2b3c4d`. */
  description: string;
  /**
   * Extra work for undo. `branch`: recreate branch `name` (refs/heads/<name>, must not
   * exist then) at the commit of `trashRef`, and if `worktree` (absolute path) is given,
   * `git worktree add <worktree> <name>` before restoring the safety snapshot into it.
   */
  undo?: { kind: 'branch'; name: string; trashRef: string; worktree?: string };
  /**
   * The paths the rollback changed in the worktree of its safety snapshot, with what it left
   * there ({@link pathHash}): `git kizu undo` restores only these (unless asked for the whole
   * snapshot), and names those edited since. `[]`: it changed no file there (a branch
   * rollback: the task's files come back with the task). Absent in records written before
   * it was kept: then undo restores the whole snapshot.
   */
  changed?: RollbackChange[];
  /**
   * For a patch rollback: the id of the journal entry that records it (journal/journal.ts),
   * which `git kizu undo` rolls back in the journal. Absent when it could not be recorded,
   * and in records written before it was kept (undo then looks for the `rollback` entry of
   * the same time).
   */
  journalEntry?: string;
}

interface LogFile {
  version: 1;
  records: RollbackRecord[];
  /**
   * Commit ids of the safety snapshots the last undos took (newest last, at most
   * {@link REDO_KEPT}): `git kizu undo` prints `to redo: git kizu rollback snapshot <id>`, so
   * retention must not drop them. Absent in logs written before it was kept.
   */
  redo?: string[];
}

/** How many undo safety snapshots (redo points) stay protected. */
export const REDO_KEPT = 10;

/** Absolute path of the undo log of the repository containing `root`. */
export async function rollbackLogPath(root: string): Promise<string> {
  return undoLogFile(await commonDir(root));
}

function problem(r: unknown): string | null {
  if (!r || typeof r !== 'object') return 'not an object';
  const o = r as Record<string, unknown>;
  if (!['snapshot', 'patch', 'branch'].includes(o.level as string)) return `level must be snapshot, patch or branch, got ${showValue(o.level)}`;
  if (typeof o.time !== 'string' || Number.isNaN(Date.parse(o.time))) return `time must be an ISO date string, got ${showValue(o.time)}`;
  if (typeof o.safetySnapshot !== 'string' || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(o.safetySnapshot)) {
    return `safetySnapshot must be a full commit id, got ${showValue(o.safetySnapshot)}`;
  }
  if (typeof o.description !== 'string') return 'description must be a string';
  if (o.undo !== undefined) {
    const u = o.undo as Record<string, unknown>;
    if (!u || u.kind !== 'branch' || typeof u.name !== 'string' || !u.name || typeof u.trashRef !== 'string' || !u.trashRef.startsWith('refs/')) {
      return `undo must be {kind: "branch", name, trashRef: "refs/...", worktree?}, got ${showValue(o.undo)}`;
    }
    if (u.worktree !== undefined && (typeof u.worktree !== 'string' || !path.isAbsolute(u.worktree))) return 'undo.worktree must be an absolute path';
    // A worktree is never made inside a git dir (git/verify-path.ts isDotGitComponent: `.git` and the names taken for it).
    if (typeof u.worktree === 'string' && u.worktree.split(/[\\/]/).some(isDotGitComponent)) return `undo.worktree must not be inside a .git directory, got ${showValue(u.worktree)}`;
  }
  if (o.changed !== undefined) {
    if (!Array.isArray(o.changed)) return 'changed must be an array of {path, sha256}';
    for (const c of o.changed as Record<string, unknown>[]) {
      const p = c?.path;
      // The one path rule (git/verify-path.ts): what a rollback may have changed.
      if (typeof p !== 'string' || pathProblem(p)) {
        return `changed[].path must be a repository-relative path, got ${showValue(p)}`;
      }
      if (c.sha256 !== null && (typeof c.sha256 !== 'string' || !/^([0-9a-f]{64}|other|unreadable)$/.test(c.sha256))) return `changed[].sha256 must be a SHA-256 or null, got ${showValue(c.sha256)}`;
    }
  }
  if (o.journalEntry !== undefined && (typeof o.journalEntry !== 'string' || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(o.journalEntry))) {
    return `journalEntry must be a full commit id, got ${showValue(o.journalEntry)}`;
  }
  return null;
}

/** The error for an undo log `file` that cannot be used (`why`: what is wrong with it). */
function badLog(file: string, why: string): KizuError {
  const f = shellPath(file);
  return new KizuError(`the undo log ${file} ${why}`, {
    hint:
      `nothing was changed; move it aside (mv ${f} ${f}.broken) and run the command again. ` +
      'The rollbacks it recorded then cannot be undone with git kizu undo; their safety snapshots stay in git kizu snapshot list until snapshot.keep retention drops them',
  });
}

function readLog(file: string): LogFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, records: [] };
    throw badLog(file, `cannot be read (${(e as Error).message})`);
  }
  let v: LogFile;
  try {
    v = JSON.parse(text) as LogFile;
  } catch (e) {
    throw badLog(file, `is not valid JSON (${(e as Error).message})`);
  }
  if (v?.version !== 1 || !Array.isArray(v.records)) throw badLog(file, 'has an unknown format (expected {"version": 1, "records": [...]})');
  for (let i = 0; i < v.records.length; i++) {
    const bad = problem(v.records[i]);
    if (bad) throw badLog(file, `has an invalid record ${i + 1}: ${bad}`);
  }
  v.redo = Array.isArray(v.redo) ? v.redo.filter((x) => typeof x === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(x)) : [];
  return v;
}

function writeLog(file: string, log: LogFile): void {
  mkdirSync(path.dirname(file), { recursive: true });
  replaceFileSync(file, JSON.stringify(log, null, 2) + '\n');
}

async function withLog<T>(root: string, fn: (file: string, log: LogFile) => T): Promise<T> {
  const common = await commonDir(root);
  const file = undoLogFile(common);
  const release = await acquireLock(undoLogLockFile(common), 'the undo log', 10_000);
  try {
    return fn(file, readLog(file));
  } finally {
    release();
  }
}

/**
 * Appends a rollback to the undo log of the repository containing `root` (so
 * `git kizu undo` reverses it next). Call it after the rollback changed the working tree.
 * @throws KizuError (exit 2) for an invalid record (a message naming the field), an
 *   unreadable log, or a log locked for more than 10 s; fs errors writing it.
 */
export async function recordRollback(root: string, r: RollbackRecord): Promise<void> {
  const bad = problem(r);
  if (bad) throw new KizuError(`invalid rollback record: ${bad}`, { hint: 'this is a bug in the calling git kizu command' });
  const rec: RollbackRecord = {
    level: r.level,
    time: r.time,
    safetySnapshot: r.safetySnapshot,
    description: r.description,
    ...(r.undo ? { undo: { ...r.undo } } : {}),
    ...(r.changed ? { changed: r.changed.map((c) => ({ path: c.path, sha256: c.sha256 })) } : {}),
    ...(r.journalEntry ? { journalEntry: r.journalEntry } : {}),
  };
  await withLog(root, (file, log) => {
    log.records.push(rec);
    writeLog(file, log);
  });
}

/**
 * Checks that the undo log of the repository containing `root` can be read and extended, so
 * that a rollback about to change files will be able to record itself. Rollback commands
 * call it before their first write.
 * @throws KizuError (exit 2) naming the file and how to move it aside, for a log that cannot
 *   be read or is invalid (see the module comment).
 */
export async function checkUndoLog(root: string): Promise<void> {
  readLog(await rollbackLogPath(root));
}

/**
 * The undo log, oldest first.
 * @throws KizuError (exit 2) if the log cannot be read.
 */
export async function readRollbacks(root: string): Promise<RollbackRecord[]> {
  return readLog(await rollbackLogPath(root)).records;
}

/**
 * Removes the newest record if it is still `expected` (same time and safety snapshot).
 * @param redo the commit id of the safety snapshot the undo took (kept protected as a redo
 *   point, the newest {@link REDO_KEPT}).
 * @returns true if removed, false if the log changed in between.
 */
export async function popRollback(root: string, expected: RollbackRecord, redo?: string): Promise<boolean> {
  return withLog(root, (file, log) => {
    const last = log.records[log.records.length - 1];
    if (!last || last.time !== expected.time || last.safetySnapshot !== expected.safetySnapshot) return false;
    log.records.pop();
    if (redo) log.redo = [...(log.redo ?? []).filter((x) => x !== redo), redo].slice(-REDO_KEPT);
    writeLog(file, log);
    return true;
  });
}

/**
 * Commit ids of the snapshots the undo log refers to: the records' safety snapshots, and the
 * redo points of the last undos.
 * @throws KizuError (exit 2) if the log cannot be read (callers then drop nothing).
 */
export async function protectedSnapshots(root: string): Promise<Set<string>> {
  const log = readLog(await rollbackLogPath(root));
  return new Set([...log.records.map((r) => r.safetySnapshot), ...(log.redo ?? [])]);
}

/**
 * Removes the oldest records of the undo log (retention, storage/retention.ts) if they are
 * still `expected` (same times and safety snapshots, oldest first); the redo points stay.
 * @returns true if removed, false if the log's oldest records changed in between.
 * @throws KizuError (exit 2) if the log cannot be read or stays locked.
 */
export async function trimRollbacks(root: string, expected: RollbackRecord[]): Promise<boolean> {
  return withLog(root, (file, log) => {
    const same = expected.every((e, k) => log.records[k] && log.records[k].time === e.time && log.records[k].safetySnapshot === e.safetySnapshot);
    if (!same) return false;
    log.records.splice(0, expected.length);
    writeLog(file, log);
    return true;
  });
}
