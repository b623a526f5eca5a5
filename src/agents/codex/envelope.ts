/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * Codex CLI reads on a command hook's stdout when it exits 0 (openai/codex
 * codex-rs/hooks/src/engine/output_parser.rs and events/stop.rs, as run with 0.171.0):
 * - Stop: `"decision": "block"` with a non-empty `reason` keeps Codex working; the reason
 *   reaches the model as a user message `<hook_prompt hook_run_id="stop:...">REASON</hook_prompt>`;
 * - PostToolUse: `hookSpecificOutput.additionalContext` reaches the model as a developer
 *   message before the tool output;
 * - common field `systemMessage`: recorded as a warning entry of the hook run, which Codex
 *   shows to the user (not to the model).
 * Exactly one JSON object on one line, or nothing.
 */
import type { HookAnswer } from '../../hooks/contract.js';

/**
 * @param hookEventName the Codex event the hook runs for (the payload's `hook_event_name`).
 * @returns the stdout text: block `{"decision":"block","reason":...}` (then `"systemMessage"`
 *   when there is a message for the user); allow `{"systemMessage":...}`; context
 *   `{"hookSpecificOutput":{"hookEventName":...,"additionalContext":...}}`; each followed by
 *   '\n'; none: ''.
 */
export function renderAnswer(a: HookAnswer, hookEventName: string): string {
  let out: object;
  switch (a.kind) {
    case 'none':
      return '';
    case 'block':
      out = { decision: 'block', reason: a.reason, ...(a.userMessage !== undefined ? { systemMessage: a.userMessage } : {}) };
      break;
    case 'allow':
      out = { systemMessage: a.userMessage };
      break;
    case 'context':
      out = { hookSpecificOutput: { hookEventName, additionalContext: a.context } };
      break;
  }
  return JSON.stringify(out) + '\n';
}
