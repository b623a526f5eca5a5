/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * Cursor reads on a command hook's stdout. Built from Cursor's documentation only (Cursor's
 * agent is not on the npm registry; nothing here was run against it): the Cursor hooks
 * reference, https://cursor.com/docs/hooks ("Hook events"):
 * - `stop` output `{"followup_message": "<text>"}`: when present and non-empty, Cursor
 *   submits it automatically as the next user message; at most `loop_limit` follow-ups per
 *   hook script (default 5; "Per-Script Configuration Options"). So a `block` becomes a
 *   follow-up message. The stop output has no field for a message to the user, so an
 *   `allow` (and a block's `userMessage`) cannot be shown on Cursor.
 * - `afterFileEdit` documents no output at all (the quick-start hook prints nothing), so
 *   git-kizu cannot add context after an edit on Cursor: a `context` answer prints nothing.
 * - `beforeSubmitPrompt` output `{"continue": true | false, "user_message": ...}`: git-kizu
 *   never holds a prompt back, and always answers `{"continue":true}` (the output is not
 *   sent to the model).
 * - `beforeShellExecution` output `{"permission": "allow" | "deny" | "ask", "user_message",
 *   "agent_message"}`: a deny does not run the command, `agent_message` goes to the agent and
 *   `user_message` to the user; git-kizu answers deny (and ask, which the documentation
 *   allows, as ask) and prints nothing to let a command run.
 * Exactly one JSON object on one line, or nothing.
 */
import type { HookAnswer } from '../../hooks/contract.js';

/** What the beforeSubmitPrompt hook prints: let the prompt through. */
export const CONTINUE = '{"continue":true}\n';

/**
 * @param hookEventName the Cursor event the hook ran for, as payload.ts returns it: `stop`,
 *   `stop:<status>` for a stop that did not complete, `afterFileEdit`, `beforeSubmitPrompt`,
 *   `beforeShellExecution`.
 * @returns the stdout text: `{"followup_message":<reason>}` for a block of a completed stop;
 *   {@link CONTINUE} for beforeSubmitPrompt, whatever the answer; `{"permission":...}` for a
 *   deny or ask of beforeShellExecution; each followed by '\n';
 *   '' for anything else (print nothing).
 */
export function renderAnswer(a: HookAnswer, hookEventName: string): string {
  if (hookEventName === 'beforeSubmitPrompt') return CONTINUE;
  if (hookEventName === 'stop' && a.kind === 'block') return JSON.stringify({ followup_message: a.reason }) + '\n';
  if (hookEventName === 'beforeShellExecution' && (a.kind === 'deny' || a.kind === 'ask')) {
    return JSON.stringify({ permission: a.kind, user_message: a.userMessage ?? a.reason, agent_message: a.reason }) + '\n';
  }
  return '';
}
