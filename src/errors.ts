/**
 * Error type shared by every command. Commands throw it; only the CLI layer turns it into
 * a message on stderr and a process exit code.
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

/** Marks KizuError instances across copies of this module (see KizuError[Symbol.hasInstance]). */
const BRAND = Symbol.for('git-kizu.KizuError');

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
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * `e instanceof KizuError` by brand, not by prototype: the fast paths run from bundles
   * (dist/bundle/) that carry their own copy of this class, and an error thrown by a module
   * loaded from dist/ must still be recognised there (and the reverse).
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    // Subclasses (PatchError, PatchMismatch) inherit this method: for them `instanceof` is
    // the ordinary prototype check, else every KizuError would count as one of them.
    if (this !== KizuError) return Function.prototype[Symbol.hasInstance].call(this, x);
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }
}
