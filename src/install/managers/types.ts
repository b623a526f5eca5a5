/**
 * The pre-commit guard inside a hook manager's own configuration (husky, lefthook, the
 * pre-commit framework, simple-git-hooks, a plain `core.hooksPath` directory). Each manager is
 * one module exporting a {@link HookManager}: detection plus pure text transforms, so that
 * init can check everything before the first write and teardown can take out exactly the
 * bytes init put in (every change is one {@link Insertion}, recorded in the install record).
 */

/** Which manager. Stored in install records: never rename one. */
export type ManagerId = 'husky' | 'lefthook' | 'pre-commit' | 'simple-git-hooks' | 'hooks-path';

/** What a manager's detection looks at. */
export interface DetectInput {
  /** Absolute path of the working tree's top level. */
  root: string;
  /** `git config core.hooksPath` as set (null when unset), not resolved. */
  hooksPath: string | null;
  /** True when the user asked for a local-only install (`--scope local`): use the manager's local file if it has one. */
  local: boolean;
  /** The effective hooks directory (`git rev-parse --git-path hooks`, absolute). Optional for callers that only test a config file. */
  hooksDir?: string;
  /** True when `hooksPath` is set and names a directory holding files tracked by git (a committed hooks dir such as `.githooks`). */
  hooksPathTracked?: boolean;
}

/** A manager found in the repository, and the one file init would edit for it. */
export interface Detected {
  id: ManagerId;
  /** Absolute path of the configuration file to edit (it may not exist yet). */
  file: string;
  /** For messages, e.g. `lefthook (lefthook.yml)`. */
  label: string;
  /** Mode for the file if init creates it (default 0644). */
  createMode?: number;
  /** The command that makes the manager write its git hooks again (shown in messages), e.g. `npx lefthook install`. */
  reinstall?: string;
  /** True when `file` is a local-only configuration (not shared with the team, e.g. `lefthook-local.yml`). Without it, `--scope local` prints instead of editing. */
  local?: boolean;
  /** A line init and teardown print after editing `file` (what the user must do for the edit to take effect), e.g. the pre-commit framework's `git add`. */
  afterEdit?: string;
  /** True when this manager owns `core.hooksPath` (husky's `.husky/_`, a tracked hooks dir): it wins when several managers are detected. */
  ownsHooksPath?: boolean;
}

/** Why a manager's guard does not run although its configuration holds it, and the one command that fixes that. */
export interface HookProblem {
  why: string;
  fix: string;
}

/** `text` is inserted at (UTF-16) character `offset` of the file's text (the file absent: into ''). */
export interface Insertion {
  offset: number;
  text: string;
}

/** What adding the guard to one file would do. */
export type AddPlan =
  /** The guard is already there (idempotent re-run). */
  | { kind: 'present' }
  /** Insert this; nothing else in the file changes. */
  | { kind: 'insert'; insertion: Insertion }
  /** The file cannot be edited safely (generated elsewhere, unusual shape): print `snippet` and say `why`. */
  | { kind: 'print'; snippet: string; why: string };

/** One hook manager. */
export interface HookManager {
  id: ManagerId;
  /** Finds the manager in the repository (config files, `core.hooksPath`); null when it is not used there. Never throws. */
  detect(i: DetectInput): Detected | null;
  /**
   * Plans adding the guard to `text` (the file's current text, null when absent).
   * @throws KizuError (exit 2) when the file does not parse (nothing is written).
   */
  plan(text: string | null, d: Detected): AddPlan;
  /** True if `text` holds the guard (for status and doctor). */
  has(text: string): boolean;
  /**
   * Optional: checks that the manager's generated git hook is in place in this clone, so that
   * the guard in its configuration actually runs (e.g. husky: `core.hooksPath` is `.husky/_`).
   * @returns null when it is, else why not and the command that installs it (`npx husky`).
   */
  hookProblem?(i: DetectInput, d: Detected): HookProblem | null;
  /** The line teardown prints after taking the guard out of this manager's file (as {@link Detected.afterEdit}). */
  afterEdit?: string;
  /**
   * Optional, for managers that copy the configured command into the hook they generate
   * (simple-git-hooks): the exact hook text the manager writes for the configuration `text`
   * (null: it writes no pre-commit hook). init and teardown use it to bring the generated
   * hook in line with the configuration when it still holds what the manager wrote.
   */
  generatedHook?(text: string | null, d: Detected): string | null;
}
