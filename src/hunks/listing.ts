/**
 * Hunks: every change in the working tree against the baseline commit, each with a
 * content-derived id.
 *
 * - Tracked changes come from `git diff <baseline> ` with the fixed options of
 *   {@link DIFF_ARGS} (unified format, git-diff(1) "GENERATING PATCH TEXT WITH -P").
 * - Untracked, not ignored files (`git ls-files -o --exclude-standard -z`) are whole-file
 *   additions: one hunk each, every line '+', a `\ No newline at end of file` line when the
 *   file does not end with one.
 * - Binary changes (`Binary files ... differ`, or an untracked file with a NUL byte in its
 *   first 8 KiB) are listed as one hunk with no lines; reverting one restores the whole file.
 * - Empty added/deleted/untracked files are listed as one hunk with no lines.
 * - A change of a tracked file's executable bit (`old mode`/`new mode`: 100644 ↔ 100755) is
 *   a hunk of its own, kind `mode`, with no lines, listed before the file's content hunks.
 * - A submodule (a gitlink, mode 160000) that changed is one hunk of kind `submodule` with no
 *   lines: new commits (its HEAD is not the recorded commit), a dirty working tree
 *   (`Subproject commit <oid>-dirty`: modified or untracked content inside it), added or
 *   removed. What changed inside it is its own repository's business, not listed here. An
 *   untracked nested repository (`git ls-files -o` lists it as `dir/`) is such a hunk too
 *   (`untracked nested repository`), whatever it holds.
 * - A path with unmerged index entries (a merge, cherry-pick, revert, rebase or stash
 *   conflict in progress: `git ls-files -u`, stages 1-3) is one hunk of kind `conflict` with
 *   no lines, in place of its diff: resolving it is git's business (`git add`, `git checkout
 *   --ours/--theirs`, `git merge --abort`), listed so that it is seen even where the working
 *   tree equals the baseline.
 *
 * - A file whose index entry is flagged assume-unchanged or skip-worktree (git status and git
 *   diff do not look at it) and that differs from that entry (git/hidden-changes.ts) is
 *   diffed as if the flags were cleared (a copy of the index without them, through
 *   GIT_INDEX_FILE): its hunks are listed, with the ids they will have once the flag is
 *   cleared, and the change is returned in `hidden` for the commands to name.
 * - A file that an ignore rule not in the baseline hides (a `.gitignore` that ignores itself, a
 *   rule added to one; git/hidden-by-rules.ts) is listed as an untracked file; it and the files
 *   an attribute hides (`ident`, a configured clean filter) are returned in `rules` for the
 *   commands to name.
 * - A file whose name is not valid UTF-8 cannot be named here: it is left out of the hunks
 *   and returned in `unreadable`, quoted, for the commands to warn about.
 *
 * Identity is content, not position (see {@link Hunk.id}).
 */
import { QUEUE_FILE } from '../queue/paths.js';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import { quoteArg, quoteCStyle, type PathQuote } from '../git/quote.js';
import { git, splitZ, nonUtf8Records, type GitResult } from '../git/run.js';
import { quoteBytes } from '../git/quote.js';
import { hiddenChanges, withUnflaggedIndex, type HiddenChange } from '../git/hidden-changes.js';
import { hiddenByRules, type RuleHidden } from '../git/hidden-by-rules.js';
import { commonDirFast, discoveryOverridden } from '../git/repo.js';
import { checkRefObject, refFast, resolveRef } from '../git/refs.js';
import { DIFF_ARGS, DIFF_OPTIONS_ID, parseDiff, splitLines, type FileDiff } from '../git/diff.js';
import { startDiff, startGit, takeEarly, type Baseline } from './baseline.js';
import { BASELINE_REF } from '../git/layout.js';

export { DIFF_ARGS, DIFF_OPTIONS_ID };

/** One hunk of the working tree against the baseline. */
export interface Hunk {
  /**
   * Full hex SHA-1 over: the format version (`kizu-hunk/1`), the diff options
   * ({@link DIFF_OPTIONS_ID}), the path, each body line's origin character and bytes (line
   * numbers are not included), and the hunk's occurrence index among identical hunks of the
   * same file (0 for the first). Binary hunks hash the old and new object ids instead of
   * lines; a mode hunk hashes `mode`, the old and the new mode; a submodule hunk hashes
   * `submodule`, the recorded and the checked-out commit and whether it is dirty; a conflict
   * hunk hashes `conflict` and its unmerged index entries (stage, mode, object id). Editing lines elsewhere in the file keeps the id; any change to the hunk's own
   * lines, context lines included, gives a new id.
   */
  id: string;
  /** Repo-root-relative path, '/' separators. */
  path: string;
  /**
   * File-level status of the hunk's file; `mode` for a change of the executable bit alone,
   * `submodule` for a submodule's change, `conflict` for a path with unmerged index entries
   * (all three without lines).
   */
  kind: 'modified' | 'added' | 'deleted' | 'untracked' | 'mode' | 'submodule' | 'conflict';
  /** Baseline side (git's `@@ -a,b`). 0,0 for a file that does not exist there. */
  oldStart: number;
  oldCount: number;
  /** Working-tree side (`@@ +c,d`); for a pure deletion newCount is 0. */
  newStart: number;
  newCount: number;
  /** Counts of '+' and '-' lines. */
  added: number;
  removed: number;
  /** Body lines (UTF-8 decoded), each starting with its origin ' ', '+', '-' or '\'. Empty for binary and empty files. */
  lines: string[];
  /** The `@@ ... @@` line (synthesized for untracked files; `Binary files ... differ` for binary hunks). */
  header: string;
}

export type { Baseline };

/** Byte-level facts about a hunk that revert needs (not part of the public shape). */
export interface HunkDetail {
  /** Body lines as raw bytes (origin byte first, no '\n'). */
  raw: Buffer[];
  /** The same lines as one buffer, each with its '\n' (as git prints them). */
  body: Buffer;
  binary: boolean;
  /** True if either side is a symbolic link (mode 120000). */
  symlink: boolean;
  oldMode: string;
  newMode: string;
  /** Full object ids from the diff's `index` line ('' for untracked files). */
  oldOid: string;
  newOid: string;
  /** Untracked binary/symlink files: SHA-256 of the bytes (link target for a symlink) as listed. */
  contentSha?: string;
  /** A submodule's change: the recorded commit, its HEAD now ('' for a side that does not exist), and whether its working tree is dirty. */
  submodule?: SubmoduleChange;
  /** A conflict: the path's unmerged index entries. */
  conflict?: Conflict;
}

/** The unmerged index entries of one path (`git ls-files -u`): by stage, each `{mode, oid}` or null. */
export interface Conflict {
  /** Stage 1: the common ancestor's version. */
  base: { mode: string; oid: string } | null;
  /** Stage 2: ours (the branch checked out; in a rebase, the branch rebased onto). */
  ours: { mode: string; oid: string } | null;
  /** Stage 3: theirs (what is merged in; in a rebase, the commit being replayed). */
  theirs: { mode: string; oid: string } | null;
}

/**
 * The unmerged entries of `git ls-files -z -u` output (`<mode> <oid> <stage>\t<path>`
 * records) by path.
 */
function parseUnmerged(out: Buffer): Map<string, Conflict> {
  const m = new Map<string, Conflict>();
  for (const rec of splitZ(out)) {
    const r = /^(\d+) ([0-9a-f]+) ([123])\t([\s\S]*)$/.exec(rec);
    if (!r) continue;
    let c = m.get(r[4]);
    if (!c) m.set(r[4], (c = { base: null, ours: null, theirs: null }));
    c[r[3] === '1' ? 'base' : r[3] === '2' ? 'ours' : 'theirs'] = { mode: r[1], oid: r[2] };
  }
  return m;
}

/**
 * A conflict in git status's words (git-status(1) "Short Format", unmerged XY): `both
 * modified` (UU), `both added` (AA), `deleted by them` (UD), `deleted by us` (DU), `added by
 * us` (AU), `added by them` (UA), `both deleted` (DD).
 */
export function conflictWords(c: Conflict | undefined): string {
  if (!c) return 'conflict';
  const key = `${c.base ? 1 : 0}${c.ours ? 1 : 0}${c.theirs ? 1 : 0}`;
  const words: Record<string, string> = { '111': 'both modified', '011': 'both added', '110': 'deleted by them', '101': 'deleted by us', '010': 'added by us', '001': 'added by them', '100': 'both deleted' };
  return `conflict: ${words[key] ?? 'unmerged'}`;
}

/** A submodule's change against the baseline, from git's `Subproject commit <oid>[-dirty]` lines. */
export interface SubmoduleChange {
  /** The commit the baseline records ('' when the baseline has no submodule there). */
  old: string;
  /** The commit checked out in it now ('' when it is gone). */
  new: string;
  /** True when its working tree has modified or untracked content (`-dirty`). */
  dirty: boolean;
  /** True for an untracked nested repository (not a submodule: no gitlink records it). */
  untracked?: boolean;
}

const details = new WeakMap<Hunk, HunkDetail>();

/** The byte-level detail of a hunk returned by {@link listHunks} (undefined for other objects). */
export function hunkDetail(h: Hunk): HunkDetail | undefined {
  return details.get(h);
}

/**
 * The baseline hunks are computed against: the commit in refs/kizu/baseline if set, else HEAD.
 * @throws KizuError (exit 2) if refs/kizu/baseline does not point at an existing commit (git/refs.ts checkRefObject), or HEAD has
 *   no commit yet (unborn branch) and no baseline is set.
 */
export async function getBaseline(root: string): Promise<Baseline> {
  // Usually no baseline is set: find that out from the ref files without a git process.
  const common = discoveryOverridden() ? null : commonDirFast(root);
  const known = common ? refFast(common, BASELINE_REF) : undefined;
  const oid = known === null ? null : await resolveRef(root, BASELINE_REF, common ?? undefined);
  if (oid) {
    await checkRefObject(root, BASELINE_REF, oid, 'set it again with `git kizu baseline set <rev>`, or drop it with `git kizu baseline reset`');
    return { rev: BASELINE_REF, oid, fromRef: true };
  }
  const h = await git(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { cwd: root, okStatus: [0, 1, 128] });
  if (h.status !== 0) {
    throw new KizuError('HEAD has no commit yet (unborn branch), so there is no baseline to compare the working tree with', {
      hint: 'make a first commit (git commit --allow-empty -m init), or set a baseline with git kizu baseline set <rev>',
    });
  }
  return { rev: 'HEAD', oid: h.stdout.toString('utf8').trim(), fromRef: false };
}

// node:crypto, loaded by listHunks while git runs (it takes milliseconds to load).
let nodeCrypto: typeof import('node:crypto');

/** The content hash of a hunk before the occurrence tie-breaker. */
function baseId(p: string, d: HunkDetail, kind: Hunk['kind']): string {
  let head = `kizu-hunk/1\0${DIFF_OPTIONS_ID}\0${p}\0`;
  if (kind === 'mode') head += `mode\0${d.oldMode}\0${d.newMode}\0`;
  if (d.conflict) head += `conflict\0${(['base', 'ours', 'theirs'] as const).map((k) => (d.conflict![k] ? `${d.conflict![k]!.mode} ${d.conflict![k]!.oid}` : '-')).join('\0')}\0`;
  if (d.submodule) head += `submodule\0${d.submodule.old}\0${d.submodule.new}\0${d.submodule.dirty ? 'dirty' : ''}${d.submodule.untracked ? '\0untracked' : ''}\0`;
  if (d.binary) head += `binary\0${d.oldOid}\0${d.contentSha ?? d.newOid}\0`;
  if (d.symlink) head += 'symlink\0';
  // Each body line followed by '\n': the body as printed (plus a '\n' if output ended without one).
  const parts = [Buffer.from(head, 'utf8'), d.body];
  if (d.body.length && d.body[d.body.length - 1] !== 0x0a) parts.push(Buffer.from('\n'));
  return nodeCrypto.hash('sha1', Buffer.concat(parts));
}

/** Splits bytes into '\n'-terminated lines (the last without '\n' if the file lacks one). */
export function splitLF(buf: Buffer): { lines: Buffer[]; finalNewline: boolean } {
  const lines: Buffer[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) {
      lines.push(buf.subarray(pos));
      return { lines, finalNewline: false };
    }
    lines.push(buf.subarray(pos, nl));
    pos = nl + 1;
  }
  return { lines, finalNewline: true };
}

const NO_NEWLINE = Buffer.from('\\ No newline at end of file');
const EMPTY = Buffer.alloc(0);

/** HunkDetail whose `raw` lines are split from `body` on first use. */
class Detail implements HunkDetail {
  #raw: Buffer[] | undefined;
  conflict?: Conflict;
  constructor(
    public body: Buffer,
    public binary: boolean,
    public symlink: boolean,
    public oldMode: string,
    public newMode: string,
    public oldOid: string,
    public newOid: string,
    public contentSha?: string,
    raw?: Buffer[],
    public submodule?: SubmoduleChange,
  ) {
    this.#raw = raw;
  }
  get raw(): Buffer[] {
    return (this.#raw ??= splitLines(this.body));
  }
}

interface Draft {
  path: string;
  kind: Hunk['kind'];
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  header: string;
  detail: HunkDetail;
}

const SUBPROJECT = /^([-+])Subproject commit ([0-9a-f]+)(-dirty)?$/;

/**
 * The submodule change of a file diff, or null when it is not a submodule: git prints a
 * gitlink (mode 160000; a change only inside its working tree has no `index` line at all)
 * as one hunk of `Subproject commit <oid>[-dirty]` lines.
 */
function submoduleOf(f: FileDiff): SubmoduleChange | null {
  const gitlink = f.oldMode === '160000' || f.newMode === '160000';
  if (!gitlink && (f.oldOid !== '' || f.hunks.length !== 1)) return null;
  const c: SubmoduleChange = { old: '', new: '', dirty: false };
  for (const l of f.hunks[0]?.raw ?? []) {
    const m = SUBPROJECT.exec(l.toString('latin1'));
    if (!m) return null;
    if (m[1] === '-') c.old = m[2];
    else (c.new = m[2]), (c.dirty = !!m[3]);
  }
  return c.old || c.new ? c : null;
}

/** The header of a submodule's hunk, as git's `--submodule=log` words it. */
function submoduleHeader(p: string, c: SubmoduleChange): string {
  const parts = [`Submodule ${p}`];
  if (!c.old) parts.push(`added at ${c.new.slice(0, 7)}`);
  else if (!c.new) parts.push('removed');
  else if (c.old !== c.new) parts.push(`${c.old.slice(0, 7)}..${c.new.slice(0, 7)}`);
  if (c.dirty) parts.push('contains modified content');
  return parts.join(' ');
}

function draftsOfFile(f: FileDiff): Draft[] {
  const symlink = f.oldMode === '120000' || f.newMode === '120000';
  const detail = (body: Buffer, raw?: Buffer[]): Detail => new Detail(body, f.binary, symlink, f.oldMode, f.newMode, f.oldOid, f.newOid, undefined, raw);
  const sub = submoduleOf(f);
  if (sub) {
    const d = detail(EMPTY, []);
    d.submodule = sub;
    return [{ path: f.path, kind: 'submodule', oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, header: submoduleHeader(f.path, sub), detail: d }];
  }
  // A change of the executable bit (100644 <-> 100755; a type change is a deletion and an addition).
  const regular = (m: string) => m === '100644' || m === '100755';
  const mode: Draft[] =
    f.status === 'modified' && f.oldMode !== f.newMode && regular(f.oldMode) && regular(f.newMode)
      ? [{ path: f.path, kind: 'mode', oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, header: `old mode ${f.oldMode}, new mode ${f.newMode}`, detail: new Detail(EMPTY, false, false, f.oldMode, f.newMode, '', '', undefined, []) }]
      : [];
  if (f.binary) {
    return [...mode, { path: f.path, kind: f.status, oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, header: f.binaryLine, detail: detail(EMPTY, []) }];
  }
  if (!f.hunks.length) {
    if (f.status === 'modified') return mode;
    return [{ path: f.path, kind: f.status, oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, header: '@@ -0,0 +0,0 @@', detail: detail(EMPTY, []) }];
  }
  return [...mode, ...f.hunks.map((h) => ({
    path: f.path,
    kind: f.status,
    oldStart: h.oldStart,
    oldCount: h.oldCount,
    newStart: h.newStart,
    newCount: h.newCount,
    header: h.header,
    detail: detail(h.body),
  }))];
}

/**
 * The body of an untracked file's hunk: every line with a '+' in front and its '\n', then
 * `\ No newline at end of file` if the file does not end with one.
 * @returns the body bytes and the line count.
 */
function additionBody(buf: Buffer): { body: Buffer; n: number } {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) n++;
  const finalNewline = buf.length === 0 || buf[buf.length - 1] === 0x0a;
  if (!finalNewline) n++;
  const body = Buffer.allocUnsafe(buf.length + n + (finalNewline ? 0 : 2 + NO_NEWLINE.length));
  let o = 0;
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    const end = nl === -1 ? buf.length : nl + 1;
    body[o++] = 0x2b;
    o += buf.copy(body, o, pos, end);
    pos = end;
  }
  if (!finalNewline) {
    body[o++] = 0x0a;
    o += NO_NEWLINE.copy(body, o);
    body[o++] = 0x0a;
  }
  return { body, n };
}

function untrackedDraft(root: string, rel: string): Draft | null {
  const abs = path.join(root, ...rel.split('/'));
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return null; // gone since ls-files
  }
  const base = { path: rel, kind: 'untracked' as const, oldStart: 0, oldCount: 0 };
  if (st.isSymbolicLink()) {
    const target = readlinkSync(abs, { encoding: 'buffer' });
    const contentSha = nodeCrypto.createHash('sha256').update(target).digest('hex');
    return { ...base, newStart: 0, newCount: 0, header: `Symbolic link ${rel} (untracked)`, detail: new Detail(EMPTY, true, true, '', '120000', '', '', contentSha, []) };
  }
  if (!st.isFile()) return null;
  const buf = readFileSync(abs);
  const newMode = st.mode & 0o100 ? '100755' : '100644';
  if (buf.subarray(0, 8192).includes(0)) {
    const contentSha = nodeCrypto.createHash('sha256').update(buf).digest('hex');
    return { ...base, newStart: 0, newCount: 0, header: `Binary file ${rel} (untracked)`, detail: new Detail(EMPTY, true, false, '', newMode, '', '', contentSha, []) };
  }
  const { body, n } = additionBody(buf);
  const header = n === 0 ? '@@ -0,0 +0,0 @@' : n === 1 ? '@@ -0,0 +1 @@' : `@@ -0,0 +1,${n} @@`;
  return { ...base, newStart: n ? 1 : 0, newCount: n, header, detail: new Detail(body, false, false, '', newMode, '', '') };
}

/** Body lines decoded as UTF-8, without their '\n' ('\n' never occurs inside a UTF-8 sequence, so this equals decoding each line). */
function bodyLines(body: Buffer): string[] {
  if (!body.length) return [];
  const ls = body.toString('utf8').split('\n');
  if (body[body.length - 1] === 0x0a) ls.pop();
  return ls;
}

/** What {@link listHunks} returns. */
export interface HunkListing {
  baseline: Baseline;
  hunks: Hunk[];
  /** Changes git does not show (assume-unchanged, skip-worktree); their hunks are in `hunks` when they could be diffed. */
  hidden: HiddenChange[];
  /** Changed or untracked files whose name is not valid UTF-8, quoted as git quotes them (`"caf\351.js"`); not in `hunks`. */
  unreadable: string[];
  /** Files an ignore rule not in the baseline or an attribute hides (git/hidden-by-rules.ts); the ignored ones are in `hunks` as untracked files. */
  rules: RuleHidden[];
}

/**
 * Lists every hunk of the working tree against the baseline ({@link getBaseline}), sorted
 * by path (byte order), then in file order.
 * @param root absolute working-tree top level.
 * @param opts.paths limit to these repo-root-relative paths (files or directories, taken
 *   literally, no globs).
 * @param opts.against list against this commit (full id) instead of the baseline; the
 *   returned baseline is `{rev: <oid>, oid, fromRef: false}`. Ids are computed as always, so
 *   a hunk that is the same change against the same lines has the same id (how
 *   ./rejections.ts finds a rejected hunk again against the commit it was rejected on).
 * @param opts.index list the index (`git diff --cached`, GIT_INDEX_FILE honoured) instead of
 *   the working tree: no untracked files, no conflicts.
 * @returns the baseline and the hunks (ids unique within the list), the hidden changes, the
 *   names that are not valid UTF-8 (see the module comment).
 * @throws KizuError (exit 2) from {@link getBaseline}, or when git fails or prints output
 *   that is not a unified diff.
 */
export async function listHunks(root: string, opts: { paths?: string[]; against?: string; index?: boolean } = {}): Promise<HunkListing> {
  const specs = (opts.paths ?? []).map((p) => `:(literal)${p}`);
  const custom = opts.against !== undefined || opts.index === true;
  // Usually the baseline comes from the ref files; then all its git processes start at once
  // (maybe already before this module loaded: baseline.ts startEarly).
  const started = custom
    ? startGit(root, specs, opts.against !== undefined ? { rev: opts.against, oid: opts.against, fromRef: false } : undefined, opts.index === true)
    : ((specs.length ? undefined : takeEarly(root)) ?? startGit(root, specs));
  const { fast, others: othersP } = started;
  const baseline = fast ?? (await getBaseline(root));
  const diffP = started.diff ?? startDiff(root, baseline.oid, specs, opts.index === true);
  // While git runs: load the hash functions, and read untracked files once they are listed.
  nodeCrypto ??= await import('node:crypto');
  const hiddenP = hiddenChanges(root, opts.paths ?? []);
  hiddenP.catch(() => {});
  // Files git hides by a rule (an ignore rule not in the baseline, ident, a clean filter): the
  // ignored ones are listed as untracked files; all are returned to be named.
  const given = {
    touched: Promise.all([othersP, diffP]).then(([o, d]) => o.stdout.includes('.gitignore') || d.stdout.includes('.gitignore'), () => true),
    untracked: othersP.then((o) => splitZ(o.stdout), () => []),
  };
  const rulesP: Promise<RuleHidden[]> = custom ? Promise.resolve([]) : hiddenByRules(root, baseline.oid, given, opts.paths ?? []);
  rulesP.catch(() => {});
  const unreadable = new Set<string>();
  const untrackedP = othersP.then((others) => {
    for (const b of nonUtf8Records(others.stdout)) unreadable.add(quoteBytes(b));
    const out: Draft[] = [];
    for (const rel of splitZ(others.stdout)) {
      if (rel.endsWith('/')) {
        // git lists an untracked nested repository as `dir/` and does not look inside.
        const p = rel.slice(0, -1);
        const d = new Detail(EMPTY, false, false, '', '', '', '', undefined, [], { old: '', new: '', dirty: false, untracked: true });
        out.push({ path: p, kind: 'submodule', oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, header: `Untracked repository ${p}`, detail: d });
        continue;
      }
      if (rel === QUEUE_FILE) continue;
      const d = untrackedDraft(root, rel);
      if (d) out.push(d);
    }
    return out;
  });
  untrackedP.catch(() => {}); // awaited below
  const unmergedP = started.unmerged.then((r) => parseUnmerged(r.stdout));
  unmergedP.catch(() => {});
  let diff: GitResult;
  try {
    diff = await diffP;
  } catch (e) {
    // HEAD read from the files may not name a commit after all: then say so as git would.
    if (fast) await getBaseline(root);
    throw e;
  }
  // The review queue is the reviewer's file, not the agent's work: never a hunk to review.
  const unmerged = await unmergedP;
  const hidden = await hiddenP;
  // The hidden files diffed as if their flags were cleared (null: the index could not be copied).
  const hiddenPaths = new Set(hidden.changes.map((h) => h.path));
  const unflagged = hiddenPaths.size
    ? await withUnflaggedIndex(hidden, (file) => git([...DIFF_ARGS, baseline.oid, '--', ...[...hiddenPaths].map((p) => `:(literal)${p}`)], { cwd: root, env: { GIT_INDEX_FILE: file } }))
    : null;
  // From the main diff, a hidden file's entry shows its index side: the unflagged diff replaces it.
  let files = parseDiff(diff.stdout);
  if (unflagged) files = [...files.filter((f) => !hiddenPaths.has(f.path)), ...parseDiff(unflagged.stdout).filter((f) => hiddenPaths.has(f.path))];
  const drafts: Draft[] = files
    .filter((f) => {
      if (f.badName) unreadable.add(quoteBytes(f.badName));
      return !f.badName;
    })
    .flatMap(draftsOfFile)
    .filter((d) => d.path !== QUEUE_FILE && !unmerged.has(d.path));
  for (const d of await untrackedP) drafts.push(d);
  const rules = await rulesP;
  const listed = new Set(drafts.map((d) => d.path));
  for (const r of rules) {
    if (r.how !== 'ignored' || r.path.endsWith('/') || listed.has(r.path) || r.path === QUEUE_FILE) continue;
    const d = untrackedDraft(root, r.path);
    if (d) drafts.push(d);
  }
  for (const [p, c] of unmerged) {
    const d = new Detail(EMPTY, false, false, c.ours?.mode ?? '', '', '', '', undefined, []);
    d.conflict = c;
    drafts.push({ path: p, kind: 'conflict', oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, header: `Unmerged path ${p}`, detail: d });
  }
  const order = drafts.map((d, i) => ({ d, i, key: Buffer.from(d.path, 'utf8') }));
  order.sort((a, b) => Buffer.compare(a.key, b.key) || a.i - b.i);
  const seen = new Map<string, number>();
  const hunks: Hunk[] = [];
  for (const { d } of order) {
    const b = baseId(d.path, d.detail, d.kind);
    const n = seen.get(b) ?? 0;
    seen.set(b, n + 1);
    const lines = bodyLines(d.detail.body);
    let added = 0;
    let removed = 0;
    for (const l of lines) {
      const c = l.charCodeAt(0);
      if (c === 0x2b) added++;
      else if (c === 0x2d) removed++;
    }
    const h: Hunk = {
      id: nodeCrypto.hash('sha1', `${b}\0${n}`),
      path: d.path,
      kind: d.kind,
      oldStart: d.oldStart,
      oldCount: d.oldCount,
      newStart: d.newStart,
      newCount: d.newCount,
      added,
      removed,
      lines,
      header: d.header,
    };
    details.set(h, d.detail);
    hunks.push(h);
  }
  return { baseline, hunks, hidden: hidden.changes, unreadable: [...unreadable], rules };
}

/** Length of {@link shortId}. */
export const SHORT_ID_LENGTH = 8;

/** The first 8 hex digits of the hunk id (for display; resolve with {@link resolveHunks}). */
export function shortId(h: Hunk): string {
  return h.id.slice(0, SHORT_ID_LENGTH);
}

/** A hunk with no line range: binary, an empty file, or a whole deleted file. */
function wholeFile(h: Hunk): boolean {
  return h.lines.length === 0 || h.kind === 'deleted';
}

/**
 * Where a hunk's changes sit in the working tree, 1-based: the lines that are '+' lines, and
 * the deletion points (for each '-' line, the working-tree line now at its place, i.e. the
 * line after the removed ones; lineCount+1 at the end of the file).
 */
export function changedLines(h: Hunk): { plus: number[]; deletions: number[]; regionStart: number } {
  const regionStart = h.newCount === 0 ? h.newStart + 1 : h.newStart;
  let n = regionStart;
  const plus: number[] = [];
  const deletions: number[] = [];
  for (const l of h.lines) {
    const o = l[0];
    if (o === ' ') n++;
    else if (o === '+') plus.push(n++);
    else if (o === '-') deletions.push(n);
  }
  return { plus, deletions, regionStart };
}

/**
 * The working-tree line of a hunk's first change (1-based): its first '+' line or its first
 * deletion point (see {@link changedLines}), whichever comes first. This is the line above
 * which `revert -m` puts its scar (the same line number holds the first restored line after
 * the revert). 1 for whole-file hunks.
 */
export function hunkSpot(h: Hunk): number {
  const { plus, deletions } = changedLines(h);
  const c = minMax([...plus, ...deletions]);
  return c ? c.min : 1;
}

function minMax(xs: number[]): { min: number; max: number } | null {
  if (!xs.length) return null;
  let min = xs[0];
  let max = xs[0];
  for (const x of xs) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { min, max };
}

/** The [start, end] working-tree lines of a hunk's changes, or null for whole-file hunks. */
function changeSpan(h: Hunk): { start: number; end: number; pure: boolean } | null {
  if (wholeFile(h)) return null;
  const { plus, deletions } = changedLines(h);
  const start = minMax([...plus, ...deletions])!.min;
  const end = Math.max(start, minMax([...plus, ...deletions.map((d) => d - 1)])!.max);
  return { start, end, pure: plus.length === 0 };
}

/**
 * What a submodule hunk holds, in words: `submodule added at <oid7>`, `submodule removed`,
 * `submodule: new commits <old7>..<new7>`, `submodule: modified content` (a dirty working
 * tree: modified or untracked files inside it), or both joined with `, `.
 */
export function submoduleWords(c: SubmoduleChange | undefined): string {
  if (!c) return 'submodule';
  if (c.untracked) return 'untracked nested repository';
  if (!c.old) return `submodule added at ${c.new.slice(0, 7)}${c.dirty ? ', modified content' : ''}`;
  if (!c.new) return 'submodule removed';
  const parts: string[] = [];
  if (c.old !== c.new) parts.push(`new commits ${c.old.slice(0, 7)}..${c.new.slice(0, 7)}`);
  if (c.dirty) parts.push('modified content');
  return `submodule: ${parts.join(', ')}`;
}

/**
 * The hunk's place in the working tree, for people: `path:start-end` over its changed lines
 * (context excluded), `path:N` for a single line, `path:N (deleted lines)` when the hunk only
 * removes lines (N is the line now where they were), and for whole-file hunks
 * `path (deleted file)`, `path (binary)`, `path (symlink)` or `path (empty file)`; a mode
 * change `path (mode 100644 → 100755)`, a submodule `path (submodule: ...)` ({@link submoduleWords}),
 * a conflict `path (conflict: both modified)` ({@link conflictWords}). `quote`
 * writes the path for text output (src/git/path-quoter.ts pathQuoter); the default keeps it raw
 * (JSON, the stored marks).
 */
export function hunkRange(h: Hunk, quote: (p: string) => string = (p) => p): string {
  const d = details.get(h);
  const p = quote(h.path);
  if (h.kind === 'mode') return `${p} (mode ${d?.oldMode ?? '?'} → ${d?.newMode ?? '?'})`;
  if (h.kind === 'submodule') return `${p} (${submoduleWords(d?.submodule)})`;
  if (h.kind === 'conflict') return `${p} (${conflictWords(d?.conflict)})`;
  if (d?.symlink) return `${p} (symlink)`;
  if (d?.binary || h.header.startsWith('Binary files ')) return `${p} (binary)`;
  if (h.kind === 'deleted') return `${p} (deleted file)`;
  const s = changeSpan(h);
  if (!s) return `${p} (empty file)`;
  const r = s.start === s.end ? `${s.start}` : `${s.start}-${s.end}`;
  return `${p}:${r}${s.pure ? ' (deleted lines)' : ''}`;
}

function covers(h: Hunk, line: number): boolean {
  if (h.kind === 'mode') return false; // no line of its own: named by id or by the bare path
  const s = changeSpan(h);
  if (!s) return true;
  return line >= s.start && line <= s.end;
}

function inContext(h: Hunk, line: number): boolean {
  if (h.kind === 'mode') return false;
  const { regionStart } = changedLines(h);
  return line >= regionStart && line < regionStart + Math.max(h.newCount, 1);
}

function candidates(hs: Hunk[], quote: PathQuote): string {
  const shown = hs.slice(0, 30).map((h) => `  ${shortId(h)}  ${hunkRange(h, quote)}`);
  if (hs.length > 30) shown.push(`  ... and ${hs.length - 30} more (git kizu hunks lists them all)`);
  return shown.join('\n');
}

/**
 * Resolves hunk specs to hunks, in the order given (duplicates removed). A spec is
 * - a hex prefix (4 or more digits) of exactly one hunk id, or
 * - `path:line` (repo-root-relative path): the hunk whose changed lines cover that
 *   working-tree line ({@link hunkRange}; for a pure deletion the line where it was; any line
 *   for a whole-file hunk), else the hunk whose context covers it, or
 * - a bare path with exactly one hunk.
 * Specs are taken as given (the CLI unquotes git-quoted paths first: src/cli/hunks.ts
 * normaliseHunkSpec).
 * @param quote writes paths in messages (src/git/path-quoter.ts pathQuoter; default git's default
 *   quoting)
 * @throws KizuError (exit 1) for a spec that matches no hunk or several (named with its
 *   characters escaped as git escapes paths); the hint lists the candidates as
 *   `shortId  range`, paths quoted.
 */
export function resolveHunks(specs: string[], hunks: Hunk[], quote: PathQuote = (p) => quoteCStyle(p)): Hunk[] {
  const out: Hunk[] = [];
  for (const spec of specs) {
    let found: Hunk[] = [];
    let pool = hunks;
    if (/^[0-9a-fA-F]{4,}$/.test(spec)) found = hunks.filter((h) => h.id.startsWith(spec.toLowerCase()));
    if (!found.length) {
      const m = /^(.*):(\d+)$/s.exec(spec);
      const file = m ? m[1] : spec;
      const inFile = hunks.filter((h) => h.path === file);
      if (inFile.length) pool = inFile;
      if (m) {
        const line = Number(m[2]);
        found = inFile.filter((h) => covers(h, line));
        if (!found.length) found = inFile.filter((h) => inContext(h, line));
      } else if (inFile.length === 1) found = inFile;
      else if (inFile.length > 1) found = inFile;
    }
    if (found.length === 1) {
      if (!out.includes(found[0])) out.push(found[0]);
      continue;
    }
    if (!hunks.length) {
      throw new KizuError(`no hunk matches ${quoteArg(spec)}: the working tree has no changes against the baseline`, {
        hint: 'git kizu hunks lists the changes; git kizu baseline shows what they are compared with',
        exitCode: EXIT.FOUND,
      });
    }
    if (found.length > 1) {
      throw new KizuError(`${quoteArg(spec)} matches ${found.length} hunks`, {
        hint: `name one by a longer id or by path:line:\n${candidates(found, quote)}`,
        exitCode: EXIT.FOUND,
      });
    }
    const tooShort = /^[0-9a-fA-F]{1,3}$/.test(spec);
    throw new KizuError(tooShort ? `${quoteArg(spec)} is too short for a hunk id: use at least 4 hex digits` : `no hunk matches ${quoteArg(spec)} (the file may have changed since it was listed)`, {
      hint: `current hunks${pool !== hunks ? ` in ${quote(pool[0].path)}` : ''} (git kizu hunks lists them all):\n${candidates(pool, quote)}`,
      exitCode: EXIT.FOUND,
    });
  }
  return out;
}
