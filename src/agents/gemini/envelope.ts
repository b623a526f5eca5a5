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

/** The answer as the agent reads it: agents/answer-json.ts `renderDecisionJson` (block, allow, context, nothing). */
export { renderDecisionJson as renderAnswer } from '../answer-json.js';
