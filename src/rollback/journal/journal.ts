/**
 * The edit journal: every file change made by the agent (Claude Code's Write, Edit,
 * MultiEdit and NotebookEdit, recorded by the async PostToolUse hook `git kizu hook
 * journal`), by `git kizu patch apply`, by `git kizu rollback patch`, and by `git kizu undo`
 * of a rollback patch, as a chain of commits on `refs/kizu/journal`.
 *
 * Storage (format version 1). One commit per entry, parent = the previous tip (the first
 * entry has none), written with isomorphic-git into the common git dir and moved with a
 * compare-and-swap `git update-ref <ref> <new> <old>` (retried on a lost race, so concurrent
 * hooks lose nothing; see git/refs.ts casUpdateRef).
 * - Message: subject `kizu journal: <tool> <path>` (`(+N more)` for several files), a blank
 *   line, then one line of JSON:
 *   `{"version":1,"time":"<ISO 8601 UTC, ms>","tool":"Edit","session":"<id>"|null,
 *     "toolUseId":"<id>"|null,"files":[{"path":"src/a.js","before":"<blob>"|null,
 *     "after":"<blob>"|null,"added":3,"removed":1,"mode":420,"beforeUnknown":true?}],
 *     "rollbackOf":["<entry id>",...]?,"worktree":"<top level>","worktreeId":"<id>"?}`
 *   `path` is repo-root-relative with '/'; `before`/`after` are blob ids of the file's bytes
 *   before and after the change, null where the file did not exist; `beforeUnknown` marks a
 *   change whose old content the agent did not report (then `before` is null and the entry
 *   cannot be rolled back); `added`/`removed` are line counts (`git diff --numstat`), null
 *   for binary content; `mode` is the file's permission bits after the change (absent when
 *   it did not exist). `rollbackOf` lists the entries a rollback entry undid. `worktree` and
 *   `worktreeId` name the worktree the change was made in (store.ts worktreeId; absent in
 *   entries recorded before they were kept).
 * - Tree: for file k, blobs `<k>.before` and `<k>.after` (where present), so every recorded
 *   version stays reachable (not garbage-collected) as long as the ref exists.
 * An entry's id is its commit id.
 *
 * Order. Entries are read back in the order the edits happened (see {@link editOrder}), which
 * is not always the order they were recorded in: the journal hook runs asynchronously, so
 * the hooks of two quick edits can record them in either order (and an entry's time is when
 * its hook started). Time order (ties: chain order) is the starting point; where another
 * order of a file's entries made close together follows its content better (fewer places
 * where an entry's `before` is not the previous entry's `after`), the content wins.
 *
 * Retention (storage/retention.ts, `git kizu gc`) cuts the oldest entries off by writing the
 * kept ones again, in chain order; each then carries its first commit id as `"id"` (first
 * key of its JSON), which stays its id.
 */
import { git } from '../../git/run.js';
import { JOURNAL_REF } from '../../git/layout.js';
import { commonDir, gitDirFast } from '../../git/repo.js';
import { worktreeId } from '../snapshots/store.js';
import { KizuError, EXIT } from '../../errors.js';
import { parseDiff, type RawHunk } from '../../git/diff.js';
import { backoff, casUpdateRef, resolveKizuRef, MAX_ATTEMPTS } from '../../git/refs.js';
import { igit, identity, objectCache as cache, objectFs, withPakoDeflate, type Ident } from '../../git/objects.js';

/** Format version written in every entry. */
export const JOURNAL_VERSION = 1;
/** Minimum length of a short entry id. */
export const SHORT_LENGTH = 8;

/** One file of a journal entry (as stored; see the module comment). */
export interface JournalFile {
  path: string;
  before: string | null;
  after: string | null;
  added: number | null;
  removed: number | null;
  mode?: number;
  beforeUnknown?: boolean;
}

/** A journal entry as read back. */
export interface JournalEntry {
  /** Commit id (full hex). */
  id: string;
  /** ISO 8601 UTC with milliseconds. */
  time: string;
  /**
   * `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `patch-apply`, `rollback`, or `undo`
   * (`git kizu undo` of a rollback patch: an entry whose `rollbackOf` is that rollback's entry).
   */
  tool: string;
  session: string | null;
  toolUseId: string | null;
  files: JournalFile[];
  /** For a rollback entry: the ids of the entries it undid. */
  rollbackOf?: string[];
  /**
   * The worktree the change was made in: its top level and identity (store.ts worktreeId).
   * Absent in entries recorded before they were kept.
   */
  worktree?: string;
  worktreeId?: string;
  /** Position in the journal's order ({@link readJournal}: the order the edits happened), 0 = oldest. */
  seq: number;
}

/** A change to record: the bytes before and after. */
export interface FileChange {
  /** Repo-root-relative '/'-separated path. */
  path: string;
  /** Old bytes; null if the file did not exist (or, with `beforeUnknown`, is not known). */
  before: Buffer | null;
  /** New bytes; null if the change deleted the file. */
  after: Buffer | null;
  beforeUnknown?: boolean;
  /** Permission bits after the change. */
  mode?: number;
}

/** What {@link recordEntry} records. */
export interface NewEntry {
  tool: string;
  session: string | null;
  toolUseId: string | null;
  /** When the change happened (default: now). */
  time?: Date;
  files: FileChange[];
  rollbackOf?: string[];
  /**
   * Skip the entry if one of the newest {@link DEDUPE_WINDOW} entries has the same
   * `toolUseId` (the same tool call reported twice, e.g. by hooks installed in two scopes).
   */
  dedupe?: boolean;
}

/** How many of the newest entries {@link recordEntry} looks at for a duplicate tool call. */
export const DEDUPE_WINDOW = 50;

const gitdirs = new Map<string, string>();

/** The common git dir of `root` (objects and refs/kizu live there), cached per process. */
async function gitdirOf(root: string): Promise<string> {
  let d = gitdirs.get(root);
  if (!d) gitdirs.set(root, (d = await commonDir(root)));
  return d;
}

/**
 * Stores bytes as a loose blob (isomorphic-git `writeBlob`, atomic object writes).
 * @returns the blob id.
 * @throws the fs error if the object store cannot be written.
 */
export async function writeBlob(root: string, data: Buffer): Promise<string> {
  const gitdir = await gitdirOf(root);
  return withPakoDeflate(() => igit().writeBlob({ fs: objectFs, gitdir, blob: new Uint8Array(data.buffer, data.byteOffset, data.length) }));
}

/**
 * Reads a blob's bytes (isomorphic-git `readBlob`; loose and packed objects).
 * @throws KizuError (exit 2) if the object is missing or not a blob.
 */
export async function readBlob(root: string, oid: string): Promise<Buffer> {
  try {
    const { blob } = await igit().readBlob({ fs: objectFs, gitdir: await gitdirOf(root), oid, cache });
    return Buffer.from(blob);
  } catch (e) {
    throw new KizuError(`cannot read blob ${oid} of ${JOURNAL_REF}: ${(e as Error).message}`, {
      hint: `check the repository with \`git fsck\`; the journal's objects are reachable from ${JOURNAL_REF}`,
    });
  }
}

const DIFF = ['-c', 'core.quotePath=false', 'diff', '--no-ext-diff', '--no-textconv', '--no-color', '--diff-algorithm=myers', '--inter-hunk-context=0'];

/** The blob id of the empty blob, written on first use. */
async function emptyBlob(root: string): Promise<string> {
  return writeBlob(root, Buffer.alloc(0));
}

/**
 * Line counts of the change from blob `a` to blob `b` (`git diff --numstat`), null = absent
 * side (compared as empty).
 * @returns added and removed lines, both null for binary content.
 * @throws KizuError (exit 2) if git fails.
 */
export async function numstat(root: string, a: string | null, b: string | null): Promise<{ added: number | null; removed: number | null }> {
  const e = a === null || b === null ? await emptyBlob(root) : '';
  const r = await git([...DIFF, '--numstat', a ?? e, b ?? e], { cwd: root });
  const m = /^(\d+|-)\t(\d+|-)\t/.exec(r.stdout.toString('utf8'));
  if (!m) return { added: 0, removed: 0 };
  return m[1] === '-' ? { added: null, removed: null } : { added: Number(m[1]), removed: Number(m[2]) };
}

/**
 * The hunks of the change from blob `a` to blob `b` (git-diff(1) between two blobs, myers,
 * `-U<context>`), null = absent side (compared as empty).
 * @returns `binary: true` (and no hunks) when git sees binary content.
 * @throws KizuError (exit 2) if git fails.
 */
export async function diffBlobs(root: string, a: string | null, b: string | null, context: number): Promise<{ binary: boolean; hunks: RawHunk[] }> {
  const e = a === null || b === null ? await emptyBlob(root) : '';
  const r = await git([...DIFF, '--full-index', `-U${context}`, a ?? e, b ?? e], { cwd: root });
  const [f] = parseDiff(r.stdout);
  return f ? { binary: f.binary, hunks: f.hunks } : { binary: false, hunks: [] };
}

function subjectOf(e: { tool: string; files: { path: string }[] }): string {
  const more = e.files.length > 1 ? ` (+${e.files.length - 1} more)` : '';
  return `kizu journal: ${e.tool} ${e.files[0].path.replace(/[\r\n]/g, ' ')}${more}`;
}

/**
 * Records one entry: writes the blobs, counts lines, writes the commit and moves
 * {@link JOURNAL_REF} by compare-and-swap, retrying on a lost race (at most MAX_ATTEMPTS
 * times, with a small random backoff).
 * @returns the stored entry (with its id; `seq` is -1: not known without reading the chain);
 *   with `dedupe`, when the tool call is already recorded, the existing entry's id with the
 *   given data (nothing is written).
 * @throws KizuError (exit 2) for an entry without files, a corrupt object store, a
 *   {@link JOURNAL_REF} that points at anything but an existing commit (left as it is; see
 *   git/refs.ts checkRefObject), persistent contention, or a git failure.
 */
export async function recordEntry(root: string, e: NewEntry): Promise<JournalEntry> {
  if (!e.files.length) throw new KizuError('internal: a journal entry needs at least one file');
  const gitdir = await gitdirOf(root);
  const files: JournalFile[] = [];
  const tree: { mode: string; path: string; oid: string; type: 'blob' }[] = [];
  for (const [k, f] of e.files.entries()) {
    const before = f.before === null ? null : await writeBlob(root, f.before);
    const after = f.after === null ? null : await writeBlob(root, f.after);
    const counts = f.beforeUnknown ? { added: null, removed: null } : await numstat(root, before, after);
    const jf: JournalFile = { path: f.path, before, after, added: counts.added, removed: counts.removed };
    if (f.mode !== undefined) jf.mode = f.mode;
    if (f.beforeUnknown) jf.beforeUnknown = true;
    files.push(jf);
    if (before) tree.push({ mode: '100644', path: `${k}.before`, oid: before, type: 'blob' });
    if (after) tree.push({ mode: '100644', path: `${k}.after`, oid: after, type: 'blob' });
  }
  const time = (e.time ?? new Date()).toISOString();
  const body: Record<string, unknown> = { version: JOURNAL_VERSION, time, tool: e.tool, session: e.session, toolUseId: e.toolUseId, files };
  if (e.rollbackOf?.length) body.rollbackOf = e.rollbackOf;
  // Which worktree the change was made in (refs are shared by all worktrees).
  const wtDir = gitDirFast(root);
  const wtId = wtDir ? worktreeId(wtDir, true) : null;
  body.worktree = root;
  if (wtId) body.worktreeId = wtId;
  const treeOid = await withPakoDeflate(() => igit().writeTree({ fs: objectFs, gitdir, tree }));
  const who: Ident = await identity(root);
  const person = { name: who.name, email: who.email, timestamp: Math.floor(Date.parse(time) / 1000), timezoneOffset: who.timezoneOffset };
  const subject = subjectOf({ tool: e.tool, files });
  const message = `${subject}\n\n${JSON.stringify(body)}\n`;
  for (let attempt = 1; ; attempt++) {
    const old = await resolveKizuRef(root, JOURNAL_REF, gitdir);
    if (old && e.dedupe && e.toolUseId) {
      const r = await git(['log', '-z', `-n${DEDUPE_WINDOW}`, '--format=%H%x00%B', old], { cwd: root });
      const parts = r.stdout.toString('utf8').split('\0');
      const needle = `"toolUseId":${JSON.stringify(e.toolUseId)},`;
      for (let k = 0; k + 1 < parts.length; k += 2) {
        if (parts[k + 1].includes(needle)) return { id: /^\{"id":"([0-9a-f]{40})"/m.exec(parts[k + 1])?.[1] ?? parts[k].replace(/^\n/, ''), time, tool: e.tool, session: e.session, toolUseId: e.toolUseId, files, seq: -1 };
      }
    }
    const oid = await igit().writeCommit({ fs: objectFs, gitdir, commit: { message, tree: treeOid, parent: old ? [old] : [], author: person, committer: person } });
    if (await casUpdateRef(root, JOURNAL_REF, oid, old, subject)) {
      return { id: oid, time, tool: e.tool, session: e.session, toolUseId: e.toolUseId, files, ...(e.rollbackOf?.length ? { rollbackOf: e.rollbackOf } : {}), worktree: root, ...(wtId ? { worktreeId: wtId } : {}), seq: -1 };
    }
    if (attempt >= MAX_ATTEMPTS) {
      throw new KizuError(`could not update ${JOURNAL_REF}: it changed under us ${MAX_ATTEMPTS} times in a row`, { hint: 'another process keeps writing the journal; try again' });
    }
    await backoff(attempt);
  }
}

/**
 * Checks {@link JOURNAL_REF} before a command writes files it will record, so that a journal
 * ref at the wrong object or a missing one stops it before the first write (git/refs.ts
 * checkRefObject).
 * @throws KizuError (exit 2) naming the ref, what it points at and the fix.
 */
export async function checkJournalRef(root: string): Promise<void> {
  await resolveKizuRef(root, JOURNAL_REF, await gitdirOf(root));
}

function corrupt(id: string, why: string): KizuError {
  return new KizuError(`${JOURNAL_REF} is corrupt: commit ${id} ${why}`, {
    hint: `inspect it with \`git log ${JOURNAL_REF}\`; \`git update-ref -d ${JOURNAL_REF}\` drops the whole journal`,
  });
}

const isOid = (v: unknown) => v === null || (typeof v === 'string' && /^[0-9a-f]{40}$/.test(v));

/**
 * Reads the whole journal (`git log -z` of {@link JOURNAL_REF}: one git process).
 * @returns the entries in the order the edits happened ({@link editOrder}), oldest first,
 *   `seq` numbering them from 0; [] if the ref does not exist.
 * @throws KizuError (exit 2) if the ref points at anything but an existing commit (git/refs.ts
 *   checkRefObject), or a commit message is not a version-1 journal entry.
 */
export async function readJournal(root: string): Promise<JournalEntry[]> {
  const tip = await resolveKizuRef(root, JOURNAL_REF);
  if (!tip) return [];
  const r = await git(['log', '-z', '--format=%H%x00%B', tip], { cwd: root });
  const parts = r.stdout.toString('utf8').split('\0');
  const out: JournalEntry[] = [];
  for (let k = 0; k + 1 < parts.length; k += 2) {
    const id = parts[k].replace(/^\n/, '');
    const msg = parts[k + 1];
    const nl = msg.indexOf('\n\n');
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(msg.slice(nl + 2).trim()) as Record<string, unknown>;
    } catch {
      throw corrupt(id, 'has no JSON entry in its message');
    }
    if (v.version !== JOURNAL_VERSION) throw corrupt(id, `has format version ${JSON.stringify(v.version)}; this git-kizu reads version ${JOURNAL_VERSION}`);
    const files = v.files as JournalFile[];
    if (typeof v.time !== 'string' || typeof v.tool !== 'string' || !Array.isArray(files) || !files.length) throw corrupt(id, 'has an entry without time, tool or files');
    for (const f of files) {
      if (!f || typeof f.path !== 'string' || !isOid(f.before) || !isOid(f.after)) throw corrupt(id, 'has a file without path or with a bad blob id');
    }
    out.push({
      // An entry that retention wrote again (storage/retention.ts) keeps its first id.
      id: typeof v.id === 'string' && /^[0-9a-f]{40}$/.test(v.id) ? v.id : id,
      time: v.time,
      tool: v.tool,
      session: typeof v.session === 'string' ? v.session : null,
      toolUseId: typeof v.toolUseId === 'string' ? v.toolUseId : null,
      files,
      ...(Array.isArray(v.rollbackOf) ? { rollbackOf: v.rollbackOf as string[] } : {}),
      ...(typeof v.worktree === 'string' ? { worktree: v.worktree } : {}),
      ...(typeof v.worktreeId === 'string' ? { worktreeId: v.worktreeId } : {}),
      seq: 0,
    });
  }
  out.reverse();
  out.forEach((e, k) => (e.seq = k));
  const ordered = editOrder(out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.seq - b.seq)));
  ordered.forEach((e, k) => (e.seq = k));
  return ordered;
}

/** The journal's order ({@link readJournal}): by `seq`, oldest first. */
export function chrono(a: JournalEntry, b: JournalEntry): number {
  return a.seq - b.seq;
}

/**
 * How far apart (milliseconds between their times) two entries of one file may be for
 * {@link editOrder} to order them by their content rather than their times. An async hook
 * records its edit within seconds; this is ample and keeps a file whose content comes back
 * to an old state much later from being reordered.
 */
export const REORDER_WINDOW_MS = 30_000;
/** At most this many entries {@link fileOrder} moves at once, and at most this far. */
const REORDER_SPAN = 32;
/** At most this many passes of {@link fileOrder} over one file's entries. */
const REORDER_PASSES = 8;
/**
 * The tools of entries a git kizu command records as soon as it has changed the files; every
 * other entry comes from the async journal hook, which can record an edit after later ones.
 */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(['patch-apply', 'rollback', 'undo']);

/** One entry's change to one file, for {@link fileOrder}; `rec` is its place in the chain. */
type Touch = { e: JournalEntry; f: JournalFile; t: number; rec: number; command: boolean };

/**
 * The order of the entries that changed one file: their time order, changed where that
 * leaves fewer breaks in the content chain (places where an entry's `before` is not the
 * `after` of the one before it). A change swaps two neighbouring runs of entries (one entry
 * moved earlier or later, or a run of them), each at most {@link REORDER_SPAN} long, all
 * within {@link REORDER_WINDOW_MS} of each other; a command's entry ({@link COMMAND_TOOLS})
 * never goes before one recorded before it (a command records at once, so what was recorded
 * before it happened before it). Each swap is the one that removes the most breaks (ties:
 * the fewest entries moved), found sweeping from the oldest; sweeps repeat while one changes
 * something. So a chain with no breaks, or one whose breaks no swap reduces (edits made
 * outside the journal), keeps its time order.
 * @param list the entries in time order (ties: chain order); reordered in place.
 */
function fileOrder(list: Touch[]): Touch[] {
  const n = list.length;
  // Contents as numbers (0: absent); an unknown `before` matches nothing.
  const ids = new Map<string | null, number>([[null, 0]]);
  const num = (c: string | null) => ids.get(c) ?? (ids.set(c, ids.size), ids.size - 1);
  const before = new Int32Array(n);
  const after = new Int32Array(n);
  const time = new Float64Array(n);
  const rec = new Int32Array(n);
  const command = new Uint8Array(n);
  /** brk[m] = 1 when entry m does not start from what entry m - 1 left (0 for m = 0 and m = n). */
  const brk = new Uint8Array(n + 1);
  /** Fills the arrays for entries [from, to]. */
  const load = (from: number, to: number) => {
    for (let m = from; m <= to; m++) {
      const x = list[m];
      before[m] = x.f.beforeUnknown ? -1 - x.rec : num(x.f.before);
      after[m] = num(x.f.after);
      time[m] = x.t;
      rec[m] = x.rec;
      command[m] = x.command ? 1 : 0;
    }
    for (let m = Math.max(1, from); m <= Math.min(n - 1, to + 1); m++) brk[m] = after[m - 1] === before[m] ? 0 : 1;
  };
  /** Whether entry q does not start from what entry p left; no break at either end. */
  const gap = (p: number, q: number) => (p < 0 || q >= n || after[p] === before[q] ? 0 : 1);
  load(0, n - 1);
  // A swap removes breaks only by joining an entry to one that starts from what it left: none
  // such but neighbours (e.g. every entry a break), nothing to do.
  const starts = new Map<number, number>();
  for (let m = 0; m < n; m++) starts.set(before[m], (starts.get(before[m]) ?? 0) + 1);
  let joins = 0;
  for (let m = 0; m < n; m++) joins += (starts.get(after[m]) ?? 0) - (m + 1 < n && !brk[m + 1] ? 1 : 0) - (after[m] === before[m] ? 1 : 0);
  if (!joins) return list;
  for (let pass = 0, moved = true; moved && pass < REORDER_PASSES; pass++) {
    moved = false;
    // Swap run A = [i, j) with run B = [j, k], where B does not start from what A left.
    for (let j = 1; j < n; j++) {
      if (!brk[j]) continue;
      let best = 0;
      let size = Infinity;
      let bi = -1;
      let bk = -1;
      let maxCommandB = -1;
      for (let k = j; k < n && k - j < REORDER_SPAN && time[k] - time[j - 1] <= REORDER_WINDOW_MS; k++) {
        if (command[k]) maxCommandB = Math.max(maxCommandB, rec[k]);
        let minA = Infinity;
        for (let i = j - 1; i >= 0 && j - i <= REORDER_SPAN && time[k] - time[i] <= REORDER_WINDOW_MS; i--) {
          minA = Math.min(minA, rec[i]);
          if (minA < maxCommandB) break; // a command of B would go before an entry recorded before it
          const old = brk[i] + 1 + brk[k + 1];
          if (old < best) continue;
          const d = old - gap(i - 1, j) - gap(k, i) - gap(j - 1, k + 1);
          if (d > best || (d === best && d > 0 && k - i + 1 < size)) (best = d), (size = k - i + 1), (bi = i), (bk = k);
        }
      }
      if (bi >= 0) {
        list.splice(bi, bk - bi + 1, ...list.slice(j, bk + 1), ...list.slice(bi, j));
        load(bi, bk);
        moved = true;
      }
    }
  }
  return list;
}

/**
 * Puts entries in the order the edits happened: each file's entries in their content-chain
 * order ({@link fileOrder}), and otherwise the order given (a topological sort that always
 * takes the earliest entry it may; should the files disagree, which only contrived content
 * can do, the earliest entry left goes next).
 * @param base entries in time order (ties: chain order), each `seq` its place in the chain
 *   (0 = recorded first).
 * @returns a new array of the same entries.
 */
export function editOrder(base: JournalEntry[]): JournalEntry[] {
  const index = new Map(base.map((e, k) => [e, k]));
  const byPath = new Map<string, Touch[]>();
  for (const e of base) {
    const t = Date.parse(e.time);
    const command = COMMAND_TOOLS.has(e.tool);
    for (const f of e.files) {
      let l = byPath.get(f.path);
      if (!l) byPath.set(f.path, (l = []));
      l.push({ e, f, t, rec: e.seq, command });
    }
  }
  const next: number[][] = base.map(() => []);
  const indeg = new Array<number>(base.length).fill(0);
  let moved = false;
  for (const list of byPath.values()) {
    const order = fileOrder(list);
    for (let k = 1; k < order.length; k++) {
      const a = index.get(order[k - 1].e)!;
      const b = index.get(order[k].e)!;
      if (a === b) continue;
      if (a > b) moved = true;
      next[a].push(b);
      indeg[b]++;
    }
  }
  if (!moved) return base.slice();
  // Kahn's algorithm with a min-heap of indices.
  const heap: number[] = [];
  const push = (v: number) => {
    heap.push(v);
    for (let k = heap.length - 1; k > 0; ) {
      const p = (k - 1) >> 1;
      if (heap[p] <= heap[k]) break;
      [heap[p], heap[k]] = [heap[k], heap[p]];
      k = p;
    }
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let k = 0; ; ) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < heap.length && heap[l] < heap[m]) m = l;
        if (r < heap.length && heap[r] < heap[m]) m = r;
        if (m === k) break;
        [heap[m], heap[k]] = [heap[k], heap[m]];
        k = m;
      }
    }
    return top;
  };
  const placed = new Array<boolean>(base.length).fill(false);
  const queued = new Array<boolean>(base.length).fill(false);
  for (let k = 0; k < base.length; k++) if (!indeg[k]) (push(k), (queued[k] = true));
  const out: JournalEntry[] = [];
  let oldest = 0;
  while (out.length < base.length) {
    let v: number;
    if (heap.length) v = pop();
    else {
      while (placed[oldest]) oldest++;
      v = oldest; // a cycle: the files disagree
    }
    if (placed[v]) continue;
    placed[v] = true;
    out.push(base[v]);
    for (const w of next[v]) if (--indeg[w] <= 0 && !queued[w] && !placed[w]) (push(w), (queued[w] = true));
  }
  return out;
}

/**
 * Short ids: the first {@link SHORT_LENGTH} hex digits of each id, longer where needed to be
 * unique among `entries`.
 */
export function shortIds(entries: JournalEntry[]): Map<string, string> {
  // The prefix must be longer than the longest one shared with another id, which is shared
  // with a neighbour in sorted order (so this is O(n log n), not a comparison of every pair).
  const ids = entries.map((e) => e.id).sort();
  const common = (a: string | undefined, b: string) => {
    let k = 0;
    if (a !== undefined) while (k < a.length && k < b.length && a[k] === b[k]) k++;
    return k;
  };
  const out = new Map<string, string>();
  ids.forEach((id, k) => out.set(id, id.slice(0, Math.max(SHORT_LENGTH, Math.max(common(ids[k - 1], id), common(ids[k + 1], id)) + 1))));
  return out;
}

/**
 * Resolves id prefixes (at least 4 hex digits) to entries.
 * @returns the entries in the order given, without duplicates.
 * @throws KizuError: exit 2 for a spec that is not hex; exit 1 for an unknown or ambiguous
 *   prefix (the candidates are named).
 */
export function resolveEntries(entries: JournalEntry[], specs: string[]): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const s of specs) {
    const p = s.toLowerCase();
    if (!/^[0-9a-f]{4,40}$/.test(p)) throw new KizuError(`not a journal entry id: "${s}"`, { hint: 'entry ids are hex (at least 4 digits); see git kizu journal' });
    const hits = entries.filter((e) => e.id.startsWith(p));
    if (!hits.length) throw new KizuError(`no journal entry ${s}`, { hint: 'list the entries with git kizu journal', exitCode: EXIT.FOUND });
    if (hits.length > 1) {
      throw new KizuError(`journal entry id ${s} is ambiguous: ${hits.map((h) => h.id.slice(0, 12)).join(', ')}`, { hint: 'give more digits', exitCode: EXIT.FOUND });
    }
    if (!out.includes(hits[0])) out.push(hits[0]);
  }
  return out;
}

/** A session id for entries made outside a hook: `CLAUDE_CODE_SESSION_ID` when Claude Code runs the command, else null. */
export function sessionFromEnv(env: NodeJS.ProcessEnv): string | null {
  return env.CLAUDE_CODE_SESSION_ID || null;
}

