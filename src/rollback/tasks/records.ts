/**
 * Task records and where tasks live (storage layout shared by `git kizu task` and `git kizu
 * rollback branch`):
 *
 * - The task's branch: `refs/heads/kizu/<name>`.
 * - The task record: `refs/kizu/tasks/<name>` points at a *record commit* whose tree is the
 *   empty tree, whose only parent is the task's base commit (the commit it was started from,
 *   or last landed at), and whose message holds
 *   `kizu-task: <name as JSON>`, `kizu-from: <full ref of the branch it started from, or none>`
 *   and `kizu-created: <ISO time>`. One ref per task, so creating and moving it is a single
 *   compare-and-swap (`git update-ref <ref> <new> <old>`, git-update-ref(1)); refs outside
 *   refs/heads are shared by every worktree (gitrepository-layout(5)) and can be pushed like
 *   any ref (`git push <remote> 'refs/kizu/tasks/*:refs/kizu/tasks/*'`). `git log -1
 *   refs/kizu/tasks/<name>` shows it; the base is `refs/kizu/tasks/<name>^1`.
 * - The worktree is not stored: it is whichever worktree has the branch checked out
 *   (`git worktree list --porcelain`, git-worktree(1)), so it can never go stale.
 * - Removed (discarded) tasks: `refs/kizu/trash/<name>/<time>` (see ./removed.ts).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { git, splitZ } from '../../git/run.js';
import { TASK_BRANCH_PREFIX, TASK_RECORD_PREFIX } from '../../git/layout.js';
import { resolveKizuRef } from '../../git/refs.js';

/** The all-zero object id: as `<old>` of git update-ref, "the ref must not exist yet". */
export const ZERO_OID = '0000000000000000000000000000000000000000';

/** Identity of the commits git kizu writes itself (task records, removed tasks). */
export const KIZU_IDENT = {
  GIT_AUTHOR_NAME: 'git-kizu',
  GIT_AUTHOR_EMAIL: 'git-kizu@localhost',
  GIT_COMMITTER_NAME: 'git-kizu',
  GIT_COMMITTER_EMAIL: 'git-kizu@localhost',
};

/** `kizu/<name>`: the task's branch as people type it. */
export function taskBranch(name: string): string {
  return shortBranch(taskBranchRef(name));
}

/** `refs/heads/kizu/<name>`. */
export function taskBranchRef(name: string): string {
  return TASK_BRANCH_PREFIX + name;
}

/** `refs/kizu/tasks/<name>`. */
export function taskRecordRef(name: string): string {
  return TASK_RECORD_PREFIX + name;
}

/** `main` for `refs/heads/main`; other refs unchanged. */
export function shortBranch(ref: string): string {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/**
 * Checks a task name: it must make a valid branch name `kizu/<name>` under git's rules
 * (`git check-ref-format refs/heads/kizu/<name>`, git-check-ref-format(1): no spaces, no
 * `..`, no `~^:?*[\`, no component starting with `.` or ending with `.lock`, no `//`, no
 * trailing `/` or `.`), and must not start with `-`.
 * @throws KizuError (exit 2) naming the rule.
 */
export async function validateTaskName(root: string, name: string): Promise<void> {
  const hint =
    "task names follow git's branch-name rules (git check-ref-format(1)): e.g. fix-login or feat/search; no spaces, '..', '~', '^', ':', '?', '*', '[', '\\', no leading '-' or '.', no '.lock' ending";
  if (name === '') throw new KizuError('task name is empty', { hint });
  if (name.startsWith('-')) throw new KizuError(`invalid task name "${name}": it starts with '-'`, { hint });
  const r = await git(['check-ref-format', taskBranchRef(name)], { cwd: root, okStatus: [0, 1, 128] });
  if (r.status !== 0) {
    throw new KizuError(`invalid task name "${name}": git check-ref-format refuses ${taskBranchRef(name)}`, { hint });
  }
}

/** Resolves `rev` to an object id, or null when it does not exist. */
export async function resolve(root: string, rev: string): Promise<string | null> {
  const r = await git(['rev-parse', '--verify', '-q', '--end-of-options', rev], { cwd: root, okStatus: [0, 1, 128] });
  return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** The full ref HEAD points at in `cwd`'s worktree, or null when detached. */
export async function headRef(cwd: string): Promise<string | null> {
  const r = await git(['symbolic-ref', '-q', 'HEAD'], { cwd, okStatus: [0, 1, 128] });
  return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** One entry of `git worktree list --porcelain`. */
export interface WorktreeInfo {
  /** Absolute path as git records it. */
  path: string;
  /** HEAD commit (null for a bare entry or an unborn branch). */
  head: string | null;
  /** Full ref checked out (null when detached or bare). */
  branch: string | null;
  /** True for the first entry (the main worktree). */
  main: boolean;
  bare: boolean;
  locked: boolean;
  /** The lock reason git printed ('' when none was given). */
  lockReason: string;
  /** True when git reports the worktree prunable (its directory is gone). */
  prunable: boolean;
}

/**
 * Lists the worktrees of the repository (git-worktree(1) "Porcelain Format"); the main
 * worktree first.
 * @throws KizuError (exit 2) when git fails.
 */
export async function listWorktrees(root: string): Promise<WorktreeInfo[]> {
  const out = (await git(['worktree', 'list', '--porcelain'], { cwd: root })).stdout.toString('utf8');
  const list: WorktreeInfo[] = [];
  let cur: WorktreeInfo | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) {
      cur = { path: line.slice(9), head: null, branch: null, main: list.length === 0, bare: false, locked: false, lockReason: '', prunable: false };
      list.push(cur);
    } else if (!cur) continue;
    else if (line.startsWith('HEAD ')) cur.head = /^0+$/.test(line.slice(5)) ? null : line.slice(5);
    else if (line.startsWith('branch ')) cur.branch = line.slice(7);
    else if (line === 'bare') cur.bare = true;
    else if (line === 'locked' || line.startsWith('locked ')) {
      cur.locked = true;
      cur.lockReason = line.slice(7);
    } else if (line === 'prunable' || line.startsWith('prunable ')) cur.prunable = true;
  }
  return list;
}

/** Canonical form of a path for comparisons (realpath when it exists). */
export function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** True when `inner` is `outer` or inside it. */
export function isInside(inner: string, outer: string): boolean {
  const a = canonical(inner);
  const b = canonical(outer);
  return a === b || a.startsWith(b.endsWith(path.sep) ? b : b + path.sep);
}

/** A task record (refs/kizu/tasks/<name>). */
export interface TaskRecord {
  /** The record commit. */
  commit: string;
  /** The base commit (the record commit's parent). */
  base: string;
  /** Full ref of the branch the task started from (null: started on a detached HEAD). */
  from: string | null;
  /** ISO time the task was started. */
  created: string;
}

/**
 * Reads `refs/kizu/tasks/<name>`.
 * @returns the record, or null when the ref does not exist or is not a record commit.
 * @throws KizuError (exit 2) when the ref points at anything but an existing commit
 *   (git/refs.ts checkRefObject).
 */
export async function readRecord(root: string, name: string): Promise<TaskRecord | null> {
  const commit = await resolveKizuRef(root, taskRecordRef(name));
  if (!commit) return null;
  const body = (await git(['cat-file', 'commit', commit], { cwd: root })).stdout.toString('utf8');
  const split = body.indexOf('\n\n');
  const head = body.slice(0, split);
  const msg = body.slice(split + 2);
  const parent = /^parent ([0-9a-f]+)$/m.exec(head)?.[1];
  if (!parent || !msg.startsWith('kizu task: ')) return null;
  const from = /^kizu-from: (.*)$/m.exec(msg)?.[1] ?? 'none';
  return { commit, base: parent, from: from === 'none' ? null : from, created: /^kizu-created: (.*)$/m.exec(msg)?.[1] ?? '' };
}

/**
 * Writes `refs/kizu/tasks/<name>` as a new record commit (empty tree, parent `base`) by
 * compare-and-swap from `old` (the current record commit, or null: the ref must not exist).
 * @returns the record commit.
 * @throws KizuError (exit 2) when the ref changed meanwhile or git fails.
 */
export async function writeRecord(
  root: string,
  name: string,
  rec: { base: string; from: string | null; created?: string },
  old: string | null,
  why: string,
): Promise<string> {
  const created = rec.created || new Date().toISOString();
  const tree = (await git(['mktree', '-z'], { cwd: root, input: '' })).stdout.toString('utf8').trim();
  const msg = `kizu task: ${name}\n\nkizu-task: ${JSON.stringify(name)}\nkizu-from: ${rec.from ?? 'none'}\nkizu-created: ${created}\n`;
  const commit = (await git(['commit-tree', tree, '-p', rec.base, '-F', '-'], { cwd: root, input: msg, env: KIZU_IDENT })).stdout
    .toString('utf8')
    .trim();
  const upd = await git(['update-ref', '-m', why, taskRecordRef(name), commit, old ?? ZERO_OID], { cwd: root, okStatus: [0, 1, 128] });
  if (upd.status !== 0) {
    throw new KizuError(`could not write ${taskRecordRef(name)}: ${upd.stderr.trim() || 'it changed meanwhile'}`, {
      hint: 'another git kizu command may be working on this task; retry',
    });
  }
  return commit;
}

/** Deletes `refs/kizu/tasks/<name>` if it still points at `old` (no error when it is gone). */
export async function deleteRecord(root: string, name: string, old: string): Promise<void> {
  await git(['update-ref', '-d', taskRecordRef(name), old], { cwd: root, okStatus: [0, 1, 128] });
}

/** What `git kizu task list` shows about one task. */
export interface TaskInfo {
  /** The task name (`<name>` of kizu/<name>). */
  name: string;
  /** `kizu/<name>`. */
  branch: string;
  /** The branch's commit; null when the branch is gone (only the record is left). */
  tip: string | null;
  /** The base commit from the record; null without a record. */
  base: string | null;
  /** Short name of the branch it started from (null: detached HEAD or no record). */
  from: string | null;
  /** Path of the worktree that has the branch checked out (null: none). */
  worktree: string | null;
  /** True when that worktree is a linked worktree (false for the main worktree or none). */
  linked: boolean;
  /** Commits on the branch and not on the base (`git rev-list --count base..tip`); null without base or tip. */
  ahead: number | null;
  /** True when the worktree has staged, unstaged or untracked (not ignored) changes. */
  dirty: boolean;
}

/** Paths `git status` reports in `cwd` (tracked changes, and untracked unless `tracked`). */
export async function statusPaths(cwd: string, opts: { trackedOnly?: boolean } = {}): Promise<string[]> {
  const r = await git(['status', '--porcelain=v1', '-z', '--no-renames', `--untracked-files=${opts.trackedOnly ? 'no' : 'all'}`], { cwd });
  return splitZ(r.stdout).map((e) => e.slice(3));
}

async function taskInfo(root: string, name: string, worktrees: WorktreeInfo[]): Promise<TaskInfo> {
  const [tip, rec] = await Promise.all([resolve(root, `${taskBranchRef(name)}^{commit}`), readRecord(root, name)]);
  const wt = worktrees.find((w) => w.branch === taskBranchRef(name)) ?? null;
  let ahead: number | null = null;
  if (tip && rec) ahead = Number((await git(['rev-list', '--count', `${rec.base}..${tip}`], { cwd: root })).stdout.toString('utf8').trim());
  const dirty = wt && !wt.prunable ? (await statusPaths(wt.path)).length > 0 : false;
  return {
    name,
    branch: taskBranch(name),
    tip,
    base: rec?.base ?? null,
    from: rec?.from ? shortBranch(rec.from) : null,
    worktree: wt?.path ?? null,
    linked: !!wt && !wt.main,
    ahead,
    dirty,
  };
}

/**
 * Every task: the union of `refs/heads/kizu/*` branches and `refs/kizu/tasks/*` records,
 * sorted by name (byte order).
 * @throws KizuError (exit 2) when git fails or a record ref points at anything but an
 *   existing commit (git/refs.ts checkRefObject).
 */
export async function listTasks(root: string): Promise<TaskInfo[]> {
  const refs = (await git(['for-each-ref', '--format=%(refname)', TASK_BRANCH_PREFIX, TASK_RECORD_PREFIX], { cwd: root })).stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  const names = new Set<string>();
  for (const r of refs) names.add(r.startsWith(TASK_BRANCH_PREFIX) ? r.slice(TASK_BRANCH_PREFIX.length) : r.slice(TASK_RECORD_PREFIX.length));
  const sorted = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const worktrees = await listWorktrees(root);
  return Promise.all(sorted.map((n) => taskInfo(root, n, worktrees)));
}

/**
 * One task by name.
 * @throws KizuError (exit 1) when neither its branch nor its record exists; the hint lists
 *   the tasks there are.
 */
export async function getTask(root: string, name: string): Promise<TaskInfo> {
  const info = await taskInfo(root, name, await listWorktrees(root));
  if (info.tip === null && info.base === null) {
    const all = await listTasks(root);
    throw new KizuError(`no task named "${name}" (no branch ${info.branch}, no ${taskRecordRef(name)})`, {
      hint: all.length ? `tasks: ${all.map((t) => t.name).join(', ')} (git kizu task list)` : 'start one with git kizu task start <name>',
      exitCode: EXIT.FOUND,
    });
  }
  return info;
}
