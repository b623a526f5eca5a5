/**
 * Claude Code hook payloads (JSON on stdin), parsed into the agent-neutral hook inputs of
 * src/hooks/contract.ts. Shapes follow the Claude Code hooks reference
 * (https://code.claude.com/docs/en/hooks, "Hook input"), as measured with 2.1.332:
 * common fields `session_id`, `transcript_path`, `cwd`, `hook_event_name`; PostToolUse adds
 * `tool_name`, `tool_input`, `tool_use_id`, `tool_response`; Stop adds `stop_hook_active`,
 * `last_assistant_message`; SubagentStop adds `agent_id`; UserPromptSubmit adds `prompt`;
 * PreToolUse adds `tool_name`, `tool_input` (Bash: `command`; Write: `file_path`, `content`;
 * Edit: `file_path`, `old_string`, `new_string`, `replace_all`; MultiEdit: `file_path`,
 * `edits`; NotebookEdit: `notebook_path`) and `tool_use_id`.
 * Tool output shapes (`tool_response`) as in @anthropic-ai/claude-code sdk-tools.d.ts.
 */
import path from 'node:path';
import {
  PayloadError,
  type AgentEvent,
  type EditInput,
  type InputOf,
  type JournalInput,
  type ParsedPayload,
  type PlannedWrite,
  type PreToolInput,
  type ToolCall,
  type PromptInput,
  type ReportedChange,
  type StopInput,
} from '../../hooks/contract.js';
import { parseJsonObject } from '../payload-json.js';
import { showValue } from '../../words.js';

/** The payload error class (defined with the agent-neutral contract). */
export { PayloadError };

export interface HookPayload {
  session_id?: string;
  cwd?: string;
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  stop_hook_active?: boolean;
  agent_id?: string;
}

/**
 * Parses a payload string and checks the types of the fields the handlers read.
 * @param expectEvents if given, `hook_event_name` must be one of these.
 * @throws PayloadError if it is empty, not JSON, not a JSON object, lacks `hook_event_name`,
 *   has a known field of the wrong type, or is for another event.
 */
export function parsePayload(text: string, expectEvents?: string[]): HookPayload {
  const o = parseJsonObject(text);
  const types: [string, string][] = [
    ['session_id', 'string'],
    ['cwd', 'string'],
    ['hook_event_name', 'string'],
    ['tool_name', 'string'],
    ['tool_input', 'object'],
    ['stop_hook_active', 'boolean'],
    ['agent_id', 'string'],
  ];
  for (const [k, t] of types) {
    if (o[k] !== undefined && (typeof o[k] !== t || o[k] === null)) {
      throw new PayloadError(`hook payload field "${k}" should be a ${t}, got ${showValue(o[k])}`);
    }
  }
  // Every payload Claude Code sends names its event ("Hook Input", common fields).
  if (o.hook_event_name === undefined) throw new PayloadError('hook payload has no "hook_event_name" (is this a Claude Code hook payload?)');
  if (expectEvents && typeof o.hook_event_name === 'string' && !expectEvents.includes(o.hook_event_name)) {
    throw new PayloadError(`hook payload is for event "${o.hook_event_name}", expected ${expectEvents.join(' or ')}`);
  }
  return o as HookPayload;
}

/**
 * The paths an editing tool touched, from `tool_input`: `file_path` (Write, Edit, MultiEdit),
 * `notebook_path` (NotebookEdit), and any `edits[].file_path` (older MultiEdit payloads).
 */
export function editedPaths(p: HookPayload): string[] {
  const ti = p.tool_input;
  if (!ti || typeof ti !== 'object') return [];
  const out: string[] = [];
  for (const k of ['file_path', 'notebook_path']) if (typeof ti[k] === 'string' && ti[k]) out.push(ti[k] as string);
  if (Array.isArray(ti.edits)) {
    for (const e of ti.edits) {
      if (e && typeof e === 'object' && typeof (e as Record<string, unknown>).file_path === 'string') out.push((e as Record<string, string>).file_path);
    }
  }
  return [...new Set(out)];
}

/** The Claude Code events each git-kizu hook event is registered for (see settings.ts). */
export const CLAUDE_EVENTS: Record<AgentEvent, string[]> = {
  stop: ['Stop', 'SubagentStop'],
  'post-tool-use': ['PostToolUse'],
  journal: ['PostToolUse'],
  'user-prompt-submit': ['UserPromptSubmit'],
  'pre-tool-use': ['PreToolUse'],
};

/**
 * Parses the payload Claude Code sent for git-kizu's hook `event` into that event's
 * agent-neutral input. The working directory is the payload's `cwd`, else
 * `CLAUDE_PROJECT_DIR` (set by Claude Code when it runs a hook), else the process's.
 * @throws PayloadError as {@link parsePayload} (the event must be one of
 *   {@link CLAUDE_EVENTS}[event]), and for a `prompt`, `tool_response` or `tool_use_id` of
 *   the wrong type.
 */
export function parseHookInput<E extends AgentEvent>(event: E, text: string, env: NodeJS.ProcessEnv): ParsedPayload<E> {
  const p = parsePayload(text, CLAUDE_EVENTS[event]);
  const common = { session: typeof p.session_id === 'string' ? p.session_id : null, cwd: typeof p.cwd === 'string' && p.cwd ? p.cwd : env.CLAUDE_PROJECT_DIR || process.cwd() };
  let input: InputOf[AgentEvent];
  if (event === 'stop') {
    const subagent = p.hook_event_name === 'SubagentStop' || typeof p.agent_id === 'string' ? (p.agent_id ?? 'subagent') : null;
    // The stop gate checks the project the session belongs to (CLAUDE_PROJECT_DIR, which
    // Claude Code sets for every hook), not where the agent's shell is now: an agent that
    // `cd`s into a new worktree or a nested repository before it stops must not leave its
    // project's review behind (the payload's cwd follows the shell).
    const project = env.CLAUDE_PROJECT_DIR && path.isAbsolute(env.CLAUDE_PROJECT_DIR) ? env.CLAUDE_PROJECT_DIR : null;
    input = { ...common, ...(project ? { cwd: project } : {}), retry: p.stop_hook_active === true, subagent } satisfies StopInput;
  } else if (event === 'post-tool-use') {
    input = { ...common, paths: editedPaths(p) } satisfies EditInput;
  } else if (event === 'journal') {
    input = { ...common, edit: recordableEdit(p) } satisfies JournalInput;
  } else if (event === 'pre-tool-use') {
    input = { ...common, tool: p.tool_name ?? '', call: toolCall(p) } satisfies PreToolInput;
  } else {
    const prompt = (p as { prompt?: unknown }).prompt;
    if (prompt !== undefined && typeof prompt !== 'string') {
      throw new PayloadError(`hook payload field "prompt" should be a string, got ${showValue(prompt).slice(0, 80)}`);
    }
    input = { ...common, prompt: prompt ?? '' } satisfies PromptInput;
  }
  return { input: input as InputOf[E], hookEventName: p.hook_event_name! };
}

/** Claude Code's shell tool. */
const SHELL_TOOL = 'Bash';

/**
 * What a PreToolUse payload's call is about to do: Bash runs `tool_input.command`; Write,
 * Edit, MultiEdit and NotebookEdit write the file of `file_path`/`notebook_path` (Write with
 * its whole `content`, Edit and MultiEdit by their string replacements); any other tool is
 * `other`.
 * @throws PayloadError for a Bash call without a string `command`, or an editing call
 *   without a path or with a field of the wrong type (the gate then fails closed).
 */
function toolCall(p: HookPayload): ToolCall {
  const ti = (p.tool_input ?? {}) as Obj;
  if (p.tool_name === SHELL_TOOL) {
    if (typeof ti.command !== 'string') throw new PayloadError(`hook payload field "tool_input.command" should be a string, got ${showValue(ti.command).slice(0, 80)}`);
    return { kind: 'shell', command: ti.command };
  }
  if (!p.tool_name || !EDIT_TOOLS.has(p.tool_name)) return { kind: 'other' };
  const paths = editedPaths(p);
  if (!paths.length) throw new PayloadError(`hook payload of ${p.tool_name} names no file (tool_input.file_path or notebook_path)`);
  const writes: PlannedWrite[] = paths.map((path) => ({ path }));
  if (paths.length === 1) {
    const w = writes[0];
    if (p.tool_name === 'Write') {
      if (typeof ti.content === 'string') w.content = ti.content;
    } else if (p.tool_name === 'Edit' || p.tool_name === 'MultiEdit') {
      const edits: unknown[] = p.tool_name === 'MultiEdit' && Array.isArray(ti.edits) ? ti.edits : [ti];
      const reps: NonNullable<PlannedWrite['replacements']> = [];
      for (const e of edits) {
        const o = e && typeof e === 'object' ? (e as Obj) : {};
        if (typeof o.old_string !== 'string' || typeof o.new_string !== 'string') return { kind: 'write', writes };
        reps.push({ old: o.old_string, new: o.new_string, all: o.replace_all === true });
      }
      w.replacements = reps;
    }
  }
  return { kind: 'write', writes };
}

/** The tools whose edits are journaled. */
const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

type Obj = Record<string, unknown>;

function str(o: Obj, k: string): string | undefined {
  return typeof o[k] === 'string' ? (o[k] as string) : undefined;
}

/**
 * The edit a PostToolUse payload reports, for the journal; null for a tool other than
 * Write/Edit/MultiEdit/NotebookEdit and for a held-back (`tool_response.staged`) or failed
 * (`tool_response.error`) call.
 * @throws PayloadError for a `tool_response` that is not an object or a `tool_use_id` that
 *   is not a string.
 */
function recordableEdit(p: HookPayload): JournalInput['edit'] {
  const raw = p as unknown as Obj;
  if (!p.tool_name || !EDIT_TOOLS.has(p.tool_name)) return null;
  const trv = raw.tool_response;
  if (trv !== undefined && (typeof trv !== 'object' || trv === null || Array.isArray(trv))) {
    throw new PayloadError(`hook payload field "tool_response" should be an object, got ${showValue(trv).slice(0, 80)}`);
  }
  if (raw.tool_use_id !== undefined && typeof raw.tool_use_id !== 'string') {
    throw new PayloadError(`hook payload field "tool_use_id" should be a string, got ${showValue(raw.tool_use_id)}`);
  }
  const tr = (trv ?? {}) as Obj;
  if (tr.staged === true || (typeof tr.error === 'string' && tr.error)) return null;
  const paths = editedPaths(p);
  return {
    tool: p.tool_name,
    toolUseId: (raw.tool_use_id as string | undefined) ?? null,
    paths,
    // The payload describes the file only when the tool edited exactly one.
    reported: paths.length === 1 ? reportedChange(p.tool_name, (p.tool_input ?? {}) as Obj, tr) : null,
  };
}

/** Claude Code's Edit on a string: the first (or, with replaceAll, every) occurrence; undefined if absent. */
function replaceIn(text: string, oldS: string, newS: string, all: boolean): string | undefined {
  if (oldS === '' || !text.includes(oldS)) return undefined;
  return all ? text.split(oldS).join(newS) : text.replace(oldS, () => newS);
}

/**
 * Applies Claude Code's `structuredPatch` (jsdiff hunks: `lines` of ' ', '-' or '+' and the
 * text without its line end, `\\ No newline at end of file` after a line that has none) to
 * `text`, checking every context and removed line byte for byte at the line its hunk names.
 * @returns the new text; undefined for no hunks, a malformed hunk or one that does not fit.
 */
export function applyStructuredPatch(text: string, hunks: unknown): string | undefined {
  if (!Array.isArray(hunks) || !hunks.length) return undefined;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: string[] = [];
  let at = 0;
  for (const h of hunks as Obj[]) {
    if (!h || typeof h !== 'object' || !Array.isArray(h.lines) || typeof h.oldStart !== 'number' || typeof h.oldLines !== 'number') return undefined;
    const ls = h.lines as unknown[];
    const old: string[] = [];
    const neu: string[] = [];
    for (let k = 0; k < ls.length; k++) {
      const l = ls[k];
      if (typeof l !== 'string' || !l) return undefined;
      if (l[0] === '\\') continue;
      const eol = typeof ls[k + 1] === 'string' && (ls[k + 1] as string)[0] === '\\' ? '' : '\n';
      if (l[0] === ' ' || l[0] === '-') old.push(l.slice(1) + eol);
      if (l[0] === ' ' || l[0] === '+') neu.push(l.slice(1) + eol);
      if (!' -+'.includes(l[0])) return undefined;
    }
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    if (old.length !== h.oldLines || start < at || start + old.length > lines.length) return undefined;
    if (old.some((t, k) => lines[start + k] !== t)) return undefined;
    out.push(...lines.slice(at, start), ...neu);
    at = start + old.length;
  }
  out.push(...lines.slice(at));
  return out.join('');
}

/**
 * What the payload says about the one edited file (tool output shapes of sdk-tools.d.ts):
 * - Write (FileWriteOutput): `type` "create" | "update", `content`, `originalFile` (null for
 *   a new file, or when the old content was too large to include);
 * - Edit (FileEditOutput): `originalFile`, `structuredPatch`, `oldString`, `newString`; the
 *   new content is `originalFile` with `structuredPatch` applied (the diff of what the tool
 *   wrote), or where that does not fit, with `tool_input`'s edit (MultiEdit: each of `edits`)
 *   applied; an empty `old_string` and no original is Claude Code's way to create a file;
 * - NotebookEdit (NotebookEditOutput): `original_file`, `updated_file`, `error`.
 */
function reportedChange(tool: string, ti: Obj, tr: Obj): ReportedChange {
  let before: Buffer | null = null;
  let beforeUnknown = false;
  let after: string | undefined;
  const orig = tr.originalFile;
  if (tool === 'Write') {
    after = str(ti, 'content') ?? str(tr, 'content');
    if (tr.type === 'create') before = null;
    else if (typeof orig === 'string') before = Buffer.from(orig, 'utf8');
    else beforeUnknown = true;
  } else if (tool === 'NotebookEdit') {
    after = str(tr, 'updated_file');
    const o = str(tr, 'original_file');
    if (o !== undefined) before = Buffer.from(o, 'utf8');
    else beforeUnknown = true;
  } else {
    const edits: Obj[] =
      tool === 'MultiEdit' && Array.isArray(ti.edits) ? (ti.edits.filter((e) => e && typeof e === 'object') as Obj[]) : [ti];
    if (typeof orig === 'string') {
      before = Buffer.from(orig, 'utf8');
      let t: string | undefined = orig;
      for (const e of edits) {
        const o = str(e, 'old_string');
        const n = str(e, 'new_string');
        t = t === undefined || o === undefined || n === undefined ? undefined : replaceIn(t, o, n, e.replace_all === true);
      }
      after = applyStructuredPatch(orig, tr.structuredPatch) ?? t;
    } else if (edits.length === 1 && str(ti, 'old_string') === '' && orig === null) {
      before = null; // an Edit with an empty old_string creates the file
      after = str(ti, 'new_string');
    } else beforeUnknown = true;
  }
  return { before, beforeUnknown, after: after === undefined ? undefined : Buffer.from(after, 'utf8') };
}
