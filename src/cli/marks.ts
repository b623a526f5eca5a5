/**
 * `git kizu tap|reject|untap <hunk>...|--all` and `git kizu marks list|push|pull`: review marks
 * on hunks, stored in `refs/kizu/marks` (src/marks).
 */
import { normaliseHunkSpec } from './hunks.js';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { printable } from '../printable.js';
import { repoInfo } from '../git/repo.js';
import { pathQuoter } from '../git/quote.js';
import type { Hunk } from '../hunks/listing.js';
import { readMarks, setMarks, markOf, type MarkState } from '../marks/read.js';
import { MARKS_REF } from '../git/layout.js';

/** The three marking commands and what they store. */
export const MARK_VERBS = {
  tap: { state: 'tapped', done: 'tapped' },
  reject: { state: 'rejected', done: 'rejected' },
  untap: { state: 'none', done: 'untapped' },
} as const satisfies Record<string, { state: MarkState | 'none'; done: string }>;

export interface MarkInput {
  cwd: string;
  verb: keyof typeof MARK_VERBS;
  /** Hunk specs: id prefix or `path:line` (hunks module resolveHunks). */
  specs: string[];
  /** Every current hunk instead of `specs`. */
  all: boolean;
  reporter: Reporter;
}

/**
 * Marks hunks: resolves `specs` (or all current hunks with `all`) against the current hunks,
 * writes one marks commit (CAS, src/marks setMarks) and prints `<done> <shortId> <range>` per
 * hunk, in hunk order with duplicates dropped (`tapped 3fa2c1d src/a.ts:10-14`).
 * @returns 0 (also when `all` finds no hunks: then it prints `no hunks to <verb>` on stderr).
 * @throws KizuError: exit 1 for an unknown or ambiguous hunk (candidates listed, nothing
 *   written); exit 2 for no specs and no --all, specs with --all, a corrupt marks ref.
 */
export async function markCommand(i: MarkInput): Promise<number> {
  const v = MARK_VERBS[i.verb];
  if (i.all && i.specs.length) throw new KizuError(`${i.verb}: give hunks or --all, not both`, { hint: `git kizu ${i.verb} --all, or git kizu ${i.verb} <hunk>...` });
  if (!i.all && !i.specs.length) throw new KizuError(`${i.verb}: no hunk given`, { hint: `git kizu ${i.verb} <id prefix or path:line>... (see git kizu hunks), or --all` });
  const { root } = await repoInfo(i.cwd);
  // The committer identity is a git process of its own: ask for it while the hunks are listed
  // (read-only, so a bad hunk spec below still writes nothing).
  const who = (await import('../git/objects.js')).identity(root);
  who.catch(() => {}); // awaited by setMarks
  const { listHunks, resolveHunks, shortId, hunkRange } = await import('../hunks/listing.js');
  const { hunks } = await listHunks(root);
  const picked = i.all ? hunks : resolveHunks(i.specs.map((x) => normaliseHunkSpec(root, i.cwd, x, hunks)), hunks, pathQuoter(root));
  const seen = new Set<string>();
  const chosen: Hunk[] = [];
  for (const h of picked) if (!seen.has(h.id)) (seen.add(h.id), chosen.push(h));
  if (!chosen.length) {
    i.reporter.warn(`no hunks to ${i.verb}`);
    return EXIT.OK;
  }
  await setMarks(
    root,
    chosen.map((h) => ({ id: h.id, state: v.state, path: h.path, range: hunkRange(h) })),
    { who },
  );
  const q = pathQuoter(root);
  for (const h of chosen) i.reporter.log(`${v.done} ${shortId(h)} ${hunkRange(h, q)}`);
  return EXIT.OK;
}

export interface MarksListInput {
  cwd: string;
  json: boolean;
  reporter: Reporter;
}

/**
 * Lists stored marks (tombstones excluded), sorted by path, range, id:
 * `<state> <id> <range>  <by> <time>`, or with `json` one JSON object
 * `{<id>: {state, time, by, path, range}}` with tombstones included (the stored form).
 * @returns 0.
 * @throws KizuError (exit 2) for a corrupt or unknown-version marks ref.
 */
export async function marksList(i: MarksListInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const marks = await readMarks(root);
  if (i.json) {
    const o: Record<string, unknown> = {};
    for (const id of [...marks.keys()].sort()) o[id] = marks.get(id);
    i.reporter.log(JSON.stringify(o));
    return EXIT.OK;
  }
  const rows = [...marks].filter(([id]) => markOf(marks, id) !== 'unreviewed');
  rows.sort(([a, x], [b, y]) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.range < y.range ? -1 : x.range > y.range ? 1 : a < b ? -1 : 1));
  const q = pathQuoter(root);
  // The stored range begins with the raw path (hunkRange); the text shows it quoted.
  const range = (e: { path: string; range: string }) => (e.range.startsWith(e.path) ? q(e.path) + e.range.slice(e.path.length) : e.range);
  // Marks are pulled from other clones: every stored field is escaped (printable), one line each.
  for (const [id, e] of rows) i.reporter.log(`${printable(String(e.state))} ${printable(id)} ${printable(range(e))}  ${printable(String(e.by))} ${printable(String(e.time))}`);
  return EXIT.OK;
}

export interface MarksSyncInput {
  cwd: string;
  remote: string;
  reporter: Reporter;
}

const short = (oid: string | null): string => (oid ?? '').slice(0, 7);

/**
 * `marks pull`: fetch `<remote>`'s refs/kizu/marks and merge it into the local one. Prints one
 * line: `<remote> has no marks`, `marks up to date with <remote>`, `fast-forwarded
 * refs/kizu/marks to <oid7> from <remote>` or `merged <remote> into refs/kizu/marks (<oid7>)`.
 * @returns 0.
 * @throws KizuError (exit 2): unknown remote (git's message), corrupt marks on either side.
 */
export async function marksPull(i: MarksSyncInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const { pullMarks } = await import('../marks/sync.js');
  const r = await pullMarks(root, i.remote);
  if (!r.remoteOid) i.reporter.log(`${i.remote} has no marks`);
  else i.reporter.log(mergeLine(r.action, i.remote, r.oid));
  return EXIT.OK;
}

function mergeLine(action: 'up-to-date' | 'fast-forward' | 'merged', remote: string, oid: string | null): string {
  if (action === 'up-to-date') return `marks up to date with ${remote}`;
  if (action === 'fast-forward') return `fast-forwarded ${MARKS_REF} to ${short(oid)} from ${remote}`;
  return `merged ${remote} into ${MARKS_REF} (${short(oid)})`;
}

/**
 * `marks push`: merge `<remote>`'s marks first if it has any, then push with a lease. Prints
 * the merge line if the merge changed the local ref, then `pushed <oid7> to <remote>`,
 * `<remote> already has <oid7>` or `no marks to push`.
 * @returns 0.
 * @throws KizuError (exit 2): unknown remote, rejected push, corrupt marks on either side.
 */
export async function marksPush(i: MarksSyncInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const { pushMarks } = await import('../marks/sync.js');
  const r = await pushMarks(root, i.remote);
  if (r.merge !== 'up-to-date') i.reporter.log(mergeLine(r.merge, i.remote, r.oid));
  if (r.push === 'pushed') i.reporter.log(`pushed ${short(r.oid)} to ${i.remote}`);
  else if (r.push === 'up-to-date') i.reporter.log(`${i.remote} already has ${short(r.oid)}`);
  else i.reporter.log('no marks to push');
  return EXIT.OK;
}
