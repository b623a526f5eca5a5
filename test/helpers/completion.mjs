// Drives the real shells' completion, as a user's TAB does, for the scripts
// `git kizu completion bash|zsh` prints (src/cli/completion.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';

/** git's own bash completion (Debian's git package), which calls `_git_kizu` for `git kizu`. */
export const GIT_BASH_COMPLETION = '/usr/share/bash-completion/completions/git';

const bashQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Completes each line of `cases` (an array of word arrays, the last word being the one under
 * the cursor: `['git', 'kizu', 'ta']`) in one `bash --norc` with git's completion sourced and
 * then `eval "$(git kizu completion bash)"`, the way README's Completion section says. Words
 * starting with `git-kizu` go through the `complete -F` entry of `git-kizu` itself; the others
 * through git's (`__git_wrap__git_main`, what `complete -p git` names).
 * @returns one array per case: COMPREPLY as bash left it (git's completion appends a space)
 */
export function bashComplete(sb, cases, opts = {}) {
  const lines = [`source ${bashQuote(GIT_BASH_COMPLETION)}`, 'eval "$(git kizu completion bash)" || exit 9'];
  lines.push('t() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=();');
  lines.push('  local f; f=$(complete -p "$1" | sed -n "s/.* -F \\([^ ]*\\) .*/\\1/p"); "$f" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}";');
  lines.push('  [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\\0" "${COMPREPLY[@]}"; printf "\\n"; }');
  for (const words of cases) lines.push(`t ${words.map(bashQuote).join(' ')}`);
  const r = sb.run('bash', ['--norc', '--noprofile', '-c', lines.join('\n')], opts);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = r.stdout.split('\n').slice(0, -1);
  assert.equal(out.length, cases.length, r.stdout);
  return out.map((l) => (l === '' ? [] : l.split('\0').slice(0, -1)));
}

/**
 * Types each of `lines` (text without the TAB, e.g. `git kizu ta`) into an interactive
 * `zsh -f` on a pseudo-terminal (zsh/zpty), presses TAB, and collects every match the
 * completion system added (a `compadd` wrapper records them; TAB is bound to a widget that
 * runs complete-word, then writes an end marker the driver waits for). `setup` is zsh code run first
 * after compinit is made ready: 'fpath' puts the script in a directory on fpath as
 * `_git-kizu` before compinit (README's first way), 'source' runs compinit, then
 * `source <(git kizu completion zsh)` (the second way).
 * @returns one sorted array of distinct matches per line
 */
export function zshComplete(sb, setup, lines) {
  const dir = path.join(sb.base, `zsh-${setup}`);
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'matches');
  const init = [
    "PS1='%% '",
    'bindkey -e',
    setup === 'fpath'
      ? `git kizu completion zsh > ${dir}/_git-kizu && fpath=(${dir} $fpath) && autoload -U compinit && compinit -u -D`
      : 'autoload -U compinit && compinit -u -D && source <(git kizu completion zsh)',
    `compadd() { if (( \${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi; local -a m; builtin compadd -O m "$@"; (( $#m )) && print -rl -- $m >> ${out}; builtin compadd "$@"; }`,
    // TAB completes, then marks the end of this completion's matches.
    `tab() { zle complete-word; print -r -- '--- done' >> ${out}; }; zle -N tab; bindkey '^I' tab`,
  ];
  const driver = [
    'zmodload zsh/zpty',
    'zpty z zsh -f -i',
    ...init.map((l) => `zpty -w z ${bashQuote(l)}`),
    `for n in {1..${lines.length}}; do`,
    // Nothing more is typed until the completion is over: zsh cuts a completion short when
    // more input is waiting. Then the line is cleared for the next one.
    '  zpty -w -n z $\'\\C-e\\C-u\'"${(P)${:-line$n}}"$\'\\t\'',
    `  for i in {1..600}; do [[ $(grep -c -- '^--- done$' ${out} 2>/dev/null) -ge $n ]] && break; sleep 0.1; done`,
    'done',
    'zpty -d z',
    `cat ${out}`,
  ];
  const script = path.join(dir, 'driver.zsh');
  writeFileSync(script, driver.join('\n') + '\n');
  const env = Object.fromEntries(lines.map((l, k) => [`line${k + 1}`, l]));
  const r = sb.run('zsh', ['-f', script], { env });
  assert.equal(r.status, 0, r.stderr);
  const groups = r.stdout.split('--- done\n');
  assert.equal(groups.length, lines.length + 1, r.stdout);
  return groups.slice(0, -1).map((g) => [...new Set(g.split('\n').filter(Boolean))].sort());
}
