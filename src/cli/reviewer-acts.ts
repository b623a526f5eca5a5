/**
 * The reviewer's acts: commands that weaken or clear a gate the human set, refused when they
 * run inside a coding agent's session (agents/session-env.ts). The table is README "Agents",
 * "Acts from inside an agent's session"; keep the two equal.
 *
 * Refused (exit 2, this message): an act that says "reviewed", drops a record the human
 * relies on, moves what review is measured against, brings in marks from elsewhere
 * (`marks push` merges the remote's first), or puts the working tree back (every rollback
 * level and `undo`: they discard working-tree content, the review queue file and the
 * reviewer's scars included; their `--dry-run` stays allowed). Done and shown as the agent's: acts
 * that only tighten review (`reject`, recorded with `by: agent:<name>`) and the protocol's
 * own acts (deleting one scar it addressed, `queue done <id>`, `queue reopen`). Installing
 * and removing the hooks (`init` in every form, `--via plugin` and `--scope` included, and
 * `teardown`) is the reviewer's too: an `init` can change which install the integrity check
 * measures against (another scope, agent list or the plugin). Everything
 * else (listing, `status`, `scan`, `snapshot`, `revert <hunk>`, `patch apply`, the hooks,
 * `gc --auto` that the prompt hook starts) is not a review act.
 */
import { KizuError } from '../errors.js';
import { AGENT_LABELS } from '../agents/registry.js';
import type { AgentSession } from '../agents/session-env.js';
import { quoteCStyle } from '../git/quote.js';

/** The acts refused from an agent's session, by the command line that names them. */
export const REVIEWER_ACTS = [
  'tap',
  'untap',
  'unscar --all',
  'review',
  'revert --restore',
  'queue rm',
  'queue clear',
  'baseline set',
  'baseline reset',
  'marks pull',
  'marks push',
  'snapshot drop',
  'gc',
  'init',
  'teardown',
  'rollback snapshot',
  'rollback patch',
  'rollback branch',
  'undo',
] as const;
export type ReviewerAct = (typeof REVIEWER_ACTS)[number];

/** The agent as people call it (`Claude Code`, or the `AI_AGENT` marker's own words). */
export function agentLabel(session: AgentSession): string {
  return session.agent === 'other' ? 'coding agent' : AGENT_LABELS[session.agent];
}

/**
 * What showed the session, for messages: `CLAUDECODE is set`, or `process 1234, claude, started
 * this one` (the program's name escaped as git quotes a path).
 */
export function sessionEvidence(session: AgentSession): string {
  if (session.variable !== undefined) return `${session.variable} is set`;
  const a = session.ancestor;
  return a ? `its process ${a.pid}, ${quoteCStyle(a.name)}, started this one` : 'an agent started this';
}

/**
 * Refuses reviewer act `act` when `session()` says this process runs inside an agent's
 * session; does nothing otherwise. `session` is called only here, so the ancestry walk it may
 * do (agents/session.ts) runs only for the reviewer's acts.
 * @throws KizuError (exit 2): `git kizu <act> is the reviewer's act, and this runs inside a
 *   <agent> session (<VARIABLE> is set | its process <pid>, <name>, started this one)`, hint:
 *   ask the human to run it in their own terminal.
 */
export function refuseFromAgent(act: ReviewerAct, session: () => AgentSession | null): void {
  const s = session();
  if (!s) return;
  throw new KizuError(`git kizu ${act} is the reviewer's act, and this runs inside a ${agentLabel(s)} session (${sessionEvidence(s)}): nothing was changed`, {
    hint: `ask the human to run git kizu ${act} in their own terminal; an agent answers review with its edits, scars it deleted and git kizu queue done`,
  });
}
