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
import { NO_ANSWER, type HookAnswer, type PreToolInput } from './contract.js';
import { judge } from '../gates/engine.js';
import { gateReason, gateUserMessage } from './text.js';

/**
 * Judges the call of `input`.
 * @returns `none` when it may run; `deny` or `ask` with the reason for the agent and a line
 *   for the user naming the rule.
 * @throws Error when the shell grammar cannot be loaded (run.ts then fails closed).
 */
export async function preToolUse(input: PreToolInput): Promise<HookAnswer> {
  const v = await judge(input.call, { cwd: input.cwd, home: process.env.HOME || homedir() });
  if (!v) return NO_ANSWER;
  return { kind: v.strength, reason: gateReason(v, input.tool), userMessage: gateUserMessage(v, input.tool) };
}
