/**
 * The git pre-commit hook (githooks(5): `pre-commit` in the hooks directory runs before a
 * commit is made, takes no arguments, and a non-zero exit status aborts the commit; git only
 * runs it if it is executable).
 *
 * The hook goes into the hooks directory git actually uses: `git rev-parse --git-path hooks`
 * run in the user's cwd and resolved against that cwd. That honours `core.hooksPath`
 * (husky, lefthook; a relative value is relative to the worktree root git runs hooks in)
 * and linked worktrees (whose hooks live in the common dir).
 *
 * Chaining: an existing `pre-commit` that is not ours is renamed to
 * `pre-commit.kizu-chained` (same directory, bytes, mode and inode), and our hook runs it
 * first; teardown renames it back. Our hook is recognised by {@link PRE_COMMIT_MARKER}.
 * A symbolic link there is moved aside itself (rename keeps the link text) and never written
 * through: every write here replaces the path (temp file + rename), never follows it.
 * A hook a manager generated (husky, lefthook, the pre-commit framework, simple-git-hooks)
 * is never chained: init integrates with that manager instead (install/guard.ts).
 */
import { linkSync, lstatSync, readFileSync, renameSync, rmSync, chmodSync, statSync } from 'node:fs';
import path from 'node:path';
import { git } from '../git/run.js';
import { KizuError } from '../errors.js';
import { replaceFileSync } from '../files.js';
import { generatedBy } from './managers/generated.js';
import { PRE_COMMIT_MARKER } from './scripts.js';

/** File name the previous hook is moved to. */
export const CHAINED_NAME = 'pre-commit.kizu-chained';

/**
 * The effective git hooks directory for `cwd` (absolute; it may not exist yet).
 * @throws KizuError (exit 2) if git fails (e.g. cwd is not in a repository).
 */
export async function effectiveHooksDir(cwd: string): Promise<string> {
  const r = await git(['rev-parse', '--git-path', 'hooks'], { cwd });
  return path.resolve(cwd, r.stdout.toString('utf8').replace(/\r?\n$/, ''));
}

/** What is in the hooks directory now. */
export interface PreCommitState {
  hooksDir: string;
  /** `<hooksDir>/pre-commit`. */
  hook: string;
  /** `<hooksDir>/pre-commit.kizu-chained`. */
  chained: string;
  /** absent: no pre-commit; ours: it carries our marker; foreign: someone else's. */
  state: 'absent' | 'ours' | 'foreign';
  /** True if the chained file exists. */
  chainedExists: boolean;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** True if `file` is a readable regular file (not a symbolic link) carrying our marker. */
export function isOurPreCommit(file: string): boolean {
  try {
    return lstatSync(file).isFile() && readFileSync(file, 'utf8').includes(PRE_COMMIT_MARKER);
  } catch {
    return false;
  }
}

/** Looks at `<hooksDir>/pre-commit` and the chained file. Never throws. */
export function inspectPreCommit(hooksDir: string): PreCommitState {
  const hook = path.join(hooksDir, 'pre-commit');
  const chained = path.join(hooksDir, CHAINED_NAME);
  const state = !exists(hook) ? 'absent' : isOurPreCommit(hook) ? 'ours' : 'foreign';
  return { hooksDir, hook, chained, state, chainedExists: exists(chained) };
}

function readNoFollow(file: string): Buffer | null {
  try {
    return lstatSync(file).isFile() ? readFileSync(file) : null;
  } catch {
    return null;
  }
}

/**
 * True if the chained file is a leftover nobody needs: the `pre-commit` there now is not ours
 * (a manager wrote its hook again over ours) and the chained file is a copy of it, a hook a
 * manager generated (the manager writes it again from its configuration), or a copy of our
 * own hook. Never true for a symbolic link or a hand-written hook that differs, nor while
 * both names are one file (another `git kizu init` is between linking the user's hook to the
 * chained name and putting ours at `pre-commit`: deleting it then would lose the user's hook).
 */
export function staleChained(s: PreCommitState): boolean {
  if (!s.chainedExists || s.state !== 'foreign') return false;
  try {
    const a = lstatSync(s.hook);
    const b = lstatSync(s.chained);
    if (a.ino === b.ino && a.dev === b.dev) return false;
  } catch {
    return false;
  }
  const chained = readNoFollow(s.chained);
  if (chained === null) return false;
  const hook = readNoFollow(s.hook);
  const text = chained.toString('utf8');
  return (hook !== null && hook.equals(chained)) || generatedBy(text) !== null || text.includes(PRE_COMMIT_MARKER);
}

/**
 * Checks that {@link installPreCommit} can proceed without losing a hook.
 * @throws KizuError (exit 2) if a foreign pre-commit exists and so does the chained file
 *   (chaining would overwrite it).
 */
export function checkPreCommit(s: PreCommitState): void {
  if (s.state === 'foreign' && s.chainedExists) {
    throw new KizuError(`cannot chain the existing ${s.hook}: ${s.chained} already exists`, {
      hint: `merge or remove one of the two hooks, then run the command again (nothing was changed), or pass --no-pre-commit`,
    });
  }
}

/** Outcome of {@link installPreCommit}. */
export type PreCommitAction = 'created' | 'chained' | 'updated' | 'unchanged';

/**
 * Installs our hook `content` (mode 0755) as `<hooksDir>/pre-commit`, moving a foreign hook
 * to the chained name first. Creating the hooks directory is the caller's job.
 * @returns what was done: created (no hook before), chained (foreign hook moved), updated
 *   (ours, content or mode changed), unchanged.
 * @throws KizuError (exit 2) on the conflict {@link checkPreCommit} reports; fs errors as is.
 */
export async function installPreCommit(s: PreCommitState, content: string): Promise<PreCommitAction> {
  checkPreCommit(s);
  if (s.state === 'ours') {
    const same = readFileSync(s.hook, 'utf8') === content;
    const modeOk = (statSync(s.hook).mode & 0o777) === 0o755;
    if (same && modeOk) return 'unchanged';
    if (same) chmodSync(s.hook, 0o755);
    else replaceFileSync(s.hook, content, { mode: 0o755 });
    return 'updated';
  }
  if (s.state === 'foreign') {
    // Another `git kizu init` may have run since `s` was read: never chain our own hook
    // (it would run itself forever), and never overwrite a chained hook. linkSync fails
    // with EEXIST instead of replacing, and keeps the user's file (same inode) while ours is
    // renamed over the pre-commit name.
    if (isOurPreCommit(s.hook)) return installPreCommit({ ...s, state: 'ours' }, content);
    try {
      linkSync(s.hook, s.chained);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') checkPreCommit({ ...s, chainedExists: true });
      if (code === 'ENOENT') return installPreCommit(inspectPreCommit(s.hooksDir), content);
      throw e;
    }
  }
  // Replaces the name (a symbolic link included, now kept as the chained file), never follows it.
  replaceFileSync(s.hook, content, { mode: 0o755 });
  return s.state === 'foreign' ? 'chained' : 'created';
}

/** Outcome of {@link removePreCommit}. */
export interface PreCommitRemoval {
  /** Our hook was deleted. */
  removed: boolean;
  /** The chained hook was renamed back to pre-commit. */
  restored: boolean;
  /** The pre-commit there now is not ours, so it was left (and the chained file too). */
  foreign: boolean;
}

/**
 * Deletes our hook at `hook` and renames `<dir>/pre-commit.kizu-chained` back to
 * `pre-commit` (bytes and mode unchanged). A foreign hook at `hook` is left alone, and so is
 * the chained file then.
 * @throws fs errors (EACCES, ...).
 */
export function removePreCommit(hook: string): PreCommitRemoval {
  const chained = path.join(path.dirname(hook), CHAINED_NAME);
  const present = exists(hook);
  if (present && !isOurPreCommit(hook)) return { removed: false, restored: false, foreign: true };
  if (present) rmSync(hook, { force: true });
  let restored = false;
  if (exists(chained)) {
    renameSync(chained, hook);
    restored = true;
  }
  return { removed: present, restored, foreign: false };
}
