/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * GitHub Copilot CLI reads on a command hook's stdout (measured with Copilot CLI 1.0.102):
 * - agentStop: `{"decision":"block","reason":...}` with exit 0 keeps the agent working; the
 *   reason reaches the model as a user message (Copilot itself ends the turn after 8 blocks
 *   in a row);
 * - postToolUse: a TOP-LEVEL `additionalContext` is appended to the tool output the model
 *   sees; the `hookSpecificOutput` form of the other agents is silently dropped for camelCase
 *   events, so it is added (next to the top-level key, which works) only for the PascalCase
 *   (VS Code compatible) event names.
 * - preToolUse: `{"permissionDecision":"deny","permissionDecisionReason":R}`: the tool does not
 *   run and the model reads "Denied by preToolUse hook: R"; `"ask"` in `copilot -p` is
 *   denied too ("unable to ask user for confirmation"), so an ask is rendered as a deny
 *   there and everywhere (one rendering; an interactive session asks its own way for the
 *   calls its rules name).
 * A message for the user alone (`systemMessage` elsewhere) is not printed: Copilot's hook
 * reference names no such field, so nothing shows it to the user.
 * Exactly one JSON object on one line, or nothing.
 */
import type { HookAnswer } from '../../hooks/contract.js';

/**
 * @param hookEventName the Copilot event the hook runs for (`agentStop`, `postToolUse`, or a
 *   PascalCase name from a snake_case payload).
 * @returns the stdout text: block `{"decision":"block","reason":...}`; context
 *   `{"additionalContext":...}` (plus `hookSpecificOutput` for a PascalCase event); each
 *   followed by '\n'; allow and none: ''.
 */
export function renderAnswer(a: HookAnswer, hookEventName: string): string {
  switch (a.kind) {
    case 'none':
    case 'allow':
      return '';
    case 'block':
      return JSON.stringify({ decision: 'block', reason: a.reason }) + '\n';
    case 'deny':
    case 'ask':
      return JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: a.reason }) + '\n';
    case 'context': {
      const pascal = /^[A-Z]/.test(hookEventName);
      const out = pascal
        ? { additionalContext: a.context, hookSpecificOutput: { hookEventName, additionalContext: a.context } }
        : { additionalContext: a.context };
      return JSON.stringify(out) + '\n';
    }
  }
}
