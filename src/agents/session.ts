/**
 * Whether this process runs inside a coding agent's session, by both witnesses: the variables
 * the agents set (agents/session-env.ts, read first: free) and, when none is set, the process
 * ancestry (agents/session-ancestry.ts: an agent's CLI among the ancestors, on Linux). The
 * ancestry costs a few reads of `/proc` per level, so it is asked only where a reviewer's act
 * or an agent's mark is decided (cli/program.ts), never on a hook's path.
 */
import { agentSession, type AgentSession } from './session-env.js';
import { agentInAncestry } from './session-ancestry.js';

/**
 * The agent session of a process with environment `env`: the variables' answer, else the
 * ancestry's (`opts` as {@link agentInAncestry}), else null. Never throws.
 */
export function detectAgentSession(env: NodeJS.ProcessEnv, opts: { pid?: number; proc?: string } = {}): AgentSession | null {
  return agentSession(env) ?? agentInAncestry(opts);
}
