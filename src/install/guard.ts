/**
 * The pre-commit guard wherever the repository's git hooks live: in a hook manager's
 * configuration (install/managers/: husky, simple-git-hooks, a committed `core.hooksPath`
 * directory, ...) when one is detected, else git-kizu's own hook in the plain hooks directory
 * (`.git/hooks`, or an untracked `core.hooksPath`; install/git-hook.ts).
 *
 * - {@link guardContext} reads what decides it (core.hooksPath, the effective hooks dir, the
 *   `pre-commit` there); {@link planGuard} decides without writing (bad input throws first);
 *   {@link applyGuard} makes the one insertion and returns its record; {@link removeGuard}
 *   takes a recorded insertion out again, byte for byte.
 * - {@link guardStatus} says whether the guard runs on `git commit` here, and if not, the one
 *   command that restores it (used by `git kizu status`, `doctor` and the Stop hook).
 */
import { accessSync, constants, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { git } from '../git/run.js';
import { replaceFileSync } from '../files.js';
import { GUARD_COMMAND } from './managers/guard-line.js';
import { guardLines } from './managers/shell-script.js';
import {
  applyInsertion,
  chooseManager,
  generatedBy,
  managerById,
  readConfig,
  removeInsertion,
  type Chosen,
  type Removal,
} from './managers/index.js';
import type { AddPlan, DetectInput, ManagerId } from './managers/types.js';
import { effectiveHooksDir, inspectPreCommit, isOurPreCommit } from './git-hook.js';
import type { GuardInsertionRecord } from './state.js';

/** What decides where the guard goes, read once. */
export interface GuardContext extends DetectInput {
  /** The effective hooks directory (absolute). */
  hooksDir: string;
  /** The text of `<hooksDir>/pre-commit` (a symbolic link read through), or null when absent. */
  hookText: string | null;
  /**
   * Where `core.hooksPath` is set (`git config --show-scope --show-origin`): the scope
   * (`local`, `worktree`, `global`, `system`, `command`) and the file (null for `command`),
   * null when it is not set. An include takes the scope of the file that includes it.
   */
  hooksPathOrigin: { scope: string; file: string | null } | null;
}

/** A hooks directory that a git config outside the repository names, shared by every repository using that config. */
export interface SharedHooksDir {
  /** The effective hooks directory (absolute). */
  dir: string;
  /** `core.hooksPath` as set (`~/.ghooks`). */
  value: string;
  /** Where it is set, for messages: `your global git config (/home/u/.gitconfig)`. */
  where: string;
}

/**
 * The hooks directory of `ctx` when it is shared beyond this repository: `core.hooksPath` is
 * set in a config outside it (global, system, or `git -c` / `GIT_CONFIG_PARAMETERS`; a
 * `local` or `worktree` setting is the repository's own) and the directory it names is not
 * inside the working tree (a relative value is resolved per repository, so it is not shared).
 * @returns null when the hooks directory is this repository's own.
 */
export function sharedHooksDir(ctx: GuardContext): SharedHooksDir | null {
  const o = ctx.hooksPathOrigin;
  if (!o || !ctx.hooksPath || o.scope === 'local' || o.scope === 'worktree') return null;
  const rel = path.relative(ctx.root, ctx.hooksDir);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) return null;
  const file = o.file ? ` (${o.file})` : '';
  const where =
    o.scope === 'global' ? `your global git config${file}` : o.scope === 'system' ? `the system git config${file}` : o.scope === 'command' ? 'the command line (`git -c` or GIT_CONFIG_PARAMETERS)' : `the ${o.scope} git config${file}`;
  return { dir: ctx.hooksDir, value: ctx.hooksPath, where };
}

/**
 * Reads the guard's context for the working tree at `root`: `core.hooksPath` (as set),
 * the effective hooks dir (`git rev-parse --git-path hooks`), whether the hooksPath
 * directory holds tracked files (`git ls-files`), and the `pre-commit` there.
 * @param local true for `--scope local` (use a manager's local-only file, else print).
 * @throws KizuError (exit 2) when git fails.
 */
export async function guardContext(root: string, local: boolean): Promise<GuardContext> {
  const [hp, hooksDir] = await Promise.all([
    git(['config', '-z', '--show-scope', '--show-origin', '--get', 'core.hooksPath'], { cwd: root, okStatus: [0, 1] }),
    effectiveHooksDir(root),
  ]);
  // `<scope> NUL <origin> NUL <value> NUL`; the origin is `file:<path>`, `command line:`, ...
  const [scope, origin, value] = hp.status === 0 ? hp.stdout.toString('utf8').split('\0') : [];
  const hooksPath = value || null;
  const hooksPathOrigin = hooksPath ? { scope, file: origin?.startsWith('file:') ? origin.slice(5) : null } : null;
  let tracked = false;
  if (hooksPath) {
    const dir = path.resolve(root, hooksPath);
    const rel = path.relative(root, dir);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) {
      const ls = await git(['ls-files', '-z', '--', rel], { cwd: root, okStatus: [0, 128] });
      tracked = ls.status === 0 && ls.stdout.length > 0;
    }
  }
  let hookText: string | null = null;
  try {
    hookText = readFileSync(path.join(hooksDir, 'pre-commit'), 'utf8');
  } catch {
    /* absent or unreadable */
  }
  return { root, hooksPath, local, hooksDir, hooksPathTracked: tracked, hookText, hooksPathOrigin };
}

/** What init does for the guard. */
export type GuardPlan =
  /** No manager: git-kizu's own hook in the plain hooks dir (install/git-hook.ts). */
  | { kind: 'hooks-dir' }
  /** A hook a manager generated runs, but that manager's configuration was not found: print `snippet`. */
  | { kind: 'unmanaged'; manager: ManagerId; snippet: string; why: string }
  /** A manager: `plan` for its file (`before`: the file's text, null when absent; `mode`: its mode). */
  | { kind: 'manager'; chosen: Chosen; before: string | null; mode: number | null; plan: AddPlan; localOnly: boolean };

/**
 * Decides where the guard goes (nothing written). `--scope local` (`ctx.local`) with a
 * manager that has no local-only file turns an insertion into a print (the shared file is
 * not edited); a symbolic link or a non-UTF-8 file at the manager's file is printed too.
 * @throws KizuError (exit 2) when the manager's file does not parse (see each manager).
 */
export function planGuard(ctx: GuardContext): GuardPlan {
  const chosen = chooseManager(ctx, ctx.hookText);
  if (!chosen) {
    const gen = ctx.hookText !== null ? generatedBy(ctx.hookText) : null;
    if (gen) {
      return {
        kind: 'unmanaged',
        manager: gen,
        snippet: guardLines().trimEnd(),
        why: `${path.join(ctx.hooksDir, 'pre-commit')} was generated by ${gen}, but its configuration was not found, so git-kizu neither chains nor replaces it; run this from ${gen}'s pre-commit configuration`,
      };
    }
    return { kind: 'hooks-dir' };
  }
  const { manager, detected: d } = chosen;
  const r = readConfig(d.file);
  const localOnly = ctx.local && !d.local;
  if (r.kind !== 'text') {
    const why = r.kind === 'link' ? `${d.file} is a symbolic link, which git-kizu does not write through` : `${d.file} is not UTF-8 text`;
    // What to add by hand is what init would have inserted into the file the link leads to.
    let snippet = guardLines().trimEnd();
    if (r.kind === 'link') {
      try {
        const p = manager.plan(readFileSync(d.file, 'utf8'), d);
        if (p.kind === 'present') return { kind: 'manager', chosen, before: null, mode: null, plan: p, localOnly };
        snippet = p.kind === 'insert' ? p.insertion.text.trim() : p.snippet;
      } catch {
        /* unreadable through the link, or not parsable: the plain lines */
      }
    }
    return { kind: 'manager', chosen, before: null, mode: null, plan: { kind: 'print', snippet, why }, localOnly };
  }
  let plan = manager.plan(r.text, d);
  if (localOnly && plan.kind === 'insert') {
    plan = {
      kind: 'print',
      snippet: plan.insertion.text.trim(),
      why: `--scope local does not edit ${d.label}, which is shared with your team; add this yourself, or run \`git kizu init\` (project scope) to install it for the team`,
    };
  }
  return { kind: 'manager', chosen, before: r.text, mode: r.mode, plan, localOnly };
}

/** What {@link applyGuard} did, for init's report. */
export interface GuardApplied {
  record: GuardInsertionRecord;
  /** The manager's generated hook, brought in line with the new configuration (its path), if that was done. */
  syncedHook: string | null;
}

/**
 * Makes the insertion of a `manager` plan whose `plan.kind` is `insert`: writes the file
 * (replacing, never following), creating its directory; then, for a manager that copies its
 * configuration into the hook it generates (simple-git-hooks), rewrites that hook as the
 * manager would if it still holds what the manager wrote for the old configuration (or is
 * absent), so that the guard runs without re-running the manager.
 * @throws fs errors.
 */
export function applyGuard(ctx: GuardContext, p: Extract<GuardPlan, { kind: 'manager' }>): GuardApplied {
  if (p.plan.kind !== 'insert') throw new Error('applyGuard: nothing to insert');
  const { manager, detected: d } = p.chosen;
  const ins = p.plan.insertion;
  mkdirSync(path.dirname(d.file), { recursive: true });
  const after = applyInsertion(d.file, p.before, p.mode, ins, d.createMode);
  const record: GuardInsertionRecord = {
    manager: d.id,
    file: d.file,
    offset: ins.offset,
    text: ins.text,
    createdFile: p.before === null,
    hooksDir: ctx.hooksDir,
  };
  let syncedHook: string | null = null;
  if (manager.generatedHook) {
    const hook = path.join(ctx.hooksDir, 'pre-commit');
    const was = manager.generatedHook(p.before, d);
    const now = manager.generatedHook(after, d);
    const cur = readConfig(hook);
    if (now !== null && cur.kind === 'text' && cur.text !== now && (cur.text === null || cur.text === was)) {
      mkdirSync(ctx.hooksDir, { recursive: true });
      replaceFileSync(hook, now, { mode: 0o755 });
      syncedHook = hook;
    }
  }
  return { record, syncedHook };
}

/** What {@link removeGuard} did. */
export interface GuardRemoved {
  removal: Removal;
  /** The generated hook rewritten (or deleted) to match the configuration again, if that was done. */
  syncedHook: { file: string; deleted: boolean } | null;
}

/**
 * Takes the recorded insertion `rec` out of its file (install/managers/index.ts
 * `removeInsertion`: at its offset, else its single occurrence; a file init created and that
 * holds only it is deleted), then brings a generated hook that still holds what the manager
 * wrote for the configuration with the guard back to what it writes without it (deleted
 * when it writes none).
 * @throws fs errors.
 */
export function removeGuard(rec: GuardInsertionRecord, hooksDir = rec.hooksDir): GuardRemoved {
  const removal = removeInsertion(rec.file, { offset: rec.offset, text: rec.text }, rec.createdFile);
  let syncedHook: GuardRemoved['syncedHook'] = null;
  const manager = managerById(rec.manager);
  if (hooksDir && manager?.generatedHook && (removal.kind === 'removed' || removal.kind === 'deleted')) {
    const d = { id: rec.manager, file: rec.file, label: rec.manager };
    const was = manager.generatedHook(removal.before, d);
    const now = manager.generatedHook(removal.kind === 'removed' ? removal.after : null, d);
    const hook = path.join(hooksDir, 'pre-commit');
    const cur = readConfig(hook);
    if (was !== null && cur.kind === 'text' && cur.text === was && now !== was) {
      if (now === null) rmSync(hook, { force: true });
      else replaceFileSync(hook, now, { mode: 0o755 });
      syncedHook = { file: hook, deleted: now === null };
    }
  }
  return { removal, syncedHook };
}

/** Whether the pre-commit guard runs on `git commit` in this working tree. */
export type GuardStatus =
  /** It runs: through `via` (a manager, or git-kizu's own hook in the hooks dir), from `file` (absolute). */
  | { state: 'installed'; via: ManagerId | 'hooks-dir'; file: string }
  /** It does not: `why` (a sentence), and `fix`, the one command that restores it (`git kizu init`, `npx husky`, ...). */
  | { state: 'missing'; why: string; fix: string };

/**
 * Whether the pre-commit guard runs on `git commit` in the working tree at `root`: the
 * manager chosen as init chooses it (install/managers/index.ts `chooseManager`) must hold
 * the guard in its file and have its generated git hook in place (`hookProblem`: husky's
 * `core.hooksPath`, simple-git-hooks' copied command); with no manager, the `pre-commit` in
 * the effective hooks dir must be git-kizu's. For the Stop hook's warning and `doctor`, use
 * `why` and `fix` as they are (e.g. "... missing: husky's git hooks are not installed in this
 * clone; run `npx husky`"). Otherwise missing, the guard still runs when the pre-commit
 * framework's hook runs git-kizu's own hook from `pre-commit.legacy` ({@link legacyGuard}):
 * installed via `pre-commit`, from that file.
 * @throws KizuError (exit 2) when git fails.
 */
export async function guardStatus(root: string): Promise<GuardStatus> {
  const ctx = await guardContext(root, false);
  const g = guardStatusIn(ctx);
  if (g.state === 'installed') return g;
  // `pre-commit install` moved git-kizu's own hook to pre-commit.legacy, and the framework's hook runs it first.
  const legacy = legacyGuard(ctx.hooksDir, ctx.hookText);
  return legacy ? { state: 'installed', via: 'pre-commit', file: legacy } : g;
}

/**
 * The `pre-commit.legacy` in `hooksDir` when it is git-kizu's own hook and the `pre-commit`
 * there (text `hookText`) is the pre-commit framework's, which runs an executable
 * `pre-commit.legacy` before its own hooks (its migration mode, kept by `pre-commit install`
 * for the hook it replaced); null otherwise.
 */
export function legacyGuard(hooksDir: string, hookText: string | null): string | null {
  if (hookText === null || generatedBy(hookText) !== 'pre-commit') return null;
  const file = path.join(hooksDir, 'pre-commit.legacy');
  if (!isOurPreCommit(file)) return null;
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}

/** {@link guardStatus} for a context read, without the pre-commit framework's `pre-commit.legacy`. */
function guardStatusIn(ctx: GuardContext): GuardStatus {
  const chosen = chooseManager(ctx, ctx.hookText);
  if (chosen) {
    const { manager, detected: d } = chosen;
    const r = readConfig(d.file);
    const text = r.kind === 'text' ? r.text : null;
    if (text === null || !manager.has(text)) {
      // Where init would not edit the file, say why: `git kizu init` then prints the lines to add by hand.
      let printed: string | null = null;
      try {
        const p = manager.plan(text, d);
        if (p.kind === 'print') printed = p.why;
      } catch (e) {
        printed = (e as Error).message.split('\n')[0];
      }
      const why = printed
        ? `${d.label} does not run the git-kizu guard, and git-kizu does not edit it (${printed}); \`git kizu init\` prints the lines to add by hand`
        : `${d.label} does not run the git-kizu guard`;
      return { state: 'missing', why, fix: 'git kizu init' };
    }
    const problem = manager.hookProblem?.(ctx, d) ?? null;
    if (problem) return { state: 'missing', why: problem.why, fix: problem.fix };
    return { state: 'installed', via: d.id, file: d.file };
  }
  const hook = path.join(ctx.hooksDir, 'pre-commit');
  if (inspectPreCommit(ctx.hooksDir).state === 'ours') return { state: 'installed', via: 'hooks-dir', file: hook };
  const gen = ctx.hookText !== null ? generatedBy(ctx.hookText) : null;
  if (gen && ctx.hookText!.includes(GUARD_COMMAND)) return { state: 'installed', via: gen, file: hook };
  const why = gen ? `the pre-commit hook ${gen} generated does not run the git-kizu guard` : 'no pre-commit hook runs git-kizu';
  // Project-scope init does not write into a hooks directory other repositories share.
  const shared = sharedHooksDir(ctx);
  if (shared) {
    return { state: 'missing', why: `${why} in ${shared.dir} (core.hooksPath set in ${shared.where}, shared by every repository using it)`, fix: 'git kizu init --scope user --pre-commit' };
  }
  return { state: 'missing', why, fix: 'git kizu init' };
}
