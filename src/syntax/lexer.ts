/**
 * The documented lexical rule for languages without a tree-sitter grammar: where a scar line
 * may go. For languages without a grammar, kizu refuses or moves a scar whose line starts
 * inside a multi-line token found by these rules (a string, raw string, here-document or
 * block comment that is still open at the end of the line above, or a line the line above
 * continues); all other lines are accepted.
 *
 * One generic scanner reads each rule's data (line comments, block comments, string forms,
 * raw / here-document forms, line continuation) from the top of the file down to the target
 * line; nothing is parsed beyond tokens. Rules (the spec followed is cited on each entry of
 * LEX_RULES):
 * - `toml`: `#` comments; `"…"`, `'…'` one-line; `"""…"""` (backslash escapes) and `'''…'''`
 *   multi-line strings, whose closer may take up to two more quotes.
 * - `sql`: `--` comments; `/* *\/` nesting (PostgreSQL); `'…'` with `''` doubling, `E'…'` with
 *   backslash escapes, `"…"` and `` `…` `` identifiers, all may span lines; `$$…$$`, `$tag$…$tag$`.
 * - `proto`: `//`, `/* *\/`; `"…"`, `'…'` one-line.
 * - `graphql`: `#` comments; `"…"` one-line; `"""…"""` block strings (`\"""` is content).
 * - `fsharp`: `//`; `(* *)` nesting, strings lexed inside (`(*)` is an operator); `"…"`,
 *   `$"…"`, verbatim `@"…"` (`""` doubling), `"""…"""`, `$"""…"""` may span lines; `'"'` chars.
 * - `batch`: `REM` and `::` comments; `"…"` one-line; a line ending in an unescaped `^` continues
 *   onto the next (comment lines too).
 * - `powershell`: `#`, `<# #>`; here-strings `@"`…`"@`, `@'`…`'@` (closer at column 0); `"…"`
 *   (backtick escapes, `""`) and `'…'` (`''`) may span lines; a line ending in a backtick continues.
 * - `groovy` (also Gradle): `//`, `/* *\/`; `'''…'''`, `"""…"""`, `$/…/$`; `'…'`, `"…"` one-line.
 * - `objc` (C rules): `//`, `/* *\/`; `"…"`, `'…'` one-line unless backslash-newline; C++11 raw
 *   strings `R"d(…)d"`; a line ending in a backslash continues (a `//` comment too).
 * - `less`: `//`, `/* *\/`; `"…"`, `'…'` one-line unless backslash-newline; `url(…)`.
 * - `cmake`: `#`; `#[[…]]`, `#[==[…]==]` bracket comments; `[[…]]`, `[=[…]=]` bracket
 *   arguments; `"…"` quoted arguments may span lines.
 * - `erlang`: `%` comments; `"…"`, `'…'` may span lines; `"""` triple-quoted strings (OTP 27);
 *   sigils `~s(…)` etc.; `$"` characters.
 * - `dockerfile`: `#` comments; here-documents `<<EOF`, `<<-EOF`, quoted words. A line continued
 *   by a backslash is NOT a hazard: Docker drops comment lines inside a continued instruction.
 * - `make`: `#` comments; `define … endef` (nesting) is verbatim text; a line ending in an odd
 *   number of backslashes continues onto the next (a comment line too).
 * - `ini`: `;`, `#` comment lines; no multi-line tokens.
 * - `properties`: `#`, `!` comment lines; a line ending in an odd number of backslashes
 *   continues (comment lines do not).
 * - `env` (dotenv): `#` comments; a value quoted with `"`, `'` or `` ` `` may span lines.
 * - `lisp` (Common Lisp, Scheme, Racket): `;`; `#| |#` nesting; `"…"` and `|…|` may span lines;
 *   `#\"` characters and `\"` single escapes; Racket here strings `#<<END`.
 * - `elisp`: `;`; `"…"` may span lines; `?"` characters, `\"` escapes in symbols.
 * - `clojure` (also EDN): `;`; `"…"` may span lines; `\"` characters.
 * - `ocaml`: `(* *)` nesting, strings lexed inside; `"…"` may span lines; `{id|…|id}`,
 *   `{%ext|…|}` quoted strings; `'"'` characters.
 * - `perl`, beside the Perl grammar (which reads `<<EOF` as a shift and knows no POD):
 *   here-documents `<<EOF`, `<<"EOF"`, `<<'EOF'`, `<<~EOF`; POD from a line `=word` to `=cut`;
 *   `#` comments; `"…"`, `'…'` may span lines.
 * - `csharp`, beside the C# grammar (which has no raw strings): `//`, `/* *\/`; raw strings
 *   of three or more quotes (also `$`-interpolated); verbatim `@"…"`; `"…"` one-line.
 * - `swift`, instead of the Swift grammar: `//`, `/* *\/` nesting; `"…"` one-line; `"""…"""`;
 *   raw `#"…"#` and `#"""…"""#`, closed by as many `#`.
 * Not recognised (a scar there is accepted): Groovy slashy strings `/…/` (telling them from
 * division needs a parser), MySQL's backslash escapes and `#` comments in SQL, quotes inside
 * interpolation holes (`$"{f "x"}"`, `"$(f "x")"`), C `#if 0` regions, a Dockerfile's
 * `# escape=` directive.
 */

/** Where the multi-line token holding a line starts. */
export interface TokenSpan {
  /** 1-based line the token starts on. */
  startLine: number;
  /** What it is, for messages (e.g. `a $$ string`, `a ''' string`, `a /* *\/ comment`, `a here-document`). */
  what: string;
}

/** A closer: literal text, or a regular expression tried at the scan position (`^` only matches at column 0). */
export type Closer = string | RegExp;

/**
 * One token form of a rule. `open` is literal text or a regular expression tried at the scan
 * position (`^` matches only at column 0, `$` only at the end of the line; look-behind sees the
 * whole line).
 */
export interface TokenForm {
  /**
   * - `line`: a comment to the end of the line;
   * - `atom`: a one-line token wholly matched by `open` (a character literal, an escape, an
   *   operator that looks like an opener), skipped so that its text opens nothing;
   * - `token`: a token from `open` to `close`;
   * - `heredoc`: a here-document: its body is the lines after the opener's line, up to the
   *   first line that `close` matches as a whole; the rest of the opener's line is code.
   */
  kind: 'line' | 'atom' | 'token' | 'heredoc';
  open: string | RegExp;
  /** For `token` and `heredoc`: the closer, or a function of the opener's match that gives it. */
  close?: Closer | ((open: RegExpExecArray) => Closer);
  /** For `token` and `heredoc`: what it is, for messages (a function of the opener's match if it varies). */
  what?: string | ((open: RegExpExecArray) => string);
  /** The token may contain line ends. Otherwise it ends at the end of its line (closed or not). */
  spans?: boolean;
  /** A character that makes the next one content (`\`, PowerShell's backtick). */
  escape?: string;
  /** With `escape`: an escape just before the line end continues a one-line token onto the next line. */
  splice?: boolean;
  /** The closer written twice is content (SQL `''`, F# verbatim `""`). */
  doubled?: boolean;
  /** Sequences that are content as a whole, tried before the closer (GraphQL `\"""`). */
  skips?: string[];
  /** The token nests: its opener inside it opens another level. */
  nests?: boolean;
  /** Forms recognised inside the token (strings inside OCaml comments). */
  inner?: TokenForm[];
  /** The closer may be followed by up to this many more of its last character, all part of it (TOML `""""`). */
  extraQuotes?: number;
}

/** A line continuation: a line ending with `char` continues onto the next line. */
export interface Continuation {
  char: string;
  /** For messages, e.g. `a line continued with ^`. */
  what: string;
  /** Only an odd run of `char` at the end continues (an even run is escaped `char`s). */
  odd: boolean;
  /** A line comment ending with `char` continues too (the next line is comment text). */
  inComments: boolean;
  /** Blanks may follow `char` (GCC accepts a backslash, spaces, then the line end). */
  trailingBlanks?: boolean;
}

/** One language family's lexical rule. */
export interface LexRule {
  /** The reference the rule follows. */
  spec: string;
  /** The token forms, tried in this order at each position outside a token. */
  tokens: TokenForm[];
  continuation?: Continuation;
}

/** Names of the lexical rules, one per grammarless language family. */
export type LexRuleName =
  | 'toml'
  | 'sql'
  | 'proto'
  | 'graphql'
  | 'fsharp'
  | 'batch'
  | 'powershell'
  | 'groovy'
  | 'objc'
  | 'less'
  | 'cmake'
  | 'erlang'
  | 'dockerfile'
  | 'make'
  | 'ini'
  | 'properties'
  | 'env'
  | 'lisp'
  | 'elisp'
  | 'clojure'
  | 'ocaml'
  | 'perl'
  | 'csharp'
  | 'swift';

const line = (open: string | RegExp): TokenForm => ({ kind: 'line', open });
const atom = (open: RegExp): TokenForm => ({ kind: 'atom', open });
const BLOCK_C: TokenForm = { kind: 'token', open: '/*', close: '*/', what: 'a /* */ comment', spans: true };
/** A backslash-escaped string that ends at the end of its line. */
const oneLine = (q: string, what: string, splice = false): TokenForm => ({ kind: 'token', open: q, close: q, what, escape: '\\', splice });
const DQ = 'a "…" string';
const SQ = "a '…' string";
/** A character literal in the ML family (`'"'`, `'\n'`, `'\u0041'`), not a type variable `'a` or a primed name `x'`. */
const ML_CHAR = atom(/(?<![\w'])'(?:\\(?:[\\"'ntbrafv0 ]|[0-9]{3}|x[0-9a-fA-F]{2}|o[0-3][0-7]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|u\{[0-9a-fA-F]+\})|[^\\'])'/);

/** The F# strings (also lexed inside `(* *)` comments). */
const FSHARP_STRINGS: TokenForm[] = [
  { kind: 'token', open: /\$+"""/, close: '"""', what: 'an interpolated """ string', spans: true },
  { kind: 'token', open: '"""', close: '"""', what: 'a """ string', spans: true },
  { kind: 'token', open: /(?:\$@|@\$|@)"/, close: '"', what: 'a verbatim @"…" string', spans: true, doubled: true },
  { kind: 'token', open: '$"', close: '"', what: 'an interpolated $"…" string', spans: true, escape: '\\' },
  { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' },
  ML_CHAR,
];

/** The OCaml strings and characters (also lexed inside comments). */
const OCAML_STRINGS: TokenForm[] = [
  { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' },
  { kind: 'token', open: /\{([a-z_]*)\|/, close: (m) => `|${m[1]}}`, what: (m) => `a ${m[0]} ${`|${m[1]}}`} quoted string`, spans: true },
  {
    kind: 'token',
    open: /\{%%?[A-Za-z_][\w'.]*(?:\s+([a-z_]*))?\|/,
    close: (m) => `|${m[1] ?? ''}}`,
    what: 'a {%…|…|} quoted extension',
    spans: true,
  },
  ML_CHAR,
];

/** Powershell's quote characters (the specification accepts the typographic ones too). */
const PS_DQ = '["\u201c\u201d\u201e]';
const PS_SQ = "['\u2018\u2019\u201a\u201b]";

/** A CMake bracket token for messages: `a #[==[ ]==] comment`, or `a #[=[ ]=] comment with 72 "=" signs` when the run is long. */
function bracket(hash: string, eq: string, kind: string): string {
  return eq.length <= 3 ? `a ${hash}[${eq}[ ]${eq}] ${kind}` : `a ${hash}[=[ ]=] ${kind} with ${eq.length} "=" signs`;
}

/** Sigil delimiters of Erlang (EEP 66): opener and closer. */
const ERL_SIGIL_CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>', '/': '/', '|': '|', "'": "'", '"': '"', '`': '`', '#': '#' };

/** The lexical rules, by name. */
export const LEX_RULES: Record<LexRuleName, LexRule> = {
  toml: {
    spec: 'TOML v1.0.0, "Comment" and "String" (basic, multi-line basic, literal, multi-line literal strings)',
    tokens: [
      line('#'),
      { kind: 'token', open: '"""', close: '"""', what: 'a """ string', spans: true, escape: '\\', extraQuotes: 2 },
      { kind: 'token', open: "'''", close: "'''", what: "a ''' string", spans: true, extraQuotes: 2 },
      oneLine('"', DQ),
      { kind: 'token', open: "'", close: "'", what: SQ },
    ],
  },
  sql: {
    spec:
      'PostgreSQL 17 documentation, 4.1.1 (quoted identifiers), 4.1.2.1-4.1.2.2 (string constants, E\'\' escapes), 4.1.2.4 (dollar-quoted string constants), 4.1.5 (comments; block comments nest as in the SQL standard)',
    tokens: [
      line('--'),
      { ...BLOCK_C, nests: true },
      {
        kind: 'token',
        open: /(?<![\w$\u0080-\uffff])\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/,
        close: (m) => m[0],
        what: (m) => `a ${m[0]} string`,
        spans: true,
      },
      { kind: 'token', open: /(?<![\w$])[Ee]'/, close: "'", what: "an E'…' string", spans: true, escape: '\\', doubled: true },
      { kind: 'token', open: "'", close: "'", what: SQ, spans: true, doubled: true },
      { kind: 'token', open: '"', close: '"', what: 'a "…" identifier', spans: true, doubled: true },
      { kind: 'token', open: '`', close: '`', what: 'a `…` identifier', spans: true, doubled: true },
    ],
  },
  proto: {
    spec: 'Protocol Buffers Version 3 Language Specification, "Lexical elements" (string literals exclude newlines; C/C++ style comments)',
    tokens: [line('//'), BLOCK_C, oneLine('"', DQ), oneLine("'", SQ)],
  },
  graphql: {
    spec: 'GraphQL specification (October 2021), 2.1.4 Comments and 2.9.4 String Value (block strings)',
    tokens: [
      line('#'),
      { kind: 'token', open: '"""', close: '"""', what: 'a """ block string', spans: true, skips: ['\\"""'] },
      oneLine('"', DQ),
    ],
  },
  fsharp: {
    spec:
      'F# 4.1 language specification, 3.2 Comments (nested, strings lexed inside, "(*)" is an operator) and 3.5 Strings and Characters; F# docs "Strings" and "Interpolated strings"',
    tokens: [
      atom(/\(\*\)/),
      line('//'),
      { kind: 'token', open: '(*', close: '*)', what: 'a (* *) comment', spans: true, nests: true, inner: FSHARP_STRINGS },
      ...FSHARP_STRINGS,
    ],
  },
  batch: {
    spec:
      'Microsoft Windows commands reference, "rem" and "cmd" (^ escapes the next character, a final ^ continues the line); labels (::) as comments. No multi-line strings',
    tokens: [
      line(/^[ \t@]*::/),
      line(/(?<=(?:^|[&|(])[ \t@]*)rem(?![^\s.:;,=/\\+(])/i),
      atom(/\^./),
      { kind: 'token', open: '"', close: '"', what: DQ },
    ],
    continuation: { char: '^', what: 'a line continued with ^', odd: true, inComments: true },
  },
  powershell: {
    spec:
      'PowerShell Language Specification 3.0, 2.2.3 Comments, 2.2.2 Line terminators (backtick continuation) and 2.3.5.2 String literals (here-strings); about_Quoting_Rules',
    tokens: [
      { kind: 'token', open: '<#', close: '#>', what: 'a <# #> comment', spans: true },
      line(/(?<![^\s;(){}|&,=])#/),
      atom(/`./),
      { kind: 'token', open: new RegExp(`@${PS_DQ}(?=[ \\t]*$)`), close: new RegExp(`^${PS_DQ}@`), what: 'a @" "@ here-string', spans: true },
      { kind: 'token', open: new RegExp(`@${PS_SQ}(?=[ \\t]*$)`), close: new RegExp(`^${PS_SQ}@`), what: "a @' '@ here-string", spans: true },
      { kind: 'token', open: new RegExp(PS_DQ), close: new RegExp(PS_DQ), what: DQ, spans: true, escape: '`', doubled: true },
      { kind: 'token', open: new RegExp(PS_SQ), close: new RegExp(PS_SQ), what: SQ, spans: true, doubled: true },
    ],
    continuation: { char: '`', what: 'a line continued with a backtick', odd: true, inComments: false },
  },
  groovy: {
    spec: 'Apache Groovy documentation, "Syntax": 1 Comments, 4 Strings (single-quoted, triple-single-quoted, double-quoted, triple-double-quoted, dollar slashy)',
    tokens: [
      line('//'),
      BLOCK_C,
      { kind: 'token', open: "'''", close: "'''", what: "a ''' string", spans: true, escape: '\\' },
      { kind: 'token', open: '"""', close: '"""', what: 'a """ string', spans: true, escape: '\\' },
      { kind: 'token', open: '$/', close: '/$', what: 'a $/ /$ string', spans: true, skips: ['$$', '$/'] },
      oneLine("'", SQ),
      oneLine('"', DQ),
    ],
  },
  objc: {
    spec:
      'C11 5.1.1.2 (translation phase 2: backslash-newline splices lines), 6.4.9 Comments, 6.4.5 String literals, 6.4.4.4 Character constants; C++11 [lex.string] raw strings; Objective-C @"…" literals',
    tokens: [
      line('//'),
      BLOCK_C,
      {
        kind: 'token',
        open: /(?<![\w])(?:u8|[uUL])?R"([^ ()\\\t\v\f]{0,16})\(/,
        close: (m) => `)${m[1]}"`,
        what: (m) => `a raw string ${m[0]}…)${m[1]}"`,
        spans: true,
      },
      oneLine('"', DQ, true),
      // Not a C++14 digit separator (1'000'000).
      { kind: 'token', open: /(?<!\b[0-9][\w']*)'/, close: "'", what: "a '…' character constant", escape: '\\', splice: true },
    ],
    continuation: { char: '\\', what: 'a line continued with a backslash', odd: false, inComments: true, trailingBlanks: true },
  },
  less: {
    spec: 'CSS Syntax Module Level 3, 4.3.2 (comments) and 4.3.5 (strings: an escaped newline continues them); Less documentation, "Comments" (// line comments)',
    tokens: [atom(/url\((?!\s*["'])[^)]*\)/i), line('//'), BLOCK_C, oneLine('"', DQ, true), oneLine("'", SQ, true)],
  },
  cmake: {
    spec: 'cmake-language(7): Line Comment, Bracket Comment, Bracket Argument, Quoted Argument, Escape Sequences',
    tokens: [
      atom(/\\./),
      { kind: 'token', open: /#\[(=*)\[/, close: (m) => `]${m[1]}]`, what: (m) => bracket('#', m[1], 'comment'), spans: true },
      line('#'),
      { kind: 'token', open: /(?<=^|[\s(])\[(=*)\[/, close: (m) => `]${m[1]}]`, what: (m) => bracket('', m[1], 'bracket argument'), spans: true },
      { kind: 'token', open: '"', close: '"', what: 'a "…" quoted argument', spans: true, escape: '\\' },
    ],
  },
  erlang: {
    spec:
      'Erlang Reference Manual, "Data Types" (atoms, strings, sigils; triple-quoted strings of OTP 27, EEP 64) and "Expressions" ($char); % comments',
    tokens: [
      line('%'),
      atom(/\$(?:\\\^?)?./),
      {
        kind: 'token',
        open: /~[A-Za-z]?("{3,})(?=[ \t]*$)/,
        close: (m) => new RegExp(`^[ \\t]*${m[1]}(?!")`),
        what: (m) => `a ${m[0]} string`,
        spans: true,
      },
      {
        kind: 'token',
        open: /("{3,})(?=[ \t]*$)/,
        close: (m) => new RegExp(`^[ \\t]*${m[1]}(?!")`),
        what: (m) => `a ${m[0]} string`,
        spans: true,
      },
      {
        kind: 'token',
        open: /~[A-Z]([(\[{<\/|'"`#])/,
        close: (m) => ERL_SIGIL_CLOSE[m[1]],
        what: (m) => `a ${m[0]}…${ERL_SIGIL_CLOSE[m[1]]} sigil`,
        spans: true,
      },
      {
        kind: 'token',
        open: /~[a-z]?([(\[{<\/|'"`#])/,
        close: (m) => ERL_SIGIL_CLOSE[m[1]],
        what: (m) => `a ${m[0]}…${ERL_SIGIL_CLOSE[m[1]]} sigil`,
        spans: true,
        escape: '\\',
      },
      { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' },
      { kind: 'token', open: "'", close: "'", what: "a '…' atom", spans: true, escape: '\\' },
    ],
  },
  dockerfile: {
    spec:
      'Dockerfile reference, "Format" (comment lines; comment lines inside a continued instruction are removed, so continuation is no hazard) and "Here-documents"; POSIX Shell Command Language 2.7.4',
    tokens: [
      line(/(?<=^|\s)#/),
      atom(/\\./),
      {
        kind: 'heredoc',
        open: /(?<!<)<<(-?)[ \t]*\\?(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/,
        close: (m) => new RegExp(`^${m[1] ? '\\t*' : ''}${m[3]}$`),
        what: 'a here-document',
      },
      { kind: 'token', open: "'", close: "'", what: SQ },
      oneLine('"', DQ),
    ],
  },
  perl: {
    spec: 'perlop, "Quote and Quote-like Operators" (<<"EOF", <<~EOF here-documents, the terminator alone on its line, indented with <<~) and perlpod (a line starting with "=" and a letter starts POD, "=cut" ends it). Used beside the Perl grammar, which reads <<EOF as a shift and has no POD',
    tokens: [
      { kind: 'token', open: /^=[A-Za-z]/, close: /^=cut(?=\s|$)/, what: 'a POD block', spans: true },
      line(/(?<=^|[\s;{}()])#/),
      atom(/\\./),
      {
        kind: 'heredoc',
        open: /(?<![<\w$@%&])<<(~?)[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/,
        close: (m) => new RegExp(`^${m[1] ? '[ \\t]*' : ''}${m[3]}$`),
        what: 'a here-document',
      },
      { kind: 'token', open: "'", close: "'", what: SQ, spans: true, escape: '\\' },
      { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' },
    ],
  },
  csharp: {
    spec: 'C# language reference, "Raw string literals" (C# 11: three or more quotes, closed by as many; $-interpolated ones too) and "Verbatim text" (@"…", "" doubling). Used beside the C# grammar, which has no raw strings',
    tokens: [
      line('//'),
      BLOCK_C,
      { kind: 'token', open: /\$*("{3,})/, close: (m) => m[1], what: (m) => `a ${m[1]} raw string`, spans: true },
      { kind: 'token', open: /(?:\$@|@\$|@)"/, close: '"', what: 'a verbatim @"…" string', spans: true, doubled: true },
      atom(/'(?:\\.|[^\\'])'/),
      oneLine('"', DQ),
    ],
  },
  swift: {
    spec: 'The Swift Programming Language, "Lexical Structure" (comments nest; string literals: "…" one-line, """…""" multi-line, #"…"# and #"""…"""# raw, closed by as many #). Used instead of the Swift grammar, whose scanner reads raw strings only on the first parse of a process',
    tokens: [
      line('//'),
      { kind: 'token', open: '/*', close: '*/', what: 'a /* */ comment', spans: true, nests: true },
      { kind: 'token', open: /(#+)"""/, close: (m) => `"""${m[1]}`, what: (m) => `a ${m[1]}""" raw string`, spans: true },
      { kind: 'token', open: /(#+)"/, close: (m) => `"${m[1]}`, what: (m) => `a ${m[1]}"…"${m[1]} raw string` },
      { kind: 'token', open: '"""', close: '"""', what: 'a """ string', spans: true, escape: '\\' },
      oneLine('"', DQ),
    ],
  },
  make: {
    spec: 'GNU make manual, 3.1 What Makefiles Contain (comments), 3.1.1 Splitting Long Lines, 6.8 Defining Multi-Line Variables (define … endef, nesting)',
    tokens: [
      {
        kind: 'token',
        open: /^[ \t]*(?:(?:override|export|private|unexport)[ \t]+)*define(?=[ \t]|$)/,
        close: /^[ \t]*endef(?=[ \t#]|$)/,
        what: 'a define … endef block',
        spans: true,
        nests: true,
      },
      atom(/\\#/),
      line('#'),
    ],
    continuation: { char: '\\', what: 'a line continued with a backslash', odd: true, inComments: true },
  },
  ini: {
    spec: 'no standard; the common INI form: ; and # comment lines, one key = value per line',
    tokens: [line(/^[ \t]*[;#]/)],
  },
  properties: {
    spec: 'java.util.Properties.load(Reader): # and ! comment lines (never continued); an odd number of backslashes ends a continued line',
    tokens: [line(/^[ \t\f]*[#!]/)],
    continuation: { char: '\\', what: 'a line continued with a backslash', odd: true, inComments: false },
  },
  env: {
    spec: 'no standard; dotenv (motdotla/dotenv) and Docker Compose .env files: # comments, quoted values may span lines',
    tokens: [
      line(/(?<=^|\s)#/),
      { kind: 'token', open: /(?<==[ \t]*)"/, close: '"', what: 'a "…" value', spans: true, escape: '\\' },
      { kind: 'token', open: /(?<==[ \t]*)'/, close: "'", what: "a '…' value", spans: true },
      { kind: 'token', open: /(?<==[ \t]*)`/, close: '`', what: 'a `…` value', spans: true },
    ],
  },
  lisp: {
    spec:
      'Common Lisp HyperSpec 2.4.4 Semicolon, 2.4.5 Double-Quote, 2.4.8.1 Sharpsign Backslash, 2.4.8.19 Sharpsign Vertical-Bar, 2.1.4.7 Multiple Escape; R7RS 2.2 (comments), 6.7 (strings); Racket Reference 1.3.7 (here strings)',
    tokens: [
      atom(/#\\./),
      // A single escape in a symbol (a\"b, a\|b).
      atom(/\\./),
      line(';'),
      { kind: 'token', open: '#|', close: '|#', what: 'a #| |# comment', spans: true, nests: true },
      { kind: 'token', open: /#<<(.+)$/, close: (m) => new RegExp(`^${m[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), what: 'a #<< here string', spans: true },
      { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' },
      { kind: 'token', open: '|', close: '|', what: 'a |…| symbol', spans: true, escape: '\\' },
    ],
  },
  elisp: {
    spec: 'GNU Emacs Lisp Reference Manual, 2.3 Comments, 2.4.3.1 Basic Char Syntax, 2.4.8 String Type',
    tokens: [atom(/(?<![^\s()'`,[\]])\?\\?./), atom(/\\./), line(';'), { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' }],
  },
  clojure: {
    spec: 'Clojure reference, "The Reader": Strings, Characters, Comment (;)',
    tokens: [atom(/\\./), line(';'), { kind: 'token', open: '"', close: '"', what: DQ, spans: true, escape: '\\' }],
  },
  ocaml: {
    spec: 'OCaml manual, 11.1 Lexical conventions: comments (nested; strings and characters lexed inside), string literals, quoted strings {id|…|id}, character literals',
    tokens: [{ kind: 'token', open: '(*', close: '*)', what: 'a (* *) comment', spans: true, nests: true, inner: OCAML_STRINGS }, ...OCAML_STRINGS],
  },
};

/** Sticky and global copies of the patterns (weakly held: closers made per token come and go). */
const stickyCache = new WeakMap<RegExp, RegExp>();
const globalCache = new WeakMap<RegExp, RegExp>();
/** `p` with flag `flag` ('y' or 'g') instead of either. */
function withFlag(cache: WeakMap<RegExp, RegExp>, p: RegExp, flag: 'y' | 'g'): RegExp {
  let re = cache.get(p);
  if (!re) cache.set(p, (re = new RegExp(p.source, p.flags.replace(/[gy]/g, '') + flag)));
  return re;
}

/** The match of `p` at offset `k` of `l`, or null (an empty match counts as none). */
function matchAt(p: string | RegExp, l: string, k: number): RegExpExecArray | null {
  if (typeof p === 'string') return p !== '' && l.startsWith(p, k) ? (Object.assign([p], { index: k, input: l }) as unknown as RegExpExecArray) : null;
  const re = withFlag(stickyCache, p, 'y');
  re.lastIndex = k;
  const m = re.exec(l);
  return m && m[0] !== '' ? m : null;
}

/** Offset of the first match of `p` at or after `k` in `l`, or `l.length` if none. */
function search(p: string | RegExp, l: string, k: number): number {
  if (typeof p === 'string') {
    const at = p === '' ? -1 : l.indexOf(p, k);
    return at === -1 ? l.length : at;
  }
  const re = withFlag(globalCache, p, 'g');
  re.lastIndex = k;
  let m = re.exec(l);
  while (m && m[0] === '') {
    re.lastIndex = m.index + 1;
    m = re.exec(l);
  }
  return m ? m.index : l.length;
}

/**
 * The next offset of a line where one of some patterns may match: the scanner jumps there
 * instead of trying every pattern at every offset. A match's offset does not depend on where
 * the search started, so each pattern's answer stands until the scan passes it.
 */
class Finder {
  private readonly at: number[];
  constructor(private readonly patterns: (string | RegExp)[]) {
    this.at = patterns.map(() => -1);
  }
  /** The first offset >= `k` where some pattern matches, or `l.length`. */
  next(l: string, k: number): number {
    let best = l.length;
    for (let j = 0; j < this.patterns.length; j++) {
      if (this.at[j] < k) this.at[j] = search(this.patterns[j], l, k);
      if (this.at[j] < best) best = this.at[j];
    }
    return best;
  }
}

/** An open token on the scanner's stack. */
interface Open {
  form: TokenForm;
  close: Closer;
  /** 1-based line of its opener. */
  line: number;
  what: string;
  /** What may end or change the token, and the line (0-based) it was searched on. */
  finder?: Finder;
  finderLine?: number;
}

function openToken(form: TokenForm, m: RegExpExecArray, lineNo: number): Open {
  const close = typeof form.close === 'function' ? form.close(m) : (form.close ?? '');
  const what = typeof form.what === 'function' ? form.what(m) : (form.what ?? 'a token');
  return { form, close, line: lineNo, what };
}

/** The finder of what may end or change `t` on line `i`. */
function insideFinder(t: Open, i: number): Finder {
  if (!t.finder || t.finderLine !== i) {
    const f = t.form;
    const pats: (string | RegExp)[] = [...(f.skips ?? []), ...(f.escape ? [f.escape] : []), t.close, ...(f.nests ? [f.open] : [])];
    for (const g of f.inner ?? []) pats.push(g.open);
    t.finder = new Finder(pats);
    t.finderLine = i;
  }
  return t.finder;
}

/** True if `l` ends with the continuation character `c` (an odd run of it if `c.odd`). */
function endsContinued(l: string, c: Continuation): boolean {
  const s = c.trailingBlanks ? l.replace(/[ \t]+$/, '') : l;
  let n = 0;
  while (n < s.length && s[s.length - 1 - n] === c.char) n++;
  return c.odd ? n % 2 === 1 : n > 0;
}

/**
 * The multi-line token (string, raw string, here-document, block comment) that a line inserted
 * just above line `lineIndex` (0-based) of `lines` would fall into, or null. Also reports a line
 * that the line above continues (batch `^`, make and C backslash, PowerShell backtick,
 * properties backslash) as `a line continued with …`, starting on the first line of the
 * continued statement. Lines are already split (no line endings; a trailing '\r' is ignored).
 * A one-line string left open at the end of its line is taken as ending there (as compilers
 * recover). `lineIndex` past the end scans the whole file (the insertion point after the last line).
 * @param rule the language family (a key of LEX_RULES).
 * @returns the outermost open token: its 1-based first line and what it is; null when the line
 *   starts in code or a line comment, or for `lineIndex` <= 0.
 */
export function tokenAround(rule: LexRuleName, lines: string[], lineIndex: number): TokenSpan | null {
  let found: TokenSpan | null = null;
  scanLines(rule, lines, Math.min(Math.max(lineIndex, 0), lines.length), (_, span) => (found = span));
  return found;
}

/**
 * tokenAround for every insertion point of the file in one pass: entry `i` (0 to
 * `lines.length`) is `tokenAround(rule, lines, i)`.
 */
export function tokensAround(rule: LexRuleName, lines: string[]): (TokenSpan | null)[] {
  const out: (TokenSpan | null)[] = [];
  scanLines(rule, lines, lines.length, (i, span) => (out[i] = span));
  return out;
}

/** Scans lines 0 to `end` - 1, calling `each(i, span)` with the token open at the start of line i, for i = 0 to `end`. */
function scanLines(rule: LexRuleName, lines: string[], end: number, each: (i: number, span: TokenSpan | null) => void): void {
  const r = LEX_RULES[rule];
  const cont = r.continuation;
  const stack: Open[] = [];
  /** Here-documents whose bodies are being read, first one first. */
  let bodies: Open[] = [];
  /** First line of the statement the previous line continues, or null. */
  let continued: number | null = null;
  /** The previous line continues a line comment. */
  let commentContinued = false;
  /** First line of the current statement (for continuations). */
  let statement = 1;
  const current = (): TokenSpan | null => {
    if (bodies.length) return { startLine: bodies[0].line, what: bodies[0].what };
    if (stack.length) return { startLine: stack[0].line, what: stack[0].what };
    if (continued !== null && cont) return { startLine: continued, what: cont.what };
    return null;
  };
  for (let i = 0; i < end; i++) {
    each(i, current());
    const l = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (bodies.length) {
      if (matchAt(bodies[0].close, l, 0)) bodies.shift();
      if (!bodies.length) statement = i + 2;
      continue;
    }
    if (!stack.length && continued === null) statement = i + 1;
    const pending: Open[] = [];
    let comment: boolean = commentContinued;
    let escapedEnd = false;
    let k = comment ? l.length : 0;
    const codeFinder = new Finder(r.tokens.map((f) => f.open));
    scan: while (k < l.length) {
      const top = stack[stack.length - 1];
      if (top) {
        const f = top.form;
        const skip = f.skips?.find((s) => l.startsWith(s, k));
        if (skip) {
          k += skip.length;
          continue;
        }
        if (f.escape && l[k] === f.escape) {
          escapedEnd = k === l.length - 1;
          k += 2;
          continue;
        }
        const c = matchAt(top.close, l, k);
        if (c) {
          let e = k + c[0].length;
          const again = f.doubled ? matchAt(top.close, l, e) : null;
          if (again) {
            k = e + again[0].length;
            continue;
          }
          const last = c[0][c[0].length - 1];
          for (let n = 0; n < (f.extraQuotes ?? 0) && l[e] === last; n++) e++;
          stack.pop();
          k = e;
          continue;
        }
        if (f.nests) {
          const m = matchAt(f.open, l, k);
          if (m) {
            stack.push(openToken(f, m, i + 1));
            k += m[0].length;
            continue;
          }
        }
        for (const g of f.inner ?? []) {
          const m = matchAt(g.open, l, k);
          if (!m) continue;
          if (g.kind === 'token') stack.push(openToken(g, m, i + 1));
          k += m[0].length;
          continue scan;
        }
        k = insideFinder(top, i).next(l, k + 1);
        continue;
      }
      for (const f of r.tokens) {
        const m = matchAt(f.open, l, k);
        if (!m) continue;
        if (f.kind === 'line') {
          comment = true;
          k = l.length;
        } else {
          if (f.kind === 'token') stack.push(openToken(f, m, i + 1));
          else if (f.kind === 'heredoc') pending.push(openToken(f, m, i + 1));
          k += m[0].length;
        }
        continue scan;
      }
      k = codeFinder.next(l, k + 1);
    }
    // One-line tokens end with their line, unless an escape at the very end splices the next one on.
    let cut = false;
    while (stack.length && !stack[stack.length - 1].form.spans) {
      const top = stack[stack.length - 1];
      if (top.form.splice && escapedEnd) break;
      stack.pop();
      cut = true;
    }
    if (cont && !stack.length && !pending.length && !cut && (!comment || cont.inComments) && endsContinued(l, cont)) {
      continued = statement;
      commentContinued = comment;
    } else {
      continued = null;
      commentContinued = false;
    }
    if (pending.length) bodies = pending;
  }
  each(end, current());
}

