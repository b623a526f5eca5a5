/**
 * Chooses the comment syntax of a scar and the line it goes above: from the file's language
 * (syntax/languages.ts, the one table), the config override `scar.syntax`, and, for a
 * language with a grammar, the parse tree of the file with the scar in it (syntax/tree.ts).
 */
import path from 'node:path';
import { KizuError } from '../errors.js';
import { pathArg, quoteCStyle } from '../git/quote.js';
import { formatScar, isRecognisedSyntax, type CommentSyntax } from './format.js';
import { openFenceAfter, fencedLines, isMarkdownPath } from './parse.js';
import { languageOf, extensionOf, defaultSyntax, candidateSyntaxes, type Language } from '../syntax/languages.js';
import { tokenAround, tokensAround } from '../syntax/lexer.js';

const HASH: CommentSyntax = { open: '#', close: '' };
const HTML: CommentSyntax = { open: '<!--', close: '-->' };

/** `obj[key]` if `key` is an own property (file names like `toString` or `a.constructor` must not hit Object.prototype). */
function own<T>(obj: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export interface SyntaxChoice {
  syntax: CommentSyntax;
  /** 0-based index of the line the scar goes above: the line asked for, or a line above it (see chooseSyntax). */
  lineIndex: number;
  /** Set when the user should know about the choice (a guessed syntax, a moved scar). */
  warning?: string;
}

/**
 * Builds the file text with a scar inserted above 0-based line `lineIndex` using `syntax`:
 * the text (BOM removed), the offset of the scar's comment opener in it, and the offset where
 * the scar's line ends (its line ending excluded). Offsets are UTF-16 code units.
 */
export type ScarRender = (lineIndex: number, syntax: CommentSyntax) => { text: string; open: number; end: number };

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

/** The override for a file from `scar.syntax` (by exact base name, then extension), or undefined. */
function overrideFor(relPath: string, overrides: Record<string, string>): CommentSyntax | 'none' | undefined {
  const name = path.basename(relPath);
  const ext = extensionOf(relPath);
  const v = own(overrides, name) ?? (ext ? own(overrides, ext) : undefined);
  return v === undefined ? undefined : parseOverride(v);
}

/**
 * The comment syntax a scar in `relPath` takes by default (no parse, no context): the
 * `scar.syntax` override, else the language's line comment, else its block comment; 'none'
 * for formats without comments; null for a file type kizu does not know.
 */
export function baseSyntax(relPath: string, overrides: Record<string, string>, firstLine = ''): CommentSyntax | 'none' | null {
  const o = overrideFor(relPath, overrides);
  if (o !== undefined) return o;
  const lang = languageOf(relPath, firstLine);
  if (!lang) return null;
  return lang.none ? 'none' : (defaultSyntax(lang) ?? 'none');
}

/** Words for a node type in messages: "a template string" for `template_string`, "a string" for `string_content`. */
function describe(type: string): string {
  const named: Record<string, string> = {
    heredoc: 'here-document',
    heredoc_body: 'here-document',
    ERROR: 'code the parser cannot read',
    text: 'text',
    heredoc_redirect: 'here-document',
    raw_text: 'script or style element',
    STag: 'start tag',
    ETag: 'end tag',
    EmptyElemTag: 'empty element tag',
  };
  const words = (own(named, type) ?? type.replace(/_(content|fragment|body|start|inner)$/, '').replace(/^jsx_.*$/, 'JSX element').replace(/_/g, ' ')).toLowerCase().replace('jsx', 'JSX');
  if (words === 'text' || words.startsWith('code ')) return words;
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}

/**
 * Chooses the comment syntax of a scar asked for above line index `lineIndex` (0-based) of
 * `text`, the file's content (decoded UTF-8, BOM removed; lines end at `\r\n`, `\n` or a lone
 * `\r`, as lines.ts toLines counts them), and the line it goes above.
 *
 * With a grammar (languages.ts): each comment syntax of the language at that point (only
 * the `scar.syntax` override, when the file has one) (the section's language in HTML, Vue, Svelte, Astro
 * and PHP files; `{/* *\/}` among JSX children) is tried; one is taken when the file with the
 * scar re-parses with the scar as one comment node on its own line, no more syntax errors
 * than before, and every other token unchanged (same type and text; when the file parsed
 * without errors, also under the same nodes). When none fits (the line starts inside a
 * string, template, raw string, here-document, comment, tag or attribute list, or continues
 * the line before), the scar goes above the nearest line above where a node holding that
 * point starts (the string, the statement, the element) and fits there, else above the
 * nearest of the 20 lines above that fits (Ruby's and Perl's data section after `__END__`,
 * which no node holds); `warning` says so.
 *
 * Without a grammar: the language's comment (the override first; Markdown
 * `<!-- -->`, `#` in its front matter; an unknown type `#` with a warning), moved above the
 * line where it starts when the line starts inside a multi-line token of the language's
 * lexical rule (syntax/lexer.ts), inside an open `/* *\/` or `<!-- -->` comment (when the
 * scar has that closer), or continues a line ending with a backslash (`#` and `//` comments;
 * not in Dockerfiles, where Docker drops comment lines inside a continued instruction).
 *
 * Refused: line 1 when it must stay first (`#!` line, XML declaration, PHP opening tag,
 * Markdown front matter); a line inside a Markdown fenced code block (scan does not look
 * there); formats without comment syntax; a line with no fitting place above it.
 * @param render builds the file text with a scar in it (see ScarRender).
 * @throws KizuError (exit 2) for each refusal (message names `<path>:<line>`, hint names a
 *   line to use or `git kizu queue add --at`), and when a grammar cannot be loaded.
 */
export async function chooseSyntax(
  relPath: string,
  text: string,
  lineIndex: number,
  overrides: Record<string, string>,
  render: ScarRender,
): Promise<SyntaxChoice> {
  // A lone CR ends a line too (lines.ts toLines); as LF it keeps every offset the same.
  text = text.replace(/\r(?!\n)/g, '\n');
  const lines = text.split('\n');
  const lineNo = lineIndex + 1;
  const override = overrideFor(relPath, overrides);
  const lang = languageOf(relPath, (lines[0] ?? '').replace(/\r$/, ''));
  if (override === 'none' || (override === undefined && lang?.none)) throw noSyntaxError(relPath, lineNo);
  const role = firstLineRole(relPath, extensionOf(relPath), lines);
  if (lineIndex === 0 && role) {
    throw new KizuError(`${quoteCStyle(relPath)}:1: line 1 is ${role}, which must stay the first line of the file`, {
      hint: `scar line 2 instead: git kizu scar ${pathArg(relPath, `:2`)}`,
    });
  }
  if (lang?.grammar) return placeByGrammar(relPath, lang, text, lineIndex, role !== null, render, override);
  let syntax: CommentSyntax;
  let warning: string | undefined;
  if (override !== undefined) syntax = override;
  else if (lang?.markdown) {
    const fm = frontMatterEnd(lines);
    syntax = fm !== null && lineIndex >= 1 && lineIndex <= fm ? HASH : HTML;
  } else if (lang && defaultSyntax(lang)) syntax = defaultSyntax(lang)!;
  else {
    syntax = HASH;
    warning = `${quoteCStyle(relPath)}: unknown file type, using "#" comments (set scar.syntax in the config to choose)`;
  }
  return placeByLines(relPath, lang, lines, lineIndex, syntax, role !== null, warning);
}

/** Offset of the start of 0-based line `row` in `text` (the text's length past the last line). */
function lineOffset(text: string, row: number): number {
  let off = 0;
  for (let r = 0; r < row; r++) {
    const nl = text.indexOf('\n', off);
    if (nl === -1) return text.length;
    off = nl + 1;
  }
  return off;
}

/** How many lines above a line placeByGrammar tries when no node's start fits. */
const NEARBY_LINES = 20;

/** The grammar half of {@link chooseSyntax}. */
async function placeByGrammar(
  relPath: string,
  lang: Language,
  text: string,
  lineIndex: number,
  firstMustStay: boolean,
  render: ScarRender,
  override?: CommentSyntax,
): Promise<SyntaxChoice> {
  const { parseDocument, disposeDocument, sameMeaning, enclosing, languageAt, commentAt, inComment, jsxTextRunStart } = await import('../syntax/tree.js');
  let doc;
  try {
    doc = await parseDocument(lang, text);
  } catch (e) {
    throw new KizuError(`${quoteCStyle(relPath)}: cannot load the ${lang.name} grammar (${(e as Error).message})`, {
      hint: `reinstall git-kizu (npm install -g git-kizu), or use git kizu queue add --at ${pathArg(relPath, `:${lineIndex + 1}`)} "<text>"`,
    });
  }
  try {
    const at = lineOffset(text, lineIndex);
    const around = enclosing(doc, at);
    // JSX text has a node per line: the line where its run starts is a place too.
    const run = lang.jsx || lang.sections ? jsxTextRunStart(doc, at) : null;
    const rows = [lineIndex, ...new Set([...around.map((n) => n.row), ...(run !== null ? [run] : [])].filter((r) => r < lineIndex).sort((x, y) => y - x))];
    const lines = text.split('\n');
    // A line ending with an odd run of backslashes continues onto the next (C, Python, shell),
    // before comments are read: a comment line there would end the statement or break it.
    // The grammars take a comment right after the continuation, so this is checked here.
    const continued = (row: number) => {
      if (lang.backslashEndsNothing || row < 1) return false;
      const m = /(^|[^\\])(\\\\)*\\[ \t]*\r?$/.exec(lines[row - 1]);
      // A comment line ending with a backslash continues nothing (except in C, where the
      // comment goes on: the grammar sees that, and the scar would be part of the comment).
      return m !== null && !inComment(doc, lineOffset(text, row - 1) + lines[row - 1].lastIndexOf('\\'));
    };
    // Beside a grammar, the lexical rule covers tokens the grammar misses (Perl here-documents).
    const lexed = lang.lex ? tokensAround(lang.lex, lines) : null;
    const lexToken = lexed?.[lineIndex] ?? null;
    if (lexToken && lexToken.startLine - 1 < lineIndex && !rows.includes(lexToken.startLine - 1)) rows.splice(1, 0, lexToken.startLine - 1);
    // When no node's start fits (a line of Ruby's or Perl's data section after __END__, which
    // no node holds), the nearest of the lines just above that fits: tried only where the scar
    // would be refused otherwise.
    const nearby = Array.from({ length: Math.min(lineIndex, NEARBY_LINES) }, (_, k) => lineIndex - 1 - k).filter((r) => !rows.includes(r));
    for (const row of [...rows, ...nearby]) {
      if ((row === 0 && firstMustStay) || continued(row) || (lexed?.[row] && lexed[row]!.startLine - 1 < row)) continue;
      // The language where the scar's text would start: past the line's indentation.
      const lineAt = lineOffset(text, row);
      const indent = /^[ \t]*/.exec(text.slice(lineAt, lineAt + 200))![0].length;
      // Only what scan reads as a scar (Haskell's `{- -}` is a comment, not a scar opener).
      const syntaxes = override ? [override] : candidateSyntaxes(languageAt(doc, lineAt + indent)).filter(isRecognisedSyntax);
      for (const syntax of syntaxes) {
        const r = render(row, syntax);
        const next = await parseDocument(lang, r.text.replace(/\r(?!\n)/g, '\n'));
        try {
          const c = commentAt(next, syntax.open === '{/*' ? r.open + 1 : r.open);
          // The comment may hold its line ending (some grammars end a line comment after it), no more.
          const eol = r.text.startsWith('\r\n', r.end) ? 2 : r.end < r.text.length ? 1 : 0;
          if (!c || c.end > r.end + eol) continue;
          if (!sameMeaning(doc, next)) continue;
          if (row === lineIndex) return { syntax, lineIndex: row };
          // Named by the innermost construct starting on that line, not its parts (a string, not its content).
          const inner = rows.includes(row) ? (around.find((n) => n.row === row && !/_(content|fragment|start|inner|chars)$/.test(n.type)) ?? around.find((n) => n.row === row) ?? around[0]) : undefined;
          return {
            syntax,
            lineIndex: row,
            warning: `${quoteCStyle(relPath)}:${lineIndex + 1}${
              lexToken && lexToken.startLine - 1 < lineIndex
                ? ` is inside ${lexToken.what} (from line ${lexToken.startLine}), where`
                : continued(lineIndex) && !/string|heredoc|comment|template|scalar/.test(around[0]?.type ?? '')
                  ? ` continues line ${lineIndex} (it ends with a backslash), where`
                  : row === run
                    ? ` is inside JSX text (from line ${run + 1}), where`
                    : inner
                      ? ` is inside ${describe(inner.type)} (from line ${inner.row + 1}), where`
                      : ': there'
            } a comment would change the ${lang.name} code; the scar went above line ${row + 1} instead`,
          };
        } finally {
          disposeDocument(next);
        }
      }
    }
    if (override) {
      const shown = `${override.open}${override.close ? ' ' + override.close : ''}`;
      throw new KizuError(`${quoteCStyle(relPath)}:${lineIndex + 1}: scar.syntax sets "${shown}" for this file, which is not a comment of ${lang.name} here nor on the lines above (scan would not see the scar)`, {
        hint: `remove the scar.syntax entry for this file type, or use git kizu queue add --at ${pathArg(relPath, `:${lineIndex + 1}`)} "<text>"`,
      });
    }
    throw new KizuError(`${quoteCStyle(relPath)}:${lineIndex + 1}: a comment cannot be placed above this line, nor above the lines where the code around it starts or the ${NEARBY_LINES} lines above it, without changing the ${lang.name} code`, {
      hint: `use git kizu queue add --at ${pathArg(relPath, `:${lineIndex + 1}`)} "<text>" instead`,
    });
  } finally {
    disposeDocument(doc);
  }
}

/** The line-rule half of {@link chooseSyntax}, for `syntax` in a file without a grammar (or with an override). */
function placeByLines(
  relPath: string,
  lang: Language | null,
  lines: string[],
  lineIndex: number,
  syntax: CommentSyntax,
  firstMustStay: boolean,
  warning: string | undefined,
): SyntaxChoice {
  const name = path.basename(relPath);
  const lineNo = lineIndex + 1;
  if (lang?.markdown) {
    const fence = openFenceAfter(lines, lineIndex);
    if (fence !== null) {
      throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line is inside a fenced code block (opened at line ${fence}), where git kizu scan does not look for scars`, {
        hint: `scar the fence instead: git kizu scar ${pathArg(relPath, `:${fence}`)}, or use git kizu queue add --at ${pathArg(relPath, `:${lineNo}`)} "<text>"`,
      });
    }
  }
  const { open, close } = syntax;
  const dockerfile = lang?.lex === 'dockerfile' || /^(Dockerfile|Containerfile)(\..*)?$/.test(name);
  let idx = lineIndex;
  let why: string | null = null;
  for (;;) {
    // A multi-line token of the language's lexical rule.
    const tok = lang?.lex ? tokenAround(lang.lex, lines, idx) : null;
    if (tok && tok.startLine - 1 < idx) {
      const cont = /^a line continued with (.*)$/.exec(tok.what);
      why ??= cont ? `continues line ${idx} (it ends with ${cont[1]})` : `is inside ${tok.what} (from line ${tok.startLine})`;
      idx = tok.startLine - 1;
      continue;
    }
    // A line ending with a backslash continues onto the next, unless it is a comment line.
    if (!close && (open.startsWith('#') || open.startsWith('//')) && !dockerfile) {
      const continues = (n: number) => n >= 1 && n <= lines.length && /\\[ \t]*\r?$/.test(lines[n - 1]) && !lines[n - 1].trimStart().startsWith(open);
      if (continues(idx)) {
        let start = idx;
        while (continues(start - 1)) start--;
        why ??= `continues line ${idx} (it ends with a backslash)`;
        idx = start - 1;
        continue;
      }
    }
    if (close === '*/' || close === '-->') {
      // Text before the insertion point; in Markdown without fenced code and code spans,
      // where comment openers are literal text.
      const code = lang?.markdown ? fencedLines(lines) : null;
      const before = lines
        .slice(0, idx)
        .map((l, k) => (!code ? l : code[k] ? '' : l.replace(/`+[^`]*`+/g, '')))
        .join('\n');
      const opener = close === '*/' ? '/*' : '<!--';
      const at = before.lastIndexOf(opener);
      if (at !== -1 && before.indexOf(close, at + opener.length) === -1) {
        const startLine = before.slice(0, at).split('\n').length;
        why ??= `is inside a ${opener} ${close} comment (opened at line ${startLine}), which the scar's ${close} would end early`;
        idx = startLine - 1;
        continue;
      }
    }
    if (lang?.markdown && syntax.close === '-->') {
      // An HTML comment line interrupts a paragraph, and ends a list item or table it is not
      // indented into (CommonMark 0.31 §4.6, HTML blocks of kind 2; GFM tables): above a line
      // that continues a block, the scar goes above the block's first line.
      const blank = (n: number) => (lines[n] ?? '').trim() === '';
      const boundary = (n: number) => /^ {0,3}(#{1,6}([ \t]|\r?$)|`{3,}|~{3,}|<!--)/.test(lines[n]);
      if (idx >= 1 && idx < lines.length && !blank(idx) && !blank(idx - 1) && !boundary(idx - 1) && !boundary(idx)) {
        let start = idx - 1;
        while (start >= 1 && !blank(start - 1) && !boundary(start - 1)) start--;
        why ??= `is inside a paragraph, list or table (from line ${start + 1}), which a comment line would split`;
        idx = start;
        continue;
      }
    }
    break;
  }
  if (idx === lineIndex) return { syntax, lineIndex: idx, warning };
  if (idx === 0 && firstMustStay) {
    throw new KizuError(`${quoteCStyle(relPath)}:${lineNo}: this line ${why}, and line 1, where it starts, must stay the first line of the file`, {
      hint: `use git kizu queue add --at ${pathArg(relPath, `:${lineNo}`)} "<text>" instead`,
    });
  }
  const moved = `${quoteCStyle(relPath)}:${lineNo} ${why}; the scar went above line ${idx + 1} instead`;
  return { syntax, lineIndex: idx, warning: warning ? `${warning}\n${moved}` : moved };
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

export { formatScar };
