/** `git kizu task start|list|land`: a branch `kizu/<name>` per task, optionally in its own worktree. */
import { EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { repoInfo } from '../git/repo.js';
import { BASELINE_REF } from '../git/layout.js';
import { landTask, listTasks, startTask, type TaskInfo } from '../rollback/tasks/task.js';
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

/**
 * `git kizu task land <name> [--remove]` (see landTask). Prints `switched to <into>` when it
 * switched first, then one of `landed task <name> in <into>: fast-forward to <12 hex>`,
 * `landed task <name> in <into>: merge commit <12 hex>`, `nothing to land: <into> already
 * has kizu/<name> (<12 hex>)`; with --remove also `removed worktree <path>` (if it had one;
 * followed by the ignored files that went with it) and `deleted branch kizu/<name> and refs/kizu/tasks/<name>`.
 * @returns 0.
 * @throws KizuError from landTask (exit 1 for refusals, conflicts included).
 */
export async function taskLand(i: { cwd: string; name: string; remove: boolean; reporter: Reporter }): Promise<number> {
  const l = await landTask(i.cwd, i.name, { remove: i.remove });
  if (l.switched) i.reporter.log(`switched to ${l.into}`);
  if (l.how === 'up-to-date') i.reporter.log(`nothing to land: ${l.into} already has ${taskBranch(l.name)} (${short(l.tip)})`);
  else i.reporter.log(`landed task ${l.name} in ${l.into}: ${l.how === 'fast-forward' ? 'fast-forward to' : 'merge commit'} ${short(l.head)}`);
  if (l.removed) {
    if (l.removed.worktree) {
      const ig = l.removed.ignored;
      i.reporter.log(`removed worktree ${l.removed.worktree}${ig.length ? ` (with ${ig.length === 1 ? 'its ignored file' : `${ig.length} ignored files and directories`}: ${ig.join(', ')})` : ''}`);
    }
    i.reporter.log(`deleted branch ${taskBranch(l.name)} and ${taskRecordRef(l.name)}`);
  }
  return EXIT.OK;
}
