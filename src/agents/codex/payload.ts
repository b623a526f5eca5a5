/**
 * Codex CLI hook payloads (JSON on stdin), parsed into the agent-neutral hook inputs of
 * src/hooks/contract.ts. Shapes as recorded from Codex CLI 0.171.0 (test/unit/agent-codex.test.mjs
 * holds them; openai/codex codex-rs/hooks/src/schema.rs): common fields `session_id`,
 * `turn_id`, `transcript_path`, `cwd`, `hook_event_name`, `model`, `permission_mode`;
 * PostToolUse adds `tool_name` (`apply_patch` for file edits), `tool_input` (`{"command":
 * <the patch text>}`), `tool_response` (a string: "Exit code: 0 ... Success. Updated the
 * following files: ..."), `tool_use_id`; Stop adds `stop_hook_active` (false on the first
 * stop of a turn, true on a stop that follows a block) and `last_assistant_message`;
 * SubagentStop adds `agent_id`, `agent_type`; UserPromptSubmit adds `prompt`; PreToolUse
 * adds `tool_name` (`Bash` for its shell tool `exec_command`, `apply_patch` for a patch),
 * `tool_input` (`{"command": <the command line or the patch text>}`) and `tool_use_id`
 * (measured with 0.171.0: `write_stdin`, which types into a running command, fires no
 * PreToolUse hook, so the gate refuses the commands that would read their program from it).
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

/** The Codex events each git-kizu hook event is registered for (see install.ts). */
export const CODEX_EVENTS: Record<AgentEvent, string[]> = {
  stop: ['Stop', 'SubagentStop'],
  'post-tool-use': ['PostToolUse'],
  journal: ['PostToolUse'],
  'user-prompt-submit': ['UserPromptSubmit'],
  'pre-tool-use': ['PreToolUse'],
};

/** The tool names under which Codex reports an apply_patch edit (`Edit` and `Write` are its matcher aliases). */
const PATCH_TOOLS = new Set(['apply_patch', 'Edit', 'Write']);

type Obj = Record<string, unknown>;

/**
 * Parses a payload string and checks the fields the handlers read.
 * @throws PayloadError if it is empty, not a JSON object, lacks `hook_event_name` or
 *   `turn_id` (every Codex payload has both; Claude Code's have no `turn_id`), has a known
 *   field of the wrong type, or is for an event other than `expect`.
 */
function parseCodexPayload(text: string, expect: string[]): Obj {
  const o = parseJsonObject(text) as Obj;
  const types: [string, string][] = [
    ['session_id', 'string'],
    ['turn_id', 'string'],
    ['cwd', 'string'],
    ['hook_event_name', 'string'],
    ['tool_name', 'string'],
    ['tool_use_id', 'string'],
    ['stop_hook_active', 'boolean'],
    ['agent_id', 'string'],
    ['prompt', 'string'],
  ];
  for (const [k, t] of types) {
    if (o[k] !== undefined && (typeof o[k] !== t || o[k] === null)) {
      throw new PayloadError(`hook payload field "${k}" should be a ${t}, got ${showValue(o[k]).slice(0, 80)}`);
    }
  }
  if (o.hook_event_name === undefined || o.turn_id === undefined) {
    throw new PayloadError('hook payload has no "hook_event_name" or "turn_id" (is this a Codex CLI hook payload?)');
  }
  if (!expect.includes(o.hook_event_name as string)) {
    throw new PayloadError(`hook payload is for event "${o.hook_event_name}", expected ${expect.join(' or ')}`);
  }
  return o;
}

/**
 * The patch of an apply_patch PostToolUse payload, parsed; null for another tool.
 * @throws PayloadError for an apply_patch `tool_input` without a `command` string, or a
 *   patch text that is not apply_patch's grammar.
 */
export function patchOf(o: Obj): PatchFile[] | null {
  if (typeof o.tool_name !== 'string' || !PATCH_TOOLS.has(o.tool_name)) return null;
  const ti = o.tool_input;
  const patch = typeof ti === 'string' ? ti : ti && typeof ti === 'object' ? (ti as Obj).command : undefined;
  if (typeof patch !== 'string') {
    throw new PayloadError(`hook payload field "tool_input" of ${o.tool_name} should hold the patch text as "command", got ${showValue(ti).slice(0, 80)}`);
  }
  try {
    return parseApplyPatch(patch);
  } catch (e) {
    if (e instanceof PatchSyntaxError) throw new PayloadError(`the ${o.tool_name} patch in the hook payload cannot be read: ${e.message}`);
    throw e;
  }
}

/** The tool name under which Codex sends a call of its shell tool (`exec_command`) to PreToolUse. */
const SHELL_TOOL = 'Bash';

/**
 * What a PreToolUse payload's call is about to do: `Bash` runs `tool_input.command`; an
 * apply_patch (or its aliases) writes the files of its patch; any other tool is `other`.
 * @throws PayloadError for a Bash call without a string command, and as {@link patchOf}
 *   (the gate then fails closed).
 */
function toolCall(o: Obj): ToolCall {
  if (o.tool_name === SHELL_TOOL) {
    const ti = o.tool_input;
    const command = ti && typeof ti === 'object' ? (ti as Obj).command : undefined;
    if (typeof command !== 'string') throw new PayloadError(`hook payload field "tool_input.command" of Bash should be a string, got ${showValue(command).slice(0, 80)}`);
    return { kind: 'shell', command };
  }
  const files = patchOf(o);
  return files ? { kind: 'write', writes: patchWrites(files) } : { kind: 'other' };
}

/**
 * True when the tool call's response says it failed: Codex prefixes a command-like output
 * with "Exit code: N" (non-zero on failure), and a patch that does not fit is refused with
 * "apply_patch verification failed".
 */
export function patchFailed(response: unknown): boolean {
  if (typeof response !== 'string') return false;
  const m = /^Exit code: (\d+)/.exec(response);
  return (m !== null && m[1] !== '0') || response.includes('apply_patch verification failed');
}

/**
 * Parses the payload Codex sent for git-kizu's hook `event` into that event's agent-neutral
 * input. The working directory is the payload's `cwd`, else the process's (Codex starts a
 * hook in the session's working directory).
 * @throws PayloadError as described for the payload check (the event must be one of
 *   {@link CODEX_EVENTS}[event]) and {@link patchOf}.
 */
export function parseHookInput<E extends AgentEvent>(event: E, text: string, _env: NodeJS.ProcessEnv): ParsedPayload<E> {
  const o = parseCodexPayload(text, CODEX_EVENTS[event]);
  const common = { session: typeof o.session_id === 'string' ? o.session_id : null, cwd: typeof o.cwd === 'string' && o.cwd ? o.cwd : process.cwd() };
  let input: InputOf[AgentEvent];
  if (event === 'stop') {
    const sub = o.hook_event_name === 'SubagentStop' || typeof o.agent_id === 'string' ? ((o.agent_id as string | undefined) ?? 'subagent') : null;
    input = { ...common, retry: o.stop_hook_active === true, subagent: sub } satisfies StopInput;
  } else if (event === 'post-tool-use') {
    const files = patchOf(o);
    input = { ...common, paths: files ? patchedPaths(files) : [] };
  } else if (event === 'journal') {
    const files = patchOf(o);
    const edit: JournalInput['edit'] =
      files && !patchFailed(o.tool_response)
        ? { tool: o.tool_name as string, toolUseId: (o.tool_use_id as string | undefined) ?? null, paths: patchedPaths(files), reported: null, reportedByPath: patchReports(files) }
        : null;
    input = { ...common, edit } satisfies JournalInput;
  } else if (event === 'pre-tool-use') {
    input = { ...common, tool: (o.tool_name as string | undefined) ?? '', call: toolCall(o) } satisfies PreToolInput;
  } else {
    input = { ...common, prompt: (o.prompt as string | undefined) ?? '' } satisfies PromptInput;
  }
  return { input: input as InputOf[E], hookEventName: o.hook_event_name as string };
}
