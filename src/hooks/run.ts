/**
 * `git kizu hook <event>`: the hook entry point, loaded by bin/git-kizu.js without the CLI
 * framework. Contract for Claude Code events: exactly one JSON object on stdout or nothing;
 * a bad payload or an internal error exits 0 with one line on stderr (a hook must never
 * trap the agent on git-kizu's own bug); only real review state blocks.
 */
import { writeSync } from 'node:fs';
import { parsePayload, readStdin, PayloadError } from '../agents/claude/payload.js';
import { hookSkipped, preCommitSkipped, unknownHookEvent } from './text.js';

const EVENTS = ['stop', 'post-tool-use', 'journal', 'user-prompt-submit', 'pre-commit'] as const;

/**
 * Runs the handler for `event` with the hook payload on stdin.
 * @returns the exit code: 0 (always, for the agents' events and for a pre-commit check that
 *   fails internally), 1 when pre-commit refuses the commit, 2 for an unknown event.
 *   Never throws.
 */
export async function runHook(event: string): Promise<number> {
  if (!(EVENTS as readonly string[]).includes(event)) {
    process.stderr.write(unknownHookEvent(event, EVENTS) + '\n');
    return 2;
  }
  if (event === 'pre-commit') {
    try {
      const { preCommit } = await import('./pre-commit.js');
      const r = await preCommit(process.cwd(), process.env);
      for (const l of r.stderr) process.stderr.write(l + '\n');
      return r.code;
    } catch (e) {
      process.stderr.write(preCommitSkipped(e) + '\n');
      return 0;
    }
  }
  if (event === 'user-prompt-submit') {
    // UserPromptSubmit (src/hooks/user-prompt-submit.ts): snapshot only; stdout must stay empty
    // (Claude Code adds it to the model's context), errors are one stderr line and exit 0.
    try {
      const payload = parsePayload(readStdin(), ['UserPromptSubmit']);
      await (await import('./prompt-snapshot.js')).userPromptSubmit(payload, process.env, (l) => writeAll(2, l + '\n'));
    } catch (e) {
      writeAll(2, hookSkipped(event, e, e instanceof PayloadError) + '\n');
    }
    return 0;
  }
  try {
    const payload = parsePayload(readStdin(), event === 'stop' ? ['Stop', 'SubagentStop'] : ['PostToolUse']);
    if (event === 'journal') {
      // Async PostToolUse hook (src/hooks/journal.ts): records the edit, prints nothing on stdout.
      // Claude Code sends SIGTERM to async hooks still running when the session ends; the
      // record is a few hundred milliseconds of work, so it is finished rather than lost.
      for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => {});
      const started = new Date();
      await (await import('./edit-journal.js')).journalHook(payload, process.env, started);
      return 0;
    }
    const out =
      event === 'stop'
        ? await (await import('./stop-gate.js')).stop(payload, process.env, (l) => writeAll(2, l + '\n'))
        : await (await import('./edit-context.js')).postToolUse(payload, process.env, (l) => writeAll(2, l + '\n'));
    if (out) writeAll(1, JSON.stringify(out) + '\n');
  } catch (e) {
    writeAll(2, hookSkipped(event, e, e instanceof PayloadError) + '\n');
  }
  return 0;
}

/** Writes all of `text` to a file descriptor synchronously (no stream set-up cost). */
function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    }
  }
}
