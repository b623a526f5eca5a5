/**
 * Finding scars in one file's bytes. Kept free of git and child_process imports: the
 * PostToolUse hook loads only this (and, for a file that needs parsing, syntax/tree.ts).
 */
import { parseScarLine, type ParsedScar } from './format.js';
import { languageOf } from '../syntax/languages.js';
import { isBinary } from './lines.js';

/** One scar: `path` is relative to the repo root with `/` separators; `line` is 1-based. */
export interface Scar {
  path: string;
  line: number;
  kind: string;
  body: string;
}

const MARKER = Buffer.from('@kizu[');
/** The marker in UTF-16, little- and big-endian. */
const MARKER_LE = Buffer.from('@kizu[', 'utf16le');
const MARKER_BE = Buffer.from(MARKER_LE).swap16();
const MD_EXT = /\.(md|markdown|mdx|mdown|mkd)$/i;

/** True if `relPath` is a Markdown file by extension (md, markdown, mdx, mdown, mkd). */
export function isMarkdownPath(relPath: string): boolean {
  return MD_EXT.test(relPath);
}

/**
 * `text` split into lines at `\r\n`, `\n` or a lone `\r` (line endings removed), the way
 * editors and lines.ts toLines count lines; a final line ending gives a last empty string.
 */
export function splitLines(text: string): string[] {
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}

/** An open fenced code block: its character, length and 1-based opening line. */
interface Fence {
  ch: string;
  len: number;
  line: number;
}

/**
 * Advances the fenced-code-block state over one Markdown line (CommonMark 0.31 §4.5:
 * ``` or ~~~ fences of 3+ characters indented at most 3 spaces; a backtick fence's info
 * string has no backtick; closed by a fence of the same character at least as long with
 * only spaces/tabs after it).
 * @param line the line text (a trailing CR is ignored); `n` its 1-based number.
 * @returns the state after the line, and whether the line is a fence line or inside a block.
 */
function fenceStep(fence: Fence | null, line: string, n: number): { fence: Fence | null; code: boolean } {
  const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (fence) {
    if (m && m[1][0] === fence.ch && m[1].length >= fence.len && m[2].trim() === '') return { fence: null, code: true };
    return { fence, code: true };
  }
  if (m && !(m[1][0] === '`' && m[2].includes('`'))) return { fence: { ch: m[1][0], len: m[1].length, line: n }, code: true };
  return { fence: null, code: false };
}

/**
 * For a Markdown text split into lines (`\n`, BOM removed): the 1-based line of the fence
 * that is still open after the first `count` lines, i.e. the fence a line inserted before
 * line `count + 1` would be inside of; null when that point is outside any fenced block.
 */
export function openFenceAfter(lines: string[], count: number): number | null {
  let fence: Fence | null = null;
  for (let i = 0; i < count && i < lines.length; i++) fence = fenceStep(fence, lines[i], i + 1).fence;
  return fence ? fence.line : null;
}

/**
 * For Markdown lines (`\n`-split, BOM removed): per line, true if it is a fence line or
 * inside a fenced code block (same rules as {@link openFenceAfter}).
 */
export function fencedLines(lines: string[]): boolean[] {
  const out: boolean[] = new Array(lines.length);
  let fence: Fence | null = null;
  for (let i = 0; i < lines.length; i++) {
    const step = fenceStep(fence, lines[i], i + 1);
    fence = step.fence;
    out[i] = step.code;
  }
  return out;
}

/** A line that may be a scar: its 0-based index, the offset of its comment opener in the text, and the scar. */
interface Candidate {
  index: number;
  open: number;
  scar: ParsedScar;
}

/**
 * Scars in one file's bytes, decoded as UTF-8 with a leading BOM ignored; lines split at
 * `\r\n`, `\n` or a lone `\r` ({@link splitLines}, as lines.ts toLines counts them), numbered
 * from 1. A scar is a line whose first non-blank text is a comment opener followed by the
 * marker (format.ts parseScarLine), and:
 * - in a language with a grammar (syntax/languages.ts), that opener starts a comment node of
 *   the parsed file (a marker line inside a string, template, here-document or block
 *   comment is not a scar). The file is parsed only when one of the language's `hazards`
 *   stands above its last marker line, outside its scar lines (a token holding a line
 *   starts above it); without them every scar line whose opener is one of the language's
 *   comment openers is a comment, and one with another opener is not;
 * - in a language with a lexical rule (syntax/lexer.ts, with or without a grammar), a line
 *   that does not start inside a multi-line token of that rule (a string, here-document or
 *   block comment still open at the end of the line above, or a line the line above
 *   continues);
 * - in Markdown, outside fenced code blocks (see {@link openFenceAfter});
 * - elsewhere, any such line (the line rule).
 * When a grammar cannot be loaded (a broken install), and for content git calls binary (a
 * NUL in the first 8 KiB, which would otherwise hide a scar from every check), the line rule
 * is used. Content in UTF-16 (little- or big-endian, with or without a byte order mark, as
 * `working-tree-encoding` makes git write it) is decoded first.
 * @returns scars in line order.
 */
export async function scanBuffer(relPath: string, buf: Buffer): Promise<Scar[]> {
  if (!buf.includes(MARKER)) {
    // A UTF-16 file (`working-tree-encoding=UTF-16` in .gitattributes: git diff shows it as
    // UTF-8 text, its bytes hold the marker with a NUL after or before each character).
    // Each marker also matches the other byte order one byte off: the byte order mark, else
    // the marker at an even offset, tells which it is.
    const at = (m: Buffer) => {
      for (let i = buf.indexOf(m); i !== -1; i = buf.indexOf(m, i + 1)) if (i % 2 === 0) return true;
      return false;
    };
    const le = buf[0] === 0xff && buf[1] === 0xfe ? true : buf[0] === 0xfe && buf[1] === 0xff ? false : at(MARKER_LE) ? true : at(MARKER_BE) ? false : null;
    if (le === null || !at(le ? MARKER_LE : MARKER_BE)) return [];
    const b = le ? buf : Buffer.from(buf.subarray(0, buf.length & ~1)).swap16();
    return scanBuffer(relPath, Buffer.from(b.toString('utf16le', b[0] === 0xff && b[1] === 0xfe ? 2 : 0, b.length & ~1), 'utf8'));
  }
  // A file git calls binary (a NUL byte) has no language to parse: the line rule finds its scars.
  const binary = isBinary(buf);
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = splitLines(text);
  const md = isMarkdownPath(relPath);
  const found: Candidate[] = [];
  let fence: Fence | null = null;
  let off = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const start = off;
    off += line.length + (text[off + line.length] === '\r' && text[off + line.length + 1] === '\n' ? 2 : 1);
    if (md) {
      const step = fenceStep(fence, line, i + 1);
      fence = step.fence;
      if (step.code) continue;
    }
    const s = parseScarLine(line);
    if (s) found.push({ index: i, open: start + line.length - line.trimStart().length, scar: s });
  }
  const kept = found.length && !binary ? await commentsOnly(relPath, text, lines, found) : found;
  return kept.map((c) => ({ path: relPath, line: c.index + 1, kind: c.scar.kind, body: c.scar.body }));
}

/**
 * The scars of a file too large to parse (over `scan.maxFileBytes`), by the line rule alone
 * (every marker-shaped line counts, whatever the language would make of it: a padded file
 * cannot hide a scar, and a false one only holds the stop), read in 1 MiB pieces so that no
 * size is too large to search. Lines are counted as {@link splitLines} counts them.
 * @param read fills the buffer from the current position and returns the bytes read (0 at
 *   the end), as fs.readSync does.
 * @returns scars in line order.
 * @throws what `read` throws.
 */
export function scanLineRule(relPath: string, read: (into: Buffer) => number): Scar[] {
  const piece = Buffer.allocUnsafe(1 << 20);
  const out: Scar[] = [];
  let carry: Buffer = Buffer.alloc(0);
  let line = 1;
  for (;;) {
    const n = read(piece);
    const data = carry.length ? Buffer.concat([carry, piece.subarray(0, n)]) : piece.subarray(0, n);
    // Whole lines only (a \r\n is never cut); at the end, the rest.
    const end = n === 0 ? data.length : data.lastIndexOf(0x0a) + 1;
    const block = data.subarray(0, end);
    if (block.includes(MARKER) || block.includes(0x0d)) {
      const lines = splitLines(block.toString('utf8'));
      if (end && block[end - 1] === 0x0a) lines.pop(); // the empty string after the last line ending
      for (let i = 0; i < lines.length; i++) {
        const s = parseScarLine(lines[i]);
        if (s) out.push({ path: relPath, line: line + i, kind: s.kind, body: s.body });
      }
      line += lines.length;
    } else {
      for (let i = block.indexOf(0x0a); i !== -1; i = block.indexOf(0x0a, i + 1)) line++;
    }
    if (n === 0) return out;
    carry = Buffer.from(data.subarray(end));
  }
}

/** The candidates that are comments in the file's language (see {@link scanBuffer}). */
async function commentsOnly(relPath: string, text: string, lines: string[], found: Candidate[]): Promise<Candidate[]> {
  const lang = languageOf(relPath, lines[0] ?? '');
  if (lang?.lex) {
    // The lexical rule: a marker line that starts inside a multi-line token (a string, a
    // here-document, a block comment, a continued line) is text of that token. Beside a
    // grammar it covers what the grammar misses (Perl here-documents).
    const { tokensAround } = await import('../syntax/lexer.js');
    const tokens = tokensAround(lang.lex, lines);
    found = found.filter((c) => !tokens[c.index]);
    if (!found.length) return found;
  }
  if (!lang?.grammar) return found;
  // `{/*` is a comment in a block (JavaScript's `{ }`) as well as among JSX children.
  const openers = [lang.line, lang.block?.[0], lang.jsx || lang.block?.[0] === '/*' ? '{/*' : null].filter((o): o is string => !!o);
  if (lang.hazards && !lang.sections) {
    // A token holding a marker line starts above it, so only the lines above the last one
    // count; scar lines closed on their own line are no hazard.
    const scarLines = new Set(found.filter((c) => !blockLeftOpen(c.scar, lines[c.index])).map((c) => c.index));
    const last = found[found.length - 1].index;
    const rest = lines.slice(0, last).filter((_, i) => !scarLines.has(i)).join('\n') + '\n';
    if (!lang.hazards.some((h) => rest.includes(h))) return found.filter((c) => openers.some((o) => c.scar.open.startsWith(o)));
  }
  let tree: typeof import('../syntax/tree.js');
  let doc;
  try {
    tree = await import('../syntax/tree.js');
    doc = await tree.parseDocument(lang, text.replace(/\r(?!\n)/g, '\n'));
  } catch {
    return found; // a grammar that cannot be loaded: the line rule
  }
  try {
    return found.filter((c) => tree.commentAt(doc, c.scar.open === '{/*' ? c.open + 1 : c.open) !== null);
  } finally {
    tree.disposeDocument(doc);
  }
}

/** True when a scar line opens a block comment it does not close on the same line. */
function blockLeftOpen(s: ParsedScar, line: string): boolean {
  const closer = s.open.startsWith('/*') || s.open === '{/*' ? '*/' : s.open === '<!--' ? '-->' : null;
  return closer !== null && !line.trimEnd().endsWith(closer) && !line.trimEnd().endsWith(closer + '}');
}
