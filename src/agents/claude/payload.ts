/**
 * Claude Code hook payloads (JSON on stdin). Shapes follow the Claude Code hooks reference
 * (docs.anthropic.com/en/docs/claude-code/hooks, "Hook Input"), as measured with 2.1.332:
 * common fields `session_id`, `transcript_path`, `cwd`, `hook_event_name`; PostToolUse adds
 * `tool_name`, `tool_input`, `tool_response`; Stop adds `stop_hook_active`,
 * `last_assistant_message`; SubagentStop adds `agent_id`.
 */
import { readSync } from 'node:fs';

export interface HookPayload {
  session_id?: string;
  cwd?: string;
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  stop_hook_active?: boolean;
  agent_id?: string;
}

/** A problem with the payload: the hook exits 0 and prints this one line on stderr. */
export class PayloadError extends Error {}

/**
 * Parses a payload string and checks the types of the fields the handlers read.
 * @param expectEvents if given, `hook_event_name` must be one of these.
 * @throws PayloadError if it is empty, not JSON, not a JSON object, lacks `hook_event_name`,
 *   has a known field of the wrong type, or is for another event.
 */
export function parsePayload(text: string, expectEvents?: string[]): HookPayload {
  if (text.trim() === '') throw new PayloadError('empty hook payload on stdin');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new PayloadError(`hook payload is not JSON (${(e as Error).message})`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new PayloadError('hook payload is not a JSON object');
  const o = v as Record<string, unknown>;
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
      throw new PayloadError(`hook payload field "${k}" should be a ${t}, got ${JSON.stringify(o[k])}`);
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

/** Longest wait (ms) for a non-blocking stdin to deliver the payload. */
export const STDIN_WAIT_MS = 10_000;

/**
 * Reads all of stdin as UTF-8, synchronously (cheaper to start than a stream), until end of
 * file. A non-blocking stdin that has no data yet (EAGAIN: the hook was started before its
 * payload was written) is polled every 5 ms for up to {@link STDIN_WAIT_MS}.
 * @returns '' if stdin is a TTY or closed.
 * @throws PayloadError if a non-blocking stdin stays empty for STDIN_WAIT_MS; other read errors.
 */
export function readStdin(): string {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(1 << 16);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let deadline = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        deadline ||= Date.now() + STDIN_WAIT_MS;
        if (Date.now() > deadline) throw new PayloadError(`stdin stayed empty for ${STDIN_WAIT_MS / 1000} s; expected the hook payload`);
        Atomics.wait(sleeper, 0, 0, 5);
        continue;
      }
      if (code === 'EOF' || (code === 'EBADF' && !chunks.length)) break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}
