/**
 * `git kizu init` and `git kizu teardown`: install / remove, for one Claude Code settings
 * scope, the Claude Code hook runner script and its settings entries, the `/kizu` slash
 * command and the git pre-commit hook. `init` also upgrades an install of an earlier
 * version, which had one script per hook (see {@link runInit}).
 *
 * Both work in two phases: first everything is read and checked (settings JSON, hook
 * conflicts) so that bad input throws before anything is written; then files are written
 * atomically (scripts first, settings last, so the settings never reference a missing
 * script; scripts the settings no longer reference are removed after them).
 *
 * Install records (state.ts) say what init created; teardown removes exactly that. When two
 * scopes share a file (project and local both use `<root>/.claude/commands/kizu.md`, every
 * scope uses the repository's one pre-commit hook), teardown of one scope leaves it in place
 * and hands it over to the other scope's record.
 *
 * Shared files hold no machine facts: the runner and the project settings name no path of
 * this machine (targets.ts); the one file that does, the launcher (launcher.ts), lives under
 * the git dir (or `~/.claude/kizu/`), is written by every init and deleted by the teardown of
 * the last install record that uses it. Local scope keeps its working-tree files out of
 * `git status` (exclude.ts). Nothing is written through a symbolic link (links.ts).
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { EXIT, KizuError } from '../errors.js';
import { joinAnd } from '../words.js';
import type { Reporter } from '../output.js';
import {
  displayPath,
  hookCommand,
  recordFileFor,
  resolveTargets,
  SCOPES,
  type InstallTargets,
  type Scope,
} from './targets.js';
import { recordedBinPath, renderHookScript, renderSlashCommand, SCRIPT_MARKER } from './scripts.js';
import { kizuEntries } from '../agents/claude/settings.js';
import { hasKizuHooks, mergeKizuHooks, removeKizuHooks, type RemoveOptions } from '../agents/hooks-json.js';
import {
  checkPreCommit,
  effectiveHooksDir,
  inspectPreCommit,
  installPreCommit,
  isOurPreCommit,
  removePreCommit,
  staleChained,
  CHAINED_NAME,
  type PreCommitState,
} from './git-hook.js';
import { removeUnusedLauncher, writeLauncher } from './launcher.js';
import { cloneRecordFiles, deleteRecord, readRecord, writeRecord, type ExcludeRecord, type InstallRecord } from './state.js';
import { sha256 } from './digest.js';
import { noteLink, refuseLinkedFolders, removeOrRestoreLink, writeNotThroughLink, writeOrRestoreLink } from './links.js';
import { QUEUE_FILE } from '../queue/paths.js';
import { appendExcludeLines, excludeFilePath, excludeLine, needExclude, readExcludeFile, removeExcludeLines } from './exclude.js';
import { installLockFile, launcherFile, userInstallLockFile, userInstallRecordFile } from '../git/layout.js';
import { acquireLock } from '../git/lock.js';
import { applyGuard, guardContext, legacyGuard, planGuard, removeGuard, sharedHooksDir, type GuardContext, type GuardPlan } from './guard.js';
import { chooseManager, managerById, readConfig } from './managers/index.js';
import { findInsertion } from './managers/find-insertion.js';
import type { GuardInsertionRecord } from './state.js';
import { AGENT_LABELS, type AgentName } from '../agents/registry.js';
import { applyAgent, checkScope, defaultAgents, installedAgents, planAgentRemovals, planAgents, removeAgent, type ClaudeVia, type OtherAgent } from './agents.js';
import { pluginSteps } from './plugin.js';
import { isDotGitComponent } from '../git/verify-path.js';

/** Options of {@link runInit}. */
export interface InitOptions {
  /** Directory the command runs in (finds the repository). */
  cwd: string;
  scope: Scope;
  /**
   * Install the pre-commit guard (`--pre-commit` / `--no-pre-commit`); undefined: the
   * scope's default (on for project and local, off for user: user scope touches no
   * repository unless asked).
   */
  preCommit?: boolean;
  reporter: Reporter;
  /** Home directory for user scope (default: the HOME environment variable). */
  home?: string;
  /** The agents to install for (`--agent`); undefined: install/agents.ts `defaultAgents`. */
  agents?: AgentName[];
  /** How Claude Code gets its hooks (`--via`): its settings file (default) or the plugin. */
  via?: ClaudeVia;
  /** The environment (CODEX_HOME, ...; default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** How long (ms) init and teardown wait for another init or teardown of the same repository or user. */
const INSTALL_WAIT_MS = 60_000;

/** The install lock as {@link withInstallLock} hands it to init and teardown. */
interface InstallLock {
  /** Directories taking the lock created (outermost first), absent before. */
  created: string[];
  /** Directories to remove, if empty, once the lock is released (the lock file kept them from being removed). */
  retry: string[];
  /** The lock files held. */
  files: string[];
}

/**
 * Runs `fn` holding the install lock(s) (git/lock.ts `acquireLock`): for user scope
 * `~/.claude/kizu/install.lock` first, then, inside a repository, the clone's
 * `<common-dir>/kizu/install.lock`; always in that order, so that two runs never wait for
 * each other. Directories the lock created are removed again when empty afterwards.
 * @throws KizuError (exit 2) when another init/teardown holds a lock for longer than
 *   {@link INSTALL_WAIT_MS}; what `fn` throws.
 */
async function withInstallLock<T>(t: InstallTargets, fn: (lock: InstallLock) => Promise<T>): Promise<T> {
  const files = lockFiles(t);
  const lock: InstallLock = { created: [], retry: [], files };
  const releases: Array<() => void> = [];
  try {
    for (const f of files) {
      for (const d of mkdirs(path.dirname(f))) if (!lock.created.includes(d)) lock.created.push(d);
      releases.push(await acquireLock(f, 'git kizu init/teardown', INSTALL_WAIT_MS));
    }
    return await fn(lock);
  } finally {
    for (const release of releases.reverse()) release();
    for (const d of [...new Set([...lock.created, ...lock.retry])].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(d);
      } catch {
        /* not empty (init's files are in it), or gone */
      }
    }
  }
}

/** The tops inside which no folder on the way to a file init or teardown writes may be a symbolic link: the working tree's root, its git dir and the common git dir. */
function linkTops(t: InstallTargets): string[] {
  return t.repo ? [t.repo.root, t.repo.gitDir, ...(t.commonDir ? [t.commonDir] : [])] : [];
}

/** The install lock files of {@link withInstallLock}, whose folders taking the lock creates. */
function lockFiles(t: InstallTargets): string[] {
  return [...(t.scope === 'user' ? [userInstallLockFile(t.home)] : []), ...(t.commonDir ? [installLockFile(t.commonDir)] : [])];
}

/** Options of {@link runTeardown}. */
export interface TeardownOptions {
  cwd: string;
  scope: Scope;
  reporter: Reporter;
  /** Home directory for user scope (default: the HOME environment variable). */
  home?: string;
  /** Only these agents' hooks (`--agent`); undefined: everything init installed for the scope. */
  agents?: AgentName[];
  /** The environment (CODEX_HOME, ...; default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * A file's text, or null if it does not exist (also when a parent is not a directory).
 * @throws KizuError (exit 2) when a directory is at `file` or it cannot be read.
 */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file, so this file cannot exist (init checks for that itself).
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    const why = code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    throw new KizuError(`cannot read ${file}: ${why}`, { hint: 'move what is in the way (or fix its permissions), then run the command again; nothing was changed' });
  }
}

/**
 * What stands where `file`'s directories go: the nearest existing ancestor if it is not a
 * directory, or a symbolic link to nothing on the way (mkdir cannot create through it).
 * @returns a description such as `/r/.claude is not a directory`, or null.
 */
function blockingAncestor(file: string): string | null {
  for (let d = path.dirname(file); ; d = path.dirname(d)) {
    let st;
    try {
      st = statSync(d);
    } catch {
      try {
        if (lstatSync(d).isSymbolicLink()) return `${d} is a symbolic link to nothing`;
      } catch {
        /* not there: look further up */
      }
      if (path.dirname(d) === d) return null;
      continue;
    }
    return st.isDirectory() ? null : `${d} is not a directory`;
  }
}

/**
 * Checks, before anything is written, that `file` can be written as git-kizu's `what`: no
 * non-directory where its directories go, no directory or special file at its place, and
 * (for a hook script) no file there that git-kizu did not generate.
 * @throws KizuError (exit 2) naming what is in the way.
 */
function assertWritable(file: string, what: string, ours?: (text: string) => boolean): void {
  const hint = `move it away, then run the command again; nothing was changed`;
  const block = blockingAncestor(file);
  if (block) throw new KizuError(`cannot write ${what} ${file}: ${block}`, { hint });
  let st;
  try {
    st = statSync(file);
  } catch {
    return; // absent: will be created
  }
  if (!st.isFile()) throw new KizuError(`cannot write ${what} ${file}: something other than a file is there`, { hint });
  const text = readText(file);
  if (ours && text !== null && !ours(text)) {
    throw new KizuError(`${file} exists and was not generated by git-kizu; init would overwrite it`, {
      hint: `if it is yours, rename it (git-kizu needs that name for its ${what}), then run the command again; nothing was changed`,
    });
  }
}

/** mkdir -p that returns the directories it created, outermost first. */
function mkdirs(dir: string): string[] {
  const missing: string[] = [];
  let d = dir;
  while (!existsSync(d)) {
    missing.unshift(d);
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  if (missing.length) mkdirSync(dir, { recursive: true });
  return missing;
}

type WriteAction = 'created' | 'updated' | 'unchanged';

/**
 * Writes `text` unless the file already holds exactly it (and, with `mode`, has that mode).
 * A symbolic link at `file` is never written through: it is recorded in `rec`
 * (links.ts `noteLink`) and replaced by a regular file.
 */
async function writeIfChanged(rec: InstallRecord, file: string, text: string, mode?: number): Promise<WriteAction> {
  const before = readText(file);
  if (before === text) {
    if (mode !== undefined && (statSync(file).mode & 0o777) !== mode) {
      chmodSync(file, mode);
      return 'updated';
    }
    return 'unchanged';
  }
  noteLink(rec, file);
  await writeNotThroughLink(file, text, mode);
  return before === null ? 'created' : 'updated';
}

/** ` (the symbolic link to <target>)` for a path whose link init replaced, else ''. */
function linkNote(rec: InstallRecord | null, file: string): string {
  const l = rec?.links?.[file];
  return l ? ` (the symbolic link to ${l.target})` : '';
}

/**
 * Installs git-kizu for `o.scope` and prints one line per file plus the next step.
 * Files: the launcher (launcher.ts, no line printed), for project and user scope
 * `<claude>/hooks/kizu-hook.sh` (0755; local scope's settings run the launcher instead,
 * `<launcher> hook <event>`), the scope's settings file (Stop +
 * SubagentStop → `kizu-hook.sh stop`, timeout 30 s; PostToolUse with matcher
 * `^(Write|Edit|MultiEdit|NotebookEdit)$` → `kizu-hook.sh post-tool-use`, timeout 10 s, and
 * in a second group with the same matcher → `kizu-hook.sh journal` with `"async": true`,
 * timeout 30 s; UserPromptSubmit → `kizu-hook.sh user-prompt-submit`, timeout 30 s),
 * `<claude>/commands/kizu.md`, and unless `preCommit` is false the git pre-commit hook
 * (skipped with a note for user scope outside a repository). Local scope adds the
 * working-tree files it creates, and the review queue file, to git's exclude file unless
 * git tracks or ignores them;
 * project scope removes a local install's line for the slash command it shares (exclude.ts).
 * A symbolic link at a file it writes is replaced and recorded (links.ts). Idempotent: a
 * second run changes no byte. Concurrent runs are serialised by the install lock
 * (`<common-dir>/kizu/install.lock`; user scope `~/.claude/kizu/install.lock` first), taken
 * before anything is read.
 *
 * Upgrade: the per-event scripts of an earlier version (`kizu-stop.sh`,
 * `kizu-post-tool-use.sh`, `kizu-journal.sh`, `kizu-user-prompt-submit.sh`) have their
 * settings entries replaced in place, and are then removed if unchanged since git-kizu
 * wrote them (their bytes match an install record's; without a record, they carry the
 * generated header). One another scope's record still lists is kept for that scope (its
 * settings still run it) and handed over to its record; one modified since is kept with a
 * warning. A local install of an earlier version ran the project runner
 * (`.claude/hooks/kizu-hook.sh`): its record's runner is treated the same way. A runner of an
 * earlier version holding an absolute path is rewritten (it carries the generated header).
 * @returns exit code 0.
 * @throws KizuError (exit 2, nothing written) outside a git repository for project/local
 *   scope, for a settings file that is not valid JSON or has the wrong shape, or when an
 *   existing pre-commit hook cannot be chained, or another init/teardown holds the
 *   install lock for over a minute; fs errors while writing.
 */
export async function runInit(o: InitOptions): Promise<number> {
  const t = await resolveTargets(o.cwd, o.scope, o.home);
  // Never through a linked folder, the lock's folder first (taking the lock writes there).
  refuseLinkedFolders(linkTops(t), lockFiles(t), t.initCmd, (p) => displayPath(t, p));
  return withInstallLock(t, (lock) => initLocked(o, t, lock));
}

/** {@link runInit} once the install lock is held (`lock.created`: directories taking it created, which init records as its own). */
async function initLocked(o: InitOptions, t: InstallTargets, lock: InstallLock): Promise<number> {
  const r = o.reporter;
  const env = o.env ?? process.env;
  const agents = o.agents ?? (await defaultAgents(t, env));
  checkScope(agents, t.scope);
  if (o.via === 'plugin' && !agents.includes('claude')) {
    throw new KizuError('--via plugin is how Claude Code gets its hooks, but claude is not among the agents', { hint: 'add claude to --agent (e.g. --agent claude --via plugin), or leave out --via' });
  }
  if (o.via === 'plugin' && t.scope === 'local') {
    throw new KizuError('--via plugin installs no Claude Code settings, so --scope local has nothing to do', { hint: 'use --scope project (the guard in this repository) with --via plugin' });
  }
  // Claude Code by its settings file (the runner, settings entries, /kizu), unless by the plugin or not at all.
  const claude = agents.includes('claude') && o.via !== 'plugin';
  const others = agents.filter((a): a is OtherAgent => a !== 'claude');
  const bin = recordedBinPath();
  const vars = { bin, initCmd: t.initCmd, teardownCmd: t.teardownCmd };
  // Local scope runs the launcher; project and user scope the runner, which holds no path.
  const script = claude && t.hookScript ? { file: t.hookScript, text: renderHookScript('kizu-hook.sh', vars) } : null;
  const command = renderSlashCommand();
  const old = readRecord(t.recordFile);

  // Phase 1: read and check everything.
  // A runner this scope's init created is git-kizu's whatever it holds now (install integrity's fix writes it again).
  if (script) assertWritable(script.file, 'hook script', (text) => text === script.text || text.includes(SCRIPT_MARKER) || !!old?.files[script.file]?.created);
  if (claude) assertWritable(t.settingsFile, 'settings file');
  if (claude) assertWritable(t.commandFile, 'slash command');
  assertWritable(t.recordFile, 'install record');
  const settingsBefore = claude ? readText(t.settingsFile) : null;
  const merge = claude
    ? mergeKizuHooks(
        t.settingsFile,
        settingsBefore,
        kizuEntries((hook) => hookCommand(t, hook)),
      )
    : null;
  const planned = await planAgents(t, others, env, old);
  const siblings = siblingRecords(t);
  // A local install of an earlier version ran the project runner: upgrade it like the per-event scripts.
  const legacyFiles = claude ? [...t.legacyScripts, ...(t.scope === 'local' && t.projectRunner && old?.files[t.projectRunner] ? [t.projectRunner] : [])] : [];
  const legacy = planLegacyScripts(legacyFiles, old, siblings);
  const wantGuard = o.preCommit ?? t.scope !== 'user';
  let pre: PreCommitState | null = null;
  let dropChained = false;
  let gctx: GuardContext | null = null;
  let gp: GuardPlan | null = null;
  // The guard already in a hooks directory that a config outside the repository names (installed with --scope user).
  let sharedGuard: string | null = null;
  if (wantGuard && t.repo) {
    gctx = await guardContext(t.repo.root, t.scope === 'local');
    gp = planGuard(gctx);
    const shared = gp.kind === 'hooks-dir' && t.scope !== 'user' ? sharedHooksDir(gctx) : null;
    if (shared) {
      // Every repository using that config runs the hooks there: only --scope user installs the guard in it.
      const hook = path.join(shared.dir, 'pre-commit');
      if (inspectPreCommit(shared.dir).state !== 'ours') {
        throw new KizuError(
          `core.hooksPath is set to ${shared.value} in ${shared.where}, so every repository using that config runs the git hooks in ${shared.dir}; ${t.initCmd} does not put the pre-commit guard there`,
          {
            hint: `run \`git kizu init --scope user --pre-commit\` to install the guard there for all of them, \`${t.initCmd} --no-pre-commit\` to leave it out, or give this repository its own hooks directory (\`git config core.hooksPath .git/hooks\`), then run the command again; nothing was changed`,
          },
        );
      }
      sharedGuard = hook;
    } else if (gp.kind === 'hooks-dir') {
      // Not a file where the hook goes, nor where its directory goes (core.hooksPath naming a file).
      assertWritable(path.join(gctx.hooksDir, 'pre-commit'), 'git pre-commit hook');
      pre = inspectPreCommit(gctx.hooksDir);
      dropChained = staleChained(pre);
      if (!dropChained) checkPreCommit(pre);
    } else if (gp.kind === 'manager' && gp.plan.kind === 'insert') {
      const d = gp.chosen.detected;
      assertWritable(d.file, d.id === 'simple-git-hooks' ? 'hook configuration' : 'git pre-commit hook');
    }
  }
  const commandBefore = claude ? readText(t.commandFile) : null;
  const oldCommand = old?.files[t.commandFile];
  const keepUserCommand =
    claude && commandBefore !== null && commandBefore !== command && !(oldCommand?.created && oldCommand.sha256 === sha256(commandBefore));
  // A local-only manager file init creates (lefthook-local.yml) must not show in git status either.
  const gd = gp?.kind === 'manager' && gp.chosen.detected.local ? gp.chosen.detected : null;
  const guardFile = gd && ((gp!.kind === 'manager' && gp!.plan.kind === 'insert' && !existsSync(gd.file)) || old?.guard?.some((g) => g.file === gd.file && g.createdFile)) ? gd.file : null;
  const exclude = await planExclude(t, siblings, {
    guardFile,
    settings: claude && (settingsBefore === null || (old?.settings?.file === t.settingsFile && old.settings.createdFile)),
    // Project scope: the command is shared (committed) whoever created it.
    command: claude && !keepUserCommand && (t.scope === 'project' || commandBefore === null || !!oldCommand?.created),
  });

  // Every file written below, checked before the first write: no folder on the way is a symbolic link.
  refuseLinkedFolders(
    linkTops(t),
    [
      t.recordFile,
      t.launcher,
      ...(t.scope === 'user' && t.commonDir && wantGuard ? [launcherFile(t.commonDir)] : []),
      ...(script ? [script.file] : []),
      ...(claude ? [t.settingsFile, t.commandFile, ...legacy.map((l) => l.file)] : []),
      ...(pre ? [pre.hook, pre.chained] : []),
      ...(gp?.kind === 'manager' ? [gp.chosen.detected.file] : []),
      ...(exclude ? [exclude.file] : []),
      ...planned.flatMap((p) => p.plan.writes.map((w) => w.file)),
    ],
    t.initCmd,
    (p) => displayPath(t, p),
  );

  // Phase 2: write.
  const rec: InstallRecord = {
    version: 1,
    scope: t.scope,
    files: { ...(old?.files ?? {}) },
    dirs: [...(old?.dirs ?? [])],
    settings: old?.settings ?? null,
    preCommit: old?.preCommit ?? null,
    ...(old?.guard ? { guard: [...old.guard] } : {}),
    links: { ...(old?.links ?? {}) },
    exclude: [...(old?.exclude ?? [])],
    ...(old?.agents ? { agents: structuredClone(old.agents) } : {}),
    claude: claude ? 'settings' : agents.includes('claude') ? 'plugin' : (old?.claude ?? (old?.settings ? 'settings' : 'none')),
  };
  const addDirs = (ds: string[]) => {
    for (const d of ds) if (!rec.dirs.includes(d)) rec.dirs.push(d);
  };
  const noteFile = (file: string, text: string, existed: boolean) => {
    rec.files[file] = { created: (rec.files[file]?.created ?? false) || !existed, sha256: sha256(text) };
  };

  addDirs(lock.created);
  addDirs(mkdirs(path.dirname(t.launcher)));
  await writeLauncher(t.launcher);
  if (script) {
    addDirs(mkdirs(t.hooksDir));
    const existed = existsSync(script.file);
    const a = await writeIfChanged(rec, script.file, script.text, 0o755);
    noteFile(script.file, script.text, existed);
    r.log(`${a} ${displayPath(t, script.file)}${a === 'unchanged' ? '' : linkNote(rec, script.file)}`);
  }

  if (!claude) {
    // No Claude Code settings install this time: its files stay as an earlier init left them.
  } else if (keepUserCommand) {
    r.warn(`kept ${displayPath(t, t.commandFile)}: it differs from git-kizu's /kizu command (edited by you?); delete it and run \`${t.initCmd}\` again to get ours`);
  } else {
    addDirs(mkdirs(t.commandsDir));
    const a = await writeIfChanged(rec, t.commandFile, command);
    noteFile(t.commandFile, command, commandBefore !== null);
    r.log(`${a} ${displayPath(t, t.commandFile)}${a === 'unchanged' ? '' : linkNote(rec, t.commandFile)}`);
  }
  if (exclude) await applyExclude(t, rec, exclude, r, addDirs);

  if (gctx && gp && gp.kind !== 'hooks-dir') {
    if (t.scope === 'user') await writeLauncher(launcherFile(t.commonDir!));
    migrateOldHooksDirs(t, rec, siblings, gctx.hooksDir, r);
    // While the guard does not go into the manager's configuration, the pre-commit framework's hook still runs git-kizu's old one.
    const intoConfig = gp.kind === 'manager' && gp.plan.kind !== 'print';
    migrateOwnHook(t, rec, gctx.hooksDir, r, !intoConfig && legacyGuard(gctx.hooksDir, gctx.hookText) !== null);
    if (gp.kind === 'unmanaged') {
      r.warn(`did not install the pre-commit guard: ${gp.why}:`);
      r.log(gp.snippet);
    } else {
      const d = gp.chosen.detected;
      const shown = displayPath(t, d.file);
      if (gp.plan.kind === 'present') r.log(`unchanged ${shown} (it runs the git-kizu guard)`);
      else if (gp.plan.kind === 'print') {
        r.warn(`did not edit ${shown}: ${gp.plan.why}:`);
        r.log(gp.plan.snippet);
      } else {
        addDirs(mkdirs(path.dirname(d.file)));
        const { record, syncedHook } = applyGuard(gctx, gp);
        const guard = (rec.guard ?? []).filter((g) => !(g.file === record.file && g.text === record.text));
        rec.guard = [...guard, record];
        r.log(`${record.createdFile ? 'created' : 'updated'} ${shown} (added the git-kizu guard for ${d.label})`);
        if (d.afterEdit) r.log(d.afterEdit);
        if (syncedHook) r.log(`updated ${displayPath(t, syncedHook)} (as \`${d.reinstall}\` writes it from the new configuration)`);
      }
      if (gp.plan.kind !== 'print') {
        const problem = gp.chosen.manager.hookProblem?.(gctx, d);
        if (problem) r.warn(`the guard is in ${shown}, but ${problem.why}; run \`${problem.fix}\``);
      }
    }
  } else if (pre) {
    if (t.scope === 'user') await writeLauncher(launcherFile(t.commonDir!));
    migrateOldHooksDirs(t, rec, siblings, pre.hooksDir, r);
    addDirs(mkdirs(pre.hooksDir));
    if (dropChained) {
      rmSync(pre.chained, { force: true });
      r.log(`removed ${displayPath(t, pre.chained)} (a leftover copy of a generated hook)`);
      pre = { ...pre, chainedExists: false };
    }
    const text = renderHookScript('pre-commit', { bin, initCmd: 'git kizu init', teardownCmd: 'git kizu teardown' });
    const a = await installPreCommit(pre, text);
    const prevRec = rec.preCommit && rec.preCommit.hook === pre.hook ? rec.preCommit : null;
    rec.preCommit = {
      hook: pre.hook,
      chained: a === 'chained' ? pre.chained : prevRec?.chained ?? (pre.chainedExists ? pre.chained : null),
      created: a === 'created' || a === 'chained' || (prevRec?.created ?? false),
    };
    const shown = displayPath(t, pre.hook);
    if (a === 'chained') r.log(`created ${shown} (the hook that was there moved to ${CHAINED_NAME} and runs first)`);
    else r.log(`${a} ${shown}`);
  } else if (sharedGuard) {
    r.log(`unchanged ${displayPath(t, sharedGuard)} (the git-kizu guard there runs for every repository using core.hooksPath from ${sharedHooksDir(gctx!)!.where})`);
  } else if (wantGuard && !t.repo) {
    r.log(`skipped the git pre-commit hook: ${o.cwd} is not in a git repository (run \`${t.initCmd}\` inside one to add it there)`);
  }

  if (merge) {
    if (merge.changed) {
      addDirs(mkdirs(path.dirname(t.settingsFile)));
      noteLink(rec, t.settingsFile);
      await writeNotThroughLink(t.settingsFile, merge.text);
    }
    const s = rec.settings && rec.settings.file === t.settingsFile ? rec.settings : null;
    const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
    rec.settings = {
      file: t.settingsFile,
      createdFile: (s?.createdFile ?? false) || merge.createdFile,
      createdHooksKey: (s?.createdHooksKey ?? false) || merge.createdHooksKey,
      createdEvents: union(s?.createdEvents ?? [], merge.createdEvents),
      addedEvents: union(s?.addedEvents ?? [], merge.addedEvents),
    };
    const shownSettings = displayPath(t, t.settingsFile);
    if (!merge.changed) r.log(`unchanged ${shownSettings}`);
    else {
      const what = merge.addedEvents.length ? `added hooks: ${merge.addedEvents.join(', ')}` : 'updated the git-kizu hooks';
      r.log(`${merge.createdFile ? 'created' : 'updated'} ${shownSettings} (${what})${linkNote(rec, t.settingsFile)}`);
    }
  }
  for (const p of planned) await applyAgent(p, rec, r, (f) => displayPath(t, f), mkdirs, addDirs);
  if (agents.includes('claude') && !claude) for (const l of pluginSteps()) r.log(l);

  // The settings no longer run the per-event scripts of an earlier version.
  for (const l of legacy) {
    const shown = displayPath(t, l.file);
    if (l.action === 'remove') {
      removeOrRestoreLink(rec, l.file);
      delete rec.files[l.file];
      r.log(`removed ${shown}`);
    } else if (l.action === 'hand-over') {
      const theirs = l.sibling.rec.files[l.file];
      l.sibling.rec.files[l.file] = { created: true, sha256: l.generated ? sha256(l.text) : theirs.sha256 };
      l.sibling.dirty = true;
      delete rec.files[l.file];
      r.log(`kept ${shown} (still used by the --scope ${l.sibling.rec.scope} install)`);
    } else {
      r.warn(
        `kept ${shown}: it was modified after \`git kizu init\`, and git-kizu's hooks no longer run it (they run ${displayPath(t, t.hookScript ?? t.launcher)} now); delete it once you no longer need it (\`${t.teardownCmd}\` removes it too)`,
      );
    }
  }

  addDirs(mkdirs(path.dirname(t.recordFile)));
  if (!Object.keys(rec.links ?? {}).length) delete rec.links;
  if (!rec.exclude?.length) delete rec.exclude;
  if (rec.agents && !Object.keys(rec.agents).length) delete rec.agents;
  if (rec.claude === 'settings') delete rec.claude; // the meaning of no value (records of earlier versions)
  // A fix re-runs this install with the same flags (fix-commands.ts): remember --no-pre-commit.
  if (o.preCommit === false && t.scope !== 'user') rec.noPreCommit = true;
  else delete rec.noPreCommit;
  await writeRecord(t.recordFile, rec);
  for (const s of siblings) if (s.dirty) await writeRecord(s.file, s.rec);
  r.log(nextStep(agents));
  return EXIT.OK;
}

/** The closing line of init: what to do next, and which running agents must be restarted. */
function nextStep(agents: AgentName[]): string {
  const names = joinAnd(agents.map((a) => AGENT_LABELS[a]));
  const kizu = agents.includes('claude') ? ' (or run /kizu in Claude Code)' : '';
  return `next: scar a change with \`git kizu scar path:line\`; the agent has to resolve it before it stops${kizu}. Restart running ${names} sessions to load the hooks.`;
}

/**
 * A hook manager now holds the guard: git-kizu's own hook from an earlier init in the hooks
 * dir goes (the hook it chained is put back), and a leftover chained copy of a generated
 * hook (a manager wrote its hook again over ours) is deleted. `keepLegacy`: a
 * `pre-commit.legacy` of ours stays (guard.ts `legacyGuard`; the guard runs only from there).
 */
function migrateOwnHook(t: InstallTargets, rec: InstallRecord, hooksDir: string, r: Reporter, keepLegacy: boolean): void {
  // lefthook keeps a hook it replaces as pre-commit.old, the pre-commit framework as
  // pre-commit.legacy (and runs it): a copy of our old hook there goes, unless it is the
  // guard that runs (`keepLegacy`: the framework runs it and the guard is not in its configuration).
  for (const name of ['pre-commit.old', 'pre-commit.legacy']) {
    const file = path.join(hooksDir, name);
    if (name === 'pre-commit.legacy' && keepLegacy) {
      r.log(`kept ${displayPath(t, file)} (git-kizu's old hook, which the pre-commit framework runs first: the guard runs from there until it is in the framework's configuration)`);
    } else if (isOurPreCommit(file)) {
      rmSync(file, { force: true });
      r.log(`removed ${displayPath(t, file)} (git-kizu's old hook, kept there by a hook manager)`);
    }
  }
  const s = inspectPreCommit(hooksDir);
  if (s.state === 'foreign' && s.chainedExists && !staleChained(s)) {
    r.warn(`kept ${displayPath(t, s.chained)}: a hook of yours that git-kizu's old hook ran first; the hook manager does not run it, so add its commands to the manager's configuration, then delete it`);
  }
  if (s.state === 'ours') {
    const res = removePreCommit(s.hook);
    if (res.restored) r.log(`restored ${displayPath(t, s.hook)} (the hook git-kizu had chained; the guard now runs through the hook manager)`);
    else r.log(`removed ${displayPath(t, s.hook)} (git-kizu's own hook; the guard now runs through the hook manager)`);
  } else if (staleChained(s)) {
    rmSync(s.chained, { force: true });
    r.log(`removed ${displayPath(t, s.chained)} (a leftover copy of a generated hook)`);
  } else return;
  if (rec.preCommit?.hook === s.hook) rec.preCommit = null;
}

/**
 * `core.hooksPath` moved (husky, lefthook, a hooks directory of your own set since the last
 * init): git-kizu's own hook from an earlier init in a hooks directory git no longer runs
 * goes, and the hook it chained is put back there as it was (install/git-hook.ts
 * `removePreCommit`). The directories looked at are the clone's default `<common-dir>/hooks`
 * and the one this scope's record names, when inside the repository (a hooks directory
 * elsewhere may be shared with other repositories); `hooksDir` (the one git runs now) is
 * left to the caller. Only a `pre-commit` carrying git-kizu's marker is touched. Install
 * records (this scope's and `siblings`) that listed the hook no longer do.
 * @throws fs errors.
 */
function migrateOldHooksDirs(t: InstallTargets, rec: InstallRecord, siblings: Sibling[], hooksDir: string, r: Reporter): void {
  if (!t.commonDir || !t.repo) return;
  const inside = (d: string) => [t.repo!.root, t.commonDir!].some((top) => {
    const rel = path.relative(top, d);
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  const dirs = [path.join(t.commonDir, 'hooks'), ...(rec.preCommit ? [path.dirname(rec.preCommit.hook)] : [])];
  for (const dir of new Set(dirs.filter((d) => d !== hooksDir && inside(d)))) {
    const s = inspectPreCommit(dir);
    if (s.state !== 'ours') continue;
    const res = removePreCommit(s.hook);
    const now = `git runs the hooks in ${displayPath(t, hooksDir)} now`;
    if (res.restored) r.log(`restored ${displayPath(t, s.hook)} (the hook git-kizu had chained; ${now})`);
    else r.log(`removed ${displayPath(t, s.hook)} (git-kizu's old hook; ${now})`);
    if (rec.preCommit?.hook === s.hook) rec.preCommit = null;
    for (const sib of siblings) {
      if (sib.rec.preCommit?.hook !== s.hook) continue;
      sib.rec.preCommit = null;
      sib.dirty = true;
    }
  }
}

interface Sibling {
  file: string;
  rec: InstallRecord;
  dirty: boolean;
}

/**
 * What init changes in git's exclude file: for local scope the lines to add (working-tree
 * files it creates, and the review queue `git kizu queue add` creates, that git would list
 * as untracked); for project scope the lines a local
 * install added for a file project scope shares (the slash command), which are removed so
 * that the file can be committed.
 */
interface ExcludePlan {
  file: string;
  before: string | null;
  add: string[];
  drop: { sibling: Sibling; recs: ExcludeRecord[] } | null;
}

/**
 * Plans {@link ExcludePlan} (reads only). `creates` says which working-tree files this
 * init creates (or created at an earlier init); for project scope, `command` says that it
 * installs the shared slash command.
 * @throws KizuError (exit 2) when git fails or the exclude file cannot be read or written.
 */
async function planExclude(
  t: InstallTargets,
  siblings: Sibling[],
  creates: { settings: boolean; command: boolean; guardFile: string | null },
): Promise<ExcludePlan | null> {
  if (!t.repo) return null;
  const root = t.repo.root;
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  if (t.scope === 'local') {
    const candidates = [
      ...(creates.settings ? [rel(t.settingsFile)] : []),
      ...(creates.command ? [rel(t.commandFile)] : []),
      ...(creates.guardFile ? [rel(creates.guardFile)] : []),
      // The review queue is this clone's too: `git kizu queue add` creates it later.
      QUEUE_FILE,
    ];
    const add = await needExclude(root, candidates);
    if (!add.length) return null;
    const file = await excludeFilePath(root);
    assertWritable(file, 'git exclude file');
    return { file, before: readExcludeFile(file), add, drop: null };
  }
  if (t.scope === 'project' && creates.command) {
    const local = siblings.find((x) => x.rec.scope === 'local');
    const line = excludeLine(rel(t.commandFile));
    const recs = (local?.rec.exclude ?? []).filter((e) => e.text.endsWith(line));
    if (!local || !recs.length) return null;
    return { file: recs[0].file, before: readExcludeFile(recs[0].file), add: [], drop: { sibling: local, recs } };
  }
  return null;
}

/** Writes what {@link planExclude} planned, records it, and says so. */
async function applyExclude(t: InstallTargets, rec: InstallRecord, plan: ExcludePlan, r: Reporter, addDirs: (ds: string[]) => void): Promise<void> {
  const shown = displayPath(t, plan.file);
  if (plan.add.length) {
    addDirs(mkdirs(path.dirname(plan.file)));
    const { text, added } = appendExcludeLines(plan.file, plan.before, plan.add);
    noteLink(rec, plan.file);
    await writeNotThroughLink(plan.file, text);
    rec.exclude = [...(rec.exclude ?? []), ...added];
    r.log(`${plan.before === null ? 'created' : 'updated'} ${shown} (git ignores ${joinAnd(plan.add)} in this clone)${linkNote(rec, plan.file)}`);
  }
  if (plan.drop) {
    const { sibling, recs } = plan.drop;
    const { text, missing } = removeExcludeLines(plan.before ?? '', recs);
    if (text !== (plan.before ?? '')) await writeNotThroughLink(plan.file, text);
    sibling.rec.exclude = (sibling.rec.exclude ?? []).filter((e) => !recs.includes(e) || missing.includes(e));
    sibling.dirty = true;
    const what = displayPath(t, t.commandFile);
    r.log(`updated ${shown} (git no longer ignores ${what}, which the --scope local install had excluded: project scope shares it, commit it)`);
  }
}

/**
 * What init does with one per-event hook script of an earlier version: remove it, keep it
 * and hand it over to `sibling`, or keep it with a warning (modified).
 */
type LegacyScript = {
  file: string;
  text: string;
  /** True if its bytes are what git-kizu wrote (see {@link planLegacyScripts}). */
  generated: boolean;
} & ({ action: 'remove' | 'modified' } | { action: 'hand-over'; sibling: Sibling });

/**
 * Reads the hook scripts of an earlier version (`files`: the per-event scripts, and for a
 * local install the project runner it ran) and decides what
 * init does with each regular file there: a script another scope's record lists is handed
 * over to that scope (its settings still run it); else one git-kizu wrote and nobody changed
 * since (its sha256 is the one `rec` or a sibling record holds for it; a file no record
 * lists: it carries {@link SCRIPT_MARKER}) is removed; else one `rec` lists was modified
 * and is kept with a warning. Files that are none of these are not ours and are left alone.
 * @throws KizuError (exit 2) when one cannot be read.
 */
function planLegacyScripts(files: string[], rec: InstallRecord | null, siblings: Sibling[]): LegacyScript[] {
  const out: LegacyScript[] = [];
  for (const file of files) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      /* absent */
    }
    const text = isFile ? readText(file) : null;
    if (text === null) continue;
    const sha = sha256(text);
    const listed = [rec, ...siblings.map((s) => s.rec)].filter((x): x is InstallRecord => !!x?.files[file]);
    const generated = listed.length ? listed.some((x) => x.files[file].sha256 === sha) : text.includes(SCRIPT_MARKER);
    const sibling = siblings.find((s) => s.rec.files[file]);
    if (sibling) out.push({ file, text, generated, action: 'hand-over', sibling });
    else if (generated) out.push({ file, text, generated, action: 'remove' });
    else if (rec?.files[file]) out.push({ file, text, generated, action: 'modified' });
  }
  return out;
}

/** Whether a Claude Code settings file registers git-kizu's hooks (false when it is missing or unreadable). */
function claudeSettingsHaveOurs(file: string): boolean {
  try {
    const text = readText(file);
    return text !== null && hasKizuHooks(file, text);
  } catch {
    return false;
  }
}

/**
 * The install records beside this scope's: the other scopes' of this worktree (and the user's),
 * and every other worktree's of this clone, which share its hooks directory. Teardown hands
 * a shared file (the pre-commit hook, the slash command) over to one that still uses it.
 */
function siblingRecords(t: InstallTargets): Sibling[] {
  const out: Sibling[] = [];
  const files = SCOPES.filter((s) => s !== t.scope).map((s) => recordFileFor(s, t.home, t.repo));
  // The other worktrees' installs share this clone's hooks directory (the pre-commit guard).
  if (t.commonDir) files.push(...cloneRecordFiles(t.commonDir));
  for (const file of new Set(files)) {
    if (!file || file === t.recordFile) continue;
    const rec = readRecord(file);
    if (rec) out.push({ file, rec, dirty: false });
  }
  return out;
}

/** What teardown without an install record does with the guard in the hook manager's file. */
type LostGuard =
  /** Take out the insertion found (managers/find-insertion.ts), as if the record held it. */
  | { kind: 'remove'; record: GuardInsertionRecord }
  /** Another scope's record lists an insertion in this file: keep it. */
  | { kind: 'kept'; file: string; sibling: Sibling }
  /** The guard is there, but not as init inserts it: warn, change nothing. */
  | { kind: 'unsure'; file: string; why: string };

/**
 * For teardown without an install record (lost or overwritten): finds the guard init put in
 * the file of the hook manager init would choose now (guard.ts `guardContext`, managers
 * `chooseManager`; `--scope local`: its local-only file), and the exact insertion it made
 * (managers/find-insertion.ts `findInsertion`). Reads only.
 * @returns null when no manager holds the guard (a symbolic link or non-UTF-8 file is not read).
 * @throws KizuError (exit 2) when git fails; fs errors reading the file.
 */
async function findLostGuard(t: InstallTargets, siblings: Sibling[]): Promise<LostGuard | null> {
  const ctx = await guardContext(t.repo!.root, t.scope === 'local');
  const chosen = chooseManager(ctx, ctx.hookText);
  if (!chosen) return null;
  const { manager, detected: d } = chosen;
  const read = readConfig(d.file);
  if (read.kind !== 'text' || read.text === null || !manager.has(read.text)) return null;
  const sibling = siblings.find((s) => s.rec.guard?.some((g) => g.file === d.file));
  if (sibling) return { kind: 'kept', file: d.file, sibling };
  const found = findInsertion(manager, d, read.text);
  if (found.kind === 'none') return { kind: 'unsure', file: d.file, why: 'not as git kizu init adds it (edited since?)' };
  if (found.kind === 'ambiguous') return { kind: 'unsure', file: d.file, why: 'it is unclear which of its lines git kizu init added' };
  const { insertion, createdFile } = found;
  return { kind: 'remove', record: { manager: d.id, file: d.file, offset: insertion.offset, text: insertion.text, createdFile, hooksDir: ctx.hooksDir } };
}

/**
 * Removes what {@link runInit} installed for `o.scope` and prints one line per file. With an
 * install record: scripts, slash command, settings file / `hooks` key / event arrays and
 * directories are removed only if init created them (the slash command also only if
 * unmodified since, else it is kept with a warning); the pre-commit hook is removed and a
 * chained hook renamed back. Without a record (lost, or never installed): git-kizu's handlers
 * in the settings file, scripts carrying the generated header and a pre-commit hook carrying
 * our marker are removed, containers only if the removal emptied them; the slash command
 * too if identical to ours; the guard in the hook manager's file init would choose is taken
 * out if it is exactly an insertion init would make (managers/find-insertion.ts), else
 * left with a warning naming the file. The whole run holds the install lock (as init does). Files another scope's record also lists are kept and handed over.
 * The runner stays while the settings file still runs it after the removal (entries that
 * were there before init: a teammate's clone of a committed `.claude/`). A link init replaced
 * is put back instead of removing the file; the lines init added to git's exclude file are
 * removed exactly; the launcher is deleted when no install record using it is left (for
 * user scope also the clone's launcher, which a user-scope guard ran).
 * @returns exit code 0 (also when nothing was installed, which is reported).
 * @throws KizuError (exit 2, nothing changed) outside a git repository for project/local
 *   scope or for a settings file that is not valid JSON; fs errors while removing.
 */
export async function runTeardown(o: TeardownOptions): Promise<number> {
  const t = await resolveTargets(o.cwd, o.scope, o.home);
  refuseLinkedFolders(linkTops(t), lockFiles(t), t.teardownCmd, (p) => displayPath(t, p));
  return withInstallLock(t, (lock) => teardownLocked(o, t, lock));
}

/** {@link runTeardown} once the install lock is held (directories still holding the lock go in `lock.retry`). */
async function teardownLocked(o: TeardownOptions, t: InstallTargets, lock: InstallLock): Promise<number> {
  const r = o.reporter;
  const env = o.env ?? process.env;
  const rec = readRecord(t.recordFile);
  const siblings = siblingRecords(t);
  const show = (p: string) => displayPath(t, p);
  if (o.agents) checkScope(o.agents, t.scope);
  // Which agents go: the named ones, or all. The guard, the launcher and the record go only
  // when no agent's hooks are left for this scope.
  const claudeToo = !o.agents || o.agents.includes('claude');
  const installed = await installedAgents(t, rec, env);
  const others = o.agents ? o.agents.filter((a): a is OtherAgent => a !== 'claude') : installed;
  const claudeLeft = !claudeToo && (rec ? (rec.claude ?? 'settings') !== 'none' : claudeSettingsHaveOurs(t.settingsFile));
  const everything = !claudeLeft && installed.every((a) => others.includes(a));

  // Phase 1: read and check.
  const removals = await planAgentRemovals(t, others, env);
  const settingsText = claudeToo ? readText(t.settingsFile) : null;
  let settingsPlan: ReturnType<typeof removeKizuHooks> | null = null;
  let deleteSettings = false;
  if (settingsText !== null) {
    const sr = rec?.settings && rec.settings.file === t.settingsFile ? rec.settings : null;
    const opts: RemoveOptions = sr
      ? { events: sr.addedEvents, dropEvents: sr.createdEvents, dropHooksKey: sr.createdHooksKey }
      : { events: null, dropEvents: 'emptied', dropHooksKey: 'emptied' };
    if (sr || hasKizuHooks(t.settingsFile, settingsText)) {
      settingsPlan = removeKizuHooks(t.settingsFile, settingsText, opts);
      deleteSettings = settingsPlan.empty && (sr ? sr.createdFile : settingsPlan.changed);
    }
  }
  // The settings still run the runner after teardown (hooks that were there before init, as
  // in a teammate's clone of a shared .claude/): the runner stays.
  const stillRun = settingsPlan !== null && !deleteSettings && hasKizuHooks(t.settingsFile, settingsPlan.text);
  const excludeFiles = new Map<string, string | null>();
  if (everything && rec?.exclude?.length) {
    // The record is stored state anyone who writes the git dir can edit: the lines are taken
    // out of this repository's exclude file only, never out of another file it names.
    const own = t.repo ? await excludeFilePath(t.repo.root) : null;
    const foreign = new Set<string>();
    for (const e of rec.exclude) {
      if (own === null || path.resolve(e.file) !== own) foreign.add(e.file);
      else if (!excludeFiles.has(e.file)) excludeFiles.set(e.file, readExcludeFile(e.file));
    }
    for (const f of foreign) r.warn(`left ${show(f)} alone: the install record says git-kizu added lines to it, but git-kizu only ever adds them to this repository's exclude file${own ? ` (${show(own)})` : ''}`);
  }
  const hookPath = !everything
    ? null
    : rec
      ? (rec.preCommit?.hook ?? null)
      : t.repo
        ? path.join(await effectiveHooksDir(o.cwd), 'pre-commit')
        : null;
  const lost = everything && !rec && t.repo ? await findLostGuard(t, siblings) : null;

  // Every file removed or written below, checked first: no folder on the way is a symbolic link.
  refuseLinkedFolders(
    linkTops(t),
    [
      t.recordFile,
      t.launcher,
      ...(claudeToo ? [t.settingsFile, t.commandFile, ...(t.hookScript ? [t.hookScript] : []), ...t.legacyScripts] : []),
      ...(hookPath ? [hookPath, path.join(path.dirname(hookPath), CHAINED_NAME)] : []),
      ...(everything ? (rec?.guard ?? []).map((g) => g.file) : []),
      ...excludeFiles.keys(),
      ...removals.flatMap((p) => [...p.plan.writes.map((w) => w.file), ...p.plan.deletes]),
    ],
    t.teardownCmd,
    (p) => displayPath(t, p),
  );

  // Phase 2: remove.
  let did = 0;
  const ownedBySibling = (pred: (s: InstallRecord) => boolean): Sibling | undefined => siblings.find((s) => pred(s.rec));

  // Local scope ran the project runner only in earlier versions, and only its record says so.
  const runner = !claudeToo ? null : (t.hookScript ?? (t.projectRunner && rec?.files[t.projectRunner] ? t.projectRunner : null));
  for (const file of claudeToo ? [...(runner ? [runner] : []), ...t.legacyScripts] : []) {
    if (!existsSync(file) && !rec?.links?.[file]) continue;
    if (existsSync(file) && !statSync(file).isFile()) {
      r.warn(`left ${show(file)} alone: it is not a file, so git-kizu did not write it`);
      continue;
    }
    const fr = rec?.files[file];
    // Generated content is ours even if the record says the file existed before init (an
    // earlier git-kizu overwrote whatever was there; init now refuses to).
    const ours = (rec && !!fr?.created) || (readText(file) ?? '').includes(SCRIPT_MARKER);
    if (!ours) {
      if (rec && fr) r.log(`kept ${show(file)} (it existed before init)`);
      continue;
    }
    if (file === t.hookScript && stillRun) {
      r.log(`kept ${show(file)} (${show(t.settingsFile)} still runs it)`);
      continue;
    }
    const sib = ownedBySibling((s) => !!s.files[file]);
    if (sib) {
      sib.rec.files[file].created = true;
      sib.dirty = true;
      r.log(`kept ${show(file)} (still used by the --scope ${sib.rec.scope} install)`);
      did++;
      continue;
    }
    const a = removeOrRestoreLink(rec, file);
    r.log(`${a} ${show(file)}${linkNote(rec, file)}`);
    did++;
  }

  if (settingsPlan) {
    if (deleteSettings) {
      const a = removeOrRestoreLink(rec, t.settingsFile);
      r.log(`${a} ${show(t.settingsFile)}${linkNote(rec, t.settingsFile)}`);
      did++;
    } else if (settingsPlan.changed || rec?.links?.[t.settingsFile]) {
      const a = await writeOrRestoreLink(rec, t.settingsFile, settingsPlan.text);
      if (a === 'restored') r.log(`restored ${show(t.settingsFile)}${linkNote(rec, t.settingsFile)}`);
      else r.log(`updated ${show(t.settingsFile)} (removed git-kizu hooks: ${settingsPlan.removedFrom.join(', ') || 'none'})`);
      did++;
    }
  }

  const command = renderSlashCommand();
  const cur = claudeToo ? readText(t.commandFile) : null;
  if (cur !== null) {
    const fr = rec?.files[t.commandFile];
    // Without a record, only an install that left other traces counts as ours.
    const installedHere = rec ? !!fr?.created : did > 0 || (hookPath !== null && isOurPreCommit(hookPath));
    if (installedHere) {
      const unmodified = cur === command || (fr !== undefined && fr.sha256 === sha256(cur));
      const sib = ownedBySibling((s) => !!s.files[t.commandFile]);
      if (!unmodified) {
        r.warn(`kept ${show(t.commandFile)}: it was modified after \`git kizu init\`; delete it yourself if you no longer want it`);
      } else if (sib) {
        sib.rec.files[t.commandFile].created = true;
        sib.dirty = true;
        r.log(`kept ${show(t.commandFile)} (still used by the --scope ${sib.rec.scope} install)`);
      } else {
        const a = removeOrRestoreLink(rec, t.commandFile);
        r.log(`${a} ${show(t.commandFile)}${linkNote(rec, t.commandFile)}`);
      }
      did++;
    } else if (rec && fr) r.log(`kept ${show(t.commandFile)} (it existed before init)`);
  }

  let agentsDid = 0;
  const agentsRecorded = others.some((a) => rec?.agents?.[a]);
  for (const p of removals) agentsDid += await removeAgent(p, rec, r, show);
  did += agentsDid;

  if (hookPath) {
    const chained = path.join(path.dirname(hookPath), CHAINED_NAME);
    if (isOurPreCommit(hookPath) || existsSync(chained)) {
      const sib = ownedBySibling((s) => s.preCommit?.hook === hookPath);
      if (sib && isOurPreCommit(hookPath)) {
        sib.rec.preCommit!.created = true;
        sib.dirty = true;
        r.log(`kept ${show(hookPath)} (still used by the --scope ${sib.rec.scope} install)`);
      } else {
        const st = inspectPreCommit(path.dirname(hookPath));
        const res = st.state === 'foreign' && staleChained(st) ? null : removePreCommit(hookPath);
        if (!res) {
          // A manager wrote its hook again over ours: the chained file is a leftover copy.
          rmSync(chained, { force: true });
          r.log(`removed ${show(chained)} (a leftover copy of a generated hook; ${show(hookPath)} is not git-kizu's any more)`);
        } else if (res.foreign) r.warn(`left ${show(hookPath)} alone: it is no longer git-kizu's hook${existsSync(chained) ? `; your earlier hook is still in ${show(chained)}` : ''}`);
        else if (res.restored) r.log(`restored ${show(hookPath)} (the hook git-kizu had chained)`);
        else if (res.removed) r.log(`removed ${show(hookPath)}`);
      }
      did++;
    }
  }

  if (lost?.kind === 'kept') {
    r.log(`kept the git-kizu guard in ${show(lost.file)} (still used by the --scope ${lost.sibling.rec.scope} install)`);
    did++;
  } else if (lost?.kind === 'unsure') {
    r.warn(`left ${show(lost.file)} alone: it runs the git-kizu guard, but ${lost.why}, and the install record is gone; remove the git-kizu guard lines yourself`);
    did++;
  }
  for (const g of !everything ? [] : (rec?.guard ?? (lost?.kind === 'remove' ? [lost.record] : []))) {
    // The record is stored state: every hook manager's file is in the working tree (managers/),
    // so a recorded file anywhere else (or in a .git directory) is not touched.
    const rel = t.repo ? path.relative(t.repo.root, path.resolve(g.file)) : '..';
    if (rel === '' || rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel) || rel.split(path.sep).some(isDotGitComponent)) {
      r.warn(`left ${show(g.file)} alone: the install record says git-kizu put the guard in it, but git-kizu only puts it in hook manager files of this working tree`);
      continue;
    }
    const { removal, syncedHook } = removeGuard(g);
    const shown = show(g.file);
    if (removal.kind === 'removed') {
      r.log(`updated ${shown} (removed the git-kizu guard)`);
      const note = managerById(g.manager)?.afterEdit;
      if (note) r.log(note);
    }
    else if (removal.kind === 'deleted') r.log(`removed ${shown}`);
    else if (removal.kind === 'absent') r.log(`skipped ${shown}: it is gone`);
    else {
      const why = { 'not-found': 'the guard init added is no longer in it', ambiguous: 'the guard init added is in it more than once', link: 'it is a symbolic link now', binary: 'it is not UTF-8 text' }[removal.kind];
      r.warn(`left ${shown} alone: ${why}; remove the git-kizu guard lines yourself`);
    }
    if (syncedHook) r.log(`${syncedHook.deleted ? 'removed' : 'updated'} ${show(syncedHook.file)} (as ${g.manager} writes it from the configuration)`);
    did++;
  }

  for (const [file, cur] of excludeFiles) {
    const recs = rec!.exclude!.filter((e) => e.file === file);
    if (cur === null) continue;
    const { text, missing } = removeExcludeLines(cur, recs);
    for (const m of missing) {
      r.warn(`left ${m.text.trim()} in ${show(file)}: the line git-kizu added is no longer there exactly once; remove it yourself if you no longer want git to ignore that file`);
    }
    if (text === '' && recs.some((e) => e.createdFile)) {
      const a = removeOrRestoreLink(rec, file);
      r.log(`${a} ${show(file)}${linkNote(rec, file)}`);
    } else if (text !== cur || rec!.links?.[file]) {
      const a = await writeOrRestoreLink(rec, file, text);
      r.log(a === 'restored' ? `restored ${show(file)}${linkNote(rec, file)}` : `updated ${show(file)} (removed the lines git-kizu added)`);
    }
    did++;
  }

  if (!everything) {
    // Other agents' hooks stay: so do the guard, the launcher and the record of what is left.
    if (rec) {
      if (claudeToo) {
        rec.settings = null;
        rec.claude = 'none';
        for (const f of [t.commandFile, ...(runner ? [runner] : []), ...t.legacyScripts]) delete rec.files[f];
      }
      if (rec.agents && !Object.keys(rec.agents).length) delete rec.agents;
      // Directories init created that the removal emptied (`.codex/hooks`, `.codex`) go too.
      for (const d of [...rec.dirs].sort((a, b) => b.length - a.length)) {
        try {
          rmdirSync(d);
          rec.dirs = rec.dirs.filter((x) => x !== d);
        } catch {
          /* not empty (other files are in it), or gone */
        }
      }
      await writeRecord(t.recordFile, rec);
    }
    for (const s of siblings) if (s.dirty) await writeRecord(s.file, s.rec);
    if (!claudeToo && !agentsDid && !agentsRecorded) {
      r.log(`nothing to tear down: git-kizu's hooks for ${joinAnd(others.map((a) => AGENT_LABELS[a]))} are not installed for --scope ${t.scope} here`);
      return EXIT.OK;
    }
    const gone = [...(claudeToo ? ['claude'] : []), ...others].map((a) => AGENT_LABELS[a as AgentName]);
    const left = [...(claudeLeft ? ['claude'] : []), ...installed.filter((a) => !others.includes(a))].map((a) => AGENT_LABELS[a as AgentName]);
    r.log(`removed git-kizu's hooks for ${joinAnd(gone)} (--scope ${t.scope}); the hooks for ${joinAnd(left)} and the pre-commit guard stay (\`${t.teardownCmd}\` removes everything)`);
    return EXIT.OK;
  }
  // Also an unreadable record: teardown went by the files' contents instead.
  deleteRecord(t.recordFile);
  // The launcher goes with the last install record that runs it (also when this scope's record was lost).
  if (t.scope === 'user' || t.commonDir) {
    removeUnusedLauncher(t.launcher, t.scope === 'user' ? [userInstallRecordFile(t.home)] : cloneRecordFiles(t.commonDir!));
  }
  // A user-scope guard ran this clone's launcher, which init wrote: it goes too when no install of the clone is left.
  if (t.scope === 'user' && t.commonDir) removeUnusedLauncher(launcherFile(t.commonDir), cloneRecordFiles(t.commonDir));
  if (rec) {
    for (const d of [...rec.dirs].sort((a, b) => b.length - a.length)) {
      const sib = ownedBySibling((s) => s.dirs.includes(d));
      if (sib) continue;
      try {
        rmdirSync(d);
      } catch {
        // Not empty (or gone): hand it to a sibling that still has files in it.
        const heir = siblings.find((s) => [s.file, ...Object.keys(s.rec.files)].some((f) => f.startsWith(d + path.sep)));
        if (heir && existsSync(d)) {
          heir.rec.dirs.push(d);
          heir.dirty = true;
        } else if (lock.files.some((f) => f.startsWith(d + path.sep))) lock.retry.push(d);
      }
    }
  }
  for (const s of siblings) if (s.dirty) await writeRecord(s.file, s.rec);

  if (!rec && did === 0) {
    r.log(`nothing to tear down: git-kizu is not installed for --scope ${t.scope} here (no install record, hook scripts, settings entries or pre-commit hook found)`);
  } else {
    r.log(`git-kizu is uninstalled for --scope ${t.scope}; scars already in files stay until you remove them (git kizu unscar --all)`);
  }
  return EXIT.OK;
}
