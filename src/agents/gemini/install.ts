/**
 * Where Gemini CLI reads hook registrations, and git-kizu's entries there (the
 * `AgentInstaller` of src/agents/registry.ts, driven by init, teardown and status).
 *
 * | scope   | settings file (key `hooks`)  | runner                             | command                                                         |
 * |---------|------------------------------|------------------------------------|-----------------------------------------------------------------|
 * | project | <root>/.gemini/settings.json | <root>/.gemini/hooks/kizu-hook.sh  | `"${GEMINI_PROJECT_DIR}/.gemini/hooks/kizu-hook.sh" <hook> gemini` |
 * | user    | ~/.gemini/settings.json      | ~/.gemini/hooks/kizu-hook.sh       | `<absolute runner, shell-quoted> <hook> gemini`                 |
 *
 * Facts of @google/gemini-cli 0.61.0 (its core's hooks/ and config/ modules, and measured):
 * - the settings' `hooks` has the grouped shape of agents/hooks-json.ts (edited with it,
 *   everything else keeping its bytes); a handler's `timeout` is in milliseconds and its
 *   `name` is what Gemini shows, lists in `hooksConfig.disabled` and keys its hook trust by;
 *   user and project arrays are concatenated;
 * - a matcher is a JavaScript regular expression tested unanchored against the tool name
 *   (an exact comparison only when it does not compile), so ours is anchored;
 * - a command runs with `bash -c` in the payload's `cwd` (the directory Gemini CLI was
 *   started in, where it reads `.gemini/settings.json`), with `GEMINI_PROJECT_DIR`,
 *   `GEMINI_CWD` and `CLAUDE_PROJECT_DIR` set to it; Gemini also replaces the text
 *   `$GEMINI_PROJECT_DIR` in the command by that path shell-quoted, which would break inside
 *   double quotes, so the command uses `${GEMINI_PROJECT_DIR}` (the variable);
 * - hooks have no asynchronous form: an event's hooks run in parallel and the agent waits for
 *   all of them, so the journal hook runs beside the review hook after each edit;
 * - trust: with folder trust on (`security.folderTrust.enabled`, default true) no settings
 *   hook runs (user or project) unless the working folder is trusted: by a rule in
 *   `~/.gemini/trustedFolders.json` (`GEMINI_CLI_TRUSTED_FOLDERS_PATH`), `{"<path>":
 *   "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST"}`, the longest matching path winning,
 *   which the interactive trust dialog writes; or `GEMINI_CLI_TRUST_WORKSPACE=true` (what
 *   `--skip-trust` sets, but only after the project settings were left unread); headless mode
 *   refuses to run in an untrusted folder. Project hooks not yet in `~/.gemini/trusted_hooks.json`
 *   (`{"<project root>": ["<name>:<command>", ...]}`) run anyway, after a warning that lists
 *   them, and are recorded there.
 */
import { readConfigText } from '../config-text.js';
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { KizuError } from '../../errors.js';
import { shellQuote } from '../../words.js';
import type { AgentEvent } from '../../hooks/contract.js';
import { getNodeValue } from 'jsonc-parser';
import { hasKizuHooks, mergeKizuHooks, parseSettings, removeKizuHooks, type Dialect, type KizuEntry } from '../hooks-json.js';

/**
 * Gemini CLI's settings.json: comments allowed (it strips them before parsing), and `hooks`
 * may hold `enabled`, `disabled` and `notifications` beside the event arrays (its
 * `hooksConfig` keys of earlier versions), which git-kizu leaves alone.
 */
const GEMINI_SETTINGS: Dialect = { comments: true, otherHookKeys: true };
import type { AgentFileWrite, AgentHookState, AgentInstallContext, AgentInstallPlan, AgentInstaller, AgentRemovePlan } from '../registry.js';
import { EDIT_TOOLS, GEMINI_EVENTS, SHELL_TOOL } from './payload.js';

/** The runner's file name (the same runner as every agent's: templates/hooks/kizu-hook.sh). */
const RUNNER = 'kizu-hook.sh';

/** The AfterTool matcher: exactly Gemini CLI's file-editing tools (anchored: Gemini tests it unanchored). */
export const AFTER_TOOL_MATCHER = `^(${EDIT_TOOLS.join('|')})$`;
/** The BeforeTool matcher of the pre-tool gate: the shell tool and the file-editing tools (anchored). */
export const BEFORE_TOOL_MATCHER = `^(${[SHELL_TOOL, ...EDIT_TOOLS].join('|')})$`;

/** Each hook's handler `name` and `timeout` (milliseconds, Gemini CLI's unit; its default is 60 000). */
export const GEMINI_HOOKS: Record<AgentEvent, { name: string; timeout: number }> = {
  stop: { name: 'kizu-stop', timeout: 30_000 },
  'post-tool-use': { name: 'kizu-post-tool-use', timeout: 10_000 },
  journal: { name: 'kizu-journal', timeout: 30_000 },
  'user-prompt-submit': { name: 'kizu-snapshot', timeout: 30_000 },
  'pre-tool-use': { name: 'kizu-pre-tool-gate', timeout: 30_000 },
};

/** The order of the entries in a new `hooks` object. */
const ORDER: AgentEvent[] = ['stop', 'post-tool-use', 'journal', 'user-prompt-submit', 'pre-tool-use'];

/** `<root>/.gemini` (project) or `~/.gemini` (user). */
function geminiDir(ctx: AgentInstallContext): string {
  if (ctx.scope === 'user') return path.join(ctx.home, '.gemini');
  if (!ctx.root) throw new KizuError('Gemini CLI project hooks need a git repository', { hint: 'run the command inside the repository, or use --scope user' });
  return path.join(ctx.root, '.gemini');
}

/** The settings file of `ctx`'s scope. */
export function settingsFile(ctx: AgentInstallContext): string {
  return path.join(geminiDir(ctx), 'settings.json');
}

/** The runner of `ctx`'s scope. */
export function runnerFile(ctx: AgentInstallContext): string {
  return path.join(geminiDir(ctx), 'hooks', RUNNER);
}

/**
 * The command line of hook `hook`: for project scope through `${GEMINI_PROJECT_DIR}` (no
 * machine path, the same for every clone), for user scope the runner's absolute path.
 */
export function hookCommand(ctx: AgentInstallContext, hook: AgentEvent): string {
  const runner = ctx.scope === 'user' ? shellQuote(runnerFile(ctx)) : `"\${GEMINI_PROJECT_DIR}/.gemini/hooks/${RUNNER}"`;
  return `${runner} ${hook} gemini`;
}

/**
 * git-kizu's five groups: AfterAgent runs `stop`; AfterTool (for {@link AFTER_TOOL_MATCHER})
 * runs `post-tool-use` and, in a group of its own, `journal`; BeforeAgent runs
 * `user-prompt-submit` (a snapshot before each prompt; it prints nothing); BeforeTool (for
 * {@link BEFORE_TOOL_MATCHER}) runs `pre-tool-use`, the gate.
 */
export function geminiEntries(ctx: AgentInstallContext): KizuEntry[] {
  return ORDER.map((hook) => {
    const { name, timeout } = GEMINI_HOOKS[hook];
    const handler = { name, type: 'command' as const, command: hookCommand(ctx, hook), timeout };
    const event = GEMINI_EVENTS[hook];
    const matcher = event === 'AfterTool' ? AFTER_TOOL_MATCHER : event === 'BeforeTool' ? BEFORE_TOOL_MATCHER : undefined;
    return { event, hook, group: matcher ? { matcher, hooks: [handler] } : { hooks: [handler] } };
  });
}

/** True if `dir` is a directory. */
function isDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The trust step, in words, for init's notes and status's fix. */
function trustStep(ctx: AgentInstallContext, folder: string | null): string {
  const where = folder ? shellQuote(folder) : 'each repository';
  return (
    `Gemini CLI runs hooks only in ${folder ? 'a trusted folder' : 'trusted folders'}: trust ${where} when Gemini CLI asks at start ` +
    `(or add "${folder ?? '<folder>'}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json); ` +
    `headless runs (gemini -p) need GEMINI_CLI_TRUST_WORKSPACE=true` +
    (ctx.scope === 'project' ? ' (--skip-trust does not read the project settings)' : '')
  );
}

/** The trust step in one short line, for status and doctor. */
function trustFix(folder: string): string {
  return `trust ${shellQuote(folder)} in Gemini CLI (its trust dialog at start, or "${folder}": "TRUST_FOLDER" in ~/.gemini/trustedFolders.json)`;
}

function planInstall(ctx: AgentInstallContext): AgentInstallPlan {
  const file = settingsFile(ctx);
  const merged = mergeKizuHooks(file, readConfigText(file), geminiEntries(ctx), GEMINI_SETTINGS);
  const writes: AgentFileWrite[] = [
    { file: runnerFile(ctx), text: ctx.runner, mode: 0o755, owned: true },
    { file, text: merged.text, owned: false },
  ];
  const notes: string[] = [];
  // User hooks run in every trusted folder: the step names no one folder then.
  const folder = ctx.scope === 'project' ? ctx.root : null;
  if (folderTrust(ctx, folder) !== 'trusted') notes.push(trustStep(ctx, folder));
  if (ctx.scope === 'project') {
    notes.push(
      'Gemini CLI reads .gemini/settings.json from the folder it starts in: start it at the repository root. ' +
        'The first run lists the new project hooks in a warning and records them in ~/.gemini/trusted_hooks.json.',
    );
  }
  notes.push('Gemini CLI has no background hooks: the edit journal hook runs beside the review hook after each write_file or replace.');
  return { writes, notes };
}

function planRemove(ctx: AgentInstallContext): AgentRemovePlan {
  const file = settingsFile(ctx);
  const text = readConfigText(file);
  const writes: AgentRemovePlan['writes'] = [];
  if (text !== null && hasKizuHooks(file, text, GEMINI_SETTINGS)) {
    const r = removeKizuHooks(file, text, { events: null, dropEvents: 'emptied', dropHooksKey: 'emptied' }, GEMINI_SETTINGS);
    writes.push({ file, text: r.empty ? null : r.text, empty: r.empty ? r.text : '{}\n' });
  }
  const runner = runnerFile(ctx);
  return { writes, deletes: existsSync(runner) ? [runner] : [], notes: [] };
}

/** Our handler for `hook` (any scope's command), as a test on a command. */
function runsOurHook(hook: AgentEvent): RegExp {
  return new RegExp(`${RUNNER.replace('.', '\\.')}['"]?\\s+${hook}\\s+gemini(?![\\w-])`);
}

function state(ctx: AgentInstallContext): AgentHookState {
  let file: string;
  try {
    file = settingsFile(ctx);
  } catch (e) {
    return { installed: 'missing', trust: 'unknown', file: '', fix: (e as Error).message };
  }
  const trust = folderTrust(ctx, ctx.root);
  const fixInit = `run \`${ctx.initCmd}\``;
  let hooks: Record<string, unknown> = {};
  try {
    const text = readConfigText(file);
    if (text === null) return { installed: 'missing', trust, file, fix: fixInit };
    // Throws for invalid JSON or a wrong shape; the value without the comments Gemini allows.
    hooks = (getNodeValue(parseSettings(file, text, GEMINI_SETTINGS)) as { hooks?: Record<string, unknown> }).hooks ?? {};
  } catch (e) {
    return { installed: 'missing', trust, file, fix: `${(e as Error).message}; then ${fixInit}` };
  }
  const present = ORDER.filter((hook) => {
    const groups = hooks[GEMINI_EVENTS[hook]];
    const re = runsOurHook(hook);
    return (
      Array.isArray(groups) &&
      groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some((h: unknown) => typeof (h as { command?: unknown })?.command === 'string' && re.test((h as { command: string }).command)))
    );
  });
  let runnerOk = true;
  try {
    accessSync(runnerFile(ctx), constants.X_OK);
  } catch {
    runnerOk = false;
  }
  const installed = present.length === ORDER.length && runnerOk ? 'installed' : present.length ? 'partial' : 'missing';
  const off = installed === 'installed' ? hooksTurnedOff(ctx) : null;
  const fix = installed !== 'installed' ? fixInit : off ?? (trust === 'untrusted' && ctx.root ? trustFix(ctx.root) : null);
  return { installed, trust, file, fix };
}

/**
 * Where Gemini CLI's settings turn git-kizu's hooks off: `hooksConfig.enabled: false`, or
 * their names in `hooksConfig.disabled`, in the user's or the project's settings (both are
 * read: `enabled` is the project's if set, `disabled` lists are joined). Null when nothing
 * turns them off or a file cannot be read.
 */
function hooksTurnedOff(ctx: AgentInstallContext): string | null {
  const names = Object.values(GEMINI_HOOKS).map((h) => h.name);
  const files = [path.join(ctx.home, '.gemini', 'settings.json'), ...(ctx.root ? [path.join(ctx.root, '.gemini', 'settings.json')] : [])];
  let enabled: { value: unknown; file: string } | null = null;
  const disabled: string[] = [];
  for (const file of [...new Set(files)]) {
    let hc: { enabled?: unknown; disabled?: unknown } | undefined;
    try {
      hc = readJsonObject(file)?.hooksConfig as typeof hc;
    } catch {
      return null;
    }
    if (hc?.enabled !== undefined) enabled = { value: hc.enabled, file };
    if (Array.isArray(hc?.disabled)) disabled.push(...names.filter((n) => (hc.disabled as unknown[]).includes(n)).map((n) => `${n} (${file})`));
  }
  if (enabled?.value === false) return `Gemini CLI's hooks are turned off: set "hooksConfig": {"enabled": true} in ${enabled.file}`;
  if (disabled.length) return `Gemini CLI's hooksConfig.disabled lists ${disabled.join(', ')}: take them out of that list`;
  return null;
}

/** Reads a JSON (or JSONC) object file; null when missing; throws when unreadable or not an object. */
function readJsonObject(file: string): Record<string, unknown> | null {
  const text = readConfigText(file);
  if (text === null) return null;
  const errors: ParseError[] = [];
  const v = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length || typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${file} is not a JSON object`);
  return v as Record<string, unknown>;
}

/** realpath, or the path itself when it cannot be resolved (Gemini CLI does the same). */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Whether Gemini CLI will run settings hooks in `folder`, from files only (as its
 * `checkPathTrust`): `trusted` when folder trust is off in the user settings or the longest
 * matching rule of trustedFolders.json trusts the folder (`TRUST_FOLDER`, or `TRUST_PARENT`
 * of a folder inside its parent); `untrusted` for a `DO_NOT_TRUST` rule or no rule (Gemini
 * asks at start, and headless runs refuse); `unknown` without a folder (user scope outside a
 * repository) or with an unreadable file. The environment of the agent's own process
 * (`GEMINI_CLI_TRUST_WORKSPACE`) cannot be seen here.
 */
export function folderTrust(ctx: AgentInstallContext, folder: string | null): AgentHookState['trust'] {
  try {
    const user = readJsonObject(path.join(ctx.home, '.gemini', 'settings.json'));
    const ft = (user?.security as { folderTrust?: { enabled?: unknown } } | undefined)?.folderTrust;
    if (ft?.enabled === false) return 'trusted';
    if (!folder) return 'unknown';
    const rules = readJsonObject(ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(ctx.home, '.gemini', 'trustedFolders.json')) ?? {};
    const loc = real(folder);
    let best = -1;
    let level: unknown;
    for (const [rule, lvl] of Object.entries(rules)) {
      const eff = real(lvl === 'TRUST_PARENT' ? path.dirname(rule) : rule);
      const rel = path.relative(eff, loc);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (rule.length > best) {
        best = rule.length;
        level = lvl;
      }
    }
    return level === 'TRUST_FOLDER' || level === 'TRUST_PARENT' ? 'trusted' : 'untrusted';
  } catch {
    return 'unknown';
  }
}

/** Gemini CLI's install module. */
export const installer: AgentInstaller = {
  detect: (ctx) => {
    try {
      return isDir(geminiDir(ctx));
    } catch {
      return false;
    }
  },
  planInstall,
  planRemove,
  state,
};
