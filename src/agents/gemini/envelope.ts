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
 * - `BeforeTool` `{"decision":"deny","reason":R}`: the tool does not run, and the model reads
 *   "Tool execution blocked: R" as its result (measured; exit 2 with R on stderr does the
 *   same). There is no ask in headless mode, so an ask is rendered as a deny;
 * - `systemMessage`: shown to the user (an info line in the interactive UI; headless mode
 *   shows it only with a block), never sent to the model.
 * A hook that prints nothing on stdout has its stderr read the same way (as plain text, a
 * `systemMessage`), so git-kizu's one stderr line on a skipped hook reaches the user.
 * Exactly one JSON object on one line, or nothing.
 */

import type { HookAnswer } from '../../hooks/contract.js';
import { renderDecisionJson } from '../answer-json.js';

/**
 * The answer as Gemini CLI reads it: deny and ask as a BeforeTool deny (see above); everything
 * else as agents/answer-json.ts `renderDecisionJson` (block, allow, context, nothing).
 */
export function renderAnswer(a: HookAnswer, hookEventName: string): string {
  if (a.kind !== 'deny' && a.kind !== 'ask') return renderDecisionJson(a, hookEventName);
  return JSON.stringify({ decision: 'deny', reason: a.reason, ...(a.userMessage !== undefined ? { systemMessage: a.userMessage } : {}) }) + '\n';
}
