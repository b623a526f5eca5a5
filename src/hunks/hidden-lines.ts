/**
 * The sentences that name a hidden change (hunks/hidden.ts) for the human, without the code
 * that finds them: the hooks' text (hooks/text.ts) loads only this.
 */
import type { HiddenChange } from '../git/hidden-changes.js';
import type { RuleHidden } from '../git/hidden-by-rules.js';
import { printable } from '../printable.js';
import { shellPath, type PathQuote } from '../git/quote.js';

/** What a listing found hidden: {@link HiddenChange}s and quoted names that are not valid UTF-8. */
export interface HiddenFindings {
  changes: HiddenChange[];
  /** Quoted as git quotes them (`"caf\\351.js"`). */
  unreadable: string[];
  /** Files (or ignored directories, ending in `/`) that an ignore rule not in the baseline or an attribute hides (git/hidden-by-rules.ts). */
  rules: RuleHidden[];
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
 * One line per file a rule hides (git/hidden-by-rules.ts), with what git does not show, what
 * git-kizu does instead and the fix:
 * - `evil.js is hidden by the ignore rule x/.gitignore:1: *, which the baseline does not hold, so
 *   git status does not list it; git-kizu reviews it anyway; restore: take the rule out (or commit it to keep it)`;
 * - an ignored directory (too many files to review one by one): `... so git status does not list
 *   it and git-kizu does not review the files under it; the stop is held until: ...`;
 * - `a.js has the attribute ident (set in .gitattributes), so git diff does not show text inside
 *   $Id: ... $; git-kizu scans its bytes anyway; restore: take the attribute out`;
 * - `a.js has the attribute filter=strip (...), so git diff shows what that clean filter makes of
 *   it, not its bytes; git-kizu scans its bytes anyway; restore: take the attribute out, or git config --unset filter.strip.clean`.
 * @param quote writes the path (src/git/quote.ts pathQuoter).
 */
export function ruleHiddenLine(r: RuleHidden, quote: PathQuote): string {
  const p = r.path.endsWith('/') ? `${quote(r.path.slice(0, -1))}/` : quote(r.path);
  const rule = printable(r.rule);
  if (r.how === 'ignored') {
    return r.path.endsWith('/')
      ? `${p} is hidden by the ignore rule ${rule}, which the baseline does not hold, so git status does not list it and git-kizu does not review the files under it (too many); the stop is held until the rule is taken out or committed`
      : `${p} is hidden by the ignore rule ${rule}, which the baseline does not hold, so git status does not list it; git-kizu reviews it anyway; restore: take the rule out (or commit it to keep it)`;
  }
  if (r.how === 'ident') return `${p} has the attribute ${rule}, so git diff does not show text inside $Id: ... $; git-kizu scans its bytes anyway; restore: take the attribute out`;
  const name = /^filter=(\S+)/.exec(r.rule)?.[1] ?? '';
  return `${p} has the attribute ${rule}, so git diff shows what that clean filter makes of it, not its bytes; git-kizu scans its bytes anyway; restore: take the attribute out, or git config --unset filter.${printable(name)}.clean`;
}


/**
 * The finding lines for `status` and `review` (each prefixed `hidden change: ` or
 * `unreadable name: `): flagged files, files a rule hides, unreadable names, in that order; [] when there is nothing hidden.
 */
export function hiddenFindingLines(f: HiddenFindings, quote: PathQuote): string[] {
  return [
    ...f.changes.map((h) => `hidden change: ${hiddenChangeLine(h, quote)}`),
    ...f.rules.map((r) => `hidden change: ${ruleHiddenLine(r, quote)}`),
    ...f.unreadable.map((n) => `unreadable name: ${unreadableNameLine(n)}`),
  ];
}

