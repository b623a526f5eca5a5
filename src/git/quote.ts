/**
 * Paths in text output quoted as git quotes them (git's quote.c quote_c_style, used by
 * `git ls-files`, `git diff`, `git status`): a path holding `"`, `\`, a control character
 * (below 0x20, or 0x7f) or, with `core.quotePath` true (git's default), a byte of 0x80 or
 * more is printed in double quotes with those characters escaped: `\"`, `\\`, `\a \b \t \n
 * \v \f \r`, other bytes as three octal digits (`\303\251` for "é" in UTF-8). Any other path
 * is printed as is (spaces included). JSON output keeps raw paths.
 */
import { gitSync } from './run.js';

const ESC: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

/**
 * `p` (a path as git gives it, decoded from UTF-8) quoted by git's quote_c_style rules (see
 * the module comment); `quotePath` is git's `core.quotePath` (default true).
 */
export function quoteCStyle(p: string, quotePath = true): string {
  // Fast path: printable ASCII without " and \ (and, with quotePath false, anything >= 0x80).
  if (quotePath ? !/[\u0000-\u001f"\\\u007f-\uffff]/.test(p) : !/[\u0000-\u001f"\\\u007f]/.test(p)) return p;
  const bytes = Buffer.from(p, 'utf8');
  let out = '';
  let raw: number[] = [];
  const flush = () => {
    if (raw.length) out += Buffer.from(raw).toString('utf8');
    raw = [];
  };
  for (const b of bytes) {
    if (ESC[b] !== undefined) (flush(), (out += ESC[b]));
    else if (b < 0x20 || b === 0x7f || (quotePath && b >= 0x80)) (flush(), (out += '\\' + b.toString(8).padStart(3, '0')));
    else raw.push(b);
  }
  flush();
  return `"${out}"`;
}

/** A function quoting paths for text output ({@link quoteCStyle} with one core.quotePath). */
export type PathQuote = (p: string) => string;

/**
 * The path quoting for one command's text output in the repository at `cwd`:
 * {@link quoteCStyle} with git's `core.quotePath`, read (one `git config`, synchronously)
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
