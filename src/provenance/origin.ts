/**
 * Where a scar or queue item that git kizu did not write here (provenance/ledger.ts) came
 * from, as a short label for the agent and the human: `in HEAD since <short sha>` (the last
 * commit that added or removed the text, `git log -S`), `in HEAD`, or `in the working tree,
 * not written through git kizu here` (typed into the file, or staged but not committed).
 * Costs git processes only for such remarks, bounded per call.
 */
import { git } from '../git/run.js';

/** One remark to place: the file it is in (root-relative) and a string of its text to look for. */
export interface OriginQuery {
  path: string;
  needle: string;
}

/** The label of a remark that is in the working tree only. */
export const WORKTREE_ORIGIN = 'in the working tree, not written through git kizu here';

/** At most this many files' HEAD versions are read, and this many `git log -S` run, per call. */
const MAX_LOOKUPS = 8;

/**
 * The origin label of each of `qs`, in order. A remark beyond the lookup budget, or whose
 * file git cannot show (no HEAD, a shallow history), is labelled from what was found: `in
 * HEAD` when its file's HEAD version holds the text, else {@link WORKTREE_ORIGIN}.
 * @throws never: a git failure gives the less precise label.
 */
export async function originsOf(root: string, qs: OriginQuery[]): Promise<string[]> {
  const heads = new Map<string, string | null>();
  let logs = 0;
  const out: string[] = [];
  for (const q of qs) {
    if (!heads.has(q.path)) {
      if (heads.size >= MAX_LOOKUPS) {
        out.push('not written through git kizu here');
        continue;
      }
      heads.set(q.path, await headText(root, q.path));
    }
    const head = heads.get(q.path);
    if (head === null || head === undefined || !head.includes(q.needle)) {
      out.push(WORKTREE_ORIGIN);
      continue;
    }
    let since = '';
    if (logs++ < MAX_LOOKUPS) {
      try {
        const r = await git(['log', '-1', '--no-color', '--format=%h', `-S${q.needle}`, 'HEAD', '--', `:(literal)${q.path}`], { cwd: root, okStatus: [0, 128] });
        since = r.status === 0 ? r.stdout.toString('utf8').trim() : '';
      } catch {
        since = '';
      }
    }
    out.push(since ? `in HEAD since ${since}` : 'in HEAD');
  }
  return out;
}

/** The text of `rel` in HEAD, or null (no HEAD, no such file, not readable). */
async function headText(root: string, rel: string): Promise<string | null> {
  try {
    const r = await git(['cat-file', 'blob', `HEAD:${rel}`], { cwd: root, okStatus: [0, 128] });
    return r.status === 0 ? r.stdout.toString('utf8') : null;
  } catch {
    return null;
  }
}
