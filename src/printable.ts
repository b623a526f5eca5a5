/**
 * The one escape for text that reaches a terminal (every command's output through the
 * Reporter, error messages, the hooks' lines for the user) or an agent as data. Text from
 * the repository (file names, scar bodies, queue items, config values, ref names, snapshot
 * and task messages) may hold terminal escape sequences (ESC/CSI/OSC: retitle, clear, OSC 8
 * links, OSC 52 clipboard writes), other controls, or bidirectional overrides and isolates
 * ("Trojan Source", CVE-2021-42574) that reorder what the reader sees. Shown raw, they act
 * on the terminal; escaped, they are visible and inert.
 *
 * The escapes: C0 controls (U+0000–U+001F) as `\xNN` (tab kept; line feeds kept only where
 * the text is several lines); DEL, C1 controls (U+007F–U+009F), the bidi controls U+061C,
 * U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 and the line/paragraph separators
 * U+2028/U+2029 as `\uXXXX`. The `\uXXXX` form is JSON's own escape, so a JSON line passed
 * through it is still valid JSON with the same value (JSON.stringify already escapes C0
 * but not these). A backslash is not escaped: the result is already printable, and
 * escaping it again changes nothing (idempotent).
 */

/** Every character {@link printable} escapes, line feed and tab excepted. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same with the line feed. */
const UNSAFE_LF = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(c: string): string {
  const n = c.charCodeAt(0);
  return n < 0x20 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/**
 * `s` safe to print on one line of a terminal: every control character but tab (line feed
 * included), DEL, C1 and the bidi controls escaped as the module comment says.
 * `printable('a\x1b[2Jb\u202e')` → `'a\\x1b[2Jb\\u202e'`.
 */
export function printable(s: string): string {
  return s.replace(UNSAFE_LF, escapeChar);
}

/** {@link printable} for text of several lines: line feeds (and tabs) kept. */
export function printableLines(s: string): string {
  return s.replace(UNSAFE, escapeChar);
}

/**
 * A line for the terminal whose colours, if any, are ours: {@link printableLines}, except
 * that SGR sequences (`ESC [ <digits;> m`, colour and style only: they cannot move the cursor,
 * set a title, write the clipboard or open a link) are kept when `colors` is true. Data
 * interpolated into a line is escaped with {@link printable} where it is put in; this is
 * the net under every line the Reporter prints, so a command that forgets cannot send a
 * sequence other than a colour.
 */
export function terminalLine(line: string, colors: boolean): string {
  if (!colors || !line.includes('\x1b')) return printableLines(line);
  return line
    .split(/(\x1b\[[0-9;]*m)/)
    .map((part, k) => (k % 2 ? part : printableLines(part)))
    .join('');
}
