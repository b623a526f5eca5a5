/**
 * A byte-exact line model of a file. Scars are inserted and removed by splicing bytes, so
 * every byte outside the touched line (encoding, BOM, CRLF/LF/CR mix, final newline) is kept.
 */

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface LineFile {
  /** The file's bytes. */
  buf: Buffer;
  /** 3 if the file starts with a UTF-8 BOM, else 0. */
  bomLen: number;
  /** Byte offset where each line starts (line i+1 starts at starts[i]). */
  starts: number[];
  /** Byte offset where each line's content ends (before its `\r\n`, `\n` or `\r`). */
  ends: number[];
  /** Whether the last line ends with a line ending (`\n` or `\r`). */
  finalNewline: boolean;
}

/**
 * Splits `buf` into lines. A line ends at `\r\n`, `\n` or a lone `\r` (old Mac files), as
 * editors show them; git itself ends lines only at `\n`, so in a file with lone `\r` line
 * `n` here is not line `n` of `git diff` (see {@link lineOfGitLine}). An empty file has zero
 * lines; a UTF-8 BOM is not part of line 1.
 */
export function toLines(buf: Buffer): LineFile {
  const bomLen = buf.subarray(0, 3).equals(BOM) ? 3 : 0;
  const starts: number[] = [];
  const ends: number[] = [];
  // The next LF and CR at or after i (-1: none left), each searched again only once passed.
  let lf = buf.indexOf(0x0a, bomLen);
  let cr = buf.indexOf(0x0d, bomLen);
  let i = bomLen;
  while (i < buf.length) {
    starts.push(i);
    if (lf !== -1 && lf < i) lf = buf.indexOf(0x0a, i);
    if (cr !== -1 && cr < i) cr = buf.indexOf(0x0d, i);
    const br = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if (br === -1) {
      ends.push(buf.length);
      i = buf.length;
      break;
    }
    ends.push(br);
    i = br === cr && lf === br + 1 ? br + 2 : br + 1;
  }
  const last = buf[buf.length - 1];
  const finalNewline = buf.length > bomLen && (last === 0x0a || last === 0x0d);
  return { buf, bomLen, starts, ends, finalNewline };
}

/**
 * The line (as {@link toLines} counts, 1-based) where line `gitLine` of `buf` as git counts
 * lines (split at `\n` only, as in `git diff` hunk headers) starts; `gitLine` past the last
 * line maps past the last line too. Equal to `gitLine` in files without a lone `\r`.
 */
export function lineOfGitLine(f: LineFile, gitLine: number): number {
  const count = lineCount(f);
  let g = 1;
  for (let n = 1; n <= count; n++) {
    if (g === gitLine) return n;
    const next = n < count ? f.starts[n] : f.buf.length;
    if (next > f.ends[n - 1] && f.buf[next - 1] === 0x0a) g++;
  }
  // Past the end: git's position after the last line is g when the file is empty or ends with LF, else g + 1.
  const end = count === 0 || f.buf[f.buf.length - 1] === 0x0a ? g : g + 1;
  return count + 1 + Math.max(0, gitLine - end);
}

/** Line `n`'s line ending (`\r\n`, `\n`, `\r`), or '' for a last line without one. */
function eolOf(f: LineFile, n: number): string {
  const next = n < f.starts.length ? f.starts[n] : f.buf.length;
  return f.buf.toString('latin1', f.ends[n - 1], next);
}

/** Number of lines. */
export function lineCount(f: LineFile): number {
  return f.starts.length;
}

/** Line `n` (1-based) as text, without its line ending. */
export function lineText(f: LineFile, n: number): string {
  return f.buf.toString('utf8', f.starts[n - 1], f.ends[n - 1]);
}

/**
 * The line ending for a new line inserted before line `n` (1-based; lineCount+1 appends):
 * line `n`'s own (`\r\n`, `\n` or `\r`) if it has one, else the file's first one, else `\n`.
 */
export function eolFor(f: LineFile, n: number): string {
  if (n >= 1 && n <= f.starts.length) {
    const e = eolOf(f, n);
    if (e) return e;
  }
  return (f.starts.length && eolOf(f, 1)) || '\n';
}

/** True if `buf` looks binary: a NUL byte within its first 8 KiB (git's heuristic). */
export function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/**
 * Returns a copy of `f.buf` with `text` (no line ending) inserted as a new line before
 * line `n` (1-based; n = lineCount+1 appends). The new line takes `eol`; when appending to
 * a file without a final newline, the file still ends without one.
 */
export function insertLine(f: LineFile, n: number, text: string, eol: string): Buffer {
  const count = lineCount(f);
  const t = Buffer.from(text, 'utf8');
  const e = Buffer.from(eol, 'utf8');
  if (n <= count) {
    const at = f.starts[n - 1];
    return Buffer.concat([f.buf.subarray(0, at), t, e, f.buf.subarray(at)]);
  }
  if (count === 0) return Buffer.concat([f.buf, t, e]);
  if (f.finalNewline) return Buffer.concat([f.buf, t, e]);
  return Buffer.concat([f.buf, e, t]);
}

/**
 * Returns a copy of `f.buf` without line `n` (1-based) and its line ending. Removing the
 * last line of a file without a final newline also removes the preceding line ending, so
 * the file still ends without one.
 */
export function removeLine(f: LineFile, n: number): Buffer {
  const count = lineCount(f);
  const start = f.starts[n - 1];
  if (n < count || f.finalNewline) {
    const next = n < count ? f.starts[n] : f.buf.length;
    return Buffer.concat([f.buf.subarray(0, start), f.buf.subarray(next)]);
  }
  if (n === 1) return f.buf.subarray(0, start);
  const prevEnd = f.ends[n - 2];
  return f.buf.subarray(0, prevEnd);
}

/** Leading spaces/tabs of line `n`. */
export function indentOf(f: LineFile, n: number): string {
  return /^[ \t]*/.exec(lineText(f, n))![0];
}

/** True if line `n` holds only whitespace. */
export function isBlank(f: LineFile, n: number): boolean {
  return lineText(f, n).trim() === '';
}
