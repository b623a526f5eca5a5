/**
 * The scar line format: `<open> @kizu[<kind>]: <body><close>` (close preceded by one space
 * when the syntax has one), e.g. `// @kizu[ask]: explain this change` or
 * `<!-- @kizu[reject]: revert this change -->`.
 */

/** Scar kinds a user can write. */
export const KINDS = ['ask', 'reject', 'free'] as const;
export type ScarKind = (typeof KINDS)[number];

/** A comment syntax: `open` starts it, `close` ('' for line comments) ends it. */
export interface CommentSyntax {
  open: string;
  close: string;
}

/** A scar found on one line. `kind` may be any word (unknown kinds are treated like free). */
export interface ParsedScar {
  kind: string;
  body: string;
  /** The comment opener used (`//`, `#`, `<!--`, `{/*`, ...). */
  open: string;
}

const CLOSERS = ['*/}', '*/', '-->', '--!>'];

/**
 * Makes `body` safe for a one-line comment: CR/LF sequences fold to single spaces, runs of
 * whitespace collapse, and any sequence that would close a comment early (`*\/`, `*\/}`,
 * `-->`, `--!>`) is broken with a space (`* /`, `-- >`). Trimmed.
 */
export function neutraliseBody(body: string): string {
  let s = body.replace(/\r\n|\r|\n/g, ' ').replace(/[ \t]+/g, ' ').trim();
  for (;;) {
    const next = s.replace(/\*\//g, '* /').replace(/--(!?)>/g, '--$1 >');
    if (next === s) return s;
    s = next;
  }
}

/** Renders the scar text (without indent or line ending). `body` is neutralised first. */
export function formatScar(kind: string, body: string, syntax: CommentSyntax): string {
  const b = neutraliseBody(body);
  return `${syntax.open} @kizu[${kind}]: ${b}${syntax.close ? ' ' + syntax.close : ''}`;
}

const SCAR_RE = /^[ \t]*(\{\/\*|<!--|\/\/+|\/\*+|#+|--+|%+|;+)[ \t]*@kizu\[([A-Za-z0-9_-]+)\]:[ \t]?(.*)$/;

/**
 * Parses one line (without its line ending; a trailing CR is tolerated). A scar is a line
 * whose first non-blank text is a comment opener followed by `@kizu[<kind>]:`.
 * @returns the scar, or null if the line is not one.
 */
export function parseScarLine(line: string): ParsedScar | null {
  if (!line.includes('@kizu[')) return null;
  const m = SCAR_RE.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (!m) return null;
  let body = m[3].trimEnd();
  for (const c of CLOSERS) {
    if (body.endsWith(c)) {
      body = body.slice(0, -c.length).trimEnd();
      break;
    }
  }
  return { kind: m[2], body, open: m[1] };
}

/** What the agent must do for a scar of `kind` (the protocol shared by hooks and /kizu). */
export function protocolFor(kind: string): string {
  switch (kind) {
    case 'ask':
      return 'answer the question in your reply, then delete the scar line';
    case 'reject':
      return 'undo that change, then delete the scar line';
    default:
      return 'do what it says, then delete the scar line';
  }
}
