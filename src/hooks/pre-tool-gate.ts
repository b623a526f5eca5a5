/**
 * `pre-tool-use`: the gate in front of a tool call. It judges the call with the policy table
 * of src/gates/ (edits of git-kizu's config, hook files or anything under `.git/`; shell
 * commands that skip or switch off review, move git-kizu's refs or take the reviewer's acts)
 * and denies it with a reason the agent can act on, or asks the user where the rule says so
 * (an agent that cannot ask denies). Agent-neutral: the adapters turn the agent's payload
 * into a `PreToolInput` and render the `deny`/`ask` answer. It fails closed: an error here
 * makes src/hooks/run.ts refuse the call.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { NO_ANSWER, type HookAnswer, type PreToolInput } from './contract.js';
import { judge } from '../gates/engine.js';
import { gateReason, gateUserMessage } from './text.js';

/**
 * Judges the call of `input` (the home directory from `HOME`; the agents' user settings also
 * where `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `GIT_CONFIG_GLOBAL` and `XDG_CONFIG_HOME` put them).
 * @returns `none` when it may run; `deny` or `ask` with the reason for the agent and a line
 *   for the user naming the rule.
 * @throws Error when the shell grammar cannot be loaded (run.ts then fails closed).
 */
export async function preToolUse(input: PreToolInput): Promise<HookAnswer> {
  const env = process.env;
  const userHookPaths: string[] = [];
  if (env.CLAUDE_CONFIG_DIR) for (const f of ['settings.json', 'settings.local.json', 'hooks', 'kizu', 'commands/kizu.md']) userHookPaths.push(path.join(env.CLAUDE_CONFIG_DIR, f));
  if (env.CODEX_HOME) userHookPaths.push(env.CODEX_HOME);
  if (env.GIT_CONFIG_GLOBAL) userHookPaths.push(env.GIT_CONFIG_GLOBAL);
  // $XDG_CONFIG_HOME/git: git's user config, ignore and attributes files.
  if (env.XDG_CONFIG_HOME) userHookPaths.push(path.join(env.XDG_CONFIG_HOME, 'git'), path.join(env.XDG_CONFIG_HOME, 'kizu'));
  const v = await judge(input.call, { cwd: input.cwd, home: env.HOME || homedir(), userHookPaths });
  if (!v) return NO_ANSWER;
  return { kind: v.strength, reason: gateReason(v, input.tool), userMessage: gateUserMessage(v, input.tool) };
}
