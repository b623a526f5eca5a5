/**
 * The background trigger of retention: the prompt hook (hooks/prompt-snapshot.ts) calls
 * {@link startAutoGc} after its snapshot, which starts `git-kizu gc --auto` as a detached
 * process at most once per {@link AUTO_INTERVAL_MS} and never waits for it. The interval is
 * kept as the modification time of `<common-dir>/kizu/gc-auto.json` (git/layout.ts
 * gcAutoFile), which the background run also writes its outcome to. One `stat` when it is not
 * time yet; node:child_process is loaded only when a run is started.
 */
import { mkdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { gcAutoFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';
import { BIN_PATH } from '../package.js';

/** At most one background `gc --auto` per this many ms (one hour; hooks/prompt-snapshot.ts checks the stamp against the same value before loading this module). */
export const AUTO_INTERVAL_MS = 60 * 60 * 1000;

/**
 * One `stat` of the stamp: true when it is missing or at least {@link AUTO_INTERVAL_MS} old.
 * @param common the common git dir.
 */
export function autoGcMayBeDue(common: string): boolean {
  try {
    return Date.now() - statSync(gcAutoFile(common)).mtimeMs >= AUTO_INTERVAL_MS;
  } catch {
    return true;
  }
}

/**
 * Starts `git-kizu gc --auto` in the background in the repository at `root` when the last one
 * started at least {@link AUTO_INTERVAL_MS} ago. In a repository without the stamp file, the
 * file is written and nothing is started (a new install has nothing to prune yet).
 * @param common the common git dir.
 * @returns true if a background run was started.
 * Never throws: a failure to start is no reason to fail the hook.
 */
export async function startAutoGc(root: string, common: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = gcAutoFile(common);
  try {
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      mkdirSync(path.dirname(file), { recursive: true });
      replaceFileSync(file, JSON.stringify({ time: new Date().toISOString(), state: 'never' }) + '\n');
      return false;
    }
    if (Date.now() - mtime < AUTO_INTERVAL_MS) return false;
    const now = new Date();
    utimesSync(file, now, now); // claimed: the next prompts within the hour start none
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN_PATH, 'gc', '--auto'], { cwd: root, env, detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
