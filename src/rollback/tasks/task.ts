/**
 * Tasks (the branch level of rollback): a task is a branch `kizu/<name>` started from HEAD
 * (or the baseline), optionally in its own linked worktree, with a record of its base in
 * `refs/kizu/tasks/<name>` (layout: ./records.ts). Tasks are landed (merged back into the
 * branch they started from) or discarded (`git kizu rollback branch`), after a copy is saved
 * in `refs/kizu/trash/<name>/<time>` (a removed task, layout: ./removed.ts) that
 * {@link restoreTask} brings back.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { quoteCStyle, shellPath } from '../../git/quote.js';
import { count } from '../../words.js';
import { git } from '../../git/run.js';
import { getBaseline } from '../../hunks/listing.js';
import {
  ZERO_OID,
  deleteRecord,
  getTask,
  headRef,
  isInside,
  listWorktrees,
  readRecord,
  resolve,
  shortBranch,
  statusPaths,
  taskBranch,
  taskBranchRef,
  taskRecordRef,
  validateTaskName,
  writeRecord,
  type TaskInfo,
  type WorktreeInfo,
} from './records.js';
import { checkSavedWorktree, ignoredToSave, readRemovedTask, restoreModes, saveRemovedTask, type RemovedTask } from './removed.js';
import { nestedRefusal, nestedRepositories, type NestedRepository } from './nested.js';
import { loadConfig, loadConfigLenient } from '../../config/config.js';
import { setWorktreeId } from '../snapshots/store.js';
import { gitDirFast, repoInfo } from '../../git/repo.js';
import type { SnapshotResult } from '../snapshots/snapshot.js';
import { ignoredInTheWay, refuseOverwrite } from './overwrite.js';
import { refPathClash } from '../../git/refs.js';

export { listTasks, getTask, validateTaskName, type TaskInfo } from './records.js';
export { readRemovedTask, type RemovedTask } from './removed.js';
export { type NestedRepository } from './nested.js';

async function exists(p: string): Promise<'none' | 'empty-dir' | 'other'> {
  try {
    const st = await stat(p);
    if (st.isDirectory() && (await readdir(p)).length === 0) return 'empty-dir';
    return 'other';
  } catch {
    return 'none';
  }
}

function gitMessage(stderr: string): string {
  return stderr
    .split('\n')
    .map((l) => l.replace(/^(fatal|error): /, ''))
    .filter((l) => l.trim() !== '' && !/^Preparing worktree/.test(l))
    .join('\n');
}

/** The default worktree path of a task: `<parent of main worktree>/<main dir name>-<name, '/' as '-'>`. */
export function defaultWorktreePath(mainRoot: string, name: string): string {
  return path.join(path.dirname(mainRoot), `${path.basename(mainRoot)}-${name.replace(/\//g, '-')}`);
}

/** What {@link startTask} did. */
export interface StartedTask {
  name: string;
  /** `kizu/<name>`. */
  branch: string;
  /** The commit the branch starts at (HEAD, or refs/kizu/baseline when set). */
  base: string;
  /** True when the base came from refs/kizu/baseline. */
  fromBaseline: boolean;
  /** Short name of the branch HEAD was on (the branch `land` merges into), null if detached. */
  from: string | null;
  /** The new linked worktree's absolute path; null when the current worktree was switched. */
  worktree: string | null;
  /** The record commit at refs/kizu/tasks/<name>. */
  record: string;
}

/**
 * Starts a task: creates branch `kizu/<name>` at the base (refs/kizu/baseline if set, else
 * HEAD; see getBaseline) and records it in refs/kizu/tasks/<name> (base = that commit,
 * from = the branch HEAD is on).
 * - `worktree` given (true: the default {@link defaultWorktreePath}; a string: that path,
 *   relative to `cwd`): `git worktree add -b kizu/<name> <path> <base>` (git-worktree(1)).
 * - otherwise: `git switch -c kizu/<name> <base>` in the current worktree (git-switch(1));
 *   uncommitted changes are carried over, and git refuses when they would be overwritten.
 * @throws KizuError exit 2: bad name (validateTaskName), no commit to start from; exit 1:
 *   the branch exists already, a ref clashes with its path (task `a` beside `a/b`:
 *   refPathClash), the worktree path exists and is not an empty directory, the
 *   switch would overwrite ignored files (./overwrite.ts; checked before it), git refuses to
 *   switch (its message, e.g. local changes that would be overwritten).
 */
export async function startTask(cwd: string, name: string, opts: { worktree?: boolean | string } = {}): Promise<StartedTask> {
  const { root } = await repoInfo(cwd);
  await validateTaskName(root, name);
  const ref = taskBranchRef(name);
  if (await resolve(root, ref)) {
    throw new KizuError(`task "${name}" already exists (branch ${taskBranch(name)})`, {
      hint: `pick another name, land it (git kizu task land ${name}) or discard it (git kizu rollback branch ${name}); git kizu task list shows them`,
      exitCode: EXIT.FOUND,
    });
  }
  for (const want of [ref, taskRecordRef(name)]) {
    const clash = await refPathClash(root, want);
    if (clash) {
      throw new KizuError(`task "${name}" cannot be created: ${clash} exists, and git cannot have ${want} beside it (refs are paths)`, {
        hint: `pick a name that is not a folder of another task's name nor inside one (git kizu task list shows the tasks; git branch --list shows the branches)`,
        exitCode: EXIT.FOUND,
      });
    }
  }
  const baseline = await getBaseline(root);
  const base = baseline.oid;
  const fromRef = await headRef(root);
  const oldRecord = await resolve(root, taskRecordRef(name));
  let worktree: string | null = null;
  if (opts.worktree) {
    const wts = await listWorktrees(root);
    worktree = opts.worktree === true ? defaultWorktreePath(wts[0].path, name) : path.resolve(cwd, opts.worktree);
    if ((await exists(worktree)) === 'other') {
      throw new KizuError(`cannot create the worktree of task "${name}": ${quoteCStyle(worktree)} already exists`, {
        hint: `give another path: git kizu task start ${name} --worktree <path>`,
        exitCode: EXIT.FOUND,
      });
    }
    const r = await git(['worktree', 'add', '--quiet', '-b', taskBranch(name), worktree, base], { cwd: root, okStatus: [0, 1, 128] });
    if (r.status !== 0) {
      // git may have created the branch before failing: drop it if it is still the bare start.
      const left = await listWorktrees(root);
      if (!left.some((w) => w.branch === ref)) await git(['update-ref', '-d', ref, base], { cwd: root, okStatus: [0, 1, 128] });
      throw new KizuError(`could not create the worktree of task "${name}" at ${quoteCStyle(worktree)}: ${gitMessage(r.stderr)}`, {
        hint: `give another path: git kizu task start ${name} --worktree <path>`,
        exitCode: EXIT.FOUND,
      });
    }
    worktree = (await listWorktrees(root)).find((w) => w.branch === ref)?.path ?? worktree;
  } else {
    // git would overwrite ignored files the base tracks (e.g. a config file ignored since).
    const inTheWay = await ignoredInTheWay(root, [base]);
    if (inTheWay.length) throw refuseOverwrite(root, inTheWay, `starting task "${name}" here (git switch -c ${taskBranch(name)} ${base.slice(0, 12)})`, `git kizu task start ${name}`);
    const r = await git(['switch', '--quiet', '--no-overwrite-ignore', '--no-track', '-c', taskBranch(name), base], { cwd: root, okStatus: [0, 1, 128] });
    if (r.status !== 0) {
      throw new KizuError(`could not switch to the new branch ${taskBranch(name)}: ${gitMessage(r.stderr)}`, {
        hint: `commit or stash your changes first (git stash -u), or start the task in its own worktree: git kizu task start ${name} --worktree`,
        exitCode: EXIT.FOUND,
      });
    }
  }
  const record = await writeRecord(root, name, { base, from: fromRef }, oldRecord, `git kizu task start ${name}`);
  return { name, branch: taskBranch(name), base, fromBaseline: baseline.fromRef, from: fromRef ? shortBranch(fromRef) : null, worktree, record };
}

/** What {@link landTask} did. */
export interface LandedTask {
  name: string;
  /** Short name of the branch it was merged into. */
  into: string;
  /** 'fast-forward', 'merge' (a merge commit) or 'up-to-date' (nothing to land). */
  how: 'fast-forward' | 'merge' | 'up-to-date';
  /** The landed branch tip. */
  tip: string;
  /** The target branch's commit after landing. */
  head: string;
  /** True when the current worktree was switched from the task branch to the target first. */
  switched: boolean;
  /**
   * With remove: the removed worktree (null: none), and that branch and record were deleted;
   * `ignored`: the ignored files and directories (`dir/`) deleted with the worktree;
   * `saved`: the copy of the worktree's files, ignored ones included (null: it had no
   * ignored files to save), `savedFiles` the ignored files in it; `unsaved`: the ignored
   * files deleted without a copy (over the budget; only after confirmation).
   */
  removed: { worktree: string | null; ignored: string[]; saved: RemovedTask | null; savedFiles: string[]; unsaved: string[] } | null;
}

/**
 * What {@link landTask} is about to do, shown to `opts.confirm` after every check passed and
 * before anything changes.
 */
export interface LandPlan {
  name: string;
  /** The branch it lands in (short name). */
  into: string;
  remove: boolean;
  /** With remove: the linked worktree that goes (null: none). */
  worktree: string | null;
  /** With remove: its ignored files and directories (`dir/`), as `git status --ignored` groups them. */
  ignored: string[];
  /** With remove: the ignored files saved in refs/kizu/trash/<name>/<time> first. */
  save: string[];
  /** With remove: the ignored files over the budget: deleted without a copy (a worktree with nested repositories is refused before the plan). */
  unsaved: string[];
  /** With remove: the budget in bytes for the saved ignored files (config snapshot.maxFileBytes; 0 without a worktree). */
  budget: number;
}

/**
 * The tree the worktree gets from merging `tip` into `target` (both commits): `tip` itself for
 * a fast-forward, else the tree `git merge-tree --write-tree` computes (git 2.38+; with
 * conflicts, the tree with their markers). A path deleted on `target` and unchanged on `tip`
 * is not in it. Falls back to `tip` (every path the task tracks) where git cannot compute it.
 */
async function mergeResult(root: string, target: string, tip: string): Promise<string> {
  const ff = await git(['merge-base', '--is-ancestor', target, tip], { cwd: root, okStatus: [0, 1] });
  if (ff.status === 0) return tip;
  const m = await git(['merge-tree', '--write-tree', '--no-messages', target, tip], { cwd: root, okStatus: [0, 1, 128, 129] });
  const tree = m.stdout.toString('utf8').split('\n')[0].trim();
  return (m.status === 0 || m.status === 1) && /^[0-9a-f]{40,64}$/.test(tree) ? tree : tip;
}

/**
 * Lands a task: merges `kizu/<name>` into the branch it started from (the record's
 * kizu-from) with `git merge --ff --no-autostash --no-edit -m "Merge branch 'kizu/<name>'"`
 * (git-merge(1): fast-forward when possible, else a merge commit). It runs in the current
 * worktree, which must have that branch checked out — or the task branch itself when the
 * task has no worktree of its own, in which case it first switches to the target branch
 * (and back again if the merge fails). On success the record's base moves to the landed tip.
 * With `remove`, the task's linked worktree is removed (`git worktree remove`, no force: it
 * is clean; ignored files go with it and are listed in the result), and the branch and
 * record are deleted (everything is merged, so nothing is lost). Before the worktree goes,
 * its files, ignored ones included (those config `snapshot.include` names, then the others
 * smallest first up to config `snapshot.maxFileBytes` in total: ./removed.ts ignoredToSave,
 * as `rollback branch` saves them), are saved as a removed-task commit (./removed.ts) in
 * `refs/kizu/trash/<name>/<time>`; `git worktree add --detach <path> <that ref>` brings them
 * back. After every check and before anything changes, `opts.confirm` sees the plan
 * ({@link LandPlan}); when it returns false nothing is done (result null).
 * On conflicts it runs `git merge --abort` (and switches back), leaving HEAD, index and
 * working tree as they were.
 * @throws KizuError exit 1: no such task; no record or it started on a detached HEAD; the
 *   target branch is not checked out here; uncommitted tracked changes here; uncommitted
 *   changes (untracked included) in the task's worktree; with `remove`, a nested repository
 *   or an initialised submodule in that worktree (./nested.ts: each named, before anything
 *   changes); ignored files here that the switch or the merge's result tree would overwrite
 *   (./overwrite.ts; before the plan, so a dry run refuses too); conflicts (message lists the files);
 *   git refuses the merge (its message). Exit 2: git failures.
 */
export async function landTask(
  cwd: string,
  name: string,
  opts: { remove?: boolean; confirm?: (plan: LandPlan) => Promise<boolean> } = {},
): Promise<LandedTask | null> {
  const { root } = await repoInfo(cwd);
  await validateTaskName(root, name);
  const task = await getTask(root, name);
  const rec = await readRecord(root, name);
  if (!task.tip) {
    throw new KizuError(`task "${name}" has no branch ${task.branch} any more`, {
      hint: `nothing to land; drop the record with git update-ref -d ${taskRecordRef(name)}`,
      exitCode: EXIT.FOUND,
    });
  }
  if (!rec || !rec.from) {
    throw new KizuError(`task "${name}" has no branch to land in (${rec ? 'it was started on a detached HEAD' : `no ${taskRecordRef(name)}`})`, {
      hint: `merge it yourself: git merge ${task.branch}`,
      exitCode: EXIT.FOUND,
    });
  }
  const into = shortBranch(rec.from);
  const here = await headRef(root);
  const wts = await listWorktrees(root);
  const switchFirst = here === taskBranchRef(name) && !task.linked;
  if (here !== rec.from && !switchFirst) {
    const holder = wts.find((w) => w.branch === rec.from);
    throw new KizuError(`task "${name}" lands in ${into}, which is not checked out in this worktree (${quoteCStyle(root)})`, {
      hint: holder ? `run it where ${into} is checked out: cd ${shellPath(holder.path)} && git kizu task land ${name}` : `switch to it first: git switch ${into}`,
      exitCode: EXIT.FOUND,
    });
  }
  if (task.linked && task.worktree) {
    const dirty = await statusPaths(task.worktree);
    if (dirty.length) {
      throw new KizuError(
        `task "${name}" has uncommitted changes in ${quoteCStyle(task.worktree)} (${count(dirty.length, 'file')}); they would not be landed`,
        { hint: `commit them there (git -C ${shellPath(task.worktree)} add -A && git -C ${shellPath(task.worktree)} commit), or remove them; then land again`, exitCode: EXIT.FOUND },
      );
    }
  }
  // A nested repository (or an initialised submodule) would go with the worktree, and no
  // copy can hold its history: refuse before anything changes.
  if (opts.remove && task.linked && task.worktree) {
    const nested = await nestedRepositories(task.worktree);
    if (nested.length) throw nestedRefusal(`landing task "${name}" with --remove`, task.worktree, nested, `git kizu task land ${name} --remove`, `land it and keep the worktree: git kizu task land ${name}`);
  }
  // `git worktree remove` deletes ignored files with the worktree: they are saved first
  // (within the budget); the plan names the ones that are not.
  let ignoredGone: string[] = [];
  let toSave: { save: string[]; unsaved: string[] } = { save: [], unsaved: [] };
  // The config is read only here, so a broken one blocks no other landing.
  let budget = 0;
  if (opts.remove && task.linked && task.worktree) {
    const cfg = (await loadConfig(root)).snapshot;
    budget = cfg.maxFileBytes;
    toSave = await ignoredToSave(task.worktree, budget, cfg.include);
    const ig = await git(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory'], { cwd: task.worktree });
    ignoredGone = ig.stdout.toString('utf8').split('\0').filter(Boolean);
  }
  const mine = await statusPaths(root, { trackedOnly: true });
  const merging = await resolve(root, 'MERGE_HEAD');
  if (mine.length || merging) {
    throw new KizuError(`${quoteCStyle(root)} has ${merging ? 'a merge in progress' : 'uncommitted changes'}; landing would mix them with the merge`, {
      hint: merging ? 'finish or abort that merge first (git merge --abort)' : 'commit or stash them first (git stash), then land again',
      exitCode: EXIT.FOUND,
    });
  }
  // git would overwrite ignored files here that the task's commits (or, switching first, the
  // target branch) track: refused before anything changes, so a --dry-run says it too.
  const target = switchFirst ? rec.from : 'HEAD';
  const moves: string[] = switchFirst ? [rec.from] : [];
  const landed = await git(['merge-base', '--is-ancestor', task.tip, target], { cwd: root, okStatus: [0, 1] });
  if (landed.status !== 0) moves.push(await mergeResult(root, target, task.tip));
  const inTheWay = await ignoredInTheWay(root, moves);
  if (inTheWay.length) throw refuseOverwrite(root, inTheWay, `landing task "${name}" in ${into}`, `git kizu task land ${name}${opts.remove ? ' --remove' : ''}`);
  const removing = !!opts.remove && task.linked && !!task.worktree;
  const plan: LandPlan = {
    name,
    into,
    remove: !!opts.remove,
    worktree: removing ? task.worktree : null,
    ignored: ignoredGone,
    save: toSave.save,
    unsaved: toSave.unsaved,
    budget,
  };
  if (opts.confirm && !(await opts.confirm(plan))) return null;
  if (switchFirst) {
    const s = await git(['switch', '--quiet', '--no-overwrite-ignore', into], { cwd: root, okStatus: [0, 1, 128] });
    if (s.status !== 0) {
      throw new KizuError(`could not switch to ${into} to land task "${name}": ${gitMessage(s.stderr)}`, {
        hint: `switch yourself (git switch ${into}), then land again`,
        exitCode: EXIT.FOUND,
      });
    }
  }
  const before = (await resolve(root, 'HEAD'))!;
  const back = async () => {
    if (switchFirst) await git(['switch', '--quiet', '--no-overwrite-ignore', taskBranch(name)], { cwd: root, okStatus: [0, 1, 128] });
  };
  let how: LandedTask['how'];
  const anc = await git(['merge-base', '--is-ancestor', task.tip, before], { cwd: root, okStatus: [0, 1] });
  if (anc.status === 0) how = 'up-to-date';
  else {
    const m = await git(['merge', '--ff', '--no-autostash', '--no-overwrite-ignore', '--no-edit', '-m', `Merge branch '${taskBranch(name)}'`, task.tip], {
      cwd: root,
      okStatus: [0, 1, 2, 128],
    });
    if (m.status !== 0) {
      const inMerge = await resolve(root, 'MERGE_HEAD');
      if (inMerge) {
        const u = await git(['diff', '--name-only', '-z', '--diff-filter=U'], { cwd: root });
        const files = u.stdout.toString('utf8').split('\0').filter(Boolean);
        await git(['merge', '--abort'], { cwd: root });
        await back();
        throw new KizuError(`task "${name}" does not merge cleanly into ${into}: conflicts in ${files.join(', ') || '(unknown files)'}; nothing was changed (git merge --abort)`, {
          hint: task.worktree
            ? `merge ${into} into the task and resolve there: git -C ${task.worktree} merge ${into}; then land again`
            : `merge ${into} into the task and resolve: git switch ${task.branch} && git merge ${into}; then land again`,
          exitCode: EXIT.FOUND,
        });
      }
      await back();
      throw new KizuError(`git refused to merge task "${name}" into ${into}: ${gitMessage(m.stderr) || gitMessage(m.stdout.toString('utf8'))}`, {
        hint: `fix what git names above, then land again`,
        exitCode: EXIT.FOUND,
      });
    }
    const head = (await resolve(root, 'HEAD'))!;
    how = head === task.tip ? 'fast-forward' : 'merge';
  }
  const head = (await resolve(root, 'HEAD'))!;
  let removed: LandedTask['removed'] = null;
  if (opts.remove) {
    let wtPath: string | null = null;
    let saved: RemovedTask | null = null;
    if (task.linked && task.worktree) {
      if (plan.save.length) {
        try {
          saved = await saveRemovedTask(root, {
            name,
            tip: task.tip,
            base: rec.base,
            from: rec.from,
            files: task.worktree,
            linked: true,
            ignored: plan.save,
            reason: `git kizu task land --remove ${name}`,
          });
        } catch (e) {
          if (!(e instanceof KizuError)) throw e;
          throw new KizuError(`landed task "${name}", but could not save the ignored files of its worktree ${quoteCStyle(task.worktree)}, so it was kept: ${e.message}`, {
            hint: `copy what you need out of it, then remove it: git worktree remove ${shellPath(task.worktree)}`,
          });
        }
      }
      const r = await git(['worktree', 'remove', task.worktree], { cwd: root, okStatus: [0, 1, 128] });
      if (r.status !== 0) {
        throw new KizuError(`landed task "${name}", but could not remove its worktree ${quoteCStyle(task.worktree)}: ${gitMessage(r.stderr)}`, {
          hint: `remove it yourself: git worktree remove ${shellPath(task.worktree)}`,
        });
      }
      wtPath = task.worktree;
    }
    await git(['update-ref', '-m', `git kizu task land --remove ${name}`, '-d', taskBranchRef(name), task.tip], { cwd: root });
    await deleteRecord(root, name, rec.commit);
    removed = { worktree: wtPath, ignored: wtPath ? ignoredGone : [], saved, savedFiles: saved ? plan.save : [], unsaved: wtPath ? plan.unsaved : [] };
  } else if (rec.base !== task.tip) {
    await writeRecord(root, name, { base: task.tip, from: rec.from, created: rec.created }, rec.commit, `git kizu task land ${name}`);
  }
  return { name, into, how, tip: task.tip, head, switched: switchFirst, removed };
}

/** The config of `root`: strict, or lenient when `configProblem` is given (which is told what is wrong). */
async function configOf(root: string, configProblem?: (line: string) => void) {
  if (!configProblem) return loadConfig(root);
  const r = await loadConfigLenient(root);
  if (r.problem) configProblem(r.problem);
  return r.config;
}

/** What {@link planDiscard} found: how `rollback branch` would discard a task. */
export interface DiscardPlan {
  task: TaskInfo;
  /** The current worktree's root (where the safety snapshot is taken). */
  root: string;
  /**
   * 'linked': the branch is checked out in a linked worktree (saved, then removed);
   * 'main': it is checked out in the main worktree (switched back to `from` first);
   * 'none': it is not checked out anywhere.
   */
  mode: 'linked' | 'main' | 'none';
  /** The worktree that has the branch checked out, if any. */
  worktree: WorktreeInfo | null;
  /** Short name of the branch the main worktree switches back to ('main' mode). */
  switchTo: string | null;
  /** Commits on the branch not on the base (not on any other branch when there is no base). */
  commits: number;
  /** Changed and untracked (not ignored) files in the worktree: all saved. */
  files: string[];
  /**
   * Ignored files of a linked worktree saved with the copy (as `task land --remove` saves
   * them, ./removed.ts ignoredToSave): those config `snapshot.include` names, then the others
   * smallest first up to `budget` bytes in total.
   */
  savedIgnored: string[];
  /**
   * Ignored files of a linked worktree over the budget, and ignored nested repositories
   * (`dir/`): removed with it without a copy.
   */
  ignored: string[];
  /** The budget in bytes for the saved ignored files (config snapshot.maxFileBytes). */
  budget: number;
  /** Config `snapshot.include` (ignored files it names are saved whatever their size). */
  include: string[];
  /**
   * Nested repositories and initialised submodules in a linked worktree (./nested.ts): while
   * there are any, {@link discardTask} refuses.
   */
  nested: NestedRepository[];
}

/**
 * Checks that task `name` can be discarded from `cwd` and says what would happen; changes
 * nothing. With `opts.configProblem`, an invalid config is that warning rather than an
 * error (config/config.ts loadConfigLenient: its valid keys, defaults for the rest), so a
 * broken config never keeps anyone from discarding a task.
 * @throws KizuError exit 1: no such task or branch; `cwd` is inside the task's linked
 *   worktree; that worktree is locked (`git worktree lock`); the branch is checked out in a
 *   worktree that is not linked and has uncommitted tracked changes, ignored files that
 *   switching it back would overwrite (./overwrite.ts), or no branch to switch back to.
 *   Exit 2: bad name, git failures.
 */
export async function planDiscard(cwd: string, name: string, opts: { configProblem?: (line: string) => void } = {}): Promise<DiscardPlan> {
  const { root } = await repoInfo(cwd);
  await validateTaskName(root, name);
  const task = await getTask(root, name);
  if (!task.tip) {
    throw new KizuError(`task "${name}" has no branch ${task.branch}: there is nothing to discard`, {
      hint: `drop the leftover record with git update-ref -d ${taskRecordRef(name)}`,
      exitCode: EXIT.FOUND,
    });
  }
  const wts = await listWorktrees(root);
  const wt = wts.find((w) => w.branch === taskBranchRef(name)) ?? null;
  const rec = await readRecord(root, name);
  let mode: DiscardPlan['mode'] = 'none';
  let switchTo: string | null = null;
  let files: string[] = [];
  let savedIgnored: string[] = [];
  let ignored: string[] = [];
  const config = (await configOf(root, opts.configProblem)).snapshot;
  const include = config.include;
  const budget = config.maxFileBytes;
  let nested: NestedRepository[] = [];
  if (wt && !wt.main) {
    mode = 'linked';
    if (isInside(cwd, wt.path)) {
      throw new KizuError(`the current directory is inside task "${name}"'s worktree ${quoteCStyle(wt.path)}; it cannot be removed from within`, {
        hint: `cd out of it (e.g. cd ${shellPath(wts[0].path)}) and run git kizu rollback branch ${name} again`,
        exitCode: EXIT.FOUND,
      });
    }
    if (wt.locked) {
      throw new KizuError(`task "${name}"'s worktree ${quoteCStyle(wt.path)} is locked${wt.lockReason ? ` (${wt.lockReason})` : ''}`, {
        hint: `if it may go, unlock it first (git worktree unlock ${shellPath(wt.path)}), then run git kizu rollback branch ${name} again`,
        exitCode: EXIT.FOUND,
      });
    }
    if (!wt.prunable) {
      nested = await nestedRepositories(wt.path);
      files = await statusPaths(wt.path);
      // `git worktree remove` deletes the ignored files: saved first, as task land --remove does.
      const ig = await ignoredToSave(wt.path, budget, include);
      savedIgnored = ig.save;
      ignored = ig.unsaved;
    }
  } else if (wt) {
    mode = 'main';
    if (!rec?.from || rec.from === taskBranchRef(name)) {
      throw new KizuError(`task "${name}" is checked out in ${quoteCStyle(wt.path)} and has no branch to switch back to`, {
        hint: `switch that worktree to another branch yourself (git switch <branch>), then run git kizu rollback branch ${name} again`,
        exitCode: EXIT.FOUND,
      });
    }
    switchTo = shortBranch(rec.from);
    const dirty = await statusPaths(wt.path, { trackedOnly: true });
    if (dirty.length) {
      throw new KizuError(
        `task "${name}" is checked out in ${quoteCStyle(wt.path)}, which has uncommitted changes to ${count(dirty.length, 'tracked file')} (${dirty.slice(0, 5).map((p) => quoteCStyle(p)).join(', ')}${dirty.length > 5 ? ', ...' : ''}); switching back to ${switchTo} could lose them`,
        { hint: `commit them (or stash them: git stash -u), then run git kizu rollback branch ${name} again`, exitCode: EXIT.FOUND },
      );
    }
    // Nested repositories (`dir/`) stay where they are (a switch leaves them) and are not in the copy.
    files = (await statusPaths(wt.path)).filter((p) => !p.endsWith('/'));
    // git would overwrite ignored files there that the branch switched back to tracks.
    const inTheWay = await ignoredInTheWay(wt.path, [rec.from]);
    if (inTheWay.length) throw refuseOverwrite(wt.path, inTheWay, `switching ${wt.path} back to ${switchTo}`, `git kizu rollback branch ${name}`);
  }
  const range = rec
    ? [`${rec.base}..${task.tip}`]
    : [task.tip, '--not', `--exclude=${taskBranchRef(name)}`, '--branches'];
  const commits = Number((await git(['rev-list', '--count', ...range], { cwd: root })).stdout.toString('utf8').trim());
  return { task, root, mode, worktree: wt, switchTo, commits, files, savedIgnored, ignored, budget, include, nested };
}

/**
 * The refusal (exit 1) of `rollback branch <name>` while its worktree `wt` holds the nested
 * repositories `nested` (./nested.ts nestedRefusal).
 */
export function discardRefusal(name: string, wt: string, nested: NestedRepository[]): KizuError {
  return nestedRefusal(`discarding task "${name}"`, wt, nested, `git kizu rollback branch ${name}`);
}

/** What {@link discardTask} did. */
export interface DiscardedTask extends DiscardPlan {
  /** The saved copy (refs/kizu/trash/<name>/<time>). */
  copy: RemovedTask;
  /** The safety snapshot of the current worktree taken before anything changed. */
  safety: SnapshotResult;
  /** Why the rollback could not be recorded in the undo log, or null when it was. */
  undoError: Error | null;
}

/**
 * Discards task `name` after {@link planDiscard}'s checks. Order: the undo log is checked
 * (undo-log.ts checkUndoLog: a broken one stops it before anything changes); a safety snapshot of the
 * current worktree (`plan.root`; takeSnapshot kind 'safety', message `before git kizu
 * rollback branch <name>`; handed to `opts.onSafetySnapshot` as soon as it is taken); save
 * the copy (./removed.ts: worktree files, untracked included, the ignored files of
 * `plan.savedIgnored` with their exact permission bits, and the tip as parent) in
 * refs/kizu/trash/<name>/<time>; then 'main' mode `git switch <from>`, 'linked' mode
 * `git worktree remove --force <path>` (git-worktree(1); the ignored files not saved,
 * `plan.ignored`, go with it); then
 * delete the branch (`git update-ref -d refs/heads/kizu/<name> <tip>`, compare-and-swap)
 * and the record; last, the rollback goes in the undo log (recordRollback level 'branch',
 * time the copy's, with undo {kind: 'branch', name, trashRef, worktree} and changed `[]`) so that `git kizu
 * undo` brings the task back ({@link restoreTask}). A failure to record it does not undo
 * the discard: its error is returned in `undoError`.
 * `opts.configProblem`: an invalid config is that warning, not an error (takeSnapshot).
 * @throws KizuError as planDiscard; exit 1 when the linked worktree holds a nested repository
 *   or an initialised submodule ({@link discardRefusal}, looked for again here); those of
 *   checkUndoLog and takeSnapshot (nothing changed then); exit 1
 *   when a step after the save fails (the message names the saved copy, which stays).
 */
export async function discardTask(
  plan: DiscardPlan,
  opts: { onSafetySnapshot?: (snap: SnapshotResult) => void; configProblem?: (line: string) => void } = {},
): Promise<DiscardedTask> {
  const { task, root } = plan;
  const name = task.name;
  const tip = task.tip!;
  // Loaded here only: starting, listing and landing tasks need neither.
  const { takeSnapshot } = await import('../snapshots/snapshot.js');
  const { checkUndoLog, recordRollback } = await import('../undo-log.js');
  // Looked for again: one may have been made since the plan.
  if (plan.mode === 'linked' && !plan.worktree!.prunable) {
    const nested = await nestedRepositories(plan.worktree!.path);
    if (nested.length) throw discardRefusal(name, plan.worktree!.path, nested);
  }
  await checkUndoLog(root);
  const safety = await takeSnapshot(root, { kind: 'safety', message: `before git kizu rollback branch ${name}`, configProblem: opts.configProblem });
  opts.onSafetySnapshot?.(safety);
  const rec = await readRecord(root, name);
  const copy = await saveRemovedTask(root, {
    name,
    tip,
    base: rec?.base ?? null,
    from: rec?.from ?? null,
    files: plan.mode === 'none' || plan.worktree?.prunable ? null : plan.worktree!.path,
    linked: plan.mode === 'linked',
    checkout: plan.mode === 'main' ? plan.worktree!.path : null,
    ignored: plan.savedIgnored,
  });
  const fail = (what: string, stderr: string) =>
    new KizuError(`saved task "${name}" in ${copy.ref}, but could not ${what}: ${gitMessage(stderr)}`, {
      hint: `the copy stays in ${copy.ref}; fix the problem and run git kizu rollback branch ${name} again`,
      exitCode: EXIT.FOUND,
    });
  if (plan.mode === 'main') {
    const s = await git(['switch', '--quiet', '--no-overwrite-ignore', plan.switchTo!], { cwd: plan.worktree!.path, okStatus: [0, 1, 128] });
    if (s.status !== 0) throw fail(`switch ${plan.worktree!.path} to ${plan.switchTo}`, s.stderr);
  } else if (plan.mode === 'linked') {
    const r = await git(['worktree', 'remove', '--force', plan.worktree!.path], { cwd: root, okStatus: [0, 1, 128] });
    if (r.status !== 0) throw fail(`remove the worktree ${plan.worktree!.path}`, r.stderr);
  }
  const d = await git(['update-ref', '-m', `git kizu rollback branch ${name}`, '-d', taskBranchRef(name), tip], { cwd: root, okStatus: [0, 1, 128] });
  if (d.status !== 0) throw fail(`delete branch ${task.branch}`, d.stderr);
  if (rec) await deleteRecord(root, name, rec.commit);
  let undoError: Error | null = null;
  try {
    await recordRollback(root, {
      level: 'branch',
      time: copy.time,
      safetySnapshot: safety.id,
      description: `discarded task ${name} (${task.branch} at ${tip.slice(0, 12)})`,
      undo: { kind: 'branch', name, trashRef: copy.ref, ...(copy.worktree ? { worktree: copy.worktree } : {}) },
      // No file of this worktree was changed: the task's files (a linked worktree, or the
      // main worktree's checkout) come back with the task itself (restoreTask).
      changed: [],
    });
  } catch (e) {
    undoError = e as Error;
  }
  return { ...plan, copy, safety, undoError };
}

/**
 * Brings back a task discarded by `git kizu rollback branch` (what `git kizu undo` calls for
 * an undo record `{kind: 'branch', name, trashRef, worktree}`):
 * 1. recreates branch `kizu/<name>` at the saved tip (`git update-ref <ref> <tip> 0000...`,
 *    or `git worktree add -b` when `worktree` is given);
 * 2. with `worktree`: a linked worktree there, the saved files written back unstaged
 *    (`git restore --source=<copy> --worktree -- :/`, git-restore(1): changed files,
 *    deletions, and the untracked files untracked again) with their exact saved permission
 *    bits (./removed.ts restoreModes; git alone would give the umask's), and the saved index read back
 *    (`git read-tree <index commit>`, git-read-tree(1)) when something was staged;
 * 3. for a task that was checked out in the main worktree (kizu-checkout in the
 *    removed-task commit): switches that worktree back to `kizu/<name>` (`git switch`) if it is still on
 *    the branch it was switched to and has no uncommitted tracked changes (else it is left
 *    as it is);
 * 4. recreates the record refs/kizu/tasks/<name> from the saved base and from-branch when it
 *    does not exist.
 * It is idempotent: a branch already at the saved tip, or a worktree already holding the
 * branch, counts as done (so a retried undo goes on). The removed task's ref is kept.
 * @returns the files of the recreated worktree whose permission bits could not be set.
 * @param root any worktree of the repository.
 * @param name the task name (`<name>` of kizu/<name>, as in the undo record).
 * @param trashRef the ref printed by rollback branch (`refs/kizu/trash/<name>/<time>`) or
 *   its commit id.
 * @param worktree absolute path where the task's linked worktree was (omit for a task that
 *   had none: only the branch comes back).
 * @throws KizuError exit 1: `trashRef` is not a saved task, or one of another name; branch
 *   kizu/<name> exists at another commit; `worktree` exists and is neither an empty
 *   directory nor the task's worktree. Exit 2: bad name, git failures.
 */
export async function restoreTask(root: string, name: string, trashRef: string, worktree?: string): Promise<{ modeFailures: { path: string; error: string }[] }> {
  let modeFailures: { path: string; error: string }[] = [];
  await validateTaskName(root, name);
  const t = await readRemovedTask(root, trashRef);
  if (t.name !== name) {
    throw new KizuError(`${trashRef} holds task "${t.name}", not "${name}"`, { hint: `restore it under its own name`, exitCode: EXIT.FOUND });
  }
  const ref = taskBranchRef(name);
  const cur = await resolve(root, ref);
  if (cur && cur !== t.tip) {
    throw new KizuError(`cannot bring back task "${name}": branch ${taskBranch(name)} exists again (at ${cur.slice(0, 12)})`, {
      hint: `rename it first (git branch -m ${taskBranch(name)} ${taskBranch(name)}-new), then try again; the copy stays in ${trashRef}`,
      exitCode: EXIT.FOUND,
    });
  }
  const manual = `the copy stays in ${trashRef}; by hand: git branch ${taskBranch(name)} ${t.tip}`;
  // The undo record and the saved copy name the same worktree when rollback branch wrote them.
  if (worktree) checkSavedWorktree(t, path.resolve(root, worktree), trashRef);
  if (worktree) {
    const wt = path.resolve(root, worktree);
    const holder = (await listWorktrees(root)).find((w) => w.branch === ref);
    const done = holder && canonicalEq(holder.path, wt);
    if (holder && !done) {
      throw new KizuError(`cannot bring back the worktree of task "${name}" at ${quoteCStyle(wt)}: ${taskBranch(name)} is checked out in ${quoteCStyle(holder.path)}`, { hint: manual, exitCode: EXIT.FOUND });
    }
    if (!done) {
      if ((await exists(wt)) === 'other') {
        throw new KizuError(`cannot bring back the worktree of task "${name}": ${quoteCStyle(wt)} exists`, { hint: `move it away, then try again; ${manual}`, exitCode: EXIT.FOUND });
      }
      const args = cur ? ['worktree', 'add', '--quiet', wt, taskBranch(name)] : ['worktree', 'add', '--quiet', '-b', taskBranch(name), wt, t.tip];
      const r = await git(args, { cwd: root, okStatus: [0, 1, 128] });
      if (r.status !== 0) {
        if (!cur && !(await listWorktrees(root)).some((w) => w.branch === ref)) await git(['update-ref', '-d', ref, t.tip], { cwd: root, okStatus: [0, 1, 128] });
        throw new KizuError(`cannot bring back the worktree of task "${name}" at ${quoteCStyle(wt)}: ${gitMessage(r.stderr)}`, { hint: manual });
      }
      await git(['restore', `--source=${t.commit}`, '--worktree', '--', ':/'], { cwd: wt });
      // git writes files with the umask's bits; the copy recorded the exact ones.
      modeFailures = await restoreModes(root, wt, t);
      if (t.index) await git(['read-tree', t.index], { cwd: wt });
      // The same worktree again to the snapshots and rollbacks made in it before.
      const wtGitDir = gitDirFast(wt);
      if (t.worktreeId && wtGitDir) setWorktreeId(wtGitDir, t.worktreeId);
    }
  } else if (!cur) {
    await git(['update-ref', '-m', `git kizu undo: task ${name}`, ref, t.tip, ZERO_OID], { cwd: root });
  }
  // Switched back only when it is still one of this repository's worktrees (the copy's path is stored state).
  if (t.checkout && t.from && (await exists(t.checkout)) === 'other' && (await listWorktrees(root)).some((w) => canonicalEq(w.path, t.checkout!))) {
    const on = await headRef(t.checkout).catch(() => null);
    if (on === t.from && !(await statusPaths(t.checkout, { trackedOnly: true })).length) {
      await git(['switch', '--quiet', '--no-overwrite-ignore', taskBranch(name)], { cwd: t.checkout, okStatus: [0, 1, 128] });
    }
  }
  if (t.base && !(await resolve(root, taskRecordRef(name))) && (await resolve(root, `${t.base}^{commit}`))) {
    await writeRecord(root, name, { base: t.base, from: t.from }, null, `git kizu undo: task ${name}`);
  }
  return { modeFailures };
}

function canonicalEq(a: string, b: string): boolean {
  return isInside(a, b) && isInside(b, a);
}
