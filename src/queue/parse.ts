/**
 * Parsing the queue file with unified + remark-parse + remark-gfm (mdast positions give the
 * source offsets that edits splice by). Loaded lazily: the modules cost tens of ms to load.
 */
import type { QueueItem } from './item.js';
import { parseItemText, derivedId } from './item.js';
import { KizuError } from '../errors.js';

interface MdNode {
  type: string;
  checked?: boolean | null;
  children?: MdNode[];
  position?: { start: { line: number; offset?: number }; end: { line: number; offset?: number } };
}

/**
 * Finds every GFM task list item in `text` (any depth, any bullet or ordered marker,
 * `[ ]`, `[x]`, `[X]`), in document order.
 * @throws KizuError (exit 2) naming the line if an item's checkbox cannot be located in the
 *   source (the file would not be safe to edit).
 */
export async function parseQueue(text: string): Promise<QueueItem[]> {
  const [{ unified }, remarkParse, remarkGfm] = await Promise.all([import('unified'), import('remark-parse'), import('remark-gfm')]);
  const tree = unified().use(remarkParse.default).use(remarkGfm.default).parse(text) as MdNode;
  const items: QueueItem[] = [];
  const seen = new Map<string, number>();
  const walk = (n: MdNode) => {
    if (n.type === 'listItem' && typeof n.checked === 'boolean' && n.position) {
      const start = n.position.start.offset!;
      const end = n.position.end.offset!;
      const m = /^(?:[*+-]|\d{1,9}[.)])[ \t]+\[([ xX])\]/.exec(text.slice(start, end));
      if (!m) {
        throw new KizuError(`review queue line ${n.position.start.line}: cannot find this task item's checkbox in the source`, {
          hint: 'write the item as "- [ ] text" on one line, or fix that line by hand',
        });
      }
      const box = start + m[0].length - 2;
      const para = n.children?.[0];
      const paraEnd = para?.type === 'paragraph' && para.position ? para.position.end.offset! : end;
      const raw = text.slice(box + 2, Math.max(box + 2, paraEnd));
      const p = parseItemText(raw);
      let id = p.id;
      if (!id) {
        const d = derivedId(raw);
        const k = (seen.get(d) ?? 0) + 1;
        seen.set(d, k);
        id = k === 1 ? d : `${d}-${k}`;
      }
      items.push({ id, explicitId: !!p.id, checked: m[1] !== ' ', kind: p.kind, anchor: p.anchor, text: p.text, line: n.position.start.line, start, end, box });
    }
    for (const c of n.children ?? []) walk(c);
  };
  walk(tree);
  return items;
}
