/**
 * Text-level editing of YAML hook-manager configs (lefthook, the pre-commit framework): the
 * file is parsed with the `yaml` package (YAML 1.2, source ranges kept) only to find where
 * an insertion goes and how the file indents; the edit itself is one insertion of new lines
 * at a line start, so that every other byte, comment and blank line stays as it was.
 */
import path from 'node:path';
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, parseDocument, type Document, type Node, type Pair } from 'yaml';
import { KizuError } from '../../errors.js';
import type { AddPlan, Insertion } from './types.js';

/** Parse options shared by every reader here: YAML 1.1 merge keys resolved, duplicate keys kept (we refuse them ourselves). */
const OPTS = { uniqueKeys: false, merge: true } as const;

/** A YAML file parsed for editing. */
export interface YamlText {
  text: string;
  /** The file's line break (`\r\n` when the text holds one, else `\n`). */
  eol: string;
  /** The first document; null when the text holds none (empty, comments only). */
  doc: Document.Parsed | null;
  /** How many documents the text holds (lefthook reads only the first; pre-commit refuses more than one). */
  documents: number;
}

/**
 * Parses `text`, the content of `file` (absolute path, used in the error message).
 * @throws KizuError (exit 2) naming `file`, line and column when the text is not valid YAML.
 */
export function parseYamlText(text: string, file: string): YamlText {
  const docs = parseAllDocuments(text, OPTS);
  const list = Array.isArray(docs) ? docs : [];
  for (const d of list) {
    const e = d.errors[0];
    if (!e) continue;
    const pos = e.linePos?.[0];
    const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
    const what = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new KizuError(`${where}: not valid YAML: ${what}`, {
      hint: `fix ${path.basename(file)} (its hook manager cannot read it either), then run git kizu init again`,
    });
  }
  return { text, eol: text.includes('\r\n') ? '\r\n' : '\n', doc: list[0] ?? null, documents: list.length };
}

/** Document `d` as plain data (merge keys resolved); undefined when it has errors or cannot be resolved (alias bombs). Never throws. */
export function docData(d: Document.Parsed | null): unknown {
  if (!d || d.errors.length) return undefined;
  try {
    return d.toJS({ maxAliasCount: 1000 });
  } catch {
    return undefined;
  }
}

/** The first document of `text` as plain data (see {@link docData}); undefined when it does not parse. Never throws. */
export function yamlData(text: string): unknown {
  return docData(parseDocument(text, OPTS));
}

/** Column (0-based, in UTF-16 units) of `offset` in `text`; a byte order mark opening the text takes no column. */
export function columnOf(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return offset - start - (start === 0 && text.startsWith('\uFEFF') ? 1 : 0);
}

/** The pairs of block map `m` whose key is the plain string `key`. */
export function pairsNamed(m: Node, key: string): Pair<Node, Node | null>[] {
  if (!isMap(m)) return [];
  return (m.items as Pair<Node, Node | null>[]).filter((p) => isScalar(p.key) && p.key.value === key);
}

/**
 * The pairs of block map `m` whose key is the plain string `key`, or a reason to leave the
 * file alone when one of them is not written `key:` alone at the start of its line (an
 * explicit `? key`, a key on several lines).
 */
export function keyPairs(text: string, m: Node, key: string): Pair<Node, Node | null>[] | string {
  const pairs = pairsNamed(m, key);
  for (const p of pairs) {
    const [start, end] = p.key.range!;
    const before = text.slice(text.lastIndexOf('\n', start - 1) + 1, start);
    if (before.replace('\uFEFF', '').trim() !== '' || text.slice(start, end).includes('\n')) return `\`${key}:\` is written as an explicit or multi-line key`;
  }
  return pairs;
}

/** True if block map `m` has a YAML merge key (`<<`; parsed with merge keys on, its value is a symbol). */
export function hasMergeKey(m: Node): boolean {
  return isMap(m) && m.items.some((p) => isScalar(p.key) && (p.key.source === '<<' || p.key.value === '<<'));
}

/** The top-level node of `doc`; null when there is none (no document, or only comments and markers). */
export function rootOf(doc: Document.Parsed | null): Node | null {
  const n = (doc?.contents ?? null) as Node | null;
  if (n && isScalar(n) && n.value === null && !n.anchor && !n.tag && n.range![0] === n.range![1]) return null;
  return n;
}

/** True for a pair written `key:` with nothing after it (an empty value: null, no `~`, no anchor, no tag). */
export function isEmptyValue(p: Pair<Node, Node | null>): boolean {
  const v = p.value;
  if (v === null) return true;
  return isScalar(v) && v.value === null && !v.anchor && !v.tag && v.range![0] === v.range![1];
}

/**
 * Why `n` cannot take new entries by inserting lines, or null when it can: a block mapping
 * (`seq` false) or block sequence (`seq` true) with no anchor, tag, alias or merge key
 * (`allowMerge`: merge keys allowed).
 */
export function uneditable(n: Node | null, seq: boolean, what: string, allowMerge = false): string | null {
  if (n === null) return `${what} is empty`;
  if (isAlias(n)) return `${what} is an alias (*${n.source}): the lines it points to are shared`;
  if (n.anchor) return `${what} carries an anchor (&${n.anchor}): other places reuse it`;
  if (n.tag) return `${what} has an explicit tag (${n.tag})`;
  if (seq ? !isSeq(n) : !isMap(n)) return `${what} is not a ${seq ? 'list' : 'mapping'}`;
  if ((n as { flow?: boolean }).flow) return `${what} is written in flow style (${seq ? '[...]' : '{...}'})`;
  if (!seq && !allowMerge && hasMergeKey(n)) return `${what} has a merge key (<<)`;
  return null;
}

/** Where the last item of collection `n` ends (deepest last value), as a source offset. */
function endOf(n: Node): number {
  if (isMap(n) && !n.flow && n.items.length) {
    const last = n.items[n.items.length - 1] as Pair<Node, Node | null>;
    return last.value ? endOf(last.value) : last.key.range![1];
  }
  if (isSeq(n) && !n.flow && n.items.length) return endOf(n.items[n.items.length - 1] as Node);
  return n.range![1];
}

/**
 * Where new lines go after node `n` (a key or a collection): the start of the line after the
 * one where `n` ends, past comment lines indented deeper than `minIndent` that follow it
 * (they belong to its last entry). `newline` is true when `n` ends on the last line of a
 * text without a final line break (the insertion then starts with one).
 */
export function lineAfter(text: string, n: Node, minIndent: number): { offset: number; newline: boolean } {
  let at = endOf(n);
  if (at === 0 || text[at - 1] !== '\n') {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return { offset: text.length, newline: true };
    at = nl + 1;
  }
  for (;;) {
    const m = /^([ \t]*)#[^\n]*(\n|$)/.exec(text.slice(at));
    if (!m || m[1].length <= minIndent) break;
    if (!m[2]) return { offset: text.length, newline: true };
    at += m[0].length;
  }
  return { offset: at, newline: false };
}

/** The line after the one holding key `p` (for a `key:` with an empty value). */
export function lineAfterKey(text: string, p: Pair<Node, Node | null>): { offset: number; newline: boolean } {
  const end = p.key.range![1];
  const nl = text.indexOf('\n', end);
  return nl < 0 ? { offset: text.length, newline: true } : { offset: nl + 1, newline: false };
}

/** Builds the insertion of `lines` (no line breaks in them) at a place from {@link lineAfter}. */
export function insertLines(at: { offset: number; newline: boolean }, lines: string[], eol: string): Insertion {
  const body = lines.join(eol);
  return { offset: at.offset, text: at.newline ? eol + body : body + eol };
}

/**
 * The indentation step of the file: the first positive difference between a block mapping's
 * key column and the column of its nested block mapping's keys (2 when there is none).
 */
export function indentStep(text: string, doc: Document.Parsed | null): number {
  const walk = (n: Node | null, col: number): number => {
    if (!n || (!isMap(n) && !isSeq(n)) || n.flow) return 0;
    for (const it of n.items as (Pair<Node, Node | null> | Node)[]) {
      if (isPair(it)) {
        const kc = columnOf(text, (it.key as Node).range![0]);
        const v = it.value as Node | null;
        if (v && isMap(v) && !v.flow && v.items.length) {
          const cc = columnOf(text, (v.items[0] as Pair<Node>).key.range![0]);
          if (cc > kc) return cc - kc;
        }
        const r = walk(v, kc);
        if (r) return r;
      } else {
        const r = walk(it as Node, col);
        if (r) return r;
      }
    }
    return 0;
  };
  return (doc && walk(doc.contents as Node | null, 0)) || 2;
}

/** `n` spaces. */
export const pad = (n: number): string => ' '.repeat(n);

/**
 * `key: value` as YAML lines at `indent`, `value` being a long one-line shell command: a
 * folded block scalar (`>-`) broken at each `; ` before `if`, `elif`, `else` or `fi` (each
 * break reads back as one space), the lines `step` deeper; a double-quoted scalar when that
 * would not read back exactly. Both read back as `value` in YAML 1.1 and 1.2.
 */
export function commandLines(indent: number, key: string, value: string, step: number): string[] {
  const parts = value.split(/; (?=(?:if|elif|else|fi)\b)/);
  const folded = [`${pad(indent)}${key}: >-`, ...parts.map((s, i) => pad(indent + step) + s + (i < parts.length - 1 ? ';' : ''))];
  const back = yamlData(folded.join('\n') + '\n') as Record<string, unknown> | undefined;
  if (back && back[key] === value && parts.every((s) => s !== '' && !/^\s|\s$/.test(s))) return folded;
  return [`${pad(indent)}${key}: ${JSON.stringify(value)}`];
}

/** True when a line of `text` is a YAML document end marker (`...`): lines appended after it would start a new document. */
export function hasDocumentEnd(text: string): boolean {
  return /^\.\.\.[ \t]*(#.*)?\r?$/m.test(text);
}

/**
 * The part both YAML adapters' plans share once `text` is parsed (`y`): an empty document gets
 * `block(0, step)` appended (after a line break if the file lacks a final one); a document
 * ending in `...` or a top level git-kizu cannot extend (uneditable: flow style, anchors...)
 * becomes `print(why)`.
 * @returns a finished plan, or the top-level node and the file's indentation step to go on with.
 */
export function planTopLevel(
  text: string,
  y: YamlText,
  block: (col: number, step: number) => string[],
  print: (why: string) => AddPlan,
): { plan: AddPlan } | { root: Node; step: number } {
  const doc = y.doc as Document.Parsed | null;
  const root = rootOf(doc);
  const step = indentStep(text, doc);
  if (root === null) {
    if (hasDocumentEnd(text)) return { plan: print('the document ends with `...`') };
    const nl = text === '' || text.endsWith('\n');
    return { plan: { kind: 'insert', insertion: insertLines({ offset: text.length, newline: !nl }, block(0, step), y.eol) } };
  }
  const bad = uneditable(root, false, 'the top level', true);
  return bad ? { plan: print(bad) } : { root, step };
}
