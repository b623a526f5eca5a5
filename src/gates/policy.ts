/**
 * The pre-tool gate's policy table: every rule a tool call is judged by, as data the engine
 * (./engine.ts) applies. A rule has
 * - an `id` (stable: tests, the agent's reason text in src/hooks/text.ts `GATE_REASONS`, and
 *   the danger gates that will extend this table name rules by it);
 * - a `class` (what it protects; the danger gates add their own classes: secrets, CI,
 *   test-weakening, destructive commands);
 * - a `strength`: `deny` (the call does not run), `ask` (the user decides, where the agent can
 *   ask; denied elsewhere) or `pass` (a rule that documents a decision to let a call through);
 * - what it matches (`match`): for the write tools and the file arguments of shell commands,
 *   `paths` (patterns on the path relative to the repository root or the home directory, or on
 *   any component); for shell commands, a command name and a test on its arguments
 *   (./shell.ts resolves wrappers, quoting and nesting first).
 * The first matching rule of the strongest strength decides (deny over ask over pass).
 */
import type { SimpleCommand } from './shell.js';
export { SHELLS } from './shell.js';

/** What a rule does to a matching call. */
export type Strength = 'deny' | 'ask' | 'pass';

/** What a rule protects. */
export type GateClass =
  /** git-kizu's config, hook registrations and runners, and its review queue file. */
  | 'review-files'
  /** Anything under a `.git` directory (refs, hooks, config, git-kizu's own state). */
  | 'git-dir'
  /** Shell commands that skip or switch off review (`--no-verify`, `core.hooksPath`, `KIZU_SKIP`, hidden changes). */
  | 'review-bypass'
  /** Shell commands that move or delete git-kizu's refs (`refs/kizu/*`). */
  | 'review-refs'
  /** The reviewer's own git-kizu commands, and forged hook runs. */
  | 'reviewer-acts'
  /** Commands the gate cannot see through (unparsable, over budget, a command name it cannot know). */
  | 'unjudgeable';

/**
 * A path pattern (lower case, `/`-separated; paths are compared in lower case, since macOS
 * and Windows file systems are case-insensitive): `exact` path, a directory `under` which
 * every path matches, or a `prefix` of the last component within `dir`.
 */
export type PathPattern = { exact: string } | { under: string } | { dir: string; prefix: string };

/** Where a path rule's patterns apply. */
export interface PathMatch {
  on: 'path';
  /** Patterns relative to the repository root (the working tree's top). */
  repo?: PathPattern[];
  /** Patterns relative to the home directory (the agents' and git's user-scope files). */
  home?: PathPattern[];
  /** Patterns relative to the file system's root (system-wide config: /etc/gitconfig, managed agent settings). */
  system?: PathPattern[];
  /** Patterns on the end of a path, at any depth in the repository (`.claude/settings.json` of a subproject). */
  anyDepth?: PathPattern[];
  /** True: every path with a component named `.git` (any case, NTFS/HFS aliases), and every path in the repository's git dirs. */
  gitDir?: boolean;
}

/** A shell command rule: the command (after ./shell.ts resolved wrappers) and a test on it. */
export interface CommandMatch {
  on: 'command';
  /** Command names (basenames) it applies to; '*' for every command. */
  names: readonly string[];
  /** True when the command (its arguments, assignments, redirections) matches. */
  test: (c: SimpleCommand) => boolean;
}

/** A rule of the table. */
export interface Rule {
  id: RuleId;
  class: GateClass;
  strength: Strength;
  match: PathMatch | CommandMatch | { on: 'engine' };
}

/** Every rule id (the reason texts in src/hooks/text.ts are keyed by these). */
export const RULE_IDS = [
  'kizu-config',
  'package-json-review-keys',
  'hook-files',
  'review-queue-file',
  'user-hook-files',
  'git-dir',
  'commit-no-verify',
  'git-config-hooks-path',
  'git-config-alias',
  'git-config-env',
  'git-config-edit',
  'kizu-skip',
  'hide-changes',
  'commit-dynamic-options',
  'plumbing-commit',
  'untracked-away',
  'git-config-view',
  'refspec-outside-branches',
  'kizu-refs',
  'update-ref-delete',
  'update-ref-stdin',
  'git-alias-skips-hooks',
  'package-json-command',
  'hook-manager-uninstall',
  'reviewer-act',
  'forged-hook',
  'shell-from-stdin',
  'interactive-program',
  'dynamic-command',
  'interpreter-mentions-review',
  'interpreter-review-words',
  'unparsable',
  'over-budget',
  'open-arguments',
  // issue 22, round 2
  'git-computed-word',
  'computed-variable-name',
  'computed-path',
  'runs-unseen-commands',
  'session-variable',
  'mirror-remote',
  'sparse-checkout',
  'review-queue-stash',
  'user-git-files',
  'git-config-command',
  'user-startup-files',
] as const;
export type RuleId = (typeof RULE_IDS)[number];

// ---------------------------------------------------------------------------------------
// Paths

/**
 * git-kizu's config files (config/search.ts `SEARCH_PLACES`, code files included: those are
 * refused by name, and a refusal is an error worth protecting too), relative to the root.
 * package.json is judged by its content (rule `package-json-review-keys`).
 */
const CONFIG_PATHS: PathPattern[] = [
  { dir: '', prefix: '.kizurc' },
  { dir: '.config', prefix: 'kizurc' },
  { dir: '', prefix: 'kizu.config.' },
];

/** Hook registrations and runners of every agent and hook manager, relative to the root. */
const HOOK_PATHS: PathPattern[] = [
  { dir: '.claude', prefix: 'settings' }, // settings.json, settings.local.json: hooks, disableAllHooks, permissions
  { under: '.claude/hooks' },
  { under: '.claude/kizu' },
  { exact: '.claude/commands/kizu.md' },
  { under: '.codex' },
  { exact: '.gemini/settings.json' },
  { under: '.github/hooks' },
  { exact: '.cursor/hooks.json' },
  { under: '.husky' },
  { dir: '', prefix: 'lefthook' },
  { dir: '', prefix: '.lefthook' },
  { dir: '.config', prefix: 'lefthook' },
  { exact: '.pre-commit-config.yaml' },
  { exact: '.pre-commit-config.yml' },
  { dir: '', prefix: '.simple-git-hooks' },
  { dir: '', prefix: 'simple-git-hooks.' },
];

/** The same registrations in the home directory (user scope), and git's user config. */
const HOME_HOOK_PATHS: PathPattern[] = [
  { dir: '.claude', prefix: 'settings' },
  { under: '.claude/hooks' },
  { under: '.claude/kizu' },
  { exact: '.claude/commands/kizu.md' },
  { under: '.codex' },
  { exact: '.gemini/settings.json' },
  { exact: '.cursor/hooks.json' },
  { under: '.copilot/hooks' },
  { exact: '.gitconfig' },
  { exact: '.config/git/config' },
  { under: '.config/kizu' },
  { dir: '', prefix: '.kizurc' },
];

/**
 * git's user-scope ignore and attributes files (and its config's other names), relative to
 * the home: a line appended there hides a new file from git, and with it from review.
 */
const HOME_GIT_PATHS: PathPattern[] = [{ under: '.config/git' }, { dir: '', prefix: '.gitignore' }, { dir: '', prefix: '.gitattributes' }, { dir: '', prefix: '.gitconfig' }];

/** Shell startup files in the home directory: what they set (`GIT_PAGER`, aliases, `PATH`) holds in your next shell. */
const HOME_STARTUP_PATHS: PathPattern[] = [
  { exact: '.bashrc' }, { exact: '.bash_profile' }, { exact: '.bash_login' }, { exact: '.profile' }, { exact: '.bash_logout' },
  { exact: '.zshrc' }, { exact: '.zshenv' }, { exact: '.zprofile' }, { exact: '.zlogin' }, { exact: '.kshrc' }, { exact: '.mkshrc' },
  { exact: '.inputrc' }, { under: '.config/fish' }, { exact: '.config/environment.d' }, { under: '.bashrc.d' }, { exact: '.pam_environment' },
];

/** The `package.json` keys whose change the gate denies: git-kizu's config and simple-git-hooks' hooks (and husky 4's). */
export const PACKAGE_JSON_REVIEW_KEYS = ['kizu', 'simple-git-hooks', 'husky'] as const;

// ---------------------------------------------------------------------------------------
// Commands

/** `arg` is `long` or an abbreviation of it git's parse-options accepts (at least `min` characters). */
export function abbrevOf(arg: string, long: string, min: number): boolean {
  return arg.length >= min && long.startsWith(arg);
}

/** The static arguments of a command up to `--` (null where an argument is not static). */
function opts(c: SimpleCommand, from = 1): (string | null)[] {
  const out: (string | null)[] = [];
  for (const w of c.argv.slice(from)) {
    if (w.value === '--') break;
    out.push(w.value);
  }
  return out;
}

/**
 * git's own options before the subcommand, and where the subcommand is (./shell.ts leaves
 * `git` as `argv[0]`). Options with a separate value: `-C`, `-c`, `--git-dir`,
 * `--work-tree`, `--namespace`, `--exec-path` (only with `=`), `--config-env`, `--super-prefix`.
 */
export function gitSubcommand(c: SimpleCommand): { at: number; config: string[]; dynamic: boolean } {
  const config: string[] = [];
  let i = 1;
  let dynamic = false;
  while (i < c.argv.length) {
    const v = c.argv[i].value;
    if (v === null) {
      dynamic = true;
      config.push(c.argv[i].raw);
      i++;
      continue;
    }
    if (v === '-c' || v === '--config-env') {
      config.push(c.argv[i + 1]?.value ?? c.argv[i + 1]?.raw ?? '');
      i += 2;
    } else if (v.startsWith('-c') && v.length > 2) {
      config.push(v.slice(2));
      i++;
    } else if (v.startsWith('--config-env=')) {
      config.push(v.slice('--config-env='.length));
      i++;
    } else if (['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--list-cmds', '--attr-source'].includes(v)) i += 2;
    else if (v.startsWith('-')) i++;
    else break;
  }
  return { at: i, config, dynamic };
}

/** The git subcommand's name, or null when there is none or it is not static. */
function gitSub(c: SimpleCommand): string | null {
  const s = gitSubcommand(c);
  return c.argv[s.at]?.value ?? null;
}

/** True when a git config key (`core.hooksPath=x`, `--config-env` `core.hooksPath=VAR`) names `core.hooksPath`. */
const HOOKS_PATH_KEY = /hookspath/i;

/**
 * True when `git commit`'s (or merge's) arguments hold a word whose value is computed when it
 * runs (`$F`, `${X:---no-verify}`, `"${a[@]}"`) and is not the value of an option that takes
 * one (`-m "$(cat <<EOF …)"`, `--author "$A"`): it may be `--no-verify` or `-n`.
 */
function commitHasDynamicOption(c: SimpleCommand, args: (string | null)[]): boolean {
  const raws = c.argv.slice(c.argv.length - args.length).map((w) => w.raw);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) {
      // `--message=$M`, `-m"$M"`: the option is written out, its value computed.
      if (/^(--[a-z-]+=|-[a-zA-Z]*[mFcCt])/.test(raws[i] ?? '')) continue;
      return true;
    }
    if (a.startsWith('--')) {
      const name = a.split('=')[0];
      if (['--message', '--file', '--author', '--date', '--cleanup', '--reuse-message', '--reedit-message', '--fixup', '--squash', '--template', '--trailer', '--pathspec-from-file'].some((o) => abbrevOf(name, o, 4)) && !a.includes('=')) i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const ch = a[k];
        if (COMMIT_SHORT_WITH_VALUE.has(ch)) {
          if (k === a.length - 1 && ch !== 'S' && ch !== 'u') i++;
          break;
        }
      }
    }
  }
  return false;
}

/** git config's options that read (get, list), and its options that take a separate value. */
const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list', 'get', 'list']);
const CONFIG_WITH_VALUE = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value', '-t']);

/**
 * True when a `git config` invocation (its arguments after `config`) writes: it sets, unsets,
 * adds, renames or edits. A read (`--get`, `--list`, `get`, or just a key) is not a write.
 */
export function configWrites(args: (string | null)[]): boolean {
  let positional = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) return true; // computed: cannot tell
    if (CONFIG_READS.has(a)) return false;
    if (CONFIG_WITH_VALUE.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) {
      if (/^--(unset|unset-all|add|replace-all|rename-section|remove-section|edit)$/.test(a) || a === '-e') return true;
      continue;
    }
    positional++;
  }
  return positional >= 2 || (args[0] !== null && ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(args[0] ?? ''));
}

/**
 * Config keys that change what git shows of the working tree, and with it what review sees: a
 * clean filter or textconv that rewrites content, the file mode and bare switches, other
 * attribute and exclude files, submodule and untracked-file hiding.
 */
const VIEW_KEY = /^\s*(filter\.|diff\.[^.=\s]+\.textconv|diff\.external|diff\.ignoresubmodules|submodule\.[^=\s]+\.ignore|status\.showuntrackedfiles|index\.sparse|extensions\.worktreeconfig|core\.(filemode|bare|attributesfile|excludesfile|ignorestat|checkstat|trustctime|sparsecheckout|splitindex|untrackedcache|bigfilethreshold|ignorecase|precomposeunicode|protectntfs|protecthfs|autocrlf|symlinks))/i;

/**
 * Config keys whose value git runs as a command in your later git commands (a pager that
 * drops lines of `git kizu status`, an editor, an ssh or gpg program, a credential helper):
 * written by the agent, they run as you. Set for one run (`git -c core.pager=cat log`) they
 * are judged as the code they run (./shell.ts), not refused.
 */
const COMMAND_KEY = /^\s*(protocol\.|core\.(pager|editor|sshcommand|askpass|hookspath)|pager\.|sequence\.editor|gpg\.|credential\.|interactive\.difffilter|diff\.[^.=\s]+\.command|merge\.[^.=\s]+\.driver|mergetool\.|difftool\.)/i;

/**
 * True when a fetch, pull or push refspec writes refs outside branches, tags and remote-
 * tracking refs (`+refs/heads/*:refs/*`, `refs/k*:refs/k*`): git-kizu's refs under
 * refs/kizu/ among them. The first positional word is the repository.
 */
function refspecOutsideBranches(c: SimpleCommand, from: number): boolean {
  let repoSeen = false;
  for (const w of c.argv.slice(from)) {
    const v = w.value;
    if (v === null) continue;
    if (v.startsWith('-')) continue;
    if (!repoSeen) {
      repoSeen = true;
      continue;
    }
    const colon = v.lastIndexOf(':');
    if (colon < 0) continue;
    const dst = v.slice(colon + 1);
    if (!dst) continue;
    const ok = /^refs\/(heads|tags|remotes)\//.test(dst) || (!dst.startsWith('refs/') && !dst.includes('*'));
    if (!ok) return true;
  }
  return false;
}

/** True for one refspec (`+refs/*:refs/*`; no colon: the same name) whose destination is outside branches, tags and remote-tracking refs. */
function refspecWritesOutside(spec: string): boolean {
  const v = spec.trim().replace(/^\+/, '');
  const dst = v.includes(':') ? v.slice(v.lastIndexOf(':') + 1) : v;
  if (!dst) return false;
  return !(/^refs\/(heads|tags|remotes)\//.test(dst) || (!dst.startsWith('refs/') && !dst.includes('*')));
}

/** The short options of `git commit` that take a value (the rest of a cluster is that value). */
const COMMIT_SHORT_WITH_VALUE = new Set(['m', 'F', 'c', 'C', 't', 'S', 'u']);

/** True when `git commit`'s arguments hold `--no-verify` (or an abbreviation) or `-n` (alone or in a short-option cluster). */
function commitSkipsHooks(args: (string | null)[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) continue;
    if (a.startsWith('--')) {
      const name = a.split('=')[0];
      if (abbrevOf(name, '--no-verify', '--no-ve'.length)) return true;
      // Long options with a separate value: skip it.
      if (['--message', '--file', '--author', '--date', '--cleanup', '--reuse-message', '--reedit-message', '--fixup', '--squash', '--template', '--trailer', '--pathspec-from-file'].some((o) => abbrevOf(name, o, 4)) && !a.includes('=')) i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const ch = a[k];
        if (ch === 'n') return true;
        if (COMMIT_SHORT_WITH_VALUE.has(ch)) {
          // The rest of the cluster is the value; -S and -u take it only attached.
          if (k === a.length - 1 && ch !== 'S' && ch !== 'u') i++;
          break;
        }
      }
    }
  }
  return false;
}

/** git's own commands (and git-kizu's): any other subcommand may be an alias. */
const GIT_BUILTINS = new Set(
  ('add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick ' +
    'citool clean clone column commit commit-graph commit-tree config count-objects credential describe diff diff-files diff-index diff-tree difftool fast-export fast-import ' +
    'fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep gui hash-object help hook http-backend index-pack init ' +
    'instaweb interpret-trailers kizu lfs log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-tree mergetool mktag mktree ' +
    'multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push range-diff read-tree rebase reflog remote repack replace ' +
    'request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack shortlog show show-branch show-index show-ref sparse-checkout stash status stripspace ' +
    'submodule switch symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info var verify-commit verify-pack verify-tag version whatchanged worktree write-tree').split(' '),
);

/** The git subcommands that only read refs: naming refs/kizu there is fine. */
const GIT_READ_ONLY = new Set([
  'log', 'show', 'diff', 'rev-parse', 'rev-list', 'cat-file', 'for-each-ref', 'show-ref', 'ls-remote', 'ls-tree',
  'grep', 'blame', 'shortlog', 'describe', 'name-rev', 'merge-base', 'whatchanged', 'range-diff', 'format-patch',
  'diff-tree', 'diff-index', 'diff-files', 'status', 'help', 'version', 'count-objects', 'verify-commit', 'archive',
]);

/** `git kizu <sub>` / `git-kizu <sub>`: the subcommand words (static) after the options. */
export function kizuWords(c: SimpleCommand, from: number): (string | null)[] {
  return c.argv.slice(from).map((w) => w.value);
}

/**
 * Which `git kizu` invocations are the reviewer's acts: `tap`, `reject`, `untap`, `review`
 * (the interactive review), `init`, `teardown`, `gc`, `unscar --all`, `baseline set|reset`,
 * `snapshot drop`, `marks push|pull`, `queue rm|clear`; `hook` is the agents' hook entry,
 * never typed. Everything else (`queue done <id>`, `scan`, `hunks`, `status`, `scar`,
 * `unscar <file>:<line>`, `revert`, ...) is the agent's to run.
 */
export function reviewerAct(words: (string | null)[]): 'act' | 'hook' | null {
  let i = 0;
  while (i < words.length && (words[i] === null || words[i]!.startsWith('-'))) {
    if (words[i] === null) return 'act'; // a subcommand the gate cannot read: treat it as the worst
    // `--color <when>` takes the next word when it is one of its values (tester #103: `--color always tap`).
    if (words[i] === '--color' && /^(always|never|auto|true|false|yes|no|on|off|1|0)$/i.test(words[i + 1] ?? '')) i++;
    i++;
  }
  const sub = words[i];
  if (sub === undefined) return null;
  const rest = words.slice(i + 1);
  const has = (o: string) => rest.includes(o);
  // The first word that is not an option or an option's value (`snapshot -m "wip $i"`: tester #68).
  const next = rest.find((w, k) => (w === null || !w.startsWith('-')) && !['-m', '--message'].includes(rest[k - 1] ?? ''));
  switch (sub) {
    case 'hook':
      return 'hook';
    case 'tap':
    case 'reject':
    case 'untap':
    case 'review':
    case 'teardown':
    case 'init':
    case 'gc':
      return has('--help') || has('-h') || (sub === 'gc' && has('--dry-run')) ? null : 'act';
    case 'rollback':
    case 'undo':
      // Every rollback level and undo discard working-tree content (the review queue and the
      // reviewer's scars with it): the reviewer's acts; their preview is not.
      return has('--help') || has('-h') || has('--dry-run') ? null : 'act';
    case 'unscar':
      return has('--all') || rest.some((w) => w === null) ? 'act' : null;
    case 'revert':
      return rest.some((w) => w === null || w === '--restore' || w.startsWith('--restore=')) ? 'act' : null;
    case 'baseline':
      return next === 'set' || next === 'reset' || next === null ? 'act' : null;
    case 'snapshot':
      return next === 'drop' || next === null ? 'act' : null;
    case 'marks':
      return next === 'push' || next === 'pull' || next === null ? 'act' : null;
    case 'queue':
      return next === 'rm' || next === 'clear' || next === null ? 'act' : null;
    default:
      return null;
  }
}

/**
 * Interpreters whose one-liners (`-c`, `-e`, a program argument) are read as text; with them the
 * database shells and others whose argument runs a shell command (`sqlite3 db '.shell cmd'`,
 * `.system`, duckdb's too, `mysql -e 'system cmd'`, `psql -c '\! cmd'`, `julia -e 'run(...)'`,
 * `gnuplot -e 'system(...)'`, `octave --eval 'system(...)'`, `wish`).
 */
export const INTERPRETERS = /^(sqlite3?|duckdb|mysql|mariadb|psql|julia|wish[\d.]*|gnuplot|octave(-cli)?|python[\d.]*|pypy[\d.]*|node(js)?|perl[\d.]*|ruby[\d.]*|php[\d.]*|deno|bun|osascript|rscript|lua[\d.]*|luajit|tclsh[\d.]*|[gmn]?awk|busybox|jshell|groovy|pwsh|powershell)$/i;

/** What an interpreter's code may not mention: git's dir as a path component, git-kizu's refs, its skip switch, the hooks path, hook skipping, the index flags that hide changes, ref plumbing. */
export const INTERPRETER_MENTIONS = /(^|[\s/\\'"`=(,:;])\.git([\\/'"`\s),;]|$)|refs\/kizu|kizu_skip|hooks_?path|no-verify|assume-unchanged|skip-worktree|update-ref|git-kizu|\.kizurc|kizu\.config|\.husky|lefthook|\.claude[\\/]settings/i;

/**
 * The agents' session variables (src/agents/session-env.ts `MARKERS`, and `AI_AGENT`): git-kizu
 * tells the agent's commands from the reviewer's by them.
 */
export const SESSION_VARIABLES: readonly string[] = ['CLAUDECODE', 'CODEX_THREAD_ID', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'GEMINI_CLI', 'COPILOT_CLI', 'CURSOR_AGENT', 'AI_AGENT'];

/** git's subcommands that change refs, config, the index or the working tree (named in an interpreter's code with `git`). */
const GIT_WRITE_VERBS = 'commit|commit-tree|update-ref|symbolic-ref|config|push|fetch|pull|stash|update-index|reset|checkout|restore|switch|rebase|merge|branch|tag|rm|mv|clean|remote|replace|notes|reflog|gc|prune|worktree|sparse-checkout|am|apply|cherry-pick|revert|filter-branch|hook|read-tree|write-tree|hash-object|init|clone|add|submodule';

/**
 * What an interpreter's code (its `-c`/`-e` string, its program argument, or the heredoc or
 * here-string fed to it) may not mention without the user seeing it: git-kizu, `git` with a
 * subcommand that changes refs, config, the index or files, git's dir, the agents' hook
 * folders, git-kizu's config, the hooks path and hook skipping, an agent's session variable.
 */
export const INTERPRETER_REVIEW_WORDS = new RegExp(
  [
    'kizu',
    `\\bgit\\b[\\s\\S]*\\b(${GIT_WRITE_VERBS})\\b`,
    `\\b(${GIT_WRITE_VERBS})\\b[\\s\\S]*\\bgit\\b`,
    '(^|[^\\w-])\\.git([^\\w-]|$)',
    '\\.(claude|codex|gemini|cursor|husky)\\b',
    '\\.github[\\\\/]+hooks',
    'lefthook|pre-commit|hooks_?path|no-verify|assume-unchanged|skip-worktree',
    `\\b(${SESSION_VARIABLES.join('|')})\\b`,
  ].join('|'),
  'i',
);

/** True for an interpreter given code computed when it runs (`python3 -c "$CODE"`, `node -e "$(cat x)"`). */
function interpreterCodeComputed(c: SimpleCommand): boolean {
  if (!INTERPRETERS.test(c.argv[0]?.value ?? '')) return false;
  // sqlite3/duckdb: every argument after the database is SQL or a dot-command (`sqlite3 db "$Q"`).
  if (/^(sqlite3?|duckdb)$/i.test(c.argv[0]?.value ?? '')) {
    const k = c.argv.findIndex((w, i) => i > 0 && !(w.value ?? 'x').startsWith('-') && !/^-(cmd|init|separator|newline|nullvalue)$/.test(c.argv[i - 1]?.value ?? ''));
    if (k > 0 && c.argv.slice(k + 1).some((w) => w.value === null)) return true;
    if (c.argv.some((w, i) => w.value === null && /^-(cmd|init)$/.test(c.argv[i - 1]?.value ?? ''))) return true;
  }
  return c.argv.some((w, k) => k > 0 && w.value === null && /^-(c|e|E|r|p|-eval|-print)$/.test(c.argv[k - 1]?.value ?? ''));
}

/** An interpreter's program text: its arguments (the `-c`/`-e` string among them) and the heredoc or here-string on its stdin. */
function interpreterCode(c: SimpleCommand): string | null {
  if (!INTERPRETERS.test(c.argv[0]?.value ?? '')) return null;
  return [...c.argv.slice(1).map((w) => w.value ?? w.raw), c.stdinText ?? ''].join(' ');
}

/** The commands whose arguments name files they write, delete, move or change (./engine.ts checks those paths). */
export const FILE_WRITERS = new Set([
  'rm', 'unlink', 'rmdir', 'shred', 'truncate', 'touch', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'tee', 'ln', 'link', 'mv',
  'cp', 'install', 'rsync', 'dd', 'sed', 'gsed', 'perl', 'ed', 'ex', 'vi', 'vim', 'nvim', 'nano', 'emacs', 'patch', 'mkdir', 'mkfifo', 'mktemp',
  'git-rm', 'git-mv', 'find-delete', 'sponge', 'split', 'csplit', 'tar', 'unzip', 'curl', 'wget',
  'gio', 'rename', 'prename', 'trash', 'trash-put', 'gvfs-rm', 'gvfs-copy', 'gvfs-move', 'srm', 'wipe',
]);

/** Config keys that add commands or config of their own: aliases, includes, the fsmonitor hook, another working tree. */
const ALIAS_KEY = /^\s*(alias\.|include\.|includeif\.|core\.fsmonitor|core\.worktree)/i;

/** A rule on a git command: its id, class, strength and the test on the command (the form of most rules below). */
function gitRule(id: RuleId, cls: Rule['class'], strength: Rule['strength'], test: (c: SimpleCommand) => boolean): Rule {
  return { id, class: cls, strength, match: { on: 'command', names: ['git'], test } };
}

/**
 * A rule denying a git command that sets a config key `key` matches: through `git -c` /
 * `--config-env` for this run, or `git config` writing it (a read passes: {@link configWrites}).
 */
function configKeyRule(id: RuleId, key: RegExp): Rule {
  return gitRule(id, 'review-bypass', 'deny', (c) => {
    const s = gitSubcommand(c);
    if (s.config.some((k) => key.test(k))) return true;
    // `git config [--global|--file f|...] <key> <value>`, `git config set <key>`, `--unset`, `--add`, ...
    if (c.argv[s.at]?.value !== 'config' || !configWrites(opts(c, s.at + 1))) return false;
    return c.argv.slice(s.at + 1).some((w) => key.test(w.value ?? w.raw));
  });
}

/** The rules. */
export const RULES: readonly Rule[] = [
  // Files the write tools (and shell commands' file arguments) may not change.
  { id: 'kizu-config', class: 'review-files', strength: 'deny', match: { on: 'path', repo: CONFIG_PATHS } },
  { id: 'package-json-review-keys', class: 'review-files', strength: 'deny', match: { on: 'engine' } },
  {
    id: 'hook-files',
    class: 'review-files',
    strength: 'deny',
    match: { on: 'path', repo: HOOK_PATHS, anyDepth: [{ dir: '.claude', prefix: 'settings' }, { under: '.claude/hooks' }, { exact: '.claude/review-queue.md' }] },
  },
  { id: 'review-queue-file', class: 'review-files', strength: 'deny', match: { on: 'path', repo: [{ exact: '.claude/review-queue.md' }] } },
  {
    id: 'user-hook-files',
    class: 'review-files',
    strength: 'deny',
    match: {
      on: 'path',
      home: HOME_HOOK_PATHS,
      system: [{ exact: 'etc/gitconfig' }, { under: 'etc/claude-code' }, { under: 'library/application support/claudecode' }, { under: 'etc/codex' }, { under: 'etc/gemini-cli' }],
    },
  },
  { id: 'git-dir', class: 'git-dir', strength: 'deny', match: { on: 'path', gitDir: true } },

  // Shell commands that skip or switch off review.
  gitRule('commit-no-verify', 'review-bypass', 'deny', (c) => {
    const sub = gitSub(c);
    const s = gitSubcommand(c);
    const args = opts(c, s.at + 1);
    if (sub === 'commit') return commitSkipsHooks(args);
    // merge runs pre-merge-commit (which runs pre-commit): its --no-verify skips the guard too.
    if (sub === 'merge' || sub === 'pull') return args.some((a) => a !== null && a.startsWith('--') && abbrevOf(a.split('=')[0], '--no-verify', '--no-ve'.length));
    return false;
  }),
  configKeyRule('git-config-hooks-path', HOOKS_PATH_KEY),
  configKeyRule('git-config-alias', ALIAS_KEY),
  gitRule('git-config-edit', 'review-bypass', 'deny', (c) => {
    const s = gitSubcommand(c);
    return c.argv[s.at]?.value === 'config' && opts(c, s.at + 1).some((a) => a === '-e' || a === '--edit' || a === 'edit');
  }),
  {
    id: 'git-config-env',
    class: 'review-bypass',
    strength: 'deny',
    match: {
      on: 'command',
      names: ['*'],
      // GIT_CONFIG_PARAMETERS/COUNT/KEY_n/VALUE_n set config for any git run after; GIT_CONFIG_GLOBAL/SYSTEM/NOSYSTEM
      // swap the config files that may hold the hooks path (exported, or around git); GIT_DIR and GIT_INDEX_FILE around a commit.
      test: (c) =>
        c.assignments.some((a) => {
          if (/^GIT_CONFIG_(PARAMETERS|COUNT|KEY_\d+|VALUE_\d+)$/.test(a.name)) return true;
          if (/^GIT_CONFIG_(GLOBAL|SYSTEM|NOSYSTEM)$/.test(a.name)) return c.argv.length === 0 || ['git', 'export', 'declare', 'typeset', 'readonly', 'local'].includes(c.argv[0]?.value ?? '');
          if (/^GIT_(DIR|INDEX_FILE|WORK_TREE|COMMON_DIR)$/.test(a.name)) return isCommitLike(c);
          // Another HOME or XDG_CONFIG_HOME is another global git config, which may move the hooks path.
          if (a.name === 'HOME' || a.name === 'XDG_CONFIG_HOME') return isCommitLike(c) || ['export', 'declare', 'typeset', 'readonly'].includes(c.argv[0]?.value ?? '');
          return false;
        }),
    },
  },
  {
    id: 'kizu-skip',
    class: 'review-bypass',
    strength: 'deny',
    match: {
      on: 'command',
      names: ['*'],
      test: (c) => {
        if (c.assignments.some((a) => a.name === 'KIZU_SKIP')) return true;
        const name = c.argv[0]?.value ?? '';
        // `export KIZU_SKIP`, `declare -x KIZU_SKIP=1`, `read KIZU_SKIP`, `printf -v KIZU_SKIP`, `env KIZU_SKIP=1` ...
        if (['export', 'declare', 'typeset', 'local', 'readonly', 'read', 'printf', 'set', 'setenv', 'let', 'mapfile', 'readarray', 'getopts', 'launchctl'].includes(name)) {
          return c.argv.slice(1).some((w) => /^KIZU_SKIP(=|$)/.test(w.value ?? w.raw.replace(/^['"]/, '')));
        }
        return false;
      },
    },
  },
  gitRule('hide-changes', 'review-bypass', 'deny', (c) => {
    const s = gitSubcommand(c);
    if (c.argv[s.at]?.value !== 'update-index') return false;
    return opts(c, s.at + 1).some((a) => a !== null && (abbrevOf(a, '--assume-unchanged', 5) || abbrevOf(a, '--skip-worktree', 4)));
  }),

  // `F=-n; git commit $F`: an option computed at run time may skip the hooks.
  gitRule('commit-dynamic-options', 'review-bypass', 'ask', (c) => {
    const sub = gitSub(c);
    if (sub !== 'commit' && sub !== 'merge' && sub !== 'pull') return false;
    const s = gitSubcommand(c);
    return commitHasDynamicOption(c, opts(c, s.at + 1));
  }),
  // `git commit-tree` makes a commit without running any hook (then `reset --soft` or `update-ref` moves HEAD to it).
  gitRule('plumbing-commit', 'review-bypass', 'ask', (c) => gitSub(c) === 'commit-tree'),
  configKeyRule('git-config-view', VIEW_KEY),
  // `git stash -u|-a` and `git clean -f` take untracked files out of the working tree: the
  // review queue (untracked until committed), hook files init wrote, the agent's new files
  // with their scars. Asked, as git-kizu cannot snapshot first here (issue 25's gates will).
  gitRule('untracked-away', 'review-bypass', 'ask', (c) => {
    const sub = gitSub(c);
    const args = opts(c, gitSubcommand(c).at + 1).filter((a): a is string => a !== null);
    // (git takes a unique prefix of a long option: `--include-u`, `--al`, `--fo`: tester #141.)
    if (sub === 'stash') return args.some((a) => abbrevOf(a, '--include-untracked', 5) || abbrevOf(a, '--all', 4) || /^-[a-zA-Z]*[ua]/.test(a));
    if (sub === 'clean') return !args.some((a) => abbrevOf(a, '--dry-run', 3) || /^-[a-zA-Z]*n/.test(a)) && args.some((a) => abbrevOf(a, '--force', 4) || /^-[a-zA-Z]*f/.test(a));
    return false;
  }),

  // `git ci -n` where `ci` may be the user's alias of commit: a subcommand git does not have, with -n or --no-verify.
  gitRule('git-alias-skips-hooks', 'review-bypass', 'ask', (c) => {
    const sub = gitSub(c);
    if (sub === null || GIT_BUILTINS.has(sub)) return false;
    const s = gitSubcommand(c);
    return opts(c, s.at + 1).some((a) => a !== null && (a.startsWith('--') ? abbrevOf(a.split('=')[0], '--no-verify', '--no-ve'.length) : /^-[a-zA-Z]*n/.test(a)));
  }),
  {
    // `npm pkg set kizu.scan.exclude=…` / `npm pkg delete simple-git-hooks`: package.json's guarded keys by command.
    id: 'package-json-command',
    class: 'review-files',
    strength: 'deny',
    match: {
      on: 'command',
      names: ['npm', 'pnpm', 'yarn', 'bun', 'npx', 'json', 'jq', 'sponge'],
      test: (c) => {
        const words = c.argv.slice(1).map((w) => w.value ?? w.raw);
        const i = words.indexOf('pkg');
        return i >= 0 && ['set', 'delete'].includes(words[i + 1] ?? '') && words.slice(i + 2).some((w) => PACKAGE_JSON_REVIEW_KEYS.some((k) => w === k || w.startsWith(k + '.') || w.startsWith(k + '=') || w.startsWith(k + '[')));
      },
    },
  },
  {
    // Uninstalling a git hook manager takes the pre-commit guard with it.
    id: 'hook-manager-uninstall',
    class: 'review-bypass',
    strength: 'deny',
    match: {
      on: 'command',
      names: ['lefthook', 'pre-commit', 'prek', 'husky', 'simple-git-hooks', 'npx', 'pnpm', 'yarn', 'bunx'],
      test: (c) => {
        const words = c.argv.map((w) => (w.value ?? w.raw).toLowerCase());
        const at = words.findIndex((w) => /(^|\/)(lefthook|pre-commit|prek|husky|simple-git-hooks)$/.test(w));
        if (at < 0) return false;
        return words.slice(at + 1).includes('uninstall');
      },
    },
  },

  // git-kizu's refs.
  gitRule('update-ref-delete', 'review-refs', 'deny', (c) => {
    const s = gitSubcommand(c);
    return c.argv[s.at]?.value === 'update-ref' && opts(c, s.at + 1).some((a) => a === '-d' || (a !== null && /^-[a-z]*d/.test(a) && !a.startsWith('--')) || a === '--delete');
  }),
  gitRule('update-ref-stdin', 'review-refs', 'ask', (c) => {
    const s = gitSubcommand(c);
    return c.argv[s.at]?.value === 'update-ref' && opts(c, s.at + 1).includes('--stdin');
  }),
  gitRule('kizu-refs', 'review-refs', 'deny', (c) => {
    const sub = gitSub(c);
    if (sub !== null && GIT_READ_ONLY.has(sub)) return false;
    if (sub === 'kizu') return false;
    // (not `kizu/<name>`: those are `git kizu task` branches under refs/heads/)
    if (c.argv.slice(1).some((w) => /refs\/kizu/i.test(w.value ?? w.raw)) || (c.stdinText !== null && /refs\/kizu/i.test(c.stdinText))) return true;
    // A short name git resolves to refs/kizu/<x> first (`git push . +x:kizu/marks`, tester #147, #148, #150), and
    // update-ref of `kizu/…`, which writes into the git dir's kizu/ folder (#149).
    const short = /(^|[:+])kizu\/(marks|baseline|journal|snapshots|trash|tasks|reverts|remotes|gc-tmp)(\/|$)/i;
    if (c.argv.slice(2).some((w) => short.test(w.value ?? w.raw))) return true;
    return (sub === 'update-ref' || sub === 'symbolic-ref') && c.argv.slice(2).some((w) => /^kizu\//i.test(w.value ?? ''));
  }),

  gitRule('refspec-outside-branches', 'review-refs', 'deny', (c) => {
    const s = gitSubcommand(c);
    const sub = c.argv[s.at]?.value;
    if ((sub === 'fetch' || sub === 'pull' || sub === 'push') && refspecOutsideBranches(c, s.at + 1)) return true;
    // The same refspec kept in config for a later fetch or push (`git config remote.o.fetch '+refs/*:refs/*'`, `git -c remote.o.push=refs/*`).
    if (s.config.some((k) => { const m = /^\s*remote\..+\.(fetch|push)=([\s\S]*)$/i.exec(k); return m !== null && refspecWritesOutside(m[2]); })) return true;
    if (sub !== 'config' || !configWrites(opts(c, s.at + 1))) return false;
    const args = c.argv.slice(s.at + 1);
    const k = args.findIndex((w) => /^remote\..+\.(fetch|push)$/i.test(w.value ?? ''));
    return k >= 0 && args.slice(k + 1).some((w) => w.value !== null && !w.value.startsWith('-') && refspecWritesOutside(w.value));
  }),

  // The reviewer's acts.
  {
    id: 'reviewer-act',
    class: 'reviewer-acts',
    strength: 'deny',
    match: {
      on: 'command',
      names: ['git', 'git-kizu'],
      test: (c) => kizuAct(c) === 'act',
    },
  },
  {
    id: 'forged-hook',
    class: 'reviewer-acts',
    strength: 'deny',
    match: { on: 'command', names: ['git', 'git-kizu'], test: (c) => kizuAct(c) === 'hook' },
  },

  // What the gate cannot see through.
  { id: 'shell-from-stdin', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  // An interpreter or terminal program that reads what it runs from what is typed into it
  // later: Codex's write_stdin types into a running command without any hook (measured with
  // 0.171.0), so `python3` or `tmux` started now would run code the gate never sees.
  { id: 'interactive-program', class: 'unjudgeable', strength: 'ask', match: { on: 'command', names: ['*'], test: (c) => isInteractive(c) } },
  { id: 'dynamic-command', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  { id: 'open-arguments', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  {
    id: 'interpreter-mentions-review',
    class: 'review-bypass',
    strength: 'deny',
    match: { on: 'command', names: ['*'], test: (c) => INTERPRETER_MENTIONS.test(interpreterCode(c) ?? '') },
  },
  {
    id: 'interpreter-review-words',
    class: 'review-bypass',
    strength: 'ask',
    match: { on: 'command', names: ['*'], test: (c) => INTERPRETER_REVIEW_WORDS.test(interpreterCode(c) ?? '') || interpreterCodeComputed(c) },
  },
  { id: 'unparsable', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  { id: 'over-budget', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },

  // issue 22, round 2 (found by the adversarial tester).
  // `git $X tap`, `git -C . $(echo commit) -n`, `git update-ref "$R" HEAD`: a git word computed when it runs.
  gitRule('git-computed-word', 'unjudgeable', 'ask', (c) => gitComputedWord(c)),
  { id: 'computed-variable-name', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  { id: 'computed-path', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  { id: 'runs-unseen-commands', class: 'unjudgeable', strength: 'ask', match: { on: 'engine' } },
  {
    // `unset CLAUDECODE`, `env -u CLAUDECODE …`, `env -i …`, `CLAUDECODE= …`, `export -n CLAUDECODE`: hiding the agent's session.
    id: 'session-variable',
    class: 'reviewer-acts',
    strength: 'deny',
    match: { on: 'command', names: ['*'], test: (c) => hidesSession(c) },
  },
  // `git remote add --mirror=fetch x URL` (fetches +refs/*:refs/*, git-kizu's refs among them), `remote.x.mirror`.
  gitRule('mirror-remote', 'review-refs', 'deny', (c) => {
    const s = gitSubcommand(c);
    if (s.config.some((k) => /^\s*remote\..+\.mirror/i.test(k))) return true;
    const sub = c.argv[s.at]?.value;
    const args = opts(c, s.at + 1);
    if (sub === 'remote') return args.some((a) => a !== null && /^--mirror(=|$)/.test(a));
    if (sub === 'clone') return false;
    if (sub === 'fetch' || sub === 'pull' || sub === 'push') return args.some((a) => a !== null && (abbrevOf(a, '--mirror', 5) || /^--refmap=.*:refs\/(?!heads\/|tags\/|remotes\/)/.test(a)));
    return sub === 'config' && configWrites(args) && c.argv.slice(s.at + 1).some((w) => /^remote\..+\.mirror$/i.test(w.value ?? w.raw));
  }),
  // `git sparse-checkout set …` takes files (hooks and settings among them) out of the working tree and hides their deletion.
  gitRule('sparse-checkout', 'review-bypass', 'ask', (c) => {
    const s = gitSubcommand(c);
    return c.argv[s.at]?.value === 'sparse-checkout' && !['list', undefined].includes(c.argv[s.at + 1]?.value ?? undefined);
  }),
  // `git add|stash push|rm --cached .claude/review-queue.md`: the review queue staged or stashed away.
  gitRule('review-queue-stash', 'review-files', 'deny', (c) => {
    const s = gitSubcommand(c);
    const sub = c.argv[s.at]?.value;
    if (sub !== 'add' && sub !== 'stash' && sub !== 'rm' && sub !== 'update-index') return false;
    let words = c.argv.slice(s.at + 1);
    if (sub === 'stash') {
      const verb = words.find((w) => !(w.value ?? '').startsWith('-'))?.value;
      if (verb !== undefined && verb !== 'push' && verb !== 'save' && verb !== '--') return false;
    }
    words = words.filter((w) => w.value !== '--' && !['push', 'save'].includes(w.value ?? ''));
    return words.some((w) => w.value !== null && !w.value.startsWith('-') && pathspecReachesQueue(w.value));
  }),
  { id: 'user-git-files', class: 'review-files', strength: 'deny', match: { on: 'path', home: HOME_GIT_PATHS } },
  // `git config core.pager "grep -v rejected"` (tester #123): written for later runs, only `git config` writes count.
  gitRule('git-config-command', 'review-bypass', 'deny', (c) => {
    const s = gitSubcommand(c);
    // `-c protocol.ext.allow=always`: lets an ext:: URL run its command (tester #137).
    if (s.config.some((k) => /^\s*protocol\.(ext\.)?allow\s*=\s*always/i.test(k))) return true;
    if (c.argv[s.at]?.value !== 'config' || !configWrites(opts(c, s.at + 1))) return false;
    return c.argv.slice(s.at + 1).some((w) => COMMAND_KEY.test(w.value ?? w.raw));
  }),
  // ~/.bashrc and its kin (tester #124): code there runs in your next shell, before your next `git kizu status`.
  { id: 'user-startup-files', class: 'review-files', strength: 'deny', match: { on: 'path', home: HOME_STARTUP_PATHS } },
];

/** True when a pathspec (relative to the root, or a glob) takes in `.claude/review-queue.md`. */
export function pathspecReachesQueue(spec: string): boolean {
  const p = spec.replace(/^:(\/|\(top\))?/, '').replace(/^(\.\/)+/, '').replace(/\/+$/, '').toLowerCase();
  const queue = '.claude/review-queue.md';
  // (By its own name too: `cd .claude && git stash push review-queue.md`.)
  if (p === queue || p === '.claude' || p === 'review-queue.md' || p.endsWith('/review-queue.md') || p.endsWith('/.claude')) return true;
  if (!/[*?[]/.test(p)) return false;
  // git's pathspec glob: `*` matches across `/`.
  const re = new RegExp('^' + p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
  return re.test(queue) || re.test('.claude');
}

/** Words of `git` a computed value may turn into another command: the subcommand, an option (not an option's value), a ref to write. */
function gitComputedWord(c: SimpleCommand): boolean {
  const s = gitSubcommand(c);
  for (let i = 1; i < s.at; i++) if (c.argv[i].value === null && !['-C'].includes(c.argv[i - 1]?.value ?? '')) return true;
  const sub = c.argv[s.at];
  if (!sub) return false;
  if (sub.value === null) return true;
  // git kizu: reviewer-act treats a computed word as the worst; commit/merge/pull: commit-dynamic-options.
  if (['kizu', 'commit', 'merge', 'pull'].includes(sub.value) || GIT_PURE_READS.has(sub.value)) return false;
  const rest = c.argv.slice(s.at + 1);
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w.value === '--') return false;
    if (w.value !== null) continue;
    // `-m "$MSG"`, `--message="$M"`, `-m"$M"`: the option is written out, its value computed.
    const prev = rest[i - 1]?.value ?? '';
    if (/^(--[a-z-]+=|-[mFbBt])/.test(w.raw)) continue;
    if (/^(-[mFbBtCc]|--(message|file|author|date|format|pretty|branch|orphan|since|until|grep|reason|template))$/.test(prev)) continue;
    return true;
  }
  return false;
}

/** git subcommands that read and have no option writing a file or running a command. */
const GIT_PURE_READS = new Set(['status', 'rev-parse', 'ls-files', 'cat-file', 'rev-list', 'for-each-ref', 'show-ref', 'ls-tree', 'merge-base', 'name-rev', 'describe', 'check-ignore', 'check-attr', 'blame', 'grep', 'ls-remote', 'var', 'help', 'version', 'shortlog']);

/** True when a command hides the agent's session variables from what it runs: unsets or sets one, or empties the environment. */
function hidesSession(c: SimpleCommand): boolean {
  if (c.assignments.some((a) => SESSION_VARIABLES.includes(a.name))) return true;
  const name = (c.argv[0]?.value ?? '').replace(/^.*\//, '');
  const words = c.argv.slice(1).map((w) => w.value ?? '');
  const named = (w: string) => SESSION_VARIABLES.includes(w.replace(/=.*$/s, ''));
  if (name === 'env') {
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w === '-i' || w === '-' || w === '--ignore-environment' || /^-[a-zA-Z]*i/.test(w) && !w.startsWith('--')) return true;
      if ((w === '-u' || w === '--unset') && named(words[i + 1] ?? '')) return true;
      if ((/^-u./.test(w) && named(w.slice(2))) || (w.startsWith('--unset=') && named(w.slice(8)))) return true;
      if (!w.startsWith('-') && !w.includes('=')) break;
    }
    return false;
  }
  // `exec -c CMD` runs CMD with an empty environment.
  if (name === 'exec' && words.some((w) => /^-[a-z]*c/.test(w))) return true;
  if (['unset', 'export', 'declare', 'typeset', 'local', 'readonly', 'read', 'printf', 'mapfile', 'readarray', 'getopts', 'let', 'setenv', 'unsetenv', 'launchctl'].includes(name)) return words.some(named);
  return false;
}

/** Terminal programs that run what is typed into them, or type into other programs. */
const TYPED_INTO = /^(tmux|screen|script|expect|unbuffer|socat|ipython[\d.]*|irb|pry|vi|vim|nvim|view|nano|emacs|less|more|most|gdb|lldb)$/i;

/**
 * True for a command that reads the code it runs from its own standard input later: an
 * interpreter ({@link INTERPRETERS}) given nothing to run (no argument, or only `-i`,
 * `--interactive`, `-`) whose code comes from a pipe or is typed into it later, or a program
 * of {@link TYPED_INTO}. Input redirected from a file is a script (like `python3 x.py`); a
 * heredoc holding the program is judged as a one-liner's code is.
 */
function isInteractive(c: SimpleCommand): boolean {
  const name = (c.argv[0]?.value ?? '').replace(/^.*\//, '');
  if (!name || c.inputs.length) return false;
  // A program named as git's editor or pager (`git config core.editor vim`, `EDITOR=vim`) is
  // not started by this call: what it may run later is judged where it is set, not here.
  const via = c.via[c.via.length - 1] ?? '';
  if (via === 'git config' || via === 'git -c' || /^[A-Z_]+$/.test(via)) return false;
  // `tmux -V`, `vim --version`: prints and exits.
  if (c.argv.length > 1 && c.argv.slice(1).every((w) => ['-V', '--version', '-h', '--help'].includes(w.value ?? ''))) return false;
  if (TYPED_INTO.test(name)) return c.stdinText === null;
  if (!INTERPRETERS.test(name) || /awk$/i.test(name)) return false;
  if (!c.argv.slice(1).every((w) => w.value !== null && ['-i', '--interactive', '-', '-q', '-u'].includes(w.value))) return false;
  // Its program is a heredoc the gate can read: judged as a one-liner is (rules interpreter-*).
  if (c.stdinText !== null) return false;
  return true; // from a pipe, or typed into it later
}

/** True for `git commit`/`merge` (where an environment that moves git's config or index changes what the guard sees). */
function isCommitLike(c: SimpleCommand): boolean {
  if (c.argv[0]?.value !== 'git') return false;
  const sub = gitSub(c);
  return sub === 'commit' || sub === 'merge' || sub === 'pull' || sub === null;
}

/** `git kizu ...` or `git-kizu ...`: the reviewer's act, a forged hook, or neither. */
function kizuAct(c: SimpleCommand): 'act' | 'hook' | null {
  const name = c.argv[0]?.value;
  if (name === 'git-kizu') return reviewerAct(kizuWords(c, 1));
  const s = gitSubcommand(c);
  if (c.argv[s.at]?.value !== 'kizu') return null;
  return reviewerAct(kizuWords(c, s.at + 1));
}

/** The rule of `id`. */
export function ruleOf(id: RuleId): Rule {
  return RULES.find((r) => r.id === id)!;
}
