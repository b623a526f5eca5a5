/**
 * The pre-commit framework (https://pre-commit.com, 3.x and 4.x): the guard is a hook with
 * id `git-kizu` in a `repo: local` entry of `.pre-commit-config.yaml`, `language: system`
 * (no environment to build, no network), run once per commit (`pass_filenames: false`,
 * `always_run: true`). It has no `stages:` key: pre-commit 3.0 to 3.1 accept only `commit`,
 * which 4.x reports as deprecated, so the hook runs for the hook types the team installs
 * (`pre-commit install` installs only `pre-commit`). `pre-commit install` writes
 * `.git/hooks/pre-commit` from the config, so the guard survives a reinstall; nothing of
 * kizu's is in `.git/hooks` for it to move to `pre-commit.legacy`.
 *
 * Teams can instead reference git-kizu's own repository, whose `.pre-commit-hooks.yaml`
 * declares the same hook; {@link preCommitFramework}.has() counts a `git-kizu` hook from any repo.
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
  pairsNamed,
  keyPairs,
  parseYamlText,
  planTopLevel,
  uneditable,
  yamlData,
} from './yaml-edit.js';

/** The framework's config file at the top of the working tree (pre-commit reads no other name by default). */
export const PRE_COMMIT_CONFIG = '.pre-commit-config.yaml';
/** The hook id, in `repo: local` and in git-kizu's `.pre-commit-hooks.yaml`. */
export const PRE_COMMIT_HOOK_ID = 'git-kizu';
/** The hook's `entry`: pre-commit splits it with shlex, so the guard is one single-quoted argument of `sh -c`. */
export const PRE_COMMIT_ENTRY = `sh -c '${GUARD_COMMAND}'`;

/**
 * The `repo: local` list item, as lines: dash at column `dash`, the item's keys at
 * `dash + inner`, the `hooks:` dash `hooksDash` deeper than `hooks:`, its keys `hooksInner`
 * after that dash, block-scalar lines `step` deeper than their key.
 */
function repoEntry(dash: number, inner: number, hooksDash: number, hooksInner: number, step: number, stages = false): string[] {
  const k = dash + inner;
  const h = k + hooksDash;
  const hk = h + hooksInner;
  return [
    `${pad(dash)}# ${GUARD_COMMENT}`,
    `${pad(dash)}-${pad(inner - 1)}repo: local`,
    `${pad(k)}hooks:`,
    `${pad(h)}-${pad(hooksInner - 1)}id: ${PRE_COMMIT_HOOK_ID}`,
    `${pad(hk)}name: git-kizu review scars`,
    ...commandLines(hk, 'entry', PRE_COMMIT_ENTRY, step),
    `${pad(hk)}language: system`,
    `${pad(hk)}pass_filenames: false`,
    `${pad(hk)}always_run: true`,
    ...(stages ? [`${pad(hk)}stages: [pre-commit]`] : []),
  ];
}

/** A `repos:` key at column `col` with the entry (`stages`: with `stages: [pre-commit]`). */
const reposBlock = (col: number, step: number, stages = false): string[] => [`${pad(col)}repos:`, ...repoEntry(col + step, 2, step, 2, step, stages)];

/** What to add by hand: the `repos:` list item, for a file whose `repos:` items start at column 0 plus 2. */
export const PRE_COMMIT_SNIPPET = reposBlock(0, 2).join('\n') + '\n';
/** The same with `stages: [pre-commit]`, for a file whose `default_stages` leaves out the commit stage. */
export const PRE_COMMIT_SNIPPET_STAGES = reposBlock(0, 2, true).join('\n') + '\n';

/** True if plain config data lists a hook with id git-kizu in any repo. */
function dataHas(data: unknown): boolean {
  const repos = (data as { repos?: unknown } | null)?.repos;
  if (!Array.isArray(repos)) return false;
  return repos.some((r) => {
    const hooks = (r as { hooks?: unknown } | null)?.hooks;
    return Array.isArray(hooks) && hooks.some((h) => (h as { id?: unknown } | null)?.id === PRE_COMMIT_HOOK_ID);
  });
}

/** The stage `git commit` runs hooks for: `pre-commit` (pre-commit 3.2+), `commit` before. */
const COMMIT_STAGES = ['pre-commit', 'commit'];

/**
 * Why the git-kizu hook in pre-commit config data (or one added without `stages:`) would not
 * run on `git commit`: its own `stages:`, else the top-level `default_stages`, leaves out the
 * commit stage. Null when it runs (no stages given: every stage).
 */
function stageProblem(data: unknown): string | null {
  const d = data as { default_stages?: unknown; repos?: unknown } | null;
  let stages: unknown = d?.default_stages;
  let where = '`default_stages`';
  for (const r of Array.isArray(d?.repos) ? d.repos : []) {
    const hooks = (r as { hooks?: unknown } | null)?.hooks;
    for (const h of Array.isArray(hooks) ? hooks : []) {
      const hk = h as { id?: unknown; stages?: unknown } | null;
      if (hk?.id === PRE_COMMIT_HOOK_ID && hk.stages !== undefined) {
        stages = hk.stages;
        where = 'the git-kizu hook\'s `stages:`';
      }
    }
  }
  if (!Array.isArray(stages) || stages.some((x) => COMMIT_STAGES.includes(String(x)))) return null;
  return `${where} leaves out the commit stage, so the guard would not run on git commit: give the git-kizu hook \`stages: [pre-commit]\` (\`[commit]\` before pre-commit 3.2)`;
}

/** A comment near the top saying the file is generated (`generated`, `do not edit`): edits there would be overwritten. */
function generatedNotice(text: string): string | null {
  for (const line of text.split('\n').slice(0, 10)) {
    const m = /^\s*#\s*(.*)$/.exec(line);
    if (m && /\bgenerated\b|\bdo not edit\b/i.test(m[1])) return m[1].trim();
  }
  return null;
}

/** The dash column and key offset of list item `item` (null when it is not written `- key: ...` on one line). */
function dashOf(text: string, item: Node): { dash: number; inner: number } | null {
  const start = item.range![0];
  const at = text.lastIndexOf('-', start - 1);
  if (at < 0 || text.slice(at + 1, start).trim() !== '') return null;
  const dash = columnOf(text, at);
  const inner = columnOf(text, start) - dash;
  return inner >= 2 ? { dash, inner } : null;
}

/**
 * Plans adding the `repo: local` entry at the end of `repos:` in `.pre-commit-config.yaml`
 * (`text`, null when absent): one insertion of whole lines that follows the file's list
 * style (dash columns, key offsets) and line breaks. `print` for a file that says it is
 * generated, for flow style (`repos: []`), anchors, aliases, merge keys and several documents.
 * @throws KizuError (exit 2) naming the file, line and column when the YAML does not parse.
 */
function plan(text: string | null, d: Detected): AddPlan {
  const rel = path.basename(d.file);
  const print = (why: string): AddPlan => ({ kind: 'print', snippet: PRE_COMMIT_SNIPPET, why: `${rel}: ${why}` });
  if (text === null) return { kind: 'insert', insertion: { offset: 0, text: PRE_COMMIT_SNIPPET } };
  const y = parseYamlText(text, d.file);
  const doc = y.doc as Document.Parsed | null;
  const stages = stageProblem(docData(doc));
  // The hook as printed names the stage itself: without it, `default_stages` would keep it from running on commit.
  if (stages) return { kind: 'print', snippet: PRE_COMMIT_SNIPPET_STAGES, why: `${rel}: ${stages}` };
  if (dataHas(docData(doc))) return { kind: 'present' };
  const gen = generatedNotice(text);
  if (gen) return print(`the file says it is generated ("${gen}"): add the entry where it is generated from`);
  if (y.documents > 1) return print('the file holds several YAML documents (pre-commit reads one)');
  const top = planTopLevel(text, y, reposBlock, print);
  if ('plan' in top) return top.plan;
  const { root, step } = top;
  const repos = keyPairs(text, root, 'repos');
  if (typeof repos === 'string') return print(repos);
  if (repos.length > 1) return print('`repos:` appears twice');
  if (repos.length === 0) {
    if (hasMergeKey(root)) return print('the top level has a merge key (<<): a new `repos:` would hide a merged one');
    const col = columnOf(text, root.range![0]);
    return { kind: 'insert', insertion: insertLines(lineAfter(text, root, col), reposBlock(col, step), y.eol) };
  }
  const r = repos[0];
  const rCol = columnOf(text, r.key.range![0]);
  if (isEmptyValue(r)) return { kind: 'insert', insertion: insertLines(lineAfterKey(text, r), repoEntry(rCol + step, 2, step, 2, step), y.eol) };
  const rBad = uneditable(r.value, true, '`repos:`');
  if (rBad) return print(rBad);
  const items = (r.value as { items: Node[] }).items;
  const first = dashOf(text, items[0]);
  if (!first) return print('the first item of `repos:` has a shape git-kizu does not edit');
  // The hooks list style of the first repo that has a block `hooks:` list.
  let hooksDash = first.dash - rCol;
  let hooksInner = first.inner;
  for (const it of items) {
    const h = pairsNamed(it, 'hooks')[0];
    const hv = h?.value as { items?: Node[]; flow?: boolean } | null | undefined;
    if (!h || !hv?.items?.length || hv.flow) continue;
    const hd = dashOf(text, hv.items[0]);
    if (!hd) continue;
    hooksDash = hd.dash - columnOf(text, h.key.range![0]);
    hooksInner = hd.inner;
    break;
  }
  if (hooksDash < 0) hooksDash = 0;
  const entry = repoEntry(first.dash, first.inner, hooksDash, hooksInner, step);
  return { kind: 'insert', insertion: insertLines(lineAfter(text, r.value as Node, first.dash), entry, y.eol) };
}

/** Finds `.pre-commit-config.yaml` at the top of the working tree. Never throws. */
function detect(i: DetectInput): Detected | null {
  if (!existsSync(path.join(i.root, PRE_COMMIT_CONFIG))) return null;
  return { id: 'pre-commit', file: path.join(i.root, PRE_COMMIT_CONFIG), label: `pre-commit (${PRE_COMMIT_CONFIG})`, reinstall: 'pre-commit install', afterEdit: AFTER_EDIT };
}

/** The pre-commit framework: a `repo: local` hook `git-kizu` in `.pre-commit-config.yaml`. */
/** The framework's guard runs only while the git hook `pre-commit install` writes is in the hooks dir. */
function hookProblem(i: DetectInput): HookProblem | null {
  return generatedHookProblem(i, 'pre-commit', { why: "the pre-commit framework's git hook is not installed in this clone", fix: 'pre-commit install' });
}

/** pre-commit refuses to run while its configuration has unstaged changes ("Your pre-commit configuration is unstaged"). */
const AFTER_EDIT = `next: git add ${PRE_COMMIT_CONFIG} (the pre-commit framework runs no hook while its configuration has unstaged changes)`;

export const preCommitFramework: HookManager = {
  afterEdit: AFTER_EDIT,
  id: 'pre-commit',
  detect,
  hookProblem,
  plan,
  /** True if the YAML in `text` lists a hook with id `git-kizu` in any repo (`repo: local` or git-kizu's repository). */
  has: (text) => {
    const data = yamlData(text);
    return dataHas(data) && stageProblem(data) === null;
  },
};
