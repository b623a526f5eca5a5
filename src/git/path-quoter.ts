/**
 * The path quoting of one command's text output: git/quote.ts quoteCStyle with the
 * repository's `core.quotePath`, which this module asks git for (the one part of path
 * quoting that starts a git process, kept apart so that quote.ts loads no git runner).
 */
import { gitSync } from './run.js';
import { quoteCStyle, type PathQuote } from './quote.js';

/**
 * The path quoting for one command's text output in the repository at `cwd`:
 * git/quote.ts {@link quoteCStyle} with git's `core.quotePath`, read (one `git config`, synchronously)
 * the first time a path with a character beyond ASCII is quoted, the only case where it
 * matters, and kept for the other paths. Unset or unreadable counts as true (git's default).
 */
export function pathQuoter(cwd: string): PathQuote {
  let quotePath: boolean | undefined;
  return (p) => {
    if (quotePath === undefined && /[\u0080-\uffff]/.test(p)) {
      try {
        const r = gitSync(['config', '--type=bool', '--get', 'core.quotePath'], { cwd, okStatus: [0, 1] });
        quotePath = r.stdout.toString('utf8').trim() !== 'false';
      } catch {
        quotePath = true;
      }
    }
    return quoteCStyle(p, quotePath ?? true);
  };
}
