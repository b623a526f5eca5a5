/**
 * The JSON answer on a command hook's stdout that Claude Code defined and Codex CLI and
 * Gemini CLI read the same way (Claude Code hooks reference, "JSON output"; Codex
 * `hooks` output schema; Gemini CLI hooks reference): `decision`/`reason` to block a stop,
 * `hookSpecificOutput.additionalContext` to add context after a tool, `systemMessage` for
 * the user. Exactly one JSON object on one line, or nothing.
 */
import type { HookAnswer } from '../hooks/contract.js';

/**
 * @param hookEventName the agent's event the hook runs for (the payload's `hook_event_name`),
 *   named in `hookSpecificOutput`.
 * @returns the stdout text:
 *   - block: `{"decision":"block","reason":...}`, with `"systemMessage"` last when there is
 *     a message for the user;
 *   - allow: `{"systemMessage":...}`;
 *   - context: `{"hookSpecificOutput":{"hookEventName":...,"additionalContext":...}}`;
 *   - deny and ask (a pre-tool gate's answer; this shape has no way to ask): `{"decision":"block","reason":...}`
 *     (the form Codex's PreToolUse and Gemini CLI's BeforeTool read as a refused call),
 *     with `"systemMessage"` as for block;
 *   each followed by '\n'; none: '' (print nothing).
 */
export function renderDecisionJson(a: HookAnswer, hookEventName: string): string {
  let out: object;
  switch (a.kind) {
    case 'none':
      return '';
    case 'block':
    case 'deny':
    case 'ask':
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
