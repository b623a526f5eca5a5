/**
 * Install integrity: is what `git kizu init` installed still what init would write now, and
 * does no setting switch the hooks off? The agent under review can edit every file of the
 * repository, of its git dir and of the home directory, so it can take out a Stop entry,
 * turn the runner or the launcher into a no-op, put `exit 0` into the pre-commit hook or set
 * `disableAllHooks`; none of that is refused, but each is found here and shown to the human
 * (`doctor`, `status`, and the prompt hook's message to the user), with the one command that
 * restores it (install/fix-commands.ts: re-run the install that was made).
 *
 * What is compared, for each install record found (state.ts: `<git-dir>/kizu/install-project.json`,
 * `install-local.json`, `~/.claude/kizu/install-user.json`), with what init renders now for
 * that record's scope, agents and plugin choice:
 * - Claude Code by settings: git-kizu's entries in the scope's settings file (parsed; only
 *   git-kizu's groups are compared, the user's other keys are theirs: agents/hooks-json.ts
 *   `mergeKizuHooks` must change nothing), the runner `kizu-hook.sh` byte for byte and
 *   executable;
 * - Claude Code by the plugin: the plugin is enabled, and the installed copy's hook files
 *   (`~/.claude/plugins/installed_plugins.json` `installPath`) equal the package's `plugin/`;
 * - each other agent: every file its install module would write (agents/<agent>/install.ts
 *   `planInstall`: shared files merged, owned files whole) equals the file there;
 * - the launcher (`<common-dir>/kizu/git-kizu`, `~/.claude/kizu/git-kizu`) byte for byte;
 * - the guard: git-kizu's own pre-commit hook byte for byte and executable, in the hooks
 *   directory git runs now (`core.hooksPath`); or each insertion in a hook manager's file
 *   still there exactly.
 * - the `/kizu` command (`.claude/commands/kizu.md`) byte for byte, when the record says init
 *   wrote it (its fix deletes it first: init keeps a command that differs);
 * - no folder on the way to those files, inside the repository or its git dir, is a symbolic
 *   link (links.ts `linkedFolder`; init refuses to write through one).
 * And the settings that switch hooks off, whoever wrote them: Claude Code `disableAllHooks`
 * in the user, project, local and managed settings (with, graded `warn`/`info`, an `env` key
 * that redirects the hooks and other hooks on git-kizu's events: settings-risks.ts); Gemini CLI `hooksConfig.enabled: false`
 * or git-kizu's hooks in `hooksConfig.disabled` (user, workspace, system settings); Codex CLI
 * `[features] hooks = false` (or its old name `codex_hooks`) in `$CODEX_HOME/config.toml`, the
 * project's `.codex/config.toml` and `/etc/codex/`. (Copilot CLI and Cursor document no such
 * switch.)
 *
 * The cheap mode (`cheap: true`, the prompt hook) runs no git process: the hooks directory
 * comes from `core.hooksPath` in the repository's own config file (a value from the global
 * or system config is seen by the full mode only), and the plugin's installed copy is not
 * read. Nothing here writes. The prompt hook runs the cheap mode through
 * install/prompt-integrity.ts, which also remembers what it told the user.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { installRecords, type InstallRecord } from './state.js';
import { hookCommand, targetsFor, type InstallTargets, type Scope } from './targets.js';
import { recordedBinPath, renderHookScript, renderSlashCommand } from './scripts.js';
import { linkedFolder, linkedStateFolders } from './linked-folders.js';
import { shellQuote } from '../words.js';
import { envRisks, foreignHookRisks } from './settings-risks.js';
import { renderLauncher } from './launcher.js';
import { kizuEntries } from '../agents/claude/settings.js';
import { AGENT_LABELS, loadInstaller, type AgentName } from '../agents/registry.js';
import type { OtherAgent } from './agents.js';
import { launcherFile } from '../git/layout.js';
import { pluginFix, reinstallFix, type RecordedInstall } from './fix-commands.js';
import { PACKAGE_ROOT } from '../package.js';
import { MARKETPLACE_NAME, PLUGIN_DIR, PLUGIN_NAME, pluginEnabled } from '../agents/claude/plugin.js';
import { commonDir, repoInfo } from '../git/repo.js';

/** One difference between the install and what init would write now, or a setting that switches hooks off. */
export interface IntegrityFinding {
  /** The file that differs or holds the setting (absolute). */
  file: string;
  /** What is wrong, one sentence without the file (e.g. `the Stop entry is missing or changed`). */
  what: string;
  /** The one command (or edit) that restores it. */
  fix: string;
  /**
   * Which review it weakens: `stop`, an agent's hooks (its Stop gate among them) may not run;
   * `guard`, the pre-commit guard may not run; `other` (the slash command, a hook that only
   * adds context).
   */
  weakens: 'stop' | 'guard' | 'other';
  /**
   * How it is graded: absent, a difference from the install or a switch that turns hooks
   * off (doctor: `fix`); `warn`, a setting that can weaken review but may be the user's own
   * (another hook on Stop, a redirecting `env` key; doctor: `warn`, not counted as a fix;
   * the prompt hook tells it); `info`, named only (another hook on PostToolUse; doctor: an
   * `ok` line; the prompt hook does not tell it).
   */
  level?: 'warn' | 'info';
}

/** Where to look. */
export interface IntegrityInput {
  /** The working tree's root. */
  root: string;
  /** This worktree's git dir. */
  gitDir: string;
  /** The common git dir. */
  commonDir: string;
  /** The home directory (for `~/.claude`, `~/.gemini`, the user record). */
  home: string;
  env: NodeJS.ProcessEnv;
  /**
   * The hooks directory git runs (`git rev-parse --git-path hooks`, install/git-hook.ts
   * `effectiveHooksDir`); undefined: read from the repository's config file without git
   * (the cheap mode).
   */
  hooksDir?: string;
  /** The cheap mode (the prompt hook): skip what costs more than reading a few files. */
  cheap?: boolean;
}

/**
 * The integrity findings for the repository at `i.root` and the user-scope install.
 * No record, no comparison (teardown, or never installed: `doctor`'s other checks say what
 * is missing). Never throws: a file that cannot be read where init wrote one is a finding.
 * @returns the findings, in record order (project, local, user), each record's in the order
 *   settings, runner, plugin, agents, launcher, guard; then the off-switches.
 */
export async function checkIntegrity(i: IntegrityInput): Promise<IntegrityFinding[]> {
  const out: IntegrityFinding[] = [];
  const repo = { root: i.root, gitDir: i.gitDir };
  // A state folder linked away is read from where it leads: the records below, the launcher
  // the guard runs. Named before anything is compared (it may hold no records at all).
  for (const l of linkedStateFolders(i.gitDir, i.commonDir)) {
    out.push({
      file: l.dir,
      what: `git-kizu's state folder is a symbolic link (to ${JSON.stringify(l.target)}): the install record, the launcher the pre-commit hook runs and the review records are read from where it leads`,
      fix: `rm ${shellQuote(l.dir)} && git kizu init`,
      weakens: 'guard',
    });
  }
  const records = installRecords(i.gitDir, i.home);
  if (!records.length) return out;
  const bin = safe(() => recordedBinPath(), '');
  const plugin = pluginEnabled(i.home);
  let claudeUsed = false;
  const agentsUsed = new Set<AgentName>();
  for (const [scope, rec] of records) {
    const t = targetsFor(scope, i.home, repo, i.commonDir);
    const inst = recordedOf(scope, rec);
    const fix = reinstallFix(inst, !!rec.preCommit || !!rec.guard?.length);
    const claude = rec.claude ?? 'settings';
    if (claude !== 'none') claudeUsed = true;
    checkLinkedFolders(i, t, rec, fix, out);
    if (claude === 'settings' && rec.settings) {
      await checkClaudeSettings(t, fix, out);
      if (t.hookScript) checkScript(t.hookScript, renderHookScript('kizu-hook.sh', { bin, initCmd: t.initCmd, teardownCmd: t.teardownCmd }), 'the hook runner', fix, 'stop', out);
      // The /kizu command tells the next session what to do: an edited one can teach it to clear review.
      // init keeps a command that differs (it may be the human's edit): the fix deletes it first.
      if (rec.files[t.commandFile]) checkScript(t.commandFile, safe(() => renderSlashCommand(), ''), 'the /kizu slash command', `rm ${shellQuote(shownFile(t.commandFile, i.root))} && ${fix}`, 'other', out, false);
    }
    if (claude === 'plugin') await checkPlugin(i.home, plugin, !!i.cheap, out);
    for (const agent of Object.keys(rec.agents ?? {}) as OtherAgent[]) {
      if (!(agent in AGENT_LABELS) || agent === ('claude' as string)) continue;
      agentsUsed.add(agent);
      await checkAgent(t, agent, i.env, fix, out);
    }
    checkScript(t.launcher, renderLauncher(), 'the launcher (it starts git-kizu for the hooks)', fix, scope === 'local' ? 'stop' : 'guard', out, false);
    if (scope === 'user' && (rec.preCommit || rec.guard?.length)) {
      checkScript(launcherFile(i.commonDir), renderLauncher(), 'the launcher (it starts git-kizu for the hooks)', fix, 'guard', out, false);
    }
    checkGuard(i, rec, fix, bin, out);
  }
  if (claudeUsed) await claudeOffSwitches(i, out);
  if (agentsUsed.has('gemini')) await geminiOffSwitches(i, out);
  if (agentsUsed.has('codex')) codexOffSwitches(i, out);
  // One finding per file and sentence (two records may name the same launcher).
  const seen = new Set<string>();
  return out.filter((f) => {
    const k = `${f.file}\n${f.what}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The folders on the way to the files a record's install wrote, inside the repository and
 * its git dir (links.ts `linkedFolder`): a symbolic link there (`.claude -> .git`,
 * `.git/hooks -> elsewhere`) makes init refuse, and what is read through it may live
 * anywhere. One finding per link. Costs one lstat per folder.
 */
function checkLinkedFolders(i: IntegrityInput, t: InstallTargets, rec: InstallRecord, fix: string, out: IntegrityFinding[]): void {
  const tops = [i.root, i.gitDir, i.commonDir];
  const files = [
    t.settingsFile,
    t.commandFile,
    ...(t.hookScript ? [t.hookScript] : []),
    t.launcher,
    t.recordFile,
    ...(rec.preCommit ? [rec.preCommit.hook] : []),
    ...(rec.guard ?? []).map((g) => g.file),
    ...Object.values(rec.agents ?? {}).flatMap((a) => Object.keys(a?.files ?? {})),
  ];
  for (const f of files) {
    const l = linkedFolder(tops, f);
    if (l) {
      out.push({
        file: l.dir,
        what: `this folder of the install is a symbolic link (to ${l.target}); git kizu init refuses to write through it, and what is read through it can live anywhere`,
        fix: `remove the link (rm ${shownFile(l.dir, i.root)}) and put the real folder there, then run \`${fix}\``,
        weakens: 'other',
      });
    }
  }
}

/** What a record says was installed, as fix-commands.ts reads it. */
function recordedOf(scope: Scope, rec: InstallRecord): RecordedInstall {
  const claude = rec.claude ?? 'settings';
  const others = Object.keys(rec.agents ?? {});
  const agents = (['claude', 'codex', 'gemini', 'copilot', 'cursor'] as AgentName[]).filter((a) => (a === 'claude' ? claude !== 'none' : others.includes(a)));
  return { scope, claude, agents, ...(rec.noPreCommit ? { noPreCommit: true } : {}) };
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** The file's text, or null when it cannot be read (missing, a directory, no permission). */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A script init writes whole: `file` must hold exactly `expected` (and, with `exec`, be
 * executable by its owner).
 */
function checkScript(file: string, expected: string, label: string, fix: string, weakens: IntegrityFinding['weakens'], out: IntegrityFinding[], exec = true): void {
  const cur = readText(file);
  if (cur === null) {
    out.push({ file, what: `${label} is missing`, fix, weakens });
  } else if (cur !== expected) {
    out.push({ file, what: `${label} differs from what git kizu init writes`, fix, weakens });
  } else if (exec && !(safe(() => statSync(file).mode, 0o755) & 0o100)) {
    out.push({ file, what: `${label} is not executable`, fix, weakens });
  }
}

/**
 * Claude Code's settings file of `t`: each of git-kizu's entries as init merges it. The
 * settings editor (agents/hooks-json.ts and its parser) is loaded only when the file is not
 * plainly ours ({@link exactlyOurs}), which keeps it off the prompt hook's common path.
 */
async function checkClaudeSettings(t: InstallTargets, fix: string, out: IntegrityFinding[]): Promise<void> {
  const file = t.settingsFile;
  const text = readText(file);
  if (text === null) {
    out.push({ file, what: 'the settings file with git-kizu\'s hooks is missing', fix, weakens: 'stop' });
    return;
  }
  const entries = kizuEntries((hook) => hookCommand(t, hook));
  const differ: string[] = [];
  if (exactlyOurs(text, entries)) return;
  try {
    const { mergeKizuHooks } = await import('../agents/hooks-json.js');
    // One merge of every entry first; then each alone, to name what differs.
    if (!mergeKizuHooks(file, text, entries).changed) return;
    for (const e of entries) if (mergeKizuHooks(file, text, [e]).changed) differ.push(e.hook === 'journal' ? 'PostToolUse (journal)' : e.event);
  } catch (err) {
    out.push({ file, what: `cannot be read as settings: ${oneLine(err)}`, fix: `fix the JSON, then run \`${fix}\``, weakens: 'stop' });
    return;
  }
  if (!differ.length) {
    out.push({ file, what: "git-kizu's entries differ from what git kizu init writes", fix, weakens: 'stop' });
    return;
  }
  const events = [...new Set(differ)];
  out.push({
    file,
    what: `git-kizu's ${events.join(', ')} ${events.length === 1 ? 'entry is' : 'entries are'} missing or changed`,
    fix,
    weakens: events.some((e) => e === 'Stop' || e === 'SubagentStop') ? 'stop' : 'other',
  });
}

/**
 * The common case without the settings editor (agents/hooks-json.ts, whose parser costs the
 * prompt hook most of this check): `text` is plain JSON whose `hooks` hold each entry's group
 * exactly, and no other handler runs one of those commands. Then init's merge changes nothing.
 * False means "ask the merge", not "differs".
 */
function exactlyOurs(text: string, entries: { event: string; group: { hooks: { command: string }[] } }[]): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  const hooks = (v as { hooks?: unknown } | null)?.hooks;
  if (!hooks || typeof hooks !== 'object') return false;
  const ours = new Set(entries.flatMap((e) => e.group.hooks.map((h) => h.command)));
  let handlers = 0;
  for (const groups of Object.values(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const hs = (g as { hooks?: unknown } | null)?.hooks;
      if (Array.isArray(hs)) handlers += hs.filter((h) => ours.has((h as { command?: unknown } | null)?.command as string)).length;
    }
  }
  if (handlers !== entries.reduce((n, e) => n + e.group.hooks.length, 0)) return false;
  return entries.every((e) => {
    const groups = (hooks as Record<string, unknown>)[e.event];
    return Array.isArray(groups) && groups.some((g) => isDeepStrictEqual(g, e.group));
  });
}

/** The plugin: enabled, and (full mode) the installed copy's hook files equal the package's. */
async function checkPlugin(home: string, enabled: boolean, cheap: boolean, out: IntegrityFinding[]): Promise<void> {
  const settings = path.join(home, '.claude', 'settings.json');
  if (!enabled) {
    out.push({ file: settings, what: `the ${PLUGIN_NAME} plugin that runs git-kizu's hooks is not enabled`, fix: pluginFix(), weakens: 'stop' });
    return;
  }
  if (cheap) return;
  const index = readText(path.join(home, '.claude', 'plugins', 'installed_plugins.json'));
  if (index === null) return;
  const v = await jsonObject(index);
  const entries = safe(() => (v as { plugins?: Record<string, { installPath?: unknown }[]> }).plugins?.[`${PLUGIN_NAME}@${MARKETPLACE_NAME}`] ?? [], []);
  for (const e of Array.isArray(entries) ? entries : []) {
    if (typeof e?.installPath !== 'string' || !path.isAbsolute(e.installPath)) continue;
    for (const rel of ['hooks/hooks.json', 'hooks/kizu-plugin-hook.sh', 'commands/kizu.md']) {
      const want = readText(path.join(PACKAGE_ROOT, PLUGIN_DIR, rel));
      const file = path.join(e.installPath, rel);
      if (want !== null && readText(file) !== want) {
        out.push({ file, what: `the installed ${PLUGIN_NAME} plugin's ${rel} differs from this git-kizu's`, fix: `claude plugin uninstall ${PLUGIN_NAME}@${MARKETPLACE_NAME} && ${pluginFix()}`, weakens: 'stop' });
      }
    }
  }
}

/**
 * One other agent: each file git-kizu owns whole (its runner, `.github/hooks/kizu.json`) is
 * what its install would write now, byte for byte; in the files shared with the user
 * (`.codex/hooks.json`, `.gemini/settings.json`, Codex's config.toml), every one of
 * git-kizu's hooks is registered (the install module's `state`: the user's own keys and
 * order there are theirs, and init's merge moves some of its blocks, so bytes would differ
 * for edits that change nothing of git-kizu's).
 */
async function checkAgent(t: InstallTargets, agent: OtherAgent, env: NodeJS.ProcessEnv, fix: string, out: IntegrityFinding[]): Promise<void> {
  if (t.scope === 'local') return;
  const label = AGENT_LABELS[agent];
  let plan;
  let state;
  try {
    const installer = await loadInstaller(agent);
    // Loaded only for an install with other agents (the prompt hook's path stays small).
    const { agentContext } = await import('./agents.js');
    const ctx = agentContext(t, agent, env);
    plan = installer.planInstall(ctx);
    state = installer.state(ctx);
  } catch (e) {
    out.push({ file: t.repo?.root ?? t.home, what: `${label}'s hook settings cannot be read: ${oneLine(e)}`, fix, weakens: 'stop' });
    return;
  }
  for (const w of plan.writes) {
    if (!w.owned) continue;
    checkScript(w.file, w.text, `${label}'s git-kizu file`, fix, 'stop', out, w.mode !== undefined && (w.mode & 0o100) !== 0);
  }
  if (state.installed !== 'installed') {
    out.push({ file: state.file, what: `git-kizu's ${label} hooks are ${state.installed === 'partial' ? 'only partly' : 'not'} registered in it`, fix, weakens: 'stop' });
  }
}

/** The guard of a record: git-kizu's own hook where git runs hooks now, or each manager insertion still in its file. */
function checkGuard(i: IntegrityInput, rec: InstallRecord, fix: string, bin: string, out: IntegrityFinding[]): void {
  if (rec.preCommit) {
    const hook = rec.preCommit.hook;
    const want = renderHookScript('pre-commit', { bin, initCmd: 'git kizu init', teardownCmd: 'git kizu teardown' });
    checkScript(hook, want, 'the pre-commit guard', fix, 'guard', out);
    const runs = i.hooksDir ?? cheapHooksDir(i);
    if (runs !== null && real(runs) !== real(path.dirname(hook))) {
      out.push({ file: hook, what: `git runs the hooks in ${runs} now (core.hooksPath), not the guard here`, fix, weakens: 'guard' });
    }
  }
  for (const g of rec.guard ?? []) {
    const cur = readText(g.file);
    if (cur === null) out.push({ file: g.file, what: `the ${g.manager} file with the git-kizu guard is missing`, fix, weakens: 'guard' });
    else if (!cur.includes(g.text)) out.push({ file: g.file, what: `the git-kizu guard lines init added for ${g.manager} are missing or changed`, fix, weakens: 'guard' });
  }
}

/**
 * The hooks directory from `core.hooksPath` in the repository's config files
 * (`<common-dir>/config`, then `<git-dir>/config.worktree`, the later one winning), else
 * `<common-dir>/hooks`. Relative values are relative to the working tree's root, `~/` to
 * the home directory (git-config(1) core.hooksPath). Includes and the global and system
 * config are not read.
 */
function cheapHooksDir(i: IntegrityInput): string | null {
  let value: string | null = null;
  for (const f of [path.join(i.commonDir, 'config'), path.join(i.gitDir, 'config.worktree')]) {
    const text = readText(f);
    if (text === null) continue;
    const v = configValue(text, 'core', 'hookspath');
    if (v !== undefined) value = v;
  }
  if (value === null || value === '') return path.join(i.commonDir, 'hooks');
  if (value.startsWith('~/')) return path.join(i.home, value.slice(2));
  return path.resolve(i.root, value);
}

/** The last value of `section.key` (both lower case; no subsection) in git config text, or undefined. A simple reading: quotes and backslash escapes, `#`/`;` comments. */
export function configValue(text: string, section: string, key: string): string | undefined {
  let cur = '';
  let found: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const sec = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\](.*)$/.exec(line);
    let rest = line;
    if (sec) {
      cur = /"/.test(line) ? `${sec[1].toLowerCase()}."` : sec[1].toLowerCase();
      rest = sec[2].trim();
      if (!rest) continue;
    }
    if (cur !== section) continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(rest);
    if (!kv || kv[1].toLowerCase() !== key) continue;
    let v = '';
    let q = false;
    const s = kv[2] ?? 'true';
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (c === '"') q = !q;
      else if (c === '\\' && k + 1 < s.length) {
        const n = s[++k];
        v += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      } else if (!q && (c === '#' || c === ';')) break;
      else v += c;
    }
    found = v.trim();
  }
  return found;
}

/** The managed settings file of Claude Code on this platform (Claude Code settings docs, "Settings files"). */
function claudeManagedSettings(): string {
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/**
 * Parses JSON with comments (the agents' settings allow them); undefined when it is not an
 * object. Plain JSON first: the parser with comments (jsonc-parser, a CommonJS package that
 * costs the prompt hook about 15 ms to load) is loaded only for text JSON.parse refuses.
 */
async function jsonObject(text: string | null): Promise<Record<string, unknown> | undefined> {
  if (text === null) return undefined;
  let v = safe(() => JSON.parse(text) as unknown, undefined);
  if (v === undefined) {
    const { parse } = await import('jsonc-parser');
    v = safe(() => parse(text) as unknown, undefined);
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Claude Code's settings files in every scope (user, project, local, managed), each read
 * once: `"disableAllHooks": true` (no hook of any scope, nor the plugin's, runs), an `env` key
 * that redirects what the hooks run (settings-risks.ts, `warn`), and other hooks on the
 * events git-kizu's run on (`warn` on Stop and SubagentStop, `info` on the others).
 */
async function claudeOffSwitches(i: IntegrityInput, out: IntegrityFinding[]): Promise<void> {
  const files = [
    path.join(i.home, '.claude', 'settings.json'),
    path.join(i.root, '.claude', 'settings.json'),
    path.join(i.root, '.claude', 'settings.local.json'),
    claudeManagedSettings(),
  ];
  for (const file of files) {
    const v = await jsonObject(readText(file));
    if (!v) continue;
    if (v.disableAllHooks === true) {
      out.push({ file, what: '"disableAllHooks": true switches off every Claude Code hook, git-kizu\'s too', fix: `remove "disableAllHooks" from ${file}`, weakens: 'stop' });
    }
    for (const r of [...envRisks(v, file), ...foreignHookRisks(v, file)]) {
      out.push({ file, what: r.what, fix: r.fix, weakens: r.level === 'warn' ? 'stop' : 'other', level: r.level });
    }
  }
}

/** Gemini CLI: `hooksConfig.enabled: false` (all hooks off) or git-kizu's hooks listed in `hooksConfig.disabled` (by name or command), in the user, workspace or system settings. */
async function geminiOffSwitches(i: IntegrityInput, out: IntegrityFinding[]): Promise<void> {
  const files = [
    path.join(i.home, '.gemini', 'settings.json'),
    path.join(i.root, '.gemini', 'settings.json'),
    i.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || (process.platform === 'darwin' ? '/Library/Application Support/GeminiCli/settings.json' : '/etc/gemini-cli/settings.json'),
  ];
  for (const file of files) {
    const v = await jsonObject(readText(file));
    const hc = v?.hooksConfig as { enabled?: unknown; disabled?: unknown } | undefined;
    const tools = v?.tools as { enableHooks?: unknown } | undefined;
    if (hc?.enabled === false || tools?.enableHooks === false) {
      out.push({ file, what: `${hc?.enabled === false ? '"hooksConfig.enabled"' : '"tools.enableHooks"'}: false switches off every Gemini CLI hook, git-kizu's too`, fix: `remove that setting from ${file}`, weakens: 'stop' });
    }
    const off = Array.isArray(hc?.disabled) ? (hc.disabled as unknown[]).filter((n): n is string => typeof n === 'string' && (/^kizu-/.test(n) || n.includes('kizu-hook.sh'))) : [];
    if (off.length) out.push({ file, what: `"hooksConfig.disabled" switches off git-kizu's Gemini CLI hooks ${off.join(', ')}`, fix: `remove ${off.join(', ')} from the list "hooksConfig.disabled" in ${file}`, weakens: 'stop' });
  }
}

/** Codex CLI: `[features] hooks = false` (or `codex_hooks`, its older name; also in a profile) in the user, project or system config. */
function codexOffSwitches(i: IntegrityInput, out: IntegrityFinding[]): void {
  const codexHome = i.env.CODEX_HOME || path.join(i.home, '.codex');
  const files = [path.join(codexHome, 'config.toml'), path.join(i.root, '.codex', 'config.toml'), '/etc/codex/config.toml', '/etc/codex/managed_config.toml'];
  for (const file of files) {
    const text = readText(file);
    if (text === null) continue;
    const key = tomlHooksOff(text);
    if (key) out.push({ file, what: `${key} = false switches off every Codex CLI hook, git-kizu's too`, fix: `remove ${key} from ${file}`, weakens: 'stop' });
  }
}

/** The key that turns Codex hooks off in config.toml text (`[features] hooks = false`, `features.codex_hooks = false`, `[profiles.x.features] ...`), or null. A line-based reading of the plain forms. */
export function tomlHooksOff(text: string): string | null {
  let table = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    const t = /^\[\s*([^\][]+?)\s*\]$/.exec(line);
    if (t) {
      table = t[1].replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      continue;
    }
    const kv = /^([A-Za-z0-9_."-]+?)\s*=\s*false$/.exec(line);
    if (!kv) continue;
    const full = (table ? `${table}.` : '') + kv[1].replace(/"/g, '');
    if (/(^|\.)features\.(hooks|codex_hooks)$/.test(full)) return `[${full.slice(0, full.lastIndexOf('.'))}] ${full.slice(full.lastIndexOf('.') + 1)}`;
  }
  return null;
}

/** The real path of `p` (symbolic links resolved), or `p` resolved when it does not exist. */
function real(p: string): string {
  return safe(() => realpathSync(p), path.resolve(p));
}

/**
 * The full check ({@link checkIntegrity}) for the repository whose working tree is at `root`
 * (as git names it): the git dirs and the hooks directory from git.
 * @throws KizuError (exit 2) when git fails.
 */
export async function repoIntegrity(root: string, home: string, env: NodeJS.ProcessEnv): Promise<IntegrityFinding[]> {
  const { effectiveHooksDir } = await import('./git-hook.js');
  const [info, common, hooksDir] = await Promise.all([repoInfo(root), commonDir(root), effectiveHooksDir(root)]);
  return checkIntegrity({ root: info.root, gitDir: info.gitDir, commonDir: common, home, env, hooksDir });
}

/** `s` with control characters and bidi overrides escaped (`\\x1b`, `\\u202e`), for a terminal line. */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** `file` relative to `root` when inside it (with `/`), else as it is. */
export function shownFile(file: string, root: string | null): string {
  if (!root) return file;
  const rel = path.relative(root, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

/** One finding as one line: `<file>: <what>; run \`<fix>\`` (the file relative to `root` when inside it; escaped: {@link printable}). */
export function findingLine(f: IntegrityFinding, root: string | null = null): string {
  return printable(`${shownFile(f.file, root)}: ${f.what}; ${/^git |^claude /.test(f.fix) ? `run \`${f.fix}\`` : f.fix}`);
}

function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
}
