/**
 * `git kizu rollback patch <id>... [--cascade] [--dry-run] [--yes] [--json]`: undoes journal
 * entries (src/rollback/journal/patch-rollback.ts: planRollback; then, after the plan and the
 * question (src/cli/confirm.ts), applyRollback, which takes a
 * safety snapshot and records the rollback both in the journal, so rolling back the rollback
 * re-applies the entries, and in the undo log, so `git kizu undo` can reverse it).
 */
import { EXIT, KizuError } from '../errors.js';
import type { Reporter } from '../output.js';
import { count, plural } from '../words.js';
import { gitDirFast, repoInfo } from '../git/repo.js';
import { quoteCStyle, shellPath, type PathQuote } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { readJournal, resolveEntries, sessionFromEnv, shortIds } from '../rollback/journal/journal.js';
import { askYesNo, canAsk } from './confirm.js';
import { configWarner } from './rollback.js';
import { applyRollback, changedFiles, entryLine, planRollback, type Refusal, type Step } from '../rollback/journal/patch-rollback.js';

export interface RollbackPatchInput {
  cwd: string;
  /** Journal entry id prefixes (at least 4 hex digits). */
  ids: string[];
  /** Also undo the later entries whose changes overlap (newest first). */
  cascade: boolean;
  dryRun: boolean;
  /** Roll back without asking (needed when there is no terminal). */
  yes: boolean;
  /** Print `{dryRun, applied, steps, entry, safetySnapshot}` as JSON instead of the text lines. */
  json: boolean;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
  reporter: Reporter;
  env?: NodeJS.ProcessEnv;
}

function how(s: Step, q: PathQuote): string {
  const p = q(s.file.path);
  switch (s.how) {
    case 'restored':
      return `restored ${p} (unchanged since, put back exactly)`;
    case 'deleted':
      return `deleted ${p} (it created the file, unchanged since)`;
    case 'recreated':
      return `re-created ${p} (it had deleted the file)`;
    case 'reversed':
      return `reversed ${count(s.hunks, 'hunk')} in ${p} (later edits kept)`;
    case 'merged':
      return `merged the reversal into ${p} (three-way merge; later edits kept)`;
    case 'unchanged':
      return `${p} already holds its content from before it`;
  }
}

function refusalText(r: Refusal, short: Map<string, string>, q: PathQuote): string {
  const lines = [`cannot roll back ${short.get(r.entry.id)} (${r.entry.tool} ${q(r.file.path)}): ${r.reason}`];
  if (r.overlapping.length || r.outside.length) {
    lines.push('  overlapping later changes:');
    for (const e of r.overlapping) lines.push(`    ${entryLine(e, short, q)}`);
    for (const o of r.outside) lines.push(`    ${o}`);
  }
  return lines.join('\n');
}

/**
 * Rolls back the entries. Prints, newest entry first, one line per file:
 * `rolled back <short> (<tool>): <what happened>` (`would roll back` with `dryRun`), then
 * `journal entry <short> records this rollback; git kizu rollback patch <short> re-applies
 * it` and `safety snapshot <id> was taken first; git kizu undo reverses this rollback` (or
 * `dry run: <n> file(s) would change; nothing written`). Without `yes` it first prints the
 * `would roll back` lines and asks `Roll back <n> file(s)?` on a terminal (no: `cancelled:
 * nothing was changed`, exit 0); with no terminal it refuses (exit 1, the hint names --yes and
 * --dry-run). Nothing is written before the answer. With `json`, stdout is one object
 * `{dryRun, applied, steps: [{entry, tool, path, how, hunks}], entry, safetySnapshot}` (entry:
 * the short id of the journal entry recording the rollback; both null when nothing was
 * written) and the lines asked about go to stderr.
 * Before it asks or writes, the undo log is checked (undo-log.ts checkUndoLog: a broken one
 * is an error naming the file, exit 2, nothing written); an invalid config is one warning
 * line on stderr, never a refusal.
 * @returns 0.
 * A file that already holds its content from before the entry gets the line
 * `nothing to do for <short> (<tool>): <path> already holds its content from before it`; when
 * no file changes at all, `nothing to write: ...` follows and no snapshot is taken.
 * @throws KizuError: exit 1 when a file cannot be rolled back (every such file is listed
 *   with the overlapping later entries and outside edits; the hint names the entries to roll
 *   back first and --cascade, or, with no overlapping entry, says the edits outside the
 *   journal must be undone by hand, or, with neither, where else old content can come
 *   from), when refused for lack of --yes (no terminal), for an unknown or ambiguous id, or
 *   a file that changed during the write; exit 2 for a bad id, no id, git or fs failures. Nothing is written in any of
 *   these cases.
 */
export async function rollbackPatchCommand(i: RollbackPatchInput): Promise<number> {
  if (!i.ids.length) throw new KizuError('name the journal entries to roll back', { hint: 'list them with git kizu journal' });
  const { root } = await repoInfo(i.cwd);
  const q = pathQuoter(root);
  const all = await readJournal(root);
  const short = shortIds(all);
  const targets = resolveEntries(all, i.ids);
  const plan = await planRollback(root, all, targets, i.cascade);
  // The journal is shared by all worktrees: an entry made in another one is rolled back there.
  const { sameWorktree } = await import('../rollback/snapshots/store.js');
  const gitDir = gitDirFast(root);
  const foreign = plan.entries.filter((e) => e.worktree && gitDir && !sameWorktree({ worktree: e.worktree, worktreeId: e.worktreeId }, root, gitDir));
  if (foreign.length) {
    const where = [...new Set(foreign.map((e) => e.worktree!))];
    throw new KizuError(`${foreign.map((e) => short.get(e.id)).join(', ')} ${plural(foreign.length, 'was', 'were')} recorded in another worktree (${where.map((w) => quoteCStyle(w)).join(', ')}), not in this one (${quoteCStyle(root)})`, {
      hint: `roll ${plural(foreign.length, 'it', 'them')} back there: cd ${shellPath(where[0])} && git kizu rollback patch ${foreign.map((e) => short.get(e.id)).join(' ')}; nothing was changed`,
      exitCode: EXIT.FOUND,
    });
  }
  if (plan.refusals.length) {
    const later = [...new Map(plan.refusals.flatMap((r) => r.overlapping).map((e) => [e.id, e])).values()].sort((a, b) => b.seq - a.seq);
    const hint = later.length
      ? `roll the overlapping entries back first (git kizu rollback patch ${[...later, ...targets].map((e) => short.get(e.id)).join(' ')})${i.cascade ? '' : ', or add --cascade to undo them newest first'}`
      : plan.refusals.some((x) => x.outside.length)
        ? 'the overlapping change is not in the journal: edit the file by hand (git kizu undo and git kizu revert can help)'
        : 'nothing was changed; put the old content back by hand, or from a snapshot (git kizu snapshot list, then git kizu rollback snapshot <id> --dry-run)';
    throw new KizuError(plan.refusals.map((r) => refusalText(r, short, q)).join('\n'), { hint, exitCode: EXIT.FOUND });
  }
  const r = i.reporter;
  const verb = i.dryRun ? 'would roll back' : 'rolled back';
  const changed = changedFiles(plan);
  const lines = plan.steps.map((s) => `${s.how === 'unchanged' ? 'nothing to do for' : verb} ${short.get(s.entry.id)} (${s.entry.tool}): ${how(s, q)}`);
  const n = changed.length;
  const json = (applied: boolean, entry: string | null, safety: string | null) =>
    JSON.stringify(
      {
        dryRun: i.dryRun,
        applied,
        steps: plan.steps.map((s) => ({ entry: short.get(s.entry.id), tool: s.entry.tool, path: s.file.path, how: s.how, hunks: s.hunks })),
        entry,
        safetySnapshot: safety,
      },
      null,
      2,
    );
  if (i.dryRun || !n) {
    if (i.json) r.log(json(false, null, null));
    else {
      for (const l of lines) r.log(l);
      // Steps that change a file can still leave it as it is when taken together (a cascade whose entries cancel out).
      const cancel = !n && plan.steps.some((s) => s.how !== 'unchanged') ? ' (together these steps leave every file as it is now)' : '';
      r.log(i.dryRun ? `dry run: ${count(n, 'file')} would change${cancel}; nothing written` : 'nothing to write: the files already hold their content from before these entries');
    }
    return EXIT.OK;
  }
  // A broken undo log would leave the rollback unrecorded: refuse before anything changes.
  const { checkUndoLog } = await import('../rollback/undo-log.js');
  await checkUndoLog(root);
  if (!i.yes) {
    const would = plan.steps.map((s) => `${s.how === 'unchanged' ? 'nothing to do for' : 'would roll back'} ${short.get(s.entry.id)} (${s.entry.tool}): ${how(s, q)}`);
    if (!(i.interactive ?? canAsk())) {
      if (i.json) r.log(json(false, null, null));
      else for (const l of would) r.log(l);
      const again = `git kizu rollback patch ${i.ids.join(' ')}${i.cascade ? ' --cascade' : ''}`;
      throw new KizuError('not rolling back without confirmation: no terminal to ask on', {
        hint: `check the plan above (${again} --dry-run shows it again), then run ${again} --yes`,
        exitCode: EXIT.FOUND,
      });
    }
    for (const l of would) (i.json ? (x: string) => process.stderr.write(x + '\n') : (x: string) => r.log(x))(l);
    if (!(await askYesNo(`Roll back ${count(n, 'file')}?`))) {
      if (i.json) r.log(json(false, null, null));
      else r.log('cancelled: nothing was changed');
      return EXIT.OK;
    }
  }
  const done = (await applyRollback(root, plan, { session: sessionFromEnv(i.env ?? process.env), configProblem: configWarner(r) }))!;
  const snap = done.safety;
  if (i.json) r.log(json(true, done.entry?.short ?? null, snap.name));
  else for (const l of lines) r.log(l);
  if (done.entry) {
    if (!i.json) r.log(`journal entry ${done.entry.short} records this rollback; git kizu rollback patch ${done.entry.short} re-applies it`);
  } else r.warn(`the rollback is done but could not be recorded in the journal: ${done.journalError!.message}`);
  if (done.undoError) {
    r.warn(`the rollback is done but could not be recorded in the rollback log: ${done.undoError.message}; the safety snapshot ${snap.name} still has the files as they were`);
  }
  for (const sk of snap.skipped) {
    if (plan.files.has(sk.path)) r.warn(`the safety snapshot left out ${q(sk.path)} (${sk.reason}); git kizu undo cannot put it back, git kizu rollback patch of the rollback entry can`);
  }
  if (!i.json) r.log(`safety snapshot ${snap.name} was taken first; git kizu undo reverses this rollback`);
  return EXIT.OK;
}
