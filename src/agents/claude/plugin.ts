/**
 * git-kizu as a Claude Code plugin. The plugin is the directory plugin/ of this repository
 * (`plugin/.claude-plugin/plugin.json`, `plugin/hooks/hooks.json`, and `plugin/commands/kizu.md`,
 * the copy of `.claude/commands/kizu.md` that `npm run build` writes: the client loads no
 * symlinked command and no path outside the plugin); the repository root is a one-plugin
 * marketplace (`.claude-plugin/marketplace.json`, source `./plugin`). Not
 * the root itself: Claude Code 2.1.332 runs `npm ci` in its copy of a plugin whose root holds
 * package.json and a lockfile (every dependency, devDependencies too), and nothing turns that off.
 * The plugin holds no git-kizu, so its hooks run `hooks/kizu-plugin-hook.sh`, which runs the
 * git-kizu on PATH. The hooks are the ones `git kizu init` writes into `.claude/settings.json`
 * (kizuEntries: same events, matchers, timeouts); only the command differs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../hooks/contract.js';
import { shellQuote } from '../../words.js';
import { kizuEntries, type MatcherGroup } from './settings.js';

/** The plugin's name (plugin.json `name`; the `/kizu` command is `git-kizu:kizu` in the client). */
export const PLUGIN_NAME = 'git-kizu';
/** The marketplace's name (marketplace.json `name`): the plugin's id is `git-kizu@git-kizu`. */
export const MARKETPLACE_NAME = 'git-kizu';
/** The plugin's directory, relative to the repository root (the marketplace entry's source). */
export const PLUGIN_DIR = 'plugin';
/** The hook runner inside the plugin, relative to the plugin root. */
export const PLUGIN_HOOK_SCRIPT = 'hooks/kizu-plugin-hook.sh';

/**
 * The command line hooks/hooks.json runs for `hook`:
 * `sh "${CLAUDE_PLUGIN_ROOT}/hooks/kizu-plugin-hook.sh" <hook>`. Claude Code expands
 * `${CLAUDE_PLUGIN_ROOT}` to the plugin's directory (the copy in its plugin cache, or the
 * `--plugin-dir` directory); run by `sh` so the copy needs no executable bit.
 */
export function pluginHookCommand(hook: AgentEvent): string {
  return `sh "\${CLAUDE_PLUGIN_ROOT}/${PLUGIN_HOOK_SCRIPT}" ${hook}`;
}

/**
 * The `hooks` object of hooks/hooks.json: event name → matcher groups, one group per
 * kizuEntries entry in its order (Stop, SubagentStop, PostToolUse review and async journal,
 * UserPromptSubmit, PreToolUse gate), each running {@link pluginHookCommand}.
 */
export function pluginHooks(): Record<string, MatcherGroup[]> {
  const hooks: Record<string, MatcherGroup[]> = {};
  for (const entry of kizuEntries(pluginHookCommand)) (hooks[entry.event] ??= []).push(entry.group);
  return hooks;
}

/**
 * The two shell commands that install the plugin for the user (user scope): add this
 * repository's marketplace from `source` (GitHub `owner/repo`, a git URL or a local path; `claude
 * plugin marketplace add` takes each; shell-quoted when it needs it), then install
 * `git-kizu@git-kizu` from it. Checked with Claude Code 2.1.332 against a local clone: the
 * first adds the marketplace to ~/.claude/settings.json `extraKnownMarketplaces`, the second
 * copies the plugin into ~/.claude/plugins/cache and enables it (`enabledPlugins`).
 */
export function pluginInstallCommands(source: string): [string, string] {
  return [`claude plugin marketplace add ${shellQuote(source)}`, `claude plugin install ${PLUGIN_NAME}@${MARKETPLACE_NAME}`];
}

/** Whether `~/.claude/settings.json` enables the git-kizu plugin (`enabledPlugins["git-kizu@git-kizu"]`). */
export function pluginEnabled(home: string): boolean {
  try {
    const v = JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8')) as { enabledPlugins?: Record<string, unknown> };
    return v.enabledPlugins?.[`${PLUGIN_NAME}@${MARKETPLACE_NAME}`] === true;
  } catch {
    return false;
  }
}
