/** `git kizu teardown [--scope project|local|user]`: see src/install/install.ts. */
import type { Reporter } from '../output.js';
import { runTeardown } from '../install/install.js';
import type { Scope } from '../install/targets.js';

export interface TeardownCommandInput {
  /** Directory the command runs in. */
  cwd: string;
  /** Claude Code settings scope to remove from. */
  scope: Scope;
  reporter: Reporter;
  /** Home directory for `--scope user` (default: the HOME environment variable). */
  home?: string;
}

/**
 * Removes exactly what `git kizu init` added for the scope and restores a chained pre-commit hook.
 * @returns the exit code (0, also when nothing was installed).
 * @throws KizuError (exit 2, nothing changed) outside a repository for project/local scope or
 *   for an invalid settings file.
 */
export function teardownCommand(i: TeardownCommandInput): Promise<number> {
  return runTeardown(i);
}
