/**
 * `git kizu undo`: reverses the newest rollback in the undo log (undo-log.ts), whatever its level.
 *
 * 1. For a branch rollback (`undo.kind === 'branch'`, written by `git kizu rollback branch`):
 *    brings the task back with task.ts restoreTask: branch `kizu/<name>` at the saved tip
 *    (refused if that branch exists at another commit; one at the very tip counts as done,
 *    so a retried undo goes on), and when the record names a worktree, that worktree with
 *    the files saved in the removed-task commit (see tasks/removed.ts).
 * 2. Restores, in the worktree the record's safety snapshot was taken in (the snapshot
 *    metadata names it; the current one if that directory is gone and not recreated), the
 *    paths the rollback changed (record.changed; none for a branch rollback) to what that
 *    snapshot holds, and only those: later edits to other files stay. With `wholeSnapshot`
 *    (or for a record without `changed`), the whole working tree goes back to the snapshot.
 *    A path whose content is not what the rollback left there (edited since) is marked in
 *    the plan (`editedSinceRollback`). restoreSnapshot first takes a new safety snapshot of
 *    the whole working tree, so an undo can itself be reversed with
 *    `git kizu rollback snapshot <that snapshot>`, and every edit it takes away is kept there.
 * 3. For a patch rollback (`git kizu rollback patch`), records the undo in the edit journal
 *    (journal/journal.ts): an entry of tool `undo` whose `rollbackOf` is the rollback's own
 *    journal entry (record.journalEntry; for records written before it was kept, the
 *    `rollback` entry of the same time), with the files the undo changed among those that
 *    entry wrote: a rollback of the rollback, so the journal shows the rolled-back entries
 *    in effect again and `git kizu rollback patch` of them works as after
 *    `git kizu rollback patch <rollback entry>`. Other levels change files outside the
 *    journal both ways (the rollback and its undo), so the journal's picture after the undo
 *    is what it was before the rollback; nothing is recorded.
 * 4. Pops the record once the working tree was changed (or already matched).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import { quoteCStyle, shellPath } from '../git/quote.js';
import { git } from '../git/run.js';
import { gitDirFast } from '../git/repo.js';
import { resolveKizuRef } from '../git/refs.js';
import { TASK_TRASH_PREFIX } from '../git/layout.js';
import { readRollbacks, popRollback, pathHash, type RollbackRecord } from './undo-log.js';
import { readSnapshot, type SnapshotInfo } from './snapshots/snapshot.js';
import { sameWorktree, worktreeId } from './snapshots/store.js';
import { restoreSnapshot, type RestoreOptions, type RestorePlan } from './snapshots/restore.js';

/** The branch part of an undo. */
export interface BranchUndo {
  /** Task name (`<name>` of kizu/<name>). */
  name: string;
  /** The branch recreated, e.g. `kizu/<name>`. */
  branch: string;
  /** The commit the branch is recreated at (the tip saved in the removed-task commit). */
  commit: string;
  trashRef: string;
  /** Worktree to recreate, if any. */
  worktree: string | null;
  /** True if the branch already exists at that commit (nothing to do for it). */
  branchExists: boolean;
  /** True if the worktree already exists (nothing to do for it). */
  worktreeExists: boolean;
  /**
   * The worktree the rollback switched from the task's branch to `from` (short name), which
   * undo switches back to the branch (`git switch`); null when there is none.
   */
  switchBack: { worktree: string; from: string } | null;
}

/** What an undo does (or did). */
export interface UndoResult {
  record: RollbackRecord;
  /** The working tree restored (absolute). */
  worktree: string;
  /** True when that is not the worktree undo was run in (the rollback was made there). */
  elsewhere: boolean;
  branch: BranchUndo | null;
  /**
   * The paths restored: those the rollback changed (record.changed), or null for the whole
   * snapshot (asked with `wholeSnapshot`, or a record from before the paths were kept).
   */
  scope: string[] | null;
  /**
   * The restore plan; null in a dry run whose worktree does not exist yet. Its changes at
   * paths edited since the rollback (what is there now is not what the rollback left) have
   * `editedSinceRollback: true`: those edits are taken away too (kept in the undo's safety
   * snapshot).
   */
  plan: RestorePlan | null;
  /** True once the record was removed from the log. */
  popped: boolean;
  /** Why the record could not be removed after the restore (the log could not be written), if so. */
  popError?: string;
  /**
   * For a patch rollback, once undone: the journal entry recording the undo (its id, short id,
   * and the short id of the rollback entry it undoes); null when none was recorded (another
   * level, nothing written, no journal entry of the rollback, or `journalError`).
   */
  journalEntry: { id: string; short: string; undoes: string } | null;
  /** Why the undo of a patch rollback could not be recorded in the journal, if so. */
  journalError?: string;
  dryRun: boolean;
}

async function revParse(root: string, spec: string): Promise<string | null> {
  const r = await git(['rev-parse', '-q', '--verify', spec], { cwd: root, okStatus: [0, 1, 128] });
  return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
}

function isWorktree(dir: string): boolean {
  return existsSync(dir) && gitDirFast(dir) !== null;
}

async function branchPlan(root: string, u: NonNullable<RollbackRecord['undo']>): Promise<BranchUndo> {
  const { readRemovedTask } = await import('./tasks/task.js');
  const { taskBranch, taskBranchRef } = await import('./tasks/records.js');
  const branch = taskBranch(u.name);
  // The trash ref at the wrong object or a missing one is said as such (exit 2), not as gone.
  if (u.trashRef.startsWith(TASK_TRASH_PREFIX)) await resolveKizuRef(root, u.trashRef);
  if (!(await revParse(root, `${u.trashRef}^{commit}`))) {
    throw new KizuError(`cannot bring back branch ${branch}: ${u.trashRef} no longer exists`, {
      hint: 'the discarded task is gone; git reflog may still have its commits',
    });
  }
  const copy = await readRemovedTask(root, u.trashRef);
  if (u.worktree) (await import('./tasks/removed.js')).checkSavedWorktree(copy, path.resolve(u.worktree), u.trashRef);
  const commit = copy.tip;
  let switchBack: BranchUndo['switchBack'] = null;
  // The task was checked out in a worktree that the rollback switched to another branch:
  // undo switches it back, which needs it still on that branch and without uncommitted
  // changes; otherwise the task's files would be restored onto that branch.
  if (copy.checkout && copy.from && existsSync(copy.checkout)) {
    const { headRef, statusPaths } = await import('./tasks/records.js');
    const on = await headRef(copy.checkout).catch(() => null);
    const from = copy.from.replace(/^refs\/heads\//, '');
    if (on !== copy.from) {
      throw new KizuError(`cannot bring back task "${u.name}": ${quoteCStyle(copy.checkout)} is no longer on ${from}, where the rollback left it`, {
        hint: `switch it back (git -C ${shellPath(copy.checkout)} switch ${from}), then run git kizu undo again; nothing was changed`,
        exitCode: EXIT.FOUND,
      });
    }
    const dirty = await statusPaths(copy.checkout, { trackedOnly: true });
    if (dirty.length) {
      throw new KizuError(`cannot bring back task "${u.name}": ${quoteCStyle(copy.checkout)} has uncommitted changes (${dirty.slice(0, 5).map((d) => quoteCStyle(d)).join(', ')}${dirty.length > 5 ? ', ...' : ''}), and undo has to switch it back to ${branch}`, {
        hint: `commit or stash them (git -C ${shellPath(copy.checkout)} stash), then run git kizu undo again; nothing was changed`,
        exitCode: EXIT.FOUND,
      });
    }
    // git would overwrite ignored files there that the task's commits track.
    const { ignoredInTheWay, refuseOverwrite } = await import('./tasks/overwrite.js');
    const inTheWay = await ignoredInTheWay(copy.checkout, [commit]);
    if (inTheWay.length) throw refuseOverwrite(copy.checkout, inTheWay, `undo (switching ${copy.checkout} back to ${branch})`, 'git kizu undo');
    switchBack = { worktree: copy.checkout, from };
  }
  const existing = await revParse(root, taskBranchRef(u.name));
  if (existing && existing !== commit) {
    throw new KizuError(`cannot bring back branch ${branch}: a branch of that name exists again (at ${existing.slice(0, 12)})`, {
      hint: `rename or delete it (git branch -m ${branch} ${branch}-new), then run git kizu undo again`,
      exitCode: EXIT.FOUND,
    });
  }
  const worktree = u.worktree ?? null;
  const worktreeExists = worktree !== null && isWorktree(worktree);
  if (worktree && !worktreeExists && existsSync(worktree)) {
    throw new KizuError(`cannot recreate the worktree ${quoteCStyle(worktree)}: something else is there now`, {
      hint: 'move it away, then run git kizu undo again',
      exitCode: EXIT.FOUND,
    });
  }
  return { name: u.name, branch, commit, trashRef: u.trashRef, worktree, branchExists: existing === commit, worktreeExists, switchBack };
}

/**
 * The worktree a rollback happened in, where its undo restores the safety snapshot `snap`:
 * this one (`root`) if the snapshot was taken here (by worktree identity, which survives
 * moving the repository: store.ts worktreeId); the recorded path when the undo recreates the
 * worktree there (`recreated`, a branch rollback); else the worktree of the repository that
 * has the snapshot's identity, wherever it is now. A snapshot without an identity (taken
 * before identities were recorded) goes by its recorded path, else here.
 * @throws KizuError (exit 1) when that worktree no longer exists (removed, or replaced by a
 *   new worktree at its path): restoring its files anywhere else would overwrite another
 *   worktree's work.
 */
async function undoWorktree(root: string, snap: SnapshotInfo, recreated: boolean): Promise<string> {
  const here = gitDirFast(root);
  const recorded = snap.meta.worktree;
  if (here && sameWorktree(snap.meta, root, here)) return root;
  if (recreated) return recorded;
  const { listWorktrees, isInside } = await import('./tasks/records.js');
  if (!snap.meta.worktreeId) {
    // The recorded path is stored state: only a worktree of this repository is restored into.
    const mine = isWorktree(recorded) && (await listWorktrees(root)).some((w) => isInside(w.path, recorded) && isInside(recorded, w.path));
    return mine ? recorded : root;
  }
  for (const w of await listWorktrees(root)) {
    const dir = gitDirFast(w.path);
    if (dir && worktreeId(dir) === snap.meta.worktreeId) return w.path;
  }
  const replaced = isWorktree(recorded) ? ' (the worktree there now is a new one)' : '';
  throw new KizuError(`the rollback to undo was made in the worktree ${quoteCStyle(recorded)}, which no longer exists${replaced}`, {
    hint:
      `nothing was changed; that worktree's state before the rollback is in safety snapshot ${snap.name} ` +
      `(to put it into a worktree, run git kizu rollback snapshot ${snap.name} --other-worktree there)`,
    exitCode: EXIT.FOUND,
  });
}

/**
 * Records the undo of the patch rollback `record` in the edit journal (see the module
 * comment, step 3): the files `plan` changed (content, not mode-only changes; regular files)
 * among those the rollback's journal entry wrote, each from what was there before the undo
 * to what the safety snapshot held.
 * @param root the worktree the undo restored.
 * @param session the agent session the entry names (journal.ts sessionFromEnv), or null.
 * @returns the entry (id, short id, short id of the rollback entry), or null when the
 *   rollback has no journal entry or the undo changed none of its files.
 * @throws KizuError (exit 2) for a journal that cannot be read or written, or a missing blob.
 */
async function recordUndoEntry(root: string, record: RollbackRecord, plan: RestorePlan, session: string | null): Promise<UndoResult['journalEntry']> {
  const { readJournal, readBlob, recordEntry, shortIds } = await import('./journal/journal.js');
  const all = await readJournal(root);
  const rb = record.journalEntry
    ? all.find((e) => e.id === record.journalEntry)
    : [...all].reverse().find((e) => e.tool === 'rollback' && e.time === record.time);
  if (!rb) return null;
  const paths = new Set(rb.files.map((f) => f.path));
  const isFile = (x: RestorePlan['changes'][number]['current']) => x === null || x.type === 'file';
  const ops = plan.changes.filter((c) => (c.action === 'create' || c.action === 'modify' || c.action === 'delete') && paths.has(c.path) && isFile(c.current) && isFile(c.target));
  if (!ops.length) return null;
  const files = [];
  for (const c of ops) {
    files.push({
      path: c.path,
      before: c.current ? await readBlob(root, c.current.oid) : null,
      after: c.target ? await readBlob(root, c.target.oid) : null,
      ...(c.target?.mode ? { mode: parseInt(c.target.mode, 8) } : {}),
    });
  }
  const e = await recordEntry(root, { tool: 'undo', session, toolUseId: null, files, rollbackOf: [rb.id] });
  const short = shortIds(await readJournal(root));
  return { id: e.id, short: short.get(e.id) ?? e.id.slice(0, 8), undoes: short.get(rb.id) ?? rb.id.slice(0, 8) };
}

/**
 * Reverses the newest rollback of the repository containing `root` (see the module comment).
 * @param opts.dryRun only report what would happen; `confirm` is asked (with the result as
 *   it would be) before anything changes and may cancel (`popped: false`, plan not applied);
 *   `progress` and `configProblem` are handed to restoreSnapshot (restore.ts RestoreOptions:
 *   with `configProblem`, an invalid config is a warning, not an error); `session` is the
 *   agent session the journal entry of a patch rollback's undo names (default null).
 * @returns what was done; check `plan.applied` and `plan.failures`.
 * @throws KizuError: exit 1 when the log is empty, the branch name is taken, the worktree
 *   path is occupied, switching a worktree back to the task's branch would overwrite ignored
 *   files there (tasks/overwrite.ts), the plan has a write that would fail (restore.ts), the worktree the rollback was made in no longer exists, or the working
 *   tree changed during `confirm`; exit 2 when the safety snapshot or the removed task's ref is gone
 *   or points at anything but an existing commit (git/refs.ts checkRefObject), the
 *   log is unreadable, or git fails.
 */
export async function undoLastRollback(
  root: string,
  opts: {
    dryRun?: boolean;
    confirm?: (preview: UndoResult) => Promise<boolean>;
    progress?: RestoreOptions['progress'];
    configProblem?: RestoreOptions['configProblem'];
    wholeSnapshot?: boolean;
    session?: string | null;
  } = {},
): Promise<UndoResult> {
  const records = await readRollbacks(root);
  const record = records[records.length - 1];
  if (!record) {
    throw new KizuError('nothing to undo: no rollback is recorded', {
      hint: 'rollbacks (git kizu rollback ...) record themselves; snapshots are listed by git kizu snapshot list',
      exitCode: EXIT.FOUND,
    });
  }
  let snap;
  try {
    snap = await readSnapshot(root, record.safetySnapshot);
  } catch (e) {
    if (!(e instanceof KizuError) || e.exitCode !== EXIT.FOUND) throw e;
    throw new KizuError(`cannot undo "${record.description}": its safety snapshot ${record.safetySnapshot.slice(0, 12)} no longer exists`, {
      hint: 'it was dropped or garbage-collected; nothing was changed',
    });
  }
  const branch = record.undo?.kind === 'branch' ? await branchPlan(root, record.undo) : null;
  const recorded = snap.meta.worktree;
  const willExist = branch?.worktree && path.resolve(branch.worktree) === path.resolve(recorded);
  const worktree = await undoWorktree(root, snap, !!willExist);
  const scope = record.changed && !opts.wholeSnapshot ? record.changed.map((c) => c.path) : null;
  const result: UndoResult = { record, worktree, elsewhere: path.resolve(worktree) !== path.resolve(root), branch, scope, plan: null, popped: false, journalEntry: null, dryRun: !!opts.dryRun };
  const safetyMessage = `before undoing: ${record.description}`;
  // What is at the rollback's paths now, read before anything changes.
  const now = new Map((record.changed ?? []).map((c) => [c.path, isWorktree(worktree) ? pathHash(worktree, c.path) : c.sha256]));
  const mark = (plan: RestorePlan): RestorePlan => {
    if (!record.changed) return plan;
    const left = new Map(record.changed.map((c) => [c.path, c.sha256]));
    for (const c of plan.changes) {
      if (c.action === 'kept') continue;
      // A path the rollback did not change held, right after it, what the safety snapshot holds.
      if (!left.has(c.path) || now.get(c.path) !== left.get(c.path)) c.editedSinceRollback = true;
    }
    return plan;
  };
  const restoreOpts = { paths: scope ?? undefined, progress: opts.progress, configProblem: opts.configProblem };

  if (branch) {
    if (isWorktree(worktree)) result.plan = mark(await restoreSnapshot(worktree, snap.id, { ...restoreOpts, dryRun: true }));
    if (opts.dryRun) return result;
    if (opts.confirm && !(await opts.confirm(result))) return result;
    const { restoreTask } = await import('./tasks/task.js');
    const { modeFailures } = await restoreTask(root, record.undo!.name, record.undo!.trashRef, record.undo!.worktree);
    result.plan = mark(await restoreSnapshot(worktree, snap.id, { ...restoreOpts, safetyMessage }));
    const wt = record.undo!.worktree!;
    for (const f of modeFailures) result.plan.failures.push({ path: path.join(wt, f.path), error: `permission bits not restored: ${f.error}` });
  } else {
    const confirm = opts.confirm;
    result.plan = mark(
      await restoreSnapshot(worktree, snap.id, {
        ...restoreOpts,
        dryRun: opts.dryRun,
        safetyMessage,
        confirm: confirm ? (plan) => confirm({ ...result, plan: mark(plan) }) : undefined,
      }),
    );
    if (opts.dryRun) return result;
  }
  if (result.plan.applied && record.level === 'patch') {
    // The files are restored by now: a journal that cannot be written is said, not thrown.
    try {
      result.journalEntry = await recordUndoEntry(worktree, record, result.plan, opts.session ?? null);
    } catch (e) {
      result.journalError = (e as Error).message;
    }
  }
  if (result.plan.applied) {
    // The files are restored by now: a log that cannot be written (broken or locked meanwhile)
    // must not hide the undo's safety snapshot, so its error is returned, not thrown.
    try {
      result.popped = await popRollback(root, record, result.plan.safetySnapshot ?? undefined);
    } catch (e) {
      result.popError = (e as Error).message;
    }
  }
  return result;
}
