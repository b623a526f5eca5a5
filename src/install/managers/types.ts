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
}
