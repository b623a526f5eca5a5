/**
 * git-kizu's hook entries for Claude Code settings files (`.claude/settings*.json`,
 * `~/.claude/settings.json`): which events, matchers and timeouts (Claude Code docs "Hooks
 * reference"). The edits themselves (merge, remove, recognise) are agents/hooks-json.ts,
 * shared with the agents of the same settings shape.
 */
import type { AgentEvent } from '../../hooks/contract.js';
import type { KizuEntry, MatcherGroup } from '../hooks-json.js';

// Only types here: the editor itself (agents/hooks-json.ts, with its JSON parser) is imported
// from there by whoever edits or reads a settings file, so that rendering the entries (the
// prompt hook's integrity check) does not load it.
export type { CommandHook, KizuEntry, MatcherGroup, MergeResult, RemoveOptions, RemoveResult } from '../hooks-json.js';

/** The PostToolUse matcher: exactly the file-editing tools (anchored regex). */
export const POST_TOOL_USE_MATCHER = '^(Write|Edit|MultiEdit|NotebookEdit)$';
/** The PreToolUse matcher of the pre-tool gate: the shell tool and the file-editing tools (anchored regex). */
export const PRE_TOOL_USE_MATCHER = '^(Bash|Write|Edit|MultiEdit|NotebookEdit)$';
/**
 * Timeout of the pre-tool gate, in seconds. Claude Code lets a call through when its hook
 * times out, so this is far above the gate's own budget (src/gates/: a command it cannot
 * judge within that budget is denied); it only bounds a machine too loaded to start node.
 */
export const PRE_TOOL_USE_TIMEOUT_S = 30;
/** Hook timeouts in seconds (Claude Code `timeout` field). */
export const STOP_TIMEOUT_S = 30;
export const POST_TOOL_USE_TIMEOUT_S = 10;
/**
 * Timeout of the async journal hook. (The Claude Code settings reference says the timeout is
 * not enforced for a command hook run with `async: true`; it is set as an upper bound should
 * that change.)
 */
export const JOURNAL_TIMEOUT_S = 30;
/**
 * Timeout of the UserPromptSubmit snapshot hook. It blocks the prompt while it runs, so it
 * is kept cheap (an incremental snapshot); the timeout only bounds a pathological first
 * snapshot of a huge repository (the handler itself gives up on a busy store after 5 s).
 */
export const USER_PROMPT_SUBMIT_TIMEOUT_S = 30;

/**
 * The six entries init registers, each running `command(hook)` (a shell command line, see
 * `hookCommand`): Stop and SubagentStop run hook `stop` (timeout 30 s); PostToolUse runs
 * `post-tool-use` (timeout 10 s) and, in a separate group with `"async": true`, `journal`
 * (timeout 30 s), both for the tools matched by {@link POST_TOOL_USE_MATCHER};
 * UserPromptSubmit (no matcher: it has none) runs `user-prompt-submit` (timeout 30 s),
 * which snapshots the working tree; PreToolUse runs `pre-tool-use` (timeout 30 s), the gate
 * that denies tool calls switching review off, for the tools of {@link PRE_TOOL_USE_MATCHER}.
 */
export function kizuEntries(command: (hook: AgentEvent) => string): KizuEntry[] {
  const stop: MatcherGroup = { hooks: [{ type: 'command', command: command('stop'), timeout: STOP_TIMEOUT_S }] };
  return [
    { event: 'Stop', hook: 'stop', group: stop },
    { event: 'SubagentStop', hook: 'stop', group: structuredClone(stop) },
    {
      event: 'PostToolUse',
      hook: 'post-tool-use',
      group: { matcher: POST_TOOL_USE_MATCHER, hooks: [{ type: 'command', command: command('post-tool-use'), timeout: POST_TOOL_USE_TIMEOUT_S }] },
    },
    {
      event: 'PostToolUse',
      hook: 'journal',
      group: { matcher: POST_TOOL_USE_MATCHER, hooks: [{ type: 'command', command: command('journal'), async: true, timeout: JOURNAL_TIMEOUT_S }] },
    },
    {
      event: 'UserPromptSubmit',
      hook: 'user-prompt-submit',
      group: { hooks: [{ type: 'command', command: command('user-prompt-submit'), timeout: USER_PROMPT_SUBMIT_TIMEOUT_S }] },
    },
    {
      event: 'PreToolUse',
      hook: 'pre-tool-use',
      group: { matcher: PRE_TOOL_USE_MATCHER, hooks: [{ type: 'command', command: command('pre-tool-use'), timeout: PRE_TOOL_USE_TIMEOUT_S }] },
    },
  ];
}
