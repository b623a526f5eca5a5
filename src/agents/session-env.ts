/**
 * Whether a process runs inside a coding agent's session, and which agent's, from the
 * variables the agents set in the processes their shell tools start. Agent-neutral: the
 * callers get a value ({@link AgentSession} or null) and never read `process.env` themselves;
 * the entry (src/cli/program.ts) passes its env down.
 *
 * The markers, measured on the real CLIs on this machine (README "Agents": which variable,
 * which version, seen or documented only):
 * - Claude Code: `CLAUDECODE=1` (seen, 2.1.332; it also sets `AI_AGENT=claude-code_<version>_agent`);
 * - Codex CLI: `CODEX_THREAD_ID` (seen, 0.171.0), `CODEX_SANDBOX_NETWORK_DISABLED=1` (seen under
 *   `-s workspace-write`), `CODEX_SANDBOX` (documented: macOS seatbelt; not set on Linux);
 * - Gemini CLI: `GEMINI_CLI=1` (seen, 0.61.0);
 * - Copilot CLI: `COPILOT_CLI=1` (seen, 1.0.102);
 * - Cursor: `CURSOR_AGENT` (documented only: its CLI is not on the npm registry);
 * - any agent: `AI_AGENT`, the cross-agent marker (seen from Claude Code).
 *
 * This is a label, not a boundary: the agent runs commands as the user and can unset any of
 * these (`env -u CLAUDECODE git kizu tap`). So the reviewer's acts also ask the process
 * ancestry (agents/session.ts, agents/session-ancestry.ts: the agent's CLI is an ancestor of
 * whatever its shell tool runs, variables or not); the pre-tool gate (src/gates/) denies such
 * commands on agents that have a pre-tool hook. README "Threat model" says what is left.
 */
import type { AgentName } from './registry.js';
import { AGENT_BY_PREFIX } from '../marks/format.js';

/** A process found to run inside an agent's session. */
export interface AgentSession {
  /** The agent, or `other` for an `AI_AGENT` marker git-kizu does not know by name. */
  agent: AgentName | 'other';
  /** The variable that said so (`CLAUDECODE`, `CODEX_THREAD_ID`, ...), for messages; absent when the ancestry did. */
  variable?: string;
  /**
   * The agent's CLI process found among this process's ancestors (agents/session-ancestry.ts),
   * for messages: its pid and its program's name as seen (`claude`, `gemini`); absent when a
   * variable said so.
   */
  ancestor?: { pid: number; name: string };
  /** How the agent is written in stored records (marks' `by`): `agent:<agent>`. */
  by: string;
}

/** The markers, first match wins; each with the agent it names. */
const MARKERS: readonly (readonly [string, AgentName])[] = [
  ['CLAUDECODE', 'claude'],
  ['CODEX_THREAD_ID', 'codex'],
  ['CODEX_SANDBOX', 'codex'],
  ['CODEX_SANDBOX_NETWORK_DISABLED', 'codex'],
  ['GEMINI_CLI', 'gemini'],
  ['COPILOT_CLI', 'copilot'],
  ['CURSOR_AGENT', 'cursor'],
];

/** `AI_AGENT` values as agents write them (`claude-code_2-1-332_agent`) → the agent. */
const AI_AGENT_PREFIXES: readonly (readonly [RegExp, AgentName])[] = [
  [/^claude/i, 'claude'],
  [/^codex/i, 'codex'],
  [/^gemini/i, 'gemini'],
  [/^(?:github-)?copilot/i, 'copilot'],
  [/^cursor/i, 'cursor'],
];

/**
 * The agent session `env` runs in, or null when none of the markers is set to a non-empty
 * value other than `0` or `false`.
 * @param env the process environment (the entry's `process.env`, a test's own object).
 */
export function agentSession(env: NodeJS.ProcessEnv): AgentSession | null {
  const on = (v: string | undefined): v is string => !!v && v !== '0' && v.toLowerCase() !== 'false';
  for (const [variable, agent] of MARKERS) if (on(env[variable])) return { agent, variable, by: AGENT_BY_PREFIX + agent };
  const ai = env.AI_AGENT;
  if (on(ai)) {
    const agent = AI_AGENT_PREFIXES.find(([re]) => re.test(ai))?.[1] ?? 'other';
    return { agent, variable: 'AI_AGENT', by: AGENT_BY_PREFIX + agent };
  }
  return null;
}
