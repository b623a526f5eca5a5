/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * Codex CLI reads on a command hook's stdout when it exits 0 (openai/codex
 * codex-rs/hooks/src/engine/output_parser.rs and events/stop.rs, as run with 0.171.0):
 * - Stop: `"decision": "block"` with a non-empty `reason` keeps Codex working; the reason
 *   reaches the model as a user message `<hook_prompt hook_run_id="stop:...">REASON</hook_prompt>`;
 * - PostToolUse: `hookSpecificOutput.additionalContext` reaches the model as a developer
 *   message before the tool output;
 * - PreToolUse: `hookSpecificOutput.permissionDecision` "deny" with a non-empty
 *   `permissionDecisionReason`: the call does not run, and the model reads "Command blocked
 *   by PreToolUse hook: REASON. Command: ..." as its output. Codex does not support "ask":
 *   it logs the answer as unsupported and RUNS the call (measured), so an ask is rendered
 *   as a deny;
 * - common field `systemMessage`: recorded as a warning entry of the hook run, which Codex
 *   shows to the user (not to the model).
 * Exactly one JSON object on one line, or nothing.
 */

import type { HookAnswer } from '../../hooks/contract.js';
import { renderDecisionJson } from '../answer-json.js';

/**
 * The answer as Codex reads it: deny and ask as a PreToolUse deny (see above); everything else
 * as agents/answer-json.ts `renderDecisionJson` (block, allow, context, nothing).
 */
export function renderAnswer(a: HookAnswer, hookEventName: string): string {
  if (a.kind !== 'deny' && a.kind !== 'ask') return renderDecisionJson(a, hookEventName);
  const out = {
    hookSpecificOutput: { hookEventName, permissionDecision: 'deny', permissionDecisionReason: a.reason },
    ...(a.userMessage !== undefined ? { systemMessage: a.userMessage } : {}),
  };
  return JSON.stringify(out) + '\n';
}
