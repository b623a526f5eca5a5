/** `git kizu queue add|list|done|reopen|rm|clear`: the ghost-prompt review queue. */
import { KizuError, EXIT } from '../errors.js';
import { pc, type Reporter } from '../output.js';
import { printable } from '../printable.js';
import { count } from '../words.js';
import { repoContext } from './context.js';
import { pathQuoter } from '../git/path-quoter.js';
import { describeItem, type QueueItem } from '../queue/item.js';
import { addItem, checkNewItem, modifyQueue, readQueue, setChecked, removeItems, verifyEdit, itemSignature, QUEUE_FILE } from '../queue/edit.js';
import { recordRemoved, vanishedItems } from '../queue/record.js';


export interface QueueAddInput {
  cwd: string;
  text: string;
  /** `<path>:<line>` the item is about (validated: file exists, line in range). */
  at?: string;
  kind?: string;
  /**
   * Who writes it: null for the reviewer; `agent:<name>` inside an agent's session: the item
   * is then recorded as the agent's and shown to agents as quoted data (provenance/ledger.ts).
   */
  by: string | null;
  reporter: Reporter;
}

/**
 * Appends an unchecked item to `.claude/review-queue.md` (addItem in src/queue/edit.ts) and
 * prints its id.
 * @returns 0.
 * @throws KizuError (exit 2): those of checkNewItem (before the repository is looked for)
 *   and addItem; nothing is written then.
 */
export async function queueAdd(i: QueueAddInput): Promise<number> {
  checkNewItem(i);
  const ctx = await repoContext(i.cwd);
  const item = await addItem(ctx.root, ctx.gitDir, i.cwd, i, i.by);
  i.reporter.log(item.id);
  return EXIT.OK;
}

export interface QueueListInput {
  cwd: string;
  all: boolean;
  json: boolean;
  reporter: Reporter;
}

/** JSON shape of an item in `queue list --json` and `scan --json`. */
export function itemJson(x: QueueItem): { id: string; checked: boolean; kind: string | null; path: string | null; line: number | null; text: string; queueLine: number } {
  return { id: x.id, checked: x.checked, kind: x.kind, path: x.anchor?.path ?? null, line: x.anchor?.line ?? null, text: x.text, queueLine: x.line };
}

/**
 * Lists unchecked items (all with `all`) as `[ ] id  path:line  (kind)  text`, or as a JSON
 * array of {id, checked, kind, path, line, text, queueLine}.
 * @returns 0.
 */
export async function queueList(i: QueueListInput): Promise<number> {
  const ctx = await repoContext(i.cwd);
  const q = await readQueue(ctx.root, ctx.gitDir);
  const items = q.items.filter((x) => i.all || !x.checked);
  if (i.json) {
    i.reporter.log(JSON.stringify(items.map(itemJson)));
    return EXIT.OK;
  }
  if (!items.length) {
    i.reporter.log(q.exists ? `no ${i.all ? '' : 'open '}items in ${QUEUE_FILE}` : `no review queue yet (${QUEUE_FILE}); add one with git kizu queue add "<text>"`);
    return EXIT.OK;
  }
  const quote = pathQuoter(ctx.root);
  for (const x of items) {
    const where = x.anchor ? `  ${quote(x.anchor.path)}:${x.anchor.line}` : '';
    const kind = x.kind ? `  ${pc.cyan(`(${printable(x.kind)})`)}` : '';
    i.reporter.log(`${x.checked ? '[x]' : '[ ]'} ${pc.bold(printable(x.id))}${where}${kind}  ${printable(x.text) || '(no text)'}`);
  }
  return EXIT.OK;
}

function findItems(items: QueueItem[], ids: string[]): QueueItem[] {
  const missing = ids.filter((id) => !items.some((x) => x.id === id));
  if (missing.length) {
    const known = items.map((x) => printable(`${x.id} ${x.checked ? '[x]' : '[ ]'} ${x.text || '(no text)'}`)).join('\n  ');
    throw new KizuError(`no queue item with id ${missing.map(printable).join(', ')}`, {
      hint: items.length ? `the ids in ${QUEUE_FILE} are:\n  ${known}` : `${QUEUE_FILE} has no items`,
      exitCode: EXIT.FOUND,
    });
  }
  return [...new Set(ids)].map((id) => items.find((x) => x.id === id)!);
}

export interface QueueIdsInput {
  cwd: string;
  ids: string[];
  reporter: Reporter;
}

/** The items of `items` inside the lines of any of `targets` (the targets included), in order. */
function withNested(items: QueueItem[], targets: QueueItem[]): QueueItem[] {
  return items.filter((x) => targets.some((t) => t.start <= x.start && x.start < t.end));
}

/**
 * Marks items done (`[x]`) or open again (`[ ]`), changing only the character in each
 * item's checkbox.
 * @returns 0.
 * @throws KizuError (exit 1) if an id does not exist (listing the ids); (exit 2) if the
 *   queue file cannot be read or parsed. Nothing is written then.
 */
export async function queueCheck(i: QueueIdsInput & { checked: boolean }): Promise<number> {
  if (!i.ids.length) throw new KizuError('no id given', { hint: 'list ids with git kizu queue list' });
  const ctx = await repoContext(i.cwd);
  const done = await modifyQueue(ctx.root, ctx.gitDir, async (q) => {
    if (!q.exists) throw new KizuError(`no review queue yet (${QUEUE_FILE})`, { hint: 'add items with git kizu queue add', exitCode: EXIT.FOUND });
    const targets = findItems(q.items, i.ids);
    let text = q.text;
    // Right to left, so that a CRLF box (two characters) does not move later offsets.
    for (const t of [...targets].sort((a, b) => b.box - a.box)) text = setChecked(text, t, i.checked);
    const expected = q.items.map((x) => itemSignature(targets.includes(x) ? { ...x, checked: i.checked } : x));
    await verifyEdit(text, expected, i.checked ? 'tick the item' : 'reopen the item', Math.min(...targets.map((t) => t.box)));
    return { text, result: targets };
  });
  for (const t of done) i.reporter.log(`${i.checked ? 'done' : 'reopened'}: ${printable(describeItem(t))}`);
  return EXIT.OK;
}

/**
 * Removes items by id: their whole lines, nested items included (each removed item is
 * printed, nested ones too). An open (unchecked) nested item must be named too: an item
 * holding one that is not named is refused, as `queue clear --done` keeps such an item, so
 * that no open item goes without being asked for.
 * @returns 0.
 * @throws KizuError (exit 1) if an id does not exist; (exit 2) if an item holds open nested
 *   items not named (they are listed), an item shares a line with other text or the queue
 *   file cannot be read or parsed. Nothing is written then.
 */
export async function queueRemove(i: QueueIdsInput): Promise<number> {
  if (!i.ids.length) throw new KizuError('no id given', { hint: 'list ids with git kizu queue list --all' });
  const ctx = await repoContext(i.cwd);
  // An item that vanished from the file (queue/record.ts: deleted, stashed, checked out away)
  // is forgotten by naming it: the reviewer says it is meant to be gone.
  let forgotten: { id: string; text: string }[] = [];
  const gone = await modifyQueue(ctx.root, ctx.gitDir, async (q) => {
    const vanished = vanishedItems(ctx.gitDir, q.items.map((x) => x.id));
    forgotten = vanished.filter((v) => i.ids.includes(v.id));
    const wanted = i.ids.filter((id) => !forgotten.some((v) => v.id === id));
    if (!wanted.length) return { text: q.text, result: [] as QueueItem[] };
    if (!q.exists) throw new KizuError(`no review queue yet (${QUEUE_FILE})`, { hint: 'add items with git kizu queue add', exitCode: EXIT.FOUND });
    const targets = findItems(q.items, wanted);
    const removed = withNested(q.items, targets);
    const ids = (xs: QueueItem[]) => xs.map((x) => printable(x.id)).join(' ');
    for (const t of targets) {
      const open = withNested(q.items, [t]).filter((x) => x !== t && !x.checked && !targets.includes(x));
      if (!open.length) continue;
      throw new KizuError(`item ${printable(t.id)} (line ${t.line}) holds ${count(open.length, 'open item')} nested in it: ${open.map((x) => printable(describeItem(x))).join('; ')}`, {
        hint: `nothing was removed; tick ${open.length === 1 ? 'it' : 'them'} first (git kizu queue done ${ids(open)}), or remove ${open.length === 1 ? 'it' : 'them'} too (git kizu queue rm ${ids([t, ...open])})`,
      });
    }
    const text = removeItems(q.text, targets);
    await verifyEdit(text, q.items.filter((x) => !removed.includes(x)).map(itemSignature), 'remove the item', Math.min(...targets.map((t) => t.start), text.length));
    return { text, result: removed };
  });
  recordRemoved(ctx.gitDir, [...gone.map((t) => t.id), ...forgotten.map((v) => v.id)]);
  for (const t of gone) i.reporter.log(`removed: ${printable(describeItem(t))}`);
  for (const v of forgotten) i.reporter.log(`forgotten (it was no longer in ${QUEUE_FILE}): ${printable(v.id)} ${printable(v.text)}`);
  return EXIT.OK;
}

/**
 * `queue clear --done`: removes every checked item, except one that holds open (unchecked)
 * items nested in it: it is kept and named, so that no open item is lost.
 * @returns 0.
 * @throws KizuError (exit 2) without `done` (clearing open items is not offered), or if the
 *   queue file cannot be read or parsed or an item shares a line with other text.
 */
export async function queueClear(i: { cwd: string; done: boolean; reporter: Reporter }): Promise<number> {
  if (!i.done) throw new KizuError('queue clear needs --done (it removes checked items only)', { hint: 'run git kizu queue clear --done; remove open items one by one with git kizu queue rm <id>' });
  const ctx = await repoContext(i.cwd);
  const { gone, kept } = await modifyQueue(ctx.root, ctx.gitDir, async (q) => {
    const none = { gone: [] as QueueItem[], kept: [] as QueueItem[] };
    if (!q.exists) return { text: q.text, result: none };
    const checked = q.items.filter((x) => x.checked);
    const holdsOpen = (t: QueueItem) => withNested(q.items, [t]).some((x) => !x.checked);
    const targets = checked.filter((t) => !holdsOpen(t));
    const kept = checked.filter(holdsOpen);
    if (!targets.length) return { text: q.text, result: { gone: [], kept } };
    const text = removeItems(q.text, targets);
    await verifyEdit(text, q.items.filter((x) => !targets.includes(x)).map(itemSignature), 'remove the done items', Math.min(...targets.map((t) => t.start), text.length));
    return { text, result: { gone: targets, kept } };
  });
  recordRemoved(ctx.gitDir, gone.map((t) => t.id));
  i.reporter.log(gone.length ? `removed ${count(gone.length, 'done item')}` : 'no done items to remove');
  for (const k of kept) i.reporter.log(`kept done item ${k.id} (line ${k.line}): it holds open items; tick or remove them first`);
  return EXIT.OK;
}
