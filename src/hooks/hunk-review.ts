/**
 * Hunk review state for the hooks: hunks a reviewer rejected (and, with
 * `stop.requireReview`, hunks nobody reviewed yet) that are still present with unchanged
 * content, and rejections that outlived their hunk: a rejected change committed since, or
 * rejected lines edited instead of reverted (hunks/rejections.ts). The text for the agent is
 * worded in text.ts.
 */
import { readMarks, markOf } from '../marks/read.js';
import type { Hunk } from '../hunks/listing.js';
import type { LaunderedRejection } from '../hunks/rejections.js';
import { marksNotRead } from './text.js';
import { KizuError } from '../errors.js';

export interface HunkReview {
  rejected: Hunk[];
  unreviewed: Hunk[];
  /** Rejections whose hunk is gone while the change, or an edit of it, is still there (committed or edited; hunks/rejections.ts). */
  laundered: LaunderedRejection[];
  /** The baseline commit the hunks were computed against ('' if not computed). */
  baseline: string;
  /**
   * Where a hunk is, for the agent (`path:start-end`, `path (deleted file)`, ...: the hunk
   * listing's `hunkRange`); only called for hunks of this review.
   */
  range: (h: Hunk) => string;
  /**
   * Set when `refs/kizu/marks` cannot be read (marks/restore.ts): every reject and tap is
   * unknown then, which is review state lost; the Stop hook blocks on it, the guard refuses.
   */
  marksUnreadable?: import('../marks/restore.js').MarksUnreadable;
  /**
   * Set when the hunks could not be listed while review state needs them (a reject mark, or
   * `stop.requireReview`): why, on one line (a diff too large to hold, a git failure). The
   * rejected and unreviewed hunks are unknown then: review state lost, as for the marks.
   */
  unlistable?: string;
}

const NONE: HunkReview = { rejected: [], unreviewed: [], laundered: [], baseline: '', range: (h) => h.path };

/**
 * @param paths limit to these repo-relative paths (PostToolUse: the edited file).
 * @returns rejected (and, if `requireReview`, unreviewed) current hunks, and the rejections
 *   that outlived their hunk (committed or edited). When no mark is
 *   `rejected` (for the paths) and review is not required, no git process is started.
 * @throws KizuError from the marks store (corrupt ref) or the hunk listing (git failure).
 */
export async function hunkReview(root: string, requireReview: boolean, paths?: string[], known?: Map<string, import('../marks/read.js').MarkEntry>): Promise<HunkReview> {
  const marks = known ?? (await readMarks(root));
  const wanted = (p: string) => !paths || paths.includes(p);
  const anyRejected = [...marks.values()].some((e) => e.state === 'rejected' && wanted(e.path));
  if (!anyRejected && !requireReview) return NONE;
  const { listHunks, hunkRange } = await import('../hunks/listing.js');
  const { baseline, hunks } = await listHunks(root, paths ? { paths } : {});
  const { launderedRejections } = await import('../hunks/rejections.js');
  const laundered = anyRejected ? await launderedRejections(root, marks, { baseline, hunks }, paths ? { paths } : {}) : [];
  // A hunk that stands for an edited rejection is named there, not again as unreviewed.
  const edits = new Set(laundered.flatMap((l) => l.edits.map((h) => h.id)));
  return {
    rejected: hunks.filter((h) => markOf(marks, h.id) === 'rejected'),
    laundered,
    unreviewed: requireReview ? hunks.filter((h) => markOf(marks, h.id) === 'unreviewed' && !edits.has(h.id)) : [],
    baseline: baseline.oid,
    range: (h) => hunkRange(h),
  };
}

/**
 * {@link hunkReview}, but marks that cannot be read (a corrupt `refs/kizu/marks`) come back as
 * `marksUnreadable` (with no hunks), and an error listing the hunks is reported through `warn`
 * and treated as no review state, unless a reject mark or `requireReview` needs the hunks: then
 * it comes back as `unlistable` (review state lost).
 */
export async function hunkReviewOrNone(root: string, requireReview: boolean, warn: (line: string) => void, paths?: string[]): Promise<HunkReview> {
  let marks;
  try {
    marks = await readMarks(root);
  } catch (e) {
    if (!(e instanceof KizuError)) throw e;
    warn(marksNotRead(e));
    return { ...NONE, marksUnreadable: await (await import('../marks/restore.js')).marksUnreadable(root, e) };
  }
  try {
    return await hunkReview(root, requireReview, paths, marks);
  } catch (e) {
    warn(marksNotRead(e));
    // With a reject to check (or every hunk to be reviewed), a listing that fails is not "no
    // review state": the agent could make it fail (a diff past what a string holds) to pass.
    const needed = requireReview || [...marks.values()].some((m) => m.state === 'rejected');
    return needed ? { ...NONE, unlistable: (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 300) } : NONE;
  }
}
