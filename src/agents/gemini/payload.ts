/**
 * Gemini CLI hook payloads (JSON on stdin), parsed into the agent-neutral hook inputs of
 * src/hooks/contract.ts. Shapes as sent by @google/gemini-cli 0.61.0 (measured, and read in
 * its core's hooks/hookEventHandler: `createBaseInput` and the `fire*Event` methods):
 * - common fields `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`;
 * - `AfterTool` adds `tool_name`, `tool_input` (the tool's parameters: `write_file`
 *   `{file_path, content}`, `replace` `{file_path, old_string, new_string, ...}`) and
 *   `tool_response` `{llmContent, returnDisplay, error}`, where a file edit's `returnDisplay`
 *   is `{fileDiff, fileName, filePath, originalContent, newContent, diffStat, isNewFile, ...}`
 *   (a string such as "Created src/x.js" for a file `replace` created, or an error text) and
 *   `error` is `{message, type}` for a failed call;
 * - `AfterAgent` adds `prompt` (the turn's first prompt, also on a continued turn),
 *   `prompt_response`, `stop_hook_active`: true on the stop of a turn continued because an
 *   AfterAgent hook blocked, but false again when that continued turn called a tool (measured:
 *   block, tool call, stop with false, block, ... without end), and a known upstream report
 *   says older versions always sent false; so it is no turn marker, and the stop gate must
 *   bound its blocks without it;
 * - `BeforeTool` adds `tool_name` and `tool_input` (measured: `run_shell_command`
 *   `{command, ...}`, `write_file` `{file_path, content}`, `replace` `{file_path, old_string,
 *   new_string, ...}`, the path absolute);
 * - `BeforeAgent` adds `prompt` (also fired again, with the block's reason as the prompt, when
 *   an AfterAgent hook blocked).
 * Gemini CLI runs a hook with its working directory and `GEMINI_PROJECT_DIR`,
 * `GEMINI_CWD`, `CLAUDE_PROJECT_DIR` all set to the payload's `cwd`.
 */
import {
  PayloadError,
  type AgentEvent,
  type EditInput,
  type InputOf,
  type JournalInput,
  type ParsedPayload,
  type PlannedWrite,
  type PreToolInput,
  type PromptInput,
  type ReportedChange,
  type StopInput,
  type ToolCall,
} from '../../hooks/contract.js';
import { parseJsonObject } from '../payload-json.js';
import { showValue } from '../../words.js';

/** The Gemini CLI events each git-kizu hook event is registered for (see install.ts). */
export const GEMINI_EVENTS: Record<AgentEvent, string> = {
  stop: 'AfterAgent',
  'post-tool-use': 'AfterTool',
  journal: 'AfterTool',
  'user-prompt-submit': 'BeforeAgent',
  'pre-tool-use': 'BeforeTool',
};

/** Gemini CLI's file-editing tools (core tool names `WRITE_FILE_TOOL_NAME`, `EDIT_TOOL_NAME`). */
export const EDIT_TOOLS: readonly string[] = ['write_file', 'replace'];

type Obj = Record<string, unknown>;

/** The fields git-kizu reads, with their JSON types. */
const FIELD_TYPES: [string, string][] = [
  ['session_id', 'string'],
  ['cwd', 'string'],
  ['hook_event_name', 'string'],
  ['tool_name', 'string'],
  ['tool_input', 'object'],
  ['tool_response', 'object'],
  ['stop_hook_active', 'boolean'],
  ['prompt', 'string'],
];

/**
 * Parses a payload string and checks the types of the fields the handlers read.
 * @param expectEvent `hook_event_name` must be this.
 * @throws PayloadError if it is empty, not JSON, not a JSON object, lacks `hook_event_name`,
 *   has a known field of the wrong type (an array is no object), or is for another event.
 */
export function parseGeminiPayload(text: string, expectEvent: string): Obj {
  const o = parseJsonObject(text) as Obj;
  for (const [k, t] of FIELD_TYPES) {
    const x = o[k];
    if (x !== undefined && (typeof x !== t || x === null || Array.isArray(x))) {
      throw new PayloadError(`hook payload field "${k}" should be ${t === 'object' ? 'an' : 'a'} ${t}, got ${showValue(x).slice(0, 80)}`);
    }
  }
  if (o.hook_event_name === undefined) throw new PayloadError('hook payload has no "hook_event_name" (is this a Gemini CLI hook payload?)');
  if (o.hook_event_name !== expectEvent) {
    throw new PayloadError(`hook payload is for event "${o.hook_event_name}", expected ${expectEvent} (Gemini CLI)`);
  }
  return o;
}

/** The edited path of an editing tool's call: `tool_input.file_path`, else the `returnDisplay.filePath` Gemini resolved; [] for other tools. */
function editedPaths(p: Obj): string[] {
  if (typeof p.tool_name !== 'string' || !EDIT_TOOLS.includes(p.tool_name)) return [];
  const ti = (p.tool_input ?? {}) as Obj;
  if (typeof ti.file_path === 'string' && ti.file_path) return [ti.file_path];
  const rd = ((p.tool_response ?? {}) as Obj).returnDisplay;
  if (rd && typeof rd === 'object' && typeof (rd as Obj).filePath === 'string' && (rd as Obj).filePath) return [(rd as Obj).filePath as string];
  return [];
}

/**
 * Parses the payload Gemini CLI sent for git-kizu's hook `event` into that event's
 * agent-neutral input: `stop` from AfterAgent (`retry` = `stop_hook_active`; never a
 * subagent), `post-tool-use` and `journal` from AfterTool, `user-prompt-submit` from
 * BeforeAgent. The working directory is the payload's `cwd`, else `GEMINI_PROJECT_DIR`
 * (which Gemini CLI sets for a hook), else the process's.
 * @throws PayloadError as {@link parseGeminiPayload} (the event must be
 *   {@link GEMINI_EVENTS}[event]), and for a `tool_response.error` that is not an object.
 */
export function parseHookInput<E extends AgentEvent>(event: E, text: string, env: NodeJS.ProcessEnv): ParsedPayload<E> {
  const p = parseGeminiPayload(text, GEMINI_EVENTS[event]);
  const common = {
    session: typeof p.session_id === 'string' && p.session_id ? p.session_id : null,
    cwd: typeof p.cwd === 'string' && p.cwd ? p.cwd : env.GEMINI_PROJECT_DIR || process.cwd(),
  };
  let input: InputOf[AgentEvent];
  if (event === 'stop') input = { ...common, retry: p.stop_hook_active === true, subagent: null } satisfies StopInput;
  else if (event === 'post-tool-use') input = { ...common, paths: editedPaths(p) } satisfies EditInput;
  else if (event === 'journal') input = { ...common, edit: recordableEdit(p) } satisfies JournalInput;
  else if (event === 'pre-tool-use') input = { ...common, tool: typeof p.tool_name === 'string' ? p.tool_name : '', call: toolCall(p) } satisfies PreToolInput;
  else input = { ...common, prompt: typeof p.prompt === 'string' ? p.prompt : '' } satisfies PromptInput;
  return { input: input as InputOf[E], hookEventName: p.hook_event_name as string };
}

/** Gemini CLI's shell tool (core `SHELL_TOOL_NAME`). */
export const SHELL_TOOL = 'run_shell_command';

/**
 * What a BeforeTool payload's call is about to do: `run_shell_command` runs
 * `tool_input.command`; `write_file` writes `file_path` with `content`; `replace` edits
 * `file_path` by replacing `old_string` with `new_string` (every occurrence when
 * `allow_multiple` is true or `expected_replacements` is above 1); any other tool is `other`.
 * @throws PayloadError for a shell call without a string `command`, or an editing call
 *   without a `file_path` (the gate then fails closed).
 */
function toolCall(p: Obj): ToolCall {
  const ti = (p.tool_input ?? {}) as Obj;
  if (p.tool_name === SHELL_TOOL) {
    if (typeof ti.command !== 'string') throw new PayloadError(`hook payload field "tool_input.command" of ${SHELL_TOOL} should be a string, got ${showValue(ti.command).slice(0, 80)}`);
    return { kind: 'shell', command: ti.command };
  }
  if (typeof p.tool_name !== 'string' || !EDIT_TOOLS.includes(p.tool_name)) return { kind: 'other' };
  if (typeof ti.file_path !== 'string' || !ti.file_path) throw new PayloadError(`hook payload of ${p.tool_name} names no file (tool_input.file_path)`);
  const w: PlannedWrite = { path: ti.file_path };
  if (p.tool_name === 'write_file' && typeof ti.content === 'string') w.content = ti.content;
  if (p.tool_name === 'replace' && typeof ti.old_string === 'string' && typeof ti.new_string === 'string') {
    const all = ti.allow_multiple === true || (typeof ti.expected_replacements === 'number' && ti.expected_replacements > 1);
    w.replacements = [{ old: ti.old_string, new: ti.new_string, all }];
  }
  return { kind: 'write', writes: [w] };
}

/**
 * The edit an AfterTool payload reports, for the journal; null for a tool other than
 * {@link EDIT_TOOLS}, a failed call (`tool_response.error`), or a call without a path.
 * Gemini CLI sends no tool call id.
 */
function recordableEdit(p: Obj): JournalInput['edit'] {
  const tool = p.tool_name;
  if (typeof tool !== 'string' || !EDIT_TOOLS.includes(tool)) return null;
  const tr = (p.tool_response ?? {}) as Obj;
  const err = tr.error;
  if (err !== undefined && err !== null && (typeof err !== 'object' || Array.isArray(err))) {
    throw new PayloadError(`hook payload field "tool_response.error" should be an object, got ${showValue(err).slice(0, 80)}`);
  }
  if (err) return null;
  const paths = editedPaths(p);
  if (!paths.length) return null;
  return { tool, toolUseId: null, paths, reported: reportedChange(tool, (p.tool_input ?? {}) as Obj, tr.returnDisplay) };
}

/**
 * What the payload says about the edited file. A `returnDisplay` object (write_file, and
 * replace on an existing file) holds `isNewFile`, `originalContent` (the text before, as the
 * tool read it) and `newContent` (the text it wrote, before a CRLF file's line ends are put
 * back, which the journal handler does); `replace` creating a file (an empty `old_string`)
 * returns a string instead, and wrote `new_string`.
 */
function reportedChange(tool: string, ti: Obj, rd: unknown): ReportedChange {
  const buf = (s: unknown) => (typeof s === 'string' ? Buffer.from(s, 'utf8') : undefined);
  if (rd && typeof rd === 'object' && !Array.isArray(rd)) {
    const d = rd as Obj;
    const after = buf(d.newContent);
    if (d.isNewFile === true) return { before: null, beforeUnknown: false, after };
    if (typeof d.originalContent === 'string') return { before: buf(d.originalContent)!, beforeUnknown: false, after };
    return { before: null, beforeUnknown: true, after };
  }
  if (tool === 'replace' && ti.old_string === '' && typeof ti.new_string === 'string') {
    return { before: null, beforeUnknown: false, after: buf(ti.new_string) };
  }
  return { before: null, beforeUnknown: true, after: undefined };
}
