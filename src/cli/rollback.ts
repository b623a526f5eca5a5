/**
 * `git kizu rollback snapshot <id> [--dry-run] [--yes] [--json]`, plus the plan printing
 * shared with `git kizu undo` (the question is src/cli/confirm.ts). (Other rollback levels live
 * in their own files.)
 */
import { KizuError, EXIT } from '../errors.js';
import { outputPaged, type Reporter } from '../output.js';
import { count } from '../words.js';
import { repoInfo } from '../git/repo.js';
import type { RestoreChange, RestorePlan } from '../rollback/snapshots/restore.js';
import type { PathQuote } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { askYesNo, canAsk } from './confirm.js';

const raw: PathQuote = (p) => p;

/**
 * A `configProblem` callback (restore.ts RestoreOptions) for rollback and undo commands: an
 * invalid config must not lock anyone out of them, so its problem becomes one warning line on
 * stderr (`git-kizu: warning: <what is wrong, naming the config file>; ...`), printed once per
 * command however often the config is read.
 */
export function configWarner(r: Reporter): (line: string) => void {
  let said = false;
  return (line) => {
    if (said) return;
    said = true;
    r.warn(line.replace(/^git-kizu: warning: /, ''));
  };
}

export interface RollbackSnapshotInput {
  cwd: string;
  /** Snapshot name, ref or commit id prefix. */
  id: string;
  dryRun: boolean;
  yes: boolean;
  json: boolean;
  reporter: Reporter;
  /** Whether a human can answer a question (default: stdin and stderr are TTYs). */
  interactive?: boolean;
  /** Restore a snapshot taken in another worktree of the repository (refused otherwise). */
  otherWorktree?: boolean;
}

function countLines(n: number | null, sign: string): string {
  return n === null || n === 0 ? '' : `${sign}${n}`;
}

/** One human line per change: `  <action>  <path>  (<detail>)`, the path written by `q`. */
export function changeLine(c: RestoreChange, q: PathQuote = raw): string {
  const detail: string[] = [];
  const lines = [countLines(c.added, '+'), countLines(c.removed, '-')].filter(Boolean).join(' ');
  const kind = (f: RestoreChange['current']) => (f?.type === 'symlink' ? 'symlink' : 'file');
  switch (c.action) {
    case 'create':
      detail.push(`deleted since the snapshot; restored${c.target?.type === 'symlink' ? ' as a symlink' : ''}`);
      break;
    case 'delete':
      detail.push('created since the snapshot; removed');
      break;
    case 'modify':
      if (c.current && c.target && c.current.type !== c.target.type) detail.push(`${kind(c.current)} -> ${kind(c.target)}`);
      else detail.push('changed since the snapshot');
      if (c.current?.mode && c.target?.mode && c.current.mode !== c.target.mode) detail.push(`mode ${c.current.mode} -> ${c.target.mode}`);
      break;
    case 'mode':
      detail.push(`mode ${c.current?.mode} -> ${c.target?.mode}`);
      break;
    case 'kept':
      detail.push(c.reason ?? 'left as it is');
      break;
  }
  if (lines && c.action !== 'kept') detail.push(`lines ${lines}`);
  if (c.editedSinceRollback) detail.push('edited since the rollback: that edit is taken away too, kept in the safety snapshot');
  return `  ${c.action.padEnd(6)}  ${q(c.path)}  (${detail.join('; ')})`;
}

/**
 * The plan as text lines (without a heading). `forUndo`: the plan of `git kizu undo`, whose
 * own safety snapshot is brought back with `rollback snapshot` (undo itself moves on to the
 * rollback before), and whose changes at paths edited since the rollback are marked (and
 * counted in the last line). Paths are written by `q` (src/git/quote.ts).
 */
export function planLines(plan: RestorePlan, forUndo = false, q: PathQuote = raw): string[] {
  const ops = plan.changes.filter((c) => c.action !== 'kept');
  if (!plan.changes.length) {
    if (forUndo && plan.paths) return [plan.paths.length ? '  (no differences: the paths the rollback changed already hold what they held before it)' : '  (nothing to restore: the rollback changed no file here)'];
    return ['  (no differences: the working tree already matches the snapshot)'];
  }
  const out = plan.changes.map((c) => changeLine(c, q));
  if (ops.length && forUndo) {
    const edited = ops.filter((c) => c.editedSinceRollback).length;
    out.push(
      `${count(ops.length, 'path')} would go back to what ${ops.length === 1 ? 'it' : 'they'} held before the rollback; a safety snapshot of the current state is taken first ` +
        '(git kizu rollback snapshot <it> restores it; the name is printed).' +
        (edited ? ` ${edited} of them ${edited === 1 ? 'was' : 'were'} edited since the rollback (marked above): ${edited === 1 ? 'that edit is' : 'those edits are'} taken away too, and kept in that safety snapshot.` : ''),
    );
  } else if (ops.length) {
    out.push(
      `${count(ops.length, 'path')} would change; the changes made since the snapshot are taken away, ` +
        'but they stay recoverable: a safety snapshot of the current state is taken first (git kizu undo restores it).',
    );
  }
  return out;
}

/** The plan as printed by --json (modes are octal strings). */
export function planJson(plan: RestorePlan): object {
  return plan;
}

/**
 * Rolls the working tree back to a snapshot (rollbackToSnapshot, which also records the
 * rollback in the undo log), after showing the per-file plan: with --dry-run only the plan;
 * otherwise, without --yes, it asks on a terminal and refuses (exit 1, plan printed) when
 * nobody can answer. Output: the plan (text, or the RestorePlan as JSON with --json), then what happened.
 * @returns 0 on success or a cancelled question; 1 when refused for lack of --yes; 2 when
 *   a file could not be restored (everything is put back if the failure happens midway).
 * A snapshot taken in another worktree of the repository is refused (exit 1) unless
 * `otherWorktree` is set; --dry-run shows its plan either way, with a warning saying so.
 * An invalid config is one warning line on stderr (configWarner), never a refusal. If the
 * rollback cannot be recorded after it changed the files, a warning names the safety
 * snapshot and how to restore it (exit 0).
 * @throws KizuError: exit 1 for an unknown snapshot, one from another worktree, or a working
 *   tree that changed while asking; exit 2 outside a repository, for an undo log that cannot
 *   be read or is invalid (checked before anything changes, nothing written), or for git failures.
 */
export async function rollbackSnapshotCommand(i: RollbackSnapshotInput): Promise<number> {
  const { root, gitDir } = await repoInfo(i.cwd);
  const r = i.reporter;
  const { readSnapshot } = await import('../rollback/snapshots/snapshot.js');
  const { sameWorktree } = await import('../rollback/snapshots/store.js');
  const { rollbackToSnapshot } = await import('../rollback/snapshots/rollback.js');
  const snap = await readSnapshot(root, i.id);
  const configProblem = configWarner(r);
  // Snapshot refs are shared by all worktrees of a repository; each snapshot records its own.
  const elsewhere = snap.meta.worktree && !sameWorktree(snap.meta, root, gitDir) ? snap.meta.worktree : null;
  const where = elsewhere === root ? `an earlier worktree at this path (${root}), removed since; this one is a new worktree` : `another worktree (${elsewhere}), not in this one (${root})`;
  if (elsewhere && !i.otherWorktree && !i.dryRun) {
    throw new KizuError(`snapshot ${snap.name} was taken in ${where}`, {
      hint: `git kizu snapshot list shows where each snapshot was taken; to make this worktree equal to it anyway: git kizu rollback snapshot ${snap.name} --other-worktree`,
      exitCode: EXIT.FOUND,
    });
  }
  const heading = `rollback to snapshot ${snap.name} (${snap.meta.kind}, ${snap.meta.time}${snap.meta.message ? `, "${snap.meta.message.split('\n')[0].slice(0, 60)}"` : ''}${elsewhere ? `, taken in worktree ${elsewhere}` : ''}):`;
  const show = (plan: RestorePlan) => {
    if (i.json) r.log(JSON.stringify(planJson(plan), null, 2));
    else for (const l of [heading, ...planLines(plan, false, pathQuoter(root))]) r.log(l);
  };
  const interactive = i.interactive ?? canAsk();
  // How far it is, on stderr when it is a terminal and a phase takes a while (not with --json,
  // nor while a pager shows a --dry-run's plan).
  const { phasedProgress } = await import('../progress.js');
  const bar = i.json || !process.stderr.isTTY || outputPaged() ? null : phasedProgress({ hashing: 'rollback: reading the working tree', writing: 'rollback: writing files' });
  const progress = bar ? (p: string, d: number, t: number) => bar.update(p, d, t) : undefined;
  if (i.dryRun || (!i.yes && !interactive)) {
    const plan = await rollbackToSnapshot(root, snap, { dryRun: true, progress, configProblem });
    await bar?.stop();
    show(plan);
    if (i.dryRun && elsewhere && !i.otherWorktree) {
      r.warn(`snapshot ${snap.name} was taken in ${where}: the rollback itself needs --other-worktree (git kizu rollback snapshot ${snap.name} --other-worktree)`);
    }
    if (i.dryRun || !plan.changes.some((c) => c.action !== 'kept')) return EXIT.OK;
    const again = `git kizu rollback snapshot ${snap.name}${elsewhere ? ' --other-worktree' : ''}`;
    throw new KizuError('not rolling back without confirmation: no terminal to ask on', {
      hint: `check the plan above (${again} --dry-run shows it again), then run ${again} --yes`,
      exitCode: EXIT.FOUND,
    });
  }
  let shown = false;
  const plan = await rollbackToSnapshot(root, snap, {
    progress,
    configProblem,
    confirm: i.yes
      ? undefined
      : async (p) => {
          await bar?.stop();
          if (i.json) process.stderr.write([heading, ...planLines(p, false, pathQuoter(root))].join('\n') + '\n');
          else show(p);
          shown = true;
          const n = p.changes.filter((c) => c.action !== 'kept').length;
          return askYesNo(`Roll back ${count(n, 'path')} to snapshot ${snap.name}?`);
        },
  });
  await bar?.stop();
  if (!shown && !i.json) show(plan);
  const q = pathQuoter(root);
  if (!plan.applied && !plan.failures.length) {
    if (!i.json) r.log('cancelled: nothing was changed');
    return EXIT.OK;
  }
  const ops = plan.changes.filter((c) => c.action !== 'kept');
  const { undoError, ...restored } = plan;
  if (i.json) r.log(JSON.stringify(planJson(restored), null, 2));
  for (const k of plan.changes.filter((c) => c.action === 'kept')) r.warn(`kept ${q(k.path)}: ${k.reason}`);
  if (undoError) {
    r.warn(
      `the rollback is done but could not be recorded for git kizu undo: ${undoError.message}; ` +
        `safety snapshot ${plan.safetyName} holds the files as they were (git kizu rollback snapshot ${plan.safetyName} restores them)`,
    );
  }
  if (!plan.applied) {
    for (const f of plan.failures) r.warn(`${q(f.path)}: ${f.error}`);
    throw new KizuError(`rollback failed at ${q(plan.failures[0].path)}; everything it had changed was put back`, {
      hint: `the state before the attempt is also in safety snapshot ${plan.safetyName}; fix the cause and run the command again`,
    });
  }
  if (!i.json) {
    if (!ops.length) r.log('nothing to roll back: the working tree already matches the snapshot');
    else {
      r.log(`rolled back ${count(ops.length, 'path')} to snapshot ${snap.name}`);
      r.log(`safety snapshot: ${plan.safetyName} (${undoError ? `put it back with: git kizu rollback snapshot ${plan.safetyName}` : 'undo with: git kizu undo'})`);
    }
  }
  if (plan.failures.length) {
    for (const f of plan.failures) r.warn(`${q(f.path)}: ${f.error}`);
    throw new KizuError(`${count(plan.failures.length, 'path')} did not end up as in the snapshot (listed above)`, {
      hint: undoError ? `the state before it is in safety snapshot ${plan.safetyName}` : `the rollback is recorded: git kizu undo goes back to safety snapshot ${plan.safetyName}`,
    });
  }
  return EXIT.OK;
}
