/**
 * The one table of the languages git-kizu writes scars into: for each file extension (or
 * base name), the tree-sitter grammar that parses it, its line comment and its block comment.
 *
 * - `grammar`: a grammar of `@cursorless/tree-sitter-wasms` (prebuilt WebAssembly, loaded by
 *   web-tree-sitter only when a file of that language needs parsing: grammars.ts). With a
 *   grammar, a scar is placed only where the re-parsed file holds it as a comment node and
 *   nothing else of the file changed (scars/syntax.ts), and `scan` counts a marker only
 *   when it starts a comment node (scars/parse.ts).
 * - `sections`: markup whose `<script>` and `<style>` elements (and, for Astro, the front
 *   matter; for PHP, the HTML around `<?php ?>`) are parsed with their own grammar.
 * - `lex`: the rule of syntax/lexer.ts that finds the language's multi-line strings, raw
 *   strings, here-documents and block comments; a scar whose line starts inside one goes
 *   above the line where the token starts. For a language without a grammar in that
 *   package, `scan` keeps the line rule (a marker line whose first non-blank text is a
 *   comment opener). Beside a grammar (Perl), it covers what the grammar misses: a line
 *   inside such a token takes no scar, and a marker there is not one.
 * - neither: a language with no multi-line tokens worth a rule (INI, .gitignore), or one
 *   kizu knows only by its comment opener: the line rule alone.
 * - `hazards`: for a language with a grammar, strings whose absence from the file proves
 *   that no line of it starts inside a multi-line token (a template literal needs a
 *   backtick, a block comment its opener, ...). A file without any of them is not parsed:
 *   this is what keeps the hooks from loading a grammar for the usual scarred file. Absent
 *   means "always parse".
 *
 * `scar.syntax` in the config still overrides the comment syntax per extension or base name.
 */
import path from 'node:path';
import type { LexRuleName } from './lexer.js';

/** The grammars used, by their file name in `@cursorless/tree-sitter-wasms/out/tree-sitter-<name>.wasm`. */
export type Grammar =
  | 'bash'
  | 'c'
  | 'c_sharp'
  | 'clojure'
  | 'cpp'
  | 'css'
  | 'dart'
  | 'elixir'
  | 'elm'
  | 'go'
  | 'haskell'
  | 'hcl'
  | 'html'
  | 'java'
  | 'javascript'
  | 'kotlin'
  | 'latex'
  | 'lua'
  | 'nix'
  | 'perl'
  | 'php'
  | 'properties'
  | 'python'
  | 'r'
  | 'ruby'
  | 'rust'
  | 'scala'
  | 'scss'
  | 'tsx'
  | 'typescript'
  | 'xml'
  | 'yaml'
  | 'zig';

/** A comment syntax: `open` starts it, `close` ('' for line comments) ends it. */
export interface CommentSyntax {
  open: string;
  close: string;
}

/** One language of the table. */
export interface Language {
  /** Name for messages and the README table. */
  name: string;
  grammar: Grammar | null;
  /** Line comment opener, or null. */
  line: string | null;
  /** Block comment opener and closer, or null. */
  block: readonly [string, string] | null;
  /** JSX: `{/* *\/}` among JSX children. */
  jsx?: boolean;
  /** Markup with sections parsed by other grammars (see the module comment). */
  sections?: 'html' | 'astro' | 'php';
  /**
   * Markup with `{…}` expressions (Svelte, Astro attribute values and text; Vue's `{{ }}`): a
   * `>` or `<` in one does not end or start a tag (tree.ts masks them for the HTML grammar).
   */
  braces?: boolean;
  /** The lexical rule for a language without a grammar. */
  lex?: LexRuleName;
  /** See the module comment; absent: always parse. */
  hazards?: readonly string[];
  /**
   * A line ending with a backslash does not continue onto the next (Haskell and Elm lambdas,
   * TeX's control space); elsewhere a scar never goes right below such a line.
   */
  backslashEndsNothing?: boolean;
  /**
   * A scar above a line that starts with `}` or `]` takes the indent of the line above it, not
   * the closer's: in YAML a comment at the column of a flow collection's closer (column 0 at
   * the top level) is refused by strict parsers (the `yaml` package).
   */
  indentAboveCloser?: boolean;
  /** Markdown: fenced code blocks and front matter rules (scars/parse.ts), no grammar. */
  markdown?: boolean;
  /** The format has no comment syntax at all (JSON, CSV, notebooks). */
  none?: boolean;
}

const C_HAZARDS = ['/*', '\\\n', '\\\r'];
const L = (name: string, grammar: Grammar | null, line: string | null, block: readonly [string, string] | null, more: Partial<Language> = {}): Language => ({
  name,
  grammar,
  line,
  block,
  ...more,
});
const SLASHES = ['/*', '*/'] as const;
const HTML_COMMENT = ['<!--', '-->'] as const;

/** Languages by key; extensions and names map to these below. */
export const LANGUAGES = {
  javascript: L('JavaScript', 'javascript', '//', SLASHES, { jsx: true, hazards: ['`', '/*', '<', '\\\n', '\\\r'] }),
  typescript: L('TypeScript', 'typescript', '//', SLASHES, { hazards: ['`', '/*', '\\\n', '\\\r'] }),
  tsx: L('TSX', 'tsx', '//', SLASHES, { jsx: true, hazards: ['`', '/*', '<', '\\\n', '\\\r'] }),
  python: L('Python', 'python', '#', null, { hazards: ['"""', "'''", '\\\n', '\\\r'] }),
  ruby: L('Ruby', 'ruby', '#', null),
  perl: L('Perl', 'perl', '#', null, { lex: 'perl' }),
  shell: L('Shell', 'bash', '#', null),
  yaml: L('YAML', 'yaml', '#', null, { hazards: ['|', '>', '"', "'"], indentAboveCloser: true }),
  toml: L('TOML', null, '#', null, { lex: 'toml' }),
  html: L('HTML', 'html', null, HTML_COMMENT, { sections: 'html' }),
  vue: L('Vue', 'html', null, HTML_COMMENT, { sections: 'html', braces: true }),
  svelte: L('Svelte', 'html', null, HTML_COMMENT, { sections: 'html', braces: true }),
  astro: L('Astro', 'html', null, HTML_COMMENT, { sections: 'astro', braces: true }),
  xml: L('XML', 'xml', null, HTML_COMMENT),
  markdown: L('Markdown', null, null, HTML_COMMENT, { markdown: true }),
  css: L('CSS', 'css', null, SLASHES, { hazards: ['/*', '\\\n', '\\\r'] }),
  scss: L('SCSS', 'scss', null, SLASHES, { hazards: ['/*', '\\\n', '\\\r'] }),
  less: L('Less', null, null, SLASHES, { lex: 'less' }),
  go: L('Go', 'go', '//', SLASHES, { hazards: ['`', '/*'] }),
  rust: L('Rust', 'rust', '//', SLASHES, { hazards: ['"', '/*'] }),
  c: L('C', 'c', '//', SLASHES, { hazards: C_HAZARDS }),
  cpp: L('C++', 'cpp', '//', SLASHES, { hazards: [...C_HAZARDS, 'R"', 'R\'' ] }),
  objc: L('Objective-C', null, '//', SLASHES, { lex: 'objc' }),
  csharp: L('C#', 'c_sharp', '//', SLASHES, { lex: 'csharp', hazards: ['/*', '@"', '"""', '@$"', '$@"'] }),
  java: L('Java', 'java', '//', SLASHES, { hazards: ['/*', '"""'] }),
  kotlin: L('Kotlin', 'kotlin', '//', SLASHES, { hazards: ['/*', '"""'] }),
  swift: L('Swift', null, '//', SLASHES, { lex: 'swift' }),
  scala: L('Scala', 'scala', '//', SLASHES, { hazards: ['/*', '"""'] }),
  dart: L('Dart', 'dart', '//', SLASHES, { hazards: ['/*', "'''", '"""'] }),
  groovy: L('Groovy', null, '//', SLASHES, { lex: 'groovy' }),
  zig: L('Zig', 'zig', '//', null, { hazards: ['\\\\'] }),
  php: L('PHP', 'php', '//', SLASHES, { sections: 'php' }),
  proto: L('Protocol Buffers', null, '//', SLASHES, { lex: 'proto' }),
  graphql: L('GraphQL', null, '#', null, { lex: 'graphql' }),
  fsharp: L('F#', null, '//', ['(*', '*)'], { lex: 'fsharp' }),
  nix: L('Nix', 'nix', '#', SLASHES),
  hcl: L('HCL / Terraform', 'hcl', '#', SLASHES),
  batch: L('Batch', null, 'REM', null, { lex: 'batch' }),
  powershell: L('PowerShell', null, '#', ['<#', '#>'], { lex: 'powershell' }),
  lua: L('Lua', 'lua', '--', null, { hazards: ['[[', '[=', '\\\n', '\\\r'] }),
  sql: L('SQL', null, '--', SLASHES, { lex: 'sql' }),
  haskell: L('Haskell', 'haskell', '--', ['{-', '-}'], { backslashEndsNothing: true }),
  elm: L('Elm', 'elm', '--', ['{-', '-}'], { backslashEndsNothing: true }),
  ada: L('Ada', null, '--', null),
  elixir: L('Elixir', 'elixir', '#', null),
  erlang: L('Erlang', null, '%', null, { lex: 'erlang' }),
  latex: L('LaTeX', 'latex', '%', null, { backslashEndsNothing: true }),
  clojure: L('Clojure', 'clojure', ';', null),
  lisp: L('Lisp, Scheme, Racket', null, ';', null, { lex: 'lisp' }),
  elisp: L('Emacs Lisp', null, ';', null, { lex: 'elisp' }),
  ocaml: L('OCaml', null, null, ['(*', '*)'], { lex: 'ocaml' }),
  r: L('R', 'r', '#', null),
  make: L('Makefile', null, '#', null, { lex: 'make' }),
  cmake: L('CMake', null, '#', null, { lex: 'cmake' }),
  dockerfile: L('Dockerfile', null, '#', null, { lex: 'dockerfile' }),
  properties: L('Java properties', 'properties', '#', null),
  env: L('.env', null, '#', null, { lex: 'env' }),
  ini: L('INI / config', null, '#', null, { lex: 'ini' }),
  hashLines: L('Hash-comment text (fish, Nim, Crystal, ignore files)', null, '#', null),
  slashLines: L('Slash-comment text (Verilog, JSON with comments)', null, '//', SLASHES),
  json: L('JSON', null, null, null, { none: true }),
} satisfies Record<string, Language>;

export type LanguageKey = keyof typeof LANGUAGES;

/** Extensions (lower case, without the dot) by language. */
const EXTENSIONS: Partial<Record<LanguageKey, string>> = {
  javascript: 'js mjs cjs jsx',
  typescript: 'ts mts cts',
  tsx: 'tsx',
  python: 'py pyi pyw',
  ruby: 'rb rake gemspec ru',
  perl: 'pl pm t',
  shell: 'sh bash zsh ksh',
  yaml: 'yaml yml',
  toml: 'toml',
  html: 'html htm xhtml',
  vue: 'vue',
  svelte: 'svelte',
  astro: 'astro',
  xml: 'xml svg xsl xslt plist csproj fsproj vbproj props targets',
  markdown: 'md markdown mdx mdown mkd',
  css: 'css',
  scss: 'scss',
  less: 'less',
  go: 'go',
  rust: 'rs',
  c: 'c h',
  cpp: 'cc cpp cxx c++ hpp hh hxx h++ ino cu cuh',
  objc: 'm mm',
  csharp: 'cs',
  java: 'java',
  kotlin: 'kt kts',
  swift: 'swift',
  scala: 'scala sc',
  dart: 'dart',
  groovy: 'groovy gradle',
  zig: 'zig',
  php: 'php phtml',
  proto: 'proto',
  graphql: 'graphql gql graphqls',
  fsharp: 'fs fsi fsx',
  nix: 'nix',
  hcl: 'tf tfvars hcl',
  batch: 'bat cmd',
  powershell: 'ps1 psm1 psd1',
  lua: 'lua',
  sql: 'sql',
  haskell: 'hs',
  elm: 'elm',
  ada: 'ada adb ads',
  elixir: 'ex exs',
  erlang: 'erl hrl',
  latex: 'tex sty cls',
  clojure: 'clj cljs cljc edn',
  lisp: 'lisp scm ss rkt',
  elisp: 'el',
  ocaml: 'ml mli',
  r: 'r',
  make: 'mk',
  cmake: 'cmake',
  dockerfile: 'dockerfile containerfile',
  properties: 'properties',
  ini: 'ini conf cfg editorconfig',
  env: 'env',
  hashLines: 'fish nim cr gitignore gitattributes dockerignore',
  slashLines: 'jsonc json5 v sv',
  json: 'json ipynb csv tsv geojson webmanifest lock',
};

/** Whole base names (exact case) by language. */
const NAMES: Partial<Record<LanguageKey, string>> = {
  dockerfile: 'Dockerfile Containerfile',
  make: 'Makefile makefile GNUmakefile',
  cmake: 'CMakeLists.txt',
  ruby: 'Gemfile Rakefile Vagrantfile Podfile',
  groovy: 'Jenkinsfile',
  hashLines: 'Procfile',
};

/** Base names by prefix: `Dockerfile.dev`, `.env.local`. */
const PREFIXES: Partial<Record<LanguageKey, string>> = {
  dockerfile: 'Dockerfile. Containerfile.',
  env: '.env.',
};

const BY_EXT = new Map<string, LanguageKey>();
const BY_NAME = new Map<string, LanguageKey>();
for (const [key, exts] of Object.entries(EXTENSIONS)) for (const e of exts!.split(' ')) BY_EXT.set(e, key as LanguageKey);
for (const [key, names] of Object.entries(NAMES)) for (const n of names!.split(' ')) BY_NAME.set(n, key as LanguageKey);

/** A file's extension, lower case, without the dot ('' for none; `.env` gives `env`). */
export function extensionOf(relPath: string): string {
  const name = path.basename(relPath);
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The language of a file by its base name (Dockerfile, Makefile, `Dockerfile.*`, `.env.*`), then its
 * extension; for a file without an extension, its `#!` line (sh/bash/zsh, python, ruby,
 * perl, node) when `firstLine` is given.
 * @returns the language, or null when kizu does not know the type.
 */
export function languageOf(relPath: string, firstLine = ''): Language | null {
  const name = path.basename(relPath);
  const prefixed = () => (Object.keys(PREFIXES) as LanguageKey[]).find((k) => PREFIXES[k]!.split(' ').some((p) => name.startsWith(p)));
  const key = BY_NAME.get(name) ?? prefixed() ?? BY_EXT.get(extensionOf(relPath));
  if (key) return LANGUAGES[key];
  if (!name.includes('.') || name.startsWith('.')) {
    const m = /^#!.*?\b(bash|zsh|ksh|dash|sh|python[0-9.]*|ruby|perl|node)\b/.exec(firstLine);
    if (m) return m[1].startsWith('python') ? LANGUAGES.python : m[1] === 'ruby' ? LANGUAGES.ruby : m[1] === 'perl' ? LANGUAGES.perl : m[1] === 'node' ? LANGUAGES.javascript : LANGUAGES.shell;
  }
  return null;
}

/** The comment syntax a scar uses by default in `lang`: its line comment, else its block comment; null when it has none. */
export function defaultSyntax(lang: Language): CommentSyntax | null {
  if (lang.line) return { open: lang.line, close: '' };
  if (lang.block) return { open: lang.block[0], close: lang.block[1] };
  return null;
}

/**
 * The comment syntaxes a scar may take in `lang`, in the order tried: line comment, block
 * comment, and for JSX languages `{/* *\/}` (a comment among JSX children).
 */
export function candidateSyntaxes(lang: Language): CommentSyntax[] {
  const out: CommentSyntax[] = [];
  if (lang.line) out.push({ open: lang.line, close: '' });
  if (lang.block) out.push({ open: lang.block[0], close: lang.block[1] });
  if (lang.jsx) out.push({ open: '{/*', close: '*/}' });
  return out;
}

/**
 * Every language of the table with its files, as the README's language table shows them
 * (test/unit/syntax-languages.test.mjs keeps the two equal): extensions with their dot, base
 * names, and base-name prefixes as `<prefix>*`.
 */
export function tableRows(): { key: LanguageKey; language: Language; files: string[] }[] {
  return (Object.keys(LANGUAGES) as LanguageKey[]).map((key) => ({
    key,
    language: LANGUAGES[key],
    files: [
      ...(EXTENSIONS[key]?.split(' ').map((e) => `.${e}`) ?? []),
      ...(NAMES[key]?.split(' ') ?? []),
      ...(PREFIXES[key]?.split(' ').map((p) => `${p}*`) ?? []),
    ],
  }));
}
