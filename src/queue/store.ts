/**
 * Reading and editing `.claude/review-queue.md`. Edits splice the bytes of the touched item
 * only (the rest of the file, headings, prose, order, blank lines, line endings, stays
 * identical), under a lock file so that concurrent writers serialise, and are written
 * atomically. Parse results are cached in `<git-dir>/kizu/queue-cache.json` keyed by a
 * SHA-1 of the file, so hooks parse a hand-edited file once, not on every stop.
 */
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KizuError } from '../errors.js';
import { writeFileAtomic } from '../fsutil.js';
import type { QueueItem } from './item.js';

import { QUEUE_FILE } from './paths.js';
import { readQueue, itemsOf, type QueueState } from './read.js';

export { QUEUE_FILE, readQueue, itemsOf, type QueueState };
const TEMPLATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'templates', 'review-queue.md');

/**
 * Runs `fn` while holding `<git-dir>/kizu/queue.lock` (O_EXCL lock file; a lock older than
 * 30 s is taken to be left over from a crashed process and removed).
 * @throws KizuError (exit 2) if the lock cannot be taken within 10 s.
 */
export async function withQueueLock<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(gitDir, 'kizu', 'queue.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 30_000) rmSync(lock, { force: true });
      } catch {
        /* gone already */
      }
      if (Date.now() > deadline) {
        throw new KizuError(`the review queue is locked by another git kizu process (${lock})`, { hint: `wait and retry; if no git kizu is running, delete ${lock}` });
      }
      await new Promise((r) => setTimeout(r, 15 + Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Reads the queue under the lock, lets `edit` compute the new text, and writes it
 * atomically if it changed (creating `.claude/` and the file from the template if needed).
 * @returns whatever `edit` returns alongside the new text.
 */
export async function modifyQueue<T>(
  root: string,
  gitDir: string,
  edit: (q: QueueState) => Promise<{ text: string; result: T }> | { text: string; result: T },
): Promise<T> {
  return withQueueLock(gitDir, async () => {
    const q = await readQueue(root, gitDir);
    const { text, result } = await edit(q);
    if (q.exists ? text !== q.text : text !== '') {
      mkdirSync(path.dirname(q.file), { recursive: true });
      await writeFileAtomic(q.file, text);
      await itemsOf(text, gitDir); // refresh the cache for the hooks
    }
    return result;
  });
}

/** The template a new queue file starts from. */
export function queueTemplate(): string {
  return existsSync(TEMPLATE) ? readFileSync(TEMPLATE, 'utf8') : '# Review queue\n\n';
}

/** The line ending the file uses (its first one), `\n` if none. */
export function eolOf(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** `text` with `line` (no line ending) appended as a new list item line. */
export function appendItem(text: string, line: string): string {
  const eol = eolOf(text);
  let t = text;
  if (t.length && !t.endsWith('\n')) t += eol;
  const lines = t.split(/\r?\n/);
  lines.pop(); // after the final newline
  let last = '';
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].trim() !== '') { last = lines[i]; break; }
  if (last && !/^\s*(?:[*+-]|\d{1,9}[.)])\s/.test(last) && lines[lines.length - 1]?.trim() !== '') t += eol;
  return t + line + eol;
}

/** `text` with item `i`'s checkbox set to `checked` (an existing `X` stays as written). */
export function setChecked(text: string, i: QueueItem, checked: boolean): string {
  const cur = text[i.box];
  if ((cur !== ' ') === checked) return text;
  return text.slice(0, i.box) + (checked ? 'x' : ' ') + text.slice(i.box + 1);
}

/**
 * `text` without the lines of the given items (each from its first line's start through
 * its last line's ending). A file without a final newline still ends without one.
 * Items nested in another removed item go with it.
 */
export function removeItems(text: string, items: QueueItem[]): string {
  const ranges = items
    .map((i) => {
      const s = text.lastIndexOf('\n', i.start - 1) + 1;
      const nl = text.indexOf('\n', Math.max(i.end - 1, i.start));
      return nl === -1 ? [s, text.length, 1] : [s, nl + 1, 0];
    })
    .sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  let cutToEnd = false;
  for (const [s, e, toEnd] of ranges) {
    if (s < pos) continue; // nested in a range already removed
    out += text.slice(pos, s);
    pos = e;
    if (toEnd) cutToEnd = true;
  }
  out += text.slice(pos);
  if (cutToEnd && out.length && !text.endsWith('\n')) out = out.replace(/\r?\n$/, '');
  return out;
}
