/**
 * A file parsed with tree-sitter: the tree of its own grammar and, for markup with sections
 * (languages.ts `sections`), the trees of the sections parsed with theirs (web-tree-sitter's
 * `includedRanges`, so every tree keeps the file's own offsets):
 * - `html` (HTML, Vue, Svelte): each `<script>` is parsed by its `lang`/`type` (TypeScript
 *   for `lang="ts"`, TSX for `lang="tsx"`, JavaScript otherwise; a JSON `type` has no comment
 *   syntax at all; a template or HTML `type` is parsed as HTML) and each `<style>` as CSS
 *   (SCSS for `lang="scss"`);
 * - `astro`: the front matter between the first two `---` lines as TypeScript, the rest as
 *   HTML with its sections;
 * - `php`: the text outside `<?php ?>` as HTML with its sections.
 *
 * Offsets are UTF-16 code units of the JavaScript string parsed (web-tree-sitter's
 * `startIndex`/`endIndex` for string input).
 */
import type { Node, Range, Tree, TreeCursor } from 'web-tree-sitter';
import { LANGUAGES, type Language } from './languages.js';
import { parserFor } from './grammars.js';

/** One parsed region of a document. */
interface Region {
  tree: Tree | null;
  lang: Language;
  /** The stretches of the text this tree covers; null: all of it. */
  ranges: Range[] | null;
}

/** A parsed document: the host region first, then the sections. */
export interface ParsedDocument {
  text: string;
  regions: Region[];
}

const JSON_SCRIPT = /(^|[/+])(json|importmap|speculationrules)$/i;
const MARKUP_SCRIPT = /(template|html)$/i;
const NO_COMMENTS: Language = LANGUAGES.json;

/** True for the node types of comments in every grammar used (`comment`, `line_comment`, `Comment`, `comments`, ...), not their parts. */
export function isCommentType(type: string): boolean {
  return /comment/i.test(type) && !/comment_content|_marker$|^doc_comment$/.test(type);
}

/**
 * Parents under which a grammar accepts a comment (one of its "extras", taken anywhere
 * between tokens) that the language does not:
 * - among JSX children `//` and `/* *\/` are text (only `{/* *\/}` is a comment there);
 * - inside an HTML or XML tag `<!--` starts attribute names (HTML Living Standard
 *   13.2.5.32, "before attribute name state") or is not well-formed (XML 1.0 §3.1);
 * - directly inside a string, raw string or here-document (tree-sitter-php takes a `#` line
 *   of a heredoc, tree-sitter-swift a `/* *\/` in a `"""` string, as comments); a comment
 *   between the parts of a concatenated string (C, Python) is one.
 */
const NOT_A_COMMENT_UNDER = /^(jsx_element|jsx_fragment|start_tag|end_tag|self_closing_tag|STag|ETag|EmptyElemTag)$|(^|_)(string|heredoc|nowdoc)(_literal|_body)?$/;

/** True when a comment under a node of type `parent` is not one (see NOT_A_COMMENT_UNDER). */
function notACommentUnder(parent: string): boolean {
  return NOT_A_COMMENT_UNDER.test(parent) && !/concatenat/.test(parent);
}

/**
 * HTML elements whose content is text whatever it holds, `<!--` included (HTML Living
 * Standard 13.1.2, raw text and escapable raw text elements, and the legacy ones the parser
 * treats alike: xmp, iframe, noembed, noframes, plaintext); the grammar reads comments there.
 */
const TEXT_ONLY_ELEMENTS = new Set(['textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** HTML elements whose text keeps its white space and line breaks (HTML Living Standard 13.2.6.4.7: `pre`, `listing`): a line added there shows. */
const PREFORMATTED = new Set(['pre', 'listing']);

/** The tag name of an HTML `element` node, lower case ('' when it has none). */
function tagName(element: Node): string {
  const tag = element.firstChild;
  return (tag?.type === 'start_tag' ? tag.children.find((c) => c?.type === 'tag_name')?.text : undefined)?.toLowerCase() ?? '';
}

/**
 * True when node `n` is a comment as the language means it: see NOT_A_COMMENT_UNDER and
 * TEXT_ONLY_ELEMENTS; and not inside a shell arithmetic expansion `$(( ))` or command
 * `(( ))`, where bash reads `#` as an operand.
 */
function isComment(n: Node): boolean {
  if (!isCommentType(n.type)) return false;
  const parent = n.parent;
  if (!parent) return true;
  if (notACommentUnder(parent.type)) return false;
  if (parent.type === 'element' && TEXT_ONLY_ELEMENTS.has(tagName(parent))) return false;
  for (let a: Node | null = parent; a; a = a.parent) if (ARITHMETIC.test(a.type)) return false;
  return true;
}

/** Shell arithmetic: `$(( ))` and `(( ))` (tree-sitter-bash node types). */
const ARITHMETIC = /^(arithmetic_expansion|compound_statement_arithmetic|arithmetic_command)$/;

/**
 * Parses `text` as `lang` (which has a grammar), sections included.
 * @throws Error when a grammar cannot be loaded (see grammars.ts parserFor).
 */
export async function parseDocument(lang: Language, text: string): Promise<ParsedDocument> {
  const doc: ParsedDocument = { text: lang.braces ? maskTagExpressions(text) : text, regions: [] };
  if (lang.sections === 'astro') {
    const fm = frontMatter(text);
    if (fm) {
      await addRegion(doc, LANGUAGES.typescript, [fm.inner]);
      const rest = fm.after.startIndex < text.length ? [fm.after] : [];
      if (rest.length) await addHtml(doc, rest);
      return doc;
    }
    await addHtml(doc, null);
    return doc;
  }
  if (lang.sections === 'html') {
    await addHtml(doc, null);
    return doc;
  }
  const host = await addRegion(doc, lang, null);
  if (lang.sections === 'php' && host) {
    const ranges: Range[] = [];
    const walk = (n: Node) => {
      if (n.type === 'text') ranges.push(rangeOf(n));
      else for (const c of n.children) if (c) walk(c);
    };
    walk(host.rootNode);
    if (ranges.length) await addHtml(doc, ranges);
  }
  return doc;
}

/**
 * `text` with each `{…}` expression within a tag (Svelte, Astro) turned into a quoted
 * attribute value for the HTML grammar: its braces become `"` and the double quotes in it
 * `'`; and with `<` and `>` inside a `{…}` (or Vue `{{ }}`) expression in text turned into
 * spaces. Same length, so every offset stays. The grammar would otherwise end the tag at the
 * `>` of `on:click={() => n++}`, or a text at the `>` of `{n >` (a scar after it would land
 * among the attributes or inside the expression). Quotes in the tag and strings in the
 * expression are followed; script and style contents are left as they are.
 */
export function maskTagExpressions(text: string): string {
  let out = '';
  let inTag = false;
  let textDepth = 0;
  let tag = '';
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!inTag) {
      // Text: inside a `{…}` expression (`{{ }}` too) `<` and `>` are operators.
      if (textDepth > 0) {
        if (c === '{') textDepth++;
        else if (c === '}') textDepth--;
        out += c === '<' || c === '>' ? ' ' : c;
        continue;
      }
      if (c === '{') textDepth = 1;
      else if (c === '<' && /[A-Za-z]/.test(text[i + 1] ?? '')) {
        inTag = true;
        tag = /^[A-Za-z][\w:-]*/.exec(text.slice(i + 1, i + 40))![0].toLowerCase();
      }
      out += c;
      continue;
    }
    if (depth > 0) {
      // Inside the expression: its strings may hold braces; its double quotes become single
      // ones, so that the whole expression reads as one quoted attribute value.
      if (quote) {
        if (c === '\\') {
          out += c + (text[i + 1] === '"' ? "'" : (text[i + 1] ?? ''));
          i++;
          continue;
        }
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'" || c === '`') quote = c;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        out += '"';
        continue;
      }
      out += c === '"' ? "'" : c;
      continue;
    }
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') {
      depth = 1;
      out += '"';
      continue;
    } else if (c === '>') {
      inTag = false;
      // A script or style holds code, not tags: copied as it is, up to its end tag.
      if (tag === 'script' || tag === 'style') {
        const end = text.slice(i + 1).search(new RegExp(`</${tag}`, 'i'));
        const stop = end === -1 ? text.length : i + 1 + end;
        out += c + text.slice(i + 1, stop);
        i = stop - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** Frees the trees (WebAssembly memory) of a document. */
export function disposeDocument(doc: ParsedDocument): void {
  for (const r of doc.regions) r.tree?.delete();
}

async function addRegion(doc: ParsedDocument, lang: Language, ranges: Range[] | null): Promise<Tree | null> {
  if (!lang.grammar) {
    doc.regions.push({ tree: null, lang, ranges });
    return null;
  }
  const parser = await parserFor(lang.grammar);
  const tree = parser.parse(doc.text, null, ranges ? { includedRanges: ranges } : undefined);
  doc.regions.push({ tree, lang, ranges });
  return tree;
}

/** Parses `ranges` (null: the whole text) as HTML, then each of its script and style elements by its own grammar. */
async function addHtml(doc: ParsedDocument, ranges: Range[] | null): Promise<void> {
  const tree = await addRegion(doc, LANGUAGES.html, ranges);
  if (!tree) return;
  const sections: { lang: Language; range: Range }[] = [];
  const walk = (n: Node) => {
    if (n.type === 'script_element' || n.type === 'style_element') {
      const start = n.children.find((c) => c?.type === 'start_tag');
      const raw = n.children.find((c) => c?.type === 'raw_text');
      if (raw && raw.endIndex > raw.startIndex) {
        const attrs = attributes(start ?? null);
        sections.push({ lang: n.type === 'style_element' ? styleLanguage(attrs) : scriptLanguage(attrs), range: rangeOf(raw) });
      }
      return;
    }
    for (const c of n.children) if (c) walk(c);
  };
  walk(tree.rootNode);
  for (const s of sections) {
    if (s.lang === LANGUAGES.html) await addHtml(doc, [s.range]);
    else await addRegion(doc, s.lang, [s.range]);
  }
}

function attributes(tag: Node | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of tag?.children ?? []) {
    if (a?.type !== 'attribute') continue;
    const name = a.children.find((c) => c?.type === 'attribute_name')?.text.toLowerCase();
    const value = a.children.find((c) => c?.type === 'quoted_attribute_value' || c?.type === 'attribute_value');
    const v = value?.type === 'quoted_attribute_value' ? (value.children.find((c) => c?.type === 'attribute_value')?.text ?? '') : (value?.text ?? '');
    if (name) out.set(name, v.trim());
  }
  return out;
}

function scriptLanguage(attrs: Map<string, string>): Language {
  const type = attrs.get('type') ?? '';
  if (JSON_SCRIPT.test(type)) return NO_COMMENTS;
  if (MARKUP_SCRIPT.test(type)) return LANGUAGES.html;
  const l = (attrs.get('lang') ?? '').toLowerCase();
  if (l === 'ts' || l === 'typescript') return LANGUAGES.typescript;
  if (l === 'tsx') return LANGUAGES.tsx;
  return LANGUAGES.javascript;
}

function styleLanguage(attrs: Map<string, string>): Language {
  return (attrs.get('lang') ?? '').toLowerCase() === 'scss' ? LANGUAGES.scss : LANGUAGES.css;
}

function rangeOf(n: Node): Range {
  return { startIndex: n.startIndex, endIndex: n.endIndex, startPosition: n.startPosition, endPosition: n.endPosition };
}

/** Astro front matter: the text between a first line `---` and the next `---` line. */
function frontMatter(text: string): { inner: Range; after: Range } | null {
  const m = /^---[ \t]*\r?\n/.exec(text);
  if (!m) return null;
  const close = /^---[ \t]*(\r?\n|$)/m;
  close.lastIndex = 0;
  const rest = text.slice(m[0].length);
  const c = close.exec(rest);
  if (!c) return null;
  const innerStart = m[0].length;
  const innerEnd = innerStart + c.index;
  const afterStart = innerEnd + c[0].length;
  return {
    inner: { startIndex: innerStart, endIndex: innerEnd, startPosition: pointAt(text, innerStart), endPosition: pointAt(text, innerEnd) },
    after: { startIndex: afterStart, endIndex: text.length, startPosition: pointAt(text, afterStart), endPosition: pointAt(text, text.length) },
  };
}

/** The tree-sitter point (row, column in UTF-16 units) of offset `off`. */
function pointAt(text: string, off: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < off; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: off - lineStart };
}

function covers(r: Region, off: number): boolean {
  return r.ranges === null || r.ranges.some((x) => x.startIndex <= off && off <= x.endIndex);
}

/** The language in force at offset `off`: the innermost section holding it, else the host's. */
export function languageAt(doc: ParsedDocument, off: number): Language {
  for (let i = doc.regions.length - 1; i >= 0; i--) if (covers(doc.regions[i], off)) return doc.regions[i].lang;
  return doc.regions[0].lang;
}

/**
 * The comment node that starts exactly at offset `off`, in any region, or null (a line of a
 * Haskell run of `--` lines, which the grammar joins into one node, counts as its own).
 * @returns its start and end offsets.
 */
export function commentAt(doc: ParsedDocument, off: number): { start: number; end: number } | null {
  for (const r of doc.regions) {
    if (!r.tree || !covers(r, off)) continue;
    const leaf: Node | null = r.tree.rootNode.descendantForIndex(off, off + 1);
    // tree-sitter-haskell joins consecutive `--` lines into one comment node: there, a line
    // of such a node that starts with `--` at `off` is a comment of its own (to its line end).
    if (leaf && r.lang.grammar === 'haskell' && isComment(leaf) && leaf.startIndex <= off && off < leaf.endIndex) {
      const joined = doc.text.slice(leaf.startIndex, leaf.endIndex);
      if (joined.split('\n').every((l) => /^[ \t]*--/.test(l)) && /(^|\n)[ \t]*$/.test(doc.text.slice(leaf.startIndex, off)) && doc.text.startsWith('--', off)) {
        const eol = doc.text.indexOf('\n', off);
        return { start: off, end: eol === -1 || eol > leaf.endIndex ? leaf.endIndex : eol };
      }
    }
    let n = leaf;
    while (n && n.startIndex === off) {
      if (isComment(n)) return { start: n.startIndex, end: n.endIndex };
      n = n.parent;
    }
  }
  return null;
}

/** True when offset `off` is inside a comment node of any region. */
export function inComment(doc: ParsedDocument, off: number): boolean {
  for (const r of doc.regions) {
    if (!r.tree || !covers(r, off)) continue;
    for (let n: Node | null = r.tree.rootNode.descendantForIndex(off, off + 1); n; n = n.parent) if (isCommentType(n.type)) return true;
  }
  return false;
}

/**
 * Among JSX children: the 0-based row where the run of JSX text holding offset `off` (or
 * ending just before it) starts its first non-blank line, or null. The grammar gives each line
 * of a JSX text its own node, so no node holds the run: this is where a scar goes that may not
 * split it.
 */
export function jsxTextRunStart(doc: ParsedDocument, off: number): number | null {
  for (const r of doc.regions) {
    if (!r.tree || !r.lang.jsx || !covers(r, off)) continue;
    const at = r.tree.rootNode.descendantForIndex(off, off + 1);
    let run: Node | null = null;
    if (at && /^jsx_(element|fragment)$/.test(at.type)) {
      // Between two children: the last one that starts before `off`.
      for (const c of at.children) if (c && c.startIndex < off) run = c;
    } else {
      let n: Node | null = at;
      while (n?.parent && !/^jsx_(element|fragment)$/.test(n.parent.type)) n = n.parent;
      if (!n?.parent) continue;
      run = n.startIndex < off ? n : n.previousSibling;
    }
    if (run?.type !== 'jsx_text') continue;
    while (run.previousSibling?.type === 'jsx_text') run = run.previousSibling;
    const lead = /^\s*/.exec(doc.text.slice(run.startIndex, run.endIndex))![0].length;
    return pointAt(doc.text, run.startIndex + lead).row;
  }
  return null;
}

/** The nodes that strictly contain offset `off` (start before it, end after it), innermost first, from every region. */
export function enclosing(doc: ParsedDocument, off: number): { row: number; type: string; start: number }[] {
  const out: { row: number; type: string; start: number }[] = [];
  for (const r of doc.regions) {
    if (!r.tree || !covers(r, off)) continue;
    for (let n: Node | null = r.tree.rootNode.descendantForIndex(off, off + 1); n; n = n.parent) {
      if (n.startIndex < off && off < n.endIndex && n.parent) out.push({ row: n.startPosition.row, type: n.type, start: n.startIndex });
    }
  }
  return out.sort((a, b) => b.start - a.start);
}

/** A JSX `{/* *\/}`: an expression container holding nothing but comments. */
function commentHolder(n: Node): boolean {
  if (n.type !== 'jsx_expression') return false;
  return n.children.every((c) => !c || c.type === '{' || c.type === '}' || isCommentType(c.type));
}

/** ERROR and MISSING nodes under `cursor`'s node, itself included. */
function errorsUnder(cursor: TreeCursor): number {
  let n = cursor.nodeType === 'ERROR' || cursor.nodeIsMissing ? 1 : 0;
  if (cursor.gotoFirstChild()) {
    do n += errorsUnder(cursor);
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return n;
}

/** The syntax errors of a document: ERROR and MISSING nodes in all its regions. */
export function syntaxErrors(doc: ParsedDocument): number {
  let n = 0;
  for (const r of doc.regions) {
    if (!r.tree) continue;
    const cursor = r.tree.walk();
    n += errorsUnder(cursor);
    cursor.delete();
  }
  return n;
}

/** The text of `n` with its comments cut out, white space and line breaks kept. */
function textWithoutComments(text: string, n: Node): string {
  const cuts: [number, number][] = [];
  const walk = (x: Node) => {
    if (isComment(x)) cuts.push([x.startIndex, x.endIndex]);
    else for (const c of x.children) if (c) walk(c);
  };
  walk(n);
  let out = '';
  let at = n.startIndex;
  for (const [s, e] of cuts) {
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at, n.endIndex);
}

/**
 * The tokens of `nodes` (siblings under a node of type `parentType`) other than comments,
 * each as type and text without surrounding whitespace and, when `withPath`, the types of the
 * nodes above it; the whole text of an HTML `<pre>` or `<listing>` without its comments is a
 * token too, and so is a `{/* *\/}` between two lines of JSX text. A token inside `skip` (a
 * section parsed by another grammar, whose tokens stand for it) is left out.
 */
function tokensOf(nodes: Node[], parentType: string, source: string, skip: Range[], withPath: boolean): string[] {
  const tokens: string[] = [];
  // A `{/* */}` between two lines of JSX text splits one text child into two (JSX joins the
  // lines of a text with a space), which changes what the element renders.
  let lastType = '';
  let holderSince = false;
  for (const node of nodes) {
    const cursor = node.walk();
    // Read through the cursor, without a Node object per node: a tree has one node per token.
    // `plain`: under a node whose comment children are text (a <textarea>, shell arithmetic).
    const visit = (parent: string, prefix: string, plain: boolean): void => {
      const type = cursor.nodeType;
      if (isCommentType(type) && !plain && !notACommentUnder(parent)) return;
      if (type === 'jsx_expression' && commentHolder(cursor.currentNode)) {
        holderSince = true;
        return;
      }
      let text = plain || ARITHMETIC.test(type);
      if (type === 'element') {
        const name = tagName(cursor.currentNode);
        text ||= TEXT_ONLY_ELEMENTS.has(name);
        // The text of a <pre> keeps its line breaks: a line added there shows.
        if (PREFORMATTED.has(name)) tokens.push(`pre|${textWithoutComments(source, cursor.currentNode)}`);
      }
      if (cursor.gotoFirstChild()) {
        const inner = withPath ? `${prefix}${type}>` : '';
        do visit(type, inner, text);
        while (cursor.gotoNextSibling());
        cursor.gotoParent();
        return;
      }
      const s = cursor.startIndex;
      const e = cursor.endIndex;
      if (skip.some((x) => x.startIndex < e && s < x.endIndex)) return;
      const t = source.slice(s, e).trim();
      if (t === '' && !cursor.nodeIsMissing) return;
      if (holderSince && type === 'jsx_text' && lastType === 'jsx_text') tokens.push('{/* */} between two JSX text lines');
      holderSince = false;
      lastType = type;
      tokens.push(`${prefix}${type}|${t}`);
    };
    visit(parentType, withPath ? `${parentType}>` : '', false);
    cursor.delete();
  }
  return tokens;
}

/**
 * True when `next`, which is `base` with text inserted (the scar line), means what `base`
 * means apart from comments: per region, no more syntax errors (ERROR and MISSING nodes; none
 * at all when the region had none), and the same tokens other than comments, each of the
 * same type and text and, when the region had no errors, under nodes of the same types.
 * The top-level nodes before the insertion, and after it, that are the same (type, offsets
 * moved by the inserted length, text) are taken as unchanged, so only the stretch around the
 * insertion is compared token by token.
 */
export function sameMeaning(base: ParsedDocument, next: ParsedDocument): boolean {
  if (base.regions.length !== next.regions.length) return false;
  let at = 0;
  const a = base.text;
  const b = next.text;
  while (at < a.length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  const shift = b.length - a.length;
  for (let k = 0; k < base.regions.length; k++) {
    const ra = base.regions[k];
    const rb = next.regions[k];
    if (ra.lang !== rb.lang || !ra.tree !== !rb.tree) return false;
    if (!ra.tree || !rb.tree) continue;
    const strict = !ra.tree.rootNode.hasError;
    const errors = (t: Tree) => {
      const cursor = t.walk();
      const n = errorsUnder(cursor);
      cursor.delete();
      return n;
    };
    if (strict ? rb.tree.rootNode.hasError : errors(rb.tree) > errors(ra.tree)) return false;
    const ca = ra.tree.rootNode.children.filter((c): c is Node => c !== null);
    const cb = rb.tree.rootNode.children.filter((c): c is Node => c !== null);
    const same = (x: Node, y: Node, d: number) =>
      x.type === y.type && x.startIndex + d === y.startIndex && x.endIndex + d === y.endIndex && a.slice(x.startIndex, x.endIndex) === b.slice(y.startIndex, y.endIndex);
    let i = 0;
    while (i < ca.length && i < cb.length && ca[i].endIndex <= at && same(ca[i], cb[i], 0)) i++;
    let j = 0;
    while (j < ca.length - i && j < cb.length - i && ca[ca.length - 1 - j].startIndex >= at && same(ca[ca.length - 1 - j], cb[cb.length - 1 - j], shift)) j++;
    const skipA = base.regions.slice(k + 1).flatMap((x) => x.ranges ?? []);
    const skipB = next.regions.slice(k + 1).flatMap((x) => x.ranges ?? []);
    const root = ra.tree.rootNode.type;
    const ta = tokensOf(ca.slice(i, ca.length - j), root, a, skipA, strict);
    const tb = tokensOf(cb.slice(i, cb.length - j), root, b, skipB, strict);
    if (ta.length !== tb.length || ta.some((t, n) => t !== tb[n])) return false;
  }
  return true;
}
