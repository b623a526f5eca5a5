/**
 * Renders a handler's agent-neutral answer (src/hooks/contract.ts `HookAnswer`) as the JSON
 * Gemini CLI reads on a command hook's stdout (exit 0). As read in @google/gemini-cli-core
 * 0.61.0 hooks/types (`DefaultHookOutput`) and where its outputs are used, and measured:
 * - `AfterAgent` `{"decision":"block","reason":R}` (or `"deny"`): the turn goes on with R as
 *   a new user message to the model; headless mode prints
 *   `[WARNING] Agent execution blocked: <systemMessage, else R>` on stderr;
 * - `AfterTool` `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":C}}`:
 *   C, with `<` and `>` turned into `&lt;` and `&gt;`, is appended to the tool's result for the
 *   model as `\n\n<hook_context>C</hook_context>`;
 * - `systemMessage`: shown to the user (an info line in the interactive UI; headless mode
 *   shows it only with a block), never sent to the model.
 * A hook that prints nothing on stdout has its stderr read the same way (as plain text, a
 * `systemMessage`), so git-kizu's one stderr line on a skipped hook reaches the user.
 * Exactly one JSON object on one line, or nothing.
 */
import type { HookAnswer } from '../../hooks/contract.js';

/**
 * @param hookEventName the Gemini CLI event the hook runs for (the payload's
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
