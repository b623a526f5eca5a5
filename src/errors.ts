/**
 * Error type shared by every command. Commands throw it; only src/main.ts turns it into a
 * message on stderr and a process exit code.
 */

/** Exit codes used across the CLI (documented in README "Exit codes"). */
export const EXIT = {
  /** Success; for `scan`: no scars found. */
  OK: 0,
  /** Review state found (`scan` found scars) or a refused operation on valid input. */
  FOUND: 1,
  /** Usage error, bad input, or an internal/git failure. */
  ERROR: 2,
} as const;

/**
 * A user-facing failure. `message` says what went wrong; `hint` says how to fix it.
 * `exitCode` is the process exit code the CLI uses (default 2).
 */
export class KizuError extends Error {
  readonly exitCode: number;
  readonly hint?: string;
  constructor(message: string, opts: { hint?: string; exitCode?: number } = {}) {
    super(message);
    this.name = 'KizuError';
    this.exitCode = opts.exitCode ?? EXIT.ERROR;
    this.hint = opts.hint;
  }
}
