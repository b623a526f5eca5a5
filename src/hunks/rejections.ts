/**
 * Rejections that outlive their hunk (issue 22, "laundered rejections"). A reject mark is
 * keyed by its hunk's content id (./listing.ts), so the rejection counts while that hunk is
 * listed. Two ways make the hunk disappear without the change going away:
 *
 * - **committed**: the rejected change went into a commit (`git commit -am` past a guard
 *   that was skipped or not installed); the baseline moved, so the hunk is no longer listed
 *   against it.
 * - **edited**: the agent changed the rejected lines instead of reverting them; the change
 *   in their place is a new hunk with a new id, which nobody reviewed.
 *
 * A reject mark written since issue 22 records the baseline commit it was made against
 * (`base`) and where the hunk sat in that commit's file (`old`: git's `-start,count`, context
 * included; marks/format.ts). The facts below come from git at check time, never from a
 * cache: the hunks of the working tree against `base` for the mark's file, computed with the
 * same options and ids as every listing (`listHunks` with `against`). Then:
 *
 * - the rejected id is among them but not among the current hunks: the change is still there
 *   against `base`, yet no longer against the baseline: it was committed (the commit named is
 *   the first one reachable from the baseline, not from `base`, that changed the file), unless
 *   a current hunk of the file removes and adds the very same lines (a commit changed the
 *   lines around it): then that hunk stands for it, as an edit;
 * - otherwise, hunks of that file overlapping the rejected place (a removed line in it, or an
 *   insertion strictly inside it; any hunk when the place is the whole file): the rejected
 *   lines were edited; resolved once a reviewer tapped (or rejected) each of those hunks;
 * - otherwise the place is back to what `base` holds there: reverted, resolved.
 *
 * Marks without `base` (older builds, pulled from one) keep the plain meaning. A `base` that
 * is not in the object store (a mark pulled from a clone that has other commits) tells
 * nothing and is skipped.
 */
import { git } from '../git/run.js';
import type { MarkEntry } from '../marks/format.js';
import { listHunks, hunkDetail, hunkRange, type Baseline, type Hunk } from './listing.js';

/** A reject mark whose hunk is gone while its change, or an edit of it, is still there. */
export interface LaunderedRejection {
  /** The reject mark's hunk id (full hex): `git kizu tap|untap <id prefix>` takes it. */
  id: string;
  /** Repo-relative path of the rejected hunk. */
  path: string;
  /** Its `path:start-end` when it was rejected (as stored in the mark). */
  range: string;
  /** committed: the rejected change itself is in the baseline now; edited: its lines were changed since and nobody reviewed the change in their place. */
  how: 'committed' | 'edited';
  /** The commit (full id) that brought the change (or its edit) into the baseline; null for an edit in the working tree only. */
  commit: string | null;
  /** edited: the current hunks in its place (those a reviewer taps to accept the rework); [] otherwise. */
  edits: Hunk[];
  /** Who rejected it, and when (the mark's `by` and `time`). */
  by: string;
  time: string;
}

/**
 * The `old` value of a mark for hunk `h` (marks/format.ts): `mode` for a change of the
 * executable bit; `file` for a hunk that stands for the whole file (no lines: binary, empty,
 * submodule, conflict; a new, untracked or deleted file); else `<oldStart>,<oldCount>`.
 */
export function hunkPlace(h: Hunk): string {
  if (h.kind === 'mode') return 'mode';
  if (!h.lines.length || h.kind === 'untracked' || h.kind === 'added' || h.kind === 'deleted' || h.oldCount === 0 || hunkDetail(h)?.binary) return 'file';
  return `${h.oldStart},${h.oldCount}`;
}

/**
 * True when hunk `x` (listed against the mark's base) touches the place `old` (marks/format.ts)
 * of that base's file: a line it removes lies in `start..start+count-1`, or it inserts lines
 * strictly inside that span; a whole-file place or a whole-file `x` always does; a `mode`
 * place only a mode hunk, and a mode hunk only that.
 */
export function touches(x: Hunk, old: string): boolean {
  if (old === 'mode' || x.kind === 'mode') return old === 'mode' && x.kind === 'mode';
  if (old === 'file' || hunkPlace(x) === 'file') return true;
  const [a, n] = old.split(',').map(Number);
  const e = a + n - 1;
  let o = x.oldCount === 0 ? x.oldStart + 1 : x.oldStart;
  for (const l of x.lines) {
    const c = l[0];
    if (c === ' ') o++;
    else if (c === '-') {
      if (o >= a && o <= e) return true;
      o++;
    } else if (c === '+') {
      if (o > a && o <= e) return true;
    }
  }
  return false;
}

/** True when `a` and `b` remove and add the same lines in the same order (context lines aside). */
function sameChange(a: Hunk, b: Hunk): boolean {
  const changes = (h: Hunk) => h.lines.filter((l) => l[0] === '+' || l[0] === '-');
  const x = changes(a);
  const y = changes(b);
  return x.length > 0 && x.length === y.length && x.every((l, k) => l === y[k]);
}

const reviewed = (marks: Map<string, MarkEntry>, id: string): boolean => {
  const s = marks.get(id)?.state;
  return s === 'tapped' || s === 'rejected';
};

/**
 * The reject marks of `marks` whose hunk is not among `current` but whose change was
 * committed or edited (see the module comment). Starts no git process when every such mark
 * was made against the current baseline (the usual case: nothing was committed since); else
 * one listing per distinct `base` (three git processes, limited to the marks' files) and, for
 * each committed finding, one `git rev-list`.
 * @param current the hunks of the working tree against the baseline (`listHunks`), for the
 *   same `paths`.
 * @param opts.paths only marks on these repo-relative paths (files).
 * @returns the findings, sorted by path, then stored range, then id.
 * @throws KizuError when git fails on the working tree (a `base` git cannot diff against is skipped).
 */
export async function launderedRejections(
  root: string,
  marks: Map<string, MarkEntry>,
  current: { baseline: Baseline; hunks: Hunk[] },
  opts: { paths?: string[] } = {},
): Promise<LaunderedRejection[]> {
  const listed = new Set(current.hunks.map((h) => h.id));
  const wanted = (p: string) => !opts.paths || opts.paths.includes(p);
  const cands = [...marks].filter(([id, e]) => e.state === 'rejected' && e.base && e.old && wanted(e.path) && !listed.has(id));
  if (!cands.length) return [];
  const C = current.baseline.oid;
  // The hunks against each base, for the files of its marks.
  const byBase = new Map<string, Set<string>>();
  for (const [, e] of cands) {
    if (e.base === C) continue;
    let s = byBase.get(e.base!);
    if (!s) byBase.set(e.base!, (s = new Set()));
    s.add(e.path);
  }
  const against = new Map<string, Hunk[] | null>();
  await Promise.all(
    [...byBase].map(async ([base, paths]) => {
      try {
        against.set(base, (await listHunks(root, { paths: [...paths], against: base })).hunks);
      } catch {
        against.set(base, null); // not in this clone's object store: nothing to tell
      }
    }),
  );
  const out: LaunderedRejection[] = [];
  for (const [id, e] of cands) {
    const all = e.base === C ? current.hunks : against.get(e.base!);
    if (!all) continue;
    const inFile = all.filter((h) => h.path === e.path);
    const base = { id, path: e.path, range: e.range, by: e.by, time: e.time };
    const self = inFile.find((h) => h.id === id);
    if (self) {
      // The same change may still be in the working tree, only with other context lines (a commit changed lines next to it).
      const same = current.hunks.filter((h) => h.path === e.path && sameChange(h, self));
      if (same.length) {
        if (!same.every((h) => reviewed(marks, h.id))) out.push({ ...base, how: 'edited', commit: null, edits: same });
        continue;
      }
      out.push({ ...base, how: 'committed', commit: await firstCommit(root, C, e.base!, e.path), edits: [] });
      continue;
    }
    const there = inFile.filter((h) => touches(h, e.old!));
    if (!there.length || there.every((h) => reviewed(marks, h.id))) continue;
    const committed = there.some((h) => !listed.has(h.id));
    const edits = current.hunks.filter((h) => there.some((x) => x.id === h.id));
    out.push({ ...base, how: 'edited', commit: committed ? await firstCommit(root, C, e.base!, e.path) : null, edits });
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.range < b.range ? -1 : a.range > b.range ? 1 : a.id < b.id ? -1 : 1));
  return out;
}

/**
 * The first commit reachable from `head` and not from `base` that changed `path`
 * (`git rev-list --reverse <head> ^<base> -- <path>`); `head` itself when there is none (the
 * baseline was moved to a commit that holds the change without changing the file since).
 */
async function firstCommit(root: string, head: string, base: string, path: string): Promise<string> {
  const r = await git(['rev-list', '--reverse', head, `^${base}`, '--', `:(literal)${path}`], { cwd: root, okStatus: [0, 128] });
  const first = r.status === 0 ? r.stdout.toString('utf8').split('\n')[0].trim() : '';
  return first || head;
}

/** A rejected change that the index holds against HEAD: what the commit being made would add. */
export interface StagedRejection {
  /** The reject mark's hunk id (full hex). */
  id: string;
  path: string;
  /** The hunk's `path:start-end` in the working tree now, if it is listed there, else as stored in the mark. */
  range: string;
  /** True when the hunk is listed in the working tree too (then `git kizu revert <id>` reverts it there and in the index). */
  inWorkTree: boolean;
}

/**
 * The rejected hunks that the index (GIT_INDEX_FILE, as git sets it for a pre-commit hook of
 * `git commit -a` or `git commit <paths>`) holds against HEAD: a reject mark whose id is among
 * the hunks of `git diff --cached HEAD` (./listing.ts ids), for the files the index changes.
 * Marks without `base` (older builds) count too: the id is the change. Starts no git process
 * when no mark is `rejected`; else `git diff --cached --name-only`, and a listing of the index
 * only when a rejected file is staged.
 * @returns the staged rejections, sorted by path then range.
 * @throws KizuError when git fails.
 */
export async function stagedRejections(root: string, marks: Map<string, MarkEntry>): Promise<StagedRejection[]> {
  const rejected = [...marks].filter(([, e]) => e.state === 'rejected');
  if (!rejected.length) return [];
  const names = await git(['diff', '--cached', '--name-only', '-z', '--no-renames', '--no-ext-diff'], { cwd: root });
  const staged = new Set(names.stdout.toString('utf8').split('\0').filter(Boolean));
  const paths = [...new Set(rejected.map(([, e]) => e.path).filter((p) => staged.has(p)))];
  if (!paths.length) return [];
  const head = await git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd: root, okStatus: [0, 1, 128] });
  if (head.status !== 0) return []; // the first commit: no hunk was listed against anything yet
  const oid = head.stdout.toString('utf8').trim();
  const [index, work] = await Promise.all([listHunks(root, { paths, against: oid, index: true }), listHunks(root, { paths, against: oid })]);
  const out: StagedRejection[] = [];
  for (const h of index.hunks) {
    if (marks.get(h.id)?.state !== 'rejected') continue;
    const w = work.hunks.find((x) => x.id === h.id);
    out.push({ id: h.id, path: h.path, range: w ? hunkRange(w) : marks.get(h.id)!.range, inWorkTree: !!w });
  }
  return out;
}
