/**
 * Where Cursor reads hook registrations, and git-kizu's entries in them. Built from Cursor's
 * documentation only (Cursor's agent is not on the npm registry; no Cursor ran these hooks):
 * the Cursor hooks reference, https://cursor.com/docs/hooks ("Configuration", "Team
 * Distribution", "Troubleshooting"):
 * - project hooks: `<project-root>/.cursor/hooks.json`; their commands run from the project
 *   root, so a relative path there is `.cursor/hooks/<script>`; Cursor runs them only in a
 *   trusted workspace (a trust Cursor keeps in its own state, not in a file git-kizu reads);
 * - user hooks: `~/.cursor/hooks.json`, run from `~/.cursor/` (git-kizu writes the runner's
 *   absolute path there: that file is this machine's);
 * - all matching hooks from every source run; Cursor reloads hooks.json when it changes.
 *
 * | scope   | registrations            | runner                              |
 * |---------|--------------------------|-------------------------------------|
 * | project | <root>/.cursor/hooks.json | <root>/.cursor/hooks/kizu-hook.sh  |
 * | user    | ~/.cursor/hooks.json      | ~/.cursor/hooks/kizu-hook.sh       |
 *
 * Registered: `afterFileEdit` → `journal` (each edit recorded in the edit journal; Cursor
 * reads no output of it, so the `post-tool-use` context hook is not registered: post-edit
 * context is not available on Cursor); `stop` → `stop` (the stop gate, its block sent as a
 * follow-up message, at most Cursor's default `loop_limit` of 5 per conversation);
 * `beforeSubmitPrompt` → `user-prompt-submit` (the prompt snapshot); `beforeShellExecution`
 * → `pre-tool-use` (the pre-tool gate, for shell commands only).
 */
import { readConfigText } from '../config-text.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../../errors.js';
import { HOOK_SCRIPT } from '../../install/targets.js';
import { SCRIPT_MARKER } from '../../install/scripts.js';
import { shellQuote } from '../../words.js';
import type { AgentEvent } from '../../hooks/contract.js';
import type { AgentHookState, AgentInstallContext, AgentInstallPlan, AgentInstaller, AgentRemovePlan } from '../registry.js';
import { mergeCursorHooks, registeredCursorHooks, removeCursorHooks, type CursorEntry } from './hooks-file.js';

/** Hook timeouts in seconds (Cursor's per-script `timeout`), as for Claude Code. */
export const STOP_TIMEOUT_S = 30;
export const JOURNAL_TIMEOUT_S = 30;
export const PROMPT_TIMEOUT_S = 30;
export const PRE_TOOL_TIMEOUT_S = 30;

/** The documentation everything for Cursor was built from. */
export const CURSOR_DOCS = 'https://cursor.com/docs/hooks';

/** Where one scope's files are (absolute paths). */
export interface CursorTargets {
  /** `<root>/.cursor` or `~/.cursor`. */
  dir: string;
  /** `<dir>/hooks.json`. */
  hooksFile: string;
  /** `<dir>/hooks/kizu-hook.sh`. */
  runner: string;
}

/**
 * The files of `ctx`'s scope.
 * @throws KizuError (exit 2) for the project scope without a repository.
 */
export function cursorTargets(ctx: AgentInstallContext): CursorTargets {
  let base: string;
  if (ctx.scope === 'user') base = ctx.home;
  else if (ctx.root) base = ctx.root;
  else throw new KizuError('Cursor project hooks need a git repository', { hint: 'run it inside the repository, or use --scope user' });
  const dir = path.join(base, '.cursor');
  return { dir, hooksFile: path.join(dir, 'hooks.json'), runner: path.join(dir, 'hooks', HOOK_SCRIPT) };
}

/**
 * The command of the hook for git-kizu's `hook`: the project runner by its path from the
 * project root (where Cursor runs project hooks; no machine path, the same for every
 * teammate), or the user runner by its absolute path; then the hook and the agent,
 * `cursor` (templates/hooks/kizu-hook.sh).
 */
export function cursorHookCommand(ctx: AgentInstallContext, t: CursorTargets, hook: AgentEvent): string {
  const script = ctx.scope === 'user' ? shellQuote(t.runner) : `.cursor/hooks/${HOOK_SCRIPT}`;
  return `${script} ${hook} cursor`;
}

/** The four definitions init registers (see the module comment). */
export function cursorEntries(command: (hook: AgentEvent) => string): CursorEntry[] {
  return [
    { event: 'afterFileEdit', hook: 'journal', def: { command: command('journal'), timeout: JOURNAL_TIMEOUT_S } },
    { event: 'stop', hook: 'stop', def: { command: command('stop'), timeout: STOP_TIMEOUT_S } },
    { event: 'beforeSubmitPrompt', hook: 'user-prompt-submit', def: { command: command('user-prompt-submit'), timeout: PROMPT_TIMEOUT_S } },
    { event: 'beforeShellExecution', hook: 'pre-tool-use', def: { command: command('pre-tool-use'), timeout: PRE_TOOL_TIMEOUT_S } },
  ];
}

function entriesFor(ctx: AgentInstallContext, t: CursorTargets): CursorEntry[] {
  return cursorEntries((hook) => cursorHookCommand(ctx, t, hook));
}

/** True if the `.cursor` folder of `ctx`'s scope exists. */
function detect(ctx: AgentInstallContext): boolean {
  if (ctx.scope === 'project' && !ctx.root) return false;
  return existsSync(cursorTargets(ctx).dir);
}

/**
 * The runner and the merged hooks.json, with notes saying what Cursor will run, that it was
 * built from documentation only, and (project scope) that Cursor runs project hooks only in
 * a trusted workspace.
 * @throws KizuError (exit 2) for a hooks.json that cannot be read or parsed.
 */
function planInstall(ctx: AgentInstallContext): AgentInstallPlan {
  const t = cursorTargets(ctx);
  const text = mergeCursorHooks(t.hooksFile, readConfigText(t.hooksFile), entriesFor(ctx, t));
  const notes = [
    `Cursor runs git-kizu from ${ctx.scope === 'user' ? '~/.cursor/hooks.json' : '.cursor/hooks.json'}: afterFileEdit records each edit in the journal, stop keeps the agent working while review scars remain (as a follow-up message; Cursor sends at most 5 in a conversation), beforeSubmitPrompt snapshots the working tree, beforeShellExecution denies shell commands that would switch review off (edits are not gated before the write: Cursor documents no hook for that).`,
    `Cursor gives a hook no way to add context after an edit, so the agent learns of scars when it tries to stop.`,
    `Built from Cursor's documentation only (${CURSOR_DOCS}); not run against Cursor itself.`,
  ];
  if (ctx.scope === 'project') notes.push('Cursor runs project hooks only in a trusted workspace: trust this folder when Cursor asks.');
  return {
    writes: [
      { file: t.runner, text: ctx.runner, mode: 0o755, owned: true },
      { file: t.hooksFile, text, owned: false },
    ],
    notes,
  };
}

/**
 * git-kizu's definitions taken out of hooks.json (null text when only `version` is left),
 * and the runner deleted when it carries the generated header.
 * @throws KizuError (exit 2) for a hooks.json that cannot be read or parsed.
 */
function planRemove(ctx: AgentInstallContext): AgentRemovePlan {
  const t = cursorTargets(ctx);
  const writes: AgentRemovePlan['writes'] = [];
  const text = readConfigText(t.hooksFile);
  if (text !== null) {
    const r = removeCursorHooks(t.hooksFile, text);
    if (r.changed) writes.push({ file: t.hooksFile, text: r.empty ? null : r.text, empty: r.text });
  }
  let runner: string | null = null;
  try {
    runner = readFileSync(t.runner, 'utf8');
  } catch {
    /* not there (or unreadable): nothing of ours to delete */
  }
  return { writes, deletes: runner !== null && runner.includes(SCRIPT_MARKER) ? [t.runner] : [], notes: [] };
}

/**
 * Installed when hooks.json registers all three hooks and the runner exists; trust
 * `not-needed` for the user scope, `unknown` for the project scope (Cursor keeps workspace
 * trust in its own state). Never throws.
 */
function state(ctx: AgentInstallContext): AgentHookState {
  let t: CursorTargets;
  try {
    t = cursorTargets(ctx);
  } catch (e) {
    return { installed: 'missing', trust: 'unknown', file: path.join(ctx.home, '.cursor', 'hooks.json'), fix: (e as Error).message };
  }
  const trust = ctx.scope === 'user' ? 'not-needed' : 'unknown';
  let registered: boolean[];
  try {
    const text = readConfigText(t.hooksFile);
    registered = text === null ? [false] : registeredCursorHooks(t.hooksFile, text, entriesFor(ctx, t));
  } catch (e) {
    return { installed: 'missing', trust, file: t.hooksFile, fix: `${(e as Error).message}; fix it, then run \`${ctx.initCmd}\`` };
  }
  const all = registered.every(Boolean) && existsSync(t.runner);
  const none = !registered.some(Boolean);
  return { installed: all ? 'installed' : none ? 'missing' : 'partial', trust, file: t.hooksFile, fix: all ? null : `run \`${ctx.initCmd}\`` };
}

/** Cursor's install module (src/agents/registry.ts `loadInstaller('cursor')`). */
export const installer: AgentInstaller = { detect, planInstall, planRemove, state };
