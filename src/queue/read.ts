/**
 * Reading the queue file, with parse results cached in `<git-dir>/kizu/queue-cache.json`
 * keyed by a SHA-1 of the file text, so hooks parse a hand-edited file once, not on every
 * stop. Kept free of writers and locks: the Stop and PostToolUse hooks load only this.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { QUEUE_FILE } from './paths.js';
import { queueCacheFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';
import { BOX_RE, assignUniqueIds, parseItemText, type QueueItem } from './item.js';
import { derivedId } from './ids.js';
import { fencedLines, splitLines } from '../scars/parse.js';

/** Bumped whenever parsing gives different items for the same text, or the cache's shape changes (old caches are then ignored). */
const CACHE_VERSION = 4;

/** The queue file as read: its path, whether it exists, its text and its items. */
export interface QueueState {
  /** Absolute path of the queue file. */
  file: string;
  /** Whether the file exists. */
  exists: boolean;
  /** The file's text ('' if missing). */
  text: string;
  items: QueueItem[];
}

const cachePath = queueCacheFile;

function sha1(s: string | Buffer): string {
  return createHash('sha1').update(s).digest('hex');
}

/**
 * Reads and parses the queue of the repository at `root`.
 * @param opts.fresh parse the file even if the cache has its items (edits use this: they
 *   must not trust a file under the git dir that anything may have written).
 * @returns the state; a missing file is `{exists: false, text: '', items: []}`.
 * @throws KizuError (exit 2) if the file cannot be read (a directory, no permission), is a
 *   symbolic link or sits in a linked `.claude` folder, is not valid UTF-8, holds git merge conflict markers, or an item cannot be located.
 */
export async function readQueue(root: string, gitDir: string, opts: { fresh?: boolean } = {}): Promise<QueueState> {
  const file = path.join(root, QUEUE_FILE);
  let buf: Buffer;
  try {
    assertNoLinkOnTheWay(root);
    // O_NOFOLLOW: a queue file that is a symbolic link is not followed (ELOOP), so neither a read
    // nor a write of the review queue lands outside the working tree.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      buf = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (e instanceof KizuError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file, exists: false, text: '', items: [] };
    if (code === 'ELOOP') throw linkError(QUEUE_FILE, path.join(root, QUEUE_FILE));
    throw new KizuError(`${QUEUE_FILE} cannot be read (${code ?? (e as Error).message})`, { hint: `make ${QUEUE_FILE} a readable regular file, or move it aside` });
  }
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) {
    throw new KizuError(`${QUEUE_FILE} is not valid UTF-8`, { hint: 'save the file as UTF-8, or move it aside and let git kizu queue add create a new one' });
  }
  if (opts.fresh) {
    assertNoConflict(text);
    const { parseQueue } = await import('./parse.js');
    return { file, exists: true, text, items: await parseQueue(text) };
  }
  return { file, exists: true, text, items: await itemsOf(text, gitDir) };
}

/**
 * Refuses a queue folder (`.claude`) that is a symbolic link: the review queue is review state,
 * read and written only as a regular file inside the working tree.
 * @throws KizuError (exit 2) naming the link and its target.
 */
function assertNoLinkOnTheWay(root: string): void {
  const dir = path.dirname(QUEUE_FILE);
  const abs = path.join(root, dir);
  let link = false;
  try {
    link = lstatSync(abs).isSymbolicLink();
  } catch {
    return; // missing: the queue is missing too
  }
  if (link) throw linkError(dir, abs);
}

function linkError(rel: string, abs: string): KizuError {
  let to = '?';
  try {
    to = readlinkSync(abs);
  } catch {
    /* gone meanwhile */
  }
  return new KizuError(`${rel} is a symbolic link (to ${JSON.stringify(to)}): git-kizu reads and writes the review queue ${QUEUE_FILE} only as a regular file in the working tree`, {
    hint: `remove the link (rm ${rel}) and restore the queue from git (git checkout -- ${QUEUE_FILE}) or from a snapshot (git kizu snapshot list)`,
  });
}

/**
 * The 1-based line of the first git merge conflict marker in the queue file text `text`, or
 * null if it holds none. Markers are lines as git writes them (git-merge(1), "How conflicts
 * are presented"): `<<<<<<<`, `>>>>>>>` or diff3's `|||||||`, each alone or followed by a
 * space and a label, and `=======` alone; outside fenced code blocks (scars/parse.ts
 * fencedLines). A `=======` line counts only in a file that has one of the others too, so a
 * Setext heading underlined with seven `=` is not taken for a conflict.
 */
export function conflictMarkerLine(text: string): number | null {
  if (!/^(?:<{7}|>{7}|\|{7})(?: |\r|\n|$)/m.test(text)) return null; // cheap: no marker at all
  const lines = splitLines(text.replace(/^\uFEFF/, ''));
  const fenced = fencedLines(lines);
  let sides = false;
  let first: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (fenced[i]) continue;
    const l = lines[i];
    if (/^(?:<{7}|>{7}|\|{7})(?: |$)/.test(l)) sides = true;
    else if (l !== '=======') continue;
    first ??= i + 1;
  }
  return sides ? first : null;
}

/**
 * Refuses a queue file that holds git merge conflict markers ({@link conflictMarkerLine}):
 * its items would read as the text of both sides, markers included.
 * @throws KizuError (exit 2) naming the marker's line and how to resolve the conflict.
 */
function assertNoConflict(text: string): void {
  const line = conflictMarkerLine(text);
  if (line === null) return;
  throw new KizuError(`${QUEUE_FILE} has an unresolved git merge conflict (a conflict marker at line ${line})`, {
    hint: `resolve the merge conflict in ${QUEUE_FILE} (git mergetool, or edit and git add)`,
  });
}

/** True if `x` has the shape of a {@link QueueItem} (cache entries are checked before use). */
function isItem(x: unknown): x is QueueItem {
  const i = x as QueueItem;
  return (
    !!i &&
    typeof i === 'object' &&
    typeof i.id === 'string' &&
    typeof i.explicitId === 'boolean' &&
    typeof i.checked === 'boolean' &&
    (i.kind === null || typeof i.kind === 'string') &&
    (i.anchor === null || (!!i.anchor && typeof i.anchor === 'object' && typeof i.anchor.path === 'string' && Number.isInteger(i.anchor.line))) &&
    typeof i.text === 'string' &&
    [i.line, i.start, i.end, i.box].every((n) => Number.isInteger(n))
  );
}

/** A cached item: the item and `rawEnd`, the offset just past its text (parse.ts parseQueueDetailed). */
type CachedItem = QueueItem & { rawEnd: number };

/**
 * True if a checkbox-like `[` at offset `i` of `text` could be a task item's checkbox: only
 * blanks, line breaks and `>` between it and a list marker (`*`, `+`, `-`, or 1–9 digits and
 * `.` or `)`), and that marker at the start of a line (after blanks, `>` and the markers of
 * enclosing items on the same line). A superset of the checkboxes micromark accepts
 * (item.ts BOX_RE), found without parsing.
 */
function couldBeBox(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && ' \t\r\n>'.includes(text[j])) j--;
  for (;;) {
    let k = j - 1;
    if (j < 0) return false;
    if (!'*+-'.includes(text[j])) {
      if (!'.)'.includes(text[j])) return false;
      let n = 0;
      while (k >= 0 && text[k] >= '0' && text[k] <= '9' && n < 9) (k--, n++);
      if (!n) return false;
    }
    while (k >= 0 && ' \t>'.includes(text[k])) k--;
    if (k < 0 || text[k] === '\n' || text[k] === '\r' || (k === 0 && text[0] === '\uFEFF')) return true;
    j = k;
  }
}

/**
 * The items of a cache entry if they are proven against `text`, else null (then the caller
 * parses). The cache lives under the git dir, which the agent can write: an entry that only
 * matches the text's hash proves nothing (anyone can hash the text), so every item is checked
 * against the text itself (its checkbox, state, line, kind, anchor, text and id, and that its
 * text ends where a paragraph can end), and every checkbox-like spot that could be a task item
 * ({@link couldBeBox}) must be one of them. An entry that drops, ticks, reorders or rewrites
 * an item fails; a text with such a spot that is not an item (in a code block) is parsed each
 * time: slower, never a different answer.
 */
export function provenItems(text: string, cached: unknown[]): QueueItem[] | null {
  const items: CachedItem[] = [];
  for (const c of cached) {
    if (!isItem(c) || !Number.isInteger((c as CachedItem).rawEnd)) return null;
    items.push(c as CachedItem);
  }
  const boxes = new Set<number>();
  let line = 1;
  let at = 0;
  let prevRawEnd = -1;
  const derived: Pick<QueueItem, 'id' | 'explicitId'>[] = [];
  for (const it of items) {
    if (it.start < prevRawEnd || !(it.start < it.box && it.box < it.rawEnd && it.rawEnd <= it.end && it.end <= text.length)) return null;
    const m = BOX_RE.exec(text.slice(it.start, it.end));
    if (!m || it.start + m[0].length - 1 - m[1].length !== it.box || /[xX]/.test(m[1]) !== it.checked) return null;
    for (; at < it.start; at++) if (text.charCodeAt(at) === 10) line++;
    if (line !== it.line) return null;
    const rawStart = it.box + m[1].length + 1;
    if (it.rawEnd < rawStart) return null;
    const raw = text.slice(rawStart, it.rawEnd);
    // A paragraph holds no blank line and ends at a line's end, before a blank line, a new
    // list item or the end of the file; other endings are left to the parser.
    if (/\n[ \t>]*(?:\r?\n|$)/.test(raw)) return null;
    if (!/^[ \t]*(?:$|\r?\n(?:[ \t>]*(?:\r?\n|$)|[ \t>]*(?:[*+-]|\d{1,9}[.)])(?:[ \t\r\n]|$)))/.test(text.slice(it.rawEnd, it.rawEnd + 200))) return null;
    const p = parseItemText(raw);
    if (p.kind !== it.kind || p.text !== it.text || !!p.id !== it.explicitId) return null;
    if ((p.anchor === null) !== (it.anchor === null) || (p.anchor && (p.anchor.path !== it.anchor!.path || p.anchor.line !== it.anchor!.line))) return null;
    derived.push({ id: p.id ?? derivedId(raw), explicitId: !!p.id });
    boxes.add(it.box);
    prevRawEnd = it.rawEnd;
  }
  assignUniqueIds(derived);
  if (derived.some((d, i) => d.id !== items[i].id)) return null;
  const re = /\[(?:\r\n|[ \t\r\nxX])\]/g;
  for (let m; (m = re.exec(text)); ) if (!boxes.has(m.index + 1) && couldBeBox(text, m.index)) return null;
  return items.map(({ rawEnd: _, ...i }) => i);
}

/**
 * Items of the queue file text `text`, from `<git-dir>/kizu/queue-cache.json` when its
 * version and SHA-1 of the text match and its items are proven against the text
 * ({@link provenItems}; a cache file that is unreadable, not JSON, not of the expected shape
 * or not proven is ignored), else parsed, and the cache rewritten atomically (failing to
 * write it is ignored).
 * @throws KizuError (exit 2) if the text holds git merge conflict markers
 *   ({@link conflictMarkerLine}) or an item cannot be located (see parseQueue).
 */
export async function itemsOf(text: string, gitDir: string): Promise<QueueItem[]> {
  assertNoConflict(text);
  // Cheap answer for a queue with no task items at all (no parser needed): every checkbox
  // micromark accepts holds one space, tab, line ending (CRLF too), x or X.
  if (!/\[(?:[ \t\r\nxX]|\r\n)\]/.test(text)) return [];
  const hash = sha1(text);
  const cp = cachePath(gitDir);
  try {
    const c = JSON.parse(readFileSync(cp, 'utf8')) as { v: unknown; hash: unknown; items: unknown };
    if (c && c.v === CACHE_VERSION && c.hash === hash && Array.isArray(c.items)) {
      const items = provenItems(text, c.items);
      if (items) return items;
    }
  } catch {
    /* no cache */
  }
  const { parseQueueDetailed } = await import('./parse.js');
  const { items, rawEnds } = await parseQueueDetailed(text);
  try {
    mkdirSync(path.dirname(cp), { recursive: true });
    replaceFileSync(cp, JSON.stringify({ v: CACHE_VERSION, hash, items: items.map((i, k) => ({ ...i, rawEnd: rawEnds[k] })) }));
  } catch {
    /* the cache is only an optimisation */
  }
  return items;
}
