/**
 * The sentences that name a hidden change (hunks/hidden.ts) for the human, without the code
 * that finds them: the hooks' text (hooks/text.ts) loads only this.
 */
import type { HiddenChange } from '../git/hidden-changes.js';
import { shellPath, type PathQuote } from '../git/quote.js';

/** What a listing found hidden: {@link HiddenChange}s and quoted names that are not valid UTF-8. */
export interface HiddenFindings {
  changes: HiddenChange[];
  /** Quoted as git quotes them (`"caf\\351.js"`). */
  unreadable: string[];
}

/** The `git update-index` command that clears a hidden change's flag (the path to be added). */
export function restoreCommand(flag: HiddenChange['flag']): string {
  return `git update-index --no-${flag}`;
}

/**
 * One line per hidden change: `<path> is marked assume-unchanged, so git status and git diff
 * do not show that it was modified; git-kizu reviews it anyway; restore: git update-index
 * --no-assume-unchanged -- <path>`.
 * @param quote writes the path (src/git/path-quoter.ts pathQuoter).
 */
export function hiddenChangeLine(h: HiddenChange, quote: PathQuote): string {
  if (h.flag === 'skip-worktree' && h.change === 'deleted') {
    return `${quote(h.path)} is marked skip-worktree and absent (a sparse checkout, core.sparseCheckout, leaves such files out), so git status and git diff do not show that it was deleted; git-kizu reviews it as deleted; restore: git sparse-checkout disable (brings the left-out files back), or ${restoreCommand(h.flag)} -- ${shellPath(h.path)}`;
  }
  return `${quote(h.path)} is marked ${h.flag}, so git status and git diff do not show that it was ${h.change}; git-kizu reviews it anyway; restore: ${restoreCommand(h.flag)} -- ${shellPath(h.path)}`;
}

/**
 * One line per name that is not valid UTF-8: `"caf\351.js" has a name that is not valid
 * UTF-8: git-kizu cannot review, scan or snapshot it; rename it`.
 * @param name quoted as git quotes it.
 */
export function unreadableNameLine(name: string): string {
  return `${name} has a name that is not valid UTF-8: git-kizu cannot review, scan or snapshot it; rename it (git mv, or mv for an untracked file)`;
}

/**
 * The finding lines for `status` and `review` (each prefixed `hidden change: ` or
 * `unreadable name: `), in that order; [] when there is nothing hidden.
 */
export function hiddenFindingLines(f: HiddenFindings, quote: PathQuote): string[] {
  return [...f.changes.map((h) => `hidden change: ${hiddenChangeLine(h, quote)}`), ...f.unreadable.map((n) => `unreadable name: ${unreadableNameLine(n)}`)];
}

