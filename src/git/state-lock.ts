/**
 * Lock files under `<git-dir>/kizu/` that serialise git-kizu's read-modify-write updates of
 * one piece of state (the review queue, scarred files), so that concurrent commands never
 * lose each other's writes.
 */
import { mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { KizuError } from '../errors.js';

/** True if the lock file's content names a process on this host that no longer runs. */
function lockOwnerGone(lock: string): boolean {
  try {
    const [pid, host] = readFileSync(lock, 'utf8').trim().split(' ');
    if (host !== hostname() || !/^\d+$/.test(pid)) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false;
  }
}

/**
 * Runs `fn` while holding `<git-dir>/kizu/<name>.lock` (an O_EXCL lock file holding
 * `<pid> <hostname>`; `what` names the guarded state in messages). A lock whose process is
 * gone (same host, no such pid: a command killed by Ctrl-C) or older than 30 s is taken to be left over and removed.
 * @throws KizuError (exit 2) if the lock cannot be taken within 10 s, or cannot be created
 *   at all (the git dir is not writable, `kizu` there is not a directory).
 */
export async function withLock<T>(gitDir: string, name: string, what: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(gitDir, 'kizu', `${name}.lock`);
  const cannot = (e: unknown) =>
    new KizuError(`cannot take ${what} lock ${lock} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, {
      hint: `make ${path.dirname(lock)} a writable directory`,
    });
  try {
    mkdirSync(path.dirname(lock), { recursive: true });
  } catch (e) {
    throw cannot(e);
  }
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      try {
        writeSync(fd, `${process.pid} ${hostname()}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(e);
      try {
        if (Date.now() - statSync(lock).mtimeMs > 30_000 || lockOwnerGone(lock)) rmSync(lock, { force: true });
      } catch {
        /* gone already */
      }
      if (Date.now() > deadline) {
        throw new KizuError(`${what} is locked by another git kizu process (${lock})`, { hint: `wait and retry; if no git kizu is running, delete ${lock}` });
      }
      await new Promise((r) => setTimeout(r, 15 + Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

