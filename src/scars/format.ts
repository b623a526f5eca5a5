/**
 * The scar line format: `<open> @kizu[<kind>]: <body><close>` (close preceded by one space
 * when the syntax has one), e.g. `// @kizu[ask]: explain this change` or
 * `<!-- @kizu[reject]: revert this change -->`.
 */

/** Scar kinds a user can write. */
export const KINDS = ['ask', 'reject', 'free'] as const;
export type ScarKind = (typeof KINDS)[number];

export type { CommentSyntax } from '../syntax/languages.js';
import type { CommentSyntax } from '../syntax/languages.js';

/** A scar found on one line. `kind` may be any word (unknown kinds are treated like free). */
export interface ParsedScar {
  kind: string;
  body: string;
  /** The comment opener used (`//`, `#`, `<!--`, `{/*`, ...). */
  open: string;
}

/** The closer(s) that end a comment opened by each block opener (the first is written). */
const CLOSERS_FOR: Record<string, string[]> = { '{/*': ['*/}'], '<!--': ['-->', '--!>'], '/*': ['*/'], '(*': ['*)'] };

/**
 * Line terminators and control characters folded to a space: CRLF, CR, LF, VT, FF, NEL
 * (U+0085), LINE/PARAGRAPH SEPARATOR (U+2028/U+2029, which end a `//` comment in
 * JavaScript, ECMA-262 §12.3), the other C0 controls and DEL, and the bidirectional
 * embedding/override/isolate controls U+202A–U+202E and U+2066–U+2069 ("Trojan Source",
 * CVE-2021-42574; rustc rejects them in comments by default).
 */
const BREAKS = /\r\n|[\u0000-\u0008\u000a-\u001f\u007f\u0085\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes `body` safe for a one-line comment: line terminators and control characters (CR,
 * LF, VT, FF, NEL, U+2028, U+2029, other C0 controls, DEL, bidi controls) fold to single spaces, runs of
 * spaces/tabs collapse, and any sequence that would close a comment early is broken with a
 * space: `*\/` and `*\/}` (block and JSX comments) → `* /`, `-->` / `--!>` (HTML) →
 * `-- >`, `?>` (ends PHP mode even inside a `//` comment) → `? >`, `</script` / `</style`
 * (end an HTML element even inside a JS/CSS comment) → `< /script`. Trimmed. Rules that
 * depend on the comment syntax are applied by {@link formatScar}.
 */
export function neutraliseBody(body: string): string {
  let s = body.replace(BREAKS, ' ').replace(/[ \t]+/g, ' ').trim();
  for (;;) {
    const next = s
      .replace(/\*\//g, '* /')
      .replace(/--(!?)>/g, '--$1 >')
      .replace(/\?>/g, '? >')
      .replace(/<\/(script|style)/gi, '< /$1');
    if (next === s) return s;
    s = next;
  }
}

/**
 * Renders the scar text (without indent or line ending): `<open> @kizu[<kind>]: <body>`,
 * followed by ` <close>` when the syntax has a closer. `body` is neutralised first
 * ({@link neutraliseBody}), then per syntax:
 * - `<!-- -->`: every `--` becomes `- -` (XML 1.0 §2.5 forbids `--` inside a comment, so
 *   an XML/SVG file would stop parsing; HTML also closes on `--!>`);
 * - `(* *)` (OCaml): `*)` and `(*` (comments nest) are broken with a space;
 * - line comments (no closer): a trailing backslash is followed by `.`, because C/C++
 *   (translation phase 2) and make splice the next line into a comment ending in `\`.
 */
export function formatScar(kind: string, body: string, syntax: CommentSyntax): string {
  let b = neutraliseBody(body);
  if (syntax.close === '-->') while (b.includes('--')) b = b.replace(/--/g, '- -');
  if (syntax.close === '*)') b = b.replace(/\*\)/g, '* )').replace(/\(\*/g, '( *');
  if (!syntax.close && b.endsWith('\\')) b += '.';
  return `${syntax.open} @kizu[${kind}]: ${b}${syntax.close ? ' ' + syntax.close : ''}`;
}

/**
 * True if a scar written with `syntax` is recognised by {@link parseScarLine} (so the scan
 * finds it and re-running the command is a no-op): a line opener `//`, `#`, `--`, `%` or
 * `;` (each possibly repeated, e.g. `///`, `;;`) or `REM` (batch files) without a closer,
 * or exactly the pairs `/* *\/`, `<!-- -->`, `{/* *\/}`, `(* *)`.
 */
export function isRecognisedSyntax(syntax: CommentSyntax): boolean {
  if (!syntax.close) return /^(\/\/+|#+|--+|%+|;+|REM|rem)$/.test(syntax.open);
  return Object.hasOwn(CLOSERS_FOR, syntax.open) && CLOSERS_FOR[syntax.open][0] === syntax.close;
}

const SCAR_RE = /^[ \t]*(\{\/\*|<!--|\/\/+|\/\*+|\(\*|#+|--+|%+|;+|REM(?=[ \t])|rem(?=[ \t]))[ \t]*@kizu\[([A-Za-z0-9_-]+)\]:[ \t]?(.*)$/;

/**
 * Parses one line (without its line ending; a trailing CR is tolerated). A scar is a line
 * whose first non-blank text is a comment opener (`//`, `#`, `--`, `%`, `;`, each possibly
 * repeated; `/*`; `<!--`; `{/*`; `(*`; `REM` or `rem` and a blank) followed by
 * `@kizu[<kind>]:`. The closer matching the opener (`*\/` for `/*`, `-->` or `--!>` for
 * `<!--`, `*\/}` for `{/*`, `*)` for `(*`) is stripped from the
 * end of the body; line-comment bodies are kept whole.
 * @returns the scar, or null if the line is not one.
 */
export function parseScarLine(line: string): ParsedScar | null {
  if (!line.includes('@kizu[')) return null;
  const m = SCAR_RE.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (!m) return null;
  let body = m[3].trimEnd();
  for (const c of CLOSERS_FOR[m[1].startsWith('/*') ? '/*' : m[1]] ?? []) {
    if (body.endsWith(c)) {
      body = body.slice(0, -c.length).trimEnd();
      break;
    }
  }
  return { kind: m[2], body, open: m[1] };
}

/** What the agent must do for a scar of `kind` with `body` (the protocol shared by hooks and /kizu). */
export function protocolFor(kind: string, body = ''): string {
  // `git kizu revert -m` already undid the change and left its reason: the agent must not
  // be told to undo it again.
  if (/^reverted:/.test(body)) return 'the reviewer already reverted this change: do not redo it; take the reason into account, then delete the scar line';
  switch (kind) {
    case 'ask':
      return 'answer the question in your reply, then delete the scar line';
    case 'reject':
      return 'undo that change, then delete the scar line';
    default:
      return 'do what it says, then delete the scar line';
  }
}
