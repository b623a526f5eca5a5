/**
 * `git kizu tap|reject|untap <hunk>...|--all` and `git kizu marks list|push|pull`: review marks
 * on hunks, stored in `refs/kizu/marks` (src/marks).
 */
import { normaliseHunkSpec } from './hunks.js';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { printable } from '../printable.js';
import { repoInfo } from '../git/repo.js';
import { pathQuoter } from '../git/path-quoter.js';
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
  /** Who the marks are recorded as when not the committer: `agent:<name>` inside an agent's session (agents/session-env.ts). */
  by?: string;
  reporter: Reporter;
}

/**
 * Marks hunks: resolves `specs` (or all current hunks with `all`) against the current hunks,
 * writes one marks commit (CAS, src/marks setMarks) and prints `<done> <shortId> <range>` per
 * hunk, in hunk order with duplicates dropped (`tapped 3fa2c1d src/a.ts:10-14`). A reject
 * also stores the baseline commit and the hunk's place in it (hunks/rejections.ts). An id
 * prefix that names no current hunk but a rejection whose hunk was committed or edited since
 * (hunks/rejections.ts) marks that rejection's id, printed with its stored range and
 * `(rejected change committed)` or `(rejected, edited since)`: how a reviewer accepts (tap)
 * or withdraws (untap) such a rejection.
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
  const { baseline, hunks } = await listHunks(root);
  // A rejection whose hunk was committed or edited (hunks/rejections.ts) is named by its mark's id: take those out first.
  const { gone, specs } = i.all ? { gone: [], specs: [] } : await launderedSpecs(root, i.specs, { baseline, hunks });
  const picked = i.all ? hunks : specs.length || !gone.length ? resolveHunks(specs.map((x) => normaliseHunkSpec(root, i.cwd, x, hunks)), hunks, pathQuoter(root)) : [];
  const seen = new Set<string>();
  const chosen: Hunk[] = [];
  for (const h of picked) if (!seen.has(h.id)) (seen.add(h.id), chosen.push(h));
  const goneChosen = gone.filter((g) => !seen.has(g.id) && (seen.add(g.id), true));
  if (!chosen.length && !goneChosen.length) {
    i.reporter.warn(`no hunks to ${i.verb}`);
    return EXIT.OK;
  }
  const { hunkPlace } = await import('../hunks/rejections.js');
  await setMarks(
    root,
    [
      // A reject records where the hunk sits in which commit, so that the rejection outlives a commit or an edit of the hunk.
      ...chosen.map((h) => ({ id: h.id, state: v.state, path: h.path, range: hunkRange(h), ...(v.state === 'rejected' ? { base: baseline.oid, old: hunkPlace(h) } : {}) })),
      ...goneChosen.map((g) => ({ id: g.id, state: v.state, path: g.path, range: g.range, ...(v.state === 'rejected' ? { base: g.base, old: g.old } : {}) })),
    ],
    { who, by: i.by },
  );
  const q = pathQuoter(root);
  for (const h of chosen) i.reporter.log(`${v.done} ${shortId(h)} ${hunkRange(h, q)}`);
  const range = (e: { path: string; range: string }) => (e.range.startsWith(e.path) ? q(e.path) + e.range.slice(e.path.length) : e.range);
  for (const g of goneChosen) i.reporter.log(`${v.done} ${g.id.slice(0, 8)} ${range(g)} (${g.how === 'committed' ? 'rejected change committed' : 'rejected, edited since'})`);
  return EXIT.OK;
}

/** A rejection named by the id of its mark, whose hunk is no longer listed (hunks/rejections.ts). */
interface GoneRejection {
  id: string;
  path: string;
  range: string;
  base?: string;
  old?: string;
  how: 'committed' | 'edited';
}

/**
 * Splits `specs` into the hex prefixes (4+ digits) that name no current hunk but exactly one
 * rejection that outlived its hunk (committed or edited: hunks/rejections.ts
 * launderedRejections), and the rest (resolved against the current hunks as usual).
 */
async function launderedSpecs(
  root: string,
  given: string[],
  current: Parameters<typeof import('../hunks/rejections.js').launderedRejections>[2],
): Promise<{ gone: GoneRejection[]; specs: string[] }> {
  const hex = (x: string) => /^[0-9a-fA-F]{4,}$/.test(x) && !current.hunks.some((h) => h.id.startsWith(x.toLowerCase()));
  if (!given.some(hex)) return { gone: [], specs: given };
  const marks = await readMarks(root);
  const { launderedRejections } = await import('../hunks/rejections.js');
  const found = await launderedRejections(root, marks, current);
  const gone: GoneRejection[] = [];
  const specs: string[] = [];
  for (const x of given) {
    const m = hex(x) ? found.filter((f) => f.id.startsWith(x.toLowerCase())) : [];
    if (m.length !== 1) {
      specs.push(x);
      continue;
    }
    const e = marks.get(m[0].id)!;
    gone.push({ id: m[0].id, path: e.path, range: e.range, base: e.base, old: e.old, how: m[0].how });
  }
  return { gone, specs };
}

export interface MarksListInput {
  cwd: string;
  json: boolean;
  reporter: Reporter;
}

/**
 * Lists stored marks (tombstones excluded), sorted by path, range, id:
 * `<state> <id> <range>  <by> <time>` (`by` is `agent:<name>` for a mark set inside an agent's session), or with `json` one JSON object
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
  // Every stored tap and reject, an agent's too (its `by` says `agent:<name>`; markOf counts its tap as unreviewed).
  const rows = [...marks].filter(([, e]) => e.state !== 'none');
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
  await reportRejects(root, i, r);
  return EXIT.OK;
}

/**
 * The lines that say what a merge did to the local rejects (marks/sync.ts
 * mergeKeepingRejects): kept over a mark dated in the future or set by an agent, or replaced
 * by a newer mark from the remote. Each names the hunk by its stored range.
 */
async function reportRejects(root: string, i: MarksSyncInput, r: { kept: string[]; replaced: string[] }): Promise<void> {
  if (!r.kept.length && !r.replaced.length) return;
  const marks = await readMarks(root);
  const q = pathQuoter(root);
  const where = (id: string) => {
    const e = marks.get(id);
    return e ? (e.range.startsWith(e.path) ? q(e.path) + e.range.slice(e.path.length) : q(e.range)) : id.slice(0, 7);
  };
  for (const id of r.kept) i.reporter.warn(`kept your reject of ${id.slice(0, 7)} ${where(id)}: ${i.remote}'s mark for it is dated in the future or was set by an agent`);
  for (const id of r.replaced) i.reporter.warn(`your reject of ${id.slice(0, 7)} ${where(id)} was replaced by a newer mark from ${i.remote} (${markOf(marks, id)}); git kizu reject ${id.slice(0, 7)} sets it again`);
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
  await reportRejects(root, i, r);
  if (r.push === 'pushed') i.reporter.log(`pushed ${short(r.oid)} to ${i.remote}`);
  else if (r.push === 'up-to-date') i.reporter.log(`${i.remote} already has ${short(r.oid)}`);
  else i.reporter.log('no marks to push');
  return EXIT.OK;
}
