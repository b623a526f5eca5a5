/**
 * Public API of the marks store (tap/reject/untap state per hunk, kept in `refs/kizu/marks`;
 * format in ./format.ts). Cheap to import: no git spawn and no isomorphic-git unless the ref
 * exists (hook hot paths call {@link readMarks}).
 */
import { commonDir, commonDirFast } from '../git/repo.js';
import { refFast, resolveRef } from '../git/refs.js';
import { MARKS_REF } from '../git/layout.js';
import { isAgentBy, type MarkEntry, type MarkState } from './format.js';

export { MARKS_FILE, FORMAT_VERSION, mergeMarks, newerEntry, isAgentBy } from './format.js';
export type { MarkEntry, MarkState, Marks } from './format.js';

/**
 * All marks of the repository whose working-tree top level is `root`, from `refs/kizu/marks`
 * in the common git dir (so every linked worktree sees the same marks).
 * Cheap when there are no marks: if the ref does not exist it returns an empty map after a
 * few file reads, without spawning git or loading isomorphic-git.
 * @returns hunk id (full hex) → entry, tombstones (`state: 'none'`) included.
 * @throws KizuError (exit 2) naming `refs/kizu/marks` if it is corrupt (not a commit, no
 *   `marks.json`, invalid JSON or entry) or of an unknown format version.
 */
export async function readMarks(root: string): Promise<Map<string, MarkEntry>> {
  let common = commonDirFast(root);
  let oid = common ? refFast(common, MARKS_REF) : undefined;
  if (oid === null) return new Map();
  const store = await import('./commits.js');
  if (!common) common = await commonDir(root);
  if (oid === undefined) oid = await resolveRef(root, MARKS_REF, common);
  if (oid === null) return new Map();
  return store.loadMarks(common, oid, { ref: MARKS_REF });
}

/**
 * The review state of one hunk: its entry's state, with tombstones and absent ids as
 * 'unreviewed', and a tap set by an agent (`by: agent:<name>`, format.ts isAgentBy) as
 * 'unreviewed' too: an agent's tap is not review (README "Agents").
 */
export function markOf(marks: Map<string, MarkEntry>, hunkId: string): 'unreviewed' | 'tapped' | 'rejected' {
  const e = marks.get(hunkId);
  if (e?.state === 'tapped') return isAgentBy(e.by) ? 'unreviewed' : 'tapped';
  return e?.state === 'rejected' ? 'rejected' : 'unreviewed';
}

/**
 * {@link markOf} as shown to the reviewer: with the agent named when an agent set the mark
 * (`rejected by agent:claude`, `unreviewed, tapped by agent:claude`).
 */
export function markLabel(marks: Map<string, MarkEntry>, hunkId: string): string {
  const m = markOf(marks, hunkId);
  const e = marks.get(hunkId);
  if (!e || e.state === 'none' || !isAgentBy(e.by)) return m;
  return m === 'rejected' ? `rejected by ${e.by}` : `unreviewed, tapped by ${e.by}`;
}

/**
 * Sets marks by compare-and-swap on `refs/kizu/marks` (git-update-ref(1) with an old value),
 * retrying on a lost race so concurrent writers lose nothing; one new commit per call.
 * `time` is now (ISO-8601 UTC, ms; at least 1 ms after the entry it replaces), `by` is
 * user.email (else user.name). `state: 'none'` writes an untap tombstone. An empty list
 * writes nothing.
 * @param root working-tree top level.
 * @param updates full hex hunk ids with their new state, path and `path:start-end` range;
 *   for a reject, the baseline commit and the hunk's place in it (format.ts `base`, `old`).
 * @param opts.who the committer identity, if the caller started git/objects.ts `identity` early.
 * @param opts.by what the entries' `by` says instead of the committer's email: `agent:<name>`
 *   for a mark set inside an agent's session (agents/session-env.ts).
 * @throws KizuError (exit 2) for a malformed id/state, a corrupt or unknown-version ref (the
 *   ref is left unchanged), or persistent contention.
 */
export async function setMarks(
  root: string,
  updates: { id: string; state: MarkState | 'none'; path: string; range: string; base?: string; old?: string }[],
  opts: { who?: Promise<import('../git/objects.js').Ident>; by?: string } = {},
): Promise<void> {
  const store = await import('./commits.js');
  await store.setMarks(root, updates, opts);
}
