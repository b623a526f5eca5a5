/**
 * Retention: what git-kizu stores under `refs/kizu/*` (and the undo log), how much of it there
 * is, and what the budgets of config `retention` (config/config.ts) drop. `git kizu gc`,
 * `gc --auto` (started in the background by the prompt hook, ./auto.ts) and `git kizu status`
 * use it.
 *
 * The kinds and their storage shapes (names in git/layout.ts):
 * - `journal`: `refs/kizu/journal`, a chain of commits, one per entry (rollback/journal).
 * - `reverts`: `refs/kizu/reverts`, a chain of commits, one per saved file (hunks/saved-reverts.ts).
 * - `snapshots`: one ref per snapshot, `refs/kizu/snapshots/*` (rollback/snapshots).
 * - `trash`: one ref per discarded task, `refs/kizu/trash/<name>/<time>` (rollback/tasks/removed.ts).
 * - `marks`: `refs/kizu/marks`, one commit whose `marks.json` holds every mark, untap
 *   tombstones (`state: none`) included (marks/); remote copies under `refs/kizu/remotes/`.
 * - `undo`: the records of `<common-dir>/kizu/rollbacks.json` (rollback/undo-log.ts).
 *
 * What is dropped, per kind with budget {minEntries, maxEntries, maxAgeDays, maxBytes}, going
 * from the oldest entry to the newest: an entry older than maxAgeDays, or while more than
 * maxEntries would be left, is dropped; then, while the kind still holds more than maxBytes,
 * more of the oldest are dropped. Never the newest minEntries; never a snapshot the undo log
 * needs (the safety snapshots of its records and its redo points); never a task trash ref a
 * record of the undo log restores from (`undo.trashRef`); never a journal entry of a patch
 * rollback a record still reverses (`journalEntry`: its undo is recorded as a rollback of that
 * entry, so the chain is cut only below it). Undo records are trimmed first, so
 * that what the dropped records protected can go in the same run. Marks tombstones older than
 * `retention.marks.tombstoneDays` are removed.
 *
 * How it is dropped:
 * - refs (snapshots, trash): deleted in one `git update-ref --stdin` transaction, each with
 *   its old value (a ref that moved in between fails the whole transaction: nothing dropped).
 * - chains (journal, reverts): the kept entries are written again on top of nothing (the
 *   oldest kept one becomes the root), each with its original id recorded in it (journal: an
 *   `"id"` field in its JSON; reverts: a `kizu-id:` line), so every id printed before keeps
 *   working (journal.ts readJournal, saved-reverts.ts readSavedRevert). The ref is then moved
 *   by compare-and-swap; entries appended meanwhile are written again on top of the new chain
 *   and the swap retried, so no concurrent append is lost.
 * - marks: a new commit without the old tombstones, compare-and-swap.
 * - undo: the oldest records removed under the undo log's lock, if they are still the oldest.
 *
 * Bytes are the on-disk size (`git rev-list --objects --disk-usage`, see diskUsage) of the objects a kind's
 * refs reach that no branch, tag, remote-tracking ref or HEAD reaches: an estimate of what
 * dropping the kind would free (objects shared by two kinds count in both).
 */
import { readFileSync } from 'node:fs';
import { git } from '../git/run.js';
import { GC_TMP_PREFIX, JOURNAL_REF, MARKS_REF, REMOTE_MARKS_PREFIX, REVERTS_REF, SNAPSHOT_REFS, TASK_TRASH_PREFIX, undoLogFile } from '../git/layout.js';
import { backoff, badRefError, casUpdateRef, missingRefObject, resolveKizuRef, MAX_ATTEMPTS } from '../git/refs.js';
import { commonDir } from '../git/repo.js';
import { KizuError } from '../errors.js';
import type { KizuConfig, RetentionBudget } from '../config/config.js';
import type { RollbackRecord } from '../rollback/undo-log.js';

/** The kinds of stored entries, in the order they are reported. */
export const STORAGE_KINDS = ['journal', 'snapshots', 'reverts', 'trash', 'marks', 'undo'] as const;
/** One kind of stored entries (see the module comment). */
export type StorageKind = (typeof STORAGE_KINDS)[number];

/** One stored entry: a commit of a chain, a ref, a mark tombstone or an undo record. */
interface Item {
  /** Commit id (chains, refs), hunk id (marks) or record index (undo). */
  id: string;
  /** Its ref, for ref kinds. */
  ref: string | null;
  /** When it was made, Unix seconds. */
  time: number;
}

/** What one kind holds and what retention drops of it. */
export interface KindPlan {
  kind: StorageKind;
  /** Entries held (marks: marks, tombstones included). */
  entries: number;
  /** Bytes on disk held only by this kind (see the module comment); 0 for `undo`, which is a file. */
  bytes: number;
  /** Entries retention drops (marks: tombstones). */
  drop: number;
  /** Estimated bytes freed by the drop. */
  dropBytes: number;
  /** Tombstones among the marks (marks only). */
  tombstones?: number;
}

/** A plan over every kind, to print or apply. */
export interface RetentionPlan {
  kinds: KindPlan[];
  /** Internal: the entries to drop per kind, and what they were read from. */
  detail: Map<StorageKind, { items: Item[]; drop: Item[]; tip: string | null }>;
  /** The undo records dropped (oldest first), to check they are still the oldest when applying. */
  undoDrop: RollbackRecord[];
}

const DAY = 86_400;

/** The tips of every ref that is not git-kizu's, and HEAD: what bytes are measured against. */
async function userTips(root: string): Promise<string[]> {
  const r = await git(['for-each-ref', '--format=%(refname)%00%(objectname)'], { cwd: root });
  const tips = new Set<string>();
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [ref, oid] = line.split('\0');
    if (oid && !ref.startsWith('refs/kizu/')) tips.add(oid);
  }
  const head = await git(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: root, okStatus: [0, 1, 128] });
  if (head.status === 0) tips.add(head.stdout.toString('utf8').trim());
  return [...tips];
}

let versionP: Promise<[number, number]> | null = null;
/** git's version as [major, minor] (`git version`), asked once per process. */
function gitVersion(root: string): Promise<[number, number]> {
  return (versionP ??= git(['version'], { cwd: root }).then((r) => {
    const m = /(\d+)\.(\d+)/.exec(r.stdout.toString('utf8'));
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  }));
}
const atLeast = (v: [number, number], major: number, minor: number) => v[0] > major || (v[0] === major && v[1] >= minor);

/**
 * Bytes on disk of the objects reachable from `include` but not from `exclude` nor the user's
 * refs (git-rev-list(1) `--objects --disk-usage`, git 2.38+; before that the same listing's
 * `%(objectsize:disk)` summed from `git cat-file --batch-check`).
 */
async function diskUsage(root: string, include: string[], exclude: string[], user: string[]): Promise<number> {
  if (!include.length) return 0;
  const input = [...include, ...exclude.map((x) => `^${x}`), ...user.map((x) => `^${x}`)].join('\n') + '\n';
  if (atLeast(await gitVersion(root), 2, 38)) {
    const r = await git(['rev-list', '--objects', '--disk-usage', '--stdin'], { cwd: root, input });
    return Number(r.stdout.toString('utf8').trim()) || 0;
  }
  const list = await git(['rev-list', '--objects', '--stdin'], { cwd: root, input });
  const oids = list.stdout.toString('utf8').split('\n').map((l) => l.slice(0, l.indexOf(' ') < 0 ? undefined : l.indexOf(' '))).filter(Boolean);
  if (!oids.length) return 0;
  const sizes = await git(['cat-file', '--batch-check=%(objectsize:disk)'], { cwd: root, input: oids.join('\n') + '\n' });
  return sizes.stdout.toString('utf8').split('\n').reduce((n, l) => n + (Number(l) || 0), 0);
}

/** The commits of the chain at `ref`, oldest first, and its tip. */
async function chainItems(root: string, ref: string): Promise<{ tip: string | null; items: Item[] }> {
  const tip = await resolveKizuRef(root, ref);
  if (!tip) return { tip: null, items: [] };
  const r = await git(['rev-list', '--first-parent', '--format=%ct', tip], { cwd: root });
  const lines = r.stdout.toString('utf8').split('\n');
  const items: Item[] = [];
  for (let k = 0; k + 1 < lines.length; k += 2) items.push({ id: lines[k].replace(/^commit /, ''), ref: null, time: Number(lines[k + 1]) });
  return { tip, items: items.reverse() };
}

/**
 * The commits of chain `c` (the journal) that hold the entries with ids `ids`: an entry's id is
 * its commit id until gc writes it again, then the `"id"` its JSON starts with (journal.ts), so
 * the ids not found as commits are looked up in the messages (one `git rev-list --grep`).
 */
async function entryCommits(root: string, c: { tip: string | null; items: Item[] }, ids: Set<string>): Promise<Set<string>> {
  const found = new Set(c.items.filter((i) => ids.has(i.id)).map((i) => i.id));
  const rest = [...ids].filter((id) => !found.has(id));
  if (!rest.length || !c.tip) return found;
  const r = await git(['rev-list', '--first-parent', '-F', ...rest.map((id) => `--grep={"id":"${id}"`), c.tip], { cwd: root });
  for (const id of r.stdout.toString('utf8').split('\n')) if (id) found.add(id);
  return found;
}

/** The refs under `prefix` (commits), oldest first (by commit time, then name). */
async function refItems(root: string, prefix: string): Promise<Item[]> {
  let out: string;
  try {
    out = (await git(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(objecttype)%00%(committerdate:unix)', prefix], { cwd: root })).stdout.toString('utf8');
  } catch (e) {
    throw missingRefObject(e);
  }
  const items: Item[] = [];
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [ref, id, type, time] = line.split('\0');
    if (type !== 'commit') throw badRefError(ref, id, type);
    items.push({ id, ref, time: Number(time) });
  }
  return items.sort((a, b) => a.time - b.time || (a.ref! < b.ref! ? -1 : 1));
}

/**
 * Chooses what to drop of `items` (oldest first) under budget `b`.
 * @param chain drops must be the oldest run (a chain is cut, not thinned).
 * @param isProtected entries that are never dropped (they still count towards maxEntries).
 * @param keptBytes bytes still held when the first `dropped` entries (a chain) or the given
 *   set (refs) are gone.
 */
async function choose(
  items: Item[],
  b: RetentionBudget,
  now: number,
  chain: boolean,
  isProtected: (i: Item) => boolean,
  keptBytes: ((drop: Item[]) => Promise<number>) | null,
): Promise<Item[]> {
  const cutoff = now - b.maxAgeDays * DAY;
  const drop: Item[] = [];
  const rest: Item[] = []; // droppable, not dropped yet, oldest first
  let left = items.length;
  const last = items.length - b.minEntries;
  for (let k = 0; k < last; k++) {
    const it = items[k];
    if (isProtected(it)) {
      if (chain) break;
      continue;
    }
    // A chain is cut at its first kept entry; refs are dropped one by one.
    const cut = chain ? !rest.length : true;
    if (cut && (left > b.maxEntries || it.time < cutoff)) {
      drop.push(it);
      left--;
    } else rest.push(it);
  }
  if (!keptBytes || !rest.length) return drop;
  // The bytes budget: drop more of the oldest, in proportion to the excess, measured again.
  for (let round = 0; round < 6 && rest.length; round++) {
    const kept = await keptBytes(drop);
    if (kept <= b.maxBytes) break;
    const n = Math.max(1, Math.min(rest.length, Math.ceil((rest.length + b.minEntries) * ((kept - b.maxBytes) / kept))));
    drop.push(...rest.splice(0, n));
  }
  return drop;
}

/** The undo log's records and redo points, read without its lock (it is replaced atomically). */
function readUndo(common: string): { records: RollbackRecord[]; redo: string[] } {
  let text: string;
  try {
    text = readFileSync(undoLogFile(common), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], redo: [] };
    throw e;
  }
  let v: { version?: unknown; records?: unknown; redo?: unknown };
  try {
    v = JSON.parse(text) as typeof v;
  } catch (e) {
    throw unreadableUndo(common, (e as Error).message);
  }
  if (v?.version !== 1 || !Array.isArray(v.records)) throw unreadableUndo(common, 'unknown format');
  const records = (v.records as RollbackRecord[]).filter((r) => r && typeof r === 'object' && typeof r.safetySnapshot === 'string' && typeof r.time === 'string');
  const redo = Array.isArray(v.redo) ? (v.redo as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  return { records, redo };
}

function unreadableUndo(common: string, why: string): KizuError {
  return new KizuError(`the undo log ${undoLogFile(common)} cannot be read (${why}), so retention cannot tell what undo still needs; nothing was dropped`, {
    hint: 'fix or move the file away (git kizu undo cannot use it either), then run git kizu gc again',
  });
}

/**
 * Reads what every kind holds and plans what the retention budgets drop (nothing is changed).
 * @param opts.sizes false to skip measuring bytes (then the bytes budgets are not applied
 *   either and every `bytes` is 0); default true.
 * @param opts.now the current time (default: now), for tests.
 * @throws KizuError (exit 2): an unreadable undo log (nothing can be planned safely), a
 *   refs/kizu ref at the wrong object type or a missing object, or a git failure.
 */
export async function planRetention(root: string, config: KizuConfig, opts: { sizes?: boolean; now?: Date } = {}): Promise<RetentionPlan> {
  const sizes = opts.sizes !== false;
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const common = await commonDir(root);
  const ret = config.retention;
  const user = sizes ? await userTips(root) : [];
  const detail: RetentionPlan['detail'] = new Map();
  const kinds: KindPlan[] = [];

  // The undo log first: the records it keeps say which snapshots and trash refs stay.
  const undo = readUndo(common);
  const undoItems: Item[] = undo.records.map((r, k) => ({ id: String(k), ref: null, time: Math.floor(Date.parse(r.time) / 1000) }));
  const undoDropItems = await choose(undoItems, ret.undo, now, true, () => false, null);
  const keptRecords = undo.records.slice(undoDropItems.length);
  detail.set('undo', { items: undoItems, drop: undoDropItems, tip: null });
  const needSnapshots = new Set([...keptRecords.map((r) => r.safetySnapshot), ...undo.redo]);
  const needTrash = new Set(keptRecords.flatMap((r) => (r.undo?.trashRef ? [r.undo.trashRef] : [])));
  // The journal entry of a patch rollback undo can still reverse: undo records its own entry as
  // a rollback of it, so the chain is not cut there.
  const needEntries = new Set(keptRecords.flatMap((r) => (r.journalEntry ? [r.journalEntry] : [])));

  const [journal, reverts, snapshots, trash] = await Promise.all([
    chainItems(root, JOURNAL_REF),
    chainItems(root, REVERTS_REF),
    refItems(root, SNAPSHOT_REFS),
    refItems(root, TASK_TRASH_PREFIX),
  ]);

  for (const [kind, c, budget] of [
    ['journal', journal, ret.journal],
    ['reverts', reverts, ret.reverts],
  ] as const) {
    const total = sizes && c.tip ? await diskUsage(root, [c.tip], [], user) : 0;
    const keptBytes = sizes && c.tip ? (drop: Item[]) => diskUsage(root, [c.tip!], drop.length ? [drop[drop.length - 1].id] : [], user) : null;
    const keep = kind === 'journal' ? await entryCommits(root, c, needEntries) : new Set<string>();
    const drop = await choose(c.items, budget, now, true, (i) => keep.has(i.id), keptBytes);
    const dropBytes = drop.length && keptBytes ? total - (await keptBytes(drop)) : 0;
    detail.set(kind, { items: c.items, drop, tip: c.tip });
    kinds.push({ kind, entries: c.items.length, bytes: total, drop: drop.length, dropBytes });
  }
  for (const [kind, items, budget, isProtected] of [
    ['snapshots', snapshots, ret.snapshots, (i: Item) => needSnapshots.has(i.id)],
    ['trash', trash, ret.trash, (i: Item) => needTrash.has(i.ref!)],
  ] as const) {
    const keptOf = (drop: Item[]) => {
      const gone = new Set(drop.map((d) => d.ref));
      return items.filter((i) => !gone.has(i.ref)).map((i) => i.id);
    };
    const total = sizes ? await diskUsage(root, items.map((i) => i.id), [], user) : 0;
    const keptBytes = sizes ? (drop: Item[]) => diskUsage(root, keptOf(drop), [], user) : null;
    const drop = await choose(items, budget, now, false, isProtected, keptBytes);
    const dropBytes = drop.length && keptBytes ? total - (await keptBytes(drop)) : 0;
    detail.set(kind, { items, drop, tip: null });
    kinds.push({ kind, entries: items.length, bytes: total, drop: drop.length, dropBytes });
  }

  // Marks: tombstones past their age.
  const marksTip = await resolveKizuRef(root, MARKS_REF);
  let marksItems: Item[] = [];
  let tombstones: Item[] = [];
  if (marksTip) {
    const { loadMarks } = await import('../marks/commits.js');
    const marks = await loadMarks(common, marksTip, { ref: MARKS_REF });
    marksItems = [...marks].map(([id, m]) => ({ id, ref: m.state, time: Math.floor(Date.parse(m.time) / 1000) }));
    tombstones = marksItems.filter((i) => i.ref === 'none');
  }
  const tombCutoff = now - ret.marks.tombstoneDays * DAY;
  const marksDrop = tombstones.filter((t) => t.time < tombCutoff);
  const remotes = sizes ? (await git(['for-each-ref', '--format=%(objectname)', REMOTE_MARKS_PREFIX], { cwd: root })).stdout.toString('utf8').split('\n').filter(Boolean) : [];
  const marksBytes = sizes && marksTip ? await diskUsage(root, [marksTip, ...remotes], [], user) : 0;
  detail.set('marks', { items: marksItems, drop: marksDrop, tip: marksTip });
  kinds.push({ kind: 'marks', entries: marksItems.length, bytes: marksBytes, drop: marksDrop.length, dropBytes: 0, tombstones: tombstones.length });

  kinds.push({ kind: 'undo', entries: undo.records.length, bytes: 0, drop: undoDropItems.length, dropBytes: 0 });
  kinds.sort((a, b) => STORAGE_KINDS.indexOf(a.kind) - STORAGE_KINDS.indexOf(b.kind));
  return { kinds, detail, undoDrop: undo.records.slice(0, undoDropItems.length) };
}

/** What {@link applyRetention} did per kind: entries dropped (0 where a concurrent change made it skip that kind), and why a kind was skipped. */
export interface RetentionResult {
  dropped: Record<StorageKind, number>;
  /** Kinds left as they were because they changed while being pruned, with the reason. */
  skipped: { kind: StorageKind; why: string }[];
  /** Refs whose commits were written again (their reflogs then only keep the old chains alive). */
  rewritten: string[];
}

/**
 * Drops what `plan` says, kind by kind (see the module comment for how each is dropped and
 * why no concurrent write is lost). A kind that changed in a way that makes the plan unsafe
 * (a ref moved or deleted, the undo log's oldest records changed) is left alone and named in
 * `skipped`; the next run plans it again.
 * @throws KizuError (exit 2) when git cannot write objects or refs.
 */
export async function applyRetention(root: string, plan: RetentionPlan): Promise<RetentionResult> {
  const dropped = Object.fromEntries(STORAGE_KINDS.map((k) => [k, 0])) as Record<StorageKind, number>;
  const skipped: RetentionResult['skipped'] = [];
  const rewritten: string[] = [];
  const d = (k: StorageKind) => plan.detail.get(k)!;

  if (plan.undoDrop.length) {
    const { trimRollbacks } = await import('../rollback/undo-log.js');
    if (await trimRollbacks(root, plan.undoDrop)) dropped.undo = plan.undoDrop.length;
    else skipped.push({ kind: 'undo', why: 'the undo log changed meanwhile' });
  }
  if (skipped.length) {
    // What the undo records protected is only released when they are gone.
    for (const k of ['snapshots', 'trash'] as const) if (d(k).drop.length) skipped.push({ kind: k, why: 'the undo log changed meanwhile' });
  } else {
    const refs = [...d('snapshots').drop, ...d('trash').drop];
    if (refs.length) {
      const input = refs.map((i) => `delete ${i.ref} ${i.id}\n`).join('');
      const r = await git(['update-ref', '--stdin'], { cwd: root, input, okStatus: [0, 1, 128] });
      if (r.status === 0) {
        dropped.snapshots = d('snapshots').drop.length;
        dropped.trash = d('trash').drop.length;
      } else {
        const why = `a ref changed meanwhile (${r.stderr.trim().split('\n')[0]})`;
        for (const k of ['snapshots', 'trash'] as const) if (d(k).drop.length) skipped.push({ kind: k, why });
      }
    }
  }
  for (const [kind, ref] of [
    ['journal', JOURNAL_REF],
    ['reverts', REVERTS_REF],
  ] as const) {
    const c = d(kind);
    if (!c.drop.length || !c.tip) continue;
    const why = await cutChain(root, ref, kind, c.tip, c.drop[c.drop.length - 1].id);
    if (why) skipped.push({ kind, why });
    else {
      dropped[kind] = c.drop.length;
      rewritten.push(ref);
    }
  }
  const m = d('marks');
  if (m.drop.length && m.tip) {
    const why = await dropTombstones(root, m.tip, new Set(m.drop.map((i) => i.id)));
    if (why) skipped.push({ kind: 'marks', why });
    else dropped.marks = m.drop.length;
  }
  return { dropped, skipped, rewritten };
}

/** One commit as `git cat-file --batch` gives it. */
async function readCommits(root: string, ids: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (!ids.length) return out;
  const r = await git(['cat-file', '--batch'], { cwd: root, input: ids.join('\n') + '\n' });
  const buf = r.stdout;
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    const [oid, type, size] = buf.subarray(at, nl).toString('utf8').split(' ');
    if (type !== 'commit') throw new KizuError(`internal: ${oid} is a ${type}, not a commit`);
    const n = Number(size);
    out.set(oid, buf.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  return out;
}

/**
 * `raw` (a commit object's content) with `parent` as its only parent (none if null), without
 * a signature (it would no longer match), and its original id recorded in its message.
 */
function rewriteCommit(raw: Buffer, origId: string, parent: string | null, kind: 'journal' | 'reverts'): Buffer {
  const text = raw.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = text.slice(0, split).split('\n');
  let message = text.slice(split + 2);
  const kept: string[] = [];
  let inSig = false;
  for (const h of headers) {
    if (inSig && h.startsWith(' ')) continue;
    inSig = false;
    if (h.startsWith('parent ')) continue;
    if (h.startsWith('gpgsig')) {
      inSig = true;
      continue;
    }
    kept.push(h);
    if (h.startsWith('tree ') && parent) kept.push(`parent ${parent}`);
  }
  if (kind === 'journal') {
    // The entry's JSON is the message's last line; an entry written again before keeps its id.
    message = message.replace(/^\{(?!"id":)(?="version":)/m, `{"id":"${origId}",`);
  } else if (!/^kizu-id: /m.test(message)) {
    message = message.replace(/\n*$/, '\n') + `kizu-id: ${origId}\n`;
  }
  return Buffer.from(`${kept.join('\n')}\n\n${message}`, 'utf8');
}

/**
 * Writes `ids` (oldest first, a run of the chain) again on top of `base` (null: a new root),
 * in one `git fast-import` (git-fast-import(1): one pack, no loose object per commit) onto the
 * scratch ref `refs/kizu/gc-tmp/<pid>`, which is deleted again; each commit is
 * {@link rewriteCommit} of the original (tree, author, committer and message as they were).
 * @returns the new tip (`base` when `ids` is empty).
 * @throws KizuError (exit 2) if git fails.
 */
async function writeAgain(root: string, ids: string[], base: string | null, kind: 'journal' | 'reverts'): Promise<string | null> {
  if (!ids.length) return base;
  const raws = await readCommits(root, ids);
  const tmp = `${GC_TMP_PREFIX}${process.pid}`;
  const parts: Buffer[] = [Buffer.from(`reset ${tmp}\n`)];
  ids.forEach((id, k) => {
    const text = rewriteCommit(raws.get(id)!, id, null, kind).toString('utf8');
    const split = text.indexOf('\n\n');
    const headers = text.slice(0, split).split('\n');
    const message = Buffer.from(text.slice(split + 2), 'utf8');
    const header = (name: string) => headers.find((h) => h.startsWith(`${name} `))!.slice(name.length + 1);
    const from = k ? `from :${k}\n` : base ? `from ${base}\n` : '';
    parts.push(
      Buffer.from(`commit ${tmp}\nmark :${k + 1}\nauthor ${header('author')}\ncommitter ${header('committer')}\ndata ${message.length}\n`),
      message,
      Buffer.from(`\n${from}deleteall\nM 040000 ${header('tree')} ""\n\n`),
    );
  });
  parts.push(Buffer.from(`get-mark :${ids.length}\n`));
  try {
    const r = await git(['fast-import', '--quiet', '--force', '--done'], { cwd: root, input: Buffer.concat([...parts, Buffer.from('done\n')]) });
    return r.stdout.toString('utf8').trim().split('\n').pop()!;
  } finally {
    await git(['update-ref', '-d', tmp], { cwd: root, okStatus: [0, 1, 128] });
  }
}

/**
 * Cuts the chain at `ref` below `lastDropped`: the commits after it are written again (see
 * {@link rewriteCommit}) and the ref moved by compare-and-swap from `tip`; commits appended
 * meanwhile are written again on top and the swap retried.
 * @returns null when done, else why the chain was left as it is.
 */
async function cutChain(root: string, ref: string, kind: 'journal' | 'reverts', tip: string, lastDropped: string): Promise<string | null> {
  const list = async (from: string, to: string) =>
    (await git(['rev-list', '--reverse', '--first-parent', `${from}..${to}`], { cwd: root })).stdout.toString('utf8').split('\n').filter(Boolean);
  let old = tip;
  let newTip = await writeAgain(root, await list(lastDropped, tip), null, kind);
  for (let attempt = 1; ; attempt++) {
    if (newTip === null) {
      // Everything goes (only possible with minEntries 0, which the config refuses).
      return 'nothing would be left';
    }
    if (await casUpdateRef(root, ref, newTip, old, `git kizu gc: drop entries older than ${lastDropped.slice(0, 12)}`)) return null;
    const cur = await resolveKizuRef(root, ref);
    if (!cur) return `${ref} was deleted meanwhile`;
    const anc = await git(['merge-base', '--is-ancestor', old, cur], { cwd: root, okStatus: [0, 1, 128] });
    if (anc.status !== 0) return `${ref} was rewritten meanwhile`;
    newTip = await writeAgain(root, await list(old, cur), newTip, kind);
    old = cur;
    if (attempt >= MAX_ATTEMPTS) return `${ref} kept changing`;
    await backoff(attempt);
  }
}

/** Writes the marks without the tombstones `ids` as a child of `tip` and moves refs/kizu/marks by compare-and-swap. @returns null when done, else why not. */
async function dropTombstones(root: string, tip: string, ids: Set<string>): Promise<string | null> {
  const { loadMarks, writeMarksCommit, assertSha1 } = await import('../marks/commits.js');
  const { identity } = await import('../git/objects.js');
  const gitdir = await commonDir(root);
  assertSha1(gitdir);
  const who = await identity(root);
  let old = tip;
  for (let attempt = 1; ; attempt++) {
    const marks = await loadMarks(gitdir, old, { ref: MARKS_REF }, { cache: false });
    let n = 0;
    for (const id of ids) if (marks.get(id)?.state === 'none' && marks.delete(id)) n++;
    if (!n) return null;
    const oid = await writeMarksCommit(gitdir, marks, [old], `kizu: gc ${n} tombstones\n\n`, who);
    if (await casUpdateRef(root, MARKS_REF, oid, old, `git kizu gc: ${n} tombstones`)) return null;
    const cur = await resolveKizuRef(root, MARKS_REF);
    if (!cur) return `${MARKS_REF} was deleted meanwhile`;
    old = cur;
    if (attempt >= MAX_ATTEMPTS) return `${MARKS_REF} kept changing`;
    await backoff(attempt);
  }
}

/**
 * Lets git drop the objects nothing reaches any more. The reflogs of the chains written again
 * would keep every old chain alive, so their entries that the new chain does not reach are
 * expired first (`git reflog expire --expire-unreachable=now <ref>...`). Then:
 * - `auto`: `git gc --auto --quiet`: git decides from its own thresholds (gc.auto) whether
 *   the object store needs work, and prunes with its own grace period (gc.pruneExpire,
 *   2 weeks by default), so a background run is cheap and never races a writer.
 * - otherwise `git gc --quiet --cruft --prune=1.hour.ago`: a full repack; unreachable objects
 *   older than an hour are deleted, younger ones kept in one cruft pack (not thousands of
 *   loose files; `--cruft` needs git 2.37, older git loosens them as `git gc` always did). Not `--prune=now`: a git-kizu hook or a git command
 *   running meanwhile writes objects before the ref that reaches them; an hour is far longer
 *   than any of them takes.
 * @returns the git command run for the objects.
 * @throws KizuError (exit 2) if git fails.
 */
export async function dropUnreachable(root: string, rewritten: string[], auto: boolean): Promise<string> {
  if (rewritten.length) await git(['reflog', 'expire', '--expire-unreachable=now', ...rewritten], { cwd: root });
  const cruft = atLeast(await gitVersion(root), 2, 37) ? ['--cruft'] : [];
  const args = auto ? ['gc', '--auto', '--quiet'] : ['gc', '--quiet', ...cruft, `--prune=${PRUNE_GRACE}`];
  await git(args, { cwd: root });
  return `git ${args.filter((a) => a !== '--quiet').join(' ')}`;
}

/** How old an unreachable loose object must be before `git kizu gc` lets git delete it. */
export const PRUNE_GRACE = '1.hour.ago';

/**
 * What every kind holds (entries and bytes), for `git kizu status`: {@link planRetention}
 * with the config's budgets, so that what `gc` would drop is shown too.
 * @throws as {@link planRetention}.
 */
export async function storageUsage(root: string, config: KizuConfig): Promise<KindPlan[]> {
  return (await planRetention(root, config)).kinds;
}
