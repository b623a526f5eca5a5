/**
 * Chooses the comment syntax for a scar from the file's type (extension or basename),
 * the config override `scar.syntax`, and for JSX/TSX/HTML-like files the syntax context
 * of the insertion point.
 */
import { stringAround } from './strings.js';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { pathArg, quoteCStyle } from '../git/quote.js';
import { formatScar, type CommentSyntax } from './format.js';
import { isMarkdownPath, openFenceAfter, fencedLines } from './parse.js';

const SLASH: CommentSyntax = { open: '//', close: '' };
const HASH: CommentSyntax = { open: '#', close: '' };
const HTML: CommentSyntax = { open: '<!--', close: '-->' };
const BLOCK: CommentSyntax = { open: '/*', close: '*/' };
const DASH: CommentSyntax = { open: '--', close: '' };
const PERCENT: CommentSyntax = { open: '%', close: '' };
const SEMI: CommentSyntax = { open: ';', close: '' };
const JSX: CommentSyntax = { open: '{/*', close: '*/}' };

const BY_EXT: Record<string, CommentSyntax | 'none'> = {};
/** `obj[key]` if `key` is an own property (file names like `toString` or `a.constructor` must not hit Object.prototype). */
function own<T>(obj: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}
const add = (s: CommentSyntax | 'none', exts: string) => exts.split(' ').forEach((e) => (BY_EXT[e] = s));
add(SLASH, 'rs ts js mjs cjs mts cts jsx tsx java go c h cc cpp cxx hpp hh hxx cs swift kt kts scala sc dart php groovy gradle m mm zig proto jsonc json5 v sv');
add(HASH, 'py pyi rb sh bash zsh fish yaml yml toml ini conf cfg r pl pm ex exs mk cmake tf tfvars hcl nix ps1 properties gitignore gitattributes dockerignore env dockerfile containerfile');
add(HTML, 'html htm xhtml xml svg md markdown vue svelte');
add(BLOCK, 'css scss less');
add(DASH, 'sql lua hs lhs ada adb ads elm');
add(PERCENT, 'tex sty cls erl hrl');
add(SEMI, 'clj cljs cljc edn lisp el scm rkt');
add('none', 'json ipynb csv tsv geojson webmanifest lock');

const BY_NAME: Record<string, CommentSyntax> = {
  Dockerfile: HASH,
  Containerfile: HASH,
  Makefile: HASH,
  makefile: HASH,
  GNUmakefile: HASH,
  'CMakeLists.txt': HASH,
  Gemfile: HASH,
  Rakefile: HASH,
  Procfile: HASH,
  '.gitignore': HASH,
  '.gitattributes': HASH,
  '.dockerignore': HASH,
  '.env': HASH,
  '.editorconfig': HASH,
};

/** Extensions whose syntax depends on JSX context (checked with the TypeScript parser). */
const JS_FAMILY = new Set(['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx']);
/** Extensions whose syntax depends on the <script>/<style> section. */
const SECTIONED = new Set(['html', 'htm', 'xhtml', 'vue', 'svelte']);

export interface SyntaxChoice {
  syntax: CommentSyntax;
  /** Set when the choice is a guess the user should know about. */
  warning?: string;
}

/** Parses a `scar.syntax` config value (`"//"`, `"/* *\/"`, `"none"`). */
function parseOverride(v: string): CommentSyntax | 'none' {
  if (v === 'none') return 'none';
  const [open, close = ''] = v.split(' ');
  return { open, close };
}

function noSyntaxError(rel: string, line: number): KizuError {
  return new KizuError(`${quoteCStyle(rel)}: this file type has no comment syntax, so a scar cannot be written into it`, {
    hint: `queue the remark instead: git kizu queue add --at ${pathArg(rel, `:${line}`)} "<text>" (or set scar.syntax for this extension in the config)`,
  });
}

/**
 * The base syntax for a file by type, before any context check.
 * Lookup order: config override by exact basename, by extension; built-in table by
 * basename (Dockerfile, Makefile, ...), by extension; `Dockerfile.*` / `*.dockerfile`.
 * @returns the syntax, or 'none' for formats without comments, or null if unknown.
 */
export function baseSyntax(relPath: string, overrides: Record<string, string>): CommentSyntax | 'none' | null {
  const name = path.basename(relPath);
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : dot === 0 ? name.slice(1).toLowerCase() : '';
  const byName = own(overrides, name);
  if (byName !== undefined) return parseOverride(byName);
  const byExt = ext ? own(overrides, ext) : undefined;
  if (byExt !== undefined) return parseOverride(byExt);
  if (own(BY_NAME, name)) return own(BY_NAME, name)!;
  if (/^(Dockerfile|Containerfile)\./.test(name)) return HASH;
  if (ext && own(BY_EXT, ext)) return own(BY_EXT, ext)!;
  return null;
}

/**
 * Chooses the comment syntax for a scar inserted above line index `lineIndex` (0-based)
 * of `text`, the file's content (decoded UTF-8, BOM removed; lines end at `\r\n`, `\n` or a
 * lone `\r`, as lines.ts toLines counts them).
 * - JS/TS family: `//`, or `{/* *\/}` where the line is among JSX children; the choice is
 *   verified with the TypeScript parser (no new parse errors, and the scar is a comment,
 *   not JSX text or string content).
 * - HTML/Vue/Svelte: `<!-- -->`, `//` inside `<script>`, `/* *\/` inside `<style>`
 *   (refused inside a JSON `<script>`).
 * - PHP: `//` inside `<?php ... ?>`, `<!-- -->` in the markup around it.
 * - Markdown: `<!-- -->`, `#` inside YAML front matter.
 * - Unknown text formats: `#`, with a warning.
 * Refuses inserting above line 1 when line 1 must stay first (`#!` line, XML declaration,
 * PHP opening tag, Markdown front matter). Then refuses insertion points where the scar would not be a working, visible comment:
 * inside a Markdown fenced code block (the scan ignores it there); right after a line ending
 * in a backslash for `#` and `//` comments outside the JS family (shell, Python, make, C
 * macros and strings continue onto the next line); inside an open `/* *\/` or `<!-- -->`
 * block comment when the scar has that closer (it would end the comment early).
 * @param render builds the file text with the scar inserted using a candidate syntax;
 *   returns [newText, offset of the scar's `@kizu` in newText].
 * @throws KizuError (exit 2) for formats without comment syntax, and for each refused
 *   insertion point above (message names `<path>:<line>`, hint says which line to use).
 */
export async function chooseSyntax(
  relPath: string,
  text: string,
  lineIndex: number,
  overrides: Record<string, string>,
  render: (s: CommentSyntax) => [string, number],
): Promise<SyntaxChoice> {
  const name = path.basename(relPath);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  const hasOverride = own(overrides, name) !== undefined || (ext !== '' && own(overrides, ext) !== undefined);
  const base = baseSyntax(relPath, overrides);
  const lineNo = lineIndex + 1;
  // A lone CR ends a line too (lines.ts toLines); as LF it keeps every offset the same.
  text = text.replace(/\r(?!\n)/g, '\n');
  if (base === 'none') throw noSyntaxError(relPath, lineNo);
  const lines = text.split('\n');
  if (lineIndex === 0) {
    const role = firstLineRole(relPath, ext, lines);
    if (role) {
      throw new KizuError(`${quoteCStyle(relPath)}:1: line 1 is ${role}, which must stay the first line of the file`, {
        hint: `scar line 2 instead: git kizu scar ${pathArg(relPath, `:2`)}`,
      });
    }
  }
  let choice: SyntaxChoice;
  if (base === null) {
    choice = { syntax: HASH, warning: `${quoteCStyle(relPath)}: unknown file type, using "#" comments (set scar.syntax in the config to choose)` };
  } else if (hasOverride) choice = { syntax: base };
  else if (SECTIONED.has(ext)) {
    const sec = sectionSyntax(text, lineIndex);
    if (sec === 'none') {
      throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line is inside a JSON <script> block, which has no comment syntax`, {
        hint: `scar the <script> line instead, or use git kizu queue add --at ${pathArg(relPath, `:${lineNo}`)} "<text>"`,
      });
    }
    choice = { syntax: sec };
  } else if (ext === 'php') choice = { syntax: phpSyntax(text, lineIndex) };
  else if (JS_FAMILY.has(ext)) return jsSyntax(relPath, ext, text, lineNo, render);
  else if (isMarkdownPath(relPath) && base === HTML) {
    const fm = frontMatterEnd(lines);
    choice = { syntax: fm !== null && lineIndex >= 1 && lineIndex <= fm ? HASH : HTML };
  } else choice = { syntax: base };
  if (isMarkdownPath(relPath)) {
    const fence = openFenceAfter(lines, lineIndex);
    if (fence !== null) {
      throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line is inside a fenced code block (opened at line ${fence}), where git kizu scan does not look for scars`, {
        hint: `scar the fence instead: git kizu scar ${pathArg(relPath, `:${fence}`)}, or use git kizu queue add --at ${pathArg(relPath, `:${lineNo}`)} "<text>"`,
      });
    }
  }
  const str = stringAround(ext, name, lines, lineIndex);
  if (str) {
    throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line is inside ${str.what} (from line ${str.startLine}); a scar line there would become part of the string`, {
      hint: `scar the line where it starts: git kizu scar ${pathArg(relPath, `:${str.startLine}`)}, or use git kizu queue add --at ${pathArg(relPath, `:${lineNo}`)} "<text>"`,
    });
  }
  const { open, close } = choice.syntax;
  // Docker drops comment lines inside a continued instruction (Dockerfile reference,
  // "Format"), so there a scar may go between continued lines.
  const dockerfile = /^(Dockerfile|Containerfile)(\..*)?$/.test(name) || ext === 'dockerfile';
  if (!close && (open.startsWith('#') || open.startsWith('//')) && !dockerfile) {
    // A line ending with a backslash continues onto the next, unless it is a comment line.
    const continues = (n: number) => n >= 1 && n <= lines.length && /\\[ \t]*\r?$/.test(lines[n - 1]) && !lines[n - 1].trimStart().startsWith(open);
    if (continues(lineIndex)) {
      let start = lineIndex;
      while (continues(start - 1)) start--;
      throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line continues line ${lineIndex} (it ends with a backslash), so a comment line cannot go between them`, {
        hint: `scar the line where the statement starts: git kizu scar ${pathArg(relPath, `:${start}`)}`,
      });
    }
  }
  if (close === '*/' || close === '-->') {
    // Text before the insertion point; in Markdown without fenced code and code spans,
    // where comment openers are literal text.
    const code = isMarkdownPath(relPath) ? fencedLines(lines) : null;
    const before = lines
      .slice(0, lineIndex)
      .map((l, k) => (!code ? l : code[k] ? '' : l.replace(/`+[^`]*`+/g, '')))
      .join('\n');
    const opener = close === '*/' ? '/*' : '<!--';
    const at = before.lastIndexOf(opener);
    if (at !== -1 && before.indexOf(close, at + opener.length) === -1) {
      const startLine = before.slice(0, at).split('\n').length;
      throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line is inside a ${opener} ${close} comment (opened at line ${startLine}); the scar's ${close} would end it early`, {
        hint: `scar the line where that comment starts: git kizu scar ${pathArg(relPath, `:${startLine}`)}`,
      });
    }
  }
  return choice;
}

/** `<script type>` values whose content is JSON (no comment syntax at all). */
const JSON_SCRIPT = /(^|[/+])(json|importmap|speculationrules)$/i;
/** `<script type>` values whose content is markup (client-side templates). */
const MARKUP_SCRIPT = /(template|html)$/i;

/**
 * For HTML-like files: the syntax of the `<script>` / `<style>` section the line is in:
 * `//` in a script (`/* *\/` for a style), `<!-- -->` in markup and in `<script>` blocks
 * whose `type` is a template/HTML type.
 * @returns the syntax, or 'none' inside a `<script>` whose `type` is JSON (json, ld+json,
 *   importmap, speculationrules), where no comment is valid.
 */
function sectionSyntax(text: string, lineIndex: number): CommentSyntax | 'none' {
  const lines = text.split('\n');
  let section: 'html' | 'script' | 'style' | 'json' = 'html';
  for (let i = 0; i < lineIndex && i < lines.length; i++) {
    const l = lines[i];
    // Track the last open/close tag on each line, in order.
    const re = /<(\/?)(script|style)\b([^>]*)>/gi;
    let m: RegExpExecArray | null;
    while ((m = re.exec(l))) {
      if (m[1]) section = 'html';
      else if (m[2].toLowerCase() === 'style') section = 'style';
      else {
        const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(m[3])?.[1] ?? '';
        section = JSON_SCRIPT.test(type) ? 'json' : MARKUP_SCRIPT.test(type) ? 'html' : 'script';
      }
    }
  }
  // The scar goes above the target line, so a target that closes the section
  // (`</script>`) still puts the scar inside it.
  if (section === 'json') return 'none';
  return section === 'script' ? SLASH : section === 'style' ? BLOCK : HTML;
}

/**
 * For PHP files: `//` inside `<?php` / `<?=` blocks, `<!-- -->` in the markup outside them
 * (where `//` would be page text). Decided by the last `<?php`, `<?=` or `?>` before line
 * index `lineIndex`.
 */
function phpSyntax(text: string, lineIndex: number): CommentSyntax {
  const before = text.split('\n').slice(0, lineIndex).join('\n');
  let inPhp = false;
  for (const m of before.matchAll(/<\?(?:php\b|=)|\?>/gi)) inPhp = m[0] !== '?>';
  return inPhp ? SLASH : HTML;
}

/**
 * For Markdown: the 0-based index of the line closing a YAML front matter block (line 1 is
 * `---`, closed by a later `---` or `...` line), or null if the file has none.
 */
function frontMatterEnd(lines: string[]): number | null {
  const clean = (l: string) => l.replace(/\r$/, '').trimEnd();
  if (!lines.length || clean(lines[0]) !== '---') return null;
  for (let i = 1; i < lines.length; i++) if (clean(lines[i]) === '---' || clean(lines[i]) === '...') return i;
  return null;
}

/**
 * What line 1 is when it must stay the first line of the file (so nothing may be inserted
 * above it): a `#!` interpreter line, an XML declaration, a PHP opening tag (output before
 * it would be sent to the client), or Markdown front matter. Null otherwise.
 */
function firstLineRole(relPath: string, ext: string, lines: string[]): string | null {
  const first = (lines[0] ?? '').replace(/\r$/, '');
  if (first.startsWith('#!')) return 'a #! interpreter line';
  if (/^<\?xml[\s?]/.test(first)) return 'an XML declaration';
  if (ext === 'php' && /^\s*<\?(php\b|=)/i.test(first)) return 'the PHP opening tag';
  if (isMarkdownPath(relPath) && frontMatterEnd(lines) !== null) return 'the start of the front matter';
  return null;
}

type TS = typeof import('typescript');
let tsModule: TS | null = null;
async function loadTs(): Promise<TS> {
  if (!tsModule) tsModule = ((await import('typescript')) as unknown as { default: TS }).default;
  return tsModule;
}

async function jsSyntax(
  relPath: string,
  ext: string,
  text: string,
  lineNo: number,
  render: (s: CommentSyntax) => [string, number],
): Promise<SyntaxChoice> {
  const maybeJsx = ext === 'jsx' || ext === 'tsx' || ext === 'js' || ext === 'mjs' || ext === 'cjs';
  // Fast path: without JSX, template literals or backslash line continuations (strings
  // spanning lines) there is no context to check.
  if (!(maybeJsx && text.includes('<')) && !text.includes('`') && !/\\\r?\n/.test(text)) return { syntax: SLASH };
  const ts = await loadTs();
  const kind = ext === 'tsx' ? ts.ScriptKind.TSX : ext.endsWith('ts') ? ts.ScriptKind.TS : ts.ScriptKind.JSX;
  const before = parseErrors(ts, relPath, text, kind);
  for (const cand of [SLASH, JSX]) {
    if (cand === JSX && !maybeJsx && ext !== 'tsx') continue;
    const [next, at] = render(cand);
    if (parseErrors(ts, relPath, next, kind) > before) continue;
    if (!isCommentAt(ts, relPath, next, kind, at)) continue;
    return { syntax: cand };
  }
  throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: a comment cannot be placed above this line (it is inside a string, template or tag)`, {
    hint: `scar the line where the statement or element starts, or use git kizu queue add --at ${pathArg(relPath, `:${lineNo}`)} "<text>"`,
  });
}

function parseErrors(ts: TS, file: string, text: string, kind: number): number {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  return (sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
}

/** True if offset `at` in `text` lies in comment trivia (not JSX text, string or template content). */
function isCommentAt(ts: TS, file: string, text: string, kind: number, at: number): boolean {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  let node: import('typescript').Node = sf;
  for (;;) {
    const child: import('typescript').Node | undefined = node
      .getChildren(sf)
      .find((c: import('typescript').Node) => c.pos <= at && at < c.end);
    if (!child) break;
    node = child;
  }
  // A token containing the offset in its own text (not its leading trivia) means the scar
  // became code, JSX text, or string content.
  const start = node.getStart(sf);
  if (at >= start && at < node.end) {
    return false;
  }
  return true;
}

/** Exposed for tests: the built-in syntax for an extension (or undefined). */
export function builtinSyntaxForExt(ext: string): CommentSyntax | 'none' | undefined {
  return own(BY_EXT, ext);
}

export { formatScar };
