/**
 * The coding agents git-kizu's hooks speak to, and each one's adapter (src/agents/<agent>/):
 * - `payload.ts` `parseHookInput(event, text, env)`: the agent's hook payload (JSON on stdin)
 *   → the agent-neutral input of src/hooks/contract.ts, with the agent's own event name;
 * - `envelope.ts` `renderAnswer(answer, hookEventName)`: a handler's agent-neutral answer →
 *   the exact stdout the agent reads ('' for nothing);
 * - `install.ts`: where the agent reads hook registrations and how git-kizu's entries are
 *   added, removed and checked (install/agents.ts drives it; not loaded by hooks).
 * Every module is imported only when its agent's hook or install runs.
 */
import type { AgentEvent, HookAnswer, ParsedPayload } from '../hooks/contract.js';

/** The agents, by the name `--agent` takes. */
export const AGENTS = ['claude', 'codex', 'gemini', 'copilot', 'cursor'] as const;
export type AgentName = (typeof AGENTS)[number];

/** Each agent's name for people (messages, status). */
export const AGENT_LABELS: Readonly<Record<AgentName, string>> = {
  claude: 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  copilot: 'Copilot CLI',
  cursor: 'Cursor',
};

/** True if `s` names an agent of {@link AGENTS}. */
export function isAgent(s: string): s is AgentName {
  return (AGENTS as readonly string[]).includes(s);
}

/** One agent's hook adapter: payload in, answer out. */
export interface HookAdapter {
  /**
   * Parses the payload the agent sent for git-kizu's hook `event`.
   * @throws PayloadError (contract.ts) when it is not this agent's payload for that event.
   */
  parseHookInput<E extends AgentEvent>(event: E, text: string, env: NodeJS.ProcessEnv): ParsedPayload<E>;
  /** The stdout text for `answer` ('' for nothing), for the agent's event `hookEventName`. */
  renderAnswer(answer: HookAnswer, hookEventName: string): string;
}

/** Loads the hook adapter of `agent` (its payload.ts and envelope.ts). */
export async function loadHookAdapter(agent: AgentName): Promise<HookAdapter> {
  // One case per agent, each with literal paths (the bundler splits each agent into its own chunk).
  switch (agent) {
    case 'claude':
      return adapter(await Promise.all([import('./claude/payload.js'), import('./claude/envelope.js')]));
    case 'codex':
      return adapter(await Promise.all([import('./codex/payload.js'), import('./codex/envelope.js')]));
    case 'copilot':
      return adapter(await Promise.all([import('./copilot/payload.js'), import('./copilot/envelope.js')]));
    case 'gemini':
      return adapter(await Promise.all([import('./gemini/payload.js'), import('./gemini/envelope.js')]));
    case 'cursor':
      return adapter(await Promise.all([import('./cursor/payload.js'), import('./cursor/envelope.js')]));
  }
}

function adapter([p, e]: [Pick<HookAdapter, 'parseHookInput'>, Pick<HookAdapter, 'renderAnswer'>]): HookAdapter {
  return { parseHookInput: p.parseHookInput, renderAnswer: e.renderAnswer };
}

/** What init, teardown and status hand an agent's install module (its `install.ts`). */
export interface AgentInstallContext {
  /** `project`: the repository's files (meant to be committed); `user`: the home directory's. */
  scope: 'project' | 'user';
  /** The repository's root (absolute), or null (user scope outside a repository). */
  root: string | null;
  /** The home directory (absolute). */
  home: string;
  /** The environment (CODEX_HOME, ...). */
  env: NodeJS.ProcessEnv;
  /** The text of the runner script (templates/hooks/kizu-hook.sh, rendered); the agent installs it where its hooks can run it. */
  runner: string;
  /** The command that regenerates the install, e.g. `git kizu init --agent codex` (for messages). */
  initCmd: string;
  /** The command that removes it, e.g. `git kizu teardown --agent codex`. */
  teardownCmd: string;
}

/** One file an agent's install writes. */
export interface AgentFileWrite {
  /** Absolute path. */
  file: string;
  /** The whole new content. */
  text: string;
  /** File mode for a new file (0o755 for scripts); an existing file keeps its mode. */
  mode?: number;
  /**
   * True: the whole file is git-kizu's (a runner script, `.github/hooks/kizu.json`), and
   * teardown deletes it. False: a file the user shares with other tools (`.codex/hooks.json`,
   * `.gemini/settings.json`), where only git-kizu's entries are ours.
   */
  owned: boolean;
}

/** What init writes for one agent, computed (and checked) before anything is written. */
export interface AgentInstallPlan {
  writes: AgentFileWrite[];
  /** Lines for the user after the files (the trust step the agent needs, what it will run). */
  notes: string[];
}

/** What teardown does for one agent. */
export interface AgentRemovePlan {
  /**
   * Shared files with git-kizu's entries taken out: the new text, or null when nothing but an
   * empty document is left (deleted if init created the file, else written as the empty document).
   */
  writes: { file: string; text: string | null; empty: string }[];
  /** git-kizu's own files to delete (when teardown's record says init created them and they are unchanged, or they carry the generated header). */
  deletes: string[];
  notes: string[];
}

/** Whether an agent will run git-kizu's hooks (status, doctor). */
export interface AgentHookState {
  /** `installed`: every hook registered; `partial`: some; `missing`: none. */
  installed: 'installed' | 'partial' | 'missing';
  /** `trusted`: the agent will run them; `untrusted`: it will skip them until the user trusts them (see `fix`); `not-needed`: the agent has no trust step; `unknown`: cannot tell from files. */
  trust: 'trusted' | 'untrusted' | 'not-needed' | 'unknown';
  /** The registration file (absolute). */
  file: string;
  /** One line: what to run or do when not installed and trusted. */
  fix: string | null;
}

/** One agent's install module (src/agents/<agent>/install.ts `installer`). */
export interface AgentInstaller {
  /** True if this agent's configuration folder exists for `ctx` (the repository's or the home's): the default agents of init. */
  detect(ctx: AgentInstallContext): boolean;
  /**
   * What to write so that the agent runs git-kizu's hooks. Idempotent (a second plan on the
   * written files writes the same bytes); everything else in shared files keeps its bytes.
   * @throws KizuError (exit 2) for a file that cannot be read or parsed; nothing is written then.
   */
  planInstall(ctx: AgentInstallContext): AgentInstallPlan;
  /** What to remove. @throws KizuError (exit 2) as {@link planInstall}. */
  planRemove(ctx: AgentInstallContext): AgentRemovePlan;
  /** Installed / trusted, from files only. Never throws (an unreadable file is `missing` with a fix). */
  state(ctx: AgentInstallContext): AgentHookState;
}

/** Loads the install module of `agent` (other than claude, whose install is install/install.ts with agents/claude/settings.ts). */
export async function loadInstaller(agent: Exclude<AgentName, 'claude'>): Promise<AgentInstaller> {
  switch (agent) {
    case 'codex':
      return (await import('./codex/install.js')).installer;
    case 'copilot':
      return (await import('./copilot/install.js')).installer;
    case 'gemini':
      return (await import('./gemini/install.js')).installer;
    case 'cursor':
      return (await import('./cursor/install.js')).installer;
  }
}
