/**
 * Editing `.claude/review-queue.md` (reading it is ./read.ts, re-exported here). Edits splice
 * the bytes of the touched item only (the rest of the file, headings, prose, order, blank
 * lines, line endings, stays identical), under a lock file so that concurrent writers
 * serialise, and are written atomically. Parse results are cached in
 * `<git-dir>/kizu/queue-cache.json` keyed by a SHA-1 of the file, so hooks parse a
 * hand-edited file once, not on every stop.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package.js';
import { KizuError } from '../errors.js';
import { quoteCStyle } from '../git/quote.js';
import { eolOf, plural } from '../words.js';
import { withLock, withWorkTreeLock } from '../git/lock.js';
import { writeFileAtomic } from '../files.js';
import { QUEUE_KINDS, cleanItemText, parseItemText, renderItem, type QueueItem } from './item.js';
import { newId } from './ids.js';
import { parseLocation, resolveFile } from '../scars/insert.js';
import { toLines, lineCount, isBinary } from '../scars/lines.js';

import { QUEUE_FILE } from './paths.js';
import { readQueue, itemsOf, type QueueState } from './read.js';
import { itemKey, recordWritten, type WrittenBy } from '../provenance/ledger.js';
import { recordAdded } from './record.js';

export { QUEUE_FILE, readQueue, itemsOf, type QueueState };
const TEMPLATE = path.join(PACKAGE_ROOT, 'templates', 'review-queue.md');

/**
 * Runs `fn` while holding `<git-dir>/kizu/queue.lock` (see {@link withLock}), inside the
 * working-tree write lock (withWorkTreeLock, always taken first): the queue file is a
 * working-tree file that `patch apply`, `rollback patch` and `revert` may write too.
 * @throws KizuError (exit 2) if a lock cannot be taken.
 */
export async function withQueueLock<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  return withWorkTreeLock(gitDir, () => withLock(gitDir, 'queue', 'the review queue', fn));
}

/**
 * Reads the queue under the lock (parsed afresh, not from the cache), lets `edit` compute
 * the new text, and writes it atomically if it changed (creating `.claude/` if needed).
 * Nothing is written if `edit` throws.
 * @returns whatever `edit` returns alongside the new text.
 * @throws KizuError (exit 2) from readQueue, from `edit`, if the lock cannot be taken, or if
 *   the file cannot be written.
 */
export async function modifyQueue<T>(
  root: string,
  gitDir: string,
  edit: (q: QueueState) => Promise<{ text: string; result: T }> | { text: string; result: T },
): Promise<T> {
  return withQueueLock(gitDir, async () => {
    const q = await readQueue(root, gitDir, { fresh: true });
    const { text, result } = await edit(q);
    if (q.exists ? text !== q.text : text !== '') {
      try {
        mkdirSync(path.dirname(q.file), { recursive: true });
        await writeFileAtomic(q.file, text);
      } catch (e) {
        throw new KizuError(`cannot write ${QUEUE_FILE} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, {
          hint: `make ${path.dirname(QUEUE_FILE)} a writable directory`,
        });
      }
      await itemsOf(text, gitDir).catch(() => []); // refresh the cache for the hooks
    }
    return result;
  });
}

/** What {@link addItem} adds. */
export interface NewItem {
  /** The item text (cleaned: {@link cleanItemText}). */
  text: string;
  /** One of QUEUE_KINDS, or none. */
  kind?: string | null;
  /** `<path>:<line>` the item is about, relative to the `cwd` given to addItem. */
  at?: string;
}

/**
 * Checks a new item's kind and text, before anything else is looked at.
 * @returns the kind (null: none) and the cleaned text ({@link cleanItemText}).
 * @throws KizuError (exit 2): unknown kind; text that is empty once cleaned.
 */
export function checkNewItem(i: Pick<NewItem, 'text' | 'kind'>): { text: string; kind: string | null } {
  const kind = i.kind ?? null;
  if (kind !== null && !(QUEUE_KINDS as readonly string[]).includes(kind)) {
    throw new KizuError(`unknown kind "${kind}"`, { hint: `use one of: ${QUEUE_KINDS.join(', ')}` });
  }
  const text = cleanItemText(i.text ?? '');
  if (!text) throw new KizuError('the item text is empty', { hint: 'e.g. git kizu queue add "also add a test for the empty case"' });
  return { text, kind };
}

/**
 * Appends an unchecked item to `.claude/review-queue.md` of the repository at `root`
 * (created from the template if missing), under the queue lock ({@link modifyQueue}). The
 * text is cleaned ({@link checkNewItem}); text that would read back as a kind or anchor is
 * escaped ({@link renderItem}). `at` is resolved from `cwd` (resolveFile: the file must exist
 * in the repository, the line must be in range) and stored as a root-relative anchor. The
 * item is recorded in the ledger of what git kizu wrote (provenance/ledger.ts) as `by`'s:
 * null for the reviewer, `agent:<name>` when the command runs inside an agent's session.
 * @returns the new item as it reads back from the written file (its `id` is new).
 * @throws KizuError (exit 2): those of {@link checkNewItem}, a bad `at` (missing file, line
 *   out of range, path outside the repo, a path that cannot be written as an anchor), a
 *   queue file that cannot be read or parsed, or one whose end would swallow the new line
 *   (an unclosed code block or HTML comment); nothing is written then.
 */
export async function addItem(root: string, gitDir: string, cwd: string, i: NewItem, by: WrittenBy): Promise<QueueItem> {
  const { text, kind } = checkNewItem(i);
  let anchor: QueueItem['anchor'] = null;
  if (i.at !== undefined) {
    const { file, line } = parseLocation(i.at);
    const t = await resolveFile(root, cwd, file);
    const buf = readFileSync(t.real);
    const count = isBinary(buf) ? null : lineCount(toLines(buf));
    if (count !== null && line! > Math.max(count, 1)) {
      throw new KizuError(`${quoteCStyle(t.rel)}:${line}: line is beyond the end of the file (it has ${count} ${plural(count, 'line')})`, { hint: `use a line from 1 to ${Math.max(count, 1)}` });
    }
    anchor = { path: t.rel, line: line! };
  }
  return modifyQueue(root, gitDir, async (q) => {
    const id = newId(new Set(q.items.map((x) => x.id)));
    const line = renderItem(id, text, kind, anchor);
    // The line alone must read back as written (a path with a backtick or a line break
    // cannot be an anchor; some texts cannot be escaped).
    const back = parseItemText(line.slice('- [ ]'.length));
    if (back.id !== id || back.kind !== kind || back.text !== text || back.anchor?.path !== anchor?.path || back.anchor?.line !== anchor?.line) {
      throw new KizuError(
        anchor && back.anchor?.path !== anchor.path
          ? `--at ${quoteCStyle(anchor.path)}: this path cannot be written as an item anchor (\`path:line\`)`
          : `this text cannot be written as an item so that it reads back unchanged: ${text}`,
        { hint: anchor && back.anchor?.path !== anchor.path ? 'name the place in the item text instead' : 'reword the start of the text' },
      );
    }
    const base = q.exists ? q.text : queueTemplate();
    const before = q.exists ? q.items : await (await import('./parse.js')).parseQueue(base);
    const out = appendItem(base, line);
    const items = await verifyEdit(
      out,
      [...before.map(itemSignature), itemSignature({ checked: false, kind, anchor, text, explicitId: true })],
      'add the item',
      out.lastIndexOf(line),
    );
    const added = items[items.length - 1];
    if (added.id !== id) throw new KizuError(`refusing to add the item: its id ${id} would not read back`, { hint: 'retry' });
    return { text: out, result: added };
  }).then((added) => {
    // The ledger of what git kizu wrote here: the hooks hand the agent this item as the
    // reviewer's only when no agent's session wrote it (`by` null).
    recordWritten(gitDir, [itemKey(added)], by);
    // The record of the reviewer's items: one that later goes missing from the file blocks the
    // stop (./record.ts). An item the agent wrote itself may go as it came.
    if (by === null) recordAdded(gitDir, [{ id: added.id, text: added.text }]);
    return added;
  });
}

/** The template a new queue file starts from (templates/review-queue.md; a heading if it is missing). */
export function queueTemplate(): string {
  return existsSync(TEMPLATE) ? readFileSync(TEMPLATE, 'utf8') : '# Review queue\n\n';
}

/** Offset of the start of the line holding offset `off` (line endings CRLF, CR, LF). */
function lineStart(text: string, off: number): number {
  return Math.max(text.lastIndexOf('\n', off - 1), text.lastIndexOf('\r', off - 1)) + 1;
}

/** The first line ending at or after `off`: [its offset, its length], or null if none. */
function lineEndAt(text: string, off: number): [number, number] | null {
  const re = /\r\n|\r|\n/g;
  re.lastIndex = off;
  const m = re.exec(text);
  return m ? [m.index, m[0].length] : null;
}

/**
 * `text` with `line` (no line ending) appended as a new list item line, using the file's
 * line ending (words.ts `eolOf`). A blank line goes before it unless the last non-blank line is
 * a list item line or the file already ends with a blank line. A non-empty file that ends
 * without a line ending still does afterwards.
 */
export function appendItem(text: string, line: string): string {
  const eol = eolOf(text);
  const finalEol = text.replace(/^\uFEFF/, '') === '' || /[\r\n]$/.test(text);
  let t = text;
  if (!finalEol) t += eol;
  const lines = t.split(/\r\n|\r|\n/);
  lines.pop(); // after the final line ending
  let last = '';
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].trim() !== '') { last = lines[i]; break; }
  if (last && !/^\s*(?:[*+-]|\d{1,9}[.)])\s/.test(last) && lines[lines.length - 1]?.trim() !== '') t += eol;
  return t + line + (finalEol ? eol : '');
}

/**
 * `text` with item `i`'s checkbox set to `checked`: the character between the brackets
 * becomes `x` or a space (a CRLF between them counts as one character). An item already in
 * that state is left as written (`[X]` stays `[X]`, `[\t]` stays `[\t]`).
 */
export function setChecked(text: string, i: QueueItem, checked: boolean): string {
  if (i.checked === checked) return text;
  const len = text.startsWith('\r\n', i.box) ? 2 : 1;
  return text.slice(0, i.box) + (checked ? 'x' : ' ') + text.slice(i.box + len);
}

/**
 * `text` without the lines of the given items (each from its first line's start through
 * its last line's ending; CRLF, CR and LF endings). A file without a final line ending
 * still ends without one. Items nested in another removed item go with it.
 * @throws KizuError (exit 2) naming the line if an item shares a line with other text
 *   (`1. - [ ] x`: the outer item's marker), which removing whole lines would lose.
 */
export function removeItems(text: string, items: QueueItem[]): string {
  const ranges = items
    .map((i): [number, number, boolean] => {
      const s = lineStart(text, i.start);
      const le = lineEndAt(text, Math.max(i.end - 1, i.start));
      const e = le ? le[0] : text.length;
      if (!/^[ \t>]*$/.test(text.slice(s, i.start)) || text.slice(Math.max(i.end, s), e).trim() !== '') {
        throw new KizuError(`review queue line ${i.line}: item ${i.id} shares its line with other text, which removing the item's lines would lose`, {
          hint: 'put the item on a line of its own by hand, or tick it instead (git kizu queue done)',
        });
      }
      return le ? [s, le[0] + le[1], false] : [s, text.length, true];
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
  if (cutToEnd && out.length && !/[\r\n]$/.test(text)) out = out.replace(/(?:\r\n|\r|\n)$/, '');
  return out;
}

/**
 * What must stay the same about an item across an edit: checked state, kind, anchor, text,
 * and whether an id is written (ids themselves aside: derived ids of duplicates may shift).
 * @returns a string equal for equal items.
 */
export function itemSignature(i: Pick<QueueItem, 'checked' | 'kind' | 'anchor' | 'text' | 'explicitId'>): string {
  return JSON.stringify([i.checked, i.kind, i.anchor?.path ?? null, i.anchor?.line ?? null, i.text, i.explicitId]);
}

/**
 * Parses the edited text `after` and checks that its items are exactly `expected` (by
 * {@link itemSignature}, in order): the guard that keeps an edit from changing any item it
 * did not mean to (an appended line swallowed by an unclosed code block or HTML comment, a
 * removal that merges blocks).
 * @param what the edit, for the message ("add the item").
 * @param focus offset in `after` of the edited place, for the message.
 * @returns the items of `after`.
 * @throws KizuError (exit 2) naming the line that confused it, if they differ or `after`
 *   does not parse.
 */
export async function verifyEdit(after: string, expected: string[], what: string, focus: number): Promise<QueueItem[]> {
  const { parseQueue, blockAt } = await import('./parse.js');
  const hint = `nothing was written; fix ${QUEUE_FILE} by hand around that line, then retry`;
  let items: QueueItem[];
  try {
    items = await parseQueue(after);
  } catch (e) {
    throw new KizuError(`refusing to ${what}: after the edit, ${(e as Error).message}`, { hint });
  }
  const got = items.map(itemSignature);
  if (got.length === expected.length && got.every((g, k) => g === expected[k])) return items;
  const b = await blockAt(after, focus);
  const line = after.slice(0, focus).split(/\r\n|\r|\n/).length;
  const where =
    b && (b.type === 'code' || b.type === 'html') && b.line < line
      ? `line ${b.line} opens ${b.type === 'code' ? 'a fenced code block' : 'an HTML block or comment'} that is never closed, so the new line ${line} would be part of it`
      : `after the edit, the items near line ${line} would read differently`;
  throw new KizuError(`refusing to ${what}: ${where}`, { hint });
}
