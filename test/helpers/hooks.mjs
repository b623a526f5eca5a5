// Claude Code hook payloads as the hooks receive them (see src/agents/claude/payload.ts) and
// the exact text the hooks print.

/** The protocol line the Stop and PostToolUse hooks add after listing scars. */
export const PROTOCOL =
  'Protocol: ask → answer the question in your reply, then delete the scar line; reject → undo that change, then delete the scar line; free → do what it says, then delete the scar line. Delete a scar line by editing the file or with `git kizu unscar <path>:<line>`.';

/** A Stop payload for the sandbox repo (`active`: stop_hook_active, true after a block). */
export const stopPayload = (sb, active, session = 'sess-1') => ({ session_id: session, cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: active, last_assistant_message: 'done' });

/**
 * A PostToolUse payload for an edit of `files` (paths relative to the repo): Edit of one
 * file, MultiEdit (the legacy `edits[]` input) of several.
 */
export const editPayload = (sb, ...files) =>
  files.length === 1
    ? { session_id: 'sess-1', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: sb.path(files[0]) } }
    : { session_id: 'sess-1', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'MultiEdit', tool_input: { edits: files.map((f) => ({ file_path: sb.path(f) })) } };

/** What the PostToolUse hook prints (parsed) to give the agent `additionalContext`. */
export const contextOutput = (additionalContext) => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext } });
