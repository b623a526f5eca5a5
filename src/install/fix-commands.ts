/**
 * The commands `status` and `doctor` print to fix a missing piece of the install, chosen from
 * the install record that applies to the repository (this worktree's project record, else its
 * local record, else the user record): a fix re-runs the install that was made, so it never
 * adds hooks of another scope or agent (which would then run twice) nor Claude Code settings
 * where Claude Code gets its hooks from the plugin.
 */
import { installRecordFile, userInstallRecordFile } from '../git/layout.js';
import { AGENTS, type AgentName } from '../agents/registry.js';
import { PACKAGE_ROOT } from '../package.js';
import { pluginInstallCommands } from '../agents/claude/plugin.js';
import { readRecord } from './state.js';
import type { Scope } from './targets.js';

/** What an install record says was installed. */
export interface RecordedInstall {
  /** The record's scope. */
  scope: Scope;
  /** How Claude Code gets its hooks: its settings file, the plugin, or not at all. */
  claude: 'settings' | 'plugin' | 'none';
  /** The agents installed (`--agent`), in the registry's order; Claude Code included unless `claude` is `none`. */
  agents: AgentName[];
  /** The install ran with `--no-pre-commit` (project and local scope). */
  noPreCommit?: boolean;
}

/**
 * The install record that applies to a repository: `<gitDir>/kizu/install-project.json`, else
 * `install-local.json`, else the user record `~/.claude/kizu/install-user.json`.
 * @param gitDir the worktree's git dir, or null outside a repository (only the user record applies).
 * @returns what it says, or null when there is none (or none is readable). Never throws.
 */
export function recordedInstall(gitDir: string | null, home: string): RecordedInstall | null {
  const files: [Scope, string][] = [
    ...(gitDir ? (['project', 'local'] as const).map((s): [Scope, string] => [s, installRecordFile(gitDir, s)]) : []),
    ['user', userInstallRecordFile(home)],
  ];
  for (const [scope, file] of files) {
    const rec = readRecord(file);
    if (!rec) continue;
    const claude = rec.claude ?? 'settings';
    const others = Object.keys(rec.agents ?? {});
    const agents = AGENTS.filter((a) => (a === 'claude' ? claude !== 'none' : others.includes(a)));
    return { scope, claude, agents, ...(rec.noPreCommit ? { noPreCommit: true } : {}) };
  }
  return null;
}

/** `claude plugin marketplace add <package dir> && claude plugin install git-kizu@git-kizu`: what `init --via plugin` prints, as one command. */
export function pluginFix(root = PACKAGE_ROOT): string {
  return pluginInstallCommands(root).join(' && ');
}

/**
 * The command that puts back the pre-commit guard (and this clone's launcher) of the
 * repository, for a guard whose fix is `git kizu init`:
 * - a user-scope install: `git kizu init --scope user --agent <its agents> [--via plugin] --pre-commit`
 *   (the guard in this repository; the user-scope hooks as they are, no project hooks);
 * - Claude Code by the plugin (the record says so, or no record and the plugin is enabled):
 *   `git kizu init --agent <agents> --via plugin` (no Claude Code settings);
 * - a project install: the same install ({@link reinstallFix}: its agents named, so that an
 *   agent whose folder appeared since is not added);
 * - a local install: `git kizu init` (local scope leaves the files it shares with the team,
 *   a hook manager's, to project scope);
 * - no record: `git kizu init`.
 * @param plugin whether the git-kizu plugin is enabled (agents/claude/plugin.ts `pluginEnabled`).
 */
export function guardFix(inst: RecordedInstall | null, plugin: boolean): string {
  if (!inst) return plugin ? 'git kizu init --agent claude --via plugin' : 'git kizu init';
  if (inst.scope === 'user') return reinstallFix(inst, true);
  // A local install leaves files shared with the team (a hook manager's) to project scope.
  if (inst.scope === 'local') return 'git kizu init';
  // The guard is what is missing: without the install's --no-pre-commit.
  return reinstallFix({ ...inst, noPreCommit: false }, false);
}

/**
 * The `init` that rewrites the launchers after git-kizu is installed again: in a repository
 * {@link guardFix}; outside one the user-scope install as recorded (`git kizu init --scope
 * user --agent <its agents> [--via plugin]`), or `git kizu init --scope user` without a record.
 */
export function launcherFix(inst: RecordedInstall | null, plugin: boolean, inRepo: boolean): string {
  if (inRepo) return guardFix(inst, plugin);
  if (inst?.scope !== 'user') return 'git kizu init --scope user';
  return `git kizu init --scope user${inst.agents.length ? ` --agent ${inst.agents.join(',')}` : ''}${inst.claude === 'plugin' ? ' --via plugin' : ''}`;
}

/**
 * The command that gives Claude Code git-kizu's hooks when no settings file runs them:
 * - the record says Claude Code goes by the plugin: the two `claude plugin` commands ({@link pluginFix});
 * - the record leaves Claude Code out (`--agent` without claude), or there is no record and
 *   other agents have the hooks: null (nothing missing);
 * - a user-scope record: `git kizu init --scope user --agent claude`;
 * - a project or local record: that install again ({@link reinstallFix});
 * - no record (never installed): `git kizu init` in a repository, `git kizu init --scope user` outside one.
 * @param othersInstalled whether any other agent has git-kizu's hooks in some scope.
 */
export function claudeFix(inst: RecordedInstall | null, othersInstalled: boolean, inRepo: boolean): string | null {
  if (inst?.claude === 'plugin') return pluginFix();
  if (inst?.claude === 'none' || (!inst && othersInstalled)) return null;
  if (inst?.scope === 'user') return 'git kizu init --scope user --agent claude';
  if (inst && inRepo) return reinstallFix(inst, false);
  return inRepo ? 'git kizu init' : 'git kizu init --scope user';
}

/**
 * The command that re-runs exactly the install a record says was made, for install
 * integrity (install/integrity.ts): every file it wrote is written again as init writes it now.
 * - project scope: `git kizu init --agent <agents>` (always named: without `--agent`, init
 *   adds every agent whose folder exists now, in the repository or the home directory),
 *   plus `--via plugin` when Claude Code goes by the plugin;
 * - local scope: `git kizu init --scope local`;
 * - project and local scope: plus `--no-pre-commit` when that install left the guard out;
 * - user scope: `git kizu init --scope user --agent <agents> [--via plugin]`, plus
 *   `--pre-commit` when that install put the guard into this repository.
 * @param guard whether the record installed the pre-commit guard (user scope only).
 */
export function reinstallFix(inst: RecordedInstall, guard: boolean): string {
  const agents = inst.agents.length ? ` --agent ${inst.agents.join(',')}` : '';
  const via = inst.claude === 'plugin' ? ' --via plugin' : '';
  const off = inst.noPreCommit ? ' --no-pre-commit' : '';
  if (inst.scope === 'local') return `git kizu init --scope local${off}`;
  if (inst.scope === 'user') return `git kizu init --scope user${inst.agents.length ? ` --agent ${inst.agents.join(',')}` : ''}${via}${guard ? ' --pre-commit' : ''}`;
  return `git kizu init${agents}${via}${off}`;
}
