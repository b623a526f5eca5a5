/**
 * Which hook commands in an agent's settings are git-kizu's: tests on a handler's `command`
 * text. Apart from the settings editor (hooks-json.ts, which loads jsonc-parser), so that
 * checks that only read settings (the prompt hook's integrity check) load no parser.
 */
import { HOOK_SCRIPT, LEGACY_HOOK_SCRIPTS } from '../install/targets.js';
import type { AgentEvent } from '../hooks/contract.js';

/** Every script name git-kizu installs or installed (a command naming one is ours; used on teardown). */
export const KIZU_SCRIPTS: string[] = [HOOK_SCRIPT, ...Object.values(LEGACY_HOOK_SCRIPTS).filter((s): s is string => s !== undefined)];

/**
 * A command running a launcher (install/launcher.ts: `<common-dir>/kizu/git-kizu` or
 * `~/.claude/kizu/git-kizu`, its path possibly quoted) with `hook`: what local-scope
 * settings run. Group 1 is the event.
 */
const LAUNCHER_HOOK = /\/kizu\/git-kizu['"]?\s+hook\s+([\w-]+)/;

/** A test on a handler's `command`: true if it is one of ours (of a given kind). */
export type CommandTest = (command: string) => boolean;

/** Any command naming one of {@link KIZU_SCRIPTS} or running a launcher's `hook`. */
export const anyOurs: CommandTest = (cmd) => KIZU_SCRIPTS.some((s) => cmd.includes(s)) || LAUNCHER_HOOK.test(cmd);

/**
 * The commands that run git-kizu's `hook`: the runner script with `hook` as its argument
 * (after the script's path, which may be quoted), a launcher run with `hook <hook>`, or the
 * script an earlier version generated for that hook.
 */
export function runsHook(hook: AgentEvent): CommandTest {
  const runner = new RegExp(`${HOOK_SCRIPT.replace('.', '\\.')}['"]?\\s+${hook}(?![\\w-])`);
  const legacy = LEGACY_HOOK_SCRIPTS[hook];
  return (cmd) => runner.test(cmd) || LAUNCHER_HOOK.exec(cmd)?.[1] === hook || (legacy !== undefined && cmd.includes(legacy));
}

