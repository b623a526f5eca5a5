/** `git kizu teardown [--agent <list>] [--scope project|local|user]`: see src/install/install.ts. */
import type { Reporter } from '../output.js';
import { runTeardown } from '../install/install.js';
import { parseAgentList } from '../install/agents.js';
import type { Scope } from '../install/targets.js';

export interface TeardownCommandInput {
  /** Directory the command runs in. */
  cwd: string;
  /** Settings scope to remove from. */
  scope: Scope;
  /** `--agent` as typed (comma-separated); undefined: everything init installed for the scope. */
  agent?: string;
  reporter: Reporter;
  /** Home directory for `--scope user` (default: the HOME environment variable). */
  home?: string;
}

/**
 * Removes exactly what `git kizu init` added for the scope (or only the named agents' hooks)
 * and restores a chained pre-commit hook once no agent's hooks are left.
 * @returns the exit code (0, also when nothing was installed).
 * @throws KizuError (exit 2, nothing changed) for an unknown agent, outside a repository for
 *   project/local scope or for an invalid settings file.
 */
export function teardownCommand(i: TeardownCommandInput): Promise<number> {
  return runTeardown({ ...i, agents: i.agent !== undefined ? parseAgentList(i.agent) : undefined });
}
