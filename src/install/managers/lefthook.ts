/**
 * lefthook (https://lefthook.dev, version 1.x and 2.x): the guard is a `pre-commit` command
 * named `git-kizu` in lefthook's YAML config, or a job named `git-kizu` when the file's
 * `pre-commit` hook lists `jobs:` (lefthook runs both kinds). lefthook writes its
 * `.git/hooks/pre-commit` from the config on `lefthook install`, so the guard survives a
 * reinstall. A local-only install (`--scope local`) edits `lefthook-local.yml`, which lefthook
 * merges over the main config (its `commands` by name, its `jobs` appended).
 *
 * Config names and lookup order follow lefthook 2's loader (internal/config/loader.go): for
 * each extension `.yml`, `.yaml`, `.json`, `.jsonc`, `.toml`, the names `lefthook`,
 * `.lefthook`, `.config/lefthook` (local: `lefthook-local`, `.lefthook-local`,
 * `.config/lefthook-local`) at the top of the working tree; the first one found is read.
 * JSON and TOML configs are not edited: the adapter prints the entry to add.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Document, Node } from 'yaml';
import { GUARD_COMMAND, GUARD_COMMENT } from './guard-line.js';
import { generatedHookProblem } from './generated.js';
import type { AddPlan, Detected, DetectInput, HookManager, HookProblem } from './types.js';
import {
  columnOf,
  commandLines,
  docData,
  hasMergeKey,
  insertLines,
  isEmptyValue,
  lineAfter,
  lineAfterKey,
  pad,
  keyPairs,
  parseYamlText,
  planTopLevel,
  uneditable,
  yamlData,
} from './yaml-edit.js';

/** The name of kizu's command (or job) in lefthook's `pre-commit` hook. */
export const LEFTHOOK_COMMAND = 'git-kizu';

const EXTENSIONS = ['.yml', '.yaml', '.json', '.jsonc', '.toml'];
const MAIN_NAMES = ['lefthook', '.lefthook', '.config/lefthook'];
const LOCAL_NAMES = ['lefthook-local', '.lefthook-local', '.config/lefthook-local'];

/** The first of `names` × EXTENSIONS (lefthook's order) present under `root`, relative to it; null if none. */
function firstConfig(root: string, names: string[]): string | null {
  for (const ext of EXTENSIONS) for (const n of names) if (existsSync(path.join(root, n + ext))) return n + ext;
  return null;
}

/** The `lefthook-local` file lefthook pairs with main config `main` (same place and leading dot; YAML). */
function localFor(main: string): string {
  const ext = path.extname(main);
  return main.slice(0, -ext.length) + '-local' + (ext === '.yaml' ? '.yaml' : '.yml');
}

/** The command's lines in a `commands:` mapping whose keys are at column `col`. */
function commandEntry(col: number, step: number): string[] {
  return [`${pad(col)}# ${GUARD_COMMENT}`, `${pad(col)}${LEFTHOOK_COMMAND}:`, ...commandLines(col + step, 'run', GUARD_COMMAND, step)];
}

/** The job's lines in a `jobs:` list whose dashes are at column `dash`, item keys at `dash + inner`. */
function jobEntry(dash: number, inner: number, step: number): string[] {
  return [
    `${pad(dash)}# ${GUARD_COMMENT}`,
    `${pad(dash)}-${pad(inner - 1)}name: ${LEFTHOOK_COMMAND}`,
    ...commandLines(dash + inner, 'run', GUARD_COMMAND, step),
  ];
}

/** A `commands:` key at column `col` holding the command. */
const commandsBlock = (col: number, step: number): string[] => [`${pad(col)}commands:`, ...commandEntry(col + step, step)];
/** A `pre-commit:` key at column `col` holding the command. */
const hookBlock = (col: number, step: number): string[] => [`${pad(col)}pre-commit:`, ...commandsBlock(col + step, step)];

/** What to add by hand, in the config's own format (YAML for `.yml`/`.yaml`). */
export function lefthookSnippet(file: string): string {
  const ext = path.extname(file);
  if (ext === '.toml') return `[pre-commit.commands.${LEFTHOOK_COMMAND}]\n# ${GUARD_COMMENT}\nrun = '${GUARD_COMMAND}'\n`;
  if (ext === '.json' || ext === '.jsonc')
    return JSON.stringify({ 'pre-commit': { commands: { [LEFTHOOK_COMMAND]: { run: GUARD_COMMAND } } } }, null, 2) + '\n';
  return hookBlock(0, 2).join('\n') + '\n';
}

/** True if plain config data holds the command (or a job) named git-kizu in `pre-commit`. */
function dataHas(data: unknown): boolean {
  const hook = (data as Record<string, unknown> | null)?.['pre-commit'] as Record<string, unknown> | undefined;
  if (!hook || typeof hook !== 'object') return false;
  const commands = hook.commands as Record<string, unknown> | undefined;
  if (commands && typeof commands === 'object' && Object.hasOwn(commands, LEFTHOOK_COMMAND)) return true;
  return Array.isArray(hook.jobs) && hook.jobs.some((j) => (j as { name?: unknown } | null)?.name === LEFTHOOK_COMMAND);
}

/**
 * Why the `pre-commit` hook of lefthook config data skips commands kizu's command would be
 * one of (hook-level `only:` or `skip:` conditions apply to every command: the guard would
 * not run on some commits), or null.
 */
function hookFilter(data: unknown): string | null {
  const hook = (data as Record<string, unknown> | null)?.['pre-commit'] as Record<string, unknown> | undefined;
  if (!hook || typeof hook !== 'object') return null;
  const keys = ['only', 'skip'].filter((k) => Object.hasOwn(hook, k) && hook[k] !== false && hook[k] !== null);
  return keys.length
    ? `its \`pre-commit\` hook has ${keys.map((k) => `\`${k}:\``).join(' and ')}, which would skip the git-kizu guard too on some commits; move the condition to the commands that need it, then run git kizu init again`
    : null;
}

/**
 * Plans adding the command to a lefthook YAML config (`text`, null when absent): one
 * insertion of whole lines, matching the file's indentation and line breaks; `print` for a
 * JSON/TOML config and for shapes an insertion cannot extend safely (flow style, anchors,
 * aliases or merge keys on the way, several documents, a `pre-commit` that is not a mapping).
 * @throws KizuError (exit 2) naming the file, line and column when the YAML does not parse.
 */
function plan(text: string | null, d: Detected): AddPlan {
  const rel = path.basename(d.file);
  const print = (why: string): AddPlan => ({ kind: 'print', snippet: lefthookSnippet(d.file), why: `${rel}: ${why}` });
  if (!['.yml', '.yaml'].includes(path.extname(d.file))) return print('git-kizu edits only YAML lefthook configs');
  if (text === null) return { kind: 'insert', insertion: { offset: 0, text: hookBlock(0, 2).join('\n') + '\n' } };
  const y = parseYamlText(text, d.file);
  if (y.documents > 1) return print('the file holds several YAML documents (lefthook reads only the first)');
  const doc = y.doc as Document.Parsed | null;
  const top = planTopLevel(text, y, hookBlock, print);
  if ('plan' in top) return top.plan;
  const { root, step } = top;
  const filter = hookFilter(docData(doc));
  if (filter) return print(filter);
  if (dataHas(docData(doc))) return { kind: 'present' };
  const hooks = keyPairs(text, root, 'pre-commit');
  if (typeof hooks === 'string') return print(hooks);
  if (hooks.length > 1) return print('`pre-commit:` appears twice');
  if (hooks.length === 0) {
    if (hasMergeKey(root)) return print('the top level has a merge key (<<): a new `pre-commit:` would hide a merged one');
    const col = columnOf(text, root.range![0]);
    return { kind: 'insert', insertion: insertLines(lineAfter(text, root, col), hookBlock(col, step), y.eol) };
  }
  const hook = hooks[0];
  const hookCol = columnOf(text, hook.key.range![0]);
  if (isEmptyValue(hook)) return { kind: 'insert', insertion: insertLines(lineAfterKey(text, hook), commandsBlock(hookCol + step, step), y.eol) };
  const hookBad = uneditable(hook.value, false, '`pre-commit:`');
  if (hookBad) return print(hookBad);
  const hookMap = hook.value as Node;
  const commands = keyPairs(text, hookMap, 'commands');
  const jobs = keyPairs(text, hookMap, 'jobs');
  if (typeof commands === 'string') return print(commands);
  if (typeof jobs === 'string') return print(jobs);
  if (commands.length > 1 || jobs.length > 1) return print('`commands:` or `jobs:` appears twice under `pre-commit:`');
  const innerCol = columnOf(text, (hookMap as { items: { key: Node }[] }).items[0].key.range![0]);
  if (commands.length === 1 || jobs.length === 0) {
    if (commands.length === 0) return { kind: 'insert', insertion: insertLines(lineAfter(text, hookMap, innerCol), commandsBlock(innerCol, step), y.eol) };
    const c = commands[0];
    const cCol = columnOf(text, c.key.range![0]);
    if (isEmptyValue(c)) return { kind: 'insert', insertion: insertLines(lineAfterKey(text, c), commandEntry(cCol + step, step), y.eol) };
    const cBad = uneditable(c.value, false, '`pre-commit: commands:`');
    if (cBad) return print(cBad);
    const first = (c.value as { items: { key: Node }[] }).items[0];
    const col = first ? columnOf(text, first.key.range![0]) : cCol + step;
    return { kind: 'insert', insertion: insertLines(lineAfter(text, c.value as Node, col), commandEntry(col, step), y.eol) };
  }
  const j = jobs[0];
  const jCol = columnOf(text, j.key.range![0]);
  if (isEmptyValue(j)) return { kind: 'insert', insertion: insertLines(lineAfterKey(text, j), jobEntry(jCol + step, 2, step), y.eol) };
  const jBad = uneditable(j.value, true, '`pre-commit: jobs:`');
  if (jBad) return print(jBad);
  const items = (j.value as { items: Node[] }).items;
  const item = items[0] as Node | undefined;
  let dash = jCol + step;
  let inner = 2;
  if (item) {
    const start = item.range![0];
    const dashAt = text.lastIndexOf('-', start - 1);
    dash = columnOf(text, dashAt);
    inner = columnOf(text, start) - dash;
    if (text.slice(dashAt + 1, start).trim() !== '' || inner < 2) return print('the first job under `pre-commit: jobs:` has a shape git-kizu does not edit');
  }
  return { kind: 'insert', insertion: insertLines(lineAfter(text, j.value as Node, dash), jobEntry(dash, inner, step), y.eol) };
}

/** Finds lefthook's config (see the module comment); for a local-only install, its `-local` file. Never throws. */
function detect(i: DetectInput): Detected | null {
  const main = firstConfig(i.root, MAIN_NAMES);
  const local = firstConfig(i.root, LOCAL_NAMES);
  const rel = i.local ? (local ?? (main ? localFor(main) : null)) : (main ?? local);
  if (rel === null) return null;
  return { id: 'lefthook', file: path.join(i.root, rel), label: `lefthook (${rel})`, reinstall: 'npx lefthook install', ...(LOCAL_NAMES.some((n) => rel.startsWith(n + '.')) ? { local: true } : {}) };
}

/** lefthook's guard runs only while the git hook lefthook generated is in the hooks dir (`lefthook install` writes it). */
function hookProblem(i: DetectInput): HookProblem | null {
  return generatedHookProblem(i, 'lefthook', { why: "lefthook's git hooks are not installed in this clone (the pre-commit hook is not lefthook's)", fix: 'npx lefthook install' });
}

/** lefthook: a `git-kizu` command in the config's `pre-commit` hook. */
export const lefthook: HookManager = {
  id: 'lefthook',
  detect,
  plan,
  hookProblem,
  /**
   * True if the first YAML document of `text` has a `pre-commit` command or job named
   * `git-kizu` (merge keys resolved; JSON is YAML too), or `text` holds the guard command
   * verbatim (a TOML config).
   */
  has: (text) => {
    const data = yamlData(text);
    return (dataHas(data) || text.includes(GUARD_COMMAND)) && hookFilter(data) === null;
  },
};
