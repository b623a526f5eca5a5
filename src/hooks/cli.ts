/**
 * `git kizu hook <event>`: the hook entry point, loaded by bin/git-kizu.js without the CLI
 * framework. Contract for Claude Code events: exactly one JSON object on stdout or nothing;
 * a bad payload or an internal error exits 0 with one line on stderr (a hook must never
 * trap the agent on git-kizu's own bug); only real review state blocks.
 */
import { writeSync } from 'node:fs';
import { parsePayload, readStdin, PayloadError } from './payload.js';

const EVENTS = ['stop', 'post-tool-use', 'journal', 'user-prompt-submit', 'pre-commit'] as const;

function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s*\n\s*/g, ' ').slice(0, 500);
}

/** Runs the handler for `args[0]`; sets process.exitCode. Never throws. */
export async function runHookCli(args: string[]): Promise<void> {
  const event = args[0];
  if (!event || event === '--help' || event === '-h' || args.includes('--help') || args.includes('-h')) {
    const { main } = await import('../cli.js');
    await main([process.argv[0], process.argv[1], 'hook', '--help']);
    return;
  }
  if (!(EVENTS as readonly string[]).includes(event)) {
    process.stderr.write(`git-kizu: unknown hook event "${event}"; expected one of: ${EVENTS.join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  if (event === 'pre-commit') {
    try {
      const { preCommit } = await import('../hooks/pre-commit.js');
      const r = await preCommit(process.cwd(), process.env);
      for (const l of r.stderr) process.stderr.write(l + '\n');
      process.exitCode = r.code;
    } catch (e) {
      process.stderr.write(`git-kizu: pre-commit check skipped because of an internal error: ${oneLine(e)}\n`);
      process.exitCode = 0;
    }
    return;
  }
  if (event === 'user-prompt-submit') {
    // UserPromptSubmit (src/hooks/user-prompt-submit.ts): snapshot only; stdout must stay empty
    // (Claude Code adds it to the model's context), errors are one stderr line and exit 0.
    try {
      const payload = parsePayload(readStdin(), ['UserPromptSubmit']);
      await (await import('../hooks/user-prompt-submit.js')).userPromptSubmit(payload, process.env, (l) => writeAll(2, l + '\n'));
    } catch (e) {
      const what = e instanceof PayloadError ? 'ignored a bad hook payload' : 'snapshot skipped because of an error';
      writeAll(2, `git-kizu: ${what}: ${oneLine(e)}\n`);
    }
    process.exitCode = 0;
    return;
  }
  try {
    const payload = parsePayload(readStdin(), event === 'stop' ? ['Stop', 'SubagentStop'] : ['PostToolUse']);
    if (event === 'journal') {
      // Async PostToolUse hook (src/hooks/journal.ts): records the edit, prints nothing on stdout.
      // Claude Code sends SIGTERM to async hooks still running when the session ends; the
      // record is a few hundred milliseconds of work, so it is finished rather than lost.
      for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => {});
      const started = new Date();
      await (await import('../hooks/journal.js')).journalHook(payload, process.env, started);
      process.exitCode = 0;
      return;
    }
    const out =
      event === 'stop'
        ? await (await import('../hooks/stop.js')).stop(payload, process.env, (l) => writeAll(2, l + '\n'))
        : await (await import('../hooks/post-tool-use.js')).postToolUse(payload, process.env, (l) => writeAll(2, l + '\n'));
    if (out) writeAll(1, JSON.stringify(out) + '\n');
  } catch (e) {
    const what = e instanceof PayloadError ? 'ignored a bad hook payload' : 'hook skipped because of an error';
    writeAll(2, `git-kizu: ${what}: ${oneLine(e)}\n`);
  }
  process.exitCode = 0;
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
