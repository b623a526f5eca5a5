/**
 * What else in Claude Code's settings can weaken git-kizu's hooks besides `disableAllHooks`
 * (install/integrity.ts reads the settings files and calls these on each parsed object):
 *
 * - the `env` key (Claude Code settings: "Environment variables that will be applied to every
 *   session"; the hooks it starts inherit them): a variable that redirects git (which
 *   repository, index, objects, config), node, `PATH` (which `git-kizu`, `node`, `git` the
 *   runner finds) or git-kizu itself makes the hooks check something else than the human
 *   looks at. {@link REDIRECTING_ENV} is the one table, each key with why it matters.
 * - other hooks on the events git-kizu relies on (Claude Code hooks reference: every
 *   matching hook of every settings file runs, in parallel; a hook answering
 *   `{"continue": false}` stops Claude, and that takes precedence over a Stop hook's
 *   `"decision": "block"`: measured on the real client 2.1.332, test/e2e/integrity.test.mjs; on
 *   PreToolUse the most restrictive decision wins, so another hook's `allow` cannot lift
 *   git-kizu's deny: measured, test/e2e/claude-pre-tool.test.mjs). A foreign Stop or
 *   SubagentStop hook can therefore end the turn before git-kizu's check holds it: a warning. One on PreToolUse, PostToolUse or
 *   UserPromptSubmit cannot lift a git-kizu answer: named as a note only.
 *
 * Codex CLI's `shell_environment_policy` shapes the shell tool's environment, not its hooks',
 * and Gemini CLI's settings have no environment key for hooks; so only Claude Code's are read.
 */
import { anyOurs } from '../agents/hook-commands.js';

/** One environment variable that redirects what the hooks run against. */
export interface RedirectingVar {
  /** The variable, or a prefix ending in `*` (`GIT_CONFIG_KEY_*`). */
  key: string;
  /** Why it matters, completing "it ..." (`points git at another repository`). */
  why: string;
}

/**
 * The variables that, set in the settings' `env`, change what git-kizu's hooks run or check.
 * Keep README "Doctor" (the list after "the settings' `env`") in step.
 */
export const REDIRECTING_ENV: readonly RedirectingVar[] = [
  { key: 'GIT_DIR', why: 'points git at another repository' },
  { key: 'GIT_WORK_TREE', why: 'points git at another working tree' },
  { key: 'GIT_COMMON_DIR', why: 'points git at another repository' },
  { key: 'GIT_INDEX_FILE', why: 'makes git read another index' },
  { key: 'GIT_OBJECT_DIRECTORY', why: 'makes git read objects from elsewhere' },
  { key: 'GIT_ALTERNATE_OBJECT_DIRECTORIES', why: 'makes git read objects from elsewhere' },
  { key: 'GIT_CEILING_DIRECTORIES', why: 'can stop git from finding the repository' },
  { key: 'GIT_DISCOVERY_ACROSS_FILESYSTEM', why: 'changes which repository git finds' },
  { key: 'GIT_NAMESPACE', why: 'makes git see other refs' },
  { key: 'GIT_CONFIG', why: "replaces git's config" },
  { key: 'GIT_CONFIG_GLOBAL', why: "replaces git's global config (core.hooksPath, aliases)" },
  { key: 'GIT_CONFIG_SYSTEM', why: "replaces git's system config" },
  { key: 'GIT_CONFIG_NOSYSTEM', why: "drops git's system config" },
  { key: 'GIT_CONFIG_COUNT', why: 'adds git config (core.hooksPath, aliases) for every git run' },
  { key: 'GIT_CONFIG_KEY_*', why: 'adds git config for every git run' },
  { key: 'GIT_CONFIG_VALUE_*', why: 'adds git config for every git run' },
  { key: 'GIT_CONFIG_PARAMETERS', why: 'adds git config for every git run' },
  { key: 'GIT_EXEC_PATH', why: "runs git's programs from another directory" },
  { key: 'PATH', why: 'decides which git-kizu, node and git the hooks run' },
  { key: 'NODE_OPTIONS', why: 'can load code into git-kizu (--require, --import)' },
  { key: 'NODE_PATH', why: 'changes where node finds modules' },
  { key: 'HOME', why: "moves ~/.claude, git's global config and the user-scope install" },
  { key: 'XDG_CONFIG_HOME', why: "moves git's global config" },
  { key: 'CLAUDE_PROJECT_DIR', why: 'decides which runner the project hooks start' },
  { key: 'LD_PRELOAD', why: 'loads code into every program the hooks start' },
  { key: 'LD_LIBRARY_PATH', why: 'changes the libraries every program loads' },
  { key: 'DYLD_*', why: 'loads code into every program the hooks start (macOS)' },
  { key: 'BASH_ENV', why: 'runs a script before every shell the hooks start' },
  { key: 'ENV', why: 'runs a script before every shell the hooks start' },
  { key: 'KIZU_*', why: "changes git-kizu's own behaviour (KIZU_SKIP skips the guard)" },
];

/** The table's entry for `name`, or undefined when it redirects nothing. */
export function redirectingVar(name: string): RedirectingVar | undefined {
  return REDIRECTING_ENV.find((v) => (v.key.endsWith('*') ? name.startsWith(v.key.slice(0, -1)) : name === v.key));
}

/** A weakness found in one settings object; install/integrity.ts turns it into a finding with the file. */
export interface SettingsRisk {
  /** One sentence without the file. */
  what: string;
  /** The edit that removes it. */
  fix: string;
  /** `warn`: can switch review off (shown by the prompt hook too); `info`: named, nothing to fix. */
  level: 'warn' | 'info';
}

/**
 * The `env` keys of a parsed settings object that redirect git-kizu's hooks
 * ({@link REDIRECTING_ENV}), one risk for each (level `warn`), in the object's key order.
 * @param file the settings file, for the fix.
 */
export function envRisks(settings: Record<string, unknown>, file: string): SettingsRisk[] {
  const env = settings.env;
  if (!env || typeof env !== 'object' || Array.isArray(env)) return [];
  const out: SettingsRisk[] = [];
  for (const name of Object.keys(env)) {
    const v = redirectingVar(name);
    if (!v) continue;
    out.push({ what: `"env" sets ${name} for every hook, and it ${v.why}`, fix: `remove "${name}" from the "env" key in ${file}`, level: 'warn' });
  }
  return out;
}

/** The Claude Code events git-kizu's hooks run on, and how much another hook there matters. */
const WATCHED_EVENTS: readonly (readonly [string, 'warn' | 'info'])[] = [
  ['Stop', 'warn'],
  ['SubagentStop', 'warn'],
  ['PreToolUse', 'info'],
  ['UserPromptSubmit', 'info'],
  ['PostToolUse', 'info'],
];

/**
 * The hooks in a parsed settings object that are not git-kizu's, on the events git-kizu's
 * hooks run on: one risk per handler (its command, or its type for a prompt or agent hook),
 * `warn` on Stop and SubagentStop (it can end the turn before git-kizu's check), `info` on
 * the others. An object without `hooks` has none.
 * @param file the settings file, for the fix.
 */
export function foreignHookRisks(settings: Record<string, unknown>, file: string): SettingsRisk[] {
  const hooks = settings.hooks;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return [];
  const out: SettingsRisk[] = [];
  for (const [event, level] of WATCHED_EVENTS) {
    const groups = (hooks as Record<string, unknown>)[event];
    for (const g of Array.isArray(groups) ? groups : []) {
      const hs = (g as { hooks?: unknown } | null)?.hooks;
      for (const h of Array.isArray(hs) ? hs : []) {
        const cmd = (h as { command?: unknown } | null)?.command;
        if (typeof cmd === 'string' && anyOurs(cmd)) continue;
        const shown = typeof cmd === 'string' ? cmd : `a ${String((h as { type?: unknown } | null)?.type ?? 'hook')} hook`;
        out.push(
          level === 'warn'
            ? {
                what: `another hook on ${event}: ${shown}; it runs beside git-kizu's, and an answer {"continue": false} from it ends the turn before git-kizu's check holds it`,
                fix: `if it is not yours, remove it from the "hooks"."${event}" key in ${file}`,
                level,
              }
            : { what: `another hook on ${event}: ${shown} (it cannot lift git-kizu's answer)`, fix: 'nothing to do if it is yours', level },
        );
      }
    }
  }
  return out;
}
