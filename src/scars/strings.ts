/**
 * Multi-line string content in languages whose comments are line comments: a scar line
 * inserted there would not be a comment but part of the string (changing the program's
 * data). Recognised, by file type:
 * - Python (`py`, `pyi`, `pyw`) and TOML (`toml`): triple-quoted strings `"""` / `'''`
 *   (Python string prefixes such as r, b, f included; the Python reference, "String and
 *   Bytes literals"; TOML 1.0 "Multi-line basic / literal strings"), and single-quoted
 *   strings continued by a backslash at the end of a line;
 * - YAML (`yml`, `yaml`): block scalars (`key: |`, `- >-`, with chomping and indentation
 *   indicators; YAML 1.2.2 section 8.1), whose content is every following line that is
 *   empty or more indented than the line that opened it;
 * - shell (`sh`, `bash`, `zsh`, `ksh`) and Dockerfiles: here-documents (`<<WORD`,
 *   `<<-WORD`, quoted words; POSIX Shell Command Language 2.7.4), up to the line holding
 *   only the delimiter (leading tabs allowed with `<<-`).
 * Other languages are handled elsewhere (JavaScript and TypeScript by their parser) or not
 * at all.
 */

/** Where a multi-line string that contains line `lineIndex` (0-based) starts, or null. */
export interface StringSpan {
  /** 1-based line the string starts on. */
  startLine: number;
  /** What kind of string, for messages (e.g. `a """ string`). */
  what: string;
}

const PY = new Set(['py', 'pyi', 'pyw', 'toml']);
const YAML = new Set(['yml', 'yaml']);
const SHELL = new Set(['sh', 'bash', 'zsh', 'ksh']);
/** Ruby and Perl here-documents (`<<~WORD`, `<<-WORD`, `<<WORD`, quoted words). */
const HEREDOC_LANGS = new Set(['rb', 'pl', 'pm']);

/**
 * The multi-line string that a line inserted just above line `lineIndex` (0-based) of
 * `lines` would fall into, or null.
 * @param ext the file's extension, lower case, without the dot ('' for none).
 * @param name the file's base name (for `Dockerfile`).
 */
export function stringAround(ext: string, name: string, lines: string[], lineIndex: number): StringSpan | null {
  if (PY.has(ext)) return pythonString(lines, lineIndex, ext === 'toml');
  if (YAML.has(ext)) return yamlBlock(lines, lineIndex);
  if (SHELL.has(ext) || /^(Dockerfile|Containerfile)(\..*)?$/.test(name) || ext === 'dockerfile') return heredoc(lines, lineIndex, false);
  if (HEREDOC_LANGS.has(ext)) return heredoc(lines, lineIndex, true);
  // A script without an extension: its #! line says which language.
  const shebang = ext === '' ? /^#!.*\b(sh|bash|zsh|ksh|dash|python[0-9.]*|ruby|perl)\b/.exec(lines[0] ?? '')?.[1] : undefined;
  if (shebang?.startsWith('python')) return pythonString(lines, lineIndex, false);
  if (shebang === 'ruby' || shebang === 'perl') return heredoc(lines, lineIndex, true);
  if (shebang) return heredoc(lines, lineIndex, false);
  return null;
}

/** Python / TOML: the state at the start of line `lineIndex`. */
function pythonString(lines: string[], lineIndex: number, toml: boolean): StringSpan | null {
  let open: { quote: string; line: number } | null = null;
  for (let i = 0; i < lineIndex && i < lines.length; i++) {
    const l = lines[i].replace(/\r$/, '');
    let k = 0;
    // A single-quoted string continued from the line before (backslash-newline).
    if (open && open.quote.length === 1) {
      const end = scanQuoted(l, 0, open.quote, toml && open.quote === "'");
      if (end === -1) continue; // still open (continued again) or unterminated
      open = null;
      k = end;
    }
    while (k < l.length) {
      if (open) {
        const at = findClose(l, k, open.quote, toml && open.quote === "'''");
        if (at === -1) break;
        open = null;
        k = at + 3;
        continue;
      }
      const c = l[k];
      if (c === '#') break; // a comment to the end of the line
      if (c === '"' || c === "'") {
        if (l.startsWith(c.repeat(3), k)) {
          open = { quote: c.repeat(3), line: i + 1 };
          k += 3;
          continue;
        }
        const end = scanQuoted(l, k + 1, c, toml && c === "'");
        if (end === -1) {
          // Unterminated: a backslash at the end continues it on the next line.
          if (/\\$/.test(l) && !toml) open = { quote: c, line: i + 1 };
          break;
        }
        k = end;
        continue;
      }
      k++;
    }
  }
  if (!open) return null;
  return { startLine: open.line, what: open.quote.length === 3 ? `a ${open.quote} string` : 'a string continued with a backslash' };
}

/** Index just after the closing `quote` of a one-line string whose body starts at `k`, or -1. */
function scanQuoted(l: string, k: number, quote: string, literal: boolean): number {
  for (let j = k; j < l.length; j++) {
    if (l[j] === '\\' && !literal) j++;
    else if (l[j] === quote) return j + 1;
  }
  return -1;
}

/** Index of the closing triple quote at or after `k`, or -1. */
function findClose(l: string, k: number, quote: string, literal: boolean): number {
  for (let j = k; j < l.length; j++) {
    if (l[j] === '\\' && !literal) j++;
    else if (l.startsWith(quote, j)) return j;
  }
  return -1;
}

/** A YAML block scalar header: a value of `|` or `>` with optional indicators, maybe a comment. */
const YAML_HEADER = /(?:(?:^|[:?-])\s+|^\s*)(?:[&!]\S*\s+)*[|>](?:[1-9][+-]?|[+-][1-9]?)?\s*(?:#.*)?$/;

/**
 * YAML: the block scalar a line inserted above line `lineIndex` (at that line's
 * indentation) would fall into: the nearest header above such that every non-blank line
 * from it down to the target is more indented than the header's line.
 */
function yamlBlock(lines: string[], lineIndex: number): StringSpan | null {
  const indent = (l: string) => l.length - l.trimStart().length;
  const blank = (l: string) => l.replace(/\r$/, '').trim() === '';
  // A blank target: the scar is inside the block only if block content follows it.
  let t = lineIndex;
  while (t < lines.length && blank(lines[t])) t++;
  const target = lines[t];
  let least = target !== undefined ? indent(target) : -1;
  if (least < 0) return null; // only blank lines to the end: after any block
  for (let i = lineIndex - 1; i >= 0; i--) {
    const l = lines[i].replace(/\r$/, '');
    if (blank(l)) continue;
    // A comment line is never a header (it may be block content, counted below).
    if (indent(l) < least && !l.trimStart().startsWith('#') && YAML_HEADER.test(l)) return { startLine: i + 1, what: 'a YAML block scalar' };
    least = Math.min(least, indent(l));
    if (least === 0) return null;
  }
  return null;
}

/** A line with its quoted strings blanked out and its `#` comment cut (shell rules, roughly). */
function shellCode(l: string): string {
  let out = '';
  for (let k = 0; k < l.length; k++) {
    const c = l[k];
    if (c === '\\') {
      out += '  ';
      k++;
    } else if (c === "'" || c === '"') {
      let j = k + 1;
      while (j < l.length && l[j] !== c) j += l[j] === '\\' && c === '"' ? 2 : 1;
      out += ' '.repeat(Math.min(j, l.length) - k + 1);
      k = j;
    } else if (c === '#' && (k === 0 || /\s/.test(l[k - 1]))) break;
    else out += c;
  }
  return out;
}

/**
 * Shell / Dockerfile (and, with `indented`, Ruby and Perl, whose `<<~` / `<<-` terminators
 * may be indented): a here-document whose body holds line `lineIndex`.
 */
function heredoc(lines: string[], lineIndex: number, indented: boolean): StringSpan | null {
  const pending: { word: string; strip: boolean; line: number }[] = [];
  for (let i = 0; i < lineIndex && i < lines.length; i++) {
    const l = lines[i].replace(/\r$/, '');
    if (pending.length) {
      const cur = pending[0];
      if ((cur.strip ? l.replace(indented ? /^\s+/ : /^\t+/, '') : l) === cur.word) pending.shift();
      continue;
    }
    // Here-document operators on this line, outside quotes and comments (the delimiter
    // itself may be quoted or escaped); their bodies start on the next line.
    const raw = l;
    const code = shellCode(l);
    for (const m of code.matchAll(/<<([-~]?)/g)) {
      const at = m.index!;
      if (code[at - 1] === '<' || code[at + 2] === '<') continue; // `<<<` is a here-string
      const before = code.slice(0, at);
      if ((before.match(/\(\(/g)?.length ?? 0) > (before.match(/\)\)/g)?.length ?? 0)) continue; // a shift in $(( ))
      // The word, read from the original text (quotes were blanked in `code`).
      const w = /^\s*\\?(["']?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(raw.slice(at + m[0].length));
      if (!w) continue;
      pending.push({ word: w[2], strip: m[1] !== '', line: i + 1 });
    }
  }
  return pending.length ? { startLine: pending[0].line, what: 'a here-document' } : null;
}
