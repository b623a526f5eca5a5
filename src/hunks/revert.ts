/**
 * Reverting one hunk in the working tree, byte-exactly: the hunk's working-tree lines are
 * replaced by its baseline lines (git-diff(1) unified format: ' ' lines are on both sides,
 * '-' only on the baseline side, '+' only on the working-tree side; `\ No newline at end of
 * file` marks that the line before it has no '\n'). Nothing outside the hunk changes.
 * Planning is pure (bytes in, bytes out); {@link commitPlan} does the one write. A symbolic
 * link is reverted as a link (its target is its content), never written through, and
 * nothing is written below a parent directory that is a link.
 *
 * Whole-file hunks also put the user's index entry for the path back where the listing
 * needs it ({@link IndexFix}), so that a reverted hunk does not come back: a file deleted
 * from the index (`git rm`, the old side of `git mv`) is tracked again, a staged addition or
 * an intent-to-add entry (`git add -N`) is removed (git-update-index(1) `--index-info`).
 *
 * A hunk of a modified file (lines, a binary file, a link's target, the executable bit) is
 * reverted in the index too when the index holds a change there ({@link StagedFix}), so that
 * the next `git commit` does not carry the rejected change: like `git restore --staged
 * --worktree -p` for that hunk, but byte-exact on the staged blob and decided by the changed
 * lines of the index's own diff against the baseline (`git diff --cached <baseline>`).
 */
import { chmod, lstat, readFile, readlink, unlink, mkdir } from 'node:fs/promises';
import { symlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import { quoteCStyle } from '../git/quote.js';
import { git } from '../git/run.js';
import { shellQuote } from '../words.js';
import { replaceWithSync, writeFileAtomic } from '../files.js';
import { DIFF_ARGS, parseDiff } from '../git/diff.js';
import { hunkDetail, hunkRange, shortId, hunkSpot, submoduleWords, type Hunk, type HunkDetail } from './listing.js';
import type { IndexEntry, SavedFile } from './saved-reverts.js';
import { pathProblem, unsafePathError } from '../git/verify-path.js';

/**
 * The bytes of one side of a hunk: 'old' takes ' ' and '-' lines, 'new' takes ' ' and '+'
 * lines; each line gets a '\n' unless the next body line is a `\` (no newline) marker.
 */
export function sideBytes(raw: Buffer[], side: 'old' | 'new'): Buffer {
  const skip = side === 'old' ? 0x2b : 0x2d;
  const parts: Buffer[] = [];
  for (let i = 0; i < raw.length; i++) {
    const o = raw[i][0];
    if (o === 0x5c || o === skip) continue;
    parts.push(raw[i].subarray(1));
    if (raw[i + 1]?.[0] !== 0x5c) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** Byte offset where 1-based line `n` starts in `buf` (buf.length past the last line). */
function lineOffset(buf: Buffer, n: number): number {
  let pos = 0;
  for (let k = 1; k < n; k++) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) return buf.length + (k < n ? 1 : 0);
    pos = nl + 1;
  }
  return pos;
}

/**
 * `buf` (the working-tree file) with hunk `h` reverted: its working-tree-side lines, starting
 * at line `newStart` (after line `newStart` when `newCount` is 0), replaced by its
 * baseline-side lines.
 * @throws KizuError (exit 1) if the bytes at that place are not exactly the hunk's
 *   working-tree side (the file changed since the hunk was listed).
 */
export function revertBuffer(buf: Buffer, h: Hunk, raw: Buffer[]): Buffer {
  const first = h.newCount === 0 ? h.newStart + 1 : h.newStart;
  const at = lineOffset(buf, first);
  const want = sideBytes(raw, 'new');
  const endsWithoutNewline = want.length > 0 && want[want.length - 1] !== 0x0a;
  if (at > buf.length || !buf.subarray(at, at + want.length).equals(want) || (endsWithoutNewline && at + want.length !== buf.length)) {
    throw changedError(h);
  }
  return Buffer.concat([buf.subarray(0, at), sideBytes(raw, 'old'), buf.subarray(at + want.length)]);
}

/**
 * `git restore` of `p` from `oid`, for a hint: the path inline when git would print it as is,
 * else `<path>` and the path in git's quoted form (git does not unquote its arguments).
 */
function restoreCommand(oid: string, p: string): string {
  const q = quoteCStyle(p);
  return q === p ? `git restore --source=${oid} -- ${p}` : `git restore --source=${oid} -- <path> (the path ${q})`;
}

function changedError(h: Hunk): KizuError {
  return new KizuError(`${quoteCStyle(h.path)} changed since hunk ${shortId(h)} was listed; nothing was reverted`, {
    hint: 'list the hunks again with git kizu hunks and use the new id',
    exitCode: EXIT.FOUND,
  });
}

/**
 * The current state of a working-tree path, as a saved revert holds it (a symbolic link is
 * read as a link, never followed).
 * @throws KizuError (exit 2) if a directory or special file stands there, or a parent
 *   directory inside the working tree is a symbolic link or a file (checkParents: what is
 *   read here is what gets written, and no write goes through a link).
 */
export async function readPathState(abs: string, rel: string): Promise<SavedFile> {
  await checkParents(abs, rel);
  let st;
  try {
    st = await lstat(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return { path: rel, type: 'absent', content: null, mode: null };
    }
    throw e;
  }
  if (st.isSymbolicLink()) return { path: rel, type: 'symlink', content: Buffer.from(await readlink(abs, { encoding: 'buffer' })), mode: null };
  if (!st.isFile()) {
    throw new KizuError(`${quoteCStyle(rel)}: not a regular file (a directory or special file stands there)`, { hint: 'move it away first' });
  }
  return { path: rel, type: 'file', content: await readFile(abs), mode: st.mode & 0o7777 };
}

/** True if two states are the same (type, bytes and mode). */
export function sameState(a: SavedFile, b: SavedFile): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'absent') return true;
  return a.content!.equals(b.content!) && (a.type !== 'file' || a.mode === b.mode);
}

/** A revert computed in memory: what the path holds now and what it will hold. */
export interface RevertPlan {
  hunk: Hunk;
  /** Absolute path of the file. */
  abs: string;
  /** The path's state as read (verified to be what the hunk was listed from). */
  before: SavedFile;
  /** The path's state after the revert ('absent': the file is removed). */
  after: SavedFile;
  /** Working-tree line of the reverted spot (1-based; see hunkSpot); null when the file goes away or the path holds a symbolic link after the revert (no lines). */
  spot: number | null;
  /** What happens to the user's index entry for the path (null: nothing). */
  index: IndexFix | null;
  /** For a hunk of a modified file whose change the index holds too: its index entry reverted as well (null: the index keeps what it has). */
  stagedFix: StagedFix | null;
}

/**
 * The revert of a modified file's hunk in the user's index: the stage-0 entry goes from
 * `before` to `after` (same path). `how` says what the index held at the hunk's lines:
 * - `same`: the hunk's change as the working tree has it (staged with `git add`): those lines
 *   go back to the baseline there too; every other staged change of the file stays, byte-exact;
 * - `other`: a different change at those lines (staged, then edited again, or staged in part):
 *   the index's changed lines that overlap the hunk's go back to the baseline too, so that no
 *   version of the rejected change is committed; the staged blob is saved with the revert.
 */
export interface StagedFix {
  before: IndexEntry;
  after: IndexEntry;
  how: 'same' | 'other';
}

/**
 * A change to the user's index entry for a reverted hunk's path, so that the listing (the
 * working tree against the baseline, the index saying which paths are tracked) no longer
 * shows the hunk:
 * - `track`: a deleted file whose index entry is gone (`git rm`, `git mv`, `git rm --cached`)
 *   is tracked again with the entry HEAD has for it (the baseline's when HEAD has none):
 *   the staged deletion is undone;
 * - `untrack`: an added file that HEAD does not have (a staged addition, `git add -N`) leaves
 *   the index: the staged addition is undone. `staged` is the staged version when it differs
 *   from the working-tree file and is not empty (saved before it goes), else null;
 *   `intentToAdd` is true for an intent-to-add entry, which an undo puts back as one.
 */
export type IndexFix =
  | { op: 'track'; mode: string; oid: string }
  | { op: 'untrack'; mode: string; oid: string; staged: SavedFile | null; intentToAdd: boolean };

/** The stage-0 index entry of `rel` (`git ls-files -s`), null if there is none; 'conflict' while it is unmerged. */
export async function indexEntry(root: string, rel: string): Promise<{ mode: string; oid: string } | null | 'conflict'> {
  const r = await git(['ls-files', '-s', '-z', '--', `:(literal)${rel}`], { cwd: root });
  let found: { mode: string; oid: string } | null = null;
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    const m = /^(\d+) ([0-9a-f]+) (\d)\t([\s\S]*)$/.exec(rec);
    if (!m || m[4] !== rel) continue;
    if (m[3] !== '0') return 'conflict';
    found = { mode: m[1], oid: m[2] };
  }
  return found;
}

/**
 * True if the stage-0 index entry of `rel` is an intent-to-add entry (`git add -N`): `git
 * status --porcelain=v2` prints such an entry with index mode 000000 (git-status(1)
 * "Changed Tracked Entries": `1 <XY> <sub> <mH> <mI> <mW> ...`), a real entry never.
 */
async function isIntentToAdd(root: string, rel: string): Promise<boolean> {
  const r = await git(['status', '--porcelain=v2', '-z', '--untracked-files=no', '--ignore-submodules=all', '--', `:(literal)${rel}`], { cwd: root });
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    const m = /^1 \S\S \S+ (\d+) (\d+) \d+ [0-9a-f]+ [0-9a-f]+ ([\s\S]*)$/.exec(rec);
    if (m && m[3] === rel && m[2] === '000000') return true;
  }
  return false;
}

/** The entry HEAD's tree has for `rel` (`git ls-tree`), null if none (or no HEAD commit). */
async function headEntry(root: string, rel: string): Promise<{ mode: string; oid: string } | null> {
  const r = await git(['ls-tree', '-z', 'HEAD', '--', rel], { cwd: root, okStatus: [0, 128], env: { GIT_LITERAL_PATHSPECS: '1' } });
  if (r.status !== 0) return null;
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]+)\t([\s\S]*)$/.exec(rec);
    if (m && m[3] === rel) return { mode: m[1], oid: m[2] };
  }
  return null;
}

/** The index fix a whole-file hunk needs (see {@link IndexFix}), or null. */
async function planIndexFix(root: string, h: Hunk, d: HunkDetail): Promise<IndexFix | null> {
  if (h.kind !== 'deleted' && h.kind !== 'added') return null;
  const [entry, head] = await Promise.all([indexEntry(root, h.path), headEntry(root, h.path)]);
  if (entry === 'conflict') return null;
  if (h.kind === 'deleted') {
    if (entry) return null;
    return { op: 'track', ...(head ?? { mode: d.oldMode, oid: d.oldOid }) };
  }
  if (!entry || head) return null;
  const intentToAdd = await isIntentToAdd(root, h.path);
  if (intentToAdd || entry.oid === d.newOid) return { op: 'untrack', ...entry, staged: null, intentToAdd };
  const content = (await git(['cat-file', 'blob', entry.oid], { cwd: root })).stdout;
  if (!content.length) return { op: 'untrack', ...entry, staged: null, intentToAdd };
  if (entry.mode === '120000') return { op: 'untrack', ...entry, staged: { path: h.path, type: 'symlink', content, mode: null }, intentToAdd };
  return { op: 'untrack', ...entry, staged: { path: h.path, type: 'file', content, mode: gitModeBits(entry.mode) }, intentToAdd };
}

/**
 * Applies a plan's index fix to the user's index (`git update-index -z --index-info`; git
 * takes the index lock), or with `undo` puts the entry back exactly as it was: an
 * intent-to-add entry as intent-to-add again (`git add --intent-to-add --force`, which needs
 * the working-tree file back first; `--index-info` cannot set that flag). Nothing when the
 * plan has none.
 * @throws KizuError (exit 2) if git fails (e.g. another git process holds the index lock);
 *   the message says what state the working tree is in and the hint how to finish.
 */
export async function applyIndexFix(root: string, plan: RevertPlan, undo = false): Promise<void> {
  const f = plan.index;
  if (!f) return;
  const zero = '0'.repeat(f.oid.length);
  const add = (f.op === 'track') !== undo;
  const line = add ? `${f.mode} ${f.oid}\t${plan.hunk.path}\0` : `0 ${zero}\t${plan.hunk.path}\0`;
  const ita = undo && f.op === 'untrack' && f.intentToAdd;
  try {
    if (ita) await git(['add', '--intent-to-add', '--force', '--', `:(literal)${plan.hunk.path}`], { cwd: root });
    else await git(['update-index', '-z', '--index-info'], { cwd: root, input: line });
  } catch (e) {
    const q = quoteCStyle(plan.hunk.path);
    const fix = ita ? `git add --intent-to-add -- ${q}` : add ? `git update-index --add --cacheinfo ${f.mode},${f.oid},${q}` : `git rm --cached -- ${q}`;
    const state = undo ? 'the revert is undone in the working tree, but the index entry could not be put back' : 'the working tree is reverted, but the index could not be updated';
    throw new KizuError(`${q}: ${state}: ${(e as Error).message.split('\n')[0]}`, {
      hint: `finish it with: ${fix}`,
    });
  }
}

/**
 * One changed stretch of a hunk: a run of '-' and '+' lines (with their `\` markers) between
 * context lines. `oldFrom`/`newFrom` are the 1-based lines where it starts on each side (for
 * a side with no lines, the line it sits before); `oldLen`/`newLen` its line counts there.
 */
interface Block {
  oldFrom: number;
  oldLen: number;
  newFrom: number;
  newLen: number;
  raw: Buffer[];
}

/** The changed stretches of a hunk (header numbers as git printed them, body lines `raw`). */
function changedBlocks(h: { oldStart: number; oldCount: number; newStart: number; newCount: number }, raw: Buffer[]): Block[] {
  const out: Block[] = [];
  let o = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
  let n = h.newCount === 0 ? h.newStart + 1 : h.newStart;
  let cur: Block | null = null;
  for (const line of raw) {
    const k = line[0];
    if (k === 0x5c) {
      cur?.raw.push(line);
      continue;
    }
    if (k !== 0x2d && k !== 0x2b) {
      cur = null;
      o++;
      n++;
      continue;
    }
    if (!cur) out.push((cur = { oldFrom: o, oldLen: 0, newFrom: n, newLen: 0, raw: [] }));
    cur.raw.push(line);
    if (k === 0x2d) {
      cur.oldLen++;
      o++;
    } else {
      cur.newLen++;
      n++;
    }
  }
  return out;
}

/**
 * True if two blocks (of two diffs against the same baseline) touch the same baseline lines:
 * they share a line, or one only inserts lines and does so inside or at an edge of the other
 * (or at the same place). Two blocks that only border each other do not overlap.
 */
function overlaps(a: Block, b: Block): boolean {
  const a1 = 2 * (a.oldFrom - 1);
  const a2 = a1 + 2 * a.oldLen;
  const b1 = 2 * (b.oldFrom - 1);
  const b2 = b1 + 2 * b.oldLen;
  if (a1 < b2 && b1 < a2) return true;
  return (a1 === a2 || b1 === b2) && a1 <= b2 && b1 <= a2;
}

/** True if two blocks make the same change at the same baseline lines. */
function sameBlock(a: Block, b: Block): boolean {
  return a.oldFrom === b.oldFrom && a.oldLen === b.oldLen && sideBytes(a.raw, 'old').equals(sideBytes(b.raw, 'old')) && sideBytes(a.raw, 'new').equals(sideBytes(b.raw, 'new'));
}

/**
 * `buf` (an index blob) with `blocks` (of its own diff against the baseline) put back to
 * their baseline lines, the last first so that the line numbers of the others still hold.
 * @throws KizuError (exit 2) if a block's lines are not where its diff says (a bug).
 */
function revertBlocks(buf: Buffer, blocks: Block[], rel: string): Buffer {
  for (const b of [...blocks].sort((x, y) => y.newFrom - x.newFrom)) {
    const at = lineOffset(buf, b.newFrom);
    const want = sideBytes(b.raw, 'new');
    if (at > buf.length || !buf.subarray(at, at + want.length).equals(want)) {
      throw new KizuError(`${quoteCStyle(rel)}: the staged version does not match its own diff; nothing was reverted`, { hint: 'this is a bug in git-kizu; unstage the file (git restore --staged) and revert again' });
    }
    buf = Buffer.concat([buf.subarray(0, at), sideBytes(b.raw, 'old'), buf.subarray(at + want.length)]);
  }
  return buf;
}

/**
 * What reverting a modified file's hunk does to its index entry (see {@link StagedFix}), or
 * null when the index holds no change there (nothing staged: the entry is HEAD's; or no
 * stage-0 entry: a conflict is refused
 * before, a path out of the index is the listing's business). Reads the index and the
 * baseline and writes the new blob into the object store (`git hash-object -w`); the index
 * itself is not touched.
 * - mode hunk: the entry's executable bit goes back when the index has the working tree's;
 * - a binary file or a symbolic link (the hunk is the whole content): an entry that differs
 *   from the baseline gets the baseline's blob;
 * - lines: the index's changed stretches (its diff against the baseline) that overlap the
 *   hunk's go back to the baseline lines, the rest of the staged blob stays byte-exact.
 * @throws KizuError (exit 2) when the index holds a file where the baseline has a symbolic
 *   link or the other way (a staged type change): the hint says to unstage it first.
 */
async function planStagedFix(root: string, h: Hunk, d: HunkDetail, baselineOid: string): Promise<StagedFix | null> {
  const [entry, head] = await Promise.all([indexEntry(root, h.path), headEntry(root, h.path)]);
  if (!entry || entry === 'conflict') return null;
  // Nothing staged (the index has what HEAD has): also where the baseline is an older
  // commit, whose later changes in HEAD are not the user's to unstage.
  if (head && head.mode === entry.mode && head.oid === entry.oid) return null;
  if (h.kind === 'mode') {
    return entry.mode === d.newMode && entry.mode !== d.oldMode ? { before: entry, after: { mode: d.oldMode, oid: entry.oid }, how: 'same' } : null;
  }
  if (entry.oid === d.oldOid) return null;
  if ((entry.mode === '120000') !== (d.oldMode === '120000')) {
    const q = quoteCStyle(h.path);
    const w = q === h.path ? shellQuote(h.path) : `<path> (the path ${q})`;
    throw new KizuError(`${q}: the index holds a ${entry.mode === '120000' ? 'symbolic link' : 'file'} there (a staged type change), which git kizu does not revert with a hunk; nothing was reverted`, {
      hint: `unstage it first with git restore --staged -- ${w}, then revert the hunk again`,
    });
  }
  const whole = (how: StagedFix['how']): StagedFix => ({ before: entry, after: { mode: entry.mode, oid: d.oldOid }, how });
  if (d.binary || d.newMode === '120000') return whole(entry.oid === d.newOid ? 'same' : 'other');
  const r = await git([...DIFF_ARGS, '--cached', baselineOid, '--', `:(literal)${h.path}`], { cwd: root });
  const f = parseDiff(r.stdout).find((x) => x.path === h.path);
  if (!f || f.status !== 'modified') return null;
  if (f.binary) return whole('other');
  const mine = changedBlocks(h, d.raw);
  const theirs = f.hunks.flatMap((x) => changedBlocks(x, x.raw)).filter((b) => mine.some((m) => overlaps(m, b)));
  if (!theirs.length) return null;
  const how = theirs.every((b) => mine.some((m) => sameBlock(m, b))) ? 'same' : 'other';
  const staged = await blobBytes(root, entry.oid);
  const oid = (await git(['hash-object', '-w', '--no-filters', '--stdin'], { cwd: root, input: revertBlocks(staged, theirs, h.path) })).stdout.toString('utf8').trim();
  return { before: entry, after: { mode: entry.mode, oid }, how };
}

/**
 * Applies a plan's {@link StagedFix} to the user's index (`git update-index -z --index-info`,
 * which takes the index lock), or with `undo` puts the entry back as it was. Checks first
 * that the entry still is what the plan read (for `undo`: what it wrote). Nothing when the
 * plan has none.
 * @throws KizuError (exit 1) if the entry changed meanwhile (a `git add` in between), exit 2
 *   if git fails (e.g. another git process holds the index lock); the index is unchanged.
 */
export async function applyStagedFix(root: string, plan: RevertPlan, undo = false): Promise<void> {
  const f = plan.stagedFix;
  if (!f) return;
  const [from, to] = undo ? [f.after, f.before] : [f.before, f.after];
  await setIndexEntry(root, plan.hunk.path, from, to);
}

/**
 * Sets the stage-0 index entry of `rel` to `to` (null: removes it), if it is `from` now
 * (null: no entry; undefined: whatever it is). Nothing to do when it already is `to`.
 * @throws KizuError (exit 1) if the entry is neither `from` nor `to`, or unmerged; exit 2
 *   if git fails (e.g. another git process holds the index lock), the index unchanged.
 */
export async function setIndexEntry(root: string, rel: string, from: IndexEntry | null | undefined, to: IndexEntry | null): Promise<void> {
  const now = await indexEntry(root, rel);
  const same = (a: IndexEntry | null, b: IndexEntry | null) => (a === null ? b === null : b !== null && a.mode === b.mode && a.oid === b.oid);
  const q = quoteCStyle(rel);
  if (now === 'conflict' || (from !== undefined && !same(now, from) && !same(now, to))) {
    throw new KizuError(`${q}: its index entry changed meanwhile (staged again, or unmerged), so it was left as it is`, {
      hint: `look at it with git diff --cached -- ${q === rel ? shellQuote(rel) : '<path>'}, then run the command again`,
      exitCode: EXIT.FOUND,
    });
  }
  if (same(now, to)) return;
  const line = to ? `${to.mode} ${to.oid}\t${rel}\0` : `0 ${'0'.repeat((now ?? from ?? { oid: '0'.repeat(40) }).oid.length)}\t${rel}\0`;
  try {
    await git(['update-index', '-z', '--index-info'], { cwd: root, input: line });
  } catch (e) {
    throw new KizuError(`${q}: its index entry could not be set: ${(e as Error).message.split('\n')[0]}`, {
      hint: 'if another git command is running, let it finish (a crashed one leaves index.lock in the git directory: remove that file), then run the command again',
    });
  }
}

async function gitHash(root: string, buf: Buffer, rel?: string): Promise<string> {
  const args = rel === undefined ? ['hash-object', '--no-filters', '--stdin'] : ['hash-object', `--path=${rel}`, '--stdin'];
  return (await git(args, { cwd: root, input: buf })).stdout.toString('utf8').trim();
}

/**
 * Checks that `buf` is exactly the working-tree content git diffed (object id `newOid`).
 * @throws KizuError exit 1 if the file changed; exit 2 if git converts this file when
 *   reading it (core.autocrlf, .gitattributes text/eol, clean filters), because then the
 *   diff's bytes are not the file's bytes and a byte-exact revert is impossible.
 */
async function verifyOid(root: string, h: Hunk, d: HunkDetail, buf: Buffer, baselineOid: string): Promise<void> {
  if (!d.newOid || /^0+$/.test(d.newOid)) return;
  if ((await gitHash(root, buf)) === d.newOid) return;
  if ((await gitHash(root, buf, h.path)) === d.newOid) {
    throw new KizuError(`${quoteCStyle(h.path)}: git converts this file when reading it (core.autocrlf, .gitattributes text/eol or a clean filter), so its hunks cannot be reverted byte-exactly`, {
      hint: `restore the whole file with ${restoreCommand(baselineOid, h.path)}, or edit it by hand`,
    });
  }
  throw changedError(h);
}

/** A blob's bytes as stored (a symbolic link's target: git checks it out unconverted). */
async function blobBytes(root: string, oid: string): Promise<Buffer> {
  return (await git(['cat-file', 'blob', oid], { cwd: root })).stdout;
}

/** The baseline blob as git would check it out at `rel` (smudge and eol conversion applied). */
async function baselineBytes(root: string, rel: string, oid: string): Promise<Buffer> {
  return (await git(['cat-file', '--filters', `--path=${rel}`, oid], { cwd: root })).stdout;
}

function gitModeBits(mode: string): number {
  return mode === '100755' ? 0o755 : 0o644;
}

/**
 * Computes the revert of `h` in memory (reads the file and the index, writes nothing).
 * - modified text file: the hunk's lines go back to the baseline ({@link revertBuffer});
 * - modified binary file: the whole file goes back to the baseline blob;
 * - mode change: the executable bit goes back (x set where r is, or cleared), the bytes stay;
 * - added or untracked file (its only hunk): the file is removed; a staged addition also
 *   leaves the index ({@link IndexFix});
 * - deleted file: restored from the baseline blob with its baseline mode (644 or 755); when
 *   its index entry is gone too, the entry comes back ({@link IndexFix}), and a file standing
 *   there untracked (`git rm --cached`) is kept as it is (its differences from the baseline
 *   are then ordinary hunks);
 * - symbolic link (git mode 120000): its one hunk is the whole target. A changed target goes
 *   back to the baseline's, an added link is removed (the link itself, never what it points
 *   to), a deleted link is created again (with its index entry as for files);
 * - type change (a file replaced by a link or the other way; git lists a deletion and an
 *   addition): reverting the addition removes the new one, reverting the deletion puts the
 *   baseline's file or link in place of what stands there (the caller saves that first);
 * - submodule: refused, a submodule is its own repository (the hint says what to run in it);
 * - conflict (unmerged index entries): refused, resolving is the user's choice (the hint
 *   names git's ways: edit and `git add`, `git checkout --ours/--theirs`, `git merge --abort`).
 * A modified file's hunk (lines, binary, link target, mode) whose change the index holds
 * too gets a `stagedFix` (see planStagedFix; its new blob is written to the object store).
 * @throws KizuError exit 1 if the path no longer holds what the hunk was listed from; exit 2
 *   for a path git-kizu must not write (git/verify-path.ts pathProblem: a forged baseline
 *   holding `..` or `.git` entries), submodules, conflicts, files git converts (see verifyOid), a staged type change
 *   (planStagedFix), or a hunk that did not come from listHunks.
 */
export async function planRevert(root: string, h: Hunk, baselineOid: string): Promise<RevertPlan> {
  const d = hunkDetail(h);
  if (!d) throw new KizuError(`hunk ${shortId(h)} has no diff detail`, { hint: 'this is a bug in git-kizu; hunks must come from listHunks' });
  // The baseline is a commit anything that writes the git dir can make (refs/kizu/baseline,
  // HEAD): a path git would never check out is not written back from it (git/verify-path.ts).
  const unsafe = pathProblem(h.path, { symlink: d.oldMode === '120000' });
  if (unsafe) {
    throw unsafePathError(`hunk ${shortId(h)} (against the baseline ${baselineOid.slice(0, 12)})`, h.path, unsafe, `git never checks out such a path, so the baseline commit was made by something else: see it with git ls-tree -r ${baselineOid}, and where it comes from with git kizu baseline show`);
  }
  if (h.kind === 'submodule') throw submoduleRefusal(h, d, baselineOid);
  if (h.kind === 'conflict') throw await conflictRefusal(root, h, d);
  const abs = path.join(root, ...h.path.split('/'));
  const before = await readPathState(abs, h.path);
  const absent: SavedFile = { path: h.path, type: 'absent', content: null, mode: null };
  if (h.kind === 'mode') {
    if (before.type !== 'file' || ((before.mode! & 0o100) !== 0) !== (d.newMode === '100755')) throw changedError(h);
    const bits = d.oldMode === '100755' ? before.mode! | ((before.mode! & 0o444) >> 2) : before.mode! & ~0o111;
    return { hunk: h, abs, before, after: { ...before, mode: bits }, spot: 1, index: null, stagedFix: await planStagedFix(root, h, d, baselineOid) };
  }
  if (h.kind === 'untracked') {
    const want = d.symlink ? 'symlink' : 'file';
    if (before.type !== want) throw changedError(h);
    if (d.contentSha !== undefined) {
      if (createHash('sha256').update(before.content!).digest('hex') !== d.contentSha) throw changedError(h);
    } else if (!before.content!.equals(sideBytes(d.raw, 'new'))) throw changedError(h);
    return { hunk: h, abs, before, after: absent, spot: null, index: null, stagedFix: null };
  }
  if (h.kind === 'deleted') {
    const index = await planIndexFix(root, h, d);
    // Deleted from the index only (`git rm --cached`): the file stays, it is tracked again.
    if (before.type !== 'absent' && index) return { hunk: h, abs, before, after: before, spot: hunkSpot(h), index, stagedFix: null };
    const link = d.oldMode === '120000';
    // A type change (git lists it as a deletion and an addition): the path holds the other
    // type, which the baseline's file or link replaces (saved first, like any revert).
    if (before.type !== 'absent' && before.type !== (link ? 'file' : 'symlink')) throw changedError(h);
    const after: SavedFile = link
      ? { path: h.path, type: 'symlink', content: await blobBytes(root, d.oldOid), mode: null }
      : { path: h.path, type: 'file', content: await baselineBytes(root, h.path, d.oldOid), mode: gitModeBits(d.oldMode) };
    return { hunk: h, abs, before, after, spot: link ? null : hunkSpot(h), index, stagedFix: null };
  }
  if (d.newMode === '120000') {
    // A link's hunk is its whole target: the link goes back to the baseline's, or goes.
    if (before.type !== 'symlink' || (await gitHash(root, before.content!)) !== d.newOid) throw changedError(h);
    if (h.kind === 'added') return { hunk: h, abs, before, after: absent, spot: null, index: await planIndexFix(root, h, d), stagedFix: null };
    return { hunk: h, abs, before, after: { path: h.path, type: 'symlink', content: await blobBytes(root, d.oldOid), mode: null }, spot: null, index: null, stagedFix: await planStagedFix(root, h, d, baselineOid) };
  }
  if (before.type !== 'file') throw changedError(h);
  await verifyOid(root, h, d, before.content!, baselineOid);
  if (h.kind === 'added') return { hunk: h, abs, before, after: absent, spot: null, index: await planIndexFix(root, h, d), stagedFix: null };
  const content = d.binary ? await baselineBytes(root, h.path, d.oldOid) : revertBuffer(before.content!, h, d.raw);
  return { hunk: h, abs, before, after: { ...before, content }, spot: hunkSpot(h), index: null, stagedFix: await planStagedFix(root, h, d, baselineOid) };
}

/**
 * The git operation whose conflict is in progress, with the command that gives it up: a
 * merge (MERGE_HEAD), cherry-pick (CHERRY_PICK_HEAD), revert (REVERT_HEAD) or rebase
 * (rebase-merge/ or rebase-apply/ in the git directory); null for none of these (e.g. a
 * conflict of `git stash pop` or `git checkout -m`).
 */
async function operationInProgress(root: string): Promise<{ name: string; abort: string } | null> {
  const has = async (ref: string) => (await git(['rev-parse', '-q', '--verify', ref], { cwd: root, okStatus: [0, 1, 128] })).status === 0;
  if (await has('MERGE_HEAD')) return { name: 'merge', abort: 'git merge --abort' };
  if (await has('CHERRY_PICK_HEAD')) return { name: 'cherry-pick', abort: 'git cherry-pick --abort' };
  if (await has('REVERT_HEAD')) return { name: 'revert', abort: 'git revert --abort' };
  const dirs = (await git(['rev-parse', '--path-format=absolute', '--git-path', 'rebase-merge', '--git-path', 'rebase-apply'], { cwd: root })).stdout.toString('utf8').split('\n');
  for (const dir of dirs.filter(Boolean)) {
    try {
      if ((await lstat(dir)).isDirectory()) return { name: 'rebase', abort: 'git rebase --abort' };
    } catch {
      /* not there */
    }
  }
  return null;
}

/**
 * The refusal to revert a conflict's hunk (git kizu never resolves a conflict, which would
 * pick a side for the user), with git's ways to resolve it: edit and `git add` (or `git rm`),
 * take one side (`git checkout --ours/--theirs`, where that side has the path), or give up the
 * operation in progress (`git merge --abort` ...).
 */
async function conflictRefusal(root: string, h: Hunk, d: HunkDetail): Promise<KizuError> {
  const c = d.conflict!;
  const q = quoteCStyle(h.path);
  const w = q === h.path ? shellQuote(h.path) : '<path>';
  const op = await operationInProgress(root);
  const steps = [`resolve it: edit ${w}, then git add -- ${w} (or git rm -- ${w} to delete it)`];
  const sides = [c.ours && `git checkout --ours -- ${w}`, c.theirs && `git checkout --theirs -- ${w}`].filter(Boolean);
  if (sides.length) steps.push(`or take one side: ${sides.join(', or ')}${op?.name === 'rebase' ? ' (in a rebase, --ours is the branch rebased onto)' : ''}, then git add -- ${w}`);
  if (op) steps.push(`or give up the whole ${op.name}: ${op.abort}`);
  return new KizuError(`${hunkRange(h, quoteCStyle)} is unmerged in the index; git kizu does not resolve conflicts, nothing was changed`, {
    hint: steps.join('\n') + (w === '<path>' ? `\n(<path> is ${q})` : ''),
  });
}

/** The refusal to revert a submodule's hunk, with what to run inside it instead. */
function submoduleRefusal(h: Hunk, d: HunkDetail, baselineOid: string): KizuError {
  const c = d.submodule!;
  const q = quoteCStyle(h.path);
  const dir = quoteCStyle(h.path) === h.path ? shellQuote(h.path) : '<path>';
  if (c.untracked) {
    return new KizuError(`${q} is an untracked nested repository: git kizu does not remove a repository; nothing was changed`, {
      hint: 'move it out of the working tree by hand, ignore it (.gitignore), or make it a submodule (git submodule add)',
    });
  }
  const steps: string[] = [];
  if (c.dirty) steps.push(`its working tree has changes of its own: look at them with git -C ${dir} status, and commit or stash them there (git kizu never discards work inside a submodule)`);
  if (c.old && c.new && c.old !== c.new) steps.push(`to go back to the recorded commit once its work is saved: git -C ${dir} checkout ${c.old.slice(0, 12)}`);
  if (!c.old) steps.push(`to drop the submodule once its work is saved elsewhere: git rm -- ${dir}`);
  if (!c.new) steps.push(`to bring it back: git restore --source=${baselineOid.slice(0, 12)} --staged --worktree -- ${dir} && git submodule update --init -- ${dir}`);
  return new KizuError(`${q} (${submoduleWords(c)}) is a submodule, its own repository: git kizu does not revert it; nothing was changed`, {
    hint: steps.join('\n') + (dir === '<path>' ? `\n(<path> is ${q})` : ''),
  });
}

/**
 * Refuses a path whose parent directories inside the working tree are not all real
 * directories (or missing, to be created): a symbolic link there (e.g. a directory replaced
 * by a link to elsewhere) would make the write land where the link points, outside the path.
 * @param abs absolute path; `rel` its root-relative form ('/'-separated), so that the
 *   working tree's own location (which may be reached through links) is not checked.
 * @throws KizuError (exit 2) naming the parent that is a link or not a directory.
 */
async function checkParents(abs: string, rel: string): Promise<void> {
  const parts = rel.split('/');
  const root = abs.slice(0, abs.length - path.join(...parts).length);
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    let st;
    try {
      st = await lstat(path.join(root, ...parts.slice(0, i)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    if (st.isDirectory()) continue;
    const what = st.isSymbolicLink() ? 'a symbolic link' : 'not a directory';
    throw new KizuError(`${quoteCStyle(rel)}: its parent ${quoteCStyle(dir)} is ${what}, and git kizu never writes through one; nothing was changed`, {
      hint: `move ${quoteCStyle(dir)} aside first (revert its own hunk, or rename it), then run the command again`,
    });
  }
}

/**
 * Writes a planned state to the path, once: re-reads the path first ({@link readPathState},
 * which refuses a path below a symbolic link) and refuses if it no longer matches `before`; a file is written atomically (temp file + rename) with `mode`
 * when given (an existing file's mode is kept otherwise), a symlink is created under a temp
 * name and renamed over, 'absent' unlinks. Missing parent directories are created.
 * @throws KizuError (exit 1) if the path changed since it was read; exit 2 from readPathState.
 */
export async function commitState(abs: string, before: SavedFile, after: SavedFile, onChanged: () => KizuError): Promise<void> {
  const now = await readPathState(abs, before.path);
  if (!sameState(now, before)) throw onChanged();
  if (sameState(now, after)) return;
  if (now.type === 'file' && after.type === 'file' && now.content!.equals(after.content!) && after.mode !== null) {
    await chmod(abs, after.mode); // the bits alone (a mode hunk): the bytes are not written again
    return;
  }
  if (after.type === 'absent') {
    if (now.type !== 'absent') await unlink(abs);
    return;
  }
  await mkdir(path.dirname(abs), { recursive: true });
  if (after.type === 'symlink') {
    replaceWithSync(abs, (tmp) => symlinkSync(after.content!, tmp));
    return;
  }
  if (now.type === 'symlink') await unlink(abs); // replace the link itself, not its target
  const keep = now.type === 'file' && now.mode === after.mode;
  await writeFileAtomic(abs, after.content!, keep || after.mode === null ? {} : { mode: after.mode });
}

/** {@link commitState} for a plan, with `after` possibly replaced (e.g. by the scarred bytes). */
export async function commitPlan(plan: RevertPlan, after: SavedFile = plan.after): Promise<void> {
  await commitState(plan.abs, plan.before, after, () => changedError(plan.hunk));
}
