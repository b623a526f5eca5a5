/**
 * `git kizu rollback branch <name> [--yes] [--dry-run]`: discard a task (its worktree and
 * branch) after saving everything in refs/kizu/trash/<name>/<time>; `git kizu undo` brings
 * it back (restoreTask).
 */
import { KizuError, EXIT } from '../errors.js';
import { quoteCStyle } from '../git/quote.js';
import type { Reporter } from '../output.js';
import { count, shellQuote } from '../words.js';
import { discardTask, planDiscard, type DiscardPlan } from '../rollback/tasks/task.js';
import { askYesNo, canAsk } from './confirm.js';

export interface RollbackBranchInput {
  cwd: string;
  name: string;
  /** Do it without asking. */
  yes: boolean;
  /** Only print what would happen. */
  dryRun: boolean;
  reporter: Reporter;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
}

function describe(p: DiscardPlan): string {
  const parts = [`${count(p.commits, 'commit')} not on the base`];
  if (p.worktree?.prunable) parts.push(`no files (its worktree ${p.worktree.path} is gone)`);
  else if (p.mode !== 'none') parts.push(`${count(p.files.length, 'changed or untracked file')} in ${p.worktree!.path}`);
  return parts.join(', ');
}

function ignoredNote(p: DiscardPlan): string {
  if (!p.ignored.length) return '';
  const shown = p.ignored.slice(0, 5).join(', ') + (p.ignored.length > 5 ? ', ...' : '');
  return ` (with ${count(p.ignored.length, 'ignored path')}, not saved: ${shown})`;
}

/**
 * Discards task `name` (see planDiscard for the refusals and discardTask for the steps).
 * Without --yes it asks on the terminal (answering no prints `cancelled: nothing changed`,
 * exit 0), and refuses (exit 1) when there is no terminal to ask on.
 * discardTask takes a safety snapshot of the current worktree before changing anything
 * and records the rollback for `git kizu undo` afterwards.
 *
 * Output (--dry-run: the `would ...` lines only, nothing changes):
 * ```
 * safety snapshot: <snapshot name>
 * saved task <name> in refs/kizu/trash/<name>/<time>: <n> commits not on the base, <m> changed or untracked files in <worktree>
 * removed worktree <path>[ (with <k> ignored paths, not saved: ...)]      | switched <path> back to <branch>
 * deleted branch kizu/<name> (was <12 hex>)
 * bring it back: git kizu undo
 *   or by hand: git branch kizu/<name> <tip>
 *               git worktree add <path> kizu/<name>                        (linked worktree)
 *               git -C <path> restore --source=<copy commit> --worktree -- :/
 *               git switch kizu/<name>                                     (main worktree)
 * ```
 * @returns 0.
 * @throws KizuError: planDiscard/discardTask refusals and failures; exit 1 without --yes
 *   when nobody can be asked.
 */
export async function rollbackBranchCommand(i: RollbackBranchInput): Promise<number> {
  const plan = await planDiscard(i.cwd, i.name);
  const { task } = plan;
  const wtPath = plan.worktree?.path ?? '';
  if (i.dryRun) {
    i.reporter.log(`would save task ${task.name} in refs/kizu/trash/${task.name}/<time>: ${describe(plan)}`);
    if (plan.mode === 'linked') i.reporter.log(`would remove worktree ${wtPath}${ignoredNote(plan)}`);
    if (plan.mode === 'main') i.reporter.log(`would switch ${wtPath} back to ${plan.switchTo}`);
    i.reporter.log(`would delete branch ${task.branch} (at ${task.tip!.slice(0, 12)})`);
    return EXIT.OK;
  }
  if (!i.yes) {
    if (!(i.interactive ?? canAsk())) {
      throw new KizuError(`not discarding task "${task.name}" without confirmation: no terminal to ask on`, {
        hint: `check what it would do (git kizu rollback branch ${task.name} --dry-run), then run git kizu rollback branch ${task.name} --yes`,
        exitCode: EXIT.FOUND,
      });
    }
    const what = plan.mode === 'linked' ? `branch ${task.branch} and worktree ${wtPath}` : `branch ${task.branch}`;
    if (!(await askYesNo(`Discard task ${task.name} (${what}; a copy is kept in refs/kizu/trash)?`))) {
      i.reporter.log('cancelled: nothing changed');
      return EXIT.OK;
    }
  }
  const done = await discardTask(plan, {
    onSafetySnapshot: (snap) => {
      for (const s of snap.skipped) i.reporter.warn(`safety snapshot left out ${quoteCStyle(s.path)}: ${s.reason}`);
      i.reporter.log(`safety snapshot: ${snap.name}`);
    },
  });
  const t = done.copy;
  i.reporter.log(`saved task ${task.name} in ${t.ref}: ${describe(plan)}`);
  if (plan.mode === 'linked') i.reporter.log(`removed worktree ${wtPath}${ignoredNote(plan)}`);
  if (plan.mode === 'main') i.reporter.log(`switched ${wtPath} back to ${plan.switchTo}`);
  i.reporter.log(`deleted branch ${task.branch} (was ${task.tip!.slice(0, 12)})`);
  const recorded = !done.undoError;
  if (done.undoError) i.reporter.warn(`could not record this rollback for git kizu undo: ${done.undoError.message}`);
  if (recorded) i.reporter.log('bring it back: git kizu undo');
  const lead = recorded ? '  or by hand:' : 'bring it back:';
  i.reporter.log(`${lead} git branch ${task.branch} ${task.tip}`);
  const pad = ' '.repeat(lead.length + 1);
  if (t.worktree) {
    i.reporter.log(`${pad}git worktree add ${shellQuote(t.worktree)} ${task.branch}`);
    i.reporter.log(`${pad}git -C ${shellQuote(t.worktree)} restore --source=${t.commit} --worktree -- :/`);
  } else if (plan.mode === 'main') i.reporter.log(`${pad}git switch ${task.branch}`);
  return EXIT.OK;
}
