/**
 * Rolling the working tree back to a snapshot (`git kizu rollback snapshot`): a restore
 * (./restore.ts) that records itself in the undo log (../undo-log.ts) once it changed the
 * working tree, so that whoever rolls back, `git kizu undo` can reverse it.
 */
import { recordRollback } from '../undo-log.js';
import { restoreSnapshot, type RestoreOptions, type RestorePlan } from './restore.js';

/**
 * Restores snapshot `snap` into the working tree of `root` (restoreSnapshot, with the safety
 * snapshot message `before rollback to <name>` unless `opts.safetyMessage` says otherwise)
 * and, when the restore was applied, appends `{level: 'snapshot', time: <now, ISO 8601 UTC>,
 * safetySnapshot, description: 'rollback to snapshot <name>'}` to the undo log before
 * returning: also when some paths failed the check after the apply (`failures` is then not
 * empty), since the safety snapshot holds what was there. A dry run or a cancelled `confirm`
 * records nothing.
 * @param snap the snapshot as readSnapshot returned it (its commit id and its name).
 * @returns the plan of restoreSnapshot; check `applied` and `failures`.
 * @throws KizuError: those of restoreSnapshot, and those of recordRollback (an unreadable or
 *   locked undo log: the working tree is rolled back then, and the safety snapshot holds
 *   what was there).
 */
export async function rollbackToSnapshot(root: string, snap: { id: string; name: string }, opts: RestoreOptions = {}): Promise<RestorePlan> {
  const plan = await restoreSnapshot(root, snap.id, { ...opts, safetyMessage: opts.safetyMessage ?? `before rollback to ${snap.name}` });
  if (!plan.dryRun && plan.applied && plan.safetySnapshot) {
    await recordRollback(root, {
      level: 'snapshot',
      time: new Date().toISOString(),
      safetySnapshot: plan.safetySnapshot,
      description: `rollback to snapshot ${snap.name}`,
    });
  }
  return plan;
}
