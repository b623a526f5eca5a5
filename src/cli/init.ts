/** `git kizu init [--scope project|local|user] [--no-pre-commit]`: see src/install/install.ts. */
import type { Reporter } from '../output.js';
import { runInit } from '../install/install.js';
import type { Scope } from '../install/targets.js';

export interface InitCommandInput {
  /** Directory the command runs in. */
  cwd: string;
  /** Claude Code settings scope to install into. */
  scope: Scope;
  /** The pre-commit guard: true with `--pre-commit`, false with `--no-pre-commit`, undefined: on except for user scope. */
  preCommit?: boolean;
  reporter: Reporter;
  /** Home directory for `--scope user` (default: the HOME environment variable). */
  home?: string;
}

/**
 * Installs the Claude Code hooks, the /kizu slash command and the git pre-commit hook.
 * @returns the exit code (0).
 * @throws KizuError (exit 2, nothing written) outside a repository for project/local scope,
 *   for an invalid settings file, or when an existing pre-commit hook cannot be chained.
 */
export function initCommand(i: InitCommandInput): Promise<number> {
  return runInit(i);
}
