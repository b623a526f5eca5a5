/**
 * A byte-exact parser of git's unified diff output (git-diff(1) "GENERATING PATCH TEXT
 * WITH -P"; gitdiffcore / diff-generate-patch): `diff --git` file headers, extended header
 * lines (`new file mode`, `deleted file mode`, `old mode`/`new mode`, `index`), `---`/`+++`,
 * `@@ -a,b +c,d @@` hunks, `Binary files ... differ`, and `\ No newline at end of file`.
 *
 * Works on bytes, not decoded text, so file contents that are not valid UTF-8 survive a
 * revert unchanged. Assumes the output of {@link DIFF_ARGS} (no renames or copies: both
 * sides of a file header name the same path).
 */
import { KizuError } from '../errors.js';

/** One `@@` hunk as git printed it. */
export interface RawHunk {
  /** The `@@ -a,b +c,d @@ ...` line (decoded UTF-8). */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** Body lines, each starting with its origin byte (' ', '+', '-', '\'), without the '\n'. */
  raw: Buffer[];
}

/** One file of a diff. */
export interface FileDiff {
  /** Repo-root-relative path, '/'-separated. */
  path: string;
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
 * colour, submodules, blank-line suppression, path quoting.
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
  '--ignore-submodules',
  '--full-index',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--inter-hunk-context=0',
  '-U3',
];

/** The option part of {@link DIFF_ARGS} as one string, hashed into hunk ids. */
export const DIFF_OPTIONS_ID = DIFF_ARGS.filter((a) => a.startsWith('-') && a !== '-c').join(' ');

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

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

/** The path named by a `diff --git a/P b/P` line (both sides equal: no renames). */
function pathOfHeader(line: Buffer): string {
  const rest = line.subarray('diff --git '.length);
  if (rest[0] === 0x22) {
    const { bytes } = unquoteC(rest, 0);
    return bytes.subarray(2).toString('utf8');
  }
  // `a/P b/P`: P occupies (len - 5) / 2 bytes.
  const n = (rest.length - 5) / 2;
  if (!Number.isInteger(n) || n <= 0) throw parseError(line);
  return rest.subarray(2, 2 + n).toString('utf8');
}

function parseError(line: Buffer): KizuError {
  return new KizuError(`could not parse git diff output near: ${line.toString('utf8').slice(0, 200)}`, {
    hint: 'this is a bug in git-kizu; please report it with your git version (git --version)',
  });
}

function startsWith(b: Buffer, s: string): boolean {
  return b.length >= s.length && b.toString('latin1', 0, s.length) === s;
}

/**
 * Parses the output of `git diff` run with {@link DIFF_ARGS}.
 * @param out the raw stdout bytes.
 * @returns one entry per file, in git's order. Files without hunks (mode-only changes, empty
 *   added/deleted files) have `hunks: []`.
 * @throws KizuError (exit 2) on output that does not follow the unified format.
 */
export function parseDiff(out: Buffer): FileDiff[] {
  const lines: Buffer[] = [];
  let pos = 0;
  while (pos < out.length) {
    const nl = out.indexOf(0x0a, pos);
    const end = nl === -1 ? out.length : nl;
    lines.push(out.subarray(pos, end));
    pos = end + 1;
  }
  const files: FileDiff[] = [];
  let cur: FileDiff | null = null;
  let hunk: RawHunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of lines) {
    if (hunk && (oldLeft > 0 || newLeft > 0 || line[0] === 0x5c)) {
      const o = line[0];
      if (o === 0x5c) {
        hunk.raw.push(line);
        continue;
      }
      if (o === 0x20 || o === 0x2b || o === 0x2d) {
        hunk.raw.push(line);
        if (o !== 0x2b) oldLeft--;
        if (o !== 0x2d) newLeft--;
        continue;
      }
      throw parseError(line);
    }
    if (startsWith(line, 'diff --git ')) {
      hunk = null;
      cur = { path: pathOfHeader(line), status: 'modified', oldMode: '', newMode: '', oldOid: '', newOid: '', binary: false, binaryLine: '', hunks: [] };
      files.push(cur);
      continue;
    }
    if (startsWith(line, '* Unmerged path ')) continue; // the path's content diff follows separately
    if (!cur) {
      if (line.length === 0) continue;
      throw parseError(line);
    }
    const text = line.toString('utf8');
    const m = HUNK_RE.exec(text);
    if (m) {
      hunk = {
        header: text,
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        raw: [],
      };
      oldLeft = hunk.oldCount;
      newLeft = hunk.newCount;
      cur.hunks.push(hunk);
      continue;
    }
    if (hunk) throw parseError(line);
    let mm: RegExpExecArray | null;
    if ((mm = /^new file mode (\d+)$/.exec(text))) {
      cur.status = 'added';
      cur.newMode = mm[1];
    } else if ((mm = /^deleted file mode (\d+)$/.exec(text))) {
      cur.status = 'deleted';
      cur.oldMode = mm[1];
    } else if ((mm = /^old mode (\d+)$/.exec(text))) cur.oldMode = mm[1];
    else if ((mm = /^new mode (\d+)$/.exec(text))) cur.newMode = mm[1];
    else if ((mm = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d+))?$/.exec(text))) {
      cur.oldOid = mm[1];
      cur.newOid = mm[2];
      if (mm[3]) {
        cur.oldMode ||= mm[3];
        cur.newMode ||= mm[3];
      }
    } else if (startsWith(line, 'Binary files ') || startsWith(line, 'GIT binary patch')) {
      cur.binary = true;
      cur.binaryLine = text;
    } else if (startsWith(line, '--- ') || startsWith(line, '+++ ')) {
      /* the path is taken from the diff --git line */
    } else if (/^(similarity|dissimilarity) index |^(rename|copy) (from|to) /.test(text)) {
      throw parseError(line); // excluded by --no-renames
    } else if (line.length === 0) {
      /* tolerated */
    } else throw parseError(line);
  }
  return files;
}
