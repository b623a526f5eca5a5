/** `git kizu task start|list|land`: a branch `kizu/<name>` per task, optionally in its own worktree. */
import { EXIT, KizuError } from '../errors.js';
import type { Reporter } from '../output.js';
import { repoInfo } from '../git/repo.js';
import { BASELINE_REF, TASK_TRASH_PREFIX } from '../git/layout.js';
import { quoteCStyle } from '../git/quote.js';
import { count, shellQuote } from '../words.js';
import { askYesNo, canAsk } from './confirm.js';
import { landTask, listTasks, startTask, type LandPlan, type TaskInfo } from '../rollback/tasks/task.js';
import { taskBranch, taskRecordRef } from '../rollback/tasks/records.js';

const short = (oid: string | null) => (oid ? oid.slice(0, 12) : '?');

export interface TaskStartInput {
  cwd: string;
  name: string;
  /** true: the default sibling path; a string: that path; undefined: switch the current worktree. */
  worktree?: boolean | string;
  reporter: Reporter;
}

/**
 * `git kizu task start <name> [--worktree [<path>]]` (see startTask). Prints
 * `started task <name>: branch kizu/<name> at <base 12 hex> (<HEAD|refs/kizu/baseline>)`,
 * then `worktree: <path>` or `switched to kizu/<name>`, then `land it in <from> with: git kizu
 * task land <name>` (or, started on a detached HEAD, `no branch to land it in: merge it
 * yourself (git merge kizu/<name>)`).
 * @returns 0.
 * @throws KizuError from startTask.
 */
export async function taskStart(i: TaskStartInput): Promise<number> {
  const t = await startTask(i.cwd, i.name, { worktree: i.worktree });
  i.reporter.log(`started task ${t.name}: branch ${t.branch} at ${short(t.base)} (${t.fromBaseline ? BASELINE_REF : 'HEAD'})`);
  i.reporter.log(t.worktree ? `worktree: ${t.worktree}` : `switched to ${t.branch}`);
  i.reporter.log(t.from ? `land it in ${t.from} with: git kizu task land ${t.name}` : `no branch to land it in: merge it yourself (git merge ${t.branch})`);
  return EXIT.OK;
}

/** The JSON shape of one task in `task list --json`. */
export function taskJson(t: TaskInfo): Record<string, unknown> {
  return { name: t.name, branch: t.branch, tip: t.tip, base: t.base, from: t.from, worktree: t.worktree, ahead: t.ahead, dirty: t.dirty };
}

/**
 * `git kizu task list [--json]`. One line per task, sorted by name:
 * `<name>  kizu/<name>  base <12 hex>  +<ahead>  <clean|dirty>  <worktree path | (no worktree)>`
 * (`?` for an unknown base or count; `(branch missing)` instead of the worktree when only the
 * record is left); `no tasks` when there are none. --json prints an array of
 * `{name, branch, tip, base, from, worktree, ahead, dirty}` (full ids, null when unknown).
 * @returns 0.
 * @throws KizuError (exit 2) outside a repository or when git fails.
 */
export async function taskList(i: { cwd: string; json: boolean; reporter: Reporter }): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const tasks = await listTasks(root);
  if (i.json) {
    i.reporter.log(JSON.stringify(tasks.map(taskJson), null, 2));
    return EXIT.OK;
  }
  if (!tasks.length) i.reporter.log('no tasks (start one with git kizu task start <name>)');
  for (const t of tasks) {
    const where = t.tip === null ? '(branch missing)' : (t.worktree ?? '(no worktree)');
    i.reporter.log(`${t.name}  ${t.branch}  base ${short(t.base)}  +${t.ahead ?? '?'}  ${t.dirty ? 'dirty' : 'clean'}  ${where}`);
  }
  return EXIT.OK;
}

const listed = (xs: string[], max = 5) => xs.slice(0, max).map((x) => quoteCStyle(x)).join(', ') + (xs.length > max ? ', ...' : '');

export interface TaskLandInput {
  cwd: string;
  name: string;
  remove: boolean;
  /** Delete ignored files over the save budget without asking. */
  yes?: boolean;
  /** Only print what would happen. */
  dryRun?: boolean;
  reporter: Reporter;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
}

/**
 * `git kizu task land <name> [--remove] [--dry-run] [--yes]` (see landTask). Prints
 * `switched to <into>` when it switched first, then one of `landed task <name> in <into>:
 * fast-forward to <12 hex>`, `landed task <name> in <into>: merge commit <12 hex>`, `nothing
 * to land: <into> already has kizu/<name> (<12 hex>)`; with --remove, when the worktree holds
 * ignored files: `saved <n> ignored files of <path> in refs/kizu/trash/<name>/<time>: <paths>`;
 * then `removed worktree <path>` (if it had one; followed by the ignored files and
 * directories that went with it), `deleted without a copy (over the <budget>-byte budget,
 * snapshot.maxFileBytes): <paths>` when some were not saved, `deleted branch kizu/<name> and
 * refs/kizu/tasks/<name>`, and `get the ignored files back: git worktree add --detach <path>
 * <ref>`. Ignored files over the budget are deleted only after confirmation: --yes, or `y`
 * on a terminal after the plan (the --dry-run lines; no: `cancelled: nothing changed`, exit
 * 0); without a terminal it prints the plan and refuses (exit 1) naming --dry-run and --yes. --dry-run prints the `would ...` lines, changes nothing.
 * @returns 0.
 * @throws KizuError from landTask (exit 1 for refusals, conflicts included); exit 1 when
 *   ignored files would be deleted without a copy and nobody can be asked.
 */
export async function taskLand(i: TaskLandInput): Promise<number> {
  const overBudget = (p: LandPlan) => `over the ${p.budget}-byte budget, snapshot.maxFileBytes`;
  const l = await landTask(i.cwd, i.name, {
    remove: i.remove,
    confirm: async (p) => {
      // The plan: what --dry-run prints, and what is shown before the question or a refusal.
      const plan = () => {
        i.reporter.log(`would land task ${p.name} in ${p.into}`);
        if (p.worktree) {
          if (p.save.length) i.reporter.log(`would save ${count(p.save.length, 'ignored file')} of ${p.worktree} in ${TASK_TRASH_PREFIX}${p.name}/<time>: ${listed(p.save)}`);
          i.reporter.log(`would remove worktree ${p.worktree}`);
          if (p.unsaved.length) i.reporter.log(`would delete without a copy (${overBudget(p)}): ${listed(p.unsaved)}`);
        }
        if (p.remove) i.reporter.log(`would delete branch ${taskBranch(p.name)} and ${taskRecordRef(p.name)}`);
      };
      if (i.dryRun) {
        plan();
        return false;
      }
      if (!p.unsaved.length || i.yes) return true;
      const what = `${count(p.unsaved.length, 'ignored file')} in ${quoteCStyle(p.worktree!)} ${p.unsaved.length === 1 ? 'is' : 'are'} ${overBudget(p)}, so --remove would delete ${p.unsaved.length === 1 ? 'it' : 'them'} without a copy (${listed(p.unsaved)})`;
      plan();
      if (!(i.interactive ?? canAsk())) {
        throw new KizuError(`not landing task "${p.name}" with --remove without confirmation: ${what}; no terminal to ask on`, {
          hint: `check the plan above (git kizu task land ${p.name} --remove --dry-run shows it again), then run git kizu task land ${p.name} --remove --yes, or move those files out first`,
          exitCode: EXIT.FOUND,
        });
      }
      if (await askYesNo(`${what}. Land task ${p.name} and remove its worktree?`)) return true;
      i.reporter.log('cancelled: nothing changed');
      return false;
    },
  });
  if (!l) return EXIT.OK;
  if (l.switched) i.reporter.log(`switched to ${l.into}`);
  if (l.how === 'up-to-date') i.reporter.log(`nothing to land: ${l.into} already has ${taskBranch(l.name)} (${short(l.tip)})`);
  else i.reporter.log(`landed task ${l.name} in ${l.into}: ${l.how === 'fast-forward' ? 'fast-forward to' : 'merge commit'} ${short(l.head)}`);
  if (l.removed) {
    const r = l.removed;
    if (r.worktree) {
      if (r.saved) i.reporter.log(`saved ${count(r.savedFiles.length, 'ignored file')} of ${r.worktree} in ${r.saved.ref}: ${listed(r.savedFiles)}`);
      const ig = r.ignored;
      i.reporter.log(`removed worktree ${r.worktree}${ig.length ? ` (with ${ig.length === 1 ? 'its ignored file' : `${ig.length} ignored files and directories`}: ${ig.join(', ')})` : ''}`);
      if (r.unsaved.length) i.reporter.log(`deleted without a copy (over the save budget, snapshot.maxFileBytes): ${listed(r.unsaved)}`);
    }
    i.reporter.log(`deleted branch ${taskBranch(l.name)} and ${taskRecordRef(l.name)}`);
    if (r.worktree && r.saved) i.reporter.log(`get the ignored files back: git worktree add --detach ${shellQuote(r.worktree)} ${r.saved.ref}`);
  }
  return EXIT.OK;
}
