// git kizu init / teardown: what they write, and reading a repository's files before and after.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, ROOT } from './sandbox.mjs';

/** The /kizu command init installs (templates/commands/kizu.md). */
export const TEMPLATE_COMMAND = readFileSync(path.join(ROOT, 'templates/commands/kizu.md'), 'utf8');
/** The bin's real path, recorded in the generated hook runner and pre-commit scripts. */
export const REAL_BIN = realpathSync(BIN);
/** The last line init prints. */
export const NEXT =
  'next: scar a change with `git kizu scar path:line`; the agent has to resolve it before it stops (or run /kizu in Claude Code). Restart running Claude Code sessions to load the hooks.';
/** The last line teardown prints for `scope`. */
export const UNINSTALLED = (scope) =>
  `git-kizu is uninstalled for --scope ${scope}; scars already in files stay until you remove them (git kizu unscar --all)`;

/**
 * The exact settings JSON init writes; `stop`/`post`/`journal`/`ups` are the command strings.
 * The journal hook is its own PostToolUse group, run async (Claude Code hooks: `"async": true`).
 * `pre` (the pre-tool gate) defaults to `stop`'s command with the event `pre-tool-use`.
 */
export function expectedHooks(stop, post, journal, ups, pre = stop.replace(/stop$/, 'pre-tool-use')) {
  return {
    Stop: [{ hooks: [{ type: 'command', command: stop, timeout: 30 }] }],
    SubagentStop: [{ hooks: [{ type: 'command', command: stop, timeout: 30 }] }],
    PostToolUse: [
      { matcher: '^(Write|Edit|MultiEdit|NotebookEdit)$', hooks: [{ type: 'command', command: post, timeout: 10 }] },
      { matcher: '^(Write|Edit|MultiEdit|NotebookEdit)$', hooks: [{ type: 'command', command: journal, async: true, timeout: 30 }] },
    ],
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: ups, timeout: 30 }] }],
    PreToolUse: [{ matcher: '^(Bash|Write|Edit|MultiEdit|NotebookEdit)$', hooks: [{ type: 'command', command: pre, timeout: 30 }] }],
  };
}
/** The hook commands of a project (or local) install. */
export const PROJECT_STOP = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh stop';
export const PROJECT_POST = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh post-tool-use';
export const PROJECT_JOURNAL = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh journal';
export const PROJECT_UPS = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh user-prompt-submit';
/** The `hooks` object init writes into the settings of a project or local install. */
export const PROJECT_HOOKS = () => expectedHooks(PROJECT_STOP, PROJECT_POST, PROJECT_JOURNAL, PROJECT_UPS);
/**
 * The `hooks` object init writes into `.claude/settings.local.json` (local scope): the
 * clone's launcher (absolute path `launcher`, this machine's file) run with `hook <event>`.
 */
export const LOCAL_HOOKS = (launcher) =>
  expectedHooks(`${launcher} hook stop`, `${launcher} hook post-tool-use`, `${launcher} hook journal`, `${launcher} hook user-prompt-submit`);
/** The line local-scope init prints for git's exclude file, naming the files it keeps out of `git status`. */
export const EXCLUDED = (what, verb = 'updated') => `${verb} .git/info/exclude (git ignores ${what} in this clone)`;
/** What the project runner says (after `git-kizu: <label> hook skipped: `) when nothing can run git-kizu. */
export const NO_RUNTIME =
  "git-kizu cannot run here (no git-kizu with node on PATH, and no launcher in this clone's git dir); install git-kizu (npm install -g git-kizu), then run `git kizu init`";
/** What init adds to a settings file, as it says so. */
export const ADDED = '(added hooks: Stop, SubagentStop, PostToolUse, UserPromptSubmit, PreToolUse)';

/** Permission bits of the file at absolute path `p`. */
export const mode = (p) => statSync(p).mode & 0o777;
/** The non-empty lines of `s`. */
export const lines = (s) => s.split('\n').filter(Boolean);

/** Every file under `dir` (relative path → {sha256, mode}; directories → {dir: true}; symbolic links → {link: their text}), skipping .git/objects, logs and index. */
export function repoFiles(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (/^\.git\/(objects|logs)/.test(rel) || rel === '.git/index') continue;
      if (e.isSymbolicLink()) out[rel] = { link: readlinkSync(p) };
      else if (e.isDirectory()) {
        out[rel + '/'] = { dir: true };
        walk(p);
      } else out[rel] = { sha256: createHash('sha256').update(readFileSync(p)).digest('hex'), mode: mode(p) };
    }
  };
  walk(dir);
  return out;
}

/** Writes `file` (in opts.cwd, default the repo), stages and commits it; returns the commit run. */
export function commitStaged(sb, file, content, opts = {}) {
  writeFileSync(path.join(opts.cwd ?? sb.dir, file), content);
  sb.git('add', file, opts);
  return sb.run('git', ['commit', '-q', '-m', `add ${file}`], opts);
}


/**
 * The files {@link repoFiles} lists under any of `prefixes` (relative paths such as `.husky/`,
 * `package.json`, `.git/hooks/`, `.git/config`): a hook manager's files and the git hooks,
 * which must be byte-identical after init → teardown.
 */
export function filesUnder(dir, prefixes) {
  const all = repoFiles(dir);
  return Object.fromEntries(Object.entries(all).filter(([k]) => prefixes.some((p) => k === p || k.startsWith(p))));
}

/** Stages `file` holding a scar line (`// @kizu[ask]: x`) and tries to commit; returns the commit run. */
export function commitScar(sb, file = 'scarred.js', opts = {}) {
  return commitStaged(sb, file, 'const a = 1;\n// @kizu[ask]: x\n', opts);
}

/**
 * A PATH without node, as GUI git clients and nvm users have: a fresh directory under
 * `sb.base` holding links to sh, git and cat (what the generated hook scripts use), plus
 * `extra` ({name: target}, e.g. a git-kizu whose node is missing). Returns the directory.
 */
export function pathWithoutNode(sb, name = 'no-node', extra = {}) {
  const dir = path.join(sb.base, name);
  mkdirSync(dir);
  for (const tool of ['sh', 'git', 'cat']) {
    const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    symlinkSync(real, path.join(dir, tool));
  }
  for (const [n, target] of Object.entries(extra)) symlinkSync(target, path.join(dir, n));
  if (existsSync(path.join(dir, 'node'))) throw new Error('pathWithoutNode: node is in the directory');
  return dir;
}
