/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * Claude Code reads on a command hook's stdout when it exits 0. Claude Code hooks reference
 * (https://code.claude.com/docs/en/hooks), "JSON output":
 * - common field `systemMessage`: a message shown to the user;
 * - "Stop/SubagentStop decision control": `"decision": "block"` with `reason` keeps Claude
 *   working, `reason` telling it why and what to do;
 * - "PostToolUse decision control": `hookSpecificOutput` with `hookEventName` (the event's
 *   name) and `additionalContext`, added to Claude's context.
 * Exactly one JSON object on one line, or nothing.
 */

/** The answer as the agent reads it: agents/answer-json.ts `renderDecisionJson` (block, allow, context, nothing). */
export { renderDecisionJson as renderAnswer } from '../answer-json.js';
