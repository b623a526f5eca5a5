/**
 * `git kizu completion bash|zsh`: prints a shell completion script, and
 * `git kizu completion --ids <kind>`: prints the ids the scripts complete, one per line.
 *
 * The scripts are generated from the commander program itself (every command, subcommand,
 * option, option choice and argument), so they cannot fall behind it; only which arguments
 * take hunk ids, snapshot names or task names is said here ({@link ID_ARGUMENTS}). The
 * dynamic values come from git-kizu at completion time (`git kizu completion --ids hunks`),
 * through the same listings `git kizu hunks`, `snapshot list` and `task list` use.
 *
 * bash: defines `_git_kizu`, which git's own bash completion (contrib/completion/
 * git-completion.bash, `__git_complete_command`) calls for `git kizu ...`, using its `words`,
 * `cword`, `cur`, `__git_cmd_idx` and `__gitcomp_nl` (git's completion runs with
 * `-o nospace`, so `__gitcomp_nl` adds the trailing space); and registers `git-kizu` itself
 * (`complete -F`). Arguments that are files get no candidates, so bash's default (file names)
 * applies.
 * zsh: defines `_git-kizu`, the function zsh's `_git` calls for the external command
 * `git kizu` (its `words[1]` is `kizu`), which also completes `git-kizu` (`#compdef
 * git-kizu`). The script works both as a file named `_git-kizu` on `fpath` (autoloaded by
 * compinit; `_git` then lists `kizu` among the commands) and sourced after compinit (it
 * then registers itself with `compdef` and adds `kizu` to the `user-commands` style).
 */
import type { Command, Option } from 'commander';
import { KizuError, EXIT } from '../errors.js';
import { COLOR_WHENS, type Reporter } from '../output.js';

/** Kinds of value `completion --ids` lists. */
export const ID_KINDS = ['hunks', 'snapshots', 'tasks'] as const;
export type IdKind = (typeof ID_KINDS)[number];

/**
 * The arguments that take ids: command path (names from the top, space-separated) → kind.
 * Every other argument completes as a file name (bash's default; zsh `_files`).
 */
export const ID_ARGUMENTS: Record<string, IdKind> = {
  tap: 'hunks',
  reject: 'hunks',
  untap: 'hunks',
  revert: 'hunks',
  'snapshot show': 'snapshots',
  'snapshot drop': 'snapshots',
  'rollback snapshot': 'snapshots',
  'task land': 'tasks',
  'rollback branch': 'tasks',
};

/** One command of the program, as the completion scripts see it. */
export interface CompletionNode {
  /** Names from the top, space-separated ('' for the program itself). */
  path: string;
  description: string;
  /** Direct subcommands (commander's implicit `help` included at the top). */
  subs: { name: string; description: string }[];
  /** Visible options, `-h`/`--help` included; `values` is set for an option that takes a value (its choices, or [] for any). */
  options: { flags: string[]; description: string; values?: string[] }[];
  /** What its arguments complete to, and how many it takes ('*': any number). */
  args: { kind: IdKind | 'files' | 'commands' | 'choices' | 'none'; max: number | '*'; choices?: string[] };
}

/**
 * The values of options that take a fixed set but do not declare it to commander (which would
 * refuse the other spellings they accept): `--color` takes git's boolean words too.
 */
const OPTION_VALUES: Record<string, readonly string[]> = { '--color': COLOR_WHENS };

/**
 * Options whose value may be left out (a bare \`--color\` is always): the next word is their
 * value only when it is one of their values (src/cli/program.ts reads argv the same way).
 */
const BARE_VALUE_OPTIONS = ['--color'];

function optionNode(o: Option): CompletionNode['options'][number] {
  const flags = [o.long, o.short].filter((f): f is string => !!f);
  // A required value (`--kind <kind>`) is the next word; an optional one (`--worktree [path]`) only with `=`.
  return { flags, description: o.description, ...(o.required ? { values: [...(o.argChoices ?? (o.long && OPTION_VALUES[o.long]) ?? [])] } : {}) };
}

const HELP = { flags: ['--help', '-h'], description: 'display help for command' };

/**
 * Every command of `program`, the program first, depth first in declaration order.
 * @param program the commander program (src/cli/program.ts `buildProgram`)
 */
export function completionTree(program: Command): CompletionNode[] {
  const out: CompletionNode[] = [];
  const walk = (cmd: Command, path: string) => {
    const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const subs = visible.map((c) => ({ name: c.name(), description: c.description() }));
    if (!path && visible.length) subs.push({ name: 'help', description: 'describe a command' });
    const options = cmd.options.filter((o) => !o.hidden).map(optionNode);
    options.push(HELP);
    const registered = cmd.registeredArguments;
    const max: number | '*' = registered.some((a) => a.variadic) ? '*' : registered.length;
    const choices = registered[0]?.argChoices;
    const kind = registered.length === 0 ? 'none' : choices ? 'choices' : (ID_ARGUMENTS[path] ?? 'files');
    out.push({ path, description: cmd.description(), subs, options, args: { kind, max, ...(choices ? { choices } : {}) } });
    for (const c of visible) walk(c, path ? `${path} ${c.name()}` : c.name());
    // commander's implicit `help [command]`, which is not in program.commands.
    if (!path && visible.length) out.push({ path: 'help', description: 'describe a command', subs: [], options: [HELP], args: { kind: 'commands', max: 1 } });
  };
  walk(program, '');
  return out;
}

/** Single-quoted for sh (bash and zsh read it the same way). */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A `case "$1" in ... esac` function printing the lines of `value(key)` for each key, failing for others. */
function caseFunction(name: string, comment: string, rows: [string[], string[]][]): string {
  const lines = rows
    .filter(([keys]) => keys.length)
    .map(([keys, value]) => `    ${keys.map(sq).join('|')}) ${value.length ? `printf '%s\\n' ${value.map(sq).join(' ')}` : 'true'} ;;`);
  return [`# ${comment}`, `${name}() {`, '  case "$1" in', ...lines, '    *) return 1 ;;', '  esac', '}'].join('\n');
}

/** The part both shells share: the program's data and the walk over the words typed so far. */
function sharedPart(tree: CompletionNode[]): string {
  return [
    caseFunction(
      '__git_kizu_subs',
      'The subcommands of a command path ("" for the top level).',
      tree.filter((n) => n.subs.length).map((n) => [[n.path], n.subs.map((s) => s.name)]),
    ),
    caseFunction(
      '__git_kizu_opts',
      'The options of a command path.',
      tree.map((n) => [[n.path], n.options.flatMap((o) => o.flags)]),
    ),
    caseFunction(
      '__git_kizu_optarg',
      'For "<path> <option>" of an option that takes a value: its choices (none: any value). Fails for other options.',
      tree.flatMap((n) => n.options.filter((o) => o.values).map((o) => [o.flags.map((f) => `${n.path} ${f}`), o.values!] as [string[], string[]])),
    ),
    caseFunction(
      '__git_kizu_args',
      'What the arguments of a command path complete to (hunks, snapshots, tasks, files, commands, choices, none) and how many it takes.',
      tree.map((n) => [[n.path], [`${n.args.kind} ${n.args.max}`]]),
    ),
    caseFunction(
      '__git_kizu_choices',
      'The values an argument of a command path takes, when they are fixed.',
      tree.filter((n) => n.args.choices).map((n) => [[n.path], n.args.choices!]),
    ),
    `# The values of option "$1" where the command path is: its own, else the program's (which
# commander takes after a command too). Fails for an option that takes no value.
__git_kizu_optargs() {
  __git_kizu_optarg "$__git_kizu_path $1" || __git_kizu_optarg " $1"
}

# Reads the words after \`kizu\` up to the one being completed; sets __git_kizu_path (the
# command path), __git_kizu_expect (an option still waiting for its value) and
# __git_kizu_nargs (arguments given so far).
__git_kizu_walk() {
  __git_kizu_path= __git_kizu_expect= __git_kizu_nargs=0
  local w v nl='
'
  for w in "$@"; do
    if [ -n "$__git_kizu_expect" ]; then
      v=$(__git_kizu_optargs "$__git_kizu_expect")
      case $__git_kizu_expect in
        ${BARE_VALUE_OPTIONS.map(sq).join('|')}) case "$nl$v$nl" in *"$nl$w$nl"*) __git_kizu_expect=; continue ;; esac ;;
        *) __git_kizu_expect=; continue ;;
      esac
      __git_kizu_expect=
    fi
    case $w in
      --*=*) ;;
      -*) if __git_kizu_optargs "$w" >/dev/null; then __git_kizu_expect=$w; fi ;;
      *)
        if [ "$__git_kizu_nargs" = 0 ] && case "$nl$(__git_kizu_subs "$__git_kizu_path")$nl" in *"$nl$w$nl"*) true ;; *) false ;; esac; then
          __git_kizu_path=\${__git_kizu_path:+$__git_kizu_path }$w
        else
          __git_kizu_nargs=$((__git_kizu_nargs + 1))
        fi ;;
    esac
  done
}

# The candidates for the word "$1" after the walk: sets __git_kizu_list (one per line) and
# __git_kizu_kind (values, options, commands, hunks, snapshots or tasks), or fails: then
# file names are completed.
__git_kizu_candidates() {
  local cur=$1 spec max v nl='
'
  __git_kizu_list= __git_kizu_kind=values
  # An option whose value may be left out: its values when one starts with the word, else
  # the word is what follows the option.
  case $__git_kizu_expect in
    ${BARE_VALUE_OPTIONS.map(sq).join('|')})
      for v in $(__git_kizu_optargs "$__git_kizu_expect"); do
        case $v in "$cur"*) __git_kizu_list=$__git_kizu_list$v$nl ;; esac
      done
      [ -n "$__git_kizu_list" ] && return
      __git_kizu_expect= ;;
  esac
  if [ -n "$__git_kizu_expect" ]; then
    __git_kizu_list=$(__git_kizu_optargs "$__git_kizu_expect")
  else
    case $cur in
      --*=*) __git_kizu_list=$(__git_kizu_optargs "\${cur%%=*}") ;;
      -*) __git_kizu_kind=options __git_kizu_list=$(__git_kizu_opts "$__git_kizu_path") ;;
      *)
        __git_kizu_list=$(__git_kizu_subs "$__git_kizu_path")
        if [ "$__git_kizu_nargs" = 0 ] && [ -n "$__git_kizu_list" ]; then
          __git_kizu_kind=commands
        else
          __git_kizu_list=
          spec=$(__git_kizu_args "$__git_kizu_path") || return 1
          __git_kizu_kind=\${spec% *} max=\${spec#* }
          [ "$max" = '*' ] || [ "$__git_kizu_nargs" -lt "$max" ] || return 1
          case $__git_kizu_kind in
            commands) __git_kizu_list=$(__git_kizu_subs '') ;;
            choices) __git_kizu_list=$(__git_kizu_choices "$__git_kizu_path") ;;
            hunks|snapshots|tasks) __git_kizu_list=$(__git_kizu_git kizu completion --ids "$__git_kizu_kind" 2>/dev/null) ;;
          esac
        fi ;;
    esac
  fi
  [ -n "$__git_kizu_list" ]
}`,
  ].join('\n\n');
}

/**
 * The bash completion script for `program`.
 * @param version git-kizu's version, named in the script's header
 */
export function bashScript(program: Command, version: string): string {
  return `# bash completion for git kizu and git-kizu (git-kizu ${version}).
# Generated from git-kizu's command definitions by \`git kizu completion bash\`; enable it with
#   eval "$(git kizu completion bash)"
# in ~/.bashrc (git's own completion, which calls _git_kizu for \`git kizu\`, is loaded by
# bash-completion), or save the output as ~/.local/share/bash-completion/completions/git-kizu.

${sharedPart(completionTree(program))}

# git with git's completion helper when it is loaded (it passes on -C and --git-dir).
__git_kizu_git() {
  if declare -F __git >/dev/null; then __git "$@"; else command git "$@"; fi
}

# Completes \`git kizu ...\`; git's completion (__git_main) calls it with words, cword, cur and
# __git_cmd_idx (the index of \`kizu\`) set.
_git_kizu() {
  local __git_kizu_kind __git_kizu_list __git_kizu_path __git_kizu_expect __git_kizu_nargs i=\${__git_cmd_idx-}
  if [ -z "$i" ]; then
    for ((i = 0; i < cword; i++)); do [ "\${words[i]}" = kizu ] && break; done
  fi
  __git_kizu_walk "\${words[@]:i+1:cword-i-1}"
  if ! __git_kizu_candidates "$cur"; then COMPREPLY=(); return; fi
  local word=$cur
  case $cur in --*=*) word=\${cur#*=} ;; esac
  if [ -z "\${__git_kizu_own-}" ] && declare -F __gitcomp_nl >/dev/null; then
    __gitcomp_nl "$__git_kizu_list" "" "$word"
  else
    local IFS=$'\\n'
    COMPREPLY=($(compgen -W "$__git_kizu_list" -- "$word"))
  fi
}

# Completes the \`git-kizu\` command itself.
__git_kizu_main() {
  local cur words cword prev __git_cmd_idx=0 __git_kizu_own=1
  if declare -F _get_comp_words_by_ref >/dev/null; then
    _get_comp_words_by_ref -n =: cur words cword prev
  else
    words=("\${COMP_WORDS[@]}") cword=$COMP_CWORD cur=\${COMP_WORDS[COMP_CWORD]}
  fi
  _git_kizu
}
complete -o bashdefault -o default -F __git_kizu_main git-kizu
`;
}

/**
 * The zsh completion script for `program` (a `#compdef` file; see the module comment).
 * @param version git-kizu's version, named in the script's header
 */
export function zshScript(program: Command, version: string): string {
  const tree = completionTree(program);
  const describe = (s: string) => s.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
  return `#compdef git-kizu
#description ${oneLine(program.description())}
# zsh completion for git kizu and git-kizu (git-kizu ${version}).
# Generated from git-kizu's command definitions by \`git kizu completion zsh\`; enable it by
# saving it as _git-kizu in a directory on fpath before compinit runs, e.g.
#   git kizu completion zsh > ~/.zfunc/_git-kizu   # and in ~/.zshrc: fpath=(~/.zfunc $fpath)
# or with  source <(git kizu completion zsh)  in ~/.zshrc after compinit.

${sharedPart(tree)}

${caseFunction(
  '__git_kizu_describe',
  'Candidates with descriptions ("name:description" lines) of "<path> commands" and "<path> options".',
  tree.flatMap((n) => [
    [[`${n.path} commands`], n.subs.map((s) => `${describe(s.name)}:${oneLine(s.description)}`)] as [string[], string[]],
    [[`${n.path} options`], n.options.flatMap((o) => o.flags.map((f) => `${describe(f)}:${oneLine(o.description)}`))] as [string[], string[]],
  ]).filter(([, v]) => v.length),
)}

__git_kizu_git() { command git "$@"; }

# Completes \`git kizu ...\` (zsh's _git calls it with words[1] = kizu) and \`git-kizu ...\`.
_git-kizu() {
  local __git_kizu_kind __git_kizu_list __git_kizu_path __git_kizu_expect __git_kizu_nargs
  local -a items
  __git_kizu_walk "\${(@)words[2,CURRENT-1]}"
  if ! __git_kizu_candidates "\${words[CURRENT]}"; then
    _files
    return
  fi
  case $__git_kizu_kind in
    commands|options)
      items=("\${(@f)$(__git_kizu_describe "$__git_kizu_path $__git_kizu_kind" || __git_kizu_describe " $__git_kizu_kind")}")
      _describe -t $__git_kizu_kind \${__git_kizu_kind%s} items ;;
    *)
      items=("\${(@f)__git_kizu_list}")
      # \`--option=<value>\`: the value is completed after the \`=\`.
      [[ $__git_kizu_expect == '' && \${words[CURRENT]} == --*=* ]] && compset -P '*='
      compadd -Q -- "\${(@)items:#}" ;;
  esac
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _git-kizu "$@"
else
  compdef _git-kizu git-kizu
  () {
    local -a commands
    zstyle -a ':completion:*:*:git:*' user-commands commands
    (( \${commands[(I)kizu(|:*)]} )) || zstyle ':completion:*:*:git:*' user-commands $commands ${sq(`kizu:${oneLine(program.description())}`)}
  }
fi
`;
}

/**
 * The ids of one kind in the repository at `cwd`, one per line, as the other commands print
 * them: hunk short ids (`git kizu hunks`), snapshot names (`snapshot list`), task names
 * (`task list`).
 * @throws KizuError (exit 2) outside a git repository, as those commands do.
 */
export async function completionIds(cwd: string, kind: IdKind): Promise<string[]> {
  const { repoInfo } = await import('../git/repo.js');
  const { root } = await repoInfo(cwd);
  if (kind === 'hunks') {
    const { listHunks, shortId } = await import('../hunks/listing.js');
    return [...new Set((await listHunks(root)).hunks.map(shortId))];
  }
  if (kind === 'snapshots') {
    const { listSnapshots } = await import('../rollback/snapshots/snapshot.js');
    return (await listSnapshots(root)).map((s) => s.name);
  }
  const { listTasks } = await import('../rollback/tasks/records.js');
  return (await listTasks(root)).map((t) => t.name);
}

export interface CompletionInput {
  cwd: string;
  /** The program the script completes (buildProgram's). */
  program: Command;
  version: string;
  shell?: string;
  ids?: string;
  reporter: Reporter;
}

/**
 * Prints the completion script for `shell`, or with `ids` the ids of that kind.
 * @returns 0.
 * @throws KizuError (exit 2) without a shell or ids, or for an unknown one.
 */
export async function completionCommand(i: CompletionInput): Promise<number> {
  if (i.ids !== undefined) {
    if (!(ID_KINDS as readonly string[]).includes(i.ids)) throw new KizuError(`unknown id kind '${i.ids}'`, { hint: `use one of: ${ID_KINDS.join(', ')}` });
    for (const id of await completionIds(i.cwd, i.ids as IdKind)) i.reporter.log(id);
    return EXIT.OK;
  }
  if (i.shell === 'bash') i.reporter.log(bashScript(i.program, i.version).replace(/\n$/, ''));
  else if (i.shell === 'zsh') i.reporter.log(zshScript(i.program, i.version).replace(/\n$/, ''));
  else throw new KizuError(i.shell === undefined ? 'git kizu completion needs a shell: bash or zsh' : `unknown shell '${i.shell}'`, { hint: 'run git kizu completion bash or git kizu completion zsh' });
  return EXIT.OK;
}
