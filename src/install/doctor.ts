/**
 * `git kizu doctor`'s checks of the whole install, in one place: is the pre-commit guard in
 * place, do the agent's hooks run git-kizu, can they start it (node and git-kizu on PATH, or
 * this clone's launcher), is the config valid. Each check says what it found and, when
 * something is wrong, the one command (or edit) that fixes it.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathQuoter } from '../git/path-quoter.js';
import { repoInfo, commonDir, type RepoInfo } from '../git/repo.js';
import { launcherFile, userLauncherFile } from '../git/layout.js';
import { hasKizuHooks, kizuHookEvents } from '../agents/hooks-json.js';
import { loadConfig } from '../config/config.js';
import { configFindings } from '../config/findings.js';
import { KizuError } from '../errors.js';
import { VERSION } from '../package.js';
import { guardStatus } from './guard.js';
import { HOOK_SCRIPT, SCOPES, type Scope } from './targets.js';
import { agentStates } from './agents.js';
import { AGENT_LABELS } from '../agents/registry.js';
import { MARKETPLACE_NAME, PLUGIN_NAME, pluginEnabled } from '../agents/claude/plugin.js';
import { claudeFix, guardFix, launcherFix, recordedInstall, reinstallFix } from './fix-commands.js';
import { printable, repoIntegrity, type IntegrityFinding } from './integrity.js';

/** One check's result. */
export interface Check {
  /** What was checked: `repository`, `pre-commit guard`, `Claude Code hooks`, `runtime`, `launcher`, `config`. */
  name: string;
  /** True when nothing needs doing. */
  ok: boolean;
  /** What was found, one sentence. */
  detail: string;
  /** When not ok (or a warning): the command or edit that fixes it. */
  fix?: string;
  /** A warning: ok (not counted as a fix, exit 0) but something that can weaken review, printed `warn`. */
  warn?: true;
}

/**
 * The absolute path of the first executable file named `name` in the directories of `PATH`
 * (as `command -v` finds it), or null.
 */
export function onPath(name: string, envPath = process.env.PATH ?? ''): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      if (statSync(file).isFile()) {
        accessSync(file, constants.X_OK);
        return file;
      }
    } catch {
      /* not here */
    }
  }
  return null;
}

/** Runs `<launcher> --version` with a PATH lacking node, as a GUI git client would; resolves to its stdout, or null when it failed. */
function launcherVersion(file: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { env: { ...process.env, PATH: '/usr/bin:/bin' }, timeout: 10_000 }, (err, stdout) => {
      resolve(err ? null : stdout.trim());
    });
  });
}

/** Which Claude Code settings scopes register git-kizu's hooks: what `status` and `doctor` both show (one source). */
export interface ClaudeScopes {
  /** Scopes whose settings file runs any of git-kizu's hooks. */
  installed: Scope[];
  /** Of `installed`, those whose file has no git-kizu Stop entry (the agent's stop is not checked there). */
  noStop: Scope[];
  /** Scopes whose settings file is not valid JSON (or has the wrong shape), with why. */
  unreadable: { scope: Scope; why: string }[];
  /** The settings file of each scope (null: no repository for project and local). */
  files: Record<Scope, string | null>;
}

/**
 * Reads Claude Code's settings files of every scope (project and local need `root`) and
 * says which run git-kizu's hooks, and which of those lack the Stop entry. Never throws.
 */
export function claudeScopes(root: string | null, home: string): ClaudeScopes {
  const files: Record<Scope, string | null> = {
    project: root && path.join(root, '.claude', 'settings.json'),
    local: root && path.join(root, '.claude', 'settings.local.json'),
    user: path.join(home, '.claude', 'settings.json'),
  };
  const installed: Scope[] = [];
  const noStop: Scope[] = [];
  const unreadable: { scope: Scope; why: string }[] = [];
  for (const s of SCOPES) {
    const file = files[s];
    if (!file) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    try {
      const events = kizuHookEvents(file, text);
      if (!events.length) continue;
      installed.push(s);
      if (!events.includes('Stop')) noStop.push(s);
    } catch (e) {
      unreadable.push({ scope: s, why: (e as Error).message });
    }
  }
  return { installed, noStop, unreadable, files };
}

/** The integrity findings as checks named `install`: one per finding, or one ok check. */
function integrityChecks(fs: IntegrityFinding[]): Check[] {
  const out: Check[] = fs.filter((f) => !f.level).map((f) => ({ name: 'install', ok: false, detail: printable(`${f.file}: ${f.what}`), fix: printable(f.fix) }));
  if (!out.length) out.push({ name: 'install', ok: true, detail: 'the installed hook files and settings are what git kizu init writes, and no setting switches the hooks off' });
  // Warnings (can weaken review, may be the user's own) and notes: not counted as fixes.
  for (const f of fs.filter((x) => x.level === 'warn')) out.push({ name: 'install', ok: true, warn: true, detail: printable(`${f.file}: ${f.what}`), fix: printable(f.fix) });
  for (const f of fs.filter((x) => x.level === 'info')) out.push({ name: 'install', ok: true, detail: printable(`${f.file}: ${f.what}`) });
  return out;
}

/**
 * Runs every check for the repository containing `cwd` (outside a repository: the user-scope
 * hooks, the runtime and nothing else).
 * @param home the user's home directory (for `~/.claude`).
 * @returns the checks, in the order they are shown. Never throws for what it checks (a
 *   failure is a check that is not ok); fs/git errors other than those propagate.
 */
export async function checkInstall(cwd: string, home: string, env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  const checks: Check[] = [];
  let repo: RepoInfo | null = null;
  try {
    repo = await repoInfo(cwd);
  } catch (e) {
    if (!(e instanceof KizuError)) throw e;
  }
  checks.push(
    repo
      ? { name: 'repository', ok: true, detail: repo.root }
      : { name: 'repository', ok: true, detail: `${cwd} is not in a git repository: only the user-scope install is checked` },
  );

  // Each fix re-runs the install that was made (its scope, agents, plugin): never one that adds hooks running twice.
  const inst = recordedInstall(repo?.gitDir ?? null, home);
  const plugin = pluginEnabled(home);
  const repoFix = guardFix(inst, plugin);
  if (repo) {
    const g = await guardStatus(repo.root);
    checks.push(
      g.state === 'installed'
        ? { name: 'pre-commit guard', ok: true, detail: `runs from ${g.file}${g.via === 'hooks-dir' ? '' : ` (${g.via})`}` }
        : { name: 'pre-commit guard', ok: false, detail: `missing: ${g.why}`, fix: g.fix === 'git kizu init' ? repoFix : g.fix },
    );
  }

  // Install integrity: every file init wrote is what it writes now, and no setting switches hooks off (install/integrity.ts).
  if (repo) checks.push(...integrityChecks(await repoIntegrity(repo.root, home, env)));
  // Review state the agent's actions took away (queue items gone from the file, unreadable marks).
  if (repo) {
    const { lostStateAt } = await import('../hooks/lost-state.js');
    for (const l of await lostStateAt(repo.root)) checks.push({ name: 'review state', ok: false, detail: l.what, fix: printable(l.fix) });
  }

  const { installed, noStop, unreadable, files } = claudeScopes(repo?.root ?? null, home);
  for (const u of unreadable) {
    checks.push({ name: 'Claude Code hooks', ok: false, detail: `the ${u.scope} settings file cannot be read: ${u.why}`, fix: `fix the JSON, then run \`git kizu init --agent claude${u.scope === 'project' ? '' : ` --scope ${u.scope}`}\`` });
  }
  // The other agents: each scope that has any of git-kizu's hooks, and whether the agent will run them.
  const others = (await agentStates(repo?.root ?? null, home, env)).filter((a) => a.installed !== 'missing');
  for (const agent of new Set(others.map((a) => a.agent))) {
    // The agent reads both its project and its user hooks: each stop counts twice against stop.maxBlocks.
    if (others.filter((a) => a.agent === agent).length > 1) {
      checks.push({
        name: `${AGENT_LABELS[agent]} hooks`,
        ok: false,
        detail: `installed in both the project and the user scope, so ${AGENT_LABELS[agent]} runs every hook twice`,
        fix: `git kizu teardown --agent ${agent} --scope user`,
      });
    }
  }
  for (const a of others) {
    const name = `${AGENT_LABELS[a.agent]} hooks`;
    const where = `${a.scope}, ${a.file}`;
    if (a.installed === 'partial') checks.push({ name, ok: false, detail: `only some of git-kizu's hooks are registered (${where})`, fix: a.fix ?? `git kizu init --agent ${a.agent}` });
    else if (a.trust === 'untrusted') checks.push({ name, ok: false, detail: `installed (${where}), but ${AGENT_LABELS[a.agent]} skips them until they are trusted`, fix: a.fix ?? `git kizu init --agent ${a.agent}` });
    else checks.push({ name, ok: true, detail: `installed (${where})${a.trust === 'unknown' && a.fix ? `; ${a.fix}` : ''}` });
  }
  if (plugin && installed.length) {
    // Both run on every event: each stop is counted twice, each edit journaled twice.
    const scopes = installed.map((s) => `--scope ${s}`).join(', ');
    checks.push({
      name: 'Claude Code hooks',
      ok: false,
      detail: `the ${PLUGIN_NAME} plugin is enabled and the settings (${installed.join(', ')}) register git-kizu's hooks too, so every hook runs twice`,
      fix: `git kizu teardown --agent claude (for ${scopes}), or claude plugin uninstall ${PLUGIN_NAME}@${MARKETPLACE_NAME}`,
    });
  } else if (plugin) checks.push({ name: 'Claude Code hooks', ok: true, detail: `the ${PLUGIN_NAME} plugin is enabled (~/.claude/settings.json)` });
  if (!installed.length) {
    // Claude Code by its plugin, or not used here (no fix): nothing missing.
    const fix = plugin ? null : claudeFix(inst, others.length > 0, !!repo);
    if (fix) {
      const detail = inst?.claude === 'plugin'
        ? `git kizu init --via plugin left Claude Code's hooks to the ${PLUGIN_NAME} plugin, which is not enabled`
        : 'no Claude Code settings file runs git-kizu\'s hooks';
      checks.push({ name: 'Claude Code hooks', ok: false, detail, fix });
    }
  } else {
    if (installed.length > 1) {
      // Claude Code runs the hooks of every settings file: each stop is counted, each edit journaled, that many times.
      const keep = installed[0];
      checks.push({
        name: 'Claude Code hooks',
        ok: false,
        detail: `installed in ${installed.length} settings files (${installed.join(', ')}), so Claude Code runs every hook ${installed.length} times`,
        fix: installed.filter((sc) => sc !== keep).map((sc) => `git kizu teardown --agent claude --scope ${sc}`).join(' && '),
      });
    } else if (!noStop.length) checks.push({ name: 'Claude Code hooks', ok: true, detail: `installed (${installed.join(', ')})` });
    // The same fact status shows on its hooks line and its last line: git-kizu's hooks there, but no Stop entry.
    for (const sc of noStop) {
      const fix = inst?.scope === sc ? reinstallFix(inst, false) : `git kizu init --agent claude${sc === 'project' ? '' : ` --scope ${sc}`}`;
      checks.push({ name: 'Claude Code hooks', ok: false, detail: `${files[sc]} runs git-kizu's hooks but not its Stop hook, so the agent can stop without its check`, fix });
    }
    if (repo && installed.includes('project')) {
      const runner = path.join(repo.root, '.claude', 'hooks', HOOK_SCRIPT);
      let ok = false;
      try {
        accessSync(runner, constants.X_OK);
        ok = statSync(runner).isFile();
      } catch {
        /* missing or not executable */
      }
      if (!ok) checks.push({ name: 'Claude Code hooks', ok: false, detail: `.claude/settings.json runs .claude/hooks/${HOOK_SCRIPT}, which is missing or not executable`, fix: inst?.scope === 'project' ? repoFix : 'git kizu init' });
    }
  }

  // The runtime: hooks start git-kizu from PATH (with node), else from the launcher.
  const node = onPath('node');
  const kizu = onPath('git-kizu');
  const launchers = [
    ...(repo ? [{ file: launcherFile(await commonDir(repo.root)), fix: repoFix }] : []),
    ...(installed.includes('user') ? [{ file: userLauncherFile(home), fix: launcherFix(recordedInstall(null, home), plugin, false) }] : []),
  ];
  let launcherOk = false;
  for (const l of launchers) {
    let exists = true;
    try {
      statSync(l.file);
    } catch {
      exists = false;
    }
    if (!exists) {
      const needed = !(node && kizu);
      checks.push({ name: 'launcher', ok: !needed, detail: `${l.file} is missing${needed ? '' : ' (not needed while node and git-kizu are on PATH)'}`, ...(needed ? { fix: l.fix } : {}) });
      continue;
    }
    const v = await launcherVersion(l.file);
    if (v === null || v === '') {
      checks.push({ name: 'launcher', ok: false, detail: `${l.file} cannot start git-kizu without PATH (its recorded node or git-kizu is gone)`, fix: l.fix });
    } else {
      launcherOk = true;
      checks.push({ name: 'launcher', ok: true, detail: `${l.file} starts git-kizu ${v}${v === VERSION ? '' : ` (this is ${VERSION})`}` });
    }
  }
  const where = `node ${node ? `at ${node}` : 'not on PATH'}, git-kizu ${kizu ? `at ${kizu}` : 'not on PATH'}`;
  if (node && kizu) checks.push({ name: 'runtime', ok: true, detail: where });
  else if (launcherOk) checks.push({ name: 'runtime', ok: true, detail: `${where}; the hooks use the launcher` });
  else checks.push({ name: 'runtime', ok: false, detail: `${where}, and no working launcher: hooks skip git-kizu (they let the agent and commits through)`, fix: `npm install -g git-kizu && ${launcherFix(inst, plugin, !!repo)}` });

  if (repo) {
    try {
      await loadConfig(repo.root);
      const findings = await configFindings(repo.root);
      if (!findings.some((f) => f.actionable)) checks.push({ name: 'config', ok: true, detail: 'valid (or none: the defaults)' });
      // A working config not applied is to fix; a committed one that weakens review is named, not failed.
      for (const f of findings) checks.push({ name: 'config', ok: !f.actionable, detail: f.actionable ? f.detail : `${f.detail} (${f.fix})`, ...(f.actionable ? { fix: f.fix } : {}) });
    } catch (e) {
      if (!(e instanceof KizuError)) throw e;
      checks.push({ name: 'config', ok: false, detail: e.message.split('\n').map((l) => l.trim()).filter(Boolean).join(' ').replace(/:\s*$/, ''), fix: e.hint ?? 'fix the config file (see README "Config")' });
    }
    const { hiddenChecks } = await import('../hunks/hidden.js');
    checks.push(...(await hiddenChecks(repo.root, pathQuoter(repo.root))));
  }
  return checks;
}
