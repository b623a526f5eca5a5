/**
 * `git kizu patch apply <file|-> [--dry-run] [--yes] [--json] [-p <n>]`: applies a unified diff
 * strictly (src/rollback/journal/patch-parse.ts, patch-apply.ts), all files or none
 * (patch-write.ts), after the per-hunk preview and the question (src/cli/confirm.ts), and
 * records it in the edit journal so `git kizu rollback patch <id>` can undo it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT, KizuError } from '../errors.js';
import type { Reporter } from '../output.js';
import { count } from '../words.js';
import { pathArg } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { repoInfo } from '../git/repo.js';
import { parsePatch } from '../rollback/journal/patch-parse.js';
import { planPatch, previewLines } from '../rollback/journal/patch-apply.js';
import { withWorkTreeLock } from '../git/lock.js';
import { fileMode, writeAllOrNothing } from '../rollback/journal/patch-write.js';
import { checkJournalRef, readJournal, recordEntry, sessionFromEnv, shortIds } from '../rollback/journal/journal.js';
import { askYesNo, canAsk } from './confirm.js';
import type { AgentSession } from '../agents/session-env.js';
import { agentLabel } from './reviewer-acts.js';

export interface PatchApplyInput {
  cwd: string;
  /** Patch file (relative to cwd) or `-` for stdin. */
  file: string;
  dryRun: boolean;
  /** Apply without asking (needed when there is no terminal). */
  yes: boolean;
  /** Print `{dryRun, applied, files, entry}` as JSON instead of the text lines. */
  json: boolean;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
  /** Leading path components to strip (git-apply(1) -p; default 1). */
  strip: number;
  reporter: Reporter;
  env?: NodeJS.ProcessEnv;
  /** The agent session this runs in (agents/session-env.ts), or null: then review state is refused ({@link refuseReviewState}). */
  session?: AgentSession | null;
  /** Home directory, for the path rules of {@link refuseReviewState} (default HOME). */
  home?: string;
  /** Reads stdin (tests may replace it). */
  readStdin?: () => Buffer;
}

/**
 * Applies the patch. Paths in the patch are relative to the repository root (after `-p`).
 * Validates everything first; then the gate: with `dryRun` it prints the per-hunk preview of
 * {@link previewLines} and `dry run: <n> file(s) would change; nothing written`; without `yes`
 * it prints the preview and asks `Apply the patch to <n> file(s)?` on a terminal (no:
 * `cancelled: nothing was changed`, exit 0), and with no terminal it refuses (exit 1, the
 * hint names --yes and --dry-run). Nothing is written before the answer. Applied, it prints
 * `patched <path> (+a -r)`, `created <path> (+a)`, `deleted <path> (-r)` per file, then
 * `journal entry <short>; undo with: git kizu rollback patch <short>`. With `json`, stdout is
 * one object `{dryRun, applied, files: [{path, kind, hunks, added, removed}], entry}` (entry:
 * the journal entry's short id, or null) and the preview asked about goes to stderr.
 * @returns 0.
 * @throws KizuError: exit 2 for an unreadable or malformed patch (PatchError: the patch line,
 *   the file and the hunk are named), a bad `-p`, or a write failure (the files already
 *   written are restored); exit 1 when the patch does not fit the files (PatchMismatch: file,
 *   hunk, line, expected and actual text), or when refused for lack of --yes (no terminal), or
 *   when a file changed while asking (or meanwhile, by another git kizu command: the check and
 *   the write happen under the working-tree write lock, git/lock.ts withWorkTreeLock); exit 2
 *   when that lock cannot be taken; exit 2 when refs/kizu/journal points at anything but an
 *   existing commit; exit 2 from inside an agent's session for a patch that changes review
 *   state ({@link refuseReviewState}, `--dry-run` too). Nothing is written in any of these cases. If the
 *   journal cannot be written after the files were, the files are put back and the error is
 *   thrown (exit 2).
 */
/** What each path rule of the pre-tool gate protects, in words (for {@link refuseReviewState}). */
const PROTECTS: Record<string, string> = {
  'kizu-config': "git-kizu's config",
  'package-json-review-keys': "git-kizu's config or a hook manager's hooks in package.json",
  'hook-files': "an agent's hook settings or runner, or a hook manager's hooks",
  'review-queue-file': 'the review queue',
  'user-hook-files': "the user's hook settings",
  'git-dir': 'the git dir',
};

/**
 * Refuses, before anything is written, a patch run from inside an agent's session that
 * changes review state: any path the pre-tool gate refuses for the agent's own edits
 * (gates/engine.ts classifyPath: git-kizu's config files, the queue file, the hook settings
 * and runners of every agent and hook manager, anything under `.git/`; package.json only when
 * its guarded keys change, engine.ts changedKeys). `patch apply` is the agent's to run for
 * its own code (an edit like its write tools, recorded in the journal); review state is the
 * reviewer's (issue 22, #81-#83).
 * @throws KizuError (exit 2) naming the first such path and what it holds.
 */
async function refuseReviewState(root: string, plan: ReturnType<typeof planPatch>, session: AgentSession, home: string): Promise<void> {
  const { classifyPath, changedKeys, findRepo } = await import('../gates/engine.js');
  const repo = findRepo(root);
  const q = pathQuoter(root);
  for (const p of plan) {
    const hit = classifyPath(path.join(root, p.patch.path), { cwd: root, home: home || root }, repo);
    if (!hit) continue;
    if (hit.rule === 'package-json-review-keys' && !changedKeys(p.before?.toString('utf8') ?? '', p.after?.toString('utf8') ?? '{}').length) continue;
    throw new KizuError(
      `this patch changes ${q(p.patch.path)}, ${PROTECTS[hit.rule] ?? 'review state'}, and it runs inside a ${agentLabel(session)} session (${session.variable} is set): an agent's patch may not change review state; nothing was written`,
      { hint: 'leave that file out of the patch; if the change is needed, tell the human, who can apply it in their own terminal' },
    );
  }
}

export async function patchApply(i: PatchApplyInput): Promise<number> {
  const { root, gitDir } = await repoInfo(i.cwd);
  if (!Number.isInteger(i.strip) || i.strip < 0) throw new KizuError(`-p takes a whole number >= 0, got ${i.strip}`, { hint: 'use -p1 for a/ b/ prefixes (the default), -p0 for none' });
  let bytes: Buffer;
  try {
    bytes = i.file === '-' ? (i.readStdin ?? (() => readFileSync(0)))() : readFileSync(path.resolve(i.cwd, i.file));
  } catch (e) {
    throw new KizuError(`cannot read the patch ${i.file === '-' ? 'from stdin' : i.file}: ${(e as Error).message}`, { hint: 'give a patch file, or - to read it from stdin' });
  }
  const files = parsePatch(bytes, i.strip);
  const plan = planPatch(root, files);
  if (i.session) await refuseReviewState(root, plan, i.session, i.home ?? process.env.HOME ?? '');
  await checkJournalRef(root); // a corrupt journal ref stops the command before the first write
  const r = i.reporter;
  const q = pathQuoter(root);
  const json = (applied: boolean, entry: string | null) =>
    JSON.stringify(
      {
        dryRun: i.dryRun,
        applied,
        files: plan.map((p) => ({ path: p.patch.path, kind: p.patch.kind, hunks: p.patch.hunks.length, added: p.added, removed: p.removed })),
        entry,
      },
      null,
      2,
    );
  const preview = (to: (l: string) => void) => {
    for (const l of previewLines(plan)) to(l);
  };
  if (i.dryRun) {
    if (i.json) r.log(json(false, null));
    else {
      preview((l) => r.log(l));
      r.log(`dry run: ${count(plan.length, 'file')} would change; nothing written`);
    }
    return EXIT.OK;
  }
  if (!i.yes) {
    const toStderr = (l: string) => process.stderr.write(l + '\n');
    if (!(i.interactive ?? canAsk())) {
      if (i.json) r.log(json(false, null));
      else preview((l) => r.log(l));
      const again = `git kizu patch apply ${i.file === '-' ? '-' : pathArg(i.file)}${i.strip === 1 ? '' : ` -p${i.strip}`}`;
      throw new KizuError('not applying the patch without confirmation: no terminal to ask on', {
        hint: `check the preview above (${again} --dry-run shows it again), then run ${again} --yes${i.file === '-' ? ' with the patch on stdin again' : ''}`,
        exitCode: EXIT.FOUND,
      });
    }
    preview(i.json ? toStderr : (l) => r.log(l));
    if (!(await askYesNo(`Apply the patch to ${count(plan.length, 'file')}?`))) {
      if (i.json) r.log(json(false, null));
      else r.log('cancelled: nothing was changed');
      return EXIT.OK;
    }
  }
  // Under the working-tree write lock (the one scar, unscar, revert and rollback patch take),
  // so that nothing writes between writeAllOrNothing's check that each file still holds what
  // was planned from and the write, and journal entries are recorded in the order written.
  const id = await withWorkTreeLock(gitDir, async () => {
    const modes = new Map(plan.map((p) => [p.patch.path, fileMode(root, p.patch.path)]));
    await writeAllOrNothing(
      root,
      plan.map((p) => ({ path: p.patch.path, expect: p.before, after: p.after })),
    );
    let id: string;
    try {
      const e = await recordEntry(root, {
        tool: 'patch-apply',
        session: sessionFromEnv(i.env ?? process.env),
        toolUseId: null,
        files: plan.map((p) => ({ path: p.patch.path, before: p.before, after: p.after, mode: p.after === null ? modes.get(p.patch.path) : fileMode(root, p.patch.path) })),
      });
      id = e.id;
    } catch (e) {
      await writeAllOrNothing(
        root,
        plan.map((p) => ({ path: p.patch.path, expect: p.after, after: p.before, mode: modes.get(p.patch.path) })),
      ).catch(() => {});
      throw new KizuError(`the patch was not applied: recording it in the journal failed (${(e as Error).message}); the files were put back`, {
        hint: 'fix the repository problem and run the command again',
      });
    }
    return id;
  });
  const short = shortIds(await readJournal(root)).get(id) ?? id.slice(0, 8);
  if (i.json) {
    r.log(json(true, short));
    return EXIT.OK;
  }
  for (const p of plan) {
    if (p.patch.kind === 'create') r.log(`created ${q(p.patch.path)} (+${p.added})`);
    else if (p.patch.kind === 'delete') r.log(`deleted ${q(p.patch.path)} (-${p.removed})`);
    else r.log(`patched ${q(p.patch.path)} (+${p.added} -${p.removed})`);
  }
  r.log(`journal entry ${short}; undo with: git kizu rollback patch ${short}`);
  return EXIT.OK;
}

