/**
 * The agent-neutral seam between a coding agent's hooks and git-kizu's handlers. An agent
 * adapter (src/agents/<agent>/) parses the agent's hook payload into one of the inputs below
 * and renders a handler's {@link HookAnswer} as the output that agent expects; the handlers
 * in src/hooks/ never see an agent's own format. src/hooks/run.ts joins the two.
 */

/** The hook events an agent's hook runs (`git kizu hook <event>`), in git-kizu's own names. */
export const AGENT_EVENTS = ['stop', 'post-tool-use', 'journal', 'user-prompt-submit', 'pre-tool-use'] as const;
export type AgentEvent = (typeof AGENT_EVENTS)[number];

/**
 * A problem with the payload an agent sent (not JSON, a field of the wrong type, another
 * event's): the hook exits 0 and prints the message as one line on stderr.
 */
export class PayloadError extends Error {}

/** What every hook input holds. */
export interface HookInput {
  /** The agent's session id; null when the agent sent none. */
  session: string | null;
  /** The directory the agent works in; relative paths are resolved against it. */
  cwd: string;
}

/** `stop`: the agent (or one of its subagents) wants to end its turn. */
export interface StopInput extends HookInput {
  /** True when the agent goes on because a stop hook blocked its previous stop. */
  retry: boolean;
  /** For a subagent, its id ('subagent' when the agent names none); null for the main agent. */
  subagent: string | null;
}

/** `post-tool-use`: the agent edited files. */
export interface EditInput extends HookInput {
  /** The edited paths as the agent sent them (absolute, or relative to `cwd`), each once. */
  paths: string[];
}

/** What the agent says one edit did to its one file. */
export interface ReportedChange {
  /** The content before; null when the edit created the file (meaningless if `beforeUnknown`). */
  before: Buffer | null;
  /** True when the agent did not say what was there before. */
  beforeUnknown: boolean;
  /** The content the agent says it wrote; undefined when it does not say. */
  after: Buffer | undefined;
  /**
   * When the before content follows from the working tree at hook time (an agent that sends
   * a patch, not the contents): the file to read (a path as in {@link RecordableEdit.paths};
   * another one for a moved file) and the pure function giving the before content from its
   * bytes, or undefined when they do not fit (then the before content is unknown). Takes
   * precedence over `before`/`beforeUnknown` when the file can be read.
   */
  beforeFrom?: { path: string; derive: (bytes: Buffer) => Buffer | undefined };
}

/** An edit to record in the journal. */
export interface RecordableEdit {
  /** The agent's name for the tool that edited (recorded with the entry). */
  tool: string;
  /** The agent's id for this tool call; null when it sent none. */
  toolUseId: string | null;
  /** The edited paths as the agent sent them (absolute, or relative to `cwd`), each once. */
  paths: string[];
  /** What the agent says it changed, when it edited exactly one file; null otherwise. */
  reported: ReportedChange | null;
  /** What the agent says it changed in each file, by path as in `paths` (an agent whose one edit can change several files); takes precedence over `reported`. */
  reportedByPath?: Record<string, ReportedChange>;
}

/** `journal`: record an edit. */
export interface JournalInput extends HookInput {
  /** The edit; null when there is nothing to record (not an editing tool, a held-back or failed call). */
  edit: RecordableEdit | null;
}

/** `user-prompt-submit`: the user sent a prompt. */
export interface PromptInput extends HookInput {
  /** The prompt text ('' when the agent sent none). */
  prompt: string;
}

/**
 * One file a tool is about to write, with what the agent says it will write there (the
 * pre-tool gate reads it to tell an edit of a `package.json` key it guards from any other).
 */
export interface PlannedWrite {
  /** The path as the agent sent it (absolute, or relative to the input's `cwd`). */
  path: string;
  /** The whole new content, when the tool writes the whole file (Claude Code's Write). */
  content?: string;
  /**
   * The string replacements the tool makes, in order, when it edits the file in place
   * (Claude Code's Edit: one; MultiEdit: each of `edits`): `old` is replaced by `new`, the
   * first occurrence, or every one when `all`.
   */
  replacements?: { old: string; new: string; all: boolean }[];
  /** True when the tool deletes the file (a patch's delete); the other fields are then unset. */
  deletes?: boolean;
}

/**
 * What a tool call is about to do, in the terms the pre-tool gate judges:
 * - `shell`: run `command`, a shell command line (bash syntax) as the agent sent it;
 * - `write`: write, edit, create or delete the files of `writes` (each at least once);
 * - `other`: anything else (a read, a search, a web fetch, a tool the adapter does not know).
 */
export type ToolCall = { kind: 'shell'; command: string } | { kind: 'write'; writes: PlannedWrite[] } | { kind: 'other' };

/** `pre-tool-use`: the agent is about to run a tool; the gate may deny it (or ask the user). */
export interface PreToolInput extends HookInput {
  /** The agent's name of the tool (`Bash`, `Write`, `apply_patch`, ...), for messages. */
  tool: string;
  /** What the call is about to do. */
  call: ToolCall;
}

/** The input of each event. */
export interface InputOf {
  stop: StopInput;
  'post-tool-use': EditInput;
  journal: JournalInput;
  'user-prompt-submit': PromptInput;
  'pre-tool-use': PreToolInput;
}

/**
 * A handler's answer, which the adapter renders for its agent:
 * - `block`: the agent may not stop; `reason` tells it why and what to do, and `userMessage`
 *   (if any) is shown to the user;
 * - `allow`: the agent may go on (or stop), and the user is shown `userMessage`;
 * - `context`: text added to the agent's context;
 * - `deny` (pre-tool-use only): the tool call does not run; `reason` is what the agent reads
 *   (why, and what to do instead), `userMessage` (if any) is shown to the user;
 * - `ask` (pre-tool-use only): the user decides whether the call runs, `reason` shown in the
 *   prompt; an agent that cannot ask renders it as `deny`;
 * - `none`: nothing to say (for pre-tool-use: the call may run, as far as git-kizu is concerned;
 *   the agent's own permission rules still apply).
 */
export type HookAnswer =
  | { kind: 'none' }
  | { kind: 'block'; reason: string; userMessage?: string }
  | { kind: 'allow'; userMessage: string }
  | { kind: 'context'; context: string }
  | { kind: 'deny'; reason: string; userMessage?: string }
  | { kind: 'ask'; reason: string; userMessage?: string };

/**
 * How a `pre-tool-use` hook fails closed when it cannot judge a call (a payload it cannot
 * parse, an internal error, an unknown `--agent`): exit code 2 with the reason as one line on
 * stderr, which Claude Code (hooks reference, "Exit code 2 behavior": PreToolUse blocks the
 * tool call and shows stderr to Claude), Codex and Gemini CLI read as a blocked call. Every
 * other event exits 0 on such an error.
 */
export const PRE_TOOL_FAIL_CLOSED_EXIT = 2;

/** The answer that says nothing. */
export const NO_ANSWER: HookAnswer = { kind: 'none' };

/** A parsed payload: the agent-neutral input, and the agent's own name of the event it came with. */
export interface ParsedPayload<E extends AgentEvent> {
  input: InputOf[E];
  /** The agent's name of the event (Claude Code's `hook_event_name`, Copilot's `postToolUse`...), for the answer's envelope. */
  hookEventName: string;
}
