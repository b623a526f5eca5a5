/**
 * Chooses the comment syntax for a scar from the file's type (extension or basename),
 * the config override `scar.syntax`, and for JSX/TSX/HTML-like files the syntax context
 * of the insertion point.
 */
import path from 'node:path';
import { KizuError } from '../errors.js';
import { formatScar, type CommentSyntax } from './format.js';

const SLASH: CommentSyntax = { open: '//', close: '' };
const HASH: CommentSyntax = { open: '#', close: '' };
const HTML: CommentSyntax = { open: '<!--', close: '-->' };
const BLOCK: CommentSyntax = { open: '/*', close: '*/' };
const DASH: CommentSyntax = { open: '--', close: '' };
const PERCENT: CommentSyntax = { open: '%', close: '' };
const SEMI: CommentSyntax = { open: ';', close: '' };
const JSX: CommentSyntax = { open: '{/*', close: '*/}' };

const BY_EXT: Record<string, CommentSyntax | 'none'> = {};
const add = (s: CommentSyntax | 'none', exts: string) => exts.split(' ').forEach((e) => (BY_EXT[e] = s));
add(SLASH, 'rs ts js mjs cjs mts cts jsx tsx java go c h cc cpp cxx hpp hh hxx cs swift kt kts scala sc dart php groovy gradle m mm zig proto jsonc json5 v sv');
add(HASH, 'py pyi rb sh bash zsh fish yaml yml toml ini conf cfg r pl pm ex exs mk cmake tf tfvars hcl nix ps1 properties gitignore gitattributes dockerignore env');
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

function noSyntaxError(rel: string): KizuError {
  return new KizuError(`${rel}: this file type has no comment syntax, so a scar cannot be written into it`, {
    hint: `queue the remark instead: git kizu queue add --at ${rel}:<line> "<text>" (or set scar.syntax for this extension in the config)`,
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
  if (overrides[name] !== undefined) return parseOverride(overrides[name]);
  if (ext && overrides[ext] !== undefined) return parseOverride(overrides[ext]);
  if (BY_NAME[name]) return BY_NAME[name];
  if (/^(Dockerfile|Containerfile)\./.test(name)) return HASH;
  if (ext && BY_EXT[ext]) return BY_EXT[ext];
  return null;
}

/**
 * Chooses the comment syntax for a scar inserted above line index `lineIndex` (0-based)
 * of `text`, the file's content (decoded UTF-8, BOM removed).
 * - JS/TS family: `//`, or `{/* *\/}` where the line is among JSX children; the choice is
 *   verified with the TypeScript parser (no new parse errors, and the scar is a comment,
 *   not JSX text or string content).
 * - HTML/Vue/Svelte: `<!-- -->`, `//` inside `<script>`, `/* *\/` inside `<style>`.
 * - Unknown text formats: `#`, with a warning.
 * @param render builds the file text with the scar inserted using a candidate syntax;
 *   returns [newText, offset of the scar's `@kizu` in newText].
 * @throws KizuError (exit 2) for formats without comment syntax, or when no candidate
 *   yields a valid comment at that line (e.g. inside a multi-line string).
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
  const hasOverride = overrides[name] !== undefined || (ext !== '' && overrides[ext] !== undefined);
  const base = baseSyntax(relPath, overrides);
  if (base === 'none') throw noSyntaxError(relPath);
  if (base === null) {
    return { syntax: HASH, warning: `${relPath}: unknown file type, using "#" comments (set scar.syntax in the config to choose)` };
  }
  if (hasOverride) return { syntax: base };
  if (SECTIONED.has(ext)) return { syntax: sectionSyntax(text, lineIndex) };
  if (JS_FAMILY.has(ext)) return jsSyntax(relPath, ext, text, render);
  return { syntax: base };
}

/** For HTML-like files: the syntax of the `<script>` / `<style>` section the line is in. */
function sectionSyntax(text: string, lineIndex: number): CommentSyntax {
  const lines = text.split('\n');
  let section: 'html' | 'script' | 'style' = 'html';
  for (let i = 0; i < lineIndex && i < lines.length; i++) {
    const l = lines[i];
    // Track the last open/close tag on each line, in order.
    const re = /<(\/?)(script|style)\b[^>]*>/gi;
    let m: RegExpExecArray | null;
    while ((m = re.exec(l))) {
      if (m[1]) section = 'html';
      else section = m[2].toLowerCase() === 'script' ? 'script' : 'style';
    }
  }
  // The target line itself closing the section (`</script>`) still belongs to html.
  const target = lines[lineIndex] ?? '';
  if (section !== 'html' && /^\s*<\/(script|style)\b/i.test(target)) section = 'html';
  return section === 'script' ? SLASH : section === 'style' ? BLOCK : HTML;
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
  render: (s: CommentSyntax) => [string, number],
): Promise<SyntaxChoice> {
  const maybeJsx = ext === 'jsx' || ext === 'tsx' || ext === 'js' || ext === 'mjs' || ext === 'cjs';
  // Fast path: without JSX or template literals there is no context to check.
  if (!(maybeJsx && text.includes('<')) && !text.includes('`')) return { syntax: SLASH };
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
  throw new KizuError(`${relPath}: a comment cannot be placed at that line (it is inside a string, template or tag)`, {
    hint: 'scar the line where the statement or element starts, or use git kizu queue add --at <path>:<line>',
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
  return BY_EXT[ext];
}

export { formatScar };
