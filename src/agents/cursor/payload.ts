/**
 * Cursor hook payloads (JSON on stdin), parsed into the agent-neutral hook inputs of
 * src/hooks/contract.ts. Built from Cursor's documentation only: Cursor's agent is not on
 * the npm registry, so no payload here was measured; every shape is the one the Cursor hooks
 * reference documents (https://cursor.com/docs/hooks, "Reference"; the earlier page
 * https://cursor.com/docs/agent/hooks documents the same fields):
 * - common fields ("Input (all hooks)"): `conversation_id` (stable across the turns of a
 *   conversation: git-kizu's session), `generation_id` (changes with every user message),
 *   `hook_event_name`, `workspace_roots` (the workspace's root folders, normally one),
 *   `model`, `cursor_version`, `user_email`, `transcript_path`; no `cwd`;
 * - `afterFileEdit`: `file_path` (absolute) and `edits[]` of `{old_string, new_string}`;
 * - `stop`: `status` ("completed" | "aborted" | "error") and `loop_count` (how many times
 *   the stop hook has already triggered an automatic follow-up in this conversation, from 0);
 * - `beforeSubmitPrompt`: `prompt` and `attachments[]`;
 * - `beforeShellExecution`: `command` (the command line) and `cwd`.
 * Hook processes get `CURSOR_PROJECT_DIR` (the workspace root; "Environment Variables").
 */
import {
  PayloadError,
  type AgentEvent,
  type EditInput,
  type InputOf,
  type JournalInput,
  type ParsedPayload,
  type PreToolInput,
  type PromptInput,
  type ReportedChange,
  type StopInput,
} from '../../hooks/contract.js';
import { parseJsonObject } from '../payload-json.js';
import { showValue } from '../../words.js';

/** The payload error class (defined with the agent-neutral contract). */
export { PayloadError };

/** The Cursor events each git-kizu hook event is parsed from (install.ts registers them). */
export const CURSOR_EVENTS: Record<AgentEvent, string[]> = {
  stop: ['stop'],
  'post-tool-use': ['afterFileEdit'],
  journal: ['afterFileEdit'],
  'user-prompt-submit': ['beforeSubmitPrompt'],
  'pre-tool-use': ['beforeShellExecution'],
};

/** One edit of an `afterFileEdit` payload. */
export interface CursorEdit {
  old_string: string;
  new_string: string;
}

/** The fields of a Cursor payload git-kizu reads, their types checked. */
export interface CursorPayload {
  hook_event_name: string;
  conversation_id?: string;
  workspace_roots?: string[];
  file_path?: string;
  edits?: CursorEdit[];
  status?: string;
  loop_count?: number;
  prompt?: string;
  command?: string;
  cwd?: string;
}

function show(v: unknown): string {
  return showValue(v).slice(0, 80);
}

/**
 * Parses a payload string and checks the types of the fields git-kizu reads.
 * @param expectEvents `hook_event_name` must be one of these.
 * @throws PayloadError if it is empty, not JSON, not a JSON object, lacks `hook_event_name`,
 *   is for another event, or has a known field of the wrong type: `conversation_id`,
 *   `file_path`, `status`, `prompt`, `command`, `cwd` strings, `workspace_roots` an array of strings, `edits`
 *   an array of objects whose `old_string` and `new_string` are strings, `loop_count` a
 *   whole number >= 0.
 */
export function parsePayload(text: string, expectEvents: string[]): CursorPayload {
  const o = parseJsonObject(text);
  for (const k of ['hook_event_name', 'conversation_id', 'file_path', 'status', 'prompt', 'command', 'cwd']) {
    if (o[k] !== undefined && typeof o[k] !== 'string') throw new PayloadError(`hook payload field "${k}" should be a string, got ${show(o[k])}`);
  }
  if (o.workspace_roots !== undefined && (!Array.isArray(o.workspace_roots) || o.workspace_roots.some((r) => typeof r !== 'string'))) {
    throw new PayloadError(`hook payload field "workspace_roots" should be an array of strings, got ${show(o.workspace_roots)}`);
  }
  if (o.edits !== undefined) {
    const ok =
      Array.isArray(o.edits) &&
      o.edits.every((e) => e && typeof e === 'object' && !Array.isArray(e) && typeof e.old_string === 'string' && typeof e.new_string === 'string');
    if (!ok) throw new PayloadError(`hook payload field "edits" should be an array of {"old_string","new_string"} strings, got ${show(o.edits)}`);
  }
  if (o.loop_count !== undefined && !(typeof o.loop_count === 'number' && Number.isInteger(o.loop_count) && o.loop_count >= 0)) {
    throw new PayloadError(`hook payload field "loop_count" should be a whole number >= 0, got ${show(o.loop_count)}`);
  }
  // Every payload Cursor sends names its event ("Input (all hooks)").
  if (o.hook_event_name === undefined) throw new PayloadError('hook payload has no "hook_event_name" (is this a Cursor hook payload?)');
  if (!expectEvents.includes(o.hook_event_name as string)) {
    throw new PayloadError(`hook payload is for event "${o.hook_event_name}", expected ${expectEvents.join(' or ')}`);
  }
  return o as unknown as CursorPayload;
}

/** True if `file` is `root` or inside it (both absolute, '/'-separated or native). */
function within(root: string, file: string): boolean {
  const r = root.replace(/[\\/]+$/, '');
  return file === r || file.startsWith(r + '/') || file.startsWith(r + '\\');
}

/**
 * The directory relative paths are resolved against: for an edit, the workspace root that
 * holds the edited file (the longest one, multi-root workspaces having several); otherwise
 * the first workspace root; without any, `CURSOR_PROJECT_DIR`, then `CLAUDE_PROJECT_DIR`
 * (Cursor's alias of it), then the process's own directory.
 */
function workingDir(p: CursorPayload, env: NodeJS.ProcessEnv): string {
  const roots = (p.workspace_roots ?? []).filter((r) => r !== '');
  const file = p.file_path;
  const holding = file ? roots.filter((r) => within(r, file)).sort((a, b) => b.length - a.length)[0] : undefined;
  return holding ?? roots[0] ?? (env.CURSOR_PROJECT_DIR || env.CLAUDE_PROJECT_DIR || process.cwd());
}

/**
 * The `hookEventName` of a `stop` payload whose `status` is not "completed" (the user
 * aborted the agent, or it ended in an error): `stop:<status>`. The envelope sends no
 * follow-up for it (envelope.ts), so that git-kizu never restarts an agent the user stopped.
 */
export function stopEventName(status: string | undefined): string {
  return status === undefined || status === 'completed' ? 'stop' : `stop:${status}`;
}

/**
 * Parses the payload Cursor sent for git-kizu's hook `event` into that event's
 * agent-neutral input:
 * - `stop`: a retry when `loop_count` > 0 (the stop hook has already sent a follow-up in
 *   this conversation); never a subagent (Cursor's `subagentStop` is not registered);
 * - `post-tool-use`: the edited `file_path`;
 * - `journal`: the edit, tool `afterFileEdit`, with no tool call id (Cursor sends none) and
 *   the content before unknown: `edits` says which strings were replaced, not where in the
 *   file nor how often, and Cursor reports no content, so neither the content before nor
 *   after can be computed without reading the file (the journal reads the file at hook time
 *   as the content after);
 * - `user-prompt-submit`: `prompt`;
 * - `pre-tool-use`: a shell call of `command` from `beforeShellExecution` (its `cwd` the
 *   working directory); Cursor documents no hook before a file edit, so edits are not gated
 *   before the write there (the stop gate and status see them after).
 * The session is `conversation_id`. The returned `hookEventName` is the payload's, except for
 * a stop that did not complete (see {@link stopEventName}).
 * @throws PayloadError as {@link parsePayload} (the event must be one of
 *   {@link CURSOR_EVENTS}[event]), and for an `afterFileEdit` payload without a `file_path`.
 */
export function parseHookInput<E extends AgentEvent>(event: E, text: string, env: NodeJS.ProcessEnv): ParsedPayload<E> {
  const p = parsePayload(text, CURSOR_EVENTS[event]);
  const common = { session: p.conversation_id ?? null, cwd: workingDir(p, env) };
  let input: InputOf[AgentEvent];
  let hookEventName = p.hook_event_name;
  if (event === 'stop') {
    input = { ...common, retry: (p.loop_count ?? 0) > 0, subagent: null } satisfies StopInput;
    hookEventName = stopEventName(p.status);
  } else if (event === 'post-tool-use' || event === 'journal') {
    if (!p.file_path) throw new PayloadError('hook payload has no "file_path" (afterFileEdit names the edited file)');
    const paths = [p.file_path];
    if (event === 'post-tool-use') input = { ...common, paths } satisfies EditInput;
    else {
      const reported: ReportedChange = { before: null, beforeUnknown: true, after: undefined };
      input = { ...common, edit: { tool: 'afterFileEdit', toolUseId: null, paths, reported } } satisfies JournalInput;
    }
  } else if (event === 'pre-tool-use') {
    if (p.command === undefined) throw new PayloadError('hook payload has no "command" (beforeShellExecution names the command line)');
    input = { ...common, cwd: p.cwd || common.cwd, tool: 'shell', call: { kind: 'shell', command: p.command } } satisfies PreToolInput;
  } else {
    input = { ...common, prompt: p.prompt ?? '' } satisfies PromptInput;
  }
  return { input: input as InputOf[E], hookEventName };
}
