/**
 * Finding scars in one file's bytes. Kept free of git and child_process imports: the
 * PostToolUse hook loads only this.
 */
import { parseScarLine } from './format.js';
import { isBinary } from './lines.js';

/** One scar: `path` is relative to the repo root with `/` separators; `line` is 1-based. */
export interface Scar {
  path: string;
  line: number;
  kind: string;
  body: string;
}

const MARKER = Buffer.from('@kizu[');
const MD_EXT = /\.(md|markdown|mdx|mdown|mkd)$/i;

/**
 * Scars in one file's bytes. Markdown files (by extension) ignore markers inside fenced
 * code blocks (CommonMark 0.31 §4.5: ``` or ~~~ fences of 3+ characters, indented at most 3
 * spaces, closed by a fence of the same character at least as long).
 * @returns scars in line order (empty for binary content).
 */
export function scanBuffer(relPath: string, buf: Buffer): Scar[] {
  if (!buf.includes(MARKER) || isBinary(buf)) return [];
  const text = buf.toString('utf8');
  const lines = text.split('\n');
  const md = MD_EXT.test(relPath);
  const out: Scar[] = [];
  let fence: { ch: string; len: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (md) {
      const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line.replace(/\r$/, ''));
      if (fence) {
        if (m && m[1][0] === fence.ch && m[1].length >= fence.len && m[2].trim() === '') fence = null;
        continue;
      }
      if (m && !(m[1][0] === '`' && m[2].includes('`'))) {
        fence = { ch: m[1][0], len: m[1].length };
        continue;
      }
    }
    const s = parseScarLine(line);
    if (s) out.push({ path: relPath, line: i + 1, kind: s.kind, body: s.body });
  }
  return out;
}

