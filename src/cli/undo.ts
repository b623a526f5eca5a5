/** `git kizu undo [--dry-run] [--yes] [--json] [--whole-snapshot]`: reverse the last rollback (src/rollback/undo.ts). */
import { KizuError, EXIT } from '../errors.js';
import { outputPaged, type Reporter } from '../output.js';
import { printable } from '../printable.js';
import { count } from '../words.js';
import { repoInfo } from '../git/repo.js';
import type { UndoResult } from '../rollback/undo.js';
import { configWarner, planLines } from './rollback.js';
import { askYesNo, canAsk } from './confirm.js';
import type { PathQuote } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';

export interface UndoInput {
  cwd: string;
  dryRun: boolean;
  yes: boolean;
  json: boolean;
  /** Restore the whole working tree to the safety snapshot, not only the paths the rollback changed. */
  wholeSnapshot?: boolean;
  reporter: Reporter;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
}

function previewLines(u: UndoResult, q: PathQuote): string[] {
  const out = [`undo: ${printable(u.record.description)} (${printable(String(u.record.level))} rollback of ${printable(String(u.record.time))})`];
  if (u.branch) {
    const b = u.branch;
    out.push(b.branchExists ? `  branch  ${b.branch}  (already at ${b.commit.slice(0, 12)})` : `  branch  ${b.branch}  (recreated at ${b.commit.slice(0, 12)} from ${b.trashRef})`);
    if (b.worktree) out.push(b.worktreeExists ? `  worktree  ${b.worktree}  (already there)` : `  worktree  ${b.worktree}  (recreated with its saved files)`);
    if (b.switchBack) out.push(`  switch  ${b.switchBack.worktree}  (from ${b.switchBack.from} back to ${b.branch}: git switch ${b.branch}; its files become the task's)`);
  }
  const where = `${u.worktree}${u.elsewhere ? ' (another worktree: the rollback was made there)' : ''}`;
  const snap = u.record.safetySnapshot.slice(0, 12);
  if (!u.scope) out.push(`restore ${where} to safety snapshot ${snap}${u.record.changed ? ' (the whole working tree)' : ''}:`);
  else if (!u.scope.length) out.push(`restore in ${where}: nothing (git kizu undo --whole-snapshot would restore all of it to safety snapshot ${snap})`);
  else out.push(`restore the ${count(u.scope.length, 'path')} the rollback changed in ${where} from safety snapshot ${snap} (later edits to other files stay; --whole-snapshot restores all of it):`);
  if (u.scope && !u.scope.length) return out;
  if (u.plan) out.push(...planLines(u.plan, true, q));
  else out.push('  (the files are restored once the worktree is recreated)');
  return out;
}

/**
 * Undoes the newest recorded rollback: restores the paths it changed (all of the safety
 * snapshot with --whole-snapshot; paths edited since the rollback are marked in the plan and
 * kept in undo's own safety snapshot); prints what it will do, asks on a terminal unless
 * --yes (no terminal and no --yes: prints it and exits 1), then restores and removes the
 * record. The undo of a rollback patch is recorded in the journal (a rollback of the
 * rollback's entry): `journal entry <short> records this undo: it rolls back <rollback short>,
 * so what <rollback short> rolled back is in effect again` (a journal that cannot be written:
 * a warning; the files are restored all the same). With --json prints the UndoResult.
 * @returns 0; 2 when a file could not be restored.
 * @throws KizuError: exit 1 when there is nothing to undo or it cannot proceed (see
 *   undoLastRollback), or when refused for lack of --yes; exit 2 for git failures.
 */
export async function undoCommand(i: UndoInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const { undoLastRollback } = await import('../rollback/undo.js');
  const r = i.reporter;
  const print = (u: UndoResult) => {
    if (i.json) r.log(JSON.stringify(u, null, 2));
    else for (const l of previewLines(u, pathQuoter(root))) r.log(l);
  };
  const interactive = i.interactive ?? canAsk();
  const configProblem = configWarner(r);
  // How far it is, on stderr when it is a terminal and a phase takes a while (not with --json,
  // nor while a pager shows a --dry-run's plan).
  const { phasedProgress } = await import('../progress.js');
  const bar = i.json || !process.stderr.isTTY || outputPaged() ? null : phasedProgress({ hashing: 'undo: reading the working tree', writing: 'undo: writing files' });
  const progress = bar ? (p: string, d: number, t: number) => bar.update(p, d, t) : undefined;
  if (i.dryRun || (!i.yes && !interactive)) {
    const u = await undoLastRollback(root, { dryRun: true, progress, configProblem, wholeSnapshot: i.wholeSnapshot });
    await bar?.stop();
    print(u);
    if (i.dryRun) return EXIT.OK;
    throw new KizuError('not undoing without confirmation: no terminal to ask on', {
      hint: `check the plan above (git kizu undo${i.wholeSnapshot ? ' --whole-snapshot' : ''} --dry-run shows it again), then run git kizu undo${i.wholeSnapshot ? ' --whole-snapshot' : ''} --yes`,
      exitCode: EXIT.FOUND,
    });
  }
  let asked = false;
  const { sessionFromEnv } = await import('../rollback/journal/journal.js');
  const u = await undoLastRollback(root, {
    session: sessionFromEnv(process.env),
    progress,
    configProblem,
    wholeSnapshot: i.wholeSnapshot,
    confirm: i.yes
      ? undefined
      : async (preview) => {
          await bar?.stop();
          asked = true;
          if (i.json) process.stderr.write(previewLines(preview, pathQuoter(root)).join('\n') + '\n');
          else print(preview);
          return askYesNo('Undo it?');
        },
  });
  await bar?.stop();
  if (!asked && !i.json) print(u);
  const plan = u.plan;
  const q = pathQuoter(root);
  if (!plan || (!plan.applied && !plan.failures.length)) {
    if (!i.json) r.log('cancelled: nothing was changed');
    return EXIT.OK;
  }
  if (i.json) r.log(JSON.stringify(u, null, 2));
  for (const k of plan.changes.filter((c) => c.action === 'kept')) r.warn(`kept ${q(k.path)}: ${k.reason}`);
  if (!plan.applied) {
    for (const f of plan.failures) r.warn(`${q(f.path)}: ${f.error}`);
    throw new KizuError(`undo failed at ${q(plan.failures[0].path)}; everything it had changed was put back`, {
      hint: 'fix the cause and run git kizu undo again (the rollback is still recorded)',
    });
  }
  if (!i.json) {
    r.log(`undone: ${printable(u.record.description)}`);
    if (u.journalEntry) r.log(`journal entry ${u.journalEntry.short} records this undo: it rolls back ${u.journalEntry.undoes}, so what ${u.journalEntry.undoes} rolled back is in effect again`);
    if (plan.safetyName) r.log(`safety snapshot: ${plan.safetyName} (to redo: ${u.elsewhere ? `cd ${u.worktree} && ` : ''}git kizu rollback snapshot ${plan.safetyName})`);
    if (!u.popError && !u.popped) r.warn('the undo log changed meanwhile; the record was left in it');
  }
  if (u.journalError) r.warn(`the undo is done but could not be recorded in the journal: ${u.journalError}`);
  if (u.popError) r.warn(`the record could not be removed from the undo log (${u.popError}); a second git kizu undo would undo this rollback again`);
  if (plan.failures.length) {
    for (const f of plan.failures) r.warn(`${q(f.path)}: ${f.error}`);
    throw new KizuError(`${count(plan.failures.length, 'path')} did not end up as before the rollback (listed above)`, {
      hint: plan.safetyName ? `the state before the undo is in safety snapshot ${plan.safetyName}` : 'see the paths above',
    });
  }
  return EXIT.OK;
}
