/**
 * Rolling back journal entries (`git kizu rollback patch`): reverse-applying the change an
 * entry recorded (./journal.ts) to the file as it is now.
 *
 * Per file of an entry, in this order:
 * 1. The file holds exactly what the entry produced: the old state comes back exactly (the
 *    old bytes; a file the entry created is deleted; a file it deleted is re-created).
 * 2. The file already holds exactly the old state: nothing to do.
 * 3. A file the entry created and that changed since is never deleted (refused); a file it
 *    deleted that exists again, or a file it changed that is gone, is refused too.
 * 4. Otherwise the entry's hunks (git-diff(1) myers, 3 lines of context, between the recorded
 *    blobs) are reversed with strict context matching: every context and added line must be
 *    found byte-exact, in order, at the nearest position to where it was (a later edit above
 *    may have moved it; a hunk that touched the start or the end of the file stays anchored
 *    there), as git-apply(1) does without fuzz.
 * 5. Where that fails, a three-way merge (`git merge-file -p`, git-merge-file(1)) with base =
 *    the entry's result, ours = the current file, theirs = the entry's old state.
 * 6. Where that conflicts, the file is refused, naming the later journal entries (and edits
 *    made outside the journal) whose changes touch the lines the entry changed.
 * With several entries (or `--cascade`, which adds the overlapping later entries), entries
 * are undone newest first, each against the result of the ones before, in memory; nothing is
 * written unless every file of every entry can be rolled back.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git } from '../../git/run.js';
import { KizuError } from '../../errors.js';
import { quoteCStyle } from '../../git/quote.js';
import { JOURNAL_REF } from '../../git/layout.js';
import { pathProblem, unsafePathError } from '../../git/verify-path.js';
import type { RawHunk } from '../../git/diff.js';
import { diffBlobs, readBlob, writeBlob, shortIds, chrono, readJournal, recordEntry, type JournalEntry, type JournalFile } from './journal.js';
import { splitLines } from './patch-apply.js';
import type { PatchHunk, PatchLine } from './patch-parse.js';
import { readWorkFile, writeAllOrNothing } from './patch-write.js';
import type { SnapshotResult } from '../snapshots/snapshot.js';

/** How one file of one entry is rolled back. */
export type StepHow = 'restored' | 'deleted' | 'recreated' | 'reversed' | 'merged' | 'unchanged';

/** One planned file rollback. */
export interface Step {
  entry: JournalEntry;
  file: JournalFile;
  how: StepHow;
  /** Hunks reversed (for `reversed`). */
  hunks: number;
  /** The file's content before this step and after it (null: absent). */
  from: Buffer | null;
  to: Buffer | null;
}

/** A file of an entry that cannot be rolled back, and why. */
export interface Refusal {
  entry: JournalEntry;
  file: JournalFile;
  reason: string;
  /** Later entries whose changes touch the lines this entry changed (journal order). */
  overlapping: JournalEntry[];
  /** Descriptions of overlapping changes made outside the journal. */
  outside: string[];
}

/** The result of {@link planRollback}. */
export interface RollbackPlan {
  /** The entries rolled back, newest first (with `--cascade`, the added ones included). */
  entries: JournalEntry[];
  steps: Step[];
  refusals: Refusal[];
  /** Per path: the content on disk now and the content after the whole rollback. */
  files: Map<string, FilePlan>;
  /** Short ids of the whole journal the plan was made from (shortIds in ./journal.ts). */
  short: Map<string, string>;
}

/** One file of a {@link RollbackPlan}: its bytes on disk now and after the rollback (null: absent). */
export interface FilePlan {
  disk: Buffer | null;
  final: Buffer | null;
  /** Permission bits for a file the rollback re-creates. */
  mode?: number;
}

const same = (a: Buffer | null, b: Buffer | null) => (a === null || b === null ? a === b : a.equals(b));

/** Converts a hunk of git/diff.ts (raw origin-prefixed lines) to the ./patch-parse.ts shape. */
export function fromRaw(h: RawHunk, index: number): PatchHunk {
  const lines: PatchLine[] = [];
  for (const r of h.raw) {
    if (r[0] === 0x5c) {
      const last = lines[lines.length - 1];
      if (last) last.text = last.text.subarray(0, last.text.length - 1);
      continue;
    }
    lines.push({ op: String.fromCharCode(r[0]) as PatchLine['op'], text: Buffer.concat([r.subarray(1), Buffer.from('\n')]) });
  }
  return { index, header: h.header, oldStart: h.oldStart, oldCount: h.oldCount, newStart: h.newStart, newCount: h.newCount, lines, patchLine: 0 };
}

/** The reverse of a hunk: '+' and '-' swapped, old and new sides swapped. */
function reverseHunk(h: PatchHunk): PatchHunk {
  return {
    ...h,
    oldStart: h.newStart,
    oldCount: h.newCount,
    newStart: h.oldStart,
    newCount: h.oldCount,
    lines: h.lines.map((l) => ({ op: l.op === '+' ? '-' : l.op === '-' ? '+' : ' ', text: l.text })),
  };
}

/**
 * Applies hunks computed against a file of `sourceLines` lines to `content`, finding each
 * hunk's old side (context and removed lines, byte-exact) at the position nearest to where
 * it was, after the previous hunk; a hunk that started at line 1 must match at the start and
 * one that reached the source's last line must match at the end.
 * @returns the new bytes, or null if some hunk is not found.
 */
export function applyWithContext(hunks: PatchHunk[], content: Buffer, sourceLines: number): Buffer | null {
  const lines = splitLines(content);
  const out: Buffer[] = [];
  let cursor = 0;
  let shift = 0;
  for (const h of hunks) {
    const old = h.lines.filter((l) => l.op !== '+').map((l) => l.text);
    const want = (h.oldCount === 0 ? h.oldStart : h.oldStart - 1) + shift;
    const atStart = (h.oldCount === 0 ? h.oldStart : h.oldStart - 1) === 0;
    const atEnd = (h.oldCount === 0 ? h.oldStart : h.oldStart - 1 + h.oldCount) === sourceLines;
    const fits = (pos: number) =>
      pos >= cursor &&
      pos + old.length <= lines.length &&
      (!atStart || pos === 0) &&
      (!atEnd || pos + old.length === lines.length) &&
      old.every((t, k) => lines[pos + k].equals(t));
    let found = -1;
    for (let d = 0; found === -1 && (want - d >= cursor || want + d <= lines.length); d++) {
      if (fits(want - d)) found = want - d;
      else if (d && fits(want + d)) found = want + d;
    }
    if (found === -1) return null;
    out.push(...lines.slice(cursor, found));
    for (const l of h.lines) if (l.op !== '-') out.push(l.text);
    cursor = found + old.length;
    shift = found - (h.oldCount === 0 ? h.oldStart : h.oldStart - 1);
  }
  out.push(...lines.slice(cursor));
  const res = Buffer.concat(out);
  // A line without '\n' that is no longer last means the result would be corrupt.
  const rl = splitLines(res);
  for (let j = 0; j < rl.length - 1; j++) if (rl[j][rl[j].length - 1] !== 0x0a) return null;
  return res;
}

/**
 * Three-way merge of files (git-merge-file(1) `-p`): the change from `base` to `theirs`
 * applied to `ours`.
 * @returns the merged bytes, or null on a conflict (or content git cannot merge, e.g. binary).
 * @throws KizuError (exit 2) if git cannot be run or the temp files cannot be written.
 */
export async function mergeFile(root: string, ours: Buffer, base: Buffer, theirs: Buffer, labels: [string, string, string]): Promise<Buffer | null> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kizu-merge-'));
  try {
    const f = ['ours', 'base', 'theirs'].map((n) => path.join(dir, n));
    writeFileSync(f[0], ours);
    writeFileSync(f[1], base);
    writeFileSync(f[2], theirs);
    const okStatus = Array.from({ length: 256 }, (_, k) => k);
    const r = await git(['merge-file', '-p', '-L', labels[0], '-L', labels[1], '-L', labels[2], f[0], f[1], f[2]], { cwd: root, okStatus });
    return r.status === 0 ? r.stdout : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Overlap analysis: which later changes touch the lines an entry changed.

/** A half-open range of line positions [a, b), 1-based; a == b is the point before line a. */
interface Range {
  a: number;
  b: number;
}

interface Span {
  /** Old side [s, s + c). */
  s: number;
  c: number;
  /** New side [t, t + d). */
  t: number;
  d: number;
}

function spans(hunks: RawHunk[]): Span[] {
  return hunks.map((h) => ({
    s: h.oldCount === 0 ? h.oldStart + 1 : h.oldStart,
    c: h.oldCount,
    t: h.newCount === 0 ? h.newStart + 1 : h.newStart,
    d: h.newCount,
  }));
}

/** Maps ranges through a diff (-U0 spans); ranges that touch a changed span grow to cover its new side. */
function mapRanges(ranges: Range[], sp: Span[]): { ranges: Range[]; hit: boolean } {
  let hit = false;
  const pos = (x: number) => x + sp.filter((h) => h.s + h.c <= x && h.s < x).reduce((n, h) => n + h.d - h.c, 0);
  const out = ranges.map((r) => {
    let a = pos(r.a);
    let b = pos(r.b);
    for (const h of sp) {
      if (r.a <= h.s + h.c && h.s <= r.b) {
        hit = true;
        a = Math.min(a, h.t);
        b = Math.max(b, h.t + h.d);
      }
    }
    return { a, b: Math.max(a, b) };
  });
  return { ranges: out, hit };
}

const fileOf = (e: JournalEntry, p: string) => e.files.find((f) => f.path === p);

/**
 * Finds what changed the lines `entry` changed in `file.path` after it: walks the later
 * journal entries for that path in time order, carrying the changed line ranges through each
 * change (and through any difference between one entry's result and the next entry's
 * starting point, or the current content: edits made outside the journal).
 * @param current the file's content now (null: absent).
 * @returns the overlapping later entries and descriptions of overlapping outside edits.
 * @throws KizuError (exit 2) if git fails.
 */
export async function overlapsAfter(
  root: string,
  all: JournalEntry[],
  entry: JournalEntry,
  file: JournalFile,
  current: Buffer | null,
): Promise<{ overlapping: JournalEntry[]; outside: string[] }> {
  const short = shortIds(all);
  const own = spans((await diffBlobs(root, file.before, file.after, 0)).hunks);
  let ranges: Range[] = own.map((h) => ({ a: h.t, b: h.t + h.d }));
  const overlapping: JournalEntry[] = [];
  const outside: string[] = [];
  let state = file.after;
  let prev: JournalEntry = entry;
  const later = all.filter((e) => chrono(e, entry) > 0 && fileOf(e, file.path));
  const step = async (a: string | null, b: string | null): Promise<boolean> => {
    const r = mapRanges(ranges, spans((await diffBlobs(root, a, b, 0)).hunks));
    ranges = r.ranges;
    return r.hit;
  };
  for (const l of later) {
    const lf = fileOf(l, file.path)!;
    if (lf.beforeUnknown) {
      overlapping.push(l);
      ranges = [{ a: 1, b: Number.MAX_SAFE_INTEGER }];
    } else {
      if (lf.before !== state && (await step(state, lf.before))) outside.push(`edits after ${short.get(prev.id)} that are not in the journal (made before ${short.get(l.id)})`);
      if (await step(lf.before, lf.after)) overlapping.push(l);
    }
    state = lf.after;
    prev = l;
  }
  const cur = current === null ? null : await writeBlob(root, current);
  if (cur !== state && (await step(state, cur))) outside.push(`edits after ${short.get(prev.id)} that are not in the journal`);
  return { overlapping: inEffect(overlapping), outside };
}

/**
 * The changes of `later` (journal order) still in effect: an entry and the rollback that
 * undid it cancel out, unless a later rollback undid that rollback (which brings the entry's
 * change back: the entry stays, the two rollbacks cancel out).
 */
function inEffect(later: JournalEntry[]): JournalEntry[] {
  const ids = new Set(later.map((e) => e.id));
  const undoneBy = new Map<string, JournalEntry[]>();
  for (const e of later) for (const r of e.rollbackOf ?? []) if (ids.has(r)) undoneBy.set(r, [...(undoneBy.get(r) ?? []), e]);
  const active = new Map<string, boolean>();
  for (const e of [...later].reverse()) active.set(e.id, !(undoneBy.get(e.id) ?? []).some((r) => active.get(r.id)));
  // A rollback whose targets are among them is not a change of its own: it cancelled them (or, undone, was cancelled).
  return later.filter((e) => active.get(e.id) && !(e.rollbackOf ?? []).some((r) => ids.has(r)));
}

// ---------------------------------------------------------------------------------------
// Planning

/** The rollback entry that undid each entry (id → rollback entry), latest wins. */
export function rolledBackBy(all: JournalEntry[]): Map<string, JournalEntry> {
  const m = new Map<string, JournalEntry>();
  for (const e of all) for (const id of e.rollbackOf ?? []) m.set(id, e);
  return m;
}

async function blob(root: string, oid: string | null): Promise<Buffer | null> {
  return oid === null ? null : readBlob(root, oid);
}

/** Rolls back one file of one entry against `cur`. @returns the step, or the refusal reason. */
async function stepFor(root: string, e: JournalEntry, f: JournalFile, cur: Buffer | null, label: string): Promise<Step | string> {
  const mk = (how: StepHow, to: Buffer | null, hunks = 0): Step => ({ entry: e, file: f, how, hunks, from: cur, to });
  if (f.beforeUnknown) return 'its old content was not recorded (the agent did not report it, e.g. for a very large file or a Cursor edit), so it cannot be put back';
  const before = await blob(root, f.before);
  const after = await blob(root, f.after);
  if (same(cur, after)) return mk(before === null ? 'deleted' : after === null ? 'recreated' : 'restored', before);
  if (same(cur, before)) return mk('unchanged', cur);
  if (before === null) return `it created ${f.path}, which changed since; a created file is deleted only while it holds exactly what the entry wrote`;
  if (after === null) return `it deleted ${f.path}, which exists again`;
  if (cur === null) return `${f.path} was deleted since`;
  const d = await diffBlobs(root, f.before, f.after, 3);
  if (d.binary) return `${f.path} is binary and changed since; only an unchanged binary file can be put back`;
  const hunks = d.hunks.map((h, k) => reverseHunk(fromRaw(h, k + 1)));
  const rev = applyWithContext(hunks, cur, splitLines(after).length);
  if (rev) return mk('reversed', rev, hunks.length);
  const merged = await mergeFile(root, cur, after, before, ['current', `${label} after`, `${label} before`]);
  if (merged) return mk('merged', merged);
  return `its change conflicts with what changed in ${f.path} since`;
}

/**
 * Plans rolling back `targets` (and with `cascade` the later entries that overlap them) in
 * memory: entries newest first, each file against the result of the steps before it (the
 * file on disk to begin with). A target that a rollback entry already undid is planned like any other: its files then
 * usually hold their old content already (`unchanged`), unless something (e.g. `git kizu
 * undo`) brought the change back. With `cascade`, later entries already undone by a rollback
 * (that was not itself rolled back) are not added.
 * @param all the whole journal (readJournal in ./journal.ts).
 * @returns steps and refusals; nothing is written.
 * @throws KizuError (exit 2) for an entry naming a path git-kizu must not write (git/verify-path.ts
 *   pathProblem), checked for every entry before any file is read; an unreadable file, git or fs failures.
 */
export async function planRollback(root: string, all: JournalEntry[], targets: JournalEntry[], cascade: boolean): Promise<RollbackPlan> {
  const short = shortIds(all);
  const undone = rolledBackBy(all);
  let set = new Set(targets.map((t) => t.id));
  for (let round = 0; ; round++) {
    const entries = all.filter((e) => set.has(e.id)).sort((a, b) => chrono(b, a));
    const files = new Map<string, FilePlan>();
    const steps: Step[] = [];
    const refusals: Refusal[] = [];
    // Every path of every entry is checked before any file is read (git/verify-path.ts).
    for (const e of entries) {
      for (const f of e.files) {
        const why = pathProblem(f.path);
        if (why) {
          throw unsafePathError(`journal entry ${short.get(e.id) ?? e.id} (${JOURNAL_REF})`, f.path, why, `git kizu never journals such a path, so this entry was made or changed by something else: see it with git show ${e.id}`);
        }
      }
    }
    for (const e of entries) {
      for (const f of e.files) {
        let st = files.get(f.path);
        if (!st) {
          let disk: Buffer | null;
          try {
            disk = readWorkFile(root, f.path);
          } catch (err) {
            throw new KizuError(`cannot read ${quoteCStyle(f.path)}: ${(err as Error).message}`, { hint: 'make it a readable file (or move it away) and run the command again' });
          }
          files.set(f.path, (st = { disk, final: disk }));
        }
        const s = await stepFor(root, e, f, st.final, short.get(e.id)!);
        if (typeof s === 'string') {
          const o = await overlapsAfter(root, all, e, f, st.final);
          refusals.push({ entry: e, file: f, reason: s, overlapping: o.overlapping.filter((x) => !set.has(x.id)), outside: o.outside });
          continue;
        }
        steps.push(s);
        st.final = s.to;
        if (s.how === 'recreated' && f.mode !== undefined) st.mode = f.mode;
      }
    }
    // Undone: rolled back by a rollback entry that is not itself undone (a rolled-back rollback re-applied it).
    const isUndone = (id: string, depth = 0): boolean => {
      const by = undone.get(id);
      return by !== undefined && depth < all.length && !isUndone(by.id, depth + 1);
    };
    const more = cascade ? refusals.flatMap((r) => r.overlapping).filter((x) => !set.has(x.id) && !isUndone(x.id)) : [];
    if (!more.length || round > all.length) return { entries, steps, refusals, files, short };
    set = new Set([...set, ...more.map((x) => x.id)]);
  }
}

/** The files of `plan` whose bytes the rollback changes, as [path, plan], in plan order. */
export function changedFiles(plan: RollbackPlan): [string, FilePlan][] {
  return [...plan.files].filter(([, s]) => !same(s.disk, s.final));
}

/** What {@link applyRollback} did. */
export interface AppliedRollback {
  /** The files written (see {@link changedFiles}). */
  changed: [string, FilePlan][];
  /** The safety snapshot taken before writing (kind 'safety'). */
  safety: SnapshotResult;
  /**
   * The journal entry recording the rollback (its id and short id), or null when it could not
   * be recorded (`journalError` says why; the files are rolled back all the same).
   */
  entry: { id: string; short: string } | null;
  journalError: Error | null;
  /** Why the rollback could not be recorded in the undo log, or null when it was. */
  undoError: Error | null;
}

/**
 * Carries out a plan without refusals: takes a safety snapshot of the working tree (kind
 * 'safety', message `before git kizu rollback patch <short ids>`), writes every changed file
 * all or nothing (writeAllOrNothing in ./patch-write.ts, which checks each file still holds
 * what was planned from), then records the rollback twice, in this order: in the journal (an
 * entry of tool `rollback` with `rollbackOf` the entry ids, so rolling it back re-applies
 * them) and in the undo log (level 'patch', with the files written and what they hold:
 * `git kizu undo` restores those files from the safety snapshot, and only those; and the
 * journal entry's id, which undo rolls back in the journal).
 * A record that cannot be written does not undo the rollback: its error is returned.
 * @param plan from {@link planRollback}, with no refusals.
 * @param opts.session the agent session the journal entry names (sessionFromEnv), or null.
 * @param opts.configProblem when given, an invalid config is this warning rather than an
 *   error for the safety snapshot (takeSnapshot): a broken config never blocks a rollback.
 * @returns what was done, or null when no file changes (nothing is written or recorded, no
 *   snapshot is taken).
 * @throws KizuError: those of takeSnapshot and writeAllOrNothing (nothing is written then).
 */
export async function applyRollback(root: string, plan: RollbackPlan, opts: { session: string | null; configProblem?: (line: string) => void }): Promise<AppliedRollback | null> {
  const changed = changedFiles(plan);
  if (!changed.length) return null;
  const names = plan.entries.map((e) => plan.short.get(e.id)!).join(' ');
  // Loaded here only: listing the journal needs neither.
  const { takeSnapshot } = await import('../snapshots/snapshot.js');
  const { contentHash, recordRollback } = await import('../undo-log.js');
  const safety = await takeSnapshot(root, { kind: 'safety', message: `before git kizu rollback patch ${names}`, configProblem: opts.configProblem });
  await writeAllOrNothing(
    root,
    changed.map(([p, s]) => ({ path: p, expect: s.disk, after: s.final, mode: s.mode })),
  );
  const time = new Date();
  const done: AppliedRollback = { changed, safety, entry: null, journalError: null, undoError: null };
  try {
    const e = await recordEntry(root, {
      tool: 'rollback',
      session: opts.session,
      toolUseId: null,
      time,
      files: changed.map(([p, s]) => ({ path: p, before: s.disk, after: s.final, mode: s.mode })),
      rollbackOf: plan.entries.map((x) => x.id),
    });
    done.entry = { id: e.id, short: shortIds(await readJournal(root)).get(e.id) ?? e.id.slice(0, 8) };
  } catch (e) {
    done.journalError = e as Error;
  }
  try {
    await recordRollback(root, {
      level: 'patch',
      time: time.toISOString(),
      safetySnapshot: safety.id,
      description: `rollback patch ${names} (${changed.map(([p]) => p).join(', ')})`,
      changed: changed.map(([p, s]) => ({ path: p, sha256: s.final ? contentHash(s.final) : null })),
      ...(done.entry ? { journalEntry: done.entry.id } : {}),
    });
  } catch (e) {
    done.undoError = e as Error;
  }
  return done;
}

/** One line describing an entry: `<short>  <time>  <tool> <path>[ (+N more)]  +a -r`. */
export function entryLine(e: JournalEntry, short: Map<string, string>, quote: (p: string) => string = (p) => p): string {
  const f = e.files[0];
  const more = e.files.length > 1 ? ` (+${e.files.length - 1} more)` : '';
  return `${short.get(e.id)}  ${e.time.replace(/\.\d+Z$/, 'Z')}  ${e.tool} ${quote(f.path)}${more}  ${counts(f)}`;
}

/** `+a -r` for a file change; `+? -?` when the old content is unknown, `binary` for binary content. */
export function counts(f: JournalFile): string {
  if (f.beforeUnknown) return '+? -?';
  return f.added === null || f.removed === null ? 'binary' : `+${f.added} -${f.removed}`;
}
