/**
 * A small advisory lock file for the snapshot store and the undo log: created with O_EXCL
 * (`wx`), holding `<pid> <hostname> <ISO time>`. A lock whose process is gone (same host)
 * or that is older than {@link STALE_MS} is taken over. Waiters poll every 20 ms.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { KizuError } from '../errors.js';

/** A lock older than this (ms) is considered abandoned. */
export const STALE_MS = 10 * 60 * 1000;

function stale(file: string): boolean {
  try {
    const text = readFileSync(file, 'utf8');
    const [pid, host] = text.split(' ');
    if (host === hostname() && /^\d+$/.test(pid)) {
      try {
        process.kill(Number(pid), 0);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
      }
    }
    return Date.now() - statSync(file).mtimeMs > STALE_MS;
  } catch {
    return false; // vanished or unreadable: retry the create
  }
}

/**
 * Acquires the lock `file` (its directory is created), waiting up to `timeoutMs`.
 * @returns a function that releases it (idempotent).
 * @throws KizuError (exit 2) naming `what` if the lock is still held after `timeoutMs`.
 */
export async function acquireLock(file: string, what: string, timeoutMs: number): Promise<() => void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
      closeSync(fd);
      let held = true;
      return () => {
        if (held) rmSync(file, { force: true });
        held = false;
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (stale(file)) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new KizuError(`${what} is busy: another git kizu process holds ${file}`, {
        hint: `wait for it to finish and retry; if no git kizu process is running, delete ${file}`,
      });
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
