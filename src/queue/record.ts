/**
 * The record of the review queue items written and removed through git kizu in one worktree
 * (`<git-dir>/kizu/queue-record`, git/layout.ts {@link queueRecordFile}): `queue add` appends
 * `+\t<id>\t<text as JSON>`, `queue rm` and `queue clear --done` append `-\t<id>` for each item
 * they removed. An item added and never removed that the queue file no longer holds (open or
 * done) was taken away some other way: `rm`, `git stash push -- .claude/review-queue.md`,
 * `git checkout`, an edit that deleted its line. That is review state lost, and the Stop hook
 * blocks on it ({@link vanishedItems}).
 *
 * Trust: the file can only add findings (block more); emptying it hides a vanished item, so it
 * sits under `.git/`, which the pre-tool gate keeps the agent from editing. Kept free of git
 * and child_process imports (the hooks load it).
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { queueRecordFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';

/** Past this many bytes the record is rewritten with its live entries only. */
const MAX_BYTES = 1 << 20;

/** An item `queue add` wrote: its id and text (kind and anchor not included). */
export interface RecordedItem {
  id: string;
  text: string;
}

function append(gitDir: string, lines: string[]): void {
  if (!lines.length) return;
  const file = queueRecordFile(gitDir);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    let st = null;
    try {
      st = lstatSync(file);
    } catch {
      /* not yet */
    }
    if (st && !st.isFile()) return;
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o644);
    try {
      writeSync(fd, lines.join(''));
    } finally {
      closeSync(fd);
    }
    if ((st?.size ?? 0) > MAX_BYTES) replaceFileSync(file, liveItems(gitDir).map((i) => `+\t${i.id}\t${JSON.stringify(i.text)}\n`).join(''));
  } catch {
    /* the item was written; it is only not watched for vanishing then */
  }
}

/** Records items `queue add` wrote (called after the queue file was written). Never throws. */
export function recordAdded(gitDir: string, items: RecordedItem[]): void {
  append(
    gitDir,
    items.map((i) => `+\t${i.id}\t${JSON.stringify(i.text)}\n`),
  );
}

/** Records items the reviewer removed (`queue rm`, `queue clear --done`). Never throws. */
export function recordRemoved(gitDir: string, ids: string[]): void {
  append(
    gitDir,
    ids.map((id) => `-\t${id}\n`),
  );
}

/**
 * The items recorded as added and not removed since, in the order added (a missing,
 * unreadable or linked file: none). Malformed lines are skipped.
 */
export function liveItems(gitDir: string): RecordedItem[] {
  let text: string;
  try {
    const file = queueRecordFile(gitDir);
    if (!lstatSync(file).isFile()) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const live = new Map<string, RecordedItem>();
  for (const line of text.split('\n')) {
    const [sign, id, json] = line.split('\t');
    if (!id) continue;
    if (sign === '-') live.delete(id);
    else if (sign === '+' && json !== undefined) {
      try {
        const t = JSON.parse(json) as unknown;
        if (typeof t === 'string') {
          live.delete(id);
          live.set(id, { id, text: t });
        }
      } catch {
        /* skipped */
      }
    }
  }
  return [...live.values()];
}

/**
 * The recorded items (added through git kizu, never removed through it) that the queue file
 * no longer holds, open or done, by id.
 * @param present the ids of every item in the queue file now (an absent file: none).
 */
export function vanishedItems(gitDir: string, present: Iterable<string>): RecordedItem[] {
  const have = new Set(present);
  return liveItems(gitDir).filter((i) => !have.has(i.id));
}
