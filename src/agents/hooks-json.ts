/**
 * Adds and removes git-kizu's hooks in an agent's JSON hook settings of the grouped shape
 * that Claude Code, Codex CLI and Gemini CLI share, preserving everything else byte for byte.
 *
 * The format (Claude Code docs "Hooks reference", Configuration/Structure; Codex
 * `hooks.json`; Gemini `settings.json` key `hooks`):
 * ```json
 * {"hooks": {"<Event>": [{"matcher": "<tool names or regex, tool events only>",
 *                          "hooks": [{"type": "command", "command": "<shell>", "timeout": <n>}]}]}}
 * ```
 * (the timeout's unit is the agent's: seconds for Claude Code and Codex, milliseconds for Gemini).
 *
 * Every entry runs the one hook runner script with git-kizu's name of the event as its
 * argument (`kizu-hook.sh stop`, then the agent for agents other than Claude Code), or for
 * a Claude Code local scope the launcher (`.../kizu/git-kizu hook stop`). Our entries are
 * recognised by that script or launcher and the event in `command`, or by the per-event
 * script an earlier version registered for it (`kizu-stop.sh`, ...), so re-running init
 * replaces them (and upgrades an older install) instead of adding duplicates. One event may
 * hold several of our groups (PostToolUse: the review hook and, in a group of its own, the
 * async journal hook); each is matched by its argument.
 *
 * Edits are computed on the parse tree (jsonc-parser `parseTree`) and applied as text edits
 * (`applyEdits`) that touch only the inserted/removed/replaced span: new members use the
 * file's own indentation unit and line ending (a single-line container gets a single-line
 * member), an empty container is expanded, and removing the last member collapses it back
 * to `{}` / `[]`. So insert-then-remove restores the original bytes. (jsonc-parser's own
 * `modify` reformats whole lines around an edit, and its array-tail removal drops the
 * wrong characters on single-line arrays, so it is not used for these edits.)
 */
import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Edit,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { KizuError } from '../errors.js';

/** One command hook handler. */
export interface CommandHook {
  type: 'command';
  command: string;
  /**
   * Run in the background without blocking the agent (Claude Code hooks reference, command
   * hook field `async`, Claude Code >= 2.1.0); its output cannot block or add context.
   */
  async?: boolean;
  /** When the agent cancels the command (its unit: seconds for Claude Code and Codex, milliseconds for Gemini). */
  timeout: number;
  /** A name for the handler (Gemini CLI shows it). */
  name?: string;
}

/** One element of an event's array: optional matcher + handlers. */
export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
}

/** What git-kizu registers for one event. */
export interface KizuEntry {
  /** The agent's hook event name (Claude Code: `Stop`, `SubagentStop`, `PostToolUse`, `UserPromptSubmit`). */
  event: string;
  /** The git-kizu hook the group runs (the runner script's argument). */
  hook: AgentEvent;
  /** The exact group we want in the event's array. */
  group: MatcherGroup;
}

export { KIZU_SCRIPTS, anyOurs, runsHook, type CommandTest } from './hook-commands.js';
import { anyOurs, runsHook, type CommandTest } from './hook-commands.js';
import type { AgentEvent } from '../hooks/contract.js';

// ---------------------------------------------------------------------------------------
// Parsing and validation

/** How a JSON file is laid out, so that inserted text looks like the rest. */
export interface Layout {
  /** One indentation level: '\t' or N spaces. */
  unit: string;
  /** Line ending: '\r\n' or '\n'. */
  eol: string;
}

/** Detects the indentation unit (first indented line; default 2 spaces) and EOL (CRLF if any). */
export function detectLayout(text: string): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text);
  let unit = '  ';
  if (m) unit = m[1].startsWith('\t') ? '\t' : ' '.repeat(m[1].length);
  return { unit, eol };
}

function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

const TYPE_NAMES: Record<string, string> = { object: 'an object', array: 'an array', string: 'a string', number: 'a number', boolean: 'a boolean', null: 'null' };

function typeOf(n: Node): string {
  return TYPE_NAMES[n.type] ?? n.type;
}

/**
 * What a settings file may hold beyond strict JSON with only event arrays under `hooks`:
 * `comments` (// and /* *\/, as Gemini CLI's settings.json allows) and `otherHookKeys`
 * (members of `hooks` that are not event arrays, such as Gemini CLI's `enabled`,
 * `disabled` and `notifications`: left alone).
 */
export interface Dialect {
  comments: boolean;
  otherHookKeys: boolean;
}

/** Claude Code's and Codex's settings: strict JSON, every member of `hooks` an event array. */
export const STRICT: Dialect = { comments: false, otherHookKeys: false };

/**
 * Parses a settings file as strict JSON (no comments, no trailing commas: what Claude Code
 * reads; with `dialect.comments`, comments allowed) and checks the parts git-kizu edits: the
 * top level and `hooks` must be objects, `hooks.<event>` arrays (with
 * `dialect.otherHookKeys`, members that are not arrays are skipped).
 * @param file the path, for messages.
 * @returns the parse tree (root object node).
 * @throws KizuError (exit 2) naming the file and, for syntax errors, the 1-based line and
 *   column of the first error.
 */
export function parseSettings(file: string, text: string, dialect: Dialect = STRICT): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: !dialect.comments, allowTrailingComma: false, allowEmptyContent: false });
  const hint = `fix or remove ${file}, then run the command again (nothing was changed)`;
  if (text.startsWith('\uFEFF')) {
    throw new KizuError(`${file} is not valid JSON: it starts with a byte order mark (BOM), which JSON does not allow`, {
      hint: `save it as UTF-8 without a BOM, then run the command again (nothing was changed)`,
    });
  }
  if (text.trim() === '') {
    throw new KizuError(`${file} is empty, which is not valid JSON`, { hint: `write {} into it (or remove it), then run the command again (nothing was changed)` });
  }
  if (errors.length) {
    const e = errors[0];
    const { line, column } = lineCol(text, e.offset);
    throw new KizuError(`${file} is not valid JSON: ${printParseErrorCode(e.error)} at line ${line}, column ${column}`, { hint });
  }
  try {
    if (!dialect.comments) JSON.parse(text);
  } catch (e) {
    throw new KizuError(`${file} is not valid JSON: ${(e as Error).message}`, { hint });
  }
  if (!root || root.type !== 'object') {
    throw new KizuError(`${file}: the top level is ${root ? typeOf(root) : 'empty'}, expected a JSON object`, { hint });
  }
  const hooks = findNodeAtLocation(root, ['hooks']);
  if (hooks) {
    if (hooks.type !== 'object') throw new KizuError(`${file}: "hooks" is ${typeOf(hooks)}, expected an object of hook events`, { hint });
    for (const prop of hooks.children ?? []) {
      const v = prop.children?.[1];
      if (v && v.type !== 'array' && !dialect.otherHookKeys) {
        throw new KizuError(`${file}: "hooks.${prop.children![0].value}" is ${typeOf(v)}, expected an array of matcher groups`, { hint });
      }
    }
  }
  return root;
}

// ---------------------------------------------------------------------------------------
// Text edits that touch only what they change

function lineIndentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** True if only blanks precede `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

function pretty(value: unknown, indent: string, l: Layout): string {
  return JSON.stringify(value, null, l.unit).split('\n').join(l.eol + indent);
}

function memberText(key: string | null, value: unknown, indent: string, l: Layout, multiline: boolean): string {
  const v = multiline ? pretty(value, indent, l) : JSON.stringify(value);
  return key === null ? v : `${JSON.stringify(key)}: ${v}`;
}

/** Edit adding a member (`key` for objects, null for arrays) at the end of container `c`. */
export function appendEdit(text: string, c: Node, key: string | null, value: unknown, l: Layout): Edit {
  const kids = c.children ?? [];
  const base = lineIndentAt(text, c.offset);
  if (!kids.length) {
    const inner = base + l.unit;
    const [open, close] = c.type === 'object' ? ['{', '}'] : ['[', ']'];
    return { offset: c.offset, length: c.length, content: `${open}${l.eol}${inner}${memberText(key, value, inner, l, true)}${l.eol}${base}${close}` };
  }
  const last = kids[kids.length - 1];
  const multiline = /[\r\n]/.test(text.slice(c.offset, c.offset + c.length));
  if (!multiline) return { offset: last.offset + last.length, length: 0, content: `, ${memberText(key, value, '', l, false)}` };
  const indent = startsLine(text, last.offset) ? lineIndentAt(text, last.offset) : base + l.unit;
  return { offset: last.offset + last.length, length: 0, content: `,${l.eol}${indent}${memberText(key, value, indent, l, true)}` };
}

/** Edit removing member `i` of container `c` (exact inverse of {@link appendEdit}). */
export function removeEdit(c: Node, i: number): Edit {
  const kids = c.children!;
  if (kids.length === 1) return { offset: c.offset, length: c.length, content: c.type === 'object' ? '{}' : '[]' };
  if (i === kids.length - 1) {
    const prev = kids[i - 1];
    const end = kids[i].offset + kids[i].length;
    return { offset: prev.offset + prev.length, length: end - (prev.offset + prev.length), content: '' };
  }
  return { offset: kids[i].offset, length: kids[i + 1].offset - kids[i].offset, content: '' };
}

/** Edit replacing the value node `n` by `value`, laid out like its surroundings. */
export function replaceEdit(text: string, n: Node, value: unknown, l: Layout): Edit {
  const parent = n.parent?.type === 'property' ? n.parent.parent : n.parent;
  const multiline = !parent || /[\r\n]/.test(text.slice(parent.offset, parent.offset + parent.length));
  return { offset: n.offset, length: n.length, content: multiline ? pretty(value, lineIndentAt(text, n.offset), l) : JSON.stringify(value) };
}

function apply(text: string, e: Edit): string {
  return applyEdits(text, [e]);
}

// ---------------------------------------------------------------------------------------
// Recognising our handlers

function isOurHandler(h: unknown, ours: CommandTest): boolean {
  if (!h || typeof h !== 'object') return false;
  const cmd = (h as { command?: unknown }).command;
  return typeof cmd === 'string' && ours(cmd);
}

function groupHandlers(g: Node): Node | undefined {
  return g.type === 'object' ? findNodeAtLocation(g, ['hooks']) : undefined;
}

function node(text: string, path: JSONPath): Node | undefined {
  const root = parseTree(text, [], { disallowComments: true });
  return root ? findNodeAtLocation(root, path) : undefined;
}

/**
 * The first edit that removes one of our handlers from event array `arrPath`, skipping the
 * group at index `keep` (null: skip none). A group left without handlers is removed whole.
 */
function nextRemoval(text: string, arrPath: JSONPath, ours: CommandTest, keep: number | null): Edit | null {
  const arr = node(text, arrPath);
  if (!arr || arr.type !== 'array') return null;
  const groups = arr.children ?? [];
  for (let gi = 0; gi < groups.length; gi++) {
    if (gi === keep) continue;
    const hs = groupHandlers(groups[gi]);
    if (!hs || hs.type !== 'array') continue;
    const kids = hs.children ?? [];
    const mine = kids.map((k) => isOurHandler(getNodeValue(k), ours));
    if (!mine.some(Boolean)) continue;
    if (mine.every(Boolean)) return removeEdit(arr, gi);
    return removeEdit(hs, mine.indexOf(true));
  }
  return null;
}

/** Index of the first group made only of our handlers (at least one), or -1. */
function pureGroupIndex(arr: Node, ours: CommandTest): number {
  return (arr.children ?? []).findIndex((g) => {
    const hs = groupHandlers(g);
    const kids = hs?.type === 'array' ? (hs.children ?? []) : [];
    return kids.length > 0 && kids.every((k) => isOurHandler(getNodeValue(k), ours));
  });
}

// ---------------------------------------------------------------------------------------
// Merge and removal

/** Result of {@link mergeKizuHooks}. */
export interface MergeResult {
  /** The new file text. */
  text: string;
  /** True if `text` differs from the input. */
  changed: boolean;
  /** The file did not exist (input null) and is created. */
  createdFile: boolean;
  /** There was no `hooks` key and it was added. */
  createdHooksKey: boolean;
  /** Events whose array did not exist and was added. */
  createdEvents: string[];
  /** Events that held none of our handlers before (our group was added, not replaced). */
  addedEvents: string[];
}

/**
 * Registers `entries` in a settings file's text. For each event: the first group made only
 * of our handlers for the entry's hook (see {@link KizuEntry}) is replaced by the wanted group if it differs, other groups'
 * copies of our handler are removed, and if there was none the group is appended. Other keys,
 * other events and the user's own groups keep their exact bytes. Idempotent: merging the
 * result again returns it unchanged.
 * @param file path, for error messages.
 * @param text the current file content, or null if the file does not exist (a new file is
 *   laid out with 2-space indent and LF, ending with a newline).
 * @throws KizuError (exit 2) if `text` is not valid JSON or has the wrong shape (see
 *   {@link parseSettings}).
 */
export function mergeKizuHooks(file: string, text: string | null, entries: KizuEntry[], dialect: Dialect = STRICT): MergeResult {
  const createdFile = text === null;
  let t = text ?? '{}\n';
  const root = parseSettings(file, t, dialect);
  const l = detectLayout(t);
  const createdHooksKey = !findNodeAtLocation(root, ['hooks']);
  const createdEvents: string[] = [];
  const addedEvents: string[] = [];
  if (createdHooksKey) {
    const value: Record<string, MatcherGroup[]> = {};
    for (const e of entries) (value[e.event] ??= []).push(e.group);
    t = apply(t, appendEdit(t, root, 'hooks', value, l));
    createdEvents.push(...Object.keys(value));
    addedEvents.push(...Object.keys(value));
  } else {
    for (const e of entries) {
      const arrPath = ['hooks', e.event];
      const arr = node(t, arrPath);
      if (!arr) {
        t = apply(t, appendEdit(t, node(t, ['hooks'])!, e.event, [e.group], l));
        createdEvents.push(e.event);
        if (!addedEvents.includes(e.event)) addedEvents.push(e.event);
        continue;
      }
      const ours = runsHook(e.hook);
      const hadOurs = (arr.children ?? []).some((g) => {
        const hs = groupHandlers(g);
        return hs?.type === 'array' && (hs.children ?? []).some((k) => isOurHandler(getNodeValue(k), ours));
      });
      if (!hadOurs && !addedEvents.includes(e.event)) addedEvents.push(e.event);
      for (let guard = 0; guard < 1000; guard++) {
        const a = node(t, arrPath)!;
        const keep = pureGroupIndex(a, ours);
        const rm = nextRemoval(t, arrPath, ours, keep === -1 ? null : keep);
        if (rm) {
          t = apply(t, rm);
          continue;
        }
        if (keep === -1) t = apply(t, appendEdit(t, a, null, e.group, l));
        else {
          const g = a.children![keep];
          if (!isDeepStrictEqual(plain(getNodeValue(g)), e.group)) t = apply(t, replaceEdit(t, g, e.group, l));
        }
        break;
      }
    }
  }
  return { text: t, changed: t !== (text ?? '{}\n') || createdFile, createdFile, createdHooksKey, createdEvents, addedEvents };
}

/** What to clean up after our handlers are removed. */
export interface RemoveOptions {
  /** Events to remove our handlers from; null: every event. */
  events: string[] | null;
  /**
   * Event arrays to delete when they end up empty; 'emptied': those that our removal emptied
   * (used when there is no install record).
   */
  dropEvents: string[] | 'emptied';
  /** Delete `hooks` when it ends up empty: true, false, or 'emptied' (only if we emptied it). */
  dropHooksKey: boolean | 'emptied';
}

/** Result of {@link removeKizuHooks}. */
export interface RemoveResult {
  text: string;
  /** True if `text` differs from the input. */
  changed: boolean;
  /** Events our handlers were removed from. */
  removedFrom: string[];
  /** True if the remaining document is an empty object `{}`. */
  empty: boolean;
}

/**
 * Removes every handler whose command names one of our scripts (a group left without
 * handlers goes too), then the containers `opts` says to drop. Everything else keeps its
 * exact bytes; a container emptied by the removal collapses to `{}` / `[]`.
 * @throws KizuError (exit 2) if `text` is not valid JSON or has the wrong shape.
 */
export function removeKizuHooks(file: string, text: string, opts: RemoveOptions, dialect: Dialect = STRICT): RemoveResult {
  const root = parseSettings(file, text, dialect);
  let t = text;
  const removedFrom: string[] = [];
  const hooks = findNodeAtLocation(root, ['hooks']);
  // Event arrays only (a dialect's other members of `hooks` are left alone).
  const events = (hooks?.children ?? []).filter((p) => p.children?.[1]?.type === 'array').map((p) => String(p.children![0].value));
  for (const ev of events) {
    if (opts.events && !opts.events.includes(ev)) continue;
    let removed = false;
    for (let guard = 0; guard < 1000; guard++) {
      const rm = nextRemoval(t, ['hooks', ev], anyOurs, null);
      if (!rm) break;
      t = apply(t, rm);
      removed = true;
    }
    if (!removed) continue;
    removedFrom.push(ev);
  }
  for (const ev of events) {
    const drop = opts.dropEvents === 'emptied' ? removedFrom.includes(ev) : opts.dropEvents.includes(ev);
    const arr = node(t, ['hooks', ev]);
    if (drop && arr && arr.type === 'array' && !(arr.children ?? []).length) {
      const h = node(t, ['hooks'])!;
      t = apply(t, removeEdit(h, h.children!.findIndex((p) => p.children![0].value === ev)));
    }
  }
  const h = node(t, ['hooks']);
  const dropHooks = opts.dropHooksKey === 'emptied' ? removedFrom.length > 0 : opts.dropHooksKey;
  if (dropHooks && h && h.type === 'object' && !(h.children ?? []).length) {
    const r = node(t, [])!;
    t = apply(t, removeEdit(r, r.children!.findIndex((p) => p.children![0].value === 'hooks')));
  }
  const r = node(t, [])!;
  return { text: t, changed: t !== text, removedFrom, empty: r.type === 'object' && !(r.children ?? []).length };
}

/**
 * True if the settings text holds any handler naming one of our scripts (any event).
 * @throws KizuError (exit 2) if `text` is not valid JSON or has the wrong shape.
 */
export function hasKizuHooks(file: string, text: string, dialect: Dialect = STRICT): boolean {
  return kizuHookEvents(file, text, dialect).length > 0;
}

/**
 * The events whose groups hold a handler naming one of our scripts, in the file's order
 * (`["Stop", "SubagentStop", "PostToolUse", ...]`); empty when none.
 * @throws KizuError (exit 2) if `text` is not valid JSON or has the wrong shape.
 */
export function kizuHookEvents(file: string, text: string, dialect: Dialect = STRICT): string[] {
  const root = parseSettings(file, text, dialect);
  const v = getNodeValue(root) as { hooks?: Record<string, unknown> };
  const out: string[] = [];
  for (const [event, groups] of Object.entries(v.hooks ?? {})) {
    for (const g of Array.isArray(groups) ? groups : []) {
      const hs = (g as { hooks?: unknown })?.hooks;
      if (Array.isArray(hs) && hs.some((x) => isOurHandler(x, anyOurs))) {
        out.push(event);
        break;
      }
    }
  }
  return out;
}

/**
 * A parsed value as plain objects: jsonc-parser's `getNodeValue` builds objects without a
 * prototype, which `isDeepStrictEqual` never finds equal to an object literal.
 */
export function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
