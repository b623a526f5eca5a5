/**
 * Parsing the queue file with unified + remark-parse + remark-gfm (mdast positions give the
 * source offsets that edits splice by). Loaded lazily: the modules cost tens of ms to load.
 */
import type { QueueItem } from './item.js';
import { parseItemText, assignUniqueIds, BOX_RE } from './item.js';
import { derivedId } from './ids.js';
import { KizuError } from '../errors.js';

interface MdNode {
  type: string;
  checked?: boolean | null;
  children?: MdNode[];
  position?: { start: { line: number; offset?: number }; end: { line: number; offset?: number } };
}


/**
 * Parses `text` to an mdast tree.
 * @returns the tree and `shift`, the number of UTF-16 units to add to mdast offsets to get
 *   offsets into `text` (1 when `text` starts with a BOM, which micromark drops, else 0).
 */
async function tree(text: string): Promise<{ root: MdNode; shift: number }> {
  const [{ unified }, remarkParse, remarkGfm] = await Promise.all([import('unified'), import('remark-parse'), import('remark-gfm')]);
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return { root: unified().use(remarkParse.default).use(remarkGfm.default).parse(shift ? text.slice(1) : text) as MdNode, shift };
}

/**
 * Finds every GFM task list item in `text` (GFM spec 0.29, "Task list items (extension)":
 * any depth, any bullet or ordered marker, `[ ]`, `[x]`, `[X]`; none in code blocks or HTML),
 * in document order. A leading BOM is allowed (offsets still index `text`).
 * Ids are unique: an id written in the file is kept by its first item; a derived id
 * (`h` + 5 hex), or an id already taken (a copied line, a written id equal to another item's
 * derived id), gets `-2`, `-3`, ... in document order.
 * @returns the items; offsets are UTF-16 offsets into `text`.
 * @throws KizuError (exit 2) naming the line if an item's checkbox cannot be located in the
 *   source (the file would not be safe to edit).
 */
export async function parseQueue(text: string): Promise<QueueItem[]> {
  return (await parseQueueDetailed(text)).items;
}

/**
 * {@link parseQueue}, with each item's `rawEnd`: the offset just past its text (the end of
 * its first paragraph), which queue/read.ts keeps in the cache to prove cached items against
 * the file.
 */
export async function parseQueueDetailed(text: string): Promise<{ items: QueueItem[]; rawEnds: number[] }> {
  const { root, shift } = await tree(text);
  const items: QueueItem[] = [];
  const rawEnds: number[] = [];
  const walk = (n: MdNode) => {
    if (n.type === 'listItem' && typeof n.checked === 'boolean' && n.position) {
      const start = n.position.start.offset! + shift;
      const end = n.position.end.offset! + shift;
      const m = BOX_RE.exec(text.slice(start, end));
      if (!m || /[xX]/.test(m[1]) !== n.checked) {
        throw new KizuError(`review queue line ${n.position.start.line}: cannot find this task item's checkbox in the source`, {
          hint: 'write the item as "- [ ] text" on one line, or fix that line by hand',
        });
      }
      const box = start + m[0].length - 1 - m[1].length;
      const para = n.children?.[0];
      const paraEnd = para?.type === 'paragraph' && para.position ? para.position.end.offset! + shift : end;
      const rawEnd = Math.max(box + m[1].length + 1, paraEnd);
      const raw = text.slice(box + m[1].length + 1, rawEnd);
      rawEnds.push(rawEnd);
      const p = parseItemText(raw);
      items.push({ id: p.id ?? derivedId(raw), explicitId: !!p.id, checked: n.checked, kind: p.kind, anchor: p.anchor, text: p.text, line: n.position.start.line, start, end, box });
    }
    for (const c of n.children ?? []) walk(c);
  };
  walk(root);
  assignUniqueIds(items);
  return { items, rawEnds };
}

/**
 * The top-level block of `text` (as parsed by {@link parseQueue}) that contains `offset`,
 * for error messages that name the construct a line ended up inside.
 * @returns its mdast type (`code`, `html`, `list`, `paragraph`, ...) and 1-based first line,
 *   or null if `offset` is in no block.
 */
export async function blockAt(text: string, offset: number): Promise<{ type: string; line: number } | null> {
  const { root, shift } = await tree(text);
  for (const c of root.children ?? []) {
    const p = c.position;
    if (p && p.start.offset! + shift <= offset && offset < p.end.offset! + shift) return { type: c.type, line: p.start.line };
  }
  return null;
}
