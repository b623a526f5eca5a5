/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * Claude Code reads on a command hook's stdout when it exits 0. Claude Code hooks reference
 * (https://code.claude.com/docs/en/hooks), "JSON output":
 * - common field `systemMessage`: a message shown to the user;
 * - "Stop/SubagentStop decision control": `"decision": "block"` with `reason` keeps Claude
 *   working, `reason` telling it why and what to do;
 * - "PostToolUse decision control": `hookSpecificOutput` with `hookEventName` (the event's
 *   name) and `additionalContext`, added to Claude's context.
 * - "PreToolUse decision control": `hookSpecificOutput` with `hookEventName` "PreToolUse",
 *   `permissionDecision` "deny" (the call does not run; `permissionDecisionReason` is shown
 *   to Claude) or "ask" (the user confirms it; the reason is shown to the user).
 * Exactly one JSON object on one line, or nothing.
 */
import type { HookAnswer } from '../../hooks/contract.js';
import { renderDecisionJson } from '../answer-json.js';

/**
 * The answer as Claude Code reads it: deny and ask as a PreToolUse permission decision
 * (`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":...}}`,
 * with `"systemMessage"` for the user when there is a message for them); everything else as
 * agents/answer-json.ts `renderDecisionJson` (block, allow, context, nothing).
 */
export function renderAnswer(a: HookAnswer, hookEventName: string): string {
  if (a.kind !== 'deny' && a.kind !== 'ask') return renderDecisionJson(a, hookEventName);
  const out = {
    hookSpecificOutput: { hookEventName, permissionDecision: a.kind, permissionDecisionReason: a.reason },
    ...(a.userMessage !== undefined ? { systemMessage: a.userMessage } : {}),
  };
  return JSON.stringify(out) + '\n';
}
