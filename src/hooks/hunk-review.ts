/**
 * Hunk review state for the hooks: hunks a reviewer rejected (and, with
 * `stop.requireReview`, hunks nobody reviewed yet) that are still present with unchanged
 * content. Marks are keyed by hunk content id, so a hunk the agent reworked no longer
 * matches its mark and stops counting.
 */
import { readMarks, markOf } from '../marks/read.js';
import type { Hunk } from '../hunks/listing.js';

export interface HunkReview {
  rejected: Hunk[];
  unreviewed: Hunk[];
  /** The baseline commit the hunks were computed against ('' if not computed). */
  baseline: string;
  /** One line per rejected hunk for the agent: only its place, by design (no reason given). */
  rejectedText: string;
  /** One line per unreviewed hunk. */
  unreviewedText: string;
}

const NONE: HunkReview = { rejected: [], unreviewed: [], baseline: '', rejectedText: '', unreviewedText: '' };

/**
 * @param paths limit to these repo-relative paths (PostToolUse: the edited file).
 * @returns rejected (and, if `requireReview`, unreviewed) current hunks. When no mark is
 *   `rejected` (for the paths) and review is not required, no git process is started.
 * @throws KizuError from the marks store (corrupt ref) or the hunk listing (git failure).
 */
export async function hunkReview(root: string, requireReview: boolean, paths?: string[]): Promise<HunkReview> {
  const marks = await readMarks(root);
  const wanted = (p: string) => !paths || paths.includes(p);
  const anyRejected = [...marks.values()].some((e) => e.state === 'rejected' && wanted(e.path));
  if (!anyRejected && !requireReview) return NONE;
  const { listHunks, hunkRange } = await import('../hunks/listing.js');
  const { baseline, hunks } = await listHunks(root, paths ? { paths } : {});
  const rejected = hunks.filter((h) => markOf(marks, h.id) === 'rejected');
  const unreviewed = requireReview ? hunks.filter((h) => markOf(marks, h.id) === 'unreviewed') : [];
  const base = baseline.oid.slice(0, 12);
  return {
    rejected,
    unreviewed,
    baseline: baseline.oid,
    rejectedText: rejected
      .map(
        (h) =>
          `- ${hunkRange(h)} → a reviewer rejected this change without giving a reason: compare it with the baseline ` +
          // `git diff <commit>` shows nothing for an untracked file, so say what the baseline lacks instead.
          (h.kind === 'untracked' ? `(${h.path} is a new file: the baseline ${base} does not have it)` : `(\`git diff ${base} -- ${shellQuote(h.path)}\`)`) +
          ', work out what is wrong, and rework or revert it',
      )
      .join('\n'),
    unreviewedText: unreviewed
      .map((h) => `- ${hunkRange(h)} → not reviewed yet: only a human reviewer can tap or reject it (\`git kizu review\`); tell the user it is waiting for review`)
      .join('\n'),
  };
}

/** `p` as one POSIX shell word: as is when it holds only safe characters, else single-quoted. */
function shellQuote(p: string): string {
  return /^[A-Za-z0-9._\/@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** {@link hunkReview}, but a failure (corrupt marks ref, git error) is reported through `warn` and treated as no review state. */
export async function hunkReviewOrNone(root: string, requireReview: boolean, warn: (line: string) => void, paths?: string[]): Promise<HunkReview> {
  try {
    return await hunkReview(root, requireReview, paths);
  } catch (e) {
    warn(`git-kizu: review marks not read: ${(e as Error).message.split('\n')[0]}`);
    return NONE;
  }
}
