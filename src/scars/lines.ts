/**
 * A byte-exact line model of a file. Scars are inserted and removed by splicing bytes, so
 * every byte outside the touched line (encoding, BOM, CRLF/LF mix, final newline) is kept.
 */

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface LineFile {
  /** The file's bytes. */
  buf: Buffer;
  /** 3 if the file starts with a UTF-8 BOM, else 0. */
  bomLen: number;
  /** Byte offset where each line starts (line i+1 starts at starts[i]). */
  starts: number[];
  /** Byte offset where each line's content ends (before its `\r\n` / `\n`). */
  ends: number[];
  /** Whether the last line ends with a newline. */
  finalNewline: boolean;
}

/** Splits `buf` into lines (LF or CRLF endings). An empty file has zero lines. */
export function toLines(buf: Buffer): LineFile {
  const bomLen = buf.subarray(0, 3).equals(BOM) ? 3 : 0;
  const starts: number[] = [];
  const ends: number[] = [];
  let i = bomLen;
  while (i < buf.length) {
    starts.push(i);
    const nl = buf.indexOf(0x0a, i);
    if (nl === -1) {
      ends.push(buf.length);
      i = buf.length;
      break;
    }
    ends.push(nl > i && buf[nl - 1] === 0x0d ? nl - 1 : nl);
    i = nl + 1;
  }
  const finalNewline = buf.length > bomLen && buf[buf.length - 1] === 0x0a;
  return { buf, bomLen, starts, ends, finalNewline };
}

/** Number of lines. */
export function lineCount(f: LineFile): number {
  return f.starts.length;
}

/** Line `n` (1-based) as text, without its line ending. */
export function lineText(f: LineFile, n: number): string {
  return f.buf.toString('utf8', f.starts[n - 1], f.ends[n - 1]);
}

/** The line ending used by line `n` if it has one, else the file's first one, else `\n`. */
export function eolFor(f: LineFile, n: number): string {
  const idx = n - 1;
  if (idx >= 0 && idx < f.starts.length && (idx < f.starts.length - 1 || f.finalNewline)) {
    return f.buf[f.ends[idx]] === 0x0d ? '\r\n' : '\n';
  }
  if (f.starts.length > 0 && (f.starts.length > 1 || f.finalNewline)) return f.buf[f.ends[0]] === 0x0d ? '\r\n' : '\n';
  return '\n';
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
