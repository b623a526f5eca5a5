// The edit journal (refs/kizu/journal): feeding `git kizu hook journal` the PostToolUse
// payloads Claude Code 2.1.332 sends for Edit and Write, and reading entries back.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hook } from './sandbox.mjs';

/** Ten lines l1 … l10. */
export const TEN = Array.from({ length: 10 }, (_, k) => `l${k + 1}`).join('\n') + '\n';
/** The blob id git gives text `s`. */
export const blob = (sb, s) => sb.git('hash-object', '--stdin', { input: s }).trim();
/** An ISO time without its milliseconds (as `git kizu journal` prints it). */
export const noMs = (t) => t.replace(/\.\d{3}Z$/, 'Z');

/**
 * The stderr of `rollback patch --yes <a>` refused because the later Edit entry `b` of f.txt
 * (+1 -1) overlaps it: the conflict, the overlapping entry, and the hint naming both.
 */
export const overlapRefusal = (a, b) =>
  `git-kizu: error: cannot roll back ${a.shortId} (Edit f.txt): its change conflicts with what changed in f.txt since\n` +
  '  overlapping later changes:\n' +
  `    ${b.shortId}  ${noMs(b.time)}  Edit f.txt  +1 -1\n` +
  `hint: roll the overlapping entries back first (git kizu rollback patch ${b.shortId} ${a.shortId}), or add --cascade to undo them newest first\n`;

/** `git kizu journal --json <args>` parsed; asserts exit 0 and no stderr. */
export function entries(sb, args = []) {
  const r = sb.kizu(['journal', '--json', ...args]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
}

/** Asserts a run exited 0 and printed nothing (`what` names it). */
export function quiet(r, what = 'hook') {
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: '', stderr: '' }, what);
}

/** The jsdiff-style structuredPatch Claude Code sends (one hunk, 3 lines of context). */
function structuredPatch(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  const from = Math.max(0, p - 3);
  const xe = Math.min(x.length - 1, x.length - s + 3);
  const ye = Math.min(y.length - 1, y.length - s + 3);
  const lines = [
    ...x.slice(from, p).map((l) => ' ' + l),
    ...x.slice(p, x.length - s).map((l) => '-' + l),
    ...y.slice(p, y.length - s).map((l) => '+' + l),
    ...x.slice(x.length - s, xe).map((l) => ' ' + l),
  ];
  return [{ oldStart: from + 1, oldLines: xe - from, newStart: from + 1, newLines: ye - from, lines }];
}

/** The fields every PostToolUse payload of `session` holds. */
export const common = (sb, session) => ({
  session_id: session,
  transcript_path: path.join(sb.home, '.claude/projects/x/' + session + '.jsonl'),
  cwd: sb.dir,
  prompt_id: 'prompt-1',
  permission_mode: 'acceptEdits',
  effort: { level: 'high' },
  hook_event_name: 'PostToolUse',
});

let useCounter = 0;

/** Does what Claude Code's Edit does to `rel`, then feeds the journal hook its PostToolUse payload. */
export function agentEdit(sb, rel, oldS, newS, { session = 'sess-1', replaceAll = false } = {}) {
  const abs = sb.path(rel);
  const original = readFileSync(abs, 'utf8');
  const updated = replaceAll ? original.split(oldS).join(newS) : original.replace(oldS, () => newS);
  writeFileSync(abs, updated);
  quiet(
    hook(sb, 'journal', {
      ...common(sb, session),
      tool_name: 'Edit',
      tool_input: { file_path: abs, old_string: oldS, new_string: newS, replace_all: replaceAll },
      tool_response: { filePath: abs, oldString: oldS, newString: newS, originalFile: original, structuredPatch: structuredPatch(original, updated), userModified: false, replaceAll },
      tool_use_id: `toolu_edit_${++useCounter}`,
      duration_ms: 4,
    }),
    `Edit ${rel}`,
  );
  return entries(sb).at(-1);
}

/** Does what Claude Code's Write does, then feeds the journal hook its payload. */
export function agentWrite(sb, rel, content, { session = 'sess-1' } = {}) {
  const abs = sb.path(rel);
  const original = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  quiet(
    hook(sb, 'journal', {
      ...common(sb, session),
      tool_name: 'Write',
      tool_input: { file_path: abs, content },
      tool_response: { type: original === null ? 'create' : 'update', filePath: abs, content, structuredPatch: original === null ? [] : structuredPatch(original, content), originalFile: original },
      tool_use_id: `toolu_write_${++useCounter}`,
      duration_ms: 3,
    }),
    `Write ${rel}`,
  );
  return entries(sb).at(-1);
}
