/**
 * Where `git kizu init` / `teardown` put things, per Claude Code settings scope
 * (Claude Code settings: `~/.claude/settings.json` user, `.claude/settings.json` project,
 * `.claude/settings.local.json` local; hooks reference project scripts through
 * `$CLAUDE_PROJECT_DIR`).
 *
 * | scope   | settings file                 | hook scripts            | slash command              | install record                          |
 * |---------|-------------------------------|-------------------------|----------------------------|-----------------------------------------|
 * | project | <root>/.claude/settings.json  | <root>/.claude/hooks/   | <root>/.claude/commands/   | <git-dir>/kizu/install-project.json     |
 * | local   | <root>/.claude/settings.local.json | <root>/.claude/hooks/ | <root>/.claude/commands/ | <git-dir>/kizu/install-local.json     |
 * | user    | ~/.claude/settings.json       | ~/.claude/hooks/        | ~/.claude/commands/        | ~/.claude/kizu/install-user.json        |
 *
 * `<git-dir>` is this worktree's git dir (`git rev-parse --absolute-git-dir`; the common dir
 * in the main worktree), because the project/local files live in this worktree.
 */
import path from 'node:path';
import { repoInfo, type RepoInfo } from '../git/repo.js';
import { KizuError } from '../errors.js';
import { installRecordFile, userInstallRecordFile } from '../git/layout.js';

/** A Claude Code settings scope. */
export type Scope = 'project' | 'local' | 'user';

/** Every scope, in the order teardown looks at sibling install records. */
export const SCOPES: readonly Scope[] = ['project', 'local', 'user'];

/** File names of the generated Claude Code hook scripts. */
export const STOP_SCRIPT = 'kizu-stop.sh';
export const POST_TOOL_USE_SCRIPT = 'kizu-post-tool-use.sh';
/** File name of the async PostToolUse hook script that records edits in the journal. */
export const JOURNAL_SCRIPT = 'kizu-journal.sh';
/** File name of the UserPromptSubmit hook script that takes a snapshot before each prompt. */
export const USER_PROMPT_SUBMIT_SCRIPT = 'kizu-user-prompt-submit.sh';
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
  /** Absolute paths of the hook scripts. */
  stopScript: string;
  postToolUseScript: string;
  journalScript: string;
  userPromptSubmitScript: string;
  /** Absolute path of `kizu.md`. */
  commandFile: string;
  /** The JSON install record for this scope. */
  recordFile: string;
  /** `git kizu init` plus ` --scope <scope>` unless project (for headers and messages). */
  initCmd: string;
  /** `git kizu teardown` plus ` --scope <scope>` unless project. */
  teardownCmd: string;
}

/** Quotes a path for a POSIX shell command line: bare if it only holds safe characters. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_./@%+=:,-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `command` string written to the settings file for a hook script: for project and local
 * scope `"$CLAUDE_PROJECT_DIR"/.claude/hooks/<script>` (Claude Code sets CLAUDE_PROJECT_DIR
 * to the project root when it runs a hook), for user scope the script's absolute path,
 * shell-quoted when needed.
 */
export function hookCommand(t: InstallTargets, scriptPath: string): string {
  if (t.scope === 'user') return shellQuote(scriptPath);
  return `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${path.basename(scriptPath)}`;
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
    stopScript: path.join(hooksDir, STOP_SCRIPT),
    postToolUseScript: path.join(hooksDir, POST_TOOL_USE_SCRIPT),
    journalScript: path.join(hooksDir, JOURNAL_SCRIPT),
    userPromptSubmitScript: path.join(hooksDir, USER_PROMPT_SUBMIT_SCRIPT),
    commandFile: path.join(commandsDir, COMMAND_FILE),
    recordFile: recordFileFor(scope, path.resolve(h || '/'), repo)!,
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
