/** The queue file, relative to the repository root. */
export const QUEUE_FILE = '.claude/review-queue.md';
