/** `git kizu queue add|list|done|reopen|rm|clear`: the ghost-prompt review queue. */
import { KizuError, EXIT } from '../errors.js';
import { pc, type Reporter } from '../output.js';
import { repoContext } from '../context.js';
import { parseLocation, resolveFile } from '../scars/insert.js';
import { toLines, lineCount, isBinary } from '../scars/lines.js';
import { readFileSync } from 'node:fs';
import { QUEUE_KINDS, cleanItemText, newId, renderItem, describeItem, type QueueItem } from '../queue/item.js';
import { modifyQueue, readQueue, appendItem, setChecked, removeItems, queueTemplate, QUEUE_FILE } from '../queue/store.js';

export interface QueueAddInput {
  cwd: string;
  text: string;
  /** `<path>:<line>` the item is about (validated: file exists, line in range). */
  at?: string;
  kind?: string;
  reporter: Reporter;
}

/**
 * Appends an unchecked item to `.claude/review-queue.md` (created from the template if
 * missing) and prints its id.
 * @returns 0.
 * @throws KizuError (exit 2): empty text, unknown kind, a bad `--at` (missing file, line out
 *   of range, path outside the repo); nothing is written then.
 */
export async function queueAdd(i: QueueAddInput): Promise<number> {
  const kind = i.kind ?? null;
  if (kind !== null && !(QUEUE_KINDS as readonly string[]).includes(kind)) {
    throw new KizuError(`unknown kind "${kind}"`, { hint: `use one of: ${QUEUE_KINDS.join(', ')}` });
  }
  const text = cleanItemText(i.text ?? '');
  if (!text) throw new KizuError('the item text is empty', { hint: 'e.g. git kizu queue add "also add a test for the empty case"' });
  const ctx = await repoContext(i.cwd);
  let anchor: QueueItem['anchor'] = null;
  if (i.at !== undefined) {
    const { file, line } = parseLocation(i.at);
    const t = await resolveFile(ctx.root, i.cwd, file);
    const buf = readFileSync(t.real);
    const count = isBinary(buf) ? null : lineCount(toLines(buf));
    if (count !== null && line! > Math.max(count, 1)) {
      throw new KizuError(`${t.rel}:${line}: line is beyond the end of the file (it has ${count} line${count === 1 ? '' : 's'})`, { hint: `use a line from 1 to ${Math.max(count, 1)}` });
    }
    anchor = { path: t.rel, line: line! };
  }
  const id = await modifyQueue(ctx.root, ctx.gitDir, (q) => {
    const id = newId(new Set(q.items.map((x) => x.id)));
    const base = q.exists ? q.text : queueTemplate();
    return { text: appendItem(base, renderItem(id, text, kind, anchor)), result: id };
  });
  i.reporter.log(id);
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
  for (const x of items) {
    const where = x.anchor ? `  ${x.anchor.path}:${x.anchor.line}` : '';
    const kind = x.kind ? `  ${pc.cyan(`(${x.kind})`)}` : '';
    i.reporter.log(`${x.checked ? '[x]' : '[ ]'} ${pc.bold(x.id)}${where}${kind}  ${x.text}`);
  }
  return EXIT.OK;
}

function findItems(items: QueueItem[], ids: string[]): QueueItem[] {
  const missing = ids.filter((id) => !items.some((x) => x.id === id));
  if (missing.length) {
    const known = items.map((x) => `${x.id} ${x.checked ? '[x]' : '[ ]'} ${x.text}`).join('\n  ');
    throw new KizuError(`no queue item with id ${missing.join(', ')}`, {
      hint: items.length ? `the ids in ${QUEUE_FILE} are:\n  ${known}` : `${QUEUE_FILE} has no items`,
      exitCode: EXIT.FOUND,
    });
  }
  return ids.map((id) => items.find((x) => x.id === id)!);
}

export interface QueueIdsInput {
  cwd: string;
  ids: string[];
  reporter: Reporter;
}

/**
 * Marks items done (`[x]`) or open again (`[ ]`).
 * @returns 0.
 * @throws KizuError (exit 1) if an id does not exist (listing the ids); nothing is written.
 */
export async function queueCheck(i: QueueIdsInput & { checked: boolean }): Promise<number> {
  if (!i.ids.length) throw new KizuError('no id given', { hint: 'list ids with git kizu queue list' });
  const ctx = await repoContext(i.cwd);
  const done = await modifyQueue(ctx.root, ctx.gitDir, (q) => {
    if (!q.exists) throw new KizuError(`no review queue yet (${QUEUE_FILE})`, { hint: 'add items with git kizu queue add', exitCode: EXIT.FOUND });
    const targets = findItems(q.items, i.ids);
    let text = q.text;
    for (const t of targets) text = setChecked(text, t, i.checked);
    return { text, result: targets };
  });
  for (const t of done) i.reporter.log(`${i.checked ? 'done' : 'reopened'}: ${describeItem(t)}`);
  return EXIT.OK;
}

/**
 * Removes items by id (their whole lines, nested items included).
 * @returns 0.
 * @throws KizuError (exit 1) if an id does not exist; nothing is written.
 */
export async function queueRemove(i: QueueIdsInput): Promise<number> {
  if (!i.ids.length) throw new KizuError('no id given', { hint: 'list ids with git kizu queue list --all' });
  const ctx = await repoContext(i.cwd);
  const gone = await modifyQueue(ctx.root, ctx.gitDir, (q) => {
    if (!q.exists) throw new KizuError(`no review queue yet (${QUEUE_FILE})`, { hint: 'add items with git kizu queue add', exitCode: EXIT.FOUND });
    const targets = findItems(q.items, i.ids);
    return { text: removeItems(q.text, targets), result: targets };
  });
  for (const t of gone) i.reporter.log(`removed: ${describeItem(t)}`);
  return EXIT.OK;
}

/**
 * `queue clear --done`: removes every checked item.
 * @returns 0.
 * @throws KizuError (exit 2) without `done` (clearing open items is not offered).
 */
export async function queueClear(i: { cwd: string; done: boolean; reporter: Reporter }): Promise<number> {
  if (!i.done) throw new KizuError('queue clear needs --done (it removes checked items only)', { hint: 'run git kizu queue clear --done; remove open items one by one with git kizu queue rm <id>' });
  const ctx = await repoContext(i.cwd);
  const gone = await modifyQueue(ctx.root, ctx.gitDir, (q) => {
    if (!q.exists) return { text: q.text, result: [] as QueueItem[] };
    const targets = q.items.filter((x) => x.checked);
    return { text: targets.length ? removeItems(q.text, targets) : q.text, result: targets };
  });
  i.reporter.log(gone.length ? `removed ${gone.length} done item${gone.length === 1 ? '' : 's'}` : 'no done items to remove');
  return EXIT.OK;
}
