/**
 * Where git-kizu keeps its state, on one screen: every ref it writes and every file under the
 * git dir. Other modules take these names from here and spell none of them themselves.
 *
 * Refs live in the common git dir (gitrepository-layout(5)): every worktree of a repository
 * sees the same ones, and they can be pushed and fetched like any ref. Files under
 * `<git-dir>/kizu/` belong to one worktree (each linked worktree has its own git dir);
 * files under `<common-dir>/kizu/` are shared by all worktrees. Outside a linked worktree
 * both are `.git/kizu/`.
 */
import path from 'node:path';

// ---------------------------------------------------------------------------------------
// Refs

/** Review marks: a commit whose tree holds one `marks.json` (format: marks/format.ts); each update is a child commit, a merge has two parents. */
export const MARKS_REF = 'refs/kizu/marks';

/** Prefix of the remote-tracking copies of a remote's marks, `refs/kizu/remotes/<remote>/marks` (marks/sync.ts); see {@link remoteMarksRef}. */
export const REMOTE_MARKS_PREFIX = 'refs/kizu/remotes/';

/**
 * The remote-tracking marks ref of `remote`: `refs/kizu/remotes/<remote>/marks`.
 * @param remote a name that is already a valid ref component (marks/sync.ts trackingRef makes one).
 */
export function remoteMarksRef(remote: string): string {
  return `${REMOTE_MARKS_PREFIX}${remote}/marks`;
}

/** The commit hunks are computed against, when set (`git kizu baseline set`); absent: HEAD (hunks/baseline.ts). */
export const BASELINE_REF = 'refs/kizu/baseline';

/** What `git kizu revert` discarded: a chain of commits, each holding the one saved file at its path, with `kizu-path:`/`kizu-type:`/`kizu-mode:`/`kizu-reason:` lines in its message (hunks/saved-reverts.ts). */
export const REVERTS_REF = 'refs/kizu/reverts';

/** The edit journal: a chain of commits, one per recorded agent edit, applied patch or rollback; the message holds the entry's JSON, the tree blobs `<k>.before`/`<k>.after` of each file (rollback/journal/journal.ts). */
export const JOURNAL_REF = 'refs/kizu/journal';

/** Prefix of the snapshot refs, `refs/kizu/snapshots/<YYYYMMDD-HHMMSS-mmm>-<oid8>` (UTC): each a commit of the whole working tree with a `kizu-snapshot:` JSON line in its message (rollback/snapshots). */
export const SNAPSHOT_REFS = 'refs/kizu/snapshots/';

/** Prefix of task branches, `refs/heads/kizu/<name>` (rollback/tasks/records.ts). */
export const TASK_BRANCH_PREFIX = 'refs/heads/kizu/';

/** Prefix of task records, `refs/kizu/tasks/<name>`: a commit with the empty tree whose parent is the task's base, `kizu-task:`/`kizu-from:`/`kizu-created:` lines in its message (rollback/tasks/records.ts). */
export const TASK_RECORD_PREFIX = 'refs/kizu/tasks/';

/** Prefix of discarded tasks, `refs/kizu/trash/<name>/<YYYYMMDDTHHMMSSZ>`: a commit of the task worktree's files whose first parent is the branch tip, `kizu-*:` lines in its message (rollback/tasks/removed.ts). */
export const TASK_TRASH_PREFIX = 'refs/kizu/trash/';

/**
 * Prefix of the scratch refs `git kizu gc` writes a rewritten chain to, `refs/kizu/gc-tmp/<pid>`
 * (git fast-import writes its commits to a ref); deleted as soon as the chain's ref has moved
 * (storage/retention.ts).
 */
export const GC_TMP_PREFIX = 'refs/kizu/gc-tmp/';

// ---------------------------------------------------------------------------------------
// Files under <git-dir>/kizu/ (this worktree)

/** `<gitDir>/kizu`: the directory of git-kizu's files, in a git dir or a common dir. */
export function kizuDir(gitDir: string): string {
  return path.join(gitDir, 'kizu');
}

/** `<gitDir>/kizu/scars.json`: the scar lines `git kizu scar` wrote (for `scar --undo`) and `unscar` / `scar --undo` removed; and the lines `patch apply`, `rollback patch` and `revert` added or removed (`rewrite`, kept a minute); a JSON array of `{rel, realRel, line, text, time, removed?, undone?, rewrite?}`, newest last, at most 200 (scars/insert.ts ScarRecord). */
export function scarsRecordFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'scars.json');
}

/**
 * `<gitDir>/kizu/stop/<session>.json`: the Stop hook's count of blocks in a row for one agent
 * session, `{"key": <sha1 of the unresolved set>, "streak": <n>}` (hooks/stop-gate.ts).
 * @param session the agent's session id; characters outside `[A-Za-z0-9._-]` become `_`, at most 128 are kept (`unknown` if none).
 */
export function stopStateFile(gitDir: string, session: string): string {
  return path.join(kizuDir(gitDir), 'stop', `${session.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128) || 'unknown'}.json`);
}

/**
 * `<gitDir>/kizu/guard-checked.json`: `{"sessions": [<session id>...]}`, the last 100 agent
 * sessions whose first Stop checked the pre-commit guard (hooks/stop-gate.ts tells the user
 * once per session when it is missing).
 */
export function guardCheckedFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'guard-checked.json');
}

/** `<gitDir>/kizu/queue-cache.json`: the parsed review queue, `{"v", "hash": <sha1 of the file>, "items"}` (queue/read.ts). */
export function queueCacheFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'queue-cache.json');
}

/**
 * `<gitDir>/kizu/written`: the ledger of the scars and queue items git kizu wrote in this
 * worktree, one SHA-256 (hex) of each one's key a line (provenance/ledger.ts). Labels only:
 * no gate reads it.
 */
export function writtenLedgerFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'written');
}

/** `<gitDir>/kizu/<name>.lock`: the lock around one read-modify-write (`queue`; `scars`, the working-tree write lock of git/lock.ts withWorkTreeLock); `<pid> <host> <ISO time>` (git/lock.ts withLock). */
export function stateLockFile(gitDir: string, name: string): string {
  return path.join(kizuDir(gitDir), `${name}.lock`);
}

/** `<gitDir>/kizu/worktree-id`: this worktree's identity as its snapshots record it, one random token and a '\n' (rollback/snapshots/store.ts). */
export function worktreeIdFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'worktree-id');
}

/** The files of a worktree's snapshot store (rollback/snapshots/store.ts). */
export interface SnapshotPaths {
  /** `<gitDir>/kizu/snapshot`. */
  dir: string;
  /** `snapshot/index`: the private index (gitformat-index(5)) snapshots are taken with. */
  indexFile: string;
  /** `snapshot/state.json`: the exact permission bits of the files in that index, keyed to its checksum (rollback/snapshots/capture.ts). */
  stateFile: string;
  /** `snapshot/shadow/`: a stand-in common git dir (`config`, `info/attributes`, empty `refs/`) for commands on the private index. */
  shadowDir: string;
  /** `snapshot/lock`: held while a snapshot is taken or restored; `<pid> <host> <ISO time>` (git/lock.ts acquireLock). */
  lockFile: string;
}

/** The snapshot store files of the worktree whose git dir is `gitDir` (see {@link SnapshotPaths}). */
export function snapshotPaths(gitDir: string): SnapshotPaths {
  const dir = path.join(kizuDir(gitDir), 'snapshot');
  return {
    dir,
    indexFile: path.join(dir, 'index'),
    stateFile: path.join(dir, 'state.json'),
    shadowDir: path.join(dir, 'shadow'),
    lockFile: path.join(dir, 'lock'),
  };
}

/** `<gitDir>/kizu/install-<scope>.json` for scope `project` or `local`: JSON of what `git kizu init` created, so that `teardown` removes exactly that (install/state.ts). */
export function installRecordFile(gitDir: string, scope: 'project' | 'local'): string {
  return path.join(kizuDir(gitDir), `install-${scope}.json`);
}

// ---------------------------------------------------------------------------------------
// Files under <common-dir>/kizu/ (all worktrees)

/** `<commonDir>/kizu/marks-cache.json`: `{"oid": <marks commit>, "json": <its marks.json text>}` for the commit read or written last (marks/commits.ts). */
export function marksCacheFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'marks-cache.json');
}

/** `<commonDir>/kizu/rollbacks.json`: the undo log, `{"version": 1, "records": [<RollbackRecord>...], "redo": [<snapshot commit id>...]}`, newest last (rollback/undo-log.ts). */
export function undoLogFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'rollbacks.json');
}

/**
 * `<commonDir>/kizu/git-kizu`: this clone's launcher (sh, 0755, written by `git kizu init`,
 * install/launcher.ts): the absolute paths of node and of git-kizu's bin on this machine, so
 * that hooks find git-kizu where PATH lacks node. The only place a machine path is kept for
 * a repository; committed files (`.claude/hooks/`, hook-manager configs) find it at run time
 * with `git rev-parse --git-common-dir`.
 */
export function launcherFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'git-kizu');
}

/** `<commonDir>/kizu/rollbacks.lock`: held while the undo log is read and rewritten; `<pid> <host> <ISO time>` (git/lock.ts acquireLock). */
export function undoLogLockFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'rollbacks.lock');
}

/**
 * `<commonDir>/kizu/install.lock`: held by `git kizu init` and `git kizu teardown` from before
 * they read anything until they are done, so that concurrent runs never overwrite each
 * other's install records; `<pid> <host> <ISO time>` (git/lock.ts acquireLock).
 */
export function installLockFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'install.lock');
}

/**
 * `<commonDir>/kizu/gc-auto.json`: what the last background `git kizu gc --auto` did,
 * `{"time": <ISO>, "pid": <n>, "state": "running"|"done"|"failed", "dropped": {<kind>: <n>}, "error"?: <message>}`
 * (storage/auto.ts); its modification time is when the prompt hook last started one, so that
 * it starts one at most once an hour.
 */
export function gcAutoFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'gc-auto.json');
}

/** `<commonDir>/kizu/gc.lock`: held while `git kizu gc` prunes, so that two runs never race; `<pid> <host> <ISO time>` (git/lock.ts acquireLock). */
export function gcLockFile(commonDir: string): string {
  return path.join(kizuDir(commonDir), 'gc.lock');
}

// ---------------------------------------------------------------------------------------
// Outside the repository

/** `<home>/.claude/kizu/git-kizu`: the launcher of the user-scope install (see {@link launcherFile}). */
export function userLauncherFile(home: string): string {
  return path.join(home, '.claude', 'kizu', 'git-kizu');
}

/** `<home>/.claude/kizu/install-user.json`: the same for user scope (install/state.ts). */
export function userInstallRecordFile(home: string): string {
  return path.join(home, '.claude', 'kizu', 'install-user.json');
}

/** `<home>/.claude/kizu/install.lock`: the same as {@link installLockFile} for the user-scope install (taken before the repository's). */
export function userInstallLockFile(home: string): string {
  return path.join(home, '.claude', 'kizu', 'install.lock');
}

/**
 * `<gitDir>/kizu/queue-record`: the review queue items `git kizu queue add` wrote in this
 * worktree and those `queue rm`/`queue clear` took out, one line each (`+\t<id>\t<text as
 * JSON>` or `-\t<id>`; queue/record.ts). An item added and not taken out that is missing from
 * the queue file was deleted, stashed or checked out away: the Stop hook blocks on it.
 */
export function queueRecordFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'queue-record');
}
