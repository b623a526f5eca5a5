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

/** The answer as the agent reads it: agents/answer-json.ts `renderDecisionJson` (block, allow, context, nothing). */
export { renderDecisionJson as renderAnswer } from '../answer-json.js';
