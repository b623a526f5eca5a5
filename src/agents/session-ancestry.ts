/**
 * Whether a process runs inside a coding agent's session, from its ancestry: a command an
 * agent's shell tool runs is a descendant of the agent's CLI process, through any number of
 * shells, interpreters, `env -u ...` and `git` itself (which runs `git-kizu` as a subcommand),
 * whatever environment variables were removed on the way. This is the second witness beside
 * the variables (agents/session-env.ts), for the reviewer's acts (cli/reviewer-acts.ts).
 *
 * Linux only: pure reads of `/proc/<pid>/stat` (the parent pid and comm), `/proc/<pid>/cmdline`
 * and the link `/proc/<pid>/exe`, no process started (about 0.2 ms a level measured). Elsewhere (no `/proc`) the
 * answer is null and the variables alone decide (README "Threat model", "Not promised").
 *
 * The agents' CLIs as their processes look on this machine (README "Agents"):
 * - Claude Code 2.1.332: a native binary; argv[0] is the path it was started by
 *   (`.../node_modules/.bin/claude`, or `claude` from PATH), comm `claude`, exe
 *   `.../@anthropic-ai/claude-code/bin/claude.exe` (older releases: `node .../@anthropic-ai/claude-code/cli.js`);
 * - Codex CLI 0.171.0: `node .../bin/codex` (the npm wrapper `@openai/codex/bin/codex.js`), whose
 *   child is the Rust binary `.../@openai/codex-linux-x64/vendor/<triple>/bin/codex`, comm `codex`;
 * - Gemini CLI 0.61.0: `node .../bin/gemini`, which relaunches itself as
 *   `node --max-old-space-size=<n> .../bin/gemini` (the bundle `@google/gemini-cli/bundle/gemini.js`);
 * - Copilot CLI 1.0.102: `node .../bin/copilot` (`@github/copilot/npm-loader.js`), whose child is
 *   the native `.../@github/copilot-linux-x64/copilot` (comm `MainThread`);
 * - Cursor: `cursor-agent` (documented only: its CLI is not on the npm registry).
 */
import { readFileSync, readlinkSync } from 'node:fs';
import type { AgentName } from './registry.js';
import { AGENT_BY_PREFIX } from '../marks/format.js';
import type { AgentSession } from './session-env.js';

/** What the walk reads of one process. */
export interface ProcessFacts {
  /** `/proc/<pid>/cmdline`, split at NUL (empty for a kernel thread or a zombie). */
  argv: string[];
  /** The target of `/proc/<pid>/exe`, or null where it cannot be read (another user's process). */
  exe: string | null;
  /** The process's comm (in `/proc/<pid>/stat`: the first 15 bytes of the executed file's name). */
  comm: string;
}

/** Program names (basenames of argv[0], comm, exe, or a script run by an interpreter) per agent. */
const NAMES: Readonly<Record<string, AgentName>> = {
  claude: 'claude',
  'claude.exe': 'claude',
  codex: 'codex',
  'codex.js': 'codex',
  gemini: 'gemini',
  'gemini.js': 'gemini',
  copilot: 'copilot',
  'cursor-agent': 'cursor',
};

/** Package folders in a path (the script an interpreter runs, or the executable) per agent. */
const PACKAGES: readonly (readonly [RegExp, AgentName])[] = [
  [/[\\/]@anthropic-ai[\\/]claude-code[\\/]/, 'claude'],
  [/[\\/]@openai[\\/]codex(?:-[a-z0-9-]+)?[\\/]/, 'codex'],
  [/[\\/]@google[\\/]gemini-cli[\\/]/, 'gemini'],
  [/[\\/]@github[\\/]copilot(?:-[a-z0-9-]+)?[\\/]/, 'copilot'],
  [/[\\/]cursor-agent[\\/]/, 'cursor'],
];

/** Interpreters whose first non-option argument is the program (`node .../bin/gemini`). */
const INTERPRETERS = /^(?:node|nodejs|bun|deno)(?:[0-9.]*)(?:\.exe)?$/;

const base = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/**
 * The agent whose CLI process `p` is, or null. Recognised by the basename of argv[0], of the
 * executable, comm, or, when argv[0] is an interpreter (node, bun, deno), of the script it
 * runs (its first argument that is not an option); or by the agent's package folder in the
 * executable's or the script's path. Only the agents' own CLIs count: an editor (`code`), a
 * terminal or a shell that started them is not an agent.
 */
export function agentOfProcess(p: ProcessFacts): AgentName | null {
  const argv0 = p.argv[0] ?? '';
  const paths = [argv0, p.exe ?? ''];
  const names = [base(argv0), base(p.exe ?? ''), p.comm];
  if (INTERPRETERS.test(base(argv0)) || INTERPRETERS.test(base(p.exe ?? ''))) {
    const script = p.argv.slice(1).find((a) => !a.startsWith('-'));
    if (script !== undefined) {
      paths.push(script);
      names.push(base(script));
    }
  }
  for (const n of names) if (Object.hasOwn(NAMES, n)) return NAMES[n]!;
  for (const path of paths) for (const [re, agent] of PACKAGES) if (re.test(path)) return agent;
  return null;
}

/** Reads one process's facts and parent pid from `proc` (`/proc`); null when it is gone or unreadable. */
function readProcess(proc: string, pid: number): { facts: ProcessFacts; ppid: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`${proc}/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so split after the last ')'.
  const close = stat.lastIndexOf(')');
  const ppid = Number(stat.slice(close + 2).split(' ')[1]);
  const comm = Buffer.from(stat.slice(stat.indexOf('(') + 1, close), 'latin1').toString('utf8');
  if (!Number.isInteger(ppid)) return null;
  const read = (f: string): Buffer | null => {
    try {
      return readFileSync(`${proc}/${pid}/${f}`);
    } catch {
      return null;
    }
  };
  const cmdline = read('cmdline')?.toString('utf8') ?? '';
  const argv = cmdline ? cmdline.replace(/\0$/, '').split('\0') : [];
  let exe: string | null = null;
  try {
    exe = readlinkSync(`${proc}/${pid}/exe`).replace(/ \(deleted\)$/, '');
  } catch {
    /* another user's process, or a kernel thread */
  }
  return { facts: { argv, exe, comm }, ppid };
}

/**
 * How far up the walk goes at most: a guard against a /proc that loops, not a limit an agent
 * should reach (a tester nested 70 shells to get past 64). Every level is a few file reads.
 */
const MAX_DEPTH = 4096;

/**
 * The agent session found among the ancestors of process `pid` (default: this process's
 * parent, so the walk starts at whatever ran git-kizu), or null when none of them is an
 * agent's CLI ({@link agentOfProcess}), when the platform has no `/proc`, or when the chain
 * cannot be read. Walks parent pids up to pid 1 (at most 4096 levels), reading only files under
 * `proc`; never throws.
 * @param opts.pid the first process looked at; opts.proc the proc mount (tests).
 * @returns `{agent, by: agent:<name>, ancestor: {pid, name}}`, `name` being the program's
 *   basename as seen (argv[0], or the script an interpreter runs).
 */
export function agentInAncestry(opts: { pid?: number; proc?: string } = {}): AgentSession | null {
  const proc = opts.proc ?? '/proc';
  if (opts.proc === undefined && process.platform !== 'linux' && process.platform !== 'android') return null;
  const seen = new Set<number>();
  let pid = opts.pid ?? process.ppid;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1 && !seen.has(pid); depth++) {
    seen.add(pid);
    const p = readProcess(proc, pid);
    if (!p) return null;
    const agent = agentOfProcess(p.facts);
    if (agent) {
      const argv0 = p.facts.argv[0] ?? '';
      const script = INTERPRETERS.test(base(argv0)) ? p.facts.argv.slice(1).find((a) => !a.startsWith('-')) : undefined;
      const name = base(script ?? argv0) || p.facts.comm;
      return { agent, by: AGENT_BY_PREFIX + agent, ancestor: { pid, name } };
    }
    pid = p.ppid;
  }
  return null;
}
