/**
 * `git kizu hook <event> [--agent <agent>]`: the hook entry point, loaded by src/main.ts
 * without the CLI framework. For an agent's event it reads the payload on stdin, parses it
 * with the agent's adapter (src/agents/<agent>/, `claude` unless `--agent` names another;
 * src/agents/registry.ts) into the agent-neutral input of
 * src/hooks/contract.ts, runs the event's handler (loaded only for its event), and writes
 * the answer as the adapter renders it. Contract: exactly one JSON object on stdout or
 * nothing; a bad payload or an internal error exits 0 with one line on stderr (a hook must
 * never trap the agent on git-kizu's own bug); only real review state blocks. The exception
 * is `pre-tool-use`, the gate in front of a tool call: it fails closed, exiting
 * {@link PRE_TOOL_FAIL_CLOSED_EXIT} (2) with the reason on stderr, which the agents read as
 * a blocked call.
 * `pre-commit` is git's hook (no payload): it exits 1 to refuse the commit.
 */
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AGENT_EVENTS, NO_ANSWER, PRE_TOOL_FAIL_CLOSED_EXIT, PayloadError, type AgentEvent, type HookAnswer, type InputOf } from './contract.js';
import { AGENTS, isAgent, loadHookAdapter, type AgentName } from '../agents/registry.js';
import { readStdin } from './stdin.js';
import { homedir } from 'node:os';
import { gateFailedClosed, hookSkipped, integrityNotice, lostStateUserMessage, oneLine, preCommitSkipped, unknownHookAgent, unknownHookEvent } from './text.js';

const EVENTS = [...AGENT_EVENTS, 'pre-commit'] as const;

type Warn = (line: string) => void;

/** Each agent event's handler; each loads its module when its event runs. */
const HANDLERS: { [E in AgentEvent]: (input: InputOf[E], warn: Warn) => Promise<HookAnswer> } = {
  stop: async (input, warn) => (await import('./stop-gate.js')).stop(input, warn),
  'post-tool-use': async (input, warn) => (await import('./edit-context.js')).postToolUse(input, warn),
  journal: async (input) => {
    // An async hook still running when the session ends gets SIGTERM from Claude Code; the
    // record is a few hundred milliseconds of work, so it is finished rather than lost.
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => {});
    // When the hook process started (not after reading stdin): the closest to the edit's time.
    const started = new Date(Math.round(performance.timeOrigin));
    await (await import('./edit-journal.js')).journalHook(input, started);
    return NO_ANSWER;
  },
  'user-prompt-submit': async (input, warn) => {
    // The snapshot, and beside it the cheap install integrity check (install/prompt-integrity.ts),
    // which runs here because the human's prompt outlives an agent that removed its Stop
    // entry: a change is told to the user (a message for the user, never context for the
    // model) once. Nothing else on stdout (Claude Code adds plain stdout to the model's context).
    const told = import('../install/prompt-integrity.js')
      .then((m) => m.promptIntegrity(input.cwd, process.env.HOME || homedir(), process.env))
      .catch((): string[] => []);
    // A refs/kizu/baseline moved outside HEAD's history, told on every prompt until fixed (hunks/baseline.ts).
    const moved = import('../hunks/baseline.js').then((m) => m.promptBaselineNotice(input.cwd)).catch(() => null);
    try {
      await (await import('./prompt-snapshot.js')).userPromptSubmit(input, warn);
    } catch (e) {
      warn(hookSkipped('user-prompt-submit', e, false));
    }
    // Review state the agent's actions took away (queue items gone, unreadable marks): told at
    // every prompt until restored (hooks/lost-state.ts).
    const lost = await import('./lost-state.js').then((m) => m.lostStateAt(input.cwd)).catch(() => []);
    const lines = await told;
    const m = await moved;
    const say = [...(lines.length ? [integrityNotice(lines)] : []), ...(lost.length ? [lostStateUserMessage(lost)] : []), ...(m ? [m] : [])];
    return say.length ? { kind: 'allow', userMessage: say.join('\n') } : NO_ANSWER;
  },
  'pre-tool-use': async (input) => (await import('./pre-tool-gate.js')).preToolUse(input),
};

/**
 * Runs the handler for `event` with the hook payload on stdin.
 * @param args the arguments after the event: `--agent <agent>` (one of registry.ts `AGENTS`;
 *   default `claude`), parsed by node's `util.parseArgs`.
 * @returns the exit code: 0 (always, for the agents' events other than pre-tool-use, also for
 *   an unknown agent or argument, and for a pre-commit check that fails internally), 1 when
 *   pre-commit refuses the commit, 2 for an unknown event and for a pre-tool-use hook that
 *   cannot judge the call (fail closed). Never throws.
 */
export async function runHook(event: string, args: string[] = []): Promise<number> {
  if (!(EVENTS as readonly string[]).includes(event)) {
    say(unknownHookEvent(event, EVENTS));
    return 2;
  }
  let agent: AgentName = 'claude';
  try {
    const a = parseArgs({ args, options: { agent: { type: 'string' } }, strict: true, allowPositionals: false }).values.agent ?? 'claude';
    if (!isAgent(a)) throw new Error(`unknown agent "${a}"`);
    agent = a;
  } catch (e) {
    if (event === 'pre-tool-use') {
      // The gate fails closed: a call it cannot judge does not run.
      say(gateFailedClosed(`${(e as Error).message}; the hook settings should run \`git-kizu hook pre-tool-use --agent <agent>\` with one of: ${AGENTS.join(', ')}`));
      return PRE_TOOL_FAIL_CLOSED_EXIT;
    }
    // A wrong registration must not trap the agent: say it, let the action through.
    say(unknownHookAgent(event, (e as Error).message, AGENTS));
    return 0;
  }
  if (event === 'pre-commit') {
    try {
      const { preCommit } = await import('./pre-commit.js');
      const r = await preCommit(process.cwd(), process.env);
      for (const l of r.stderr) say(l);
      return r.code;
    } catch (e) {
      say(preCommitSkipped(e));
      return 0;
    }
  }
  return runAgentHook(event as AgentEvent, agent);
}

/**
 * Parse, handle, render for one agent event; any error becomes one stderr line.
 * @returns the exit code: 0, or for pre-tool-use {@link PRE_TOOL_FAIL_CLOSED_EXIT} on any error.
 */
async function runAgentHook<E extends AgentEvent>(event: E, agent: AgentName): Promise<number> {
  const warn: Warn = say;
  try {
    const { parseHookInput, renderAnswer } = await loadHookAdapter(agent);
    const { input, hookEventName } = parseHookInput(event, readStdin(), process.env);
    const handler = HANDLERS[event] as (input: InputOf[E], warn: Warn) => Promise<HookAnswer>;
    const out = renderAnswer(await handler(input, warn), hookEventName);
    if (out) writeAll(1, out);
    return 0;
  } catch (e) {
    if (event === 'pre-tool-use') {
      say(gateFailedClosed(oneLine(e)));
      return PRE_TOOL_FAIL_CLOSED_EXIT;
    }
    say(hookSkipped(event, e, e instanceof PayloadError));
    return 0;
  }
}

/**
 * Writes all of `text` to a file descriptor synchronously (no stream set-up cost).
 * @throws the write error (other than EAGAIN, which is retried).
 */
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

/** Writes one line to stderr; a failing stderr is ignored (there is nowhere else to say it, and a hook must not throw). */
function say(line: string): void {
  try {
    writeAll(2, line + '\n');
  } catch {
    /* stderr is gone */
  }
}
