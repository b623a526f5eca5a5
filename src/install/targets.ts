/**
 * Where `git kizu init` / `teardown` put things, per Claude Code settings scope
 * (Claude Code settings: `~/.claude/settings.json` user, `.claude/settings.json` project,
 * `.claude/settings.local.json` local; hooks reference project scripts through
 * `$CLAUDE_PROJECT_DIR`).
 *
 * | scope   | settings file                      | hook commands run                       | slash command            | install record                      |
 * |---------|------------------------------------|-----------------------------------------|--------------------------|-------------------------------------|
 * | project | <root>/.claude/settings.json       | <root>/.claude/hooks/kizu-hook.sh       | <root>/.claude/commands/ | <git-dir>/kizu/install-project.json |
 * | local   | <root>/.claude/settings.local.json | <common-dir>/kizu/git-kizu (launcher)   | <root>/.claude/commands/ | <git-dir>/kizu/install-local.json   |
 * | user    | ~/.claude/settings.json            | ~/.claude/hooks/kizu-hook.sh            | ~/.claude/commands/      | ~/.claude/kizu/install-user.json    |
 *
 * Project scope writes only files meant to be committed and identical on every machine: the
 * runner finds git-kizu at run time (templates/hooks/kizu-hook.sh). Local scope writes
 * nothing in the working tree that git would list: its settings run this clone's launcher
 * by absolute path (`settings.local.json` is this machine's file), and the files it creates
 * there are added to `<common-dir>/info/exclude` (install/exclude.ts). User scope runs its
 * runner by absolute path (`~/.claude/settings.json` is this machine's file too).
 *
 * `<git-dir>` is this worktree's git dir (`git rev-parse --absolute-git-dir`; the common dir
 * in the main worktree), because the project/local files live in this worktree.
 */
import path from 'node:path';
import { repoInfo, type RepoInfo } from '../git/repo.js';
import { KizuError } from '../errors.js';
import { shellQuote } from '../words.js';
import type { AgentEvent } from '../hooks/contract.js';
import { installRecordFile, launcherFile, userInstallRecordFile, userLauncherFile } from '../git/layout.js';
import { commonDir } from '../git/repo.js';

/** A Claude Code settings scope. */
export type Scope = 'project' | 'local' | 'user';

/** Every scope, in the order teardown looks at sibling install records. */
export const SCOPES: readonly Scope[] = ['project', 'local', 'user'];

/**
 * File name of the generated Claude Code hook runner: one script for every hook, run with
 * git-kizu's name of the event as its argument (`kizu-hook.sh stop`).
 */
export const HOOK_SCRIPT = 'kizu-hook.sh';
/**
 * File names of the per-event hook scripts earlier versions of git-kizu generated instead
 * (`kizu-stop.sh` ran `git-kizu hook stop`, and so on). `init` replaces them with
 * {@link HOOK_SCRIPT} and `teardown` removes them.
 */
export const LEGACY_HOOK_SCRIPTS: Readonly<Partial<Record<AgentEvent, string>>> = {
  stop: 'kizu-stop.sh',
  'post-tool-use': 'kizu-post-tool-use.sh',
  journal: 'kizu-journal.sh',
  'user-prompt-submit': 'kizu-user-prompt-submit.sh',
};
/** File name of the slash command (`/kizu`). */
export const COMMAND_FILE = 'kizu.md';

/** Resolved locations for one scope. All paths are absolute. */
export interface InstallTargets {
  scope: Scope;
  /** Home directory used for the user scope (and for finding the user-scope record). */
  home: string;
  /** The repository containing cwd, or null (only possible for scope user). */
  repo: RepoInfo | null;
  /** `<root>/.claude` or `~/.claude`. */
  claudeDir: string;
  /** Directory of the hook scripts (`<claudeDir>/hooks`). */
  hooksDir: string;
  /** Directory of the slash command (`<claudeDir>/commands`). */
  commandsDir: string;
  /** The scope's Claude Code settings file. */
  settingsFile: string;
  /**
   * Absolute path of the hook runner script ({@link HOOK_SCRIPT}) the settings run, or null
   * for local scope (its settings run the launcher).
   */
  hookScript: string | null;
  /** `<root>/.claude/hooks/kizu-hook.sh` (null for user scope): the runner of project scope, which local installs of earlier versions ran too. */
  projectRunner: string | null;
  /** Absolute paths of the per-event scripts of earlier versions ({@link LEGACY_HOOK_SCRIPTS}). */
  legacyScripts: string[];
  /** Absolute path of `kizu.md`. */
  commandFile: string;
  /** The JSON install record for this scope. */
  recordFile: string;
  /** The repository's common git dir (absolute), or null outside a repository. */
  commonDir: string | null;
  /** The launcher (install/launcher.ts): `<common-dir>/kizu/git-kizu`, or `~/.claude/kizu/git-kizu` for user scope. */
  launcher: string;
  /** `git kizu init` plus ` --scope <scope>` unless project (for headers and messages). */
  initCmd: string;
  /** `git kizu teardown` plus ` --scope <scope>` unless project. */
  teardownCmd: string;
}

/**
 * The `command` string written to the settings file for the hook of `event` (a shell command
 * line, Claude Code hooks reference): for project scope
 * `"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh <event>` (Claude Code sets
 * CLAUDE_PROJECT_DIR to the project root when it runs a hook; no machine path, so the same
 * for every teammate); for local scope the launcher's absolute path, shell-quoted when
 * needed, then `hook <event>`; for user scope the runner's absolute path, shell-quoted when
 * needed, and the event.
 */
export function hookCommand(t: InstallTargets, event: AgentEvent): string {
  if (t.scope === 'local') return `${shellQuote(t.launcher)} hook ${event}`;
  if (t.scope === 'user') return `${shellQuote(t.hookScript!)} ${event}`;
  return `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${HOOK_SCRIPT} ${event}`;
}

/** The install record location for `scope` (see the table above). */
export function recordFileFor(scope: Scope, home: string, repo: RepoInfo | null): string | null {
  if (scope === 'user') return userInstallRecordFile(home);
  return repo ? installRecordFile(repo.gitDir, scope) : null;
}

/**
 * Resolves the install locations for `scope` from `cwd`.
 * @param home the user's home directory (the `HOME` environment variable unless given).
 * @throws KizuError (exit 2) for project/local scope outside a git working tree, or when
 *   the home directory is unknown for user scope.
 */
export async function resolveTargets(cwd: string, scope: Scope, home?: string): Promise<InstallTargets> {
  const h = home ?? process.env.HOME ?? '';
  let repo: RepoInfo | null = null;
  try {
    repo = await repoInfo(cwd);
  } catch (e) {
    if (scope !== 'user') {
      throw new KizuError(`--scope ${scope} needs a git repository, and ${cwd} is not inside a git working tree`, {
        hint: 'run it inside the repository you want to review (git init creates one), or use --scope user to install for every project',
      });
    }
    if (!(e instanceof KizuError)) throw e;
  }
  if (scope === 'user' && !h) {
    throw new KizuError('--scope user needs the home directory, but HOME is not set', { hint: 'set HOME to your home directory' });
  }
  const common = repo ? await commonDir(repo.root) : null;
  return targetsFor(scope, h, repo, common);
}

/**
 * The install locations for `scope` from what is already known (no git process): the
 * repository (null outside one), its common git dir and the home directory. What
 * {@link resolveTargets} returns once it has found them; install/integrity.ts uses it on the
 * prompt hook's path, where git is not run.
 */
export function targetsFor(scope: Scope, h: string, repo: RepoInfo | null, common: string | null): InstallTargets {
  const claudeDir = scope === 'user' ? path.join(path.resolve(h), '.claude') : path.join(repo!.root, '.claude');
  const hooksDir = path.join(claudeDir, 'hooks');
  const commandsDir = path.join(claudeDir, 'commands');
  const suffix = scope === 'project' ? '' : ` --scope ${scope}`;
  return {
    scope,
    home: path.resolve(h || '/'),
    repo,
    claudeDir,
    hooksDir,
    commandsDir,
    settingsFile: path.join(claudeDir, scope === 'local' ? 'settings.local.json' : 'settings.json'),
    hookScript: scope === 'local' ? null : path.join(hooksDir, HOOK_SCRIPT),
    projectRunner: scope === 'user' ? null : path.join(hooksDir, HOOK_SCRIPT),
    legacyScripts: Object.values(LEGACY_HOOK_SCRIPTS).filter((n): n is string => n !== undefined).map((n) => path.join(hooksDir, n)),
    commandFile: path.join(commandsDir, COMMAND_FILE),
    recordFile: recordFileFor(scope, path.resolve(h || '/'), repo)!,
    commonDir: common,
    launcher: scope === 'user' ? userLauncherFile(path.resolve(h)) : launcherFile(common!),
    initCmd: `git kizu init${suffix}`,
    teardownCmd: `git kizu teardown${suffix}`,
  };
}

/**
 * A path for output lines: relative to the repository root when inside it, `~/...` when
 * inside the home directory, else absolute.
 */
export function displayPath(t: InstallTargets, p: string): string {
  if (t.repo) {
    const rel = path.relative(t.repo.root, p);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  const relHome = path.relative(t.home, p);
  if (t.home !== '/' && relHome && !relHome.startsWith('..') && !path.isAbsolute(relHome)) return `~/${relHome.split(path.sep).join('/')}`;
  return p;
}
