/**
 * The one advisory lock: a lock file created with O_EXCL (`wx`), holding
 * `<pid> <hostname> <ISO time>`. A lock whose process is gone (same host) or that is older
 * than its stale age is taken over. Waiters poll every 20 ms. Two entry points:
 * {@link acquireLock} (the snapshot store, the undo log: stale after {@link STALE_MS}) and
 * {@link withLock} (read-modify-write of one piece of state under `<git-dir>/kizu/`, the
 * review queue and scars.json: stale after {@link STATE_STALE_MS}).
 *
 * Taking over is serialized by a guard file `<file>.takeover` (same format, also created
 * with O_EXCL): only its holder re-reads the lock, re-checks that it is stale and removes it;
 * other waiters sleep and retry. Only guard holders remove a lock they do not own, and the
 * owner of a stale lock is gone, so the lock the guard holder re-read is still in place when
 * it removes it: a fresh lock created by another waiter is never removed. As a second check,
 * a lock is removed by renaming it aside (`<file>.<pid>.<random>.stale`) and deleting it only
 * if it holds the exact bytes judged stale; anything else is linked back. A guard whose
 * process is gone (same host) or older than {@link GUARD_STALE_MS} (its holder crashed or
 * hung) is removed the same way.
 */
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { stateLockFile } from './layout.js';

/** A lock taken with {@link acquireLock} older than this (ms) is considered abandoned. */
export const STALE_MS = 10 * 60 * 1000;

/** A lock taken with {@link withLock} older than this (ms) is considered abandoned (such locks are held for one small read-modify-write). */
export const STATE_STALE_MS = 30_000;

/** How long (ms) {@link withLock} waits for its lock. */
export const STATE_WAIT_MS = 10_000;

/** A takeover guard older than this (ms) is considered abandoned (it is held for a few syscalls). */
const GUARD_STALE_MS = 5_000;

/** The text and modification time of `file` (read through one descriptor), or null if it is gone or unreadable. */
function inspect(file: string): { text: string; mtimeMs: number } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    return { text: readFileSync(fd, 'utf8'), mtimeMs: fstatSync(fd).mtimeMs };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether a lock (or guard) with this content is abandoned: its process is gone (same host) or it is older than `maxAgeMs`. */
function stale(seen: { text: string; mtimeMs: number }, maxAgeMs: number): boolean {
  const [pid, host] = seen.text.trim().split(' ');
  if (host === hostname() && /^\d+$/.test(pid)) {
    try {
      process.kill(Number(pid), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
  }
  return Date.now() - seen.mtimeMs > maxAgeMs;
}

/** Creates `file` with O_EXCL holding our stamp; returns the stamp, or null if it exists. */
function create(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  }
  const stamp = `${process.pid} ${hostname()} ${new Date().toISOString()}\n`;
  try {
    writeSync(fd, stamp);
  } finally {
    closeSync(fd);
  }
  return stamp;
}

/**
 * Removes `file` if it holds exactly `text`: renames it aside (atomic: whatever is there is
 * taken), then deletes it if it is the one expected, else links it back (unless a newer one
 * appeared meanwhile). Never throws.
 * @returns true if `file` is gone (removed by us, or already missing), false if it was not
 * `text` or could not be moved.
 */
function removeIfSame(file: string, text: string): boolean {
  // Unique enough for a name only this process uses (node:crypto is not loaded for it).
  const aside = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}.stale`;
  try {
    renameSync(file, aside);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
  let got: string | null = null;
  try {
    got = readFileSync(aside, 'utf8');
  } catch {
    // unreadable: keep it
  }
  if (got !== text) {
    try {
      linkSync(aside, file);
    } catch {
      // a newer file is in place already
    }
  }
  rmSync(aside, { force: true });
  return got === text;
}

/**
 * Removes the lock `file` if it is still stale, holding the takeover guard; removes an
 * abandoned guard. Never removes a fresh lock.
 * @returns true to retry the create now, false to wait (the guard is busy, or the lock is live).
 */
function takeOver(file: string, staleMs: number): boolean {
  const guard = `${file}.takeover`;
  let stamp: string | null;
  try {
    stamp = create(guard);
  } catch {
    return false; // cannot create the guard: wait (and time out) like for a live lock
  }
  if (stamp === null) {
    const seen = inspect(guard);
    if (seen && stale(seen, GUARD_STALE_MS)) removeIfSame(guard, seen.text);
    return false;
  }
  try {
    const seen = inspect(file); // re-read under the guard: it may have been replaced meanwhile
    if (!seen) return true;
    return stale(seen, staleMs) && removeIfSame(file, seen.text);
  } finally {
    removeIfSame(guard, stamp);
  }
}

/** How one kind of lock behaves: when it is abandoned, and the errors it throws. */
interface LockRules {
  /** Age (ms) after which a lock is abandoned even if its process may still run. */
  staleMs: number;
  /** The error thrown when the lock is still held at the deadline. */
  busy: () => KizuError;
  /** The error thrown when the lock file cannot be created at all (default: the fs error itself). */
  cannot?: (e: unknown) => KizuError;
}

/**
 * Takes the lock `file` (its directory is created), waiting up to `timeoutMs`.
 * @returns a function that releases it (idempotent; a lock taken over from us meanwhile is left alone).
 * @throws `rules.busy()` at the deadline; `rules.cannot(e)` (or the fs error) if the directory or file cannot be created.
 */
async function take(file: string, timeoutMs: number, rules: LockRules): Promise<() => void> {
  const cannot = rules.cannot ?? ((e: unknown) => e);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (e) {
    throw cannot(e);
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let stamp: string | null;
    try {
      stamp = create(file);
    } catch (e) {
      throw cannot(e);
    }
    if (stamp !== null) {
      let held = true;
      return () => {
        if (held) removeIfSame(file, stamp); // not a lock taken over from us meanwhile
        held = false;
      };
    }
    const seen = inspect(file); // null: vanished (or unreadable): wait and retry the create
    if (seen && stale(seen, rules.staleMs) && takeOver(file, rules.staleMs)) continue;
    if (Date.now() >= deadline) throw rules.busy();
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Acquires the lock `file` (its directory is created), waiting up to `timeoutMs`; a lock
 * is abandoned after {@link STALE_MS} or when its process is gone (same host).
 * @returns a function that releases it (idempotent).
 * @throws KizuError (exit 2) naming `what` if the lock is still held after `timeoutMs`; the
 *   fs error if the lock file cannot be created.
 */
export async function acquireLock(file: string, what: string, timeoutMs: number): Promise<() => void> {
  return take(file, timeoutMs, {
    staleMs: STALE_MS,
    busy: () =>
      new KizuError(`${what} is busy: another git kizu process holds ${file}`, {
        hint: `wait for it to finish and retry; if no git kizu process is running, delete ${file}`,
      }),
  });
}

/**
 * Runs `fn` while holding `<git-dir>/kizu/<name>.lock` (`what` names the guarded state in
 * messages), so that concurrent read-modify-write updates of one piece of state never lose
 * each other's writes. A lock whose process is gone (same host: a command killed by Ctrl-C)
 * or older than {@link STATE_STALE_MS} is taken over; the wait is {@link STATE_WAIT_MS}.
 * @returns what `fn` returns (the lock is released however `fn` ends).
 * @throws KizuError (exit 2) if the lock cannot be taken within the wait, or cannot be
 *   created at all (the git dir is not writable, `kizu` there is not a directory); what `fn` throws.
 */
export async function withLock<T>(gitDir: string, name: string, what: string, fn: () => Promise<T>): Promise<T> {
  const lock = stateLockFile(gitDir, name);
  const release = await take(lock, STATE_WAIT_MS, {
    staleMs: STATE_STALE_MS,
    busy: () => new KizuError(`${what} is locked by another git kizu process (${lock})`, { hint: `wait and retry; if no git kizu is running, delete ${lock}` }),
    cannot: (e) =>
      new KizuError(`cannot take ${what} lock ${lock} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, {
        hint: `make ${path.dirname(lock)} a writable directory`,
      }),
  });
  try {
    return await fn();
  } finally {
    release();
  }
}

/** The lock files this async call chain holds through {@link withWorkTreeLock} (so that a nested call does not wait for itself). */
const heldHere = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Runs `fn` holding the working-tree write lock `<git-dir>/kizu/scars.lock` (the name it had
 * when only scars took it; see {@link withLock}). Every git-kizu command that rewrites a file
 * of the working tree from content it read takes it around the read and the write, and
 * checks under it that the file still holds what it planned from: `scar`, `unscar`,
 * `scar --undo`, `revert` (with or without -m, `--restore`), `patch apply`, `rollback patch`.
 * So two of them never lose each other's write. Re-entrant within one async call chain (a
 * nested call inside `fn` runs at once).
 * @returns what `fn` returns.
 * @throws KizuError (exit 2) as withLock when the lock cannot be taken; what `fn` throws.
 */
export async function withWorkTreeLock<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  const lock = stateLockFile(gitDir, 'scars');
  const held = heldHere.getStore();
  if (held?.has(lock)) return fn();
  return withLock(gitDir, 'scars', 'the working-tree write', () => heldHere.run(new Set([...(held ?? []), lock]), fn));
}
