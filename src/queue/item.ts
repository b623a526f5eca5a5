/**
 * The review-queue item format: a GFM task list item (GFM spec 0.29, "Task list items
 * (extension)") whose text may start with a kind and an anchor and ends with an id:
 *
 *   - [ ] (ask) `src/app.ts:42` why did you pick this library? <!-- kizu:q7f2 -->
 *
 * Kind `(ask|reject|free)` and anchor `` `path:line` `` are optional; an anchor's path is
 * relative to the repository root and stays inside it ({@link isAnchorPath}). The id sits
 * in an HTML comment, invisible when GitHub renders the file. Items written by hand without
 * an id get a derived id (`h` + 5 hex digits of a SHA-1 of their text), stable while the
 * text is (queue/ids.ts makes ids).
 */

/** Kinds a queue item may carry. */
export const QUEUE_KINDS = ['ask', 'reject', 'free'] as const;

/** One task item of the queue file. Offsets are UTF-16 string offsets into the file text. */
export interface QueueItem {
  /** Short id: explicit (`<!-- kizu:ID -->`) or derived from the text. */
  id: string;
  /** True if the id is written in the file. */
  explicitId: boolean;
  /** `[x]` / `[X]` (true) or `[ ]` (false). */
  checked: boolean;
  /** ask | reject | free, or null when the item names none. */
  kind: string | null;
  /** `path:line` the item is about (path relative to the repo root), or null. */
  anchor: { path: string; line: number } | null;
  /** The item's text without kind, anchor and id (whitespace collapsed). */
  text: string;
  /** 1-based line of the item in the queue file. */
  line: number;
  /** Offset where the list item starts (its bullet). */
  start: number;
  /** Offset just past the list item's last character. */
  end: number;
  /** Offset of the character between the checkbox brackets. */
  box: number;
}

/**
 * The list marker, then (possibly over line breaks and blockquote markers) the checkbox:
 * `[`, one whitespace character or `x`/`X` (a CRLF counts as one), `]` — what
 * micromark-extension-gfm-task-list-item accepts.
 */
export const BOX_RE = /^(?:[*+-]|\d{1,9}[.)])[ \t\r\n>]*\[(\r\n|[ \t\r\nxX])\]/;

/** An id comment. Ids start with a letter or digit, so `git kizu queue done <id>` never reads one as an option. */
const ID_RE = /<!--\s*kizu:([a-z0-9][a-z0-9-]{0,31})\s*-->/;
const KIND_RE = /^\((ask|reject|free)\)\s*/;
const ANCHOR_RE = /^`([^`\n]+?):(\d+)`\s*/;

/**
 * True if `p` can be a place in the repository: a relative path with no `..` segment (`/`
 * and `\` both separate segments), not absolute (`/x`, `\x`, `C:x`). Other paths are
 * outside it, so `` `../outside.txt:1` `` is item text, not an anchor.
 */
function isAnchorPath(p: string): boolean {
  return !/^(?:[\\/]|[A-Za-z]:)/.test(p) && !p.split(/[\\/]/).includes('..');
}

/** The anchor `` `path:line` `` at the start of `s` (with the blanks after it), or null if none or its path is not {@link isAnchorPath}. */
function anchorAt(s: string): RegExpExecArray | null {
  const m = ANCHOR_RE.exec(s);
  return m && isAnchorPath(m[1]) ? m : null;
}

/**
 * Splits an item's raw text (after the checkbox) into its parts. Whitespace runs (line
 * endings of a multi-line item included) collapse to one space. A backslash before what
 * would otherwise be read as the kind or the anchor (`\(ask) ...`, `` \`a.ts:1` ... ``, the
 * Markdown escape) keeps it as text, without the backslash.
 * @returns the id written in the item (null if none), kind, anchor and the remaining text.
 */
export function parseItemText(raw: string): { id: string | null; kind: string | null; anchor: QueueItem['anchor']; text: string } {
  let s = raw.replace(/\s+/g, ' ').trim();
  const idm = ID_RE.exec(s);
  const id = idm ? idm[1] : null;
  if (idm) s = (s.slice(0, idm.index) + s.slice(idm.index + idm[0].length)).replace(/\s+/g, ' ').trim();
  const km = KIND_RE.exec(s);
  const kind = km ? km[1] : null;
  if (km) s = s.slice(km[0].length);
  const am = anchorAt(s);
  const anchor = am ? { path: am[1], line: Number(am[2]) } : null;
  if (am) s = s.slice(am[0].length);
  s = s.trim();
  if (s.startsWith('\\') && ((!kind && !anchor && KIND_RE.test(s.slice(1))) || (!anchor && !!anchorAt(s.slice(1))))) s = s.slice(1);
  return { id, kind, anchor, text: s };
}

/**
 * Makes `text` safe as one line of item text: every whitespace run (line endings included,
 * the same runs {@link parseItemText} collapses) folds to one space, and HTML comment
 * delimiters (`<!--`, `-->`, `--!>`) are broken so the id comment stays the only one.
 * @returns the cleaned text ('' if `text` is only whitespace).
 */
export function cleanItemText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/<!--/g, '< !--').replace(/--(!?)>/g, '--$1 >');
}

/**
 * Renders a new unchecked item line (no line ending):
 * ``- [ ] (kind) `path:line` text <!-- kizu:id -->``. `text` must already be clean
 * ({@link cleanItemText}). Text that would read back as a kind or an anchor (it starts with
 * `(ask)` while no kind is given, or with `` `a.ts:3` `` while no anchor is given) is
 * written with a Markdown escape (`\(ask)`), which {@link parseItemText} undoes.
 */
export function renderItem(id: string, text: string, kind: string | null, anchor: QueueItem['anchor']): string {
  const k = kind ? `(${kind}) ` : '';
  const a = anchor ? `\`${anchor.path}:${anchor.line}\` ` : '';
  const escape = (!kind && !anchor && KIND_RE.test(text)) || (!anchor && !!anchorAt(text));
  return `- [ ] ${k}${a}${escape ? '\\' : ''}${text} <!-- kizu:${id} -->`;
}

/** One line describing an item for people and agents: `[id] path:line (kind) text`. */
export function describeItem(i: QueueItem): string {
  const parts = [`[${i.id}]`];
  if (i.anchor) parts.push(`${i.anchor.path}:${i.anchor.line}`);
  if (i.kind) parts.push(`(${i.kind})`);
  parts.push(i.text || '(no text)');
  return parts.join(' ');
}

/**
 * Makes item ids unique, in place, in document order: an id written in the file is kept by
 * its first item; a derived id, or an id already taken (a copied line, a written id equal to
 * another item's derived id), gets `-2`, `-3`, ... (queue/parse.ts parseQueue; queue/read.ts
 * replays it to prove cached ids).
 */
export function assignUniqueIds(items: Pick<QueueItem, 'id' | 'explicitId'>[]): void {
  // Unique ids: written ids first (first occurrence wins), then the rest in order.
  const bases = new Set(items.map((i) => i.id));
  const taken = new Set<string>();
  const owner = new Map<string, Pick<QueueItem, 'id' | 'explicitId'>>();
  for (const i of items) if (i.explicitId && !owner.has(i.id)) owner.set(i.id, i);
  for (const i of owner.values()) taken.add(i.id);
  for (const i of items) {
    if (owner.get(i.id) === i) continue;
    let id = i.id;
    // A suffixed id never equals any item's own id, so it cannot steal one met later.
    for (let k = 2; taken.has(id) || (id !== i.id && bases.has(id)); k++) id = `${i.id}-${k}`;
    taken.add(id);
    i.id = id;
  }
}
