/**
 * `git kizu rollback branch <name> [--yes] [--dry-run] [--json]`: discard a task (its worktree and
 * branch) after saving everything in refs/kizu/trash/<name>/<time>; `git kizu undo` brings
 * it back (restoreTask).
 */
import { KizuError, EXIT } from '../errors.js';
import { quoteCStyle } from '../git/quote.js';
import type { Reporter } from '../output.js';
import { count, shellQuote } from '../words.js';
import { discardRefusal, discardTask, planDiscard, type DiscardPlan, type DiscardedTask, type NestedRepository } from '../rollback/tasks/task.js';
import { askYesNo, canAsk } from './confirm.js';
import { configWarner } from './rollback.js';

export interface RollbackBranchInput {
  cwd: string;
  name: string;
  /** Do it without asking. */
  yes: boolean;
  /** Only print what would happen. */
  dryRun: boolean;
  /** Print {@link BranchRollbackJson} instead of the text lines. */
  json?: boolean;
  reporter: Reporter;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
}

/**
 * What `rollback branch --json` prints (one object on stdout): the plan, and what was done.
 * `trashRef`, `copy` (the removed-task commit) and `safetySnapshot` (its name) are null until
 * applied; `recorded`: whether `git kizu undo` can bring the task back (false when not
 * applied, or when the undo log could not be written).
 */
export interface BranchRollbackJson {
  dryRun: boolean;
  applied: boolean;
  task: string;
  branch: string;
  /** The branch tip (full commit id). */
  tip: string;
  /** Commits on the branch not on the base. */
  commits: number;
  /** linked: its worktree is removed; main: the main worktree is switched back; none: only the branch goes. */
  mode: DiscardPlan['mode'];
  worktree: string | null;
  /** The branch the main worktree is switched back to ('main' mode), else null. */
  switchTo: string | null;
  /** Changed and untracked (not ignored) files in the worktree, saved with the copy. */
  files: string[];
  /** Ignored files of a linked worktree saved with the copy (`snapshot.include` ones, then the rest within `budget`). */
  savedIgnored: string[];
  /** Ignored paths removed with a linked worktree without a copy (over the budget; nested repositories `dir/`). */
  ignored: string[];
  /** The budget in bytes for the saved ignored files (config snapshot.maxFileBytes). */
  budget: number;
  /**
   * Nested repositories and initialised submodules in the linked worktree, `{path, reason}`:
   * while there are any, it refuses (exit 1) and changes nothing.
   */
  nested: NestedRepository[];
  trashRef: string | null;
  copy: string | null;
  safetySnapshot: string | null;
  recorded: boolean;
}

const listed = (xs: string[], max = 5) => xs.slice(0, max).map((x) => quoteCStyle(x)).join(', ') + (xs.length > max ? ', ...' : '');

function describe(p: DiscardPlan): string {
  const parts = [`${count(p.commits, 'commit')} not on the base`];
  if (p.worktree?.prunable) parts.push(`no files (its worktree ${p.worktree.path} is gone)`);
  else if (p.mode !== 'none') parts.push(`${count(p.files.length, 'changed or untracked file')} in ${p.worktree!.path}`);
  if (p.savedIgnored.length) parts.push(`and ${count(p.savedIgnored.length, 'ignored file')} (${listed(p.savedIgnored)})`);
  return parts.join(', ');
}

/** What goes with the worktree without a copy, or ''. */
function unsavedText(p: DiscardPlan): string {
  if (!p.ignored.length) return '';
  return `${count(p.ignored.length, 'ignored path')} not saved (over the ${p.budget}-byte budget, snapshot.maxFileBytes, or a nested repository): ${listed(p.ignored)}`;
}

function ignoredNote(p: DiscardPlan): string {
  return p.ignored.length ? ` (with ${unsavedText(p)})` : '';
}

/**
 * Discards task `name` (see planDiscard for the refusals and discardTask for the steps).
 * Before it asks or changes anything it checks the undo log (undo-log.ts checkUndoLog: a
 * broken one is an error naming the file, exit 2). An invalid config is one warning line on
 * stderr (the defaults stand in for what is invalid), never a refusal.
 * The ignored files of a linked worktree are saved with the copy as `task land --remove`
 * saves them (removed.ts ignoredToSave); the ones over the budget are named in the plan and
 * in the question, since they go without a copy.
 * Without --yes it prints the plan (the --dry-run lines; with --json the plan object, on
 * stderr when asking) and asks on the terminal (answering no prints `cancelled: nothing
 * changed`, exit 0), or refuses (exit 1) after the plan when there is no terminal to ask on. With --json the text
 * lines below are replaced by one {@link BranchRollbackJson} object on stdout (the plan with
 * --dry-run, a refusal or a "no"; the result after discarding).
 * discardTask takes a safety snapshot of the current worktree before changing anything
 * and records the rollback for `git kizu undo` afterwards.
 *
 * Output (--dry-run: the `would ...` lines only, nothing changes):
 * ```
 * safety snapshot: <snapshot name>
 * saved task <name> in refs/kizu/trash/<name>/<time>: <n> commits not on the base, <m> changed or untracked files in <worktree>[, and <j> ignored files (...)]
 * removed worktree <path>[ (with <k> ignored paths not saved (over the <budget>-byte budget, snapshot.maxFileBytes, or a nested repository): ...)]
 *                                                                         | switched <path> back to <branch>
 * deleted branch kizu/<name> (was <12 hex>)
 * bring it back: git kizu undo
 *   or by hand: git branch kizu/<name> <tip>
 *               git worktree add <path> kizu/<name>                        (linked worktree)
 *               git -C <path> restore --source=<copy commit> --worktree -- :/
 *               git switch kizu/<name>                                     (main worktree)
 * ```
 * @returns 0.
 * A linked worktree holding a nested repository or an initialised submodule is refused (exit 1,
 * --dry-run too; with --json the plan object is printed first, its `nested` naming them).
 * @throws KizuError: planDiscard/discardTask refusals and failures; exit 2 for a broken
 *   undo log; exit 1 without --yes when nobody can be asked.
 */
export async function rollbackBranchCommand(i: RollbackBranchInput): Promise<number> {
  const configProblem = configWarner(i.reporter);
  const plan = await planDiscard(i.cwd, i.name, { configProblem });
  const { task } = plan;
  const wtPath = plan.worktree?.path ?? '';
  const json = (done: DiscardedTask | null): string => {
    const o: BranchRollbackJson = {
      dryRun: i.dryRun,
      applied: !!done,
      task: task.name,
      branch: task.branch,
      tip: task.tip!,
      commits: plan.commits,
      mode: plan.mode,
      worktree: plan.worktree?.path ?? null,
      switchTo: plan.switchTo,
      files: plan.files,
      savedIgnored: plan.savedIgnored,
      ignored: plan.ignored,
      budget: plan.budget,
      nested: plan.nested,
      trashRef: done?.copy.ref ?? null,
      copy: done?.copy.commit ?? null,
      safetySnapshot: done?.safety.name ?? null,
      recorded: !!done && !done.undoError,
    };
    return JSON.stringify(o, null, 2);
  };
  // The plan: the JSON object, or the `would ...` lines; on stdout unless `to` is given (the question's stderr).
  const would = (to: (line: string) => void = (l) => i.reporter.log(l)) => {
    if (i.json) return to(json(null));
    to(`would save task ${task.name} in refs/kizu/trash/${task.name}/<time>: ${describe(plan)}`);
    if (plan.mode === 'linked') to(`would remove worktree ${wtPath}${ignoredNote(plan)}`);
    if (plan.mode === 'main') to(`would switch ${wtPath} back to ${plan.switchTo}`);
    to(`would delete branch ${task.branch} (at ${task.tip!.slice(0, 12)})`);
  };
  // A nested repository would be deleted with the worktree and no copy keeps its history:
  // refused, --dry-run included (the JSON plan names them too).
  if (plan.nested.length) {
    if (i.json) would();
    throw discardRefusal(task.name, wtPath, plan.nested);
  }
  if (i.dryRun) {
    would();
    return EXIT.OK;
  }
  // A broken undo log would leave the discard unrecorded: refuse before anything changes.
  const { checkUndoLog } = await import('../rollback/undo-log.js');
  await checkUndoLog(plan.root);
  if (!i.yes) {
    if (!(i.interactive ?? canAsk())) {
      would();
      throw new KizuError(`not discarding task "${task.name}" without confirmation: no terminal to ask on`, {
        hint: `check the plan above (git kizu rollback branch ${task.name} --dry-run shows it again), then run git kizu rollback branch ${task.name} --yes`,
        exitCode: EXIT.FOUND,
      });
    }
    // The plan before the question (with --json on stderr, next to the question; stdout gets the result).
    would(i.json ? (l) => process.stderr.write(l + '\n') : undefined);
    const what = plan.mode === 'linked' ? `branch ${task.branch} and worktree ${wtPath}` : `branch ${task.branch}`;
    const except = plan.mode === 'linked' && plan.ignored.length ? `, except ${unsavedText(plan)}` : '';
    if (!(await askYesNo(`Discard task ${task.name} (${what}; a copy is kept in refs/kizu/trash${except})?`))) {
      if (i.json) would();
      else i.reporter.log('cancelled: nothing changed');
      return EXIT.OK;
    }
  }
  const done = await discardTask(plan, {
    configProblem,
    onSafetySnapshot: (snap) => {
      for (const s of snap.skipped) i.reporter.warn(`safety snapshot left out ${quoteCStyle(s.path)}: ${s.reason}`);
      if (!i.json) i.reporter.log(`safety snapshot: ${snap.name}`);
    },
  });
  if (done.undoError) i.reporter.warn(`could not record this rollback for git kizu undo: ${done.undoError.message}`);
  if (i.json) {
    i.reporter.log(json(done));
    return EXIT.OK;
  }
  const t = done.copy;
  i.reporter.log(`saved task ${task.name} in ${t.ref}: ${describe(plan)}`);
  if (plan.mode === 'linked') i.reporter.log(`removed worktree ${wtPath}${ignoredNote(plan)}`);
  if (plan.mode === 'main') i.reporter.log(`switched ${wtPath} back to ${plan.switchTo}`);
  i.reporter.log(`deleted branch ${task.branch} (was ${task.tip!.slice(0, 12)})`);
  const recorded = !done.undoError;
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
