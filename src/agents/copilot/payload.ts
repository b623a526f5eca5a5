/**
 * GitHub Copilot CLI hook payloads (JSON on stdin), parsed into the agent-neutral hook inputs
 * of src/hooks/contract.ts. Copilot sends one of two shapes, chosen by the event name in the
 * hook file (GitHub docs "Copilot CLI hooks reference", "Hook event input payloads"; measured
 * with Copilot CLI 1.0.102):
 * - camelCase events (`postToolUse`, `agentStop`, `userPromptSubmitted`: what git-kizu
 *   registers): camelCase fields and no event name: postToolUse `{sessionId, timestamp, cwd,
 *   toolName, toolArgs, toolResult: {resultType, textResultForLlm}}`, where `toolArgs` of
 *   `apply_patch` is the patch text; agentStop `{sessionId, timestamp, cwd, transcriptPath,
 *   stopReason, stop_hook_active}`; userPromptSubmitted `{sessionId, timestamp, cwd, prompt}`;
 *   preToolUse `{sessionId, timestamp, cwd, toolName, toolArgs}`, where `toolArgs` of `bash` is
 *   an object `{command, description, ...}` and that of `apply_patch` the patch text (measured);
 * - PascalCase events (`PostToolUse`, `Stop`, `UserPromptSubmit`: the VS Code compatible
 *   format): snake_case fields with `hook_event_name`, the patch tool reported as `Edit` with
 *   `tool_input` = the patch text and `tool_result: {result_type, text_result_for_llm}`.
 * The edited paths are only in the patch text (src/agents/apply-patch.ts), relative to `cwd`.
 */
import {
  PayloadError,
  type AgentEvent,
  type InputOf,
  type JournalInput,
  type ParsedPayload,
  type PreToolInput,
  type PromptInput,
  type StopInput,
  type ToolCall,
} from '../../hooks/contract.js';
import { parseJsonObject } from '../payload-json.js';
import { showValue } from '../../words.js';
import { PatchSyntaxError, parseApplyPatch, patchReports, patchWrites, patchedPaths, type PatchFile } from '../apply-patch.js';

/** The Copilot events of each git-kizu hook event: the camelCase name (registered) first, then the PascalCase one. */
export const COPILOT_EVENTS: Record<AgentEvent, string[]> = {
  stop: ['agentStop', 'Stop'],
  'post-tool-use': ['postToolUse', 'PostToolUse'],
  journal: ['postToolUse', 'PostToolUse'],
  'user-prompt-submit': ['userPromptSubmitted', 'UserPromptSubmit'],
  'pre-tool-use': ['preToolUse', 'PreToolUse'],
};

/** The tool names of a patch edit: `apply_patch` (camelCase payloads), `Edit` (snake_case ones). */
const PATCH_TOOLS = new Set(['apply_patch', 'Edit']);

type Obj = Record<string, unknown>;

/** One payload in git-kizu's terms: the fields of either shape under one name. */
interface Fields {
  session: string | null;
  cwd: string | null;
  event: string;
  tool: string | null;
  args: unknown;
  result: unknown;
  stopHookActive: boolean;
  prompt: string | undefined;
}

/**
 * Parses a payload of either shape.
 * @throws PayloadError if it is empty, not a JSON object, has neither `sessionId` (camelCase)
 *   nor `hook_event_name` (snake_case), has a known field of the wrong type, or names an event
 *   other than those of `event`.
 */
function fields(text: string, event: AgentEvent): Fields {
  const o = parseJsonObject(text) as Obj;
  const snake = o.hook_event_name !== undefined;
  const types: [string, string][] = snake
    ? [['session_id', 'string'], ['cwd', 'string'], ['hook_event_name', 'string'], ['tool_name', 'string'], ['stop_hook_active', 'boolean'], ['prompt', 'string']]
    : [['sessionId', 'string'], ['cwd', 'string'], ['toolName', 'string'], ['stop_hook_active', 'boolean'], ['stopHookActive', 'boolean'], ['prompt', 'string']];
  for (const [k, t] of types) {
    if (o[k] !== undefined && (typeof o[k] !== t || o[k] === null)) {
      throw new PayloadError(`hook payload field "${k}" should be a ${t}, got ${showValue(o[k]).slice(0, 80)}`);
    }
  }
  const names = COPILOT_EVENTS[event];
  if (snake) {
    if (!names.includes(o.hook_event_name as string)) throw new PayloadError(`hook payload is for event "${o.hook_event_name}", expected ${names.join(' or ')}`);
    return {
      session: (o.session_id as string | undefined) ?? null,
      cwd: (o.cwd as string | undefined) ?? null,
      event: o.hook_event_name as string,
      tool: (o.tool_name as string | undefined) ?? null,
      args: o.tool_input,
      result: o.tool_result ?? o.tool_response,
      stopHookActive: o.stop_hook_active === true,
      prompt: o.prompt as string | undefined,
    };
  }
  if (o.sessionId === undefined) throw new PayloadError('hook payload has no "sessionId" or "hook_event_name" (is this a GitHub Copilot CLI hook payload?)');
  // A camelCase payload does not name its event: the one git-kizu registers for this hook.
  if ((event === 'post-tool-use' || event === 'journal' || event === 'pre-tool-use') && o.toolName === undefined) {
    throw new PayloadError(`hook payload has no "toolName" (is this a ${names[0]} payload?)`);
  }
  return {
    session: o.sessionId as string,
    cwd: (o.cwd as string | undefined) ?? null,
    event: names[0],
    tool: (o.toolName as string | undefined) ?? null,
    args: o.toolArgs,
    result: o.toolResult,
    stopHookActive: o.stop_hook_active === true || o.stopHookActive === true,
    prompt: o.prompt as string | undefined,
  };
}

/**
 * The patch of a patch-tool payload, parsed; null for another tool.
 * @throws PayloadError for a patch tool whose arguments are not the patch text, or a patch
 *   that is not apply_patch's grammar.
 */
function patchOf(f: Fields): PatchFile[] | null {
  if (f.tool === null || !PATCH_TOOLS.has(f.tool)) return null;
  if (typeof f.args !== 'string') throw new PayloadError(`the ${f.tool} arguments in the hook payload should be the patch text, got ${showValue(f.args).slice(0, 80)}`);
  try {
    return parseApplyPatch(f.args);
  } catch (e) {
    if (e instanceof PatchSyntaxError) throw new PayloadError(`the ${f.tool} patch in the hook payload cannot be read: ${e.message}`);
    throw e;
  }
}

/**
 * Copilot CLI's shell tools whose arguments hold a command line or the keystrokes sent to a
 * running one, by the argument that holds it: `bash` runs `command`; `write_bash` (offered in
 * some modes) types `input` into a running shell, so the gate judges it as a command too.
 */
const SHELL_TOOLS: Readonly<Record<string, string>> = { bash: 'command', write_bash: 'input' };

/**
 * What a preToolUse call is about to do: a shell tool runs its command (see
 * {@link SHELL_TOOLS}); a patch tool writes the files of its patch; any other tool is `other`.
 * `toolArgs` may come as an object or as its JSON text.
 * @throws PayloadError for a shell call without the string argument, and as {@link patchOf}
 *   (the gate then fails closed).
 */
function toolCall(f: Fields): ToolCall {
  const key = f.tool !== null ? SHELL_TOOLS[f.tool] : undefined;
  if (key !== undefined) {
    let args = f.args;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        /* checked below */
      }
    }
    const command = args && typeof args === 'object' ? (args as Obj)[key] : undefined;
    if (typeof command !== 'string') throw new PayloadError(`the ${f.tool} arguments in the hook payload should hold "${key}" as a string, got ${showValue(f.args).slice(0, 80)}`);
    return { kind: 'shell', command };
  }
  if (f.tool !== null && FILE_TOOLS.has(f.tool)) {
    let args = f.args;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        /* checked below */
      }
    }
    const o = args && typeof args === 'object' ? (args as Obj) : {};
    const p = typeof o.path === 'string' ? o.path : typeof o.file_path === 'string' ? o.file_path : undefined;
    if (!p) throw new PayloadError(`the ${f.tool} arguments in the hook payload name no file ("path"), got ${showValue(f.args).slice(0, 80)}`);
    return { kind: 'write', writes: [{ path: p, ...(typeof o.file_text === 'string' ? { content: o.file_text } : {}) }] };
  }
  const files = patchOf(f);
  return files ? { kind: 'write', writes: patchWrites(files) } : { kind: 'other' };
}

/**
 * Copilot CLI's file-writing tools other than apply_patch, by the names its tool sets use
 * (`create` with `path` and `file_text`, `edit`/`str_replace_editor`/`str_replace` with
 * `path`; not all offered with every model): each writes the file of its `path`.
 */
const FILE_TOOLS: ReadonlySet<string> = new Set(['create', 'edit', 'str_replace_editor', 'str_replace', 'write', 'write_file']);

/** True when the tool result says the call failed (`toolResult.resultType`, `tool_result.result_type` other than "success"). */
function failed(result: unknown): boolean {
  if (!result || typeof result !== 'object') return false;
  const t = (result as Obj).resultType ?? (result as Obj).result_type;
  return typeof t === 'string' && t !== 'success';
}

/**
 * Parses the payload Copilot sent for git-kizu's hook `event` into that event's agent-neutral
 * input; the event name returned is the payload's own (snake_case form) or the camelCase one
 * git-kizu registers. The working directory is the payload's `cwd`, else the process's.
 * @throws PayloadError as described for each check above.
 */
export function parseHookInput<E extends AgentEvent>(event: E, text: string, _env: NodeJS.ProcessEnv): ParsedPayload<E> {
  const f = fields(text, event);
  const common = { session: f.session, cwd: f.cwd || process.cwd() };
  let input: InputOf[AgentEvent];
  if (event === 'stop') input = { ...common, retry: f.stopHookActive, subagent: null } satisfies StopInput;
  else if (event === 'post-tool-use') {
    const files = patchOf(f);
    input = { ...common, paths: files ? patchedPaths(files) : [] };
  } else if (event === 'journal') {
    const files = patchOf(f);
    const edit: JournalInput['edit'] =
      files && !failed(f.result) ? { tool: f.tool!, toolUseId: null, paths: patchedPaths(files), reported: null, reportedByPath: patchReports(files) } : null;
    input = { ...common, edit } satisfies JournalInput;
  } else if (event === 'pre-tool-use') {
    input = { ...common, tool: f.tool ?? '', call: toolCall(f) } satisfies PreToolInput;
  } else input = { ...common, prompt: f.prompt ?? '' } satisfies PromptInput;
  return { input: input as InputOf[E], hookEventName: f.event };
}
