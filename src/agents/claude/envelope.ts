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
import type { HookAnswer } from '../../hooks/contract.js';

/**
 * @param hookEventName the Claude Code event the hook runs for (the payload's
 *   `hook_event_name`), named in `hookSpecificOutput`.
 * @returns the stdout text:
 *   - block: `{"decision":"block","reason":...}`, with `"systemMessage"` last when there is
 *     a message for the user;
 *   - allow: `{"systemMessage":...}`;
 *   - context: `{"hookSpecificOutput":{"hookEventName":...,"additionalContext":...}}`;
 *   each followed by '\n'; none: '' (print nothing).
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
