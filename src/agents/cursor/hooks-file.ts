/**
 * Adds and removes git-kizu's hooks in a Cursor `hooks.json`, preserving everything else
 * byte for byte. Cursor's shape is flat: each event maps to an array of hook definitions,
 * without the matcher groups of Claude Code's (Cursor hooks reference,
 * https://cursor.com/docs/hooks, "Configuration" and "Per-Script Configuration Options"):
 * ```json
 * {"version": 1,
 *  "hooks": {"<event>": [{"command": "<shell>", "timeout": <seconds>, "loop_limit": <n|null>}]}}
 * ```
 * A definition is ours when its `command` runs the hook runner (`kizu-hook.sh <hook> ...`)
 * or a launcher's `hook <hook>` (agents/hooks-json.ts `runsHook`, `anyOurs`). The text
 * edits are those of agents/hooks-json.ts (jsonc-parser parse tree, edits touching only the
 * inserted, removed or replaced span, the file's own indentation and line ends), so
 * insert-then-remove restores the original bytes.
 */
import { findNodeAtLocation, getNodeValue, parseTree, applyEdits, type Edit, type JSONPath, type Node } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { anyOurs, appendEdit, detectLayout, parseSettings, plain, removeEdit, replaceEdit, runsHook, type CommandTest } from '../hooks-json.js';
import type { AgentEvent } from '../../hooks/contract.js';

/** One Cursor hook definition git-kizu writes. */
export interface CursorHookDef {
  command: string;
  /** Seconds. */
  timeout?: number;
  /** `stop` only: the most follow-ups Cursor sends for this script (null: no limit; absent: Cursor's default, 5). */
  loop_limit?: number | null;
}

/** What git-kizu registers for one Cursor event. */
export interface CursorEntry {
  /** Cursor's event name (`afterFileEdit`, `stop`, `beforeSubmitPrompt`). */
  event: string;
  /** The git-kizu hook the definition runs. */
  hook: AgentEvent;
  /** The exact definition we want in the event's array. */
  def: CursorHookDef;
}

/** The text of a new hooks.json before git-kizu's hooks are added. */
const NEW_FILE = '{\n  "version": 1\n}\n';

function node(text: string, path: JSONPath): Node | undefined {
  const root = parseTree(text, [], { disallowComments: true });
  return root ? findNodeAtLocation(root, path) : undefined;
}

function apply(text: string, e: Edit): string {
  return applyEdits(text, [e]);
}

function isOurs(n: Node, ours: CommandTest): boolean {
  const v = getNodeValue(n) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const cmd = (v as { command?: unknown }).command;
  return typeof cmd === 'string' && ours(cmd);
}

/**
 * Registers `entries` in a hooks.json text. For each entry, the first of our definitions for
 * its hook in the event's array is replaced by the wanted one if it differs, our other
 * definitions for that hook there are removed, and if there was none the definition is
 * appended (the event's array created when missing). A `loop_limit` on our definition is
 * kept when the wanted one sets none (the user's choice of Cursor's follow-up bound). Other
 * keys, events and definitions keep their exact bytes. Idempotent.
 * @param file the path, for error messages.
 * @param text the file's content, or null when it does not exist: a new file is
 *   `{"version": 1, "hooks": {...}}`, 2-space indent, LF, ending with a newline.
 * @returns the new text.
 * @throws KizuError (exit 2) if `text` is not valid JSON, or its top level, `hooks` or an
 *   event's value has the wrong type (agents/hooks-json.ts `parseSettings`).
 */
export function mergeCursorHooks(file: string, text: string | null, entries: CursorEntry[]): string {
  let t = text ?? NEW_FILE;
  const root = parseSettings(file, t);
  const l = detectLayout(t);
  if (!findNodeAtLocation(root, ['hooks'])) {
    const value: Record<string, CursorHookDef[]> = {};
    for (const e of entries) (value[e.event] ??= []).push(e.def);
    return apply(t, appendEdit(t, root, 'hooks', value, l));
  }
  for (const e of entries) {
    const path = ['hooks', e.event];
    if (!node(t, path)) {
      t = apply(t, appendEdit(t, node(t, ['hooks'])!, e.event, [e.def], l));
      continue;
    }
    const ours = runsHook(e.hook);
    for (let guard = 0; guard < 1000; guard++) {
      const arr = node(t, path)!;
      const kids = arr.children ?? [];
      const mine = kids.flatMap((k, i) => (isOurs(k, ours) ? [i] : []));
      if (mine.length > 1) {
        t = apply(t, removeEdit(arr, mine[mine.length - 1]));
        continue;
      }
      if (!mine.length) {
        t = apply(t, appendEdit(t, arr, null, e.def, l));
        break;
      }
      const have = plain(getNodeValue(kids[mine[0]])) as Record<string, unknown>;
      // A loop_limit the user set on our stop hook (null: no limit) is theirs to keep.
      const want = e.def.loop_limit === undefined && 'loop_limit' in have ? { ...e.def, loop_limit: have.loop_limit as number | null } : e.def;
      if (!isDeepStrictEqual(have, want)) t = apply(t, replaceEdit(t, kids[mine[0]], want, l));
      break;
    }
  }
  return t;
}

/** Result of {@link removeCursorHooks}. */
export interface CursorRemoveResult {
  /** The new text. */
  text: string;
  /** True if `text` differs from the input. */
  changed: boolean;
  /** The events our definitions were removed from. */
  removedFrom: string[];
  /** True if nothing but `version` is left (or not even that). */
  empty: boolean;
}

/**
 * Removes every definition whose command runs one of git-kizu's hooks, then each event array
 * that this emptied, then `hooks` if that emptied it. Everything else keeps its exact bytes.
 * @throws KizuError (exit 2) as {@link mergeCursorHooks}.
 */
export function removeCursorHooks(file: string, text: string): CursorRemoveResult {
  const root = parseSettings(file, text);
  let t = text;
  const events = (findNodeAtLocation(root, ['hooks'])?.children ?? []).map((p) => String(p.children![0].value));
  const removedFrom: string[] = [];
  for (const ev of events) {
    for (let guard = 0; guard < 1000; guard++) {
      const arr = node(t, ['hooks', ev])!;
      const i = (arr.children ?? []).findIndex((k) => isOurs(k, anyOurs));
      if (i === -1) break;
      if (!removedFrom.includes(ev)) removedFrom.push(ev);
      if (arr.children!.length === 1) {
        // The last definition goes with its event.
        const h = node(t, ['hooks'])!;
        t = apply(t, removeEdit(h, h.children!.findIndex((p) => p.children![0].value === ev)));
        break;
      }
      t = apply(t, removeEdit(arr, i));
    }
  }
  const h = node(t, ['hooks']);
  if (removedFrom.length && h && !(h.children ?? []).length) {
    const r = node(t, [])!;
    t = apply(t, removeEdit(r, r.children!.findIndex((p) => p.children![0].value === 'hooks')));
  }
  const left = (node(t, [])!.children ?? []).map((p) => p.children![0].value);
  return { text: t, changed: t !== text, removedFrom, empty: left.every((k) => k === 'version') };
}

/**
 * Which of git-kizu's hooks a hooks.json text registers, per Cursor event: for each entry,
 * true if the event's array holds a definition running its hook.
 * @throws KizuError (exit 2) as {@link mergeCursorHooks}.
 */
export function registeredCursorHooks(file: string, text: string, entries: CursorEntry[]): boolean[] {
  const root = parseSettings(file, text);
  return entries.map((e) => {
    const arr = findNodeAtLocation(root, ['hooks', e.event]);
    return (arr?.children ?? []).some((k) => isOurs(k, runsHook(e.hook)));
  });
}
