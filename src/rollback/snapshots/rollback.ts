/**
 * Rolling the working tree back to a snapshot (`git kizu rollback snapshot`): a restore
 * (./restore.ts) that records itself in the undo log (../undo-log.ts) once it changed the
 * working tree, so that whoever rolls back, `git kizu undo` can reverse it.
 */
import { checkUndoLog, pathHash, recordRollback } from '../undo-log.js';
import { restoreSnapshot, type RestoreOptions, type RestorePlan } from './restore.js';

/** What {@link rollbackToSnapshot} did: the restore plan, and whether it could be recorded. */
export interface RollbackPlan extends RestorePlan {
  /**
   * Why the applied rollback could not be recorded in the undo log (then `git kizu undo`
   * cannot reverse it, but its safety snapshot holds what was there), or null.
   */
  undoError: Error | null;
}

/**
 * Restores snapshot `snap` into the working tree of `root` (restoreSnapshot, with the safety
 * snapshot message `before rollback to <name>` unless `opts.safetyMessage` says otherwise)
 * and, when the restore was applied, appends `{level: 'snapshot', time: <now, ISO 8601 UTC>,
 * safetySnapshot, description: 'rollback to snapshot <name>', changed}` (the paths it changed,
 * with what it left there: undo-log.ts pathHash) to the undo log before
 * returning: also when some paths failed the check after the apply (`failures` is then not
 * empty), since the safety snapshot holds what was there. A dry run or a cancelled `confirm`
 * records nothing. Before anything changes (and before `confirm` is asked) the undo log is
 * read and validated (undo-log.ts checkUndoLog): a broken log stops the rollback with
 * nothing written. If recording still fails after the restore (the log changed or stayed
 * locked meanwhile), the error is returned in `undoError`, not thrown, so the caller can
 * still name the safety snapshot.
 * @param snap the snapshot as readSnapshot returned it (its commit id and its name).
 * @returns the plan of restoreSnapshot (check `applied` and `failures`) and `undoError`.
 * @throws KizuError: those of restoreSnapshot, and those of checkUndoLog (nothing changed).
 */
export async function rollbackToSnapshot(root: string, snap: { id: string; name: string }, opts: RestoreOptions = {}): Promise<RollbackPlan> {
  if (!opts.dryRun) await checkUndoLog(root);
  const plan = await restoreSnapshot(root, snap.id, { ...opts, safetyMessage: opts.safetyMessage ?? `before rollback to ${snap.name}` });
  let undoError: Error | null = null;
  if (!plan.dryRun && plan.applied && plan.safetySnapshot) {
    try {
      await recordRollback(root, {
        level: 'snapshot',
        time: new Date().toISOString(),
        safetySnapshot: plan.safetySnapshot,
        description: `rollback to snapshot ${snap.name}`,
        changed: plan.changes.filter((c) => c.action !== 'kept').map((c) => ({ path: c.path, sha256: pathHash(root, c.path) })),
      });
    } catch (e) {
      undoError = e as Error;
    }
  }
  return { ...plan, undoError };
}
