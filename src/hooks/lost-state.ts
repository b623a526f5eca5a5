/**
 * Review state the agent's actions took away, as the Stop hook, `status`, `doctor` and the
 * prompt hook name it (hooks/text.ts {@link LostState}).
 */
import type { HunkReview } from './hunk-review.js';
import type { RecordedItem } from '../queue/record.js';
import { marksUnreadableState, unlistableState, unreadableQueueState, vanishedItemsState, type LostState } from './text.js';

/**
 * The review state lost ({@link LostState}): queue items gone from the file (with the command
 * that brings the file back, queue/restore.ts), or all of them when the queue file cannot be
 * read (`queueUnreadable`: why), and unreadable marks (hooks/hunk-review.ts).
 * Starts git only when something was lost.
 */
export async function lostState(root: string, vanished: RecordedItem[], review: Pick<HunkReview, 'marksUnreadable' | 'unlistable'>, queueUnreadable: string | null = null): Promise<LostState[]> {
  const out: LostState[] = [];
  // A queue that cannot be read holds, as far as review can tell, none of the reviewer's items.
  if (queueUnreadable !== null && vanished.length) out.push(unreadableQueueState(vanished, queueUnreadable));
  else if (vanished.length) {
    const { queueRestoreCommand } = await import('../queue/restore.js');
    out.push(vanishedItemsState(vanished, await queueRestoreCommand(root, vanished.map((v) => v.id))));
  }
  if (review.marksUnreadable) out.push(marksUnreadableState(review.marksUnreadable));
  if (review.unlistable) out.push(unlistableState(review.unlistable));
  return out;
}

/**
 * The lost review state of the repository containing `cwd`, the cheap way for the prompt
 * hook and `doctor`: no git process unless something was lost (the record of queue items is
 * read, the queue only when it holds any; the marks from the ref files and their proven
 * cache).
 * @returns the lost state ([] outside a repository; every recorded item when the queue cannot be read).
 */
export async function lostStateAt(cwd: string): Promise<LostState[]> {
  const { findRootFast, gitDirFast } = await import('../git/repo.js');
  const root = findRootFast(cwd);
  const gitDir = root ? gitDirFast(root) : null;
  if (!root || !gitDir) return [];
  const { liveItems, vanishedItems } = await import('../queue/record.js');
  let vanished: RecordedItem[] = [];
  let unreadable: string | null = null;
  if (liveItems(gitDir).length) {
    try {
      const { readQueue } = await import('../queue/read.js');
      vanished = vanishedItems(gitDir, (await readQueue(root, gitDir)).items.map((i) => i.id));
    } catch (e) {
      // A queue that cannot be read (made a directory, a symbolic link, conflict markers)
      // holds none of the reviewer's items as far as review can tell.
      vanished = vanishedItems(gitDir, []);
      unreadable = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    }
  }
  let marksUnreadable: HunkReview['marksUnreadable'];
  try {
    await (await import('../marks/read.js')).readMarks(root);
  } catch (e) {
    const { KizuError } = await import('../errors.js');
    if (!(e instanceof KizuError)) throw e;
    marksUnreadable = await (await import('../marks/restore.js')).marksUnreadable(root, e);
  }
  return lostState(root, vanished, { marksUnreadable }, unreadable);
}
