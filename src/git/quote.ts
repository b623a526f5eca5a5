/**
 * Paths in text output quoted as git quotes them (git's quote.c quote_c_style, used by
 * `git ls-files`, `git diff`, `git status`): a path holding `"`, `\`, a control character
 * (below 0x20, or 0x7f) or, with `core.quotePath` true (git's default), a byte of 0x80 or
 * more is printed in double quotes with those characters escaped: `\"`, `\\`, `\a \b \t \n
 * \v \f \r`, other bytes as three octal digits (`\303\251` for "é" in UTF-8). Any other path
 * is printed as is (spaces included). JSON output keeps raw paths.
 * Pure text: git's `core.quotePath` for a command's output is read by git/path-quoter.ts
 * (this module starts no git process, so the hooks' paths that only quote load no git runner).
 */
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

/**
 * A path given as raw bytes (a name that is not valid UTF-8) quoted as git quotes it with
 * `core.quotePath` true: in double quotes, `"` `\\` and control characters escaped, every byte
 * of 0x80 or more as three octal digits (`"caf\351.js"`). Whatever core.quotePath says, such
 * bytes never reach a terminal raw.
 */
export function quoteBytes(b: Buffer): string {
  let out = '';
  for (const c of b) {
    if (ESC[c] !== undefined) out += ESC[c];
    else if (c < 0x20 || c >= 0x7f) out += '\\' + c.toString(8).padStart(3, '0');
    else out += String.fromCharCode(c);
  }
  return `"${out}"`;
}

/** A function quoting paths for text output ({@link quoteCStyle} with one core.quotePath). */
export type PathQuote = (p: string) => string;

const UNESC: Record<string, number> = { a: 0x07, b: 0x08, t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d, '"': 0x22, '\\': 0x5c };

/**
 * The inverse of {@link quoteCStyle}: `s` read as one path in git's C-style quotes
 * (`"tab\there.js"`, `"\303\251t\303\251"`), decoded (octal escapes are bytes of UTF-8), or
 * null when `s` is not such a quoted string (no quotes around it, an unknown escape, a bare
 * `"` inside).
 */
export function unquoteCStyle(s: string): string | null {
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) return null;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let k = 0; k < body.length; k++) {
    const c = String.fromCodePoint(body.codePointAt(k)!);
    if (c === '"') return null;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      k += c.length - 1;
      continue;
    }
    const e = body[++k];
    if (e === undefined) return null;
    if (UNESC[e] !== undefined) bytes.push(UNESC[e]);
    else if (/^[0-3][0-7]{2}$/.test(body.slice(k, k + 3))) (bytes.push(parseInt(body.slice(k, k + 3), 8)), (k += 2));
    else return null;
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A path argument as the user gave it, with a path in git's quoted form (as git-kizu and git
 * print it: `"tab\there.js"`) unquoted: `"<quoted>"` alone or followed by `:<anything>`
 * (`"tab\there.js":1`, a `<path>:<line>` or hunk spec) becomes the decoded path (and the
 * rest). Anything else is returned unchanged; a file whose name itself starts and ends with
 * `"` is named in its quoted form (`"\"x\""`), as git prints it. The one place the CLI reads
 * quoted paths (scar, unscar, queue add --at, tap/reject/untap/revert, hunks, scan).
 */
export function unquotePathArg(arg: string): string {
  if (!arg.startsWith('"')) return arg;
  const m = /^("(?:[^"\\]|\\.)*")(:.*)?$/s.exec(arg);
  const p = m ? unquoteCStyle(m[1]) : null;
  return p === null ? arg : p + (m![2] ?? '');
}

/**
 * A user's argument for a message, in double quotes, with the characters git quotes in paths
 * escaped as {@link quoteCStyle} escapes them (`"tab\there.js:1"`), so a tab or newline never
 * reaches the terminal raw.
 */
export function quoteArg(s: string): string {
  const q = quoteCStyle(s);
  return q.startsWith('"') ? q : `"${s}"`;
}

/**
 * `p` followed by `suffix` (`:12`) as an argument of a git-kizu command a hint shows, ready to
 * paste into sh: as is when no shell treats its characters specially; in single quotes when
 * the shell would (`'src/x;touch y;.js:12'`: a file name must never run as a command); and git's
 * quoted form in single quotes when git quotes it (`'"tab\there.js":12'`), which git-kizu
 * unquotes ({@link unquotePathArg}). For a git command, which does not unquote, use
 * {@link shellPath}.
 */
export function pathArg(p: string, suffix = ''): string {
  const q = quoteCStyle(p);
  const word = q === p ? p + suffix : q + suffix;
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A path as one word of a shell command shown in a message: as is when no shell treats its
 * characters specially, else in single quotes (src/words.ts shellQuote); but when it holds a
 * character git quotes in paths ({@link quoteCStyle}: a tab, a newline, a byte beyond
 * ASCII...), which must not reach the terminal raw, `<path>` followed by the path in git's
 * quoted form (git and the shell do not unquote it).
 */
export function shellPath(p: string): string {
  const q = quoteCStyle(p);
  if (q !== p) return `<path> (the path ${q})`;
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}
