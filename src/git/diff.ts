/**
 * A byte-exact parser of git's unified diff output (git-diff(1) "GENERATING PATCH TEXT
 * WITH -P"; gitdiffcore / diff-generate-patch): `diff --git` file headers, extended header
 * lines (`new file mode`, `deleted file mode`, `old mode`/`new mode`, `index`), `---`/`+++`,
 * `@@ -a,b +c,d @@` hunks, `Binary files ... differ`, and `\ No newline at end of file`.
 *
 * Works on bytes, not decoded text, so file contents that are not valid UTF-8 survive a
 * revert unchanged. Assumes the output of {@link DIFF_ARGS} (no renames or copies: both
 * sides of a file header name the same path).
 *
 * The pieces every unified diff shares (hunk headers, body line kinds, line splitting,
 * C-quoted paths) are exported for the patch-file reader (rollback/journal/patch-parse.ts),
 * which adds what patch files bring (GNU diff headers, `-p` stripping, strict checks).
 */
import { isUtf8 } from 'node:buffer';
import { KizuError } from '../errors.js';

/** One `@@` hunk as git printed it. */
export interface RawHunk {
  /** The `@@ -a,b +c,d @@ ...` line (decoded UTF-8). */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** The body lines as git printed them, each with its '\n' (one contiguous slice of the output). */
  body: Buffer;
  /** Body lines, each starting with its origin byte (' ', '+', '-', '\'), without the '\n' ({@link splitLines} of body, made on first use). */
  raw: Buffer[];
}

/**
 * Splits bytes into lines without their '\n' (a last line without '\n' included; no empty
 * last element).
 * @returns one Buffer per line, sharing memory with `buf`.
 */
export function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    const end = nl === -1 ? buf.length : nl;
    out.push(buf.subarray(pos, end));
    pos = end + 1;
  }
  return out;
}

/** The numbers of a hunk header `@@ -<oldStart>,<oldCount> +<newStart>,<newCount> @@<tail>`. */
export interface HunkHeader {
  oldStart: number;
  /** 1 when the header omits it (`@@ -5 +5 @@`), as the unified format says. */
  oldCount: number;
  newStart: number;
  newCount: number;
  /** What follows the closing `@@` (git puts ` <function context>` there), without a '\n'. */
  tail: string;
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Reads a unified-diff hunk header line (diffutils "Unified Format"; git-diff(1) "combined
 * diff format" aside): `@@ -l,s +l,s @@`, a count of 1 left out.
 * @param line the header text, without its '\n'.
 * @returns its numbers and tail; null if `line` is not a hunk header.
 */
export function parseHunkHeader(line: string): HunkHeader | null {
  const m = HUNK_RE.exec(line);
  if (!m) return null;
  return {
    oldStart: Number(m[1]),
    oldCount: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newCount: m[4] === undefined ? 1 : Number(m[4]),
    tail: line.slice(m[0].length),
  };
}

/**
 * What a hunk body line is, by its first byte: `' '` context (on both sides), `'-'` on the
 * old side only, `'+'` on the new side only, `'\\'` the `\ No newline at end of file` marker
 * (for the line before it).
 */
export type LineKind = ' ' | '-' | '+' | '\\';

/**
 * The kind of a hunk body line from its first byte (a char code or byte value).
 * @returns the kind; null for anything else (an empty line included: pass undefined or -1).
 */
export function lineKind(first: number | undefined): LineKind | null {
  switch (first) {
    case 0x20:
      return ' ';
    case 0x2d:
      return '-';
    case 0x2b:
      return '+';
    case 0x5c:
      return '\\';
    default:
      return null;
  }
}

/** A RawHunk whose `raw` lines are split from `body` only when asked for. */
class ParsedHunk implements RawHunk {
  body: Buffer = EMPTY;
  #raw: Buffer[] | undefined;
  constructor(
    public header: string,
    public oldStart: number,
    public oldCount: number,
    public newStart: number,
    public newCount: number,
  ) {}
  get raw(): Buffer[] {
    return (this.#raw ??= splitLines(this.body));
  }
}

const EMPTY = Buffer.alloc(0);

/** One file of a diff. */
export interface FileDiff {
  /** Repo-root-relative path, '/'-separated. */
  path: string;
  /** The path's bytes when they are not valid UTF-8 (`path` then holds U+FFFD in place of the bad bytes). */
  badName?: Buffer;
  status: 'modified' | 'added' | 'deleted';
  /** Git modes (e.g. '100644', '100755', '120000'), '' if the side does not exist. */
  oldMode: string;
  newMode: string;
  /** Full object ids from the `index` line (`--full-index`), '' if absent; all zeros for a missing side. */
  oldOid: string;
  newOid: string;
  /** True for `Binary files ... differ`. */
  binary: boolean;
  /** The `Binary files ... differ` line, if any. */
  binaryLine: string;
  hunks: RawHunk[];
}

/**
 * The fixed diff options behind every hunk (part of each hunk's identity). They override
 * every config setting that changes hunk shape or paths: context size, inter-hunk context,
 * algorithm, indent heuristic, renames, prefixes, relative paths, external diff, textconv,
 * colour, submodules (every submodule change is shown, new commits and a dirty working tree
 * alike, in the short form `Subproject commit <oid>[-dirty]`, whatever diff.submodule or
 * diff.ignoreSubmodules say), blank-line suppression, path quoting.
 */
export const DIFF_ARGS = [
  '-c',
  'core.quotePath=false',
  '-c',
  'diff.suppressBlankEmpty=false',
  'diff',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--no-renames',
  '--no-relative',
  '--ignore-submodules=none',
  '--submodule=short',
  '--full-index',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--inter-hunk-context=0',
  '-U3',
];

/**
 * The option part of {@link DIFF_ARGS} as one string, hashed into hunk ids. The submodule
 * options stand as `--ignore-submodules`, as they did when ids were first defined: they do
 * not change the hunks of files (submodule entries have ids of their own shape), so every
 * file hunk keeps its id, and the review marks on it, across that change.
 */
export const DIFF_OPTIONS_ID = DIFF_ARGS.filter((a) => a.startsWith('-') && a !== '-c' && a !== '--submodule=short')
  .map((a) => (a === '--ignore-submodules=none' ? '--ignore-submodules' : a))
  .join(' ');

/**
 * Decodes a C-style quoted path as git prints it (`"a/t\303\251st\tx"`): backslash escapes
 * `\a \b \t \n \v \f \r \" \\` and three-digit octal bytes.
 * @param s the text starting at the opening quote.
 * @returns the decoded bytes and the index just past the closing quote.
 */
export function unquoteC(s: Buffer, start: number): { bytes: Buffer; end: number } {
  const out: number[] = [];
  let i = start + 1;
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  while (i < s.length && s[i] !== 0x22) {
    if (s[i] === 0x5c && i + 1 < s.length) {
      const c = String.fromCharCode(s[i + 1]);
      if (/[0-7]/.test(c) && i + 3 < s.length) {
        out.push(parseInt(s.toString('latin1', i + 1, i + 4), 8));
        i += 4;
        continue;
      }
      out.push(simple[c] ?? s[i + 1]);
      i += 2;
      continue;
    }
    out.push(s[i]);
    i++;
  }
  return { bytes: Buffer.from(out), end: i + 1 };
}

/** The path bytes named by a `diff --git a/P b/P` line (both sides equal: no renames). */
function pathOfHeader(line: Buffer): Buffer {
  const rest = line.subarray('diff --git '.length);
  if (rest[0] === 0x22) {
    const { bytes } = unquoteC(rest, 0);
    return bytes.subarray(2);
  }
  // `a/P b/P`: P occupies (len - 5) / 2 bytes.
  const n = (rest.length - 5) / 2;
  if (!Number.isInteger(n) || n <= 0) throw parseError(line);
  return rest.subarray(2, 2 + n);
}

function parseError(line: Buffer): KizuError {
  return new KizuError(`could not parse git diff output near: ${line.toString('utf8').slice(0, 200)}`, {
    hint: 'this is a bug in git-kizu; please report it with your git version (git --version)',
  });
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Parses the output of `git diff` run with {@link DIFF_ARGS}.
 * @param out the raw stdout bytes.
 * @returns one entry per file, in git's order. Files without hunks (mode-only changes, empty
 *   added/deleted files) have `hunks: []`.
 * @throws KizuError (exit 2) on output that does not follow the unified format.
 */
export function parseDiff(out: Buffer): FileDiff[] {
  // Scanned as latin1 text: one char per byte, so offsets are byte offsets, and the string
  // built-ins do the work (much cheaper than a Buffer call per line). Lines that are kept as
  // text are decoded as UTF-8; body lines stay bytes.
  const s = out.toString('latin1');
  const len = s.length;
  const text = (a: number, b: number): string => {
    const t = s.slice(a, b);
    return NON_ASCII.test(t) ? out.toString('utf8', a, b) : t;
  };
  const files: FileDiff[] = [];
  let cur: FileDiff | null = null;
  let hunk: ParsedHunk | null = null;
  // The hunk whose body is still being read, and where that body starts.
  let open: ParsedHunk | null = null;
  let bodyStart = 0;
  let oldLeft = 0;
  let newLeft = 0;
  let pos = 0;
  while (pos < len) {
    const nl = s.indexOf('\n', pos);
    const end = nl === -1 ? len : nl;
    // The first byte of the line; -1 for an empty line.
    const o = end > pos ? s.charCodeAt(pos) : -1;
    if (hunk && (oldLeft > 0 || newLeft > 0 || o === 0x5c)) {
      const kind = lineKind(o);
      if (kind === null) throw parseError(out.subarray(pos, end));
      if (kind !== '\\') {
        if (kind !== '+') oldLeft--;
        if (kind !== '-') newLeft--;
      }
      pos = end + 1;
      continue;
    }
    if (open) {
      open.body = out.subarray(bodyStart, pos);
      open = null;
    }
    const start = pos;
    pos = end + 1;
    if (o === 0x64 && s.startsWith('diff --git ', start)) {
      hunk = null;
      const name = pathOfHeader(out.subarray(start, end));
      cur = { path: name.toString('utf8'), status: 'modified', oldMode: '', newMode: '', oldOid: '', newOid: '', binary: false, binaryLine: '', hunks: [] };
      if (!isUtf8(name)) cur.badName = Buffer.from(name);
      files.push(cur);
      continue;
    }
    if (o === 0x2a && s.startsWith('* Unmerged path ', start)) continue; // the path's content diff follows separately
    if (!cur) {
      if (end === start) continue;
      throw parseError(out.subarray(start, end));
    }
    if (o === 0x40) {
      const t = text(start, end);
      const hh = parseHunkHeader(t);
      if (hh) {
        hunk = new ParsedHunk(t, hh.oldStart, hh.oldCount, hh.newStart, hh.newCount);
        oldLeft = hunk.oldCount;
        newLeft = hunk.newCount;
        open = hunk;
        bodyStart = pos;
        cur.hunks.push(hunk);
        continue;
      }
    }
    if (hunk) throw parseError(out.subarray(start, end));
    // `---`/`+++` lines: the path is taken from the diff --git line.
    if ((o === 0x2d && s.startsWith('--- ', start)) || (o === 0x2b && s.startsWith('+++ ', start))) continue;
    if (end === start) continue; // tolerated
    // Extended header lines, told apart by their first byte before any regex runs.
    const t = text(start, end);
    let mm: RegExpExecArray | null;
    if (o === 0x69 && (mm = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d+))?$/.exec(t))) {
      cur.oldOid = mm[1];
      cur.newOid = mm[2];
      if (mm[3]) {
        cur.oldMode ||= mm[3];
        cur.newMode ||= mm[3];
      }
    } else if (o === 0x6e && (mm = /^new file mode (\d+)$/.exec(t))) {
      cur.status = 'added';
      cur.newMode = mm[1];
    } else if (o === 0x64 && (mm = /^deleted file mode (\d+)$/.exec(t))) {
      cur.status = 'deleted';
      cur.oldMode = mm[1];
    } else if (o === 0x6f && (mm = /^old mode (\d+)$/.exec(t))) cur.oldMode = mm[1];
    else if (o === 0x6e && (mm = /^new mode (\d+)$/.exec(t))) cur.newMode = mm[1];
    else if (s.startsWith('Binary files ', start) || s.startsWith('GIT binary patch', start)) {
      cur.binary = true;
      cur.binaryLine = t;
    } else throw parseError(out.subarray(start, end)); // includes similarity/rename/copy lines, excluded by --no-renames
  }
  if (open) open.body = out.subarray(bodyStart, len);
  return files;
}
