/**
 * `git kizu snapshot [-m <msg>] [--json]`, `snapshot list [--json]`, `snapshot show <id>`,
 * `snapshot drop <id>... [--force]` (src/rollback/snapshots/ does the work).
 */
import { EXIT, KizuError } from '../errors.js';
import { gitColorArg, type Reporter } from '../output.js';
import { count } from '../words.js';
import { printable } from '../printable.js';
import { git } from '../git/run.js';
import { repoInfo, findRootFast } from '../git/repo.js';
import { pathQuoter } from '../git/path-quoter.js';
import type { SnapshotInfo } from '../rollback/snapshots/snapshot.js';

export interface SnapshotTakeInput {
  cwd: string;
  message?: string;
  json: boolean;
  /** `agent:<agent>` when run from inside an agent's session (agents/session-env.ts), else null. */
  by?: string | null;
  reporter: Reporter;
}

/**
 * Takes a snapshot (kind manual). On a terminal, a snapshot that runs over a second shows
 * the files git has hashed on stderr (src/progress.ts). Prints `snapshot <name>: <n> files (<k> read again)`, a
 * warning per skipped file, and `dropped <name>` per snapshot retention removed; with --json
 * the SnapshotResult object.
 * @returns 0.
 * @throws KizuError (exit 2) outside a repository, for an invalid config, a busy store or
 *   git failures.
 */
export async function snapshotTake(i: SnapshotTakeInput): Promise<number> {
  // Lock the store and start git before the snapshot code loads (rollback/snapshots/begin.ts);
  // the snapshot store resolves the repository itself (without a git process when it can).
  const { beginSnapshot, abandonBegunSnapshot } = await import('../rollback/snapshots/begin.js');
  const begun = await beginSnapshot(i.cwd);
  let res: Awaited<ReturnType<typeof import('../rollback/snapshots/snapshot.js').takeSnapshot>>;
  // Files hashed, on stderr when it is a terminal and the snapshot takes a while (not with --json).
  const bar = i.json || !process.stderr.isTTY ? null : (await import('../progress.js')).delayedProgress('snapshot: hashing files');
  try {
    const { takeSnapshot } = await import('../rollback/snapshots/snapshot.js');
    res = await takeSnapshot(begun ?? findRootFast(i.cwd) ?? i.cwd, { kind: 'manual', message: i.message ?? '', by: i.by ?? null, progress: bar ? (d, t) => bar.update(d, t) : undefined });
  } finally {
    abandonBegunSnapshot();
    await bar?.stop();
  }
  if (i.json) {
    i.reporter.log(JSON.stringify(res, null, 2));
    return EXIT.OK;
  }
  i.reporter.log(`snapshot ${res.name}: ${count(res.files, 'file')} (${res.hashed} read again)`);
  const q = pathQuoter(begun ?? i.cwd);
  for (const s of res.skipped) i.reporter.warn(`not in the snapshot: ${q(s.path)}: ${s.reason}`);
  for (const d of res.dropped) i.reporter.log(`dropped ${d} (snapshot.keep)`);
  return EXIT.OK;
}

function infoJson(s: SnapshotInfo): object {
  const m = s.meta;
  return { id: s.id, ref: s.ref, name: s.name, time: m.time, kind: m.kind, message: m.message, files: m.files, skipped: m.skipped, head: m.head, worktree: m.worktree, by: m.by ?? null };
}

/**
 * Lists snapshots, newest first: `<name>  <kind>  <files> files  <message>`, with
 * `[worktree <path>]` before the message for one taken in another worktree of the
 * repository (snapshot refs are shared by all of them); with --json an
 * array of {id, ref, name, time, kind, message, files, skipped, head, worktree, by}; `[agent:<agent>]`
 * marks one taken from inside an agent's session.
 * @returns 0.
 */
export async function snapshotList(i: { cwd: string; json: boolean; reporter: Reporter }): Promise<number> {
  const { root, gitDir } = await repoInfo(i.cwd);
  const { listSnapshots } = await import('../rollback/snapshots/snapshot.js');
  const { sameWorktree } = await import('../rollback/snapshots/store.js');
  const list = await listSnapshots(root);
  if (i.json) {
    i.reporter.log(JSON.stringify(list.map(infoJson), null, 2));
    return EXIT.OK;
  }
  if (!list.length) i.reporter.log('no snapshots (take one with git kizu snapshot)');
  for (const s of list) {
    // Stored state the agent can forge: every field is escaped (printable), one line each.
    const msg = printable(s.meta.message.split('\n')[0]);
    // Snapshot refs are shared by the worktrees of a repository: say which one took it.
    const where = s.meta.worktree && !sameWorktree(s.meta, root, gitDir) ? `  [worktree ${printable(s.meta.worktree)}]` : '';
    // An agent's snapshot says so: retention counts it apart from the reviewer's (snapshot.ts).
    const by = typeof s.meta.by === 'string' ? `  [${printable(s.meta.by)}]` : '';
    i.reporter.log(`${printable(s.name)}  ${printable(s.meta.kind).padEnd(6)}  ${count(s.meta.files, 'file')}${s.meta.skipped.length ? ` (${s.meta.skipped.length} skipped)` : ''}${where}${by}${msg ? `  ${msg}` : ''}`);
  }
  return EXIT.OK;
}

/**
 * Shows a snapshot: its metadata, then `git diff` from the snapshot (`snapshot/` prefix) to
 * the working tree as it is now (`worktree/` prefix), then permission-bit differences git
 * cannot show and files left alone by a rollback. With --json: {snapshot, changes}, where
 * changes are the RestoreChange list of a rollback to it.
 * @returns 0.
 * @throws KizuError: exit 1 for an unknown snapshot; exit 2 for git failures.
 */
export async function snapshotShow(i: { cwd: string; id: string; json: boolean; reporter: Reporter }): Promise<number> {
  const { root, gitDir } = await repoInfo(i.cwd);
  const { readSnapshot } = await import('../rollback/snapshots/snapshot.js');
  const { restoreSnapshot } = await import('../rollback/snapshots/restore.js');
  const { sameWorktree } = await import('../rollback/snapshots/store.js');
  const snap = await readSnapshot(root, i.id);
  const plan = await restoreSnapshot(root, snap.id, { dryRun: true, configProblem: (l) => i.reporter.warn(l.replace(/^git-kizu: warning: /, '')) });
  if (i.json) {
    i.reporter.log(JSON.stringify({ snapshot: infoJson(snap), changes: plan.changes }, null, 2));
    return EXIT.OK;
  }
  const m = snap.meta;
  const r = i.reporter;
  r.log(`snapshot ${snap.name}`);
  r.log(`commit:   ${snap.id}`);
  r.log(`kind:     ${m.kind}`);
  r.log(`time:     ${m.time}`);
  if (m.message) r.log(`message:  ${printable(m.message.split('\n')[0])}`);
  r.log(`head:     ${m.head ?? '(no commit)'}`);
  const here = sameWorktree(m, root, gitDir);
  r.log(`worktree: ${m.worktree}${!here ? ' (another worktree of this repository)' : m.worktree !== root ? ` (this worktree, since moved to ${root})` : ''}`);
  r.log(`files:    ${m.files}`);
  const q = pathQuoter(root);
  for (const s of m.skipped) r.log(`skipped:  ${q(s.path)} (${s.reason})`);
  const diff = await git(
    ['diff', '--no-ext-diff', gitColorArg(), '--src-prefix=snapshot/', '--dst-prefix=worktree/', snap.tree, plan.currentTree],
    { cwd: root },
  );
  const text = diff.stdout.toString('utf8').replace(/\n$/, '');
  const extra = plan.changes.filter((c) => c.action === 'mode' || c.action === 'kept');
  const { changeLine } = await import('./rollback.js');
  if (!text && !extra.length) {
    r.log('(the working tree matches the snapshot)');
    return EXIT.OK;
  }
  if (text) r.log(text);
  for (const c of extra) {
    if (c.action === 'mode') r.log(`mode ${q(c.path)}: ${c.target?.mode} in the snapshot, ${c.current?.mode} now`);
    else r.log(changeLine(c, q).trim());
  }
  return EXIT.OK;
}

/**
 * Drops snapshots (their refs). Refuses (exit 1) one the undo log still needs unless
 * --force. Prints `dropped <name>` per snapshot.
 * @returns 0.
 * @throws KizuError: exit 1 for an unknown or protected snapshot (earlier ones in the list
 *   are already dropped); exit 2 for git failures.
 */
export async function snapshotDrop(i: { cwd: string; ids: string[]; force: boolean; reporter: Reporter }): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const { dropSnapshot } = await import('../rollback/snapshots/snapshot.js');
  for (const id of i.ids) {
    const s = await dropSnapshot(root, id, { force: i.force });
    i.reporter.log(`dropped ${s.name}`);
  }
  return EXIT.OK;
}
