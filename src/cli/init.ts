/** `git kizu init [--agent <list>] [--via settings|plugin] [--scope project|local|user] [--no-pre-commit]`: see src/install/install.ts. */
import type { Reporter } from '../output.js';
import { runInit } from '../install/install.js';
import { parseAgentList, type ClaudeVia } from '../install/agents.js';
import type { Scope } from '../install/targets.js';
import { findRootFast } from '../git/repo.js';
import { configFindings } from '../config/findings.js';

export interface InitCommandInput {
  /** Directory the command runs in. */
  cwd: string;
  /** Settings scope to install into. */
  scope: Scope;
  /** The pre-commit guard: true with `--pre-commit`, false with `--no-pre-commit`, undefined: on except for user scope. */
  preCommit?: boolean;
  /** `--agent` as typed (comma-separated agent names); undefined: the agents whose configuration folders exist, else claude. */
  agent?: string;
  /** `--via`: how Claude Code gets its hooks (default settings). */
  via?: ClaudeVia;
  reporter: Reporter;
  /** Home directory for `--scope user` (default: the HOME environment variable). */
  home?: string;
}

/**
 * Installs the agents' hooks (Claude Code: the hook runner, settings entries and the /kizu
 * slash command, or with `--via plugin` the plugin commands printed), and the git pre-commit guard.
 * @returns the exit code (0).
 * @throws KizuError (exit 2, nothing written) for an unknown agent, an agent without the
 *   scope, outside a repository for project/local scope, for an invalid settings file, or
 *   when an existing pre-commit hook cannot be chained.
 */
export async function initCommand(i: InitCommandInput): Promise<number> {
  const code = await runInit({ ...i, agents: i.agent !== undefined ? parseAgentList(i.agent) : undefined });
  // A repository someone else configured: its config's findings (config/findings.ts), named once here.
  const root = findRootFast(i.cwd);
  if (root) for (const f of await configFindings(root)) i.reporter.log(`note: ${f.detail}; ${f.fix}`);
  return code;
}
