/**
 * Where GitHub Copilot CLI reads hook registrations, and git-kizu's (driven by
 * install/agents.ts through registry.ts `AgentInstaller`). GitHub docs "Copilot CLI hooks
 * reference" and Copilot CLI 1.0.102:
 * - hook files: every `*.json` in `<repo>/.github/hooks/` (project scope) and in
 *   `$COPILOT_HOME/hooks/` (user scope; COPILOT_HOME defaults to ~/.copilot), each
 *   `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash": "...", "timeoutSec": n}]}}`
 *   with no matcher (a postToolUse hook runs after every tool). git-kizu owns one whole file,
 *   `kizu.json`, next to its runner `kizu-hook.sh`;
 * - the camelCase events are registered (`postToolUse`, `agentStop`, `userPromptSubmitted`,
 *   `preToolUse`),
 *   whose payloads are camelCase (agents/copilot/payload.ts);
 * - the project command finds the runner from the repository's top level, as a hook may run
 *   in a subdirectory: `"$(git rev-parse --show-toplevel)"/.github/hooks/kizu-hook.sh <event> copilot`;
 * - trust: repository hooks load only in a folder the user trusts (Copilot asks when it first
 *   starts there and can remember the answer; `copilot -p` takes `--trust-folder` for one
 *   session, which trusts the working directory only: started in a subdirectory, the top
 *   level's hooks do not load then; `COPILOT_ALLOW_ALL=true` loads them). Where Copilot keeps
 *   the remembered folders is not a documented file, so `state()` cannot tell (`unknown`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../../errors.js';
import { shellQuote } from '../../words.js';
import type { AgentEvent } from '../../hooks/contract.js';
import type { AgentHookState, AgentInstallContext, AgentInstallPlan, AgentInstaller, AgentRemovePlan } from '../registry.js';

/** The hooks git-kizu registers: Copilot event, git-kizu hook. */
const HOOKS: { event: string; hook: AgentEvent }[] = [
  { event: 'postToolUse', hook: 'post-tool-use' },
  { event: 'postToolUse', hook: 'journal' },
  { event: 'agentStop', hook: 'stop' },
  { event: 'userPromptSubmitted', hook: 'user-prompt-submit' },
  // The pre-tool gate; Copilot's hooks have no matcher, so it runs before every tool call.
  { event: 'preToolUse', hook: 'pre-tool-use' },
];

/** Seconds Copilot gives each hook. */
const TIMEOUT = 30;

interface Where {
  dir: string;
  file: string;
  runnerFile: string;
  command(hook: AgentEvent): string;
}

/** @throws KizuError (exit 2) for project scope without a repository. */
function where(ctx: AgentInstallContext): Where {
  if (ctx.scope === 'user') {
    const dir = path.join(ctx.env.COPILOT_HOME || path.join(ctx.home, '.copilot'), 'hooks');
    const runnerFile = path.join(dir, 'kizu-hook.sh');
    return { dir, file: path.join(dir, 'kizu.json'), runnerFile, command: (h) => `${shellQuote(runnerFile)} ${h} copilot` };
  }
  if (!ctx.root) throw new KizuError('Copilot project hooks need a repository', { hint: `run ${ctx.initCmd} inside a git repository, or use --scope user` });
  const dir = path.join(ctx.root, '.github', 'hooks');
  return {
    dir,
    file: path.join(dir, 'kizu.json'),
    runnerFile: path.join(dir, 'kizu-hook.sh'),
    command: (h) => `"$(git rev-parse --show-toplevel)"/.github/hooks/kizu-hook.sh ${h} copilot`,
  };
}

/** The whole text of git-kizu's hook file for `w` (2-space JSON, LF, final newline). */
export function copilotHookFile(w: Pick<Where, 'command'>): string {
  const hooks: Record<string, { type: 'command'; bash: string; timeoutSec: number }[]> = {};
  for (const { event, hook } of HOOKS) (hooks[event] ??= []).push({ type: 'command', bash: w.command(hook), timeoutSec: TIMEOUT });
  return JSON.stringify({ version: 1, hooks }, null, 2) + '\n';
}

/** The lines telling the user how Copilot comes to trust `root`. */
function trustStep(root: string): string[] {
  return [
    `Copilot CLI loads ${path.join(root, '.github', 'hooks')}/*.json only in a trusted folder: start \`copilot\` in ${root} once and`,
    `choose to trust the folder and remember it (for one \`copilot -p\` run in ${root} itself: --trust-folder; anywhere: COPILOT_ALLOW_ALL=true).`,
  ];
}

/** See the module comment. */
export const installer: AgentInstaller = {
  detect(ctx) {
    if (ctx.scope === 'user') return existsSync(ctx.env.COPILOT_HOME || path.join(ctx.home, '.copilot'));
    return ctx.root !== null && existsSync(path.join(ctx.root, '.github', 'hooks'));
  },

  planInstall(ctx): AgentInstallPlan {
    const w = where(ctx);
    const notes = [`Copilot CLI will run git-kizu's hooks from ${w.file}.`];
    if (ctx.scope === 'project') notes.push(...trustStep(ctx.root!));
    return {
      writes: [
        { file: w.runnerFile, text: ctx.runner, mode: 0o755, owned: true },
        { file: w.file, text: copilotHookFile(w), owned: true },
      ],
      notes,
    };
  },

  planRemove(ctx): AgentRemovePlan {
    const w = where(ctx);
    return { writes: [], deletes: [w.file, w.runnerFile].filter((f) => existsSync(f)), notes: [] };
  },

  state(ctx): AgentHookState {
    let w: Where;
    try {
      w = where(ctx);
    } catch {
      return { installed: 'missing', trust: 'unknown', file: path.join(ctx.root ?? ctx.home, '.github', 'hooks', 'kizu.json'), fix: ctx.initCmd };
    }
    let present = 0;
    try {
      const doc = JSON.parse(readFileSync(w.file, 'utf8')) as { hooks?: Record<string, unknown> };
      for (const { event, hook } of HOOKS) {
        const list = doc.hooks?.[event];
        if (Array.isArray(list) && list.some((h) => (h as { bash?: unknown })?.bash === w.command(hook))) present++;
      }
    } catch {
      present = 0; // missing or unreadable: not installed
    }
    const runner = existsSync(w.runnerFile);
    const installed = present === HOOKS.length && runner ? 'installed' : present || runner ? 'partial' : 'missing';
    const trust = ctx.scope === 'user' ? 'not-needed' : 'unknown';
    const fix = installed !== 'installed' ? ctx.initCmd : trust === 'unknown' ? `trust ${ctx.root} in Copilot CLI if you have not (start \`copilot\` there and choose to remember the folder)` : null;
    return { installed, trust, file: w.file, fix };
  },
};
