/**
 * `git kizu revert <hunk> [-m <reason> [--kind k] [--queue]]` and
 * `git kizu revert --restore <trash-id>`.
 */
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { shellQuote } from '../words.js';
import { repoContext } from './context.js';
import { git } from '../git/run.js';
import { KINDS } from '../scars/format.js';
import { recordRewrite, scarIntoBuffer, withScarWrite } from '../scars/insert.js';
import { withWorkTreeLock } from '../git/lock.js';
import { listHunks, resolveHunks, shortId, hunkRange, type Hunk } from '../hunks/listing.js';
import { planRevert, commitPlan, commitState, readPathState, sameState, applyIndexFix, applyStagedFix, indexEntry, setIndexEntry, type RevertPlan } from '../hunks/revert.js';
import { saveRevert, readSavedRevert, listSavedReverts, type SavedRevert, type SavedFile, type IndexEntry } from '../hunks/saved-reverts.js';
import { REVERTS_REF } from '../git/layout.js';
import { normaliseHunkSpec } from './hunks.js';
import { quoteCStyle, type PathQuote } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';

export interface RevertCommandInput {
  cwd: string;
  /** Hunk spec: id prefix, `path:line` (relative to cwd), or a path with one hunk. */
  hunk?: string;
  /** Reason: writes a scar (or with `queue` a queue item) `reverted: <reason>`. */
  message?: string;
  /** Scar / queue item kind (default reject); needs `message`. */
  kind?: string;
  /** File the reason in the review queue instead of a scar. */
  queue?: boolean;
  /** Saved revert (commit id, the "trash id") to restore instead of reverting. */
  restore?: string;
  /** List the saved reverts that are kept (`--list`) instead of reverting. */
  list?: boolean;
  /**
   * Who reverts: null for the reviewer; `agent:<name>` inside an agent's session. The scar
   * or queue item of `message` is recorded as theirs (provenance/ledger.ts): an agent's is
   * shown to agents as quoted data, never as the reviewer's.
   */
  by: string | null;
  reporter: Reporter;
}

/**
 * `p` as a word of a shell command in a message: shell-quoted, or, when it holds a character
 * git quotes in paths (a tab, a newline...), which must not reach the terminal raw,
 * `<path>` followed by the path in git's quoted form.
 */
function shellWord(p: string, q: PathQuote): string {
  return quoteCStyle(p) === p ? shellQuote(p) : `<path> (the path ${q(p)})`;
}

/**
 * Lines telling how to get a saved revert back: `git kizu revert --restore <id>`, and for a
 * regular file the plain git commands that do the same (content, then the exact mode bits).
 */
function restoreHint(root: string, t: SavedRevert, what: string): string[] {
  const id = t.commit.slice(0, 12);
  const q = pathQuoter(root);
  const lines =
    t.type === 'absent'
      ? [`${q(t.path)} did not exist before ${what}; git kizu revert --restore ${id} removes it again${t.index === undefined ? '' : ' and puts its index entry back'}`]
      : t.index === undefined
        ? [`saved the previous ${q(t.path)} in ${REVERTS_REF}; restore it with: git kizu revert --restore ${id}`]
        : [`saved the previous ${q(t.path)} and its index entry in ${REVERTS_REF}; restore both with: git kizu revert --restore ${id}`];
  // The path is root-relative: `git -C <root> ...` would not apply to the redirection, so
  // name the file absolutely.
  if (t.type === 'file') {
    // A path git would quote is written `<path>` in the command and named once after it.
    const abs = path.join(root, t.path);
    const plain = quoteCStyle(abs) === abs;
    const file = plain ? shellQuote(abs) : '<path>';
    const chmod = t.mode === null ? '' : ` && chmod ${(t.mode & 0o7777).toString(8).padStart(3, '0')} ${file}`;
    lines.push(`  (or: git cat-file -p ${t.blob} > ${file}${chmod}${plain ? '' : `, <path> being ${q(abs)}`})`);
  }
  if (t.index !== undefined) lines.push(`  (${t.type === 'file' ? 'and ' : ''}the index entry alone: ${indexCommand(root, t.path, t.index, q)})`);
  return lines;
}

/**
 * The plain git command that sets the index entry of `rel` to `e` (`git update-index
 * --cacheinfo`), or removes it (null: `git rm --cached`), run from anywhere (`git -C <root>`);
 * a root or path git would quote is written `<root>` / `<path>` and named after it.
 */
function indexCommand(root: string, rel: string, e: IndexEntry | null, q: PathQuote): string {
  const plainRoot = quoteCStyle(root) === root;
  const plainPath = quoteCStyle(rel) === rel;
  const r = plainRoot ? shellQuote(root) : '<root>';
  const p = plainPath ? shellQuote(rel) : '<path>';
  const cmd = e ? `git -C ${r} update-index --add --cacheinfo ${e.mode},${e.oid},${p}` : `git -C ${r} rm --cached -q -- ${p}`;
  const named = [plainRoot ? '' : `<root> being ${quoteCStyle(root)}`, plainPath ? '' : `<path> being ${q(rel)}`].filter(Boolean);
  return cmd + (named.length ? `, ${named.join(', ')}` : '');
}

/** The line saying what a revert did in the index for a hunk of a modified file, or null. */
function stagedLine(plan: RevertPlan, q: PathQuote): string | null {
  const f = plan.stagedFix;
  if (!f) return null;
  const range = hunkRange(plan.hunk, q);
  if (f.how === 'same') return `reverted ${range} in the index too: the change was staged (any other staged change of ${q(plan.hunk.path)} stays staged)`;
  return `reverted ${range} in the index too: the index held a different version of those lines, which is undone as well (the staged ${q(plan.hunk.path)} is saved below)`;
}


/**
 * Reverts one hunk in the working tree (see planRevert for each file kind), after saving
 * the file's current content to refs/kizu/reverts. With `message`, the revert and a scar
 * `reverted: <reason>` above the reverted spot (kind default reject) are computed in memory
 * and written in one atomic write: both or neither (listing, planning, the write and the
 * scar record under the scars lock, withScarWrite). With `queue`, the reason goes to the
 * review queue as an item anchored at the reverted spot instead (no anchor when the file is
 * removed); if filing it fails, the revert is undone. A whole-file hunk also puts the path's
 * index entry back (hunks/revert.ts IndexFix: a staged deletion or addition is undone, a
 * staged version that differs from the file is saved first), so the hunk does not come back.
 * A hunk of a modified file whose change the index holds too (staged, or staged in another
 * version) is reverted in the index as well (hunks/revert.ts StagedFix; a scar goes to the
 * working tree only), the index entry saved with the file so that `--restore` puts both
 * back; if the index cannot be updated, the working tree is put back and nothing is reverted.
 * Prints `reverted <shortId>  <range>`, then `scarred ...` / `queued <id> ...`, then what
 * happened in the index (`reverted <range> in the index too: ...`, `tracked <path> again in
 * the index: ...`, `removed <path> from the index: ...`, `saved the staged <path> ...`), then
 * how to restore the saved content (none when the file itself did not change).
 * @returns 0.
 * @throws KizuError: exit 1 for an unknown or ambiguous hunk (candidates listed) or a file
 *   that changed since the hunk was listed; exit 2 for bad input (missing hunk, kind or
 *   queue without -m, empty reason), a scar that cannot be written (nothing changed; the
 *   hint names --queue), -m for a hunk whose revert removes the file or leaves a symbolic
 *   link, a refs/kizu/baseline outside HEAD's history (hunks/baseline.ts
 *   baselineOutsideHead: nothing written), and the refusals of planRevert.
 */
export async function revertCommand(i: RevertCommandInput): Promise<number> {
  if (i.list) {
    if (i.hunk || i.message !== undefined || i.queue || i.kind || i.restore !== undefined) {
      throw new KizuError('--list takes no other argument', { hint: 'run git kizu revert --list alone' });
    }
    return listCommand(i.cwd, i.reporter);
  }
  if (i.restore !== undefined) {
    if (i.hunk || i.message !== undefined || i.queue || i.kind) {
      throw new KizuError('--restore takes only the trash id', { hint: 'run git kizu revert --restore <id> alone' });
    }
    return restoreCommand(i.cwd, i.restore, i.reporter);
  }
  if (!i.hunk) throw new KizuError('missing <hunk>', { hint: 'name a hunk by id or path:line; git kizu hunks lists them' });
  if (i.message === undefined && (i.kind || i.queue)) {
    throw new KizuError(`${i.queue ? '--queue' : '--kind'} needs a reason (-m)`, { hint: `e.g. git kizu revert ${i.hunk} -m "<why>"${i.queue ? ' --queue' : ''}` });
  }
  const kind = i.kind ?? 'reject';
  if (!(KINDS as readonly string[]).includes(kind)) throw new KizuError(`unknown kind "${kind}"`, { hint: `use one of: ${KINDS.join(', ')}` });
  if (i.message !== undefined && i.message.replace(/\s+/g, '') === '') {
    throw new KizuError('the reason is empty', { hint: 'give a reason with -m "<text>"' });
  }
  const ctx = await repoContext(i.cwd);
  const body = i.message !== undefined ? `reverted: ${i.message}` : '';
  // Lists, plans and writes the revert (and with -m its scar) in one go, under the
  // working-tree write lock (with a scar: withScarWrite, which takes it), so that a concurrent
  // scar, unscar, patch apply or rollback patch waits for it and it waits for them.
  const revert = async () => {
    const { baseline, hunks } = await listHunks(ctx.root);
    // A baseline outside HEAD's history (moved with update-ref) would write its content into
    // the file as "what the agent removed": refuse before the first write (#86).
    const { baselineOutsideHead, baselineMovedText, BASELINE_MOVED_FIX } = await import('../hunks/baseline.js');
    if (await baselineOutsideHead(ctx.root, baseline)) {
      throw new KizuError(`${baselineMovedText(baseline.oid)}; nothing was reverted`, { hint: `check it (git log -1 -p ${baseline.oid.slice(0, 12)}), then: ${BASELINE_MOVED_FIX}` });
    }
    const pq = pathQuoter(ctx.root);
    const [h] = resolveHunks([normaliseHunkSpec(ctx.root, i.cwd, i.hunk!, hunks)], hunks, pq);
    const plan = await planRevert(ctx.root, h, baseline.oid);
    const queueHint = `revert and file the reason in the review queue instead: git kizu revert ${shortId(h)} -m ${shellQuote(i.message ?? '<reason>')} --queue`;
    let after: SavedFile = plan.after;
    let scar: { line: number; text: string } | null = null;
    if (i.message !== undefined && !i.queue) {
      if (after.type === 'absent') {
        throw new KizuError(`reverting ${hunkRange(h, pq)} removes ${pq(h.path)}, so there is no file left to hold a scar; nothing was reverted`, { hint: queueHint });
      }
      if (after.type === 'symlink') {
        throw new KizuError(`reverting ${hunkRange(h, pq)} leaves a symbolic link at ${pq(h.path)}, which cannot hold a scar; nothing was reverted`, { hint: queueHint });
      }
      try {
        const e = await scarIntoBuffer({ rel: h.path, buf: after.content!, line: plan.spot ?? 1, gitLines: true, kind, body, syntaxOverrides: ctx.config.scar.syntax });
        if (e.warning) i.reporter.warn(e.warning);
        after = { ...after, content: e.buf };
        scar = { line: e.scarLine, text: e.text };
      } catch (e) {
        if (!(e instanceof KizuError)) throw e;
        throw new KizuError(`cannot write the scar, so nothing was reverted: ${e.message}`, { hint: queueHint });
      }
    }
    // Nothing to save when the file stays as it is (only its index entry comes back).
    const staged = plan.index?.op === 'untrack' && plan.index.staged ? await saveRevert(ctx.root, plan.index.staged, `revert ${h.id} (staged version)`) : null;
    // A staged change reverted too: the index entry is saved with the file.
    const saved =
      sameState(plan.before, after) && !plan.stagedFix ? null : await saveRevert(ctx.root, plan.stagedFix ? { ...plan.before, index: plan.stagedFix.before } : plan.before, `revert ${h.id}`);
    await commitPlan(plan, after);
    try {
      await applyStagedFix(ctx.root, plan);
    } catch (e) {
      // The index could not follow: the working tree goes back too, nothing is reverted.
      await commitState(plan.abs, after, plan.before, () => new KizuError(`${pathQuoter(ctx.root)(h.path)} changed while its revert was undone`, saved ? { hint: restoreHint(ctx.root, saved, 'the revert').join('\n') } : {}));
      if (!(e instanceof KizuError)) throw e;
      throw new KizuError(`${e.message}; the working tree is put back, nothing was reverted`, { hint: e.hint, exitCode: e.exitCode });
    }
    await applyIndexFix(ctx.root, plan);
    // A type change (a file replaced by a link or the other way) is a deletion and an addition.
    const typeChange = hunks.some((x) => x.path === h.path && x.kind === 'deleted');
    return { h, plan, after, scar, saved, staged, typeChange };
  };
  const { h, plan, after, scar, saved, staged, typeChange } =
    i.message !== undefined && !i.queue
      ? await withScarWrite(ctx.gitDir, i.by, async () => {
          const r = await revert();
          return { result: r, scar: r.scar && { rel: r.h.path, line: r.scar.line, text: r.scar.text, time: new Date().toISOString() } };
        })
      : await withWorkTreeLock(ctx.gitDir, async () => {
          const r = await revert();
          // For the scar and unscar runs waiting for the lock: which lines moved (scars/insert.ts lineSince).
          if (r.plan.before.type === 'file' && r.after.type === 'file') {
            await recordRewrite(ctx.gitDir, r.h.path, r.h.path, r.plan.before.content!, r.after.content!).catch(() => {});
          }
          return r;
        });
  let queued: string | null = null;
  if (i.queue) {
    try {
      queued = await fileInQueue(ctx.root, ctx.gitDir, h, plan.spot, after, kind, body, i.by);
    } catch (e) {
      // Undo the revert: the path's old state, then its index entry exactly as it was
      // (after the file: an intent-to-add entry needs the file).
      try {
        await withWorkTreeLock(ctx.gitDir, () =>
          commitState(plan.abs, after, plan.before, () => new KizuError(`${pathQuoter(ctx.root)(h.path)} changed while the queue item was filed`, saved ? { hint: restoreHint(ctx.root, saved, 'the revert').join('\n') } : {})),
        );
      } finally {
        await applyIndexFix(ctx.root, plan, true);
        await applyStagedFix(ctx.root, plan, true);
      }
      throw e;
    }
  }
  const q = pathQuoter(ctx.root);
  i.reporter.log(`reverted ${shortId(h)}  ${hunkRange(h, q)}`);
  if (scar) i.reporter.log(`scarred ${q(h.path)}:${scar.line}  ${scar.text.trim()}`);
  if (queued) i.reporter.log(queued);
  const stagedText = stagedLine(plan, q);
  if (stagedText) i.reporter.log(stagedText);
  if (plan.index?.op === 'track') i.reporter.log(`tracked ${q(h.path)} again in the index: the staged deletion is undone`);
  if (plan.index?.op === 'untrack') i.reporter.log(`removed ${q(h.path)} from the index: the staged addition is undone`);
  if (staged) {
    i.reporter.log(`saved the staged ${q(h.path)} (it differed from the working-tree file) in ${REVERTS_REF}; restore it to the working tree with: git kizu revert --restore ${staged.commit.slice(0, 12)}`);
  }
  // The index entry of a type change's other side is the baseline's: right where it is.
  if (h.kind === 'added' && after.type === 'absent' && !plan.index && !typeChange) {
    const idx = await git(['ls-files', '-z', '--', `:(literal)${h.path}`], { cwd: ctx.root });
    if (idx.stdout.length) i.reporter.warn(`${q(h.path)} is still in the index; git rm --cached -- ${shellWord(h.path, q)} removes it there`);
  }
  if (saved) for (const l of restoreHint(ctx.root, saved, 'the revert')) i.reporter.log(l);
  return EXIT.OK;
}

/** Files `body` as a queue item (addItem); returns the line to print. */
async function fileInQueue(root: string, gitDir: string, h: Hunk, spot: number | null, after: SavedFile, kind: string, body: string, by: string | null): Promise<string> {
  const { addItem } = await import('../queue/edit.js');
  let at: string | undefined;
  let text = body;
  if (after.type === 'absent') text = `${body} (${h.path} removed)`;
  else if (after.type === 'symlink' || spot === null) text = `${body} (${h.path}: symbolic link)`;
  else {
    const lines = after.content!.length === 0 ? 0 : after.content!.toString('latin1').split('\n').length - (after.content![after.content!.length - 1] === 0x0a ? 1 : 0);
    at = `${h.path}:${Math.min(spot, Math.max(lines, 1))}`;
  }
  const item = await addItem(root, gitDir, root, { text, at, kind }, by);
  return `queued ${item.id}  ${at ?? h.path}  (${kind}) ${text}`;
}

/**
 * `git kizu revert --restore <trash-id>`: puts a saved revert back (the file's bytes and
 * mode, a symlink, or no file, and its index entry when one was saved with it: a revert of
 * a staged change), after saving what the path holds now (with its index entry in that
 * case) as a saved revert too; if the index cannot be set, the file is put back as it was.
 * Prints `restored <path> from <id>` and how to undo that, or
 * `unchanged: <path> already holds the saved content`.
 * @returns 0.
 * @throws KizuError exit 1 if `spec` is not a saved revert, or the path's index entry changed
 *   while it was restored; exit 2 for a saved path that is not a plain working-tree path, an
 *   unmerged path (with a saved index entry), or an index git cannot write (the file is then
 *   put back as it was).
 */
export async function restoreCommand(cwd: string, spec: string, reporter: Reporter): Promise<number> {
  const ctx = await repoContext(cwd);
  const t = await readSavedRevert(ctx.root, spec);
  // readSavedRevert refused a path git-kizu must not write (git/verify-path.ts).
  const abs = path.join(ctx.root, ...t.path.split('/'));
  const q = pathQuoter(ctx.root);
  // Read, saved and written under the working-tree write lock (git/lock.ts withWorkTreeLock).
  const saved = await withWorkTreeLock(ctx.gitDir, async () => {
    const now = await readPathState(abs, t.path);
    // A saved index entry comes back too (what the index holds now is saved with the file).
    const entry = t.index === undefined ? undefined : await indexEntry(ctx.root, t.path);
    if (entry === 'conflict') {
      throw new KizuError(`${q(t.path)} is unmerged in the index, so its saved index entry cannot be put back; nothing was written`, { hint: 'resolve the conflict first (edit, then git add), then restore again' });
    }
    const sameEntry = entry === undefined || (entry === null ? t.index === null : !!t.index && entry.mode === t.index.mode && entry.oid === t.index.oid);
    if (sameState(now, t) && sameEntry) return null;
    const s = await saveRevert(ctx.root, entry === undefined ? now : { ...now, index: entry }, `restore ${t.commit}`);
    await commitState(abs, now, t, () => new KizuError(`${q(t.path)} changed while it was being restored; nothing was written`, { hint: 'retry' }));
    if (entry !== undefined) {
      try {
        await setIndexEntry(ctx.root, t.path, entry, t.index as IndexEntry | null);
      } catch (e) {
        await commitState(abs, t, now, () => new KizuError(`${q(t.path)} changed while its restore was undone`, { hint: restoreHint(ctx.root, s, 'the restore').join('\n') }));
        if (!(e instanceof KizuError)) throw e;
        throw new KizuError(`${e.message}; the working tree is put back, nothing was restored`, { hint: e.hint, exitCode: e.exitCode });
      }
    }
    return s;
  });
  if (!saved) {
    reporter.log(`unchanged: ${q(t.path)} already holds the saved content${t.index === undefined ? '' : ', and its index entry the saved one'}`);
    return EXIT.OK;
  }
  reporter.log(`restored ${q(t.path)} from ${t.commit.slice(0, 12)}${t.index === undefined ? '' : ', and its index entry as it was'}`);
  for (const l of restoreHint(ctx.root, saved, 'the restore')) reporter.log(l);
  return EXIT.OK;
}

/**
 * `git kizu revert --list`: one line per saved revert that refs/kizu/reverts still holds,
 * newest first: `<id>  <path>  <reason>` (the id as revert printed it, 12 hex digits, which
 * `--restore` takes; the path git-quoted when needed; an `absent` entry's path followed by
 * `(no file)`), or `no saved reverts`.
 * @returns 0.
 * @throws KizuError exit 2 if refs/kizu/reverts is damaged.
 */
export async function listCommand(cwd: string, reporter: Reporter): Promise<number> {
  const ctx = await repoContext(cwd);
  const list = await listSavedReverts(ctx.root);
  if (!list.length) reporter.log('no saved reverts');
  const q = pathQuoter(ctx.root);
  for (const e of list) reporter.log(`${e.id.slice(0, 12)}  ${q(e.path)}${e.type === 'absent' ? ' (no file)' : ''}  ${e.reason}`);
  return EXIT.OK;
}
