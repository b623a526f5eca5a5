/**
 * The launcher: one small sh script per clone (`<common-dir>/kizu/git-kizu`) and one per
 * user-scope install (`~/.claude/kizu/git-kizu`), rendered from `templates/hooks/launcher`.
 * It records this machine's absolute paths of node and of git-kizu's bin, which no committed
 * file may hold (a teammate's clone has other paths): the hook runner in `.claude/hooks/`,
 * the pre-commit hook and the lines kizu adds to hook managers' configs find the launcher at
 * run time (`git rev-parse --git-common-dir`) and run `<launcher> hook <event>`.
 *
 * The launcher runs the recorded node and bin; else `git-kizu` from PATH when node is on
 * PATH too; else it prints one line on stderr and exits 0 (never 126/127), so a missing
 * runtime never blocks a commit or an agent.
 *
 * Its life: every `git kizu init` (re)writes it; the `teardown` that removes the last install
 * record using it deletes it ({@link removeUnusedLauncher}).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { replaceFileSync } from '../files.js';
import { shellQuote } from '../words.js';
import { recordedBinPath, TEMPLATES_DIR } from './scripts.js';

/** The launcher's text for this process's node (`process.execPath`) and bin ({@link recordedBinPath}). */
export function renderLauncher(node = process.execPath, bin = recordedBinPath()): string {
  const text = readFileSync(path.join(TEMPLATES_DIR, 'hooks', 'launcher'), 'utf8');
  return text.replace('{{NODE}}', shellQuote(node)).replace('{{KIZU_BIN}}', shellQuote(bin));
}

/**
 * Writes the launcher to `file` (mode 0755, atomically, creating its directory) unless it
 * already holds exactly that text and mode. The file is git-kizu's own (under a git dir or
 * `~/.claude/kizu/`), so it is replaced whatever it held (a symbolic link there included:
 * the link is replaced, not followed).
 * @returns 'created', 'updated' or 'unchanged'.
 * @throws the fs error (EACCES, ...).
 */
export async function writeLauncher(file: string, text = renderLauncher()): Promise<'created' | 'updated' | 'unchanged'> {
  let before: string | null = null;
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    /* absent */
  }
  if (before === text) {
    if ((statSync(file).mode & 0o777) === 0o755) return 'unchanged';
    chmodSync(file, 0o755);
    return 'updated';
  }
  mkdirSync(path.dirname(file), { recursive: true });
  // Replaced, never written through a symbolic link that may stand there.
  replaceFileSync(file, text, { mode: 0o755 });
  return before === null ? 'created' : 'updated';
}


/**
 * Deletes the launcher `file` when none of `records` exists any more (teardown of the last
 * install that runs it: for the clone's launcher the records of state.ts `cloneRecordFiles`,
 * for the user's `~/.claude/kizu/install-user.json`). A symbolic link at `file` is removed
 * itself. Never throws for a missing file.
 * @returns true if it was deleted.
 */
export function removeUnusedLauncher(file: string, records: string[]): boolean {
  if (records.some((f) => existsSync(f))) return false;
  try {
    lstatSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}
