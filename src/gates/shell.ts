/**
 * Reads a shell command line (bash syntax) as the commands it would run, for the pre-tool
 * gate: parsed with tree-sitter-bash (src/syntax/grammars.ts), every simple command found
 * wherever it sits (lists, pipes, subshells, brace groups, `$(…)`, backticks, process
 * substitution, function bodies, loops and conditionals), each word's value worked out where
 * it is static (quotes, backslashes, `$'…'`), and the command seen through:
 * - leading `VAR=value` assignments (kept in `assignments`);
 * - wrappers that run their arguments as a command (`env` with its options and assignments,
 *   `command`, `exec`, `builtin`, `nice`, `nohup`, `timeout`, `sudo`, `doas`, `xargs`, `time`,
 *   `stdbuf`, `setsid`, `flock`, `ionice`, `taskset`, `unbuffer`, `caffeinate`, `npx`, `bunx`,
 *   `find -exec`...);
 * - strings run as shell code: `sh|bash|zsh|... -c STRING`, `eval ARGS`, `env -S STRING`,
 *   `su -c`, `flock -c`, `script -c`, `watch CMD`, `sudo -s CMD`, and a heredoc or here-string
 *   fed to a shell: parsed again, recursively (up to {@link MAX_DEPTH} levels).
 * Where the text cannot be read (an ERROR or MISSING node, over the size, node or time
 * budget, nesting too deep), the result says so and the gate fails closed.
 */
import type { Node as TsNode, Parser as TsParser } from 'web-tree-sitter';

/** The shells whose `-c` string, heredoc or piped stdin are read as commands. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'tcsh', 'csh']);

/** Environment variables whose value a program runs as a shell command (git's editors, pager, ssh, diff). */
const COMMAND_VARS: ReadonlySet<string> = new Set(['PS0', 'PS1', 'PS2', 'PS4', 'GIT_EDITOR', 'EDITOR', 'VISUAL', 'GIT_SEQUENCE_EDITOR', 'GIT_PAGER', 'PAGER', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'PROMPT_COMMAND', 'BASH_ENV', 'ENV']);

/** git config keys whose value git runs as a shell command. */
const COMMAND_KEYS = /^(core\.(editor|pager|sshcommand|fsmonitor|askpass)|sequence\.editor|diff\.external|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential\.(.+\.)?helper|pager\..+|alias\..+|gpg\.program|gpg\..+\.program|interactive\.difffilter)$/i;

/** One word of a command: its value when static (quotes and escapes applied), else null; its source text. */
export interface Word {
  value: string | null;
  raw: string;
}

/** An output redirection (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&` to a file): its target. */
export interface Redirect {
  op: string;
  target: Word;
}

/** A simple command as it will run, wrappers seen through. */
export interface SimpleCommand {
  /** The command name and its arguments (`argv[0]` is the command the wrappers run). */
  argv: Word[];
  /** Environment assignments in force for it (leading `VAR=value`, `env`'s, `sudo`'s; `export`/`declare` ones too). */
  assignments: { name: string; value: Word }[];
  /** Its output redirections (and those of the statement around it). */
  redirects: Redirect[];
  /** The files its input redirections read (`< x.patch`). */
  inputs: Word[];
  /** The wrappers it was found under (`env`, `sudo`, `bash -c`, ...), outermost first. */
  via: string[];
  /** True when more arguments arrive at run time (`xargs`, `find -exec … {}`). */
  openArgs: boolean;
  /** Its standard input when it is a heredoc or here-string with static text; else null. */
  stdinText: string | null;
  /** True when its standard input comes from a pipe. */
  stdinFromPipe: boolean;
}

/** What a command line does, as far as the reader could tell. */
export interface ShellReading {
  commands: SimpleCommand[];
  /** Why the text could not be read (the gate fails closed); null when it was. */
  unreadable: null | { why: 'unparsable' | 'over-budget'; detail: string };
  /** Commands whose name is not static (`$X commit`, `"$(echo git)" ...`). */
  dynamicNames: SimpleCommand[];
  /** Shells that read commands from a pipe or a file the gate cannot see (`curl … | sh`, `bash <(…)`). */
  shellsFromStdin: SimpleCommand[];
  /** `export`/`declare`/`unset`/... of a variable whose name is computed (`export $K=1`, `declare -x "$v"`). */
  computedVarNames: SimpleCommand[];
  /**
   * Programs that run commands the gate cannot read: from their stdin or a file given there
   * (`make -f /dev/stdin`), later (`at`, `batch`, `crontab`), or typed in (`ssh host` with no command).
   */
  unseenCommands: SimpleCommand[];
}

/** Limits: the text's size, the syntax nodes walked, the nesting of strings run as shell code, the parse time. */
export const BUDGET = { maxChars: 100_000, maxNodes: 200_000, maxDepth: 8, parseMs: 1500 } as const;
const MAX_DEPTH = BUDGET.maxDepth;

class Unreadable extends Error {
  constructor(
    readonly why: 'unparsable' | 'over-budget',
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * Reads `text` as the commands it would run.
 * @param parser a tree-sitter parser for bash (src/syntax/grammars.ts `parserFor('bash')`).
 * @param home the home directory (a leading `~` in a static word becomes it).
 * @returns the commands, or why the text could not be read. Never throws for any input.
 */
export function readShell(parser: TsParser, text: string, home: string): ShellReading {
  const out = emptyReading();
  const st: State = { nodes: 0, deadline: Date.now() + BUDGET.parseMs, parser, home, out, vars: new Map(), aliases: new Map() };
  try {
    readText(st, text, 0, []);
  } catch (e) {
    if (e instanceof Unreadable) out.unreadable = { why: e.why, detail: e.message };
    else out.unreadable = { why: 'unparsable', detail: (e as Error).message };
  }
  return out;
}

/**
 * Reads a command line made only of plain words (letters, digits and `_-.,/:=@%+`, separated
 * by spaces: no quoting, expansion, glob, operator or redirection) without the parser: it is
 * one simple command, its words are their own values. Such a line is the common case (`git
 * status`, `git log --oneline -5`), and it spares loading tree-sitter.
 * @returns the reading, or null when the line is not plain or needs the parser after all
 *   (a wrapper running a string as shell code): then read it with {@link readShell}.
 */
export function readPlainShell(text: string, home: string): ShellReading | null {
  if (text.length > BUDGET.maxChars || !/^[\w\-.,/:=@%+ \t]+$/.test(text) || !text.trim()) return null;
  const words = text.trim().split(/[ \t]+/);
  const out = emptyReading();
  const st: State = { nodes: 0, deadline: Date.now() + BUDGET.parseMs, parser: null as unknown as TsParser, home, out, vars: new Map(), aliases: new Map() };
  const assignments: SimpleCommand['assignments'] = [];
  let i = 0;
  for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]); i++) {
    const eq = words[i].indexOf('=');
    assignments.push({ name: words[i].slice(0, eq), value: { value: words[i].slice(eq + 1), raw: words[i].slice(eq + 1) } });
  }
  const argv = words.slice(i).map((w) => ({ value: w, raw: w }));
  // export/declare/... NAME=value: assignments, as the parser reads a declaration command.
  if (['export', 'declare', 'typeset', 'local', 'readonly'].includes(argv[0]?.value ?? '')) {
    for (const w of argv.slice(1)) {
      const eq = w.value.indexOf('=');
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value.slice(0, eq))) assignments.push({ name: w.value.slice(0, eq), value: { value: w.value.slice(eq + 1), raw: w.value.slice(eq + 1) } });
    }
  }
  try {
    resolve(st, { ...bare([], []), argv, assignments }, 0);
  } catch {
    return null; // shell code to parse (sh -c word, eval ...): the parser reads the whole line
  }
  return out;
}

interface State {
  nodes: number;
  deadline: number;
  parser: TsParser;
  home: string;
  out: ShellReading;
  /**
   * Shell variables the line sets, in the order it sets them: each with every literal value it
   * may hold (an assignment's, each word of a `for` list), or null once any of its values is
   * computed (`X=$(…)`, `read X`, `printf -v X`). A variable not here is not known either.
   */
  vars: Map<string, string[] | null>;
  /** Names the line makes run something else: `alias g=git`, `hash -p /usr/bin/git g` (the words they become; null: computed). */
  aliases: Map<string, Word[] | null>;
}

function emptyReading(): ShellReading {
  return { commands: [], unreadable: null, dynamicNames: [], shellsFromStdin: [], computedVarNames: [], unseenCommands: [] };
}

/** At most this many alternative values of a word (a `for` list's values combined) are tried; beyond, the word counts as computed. */
const MAX_ALTERNATIVES = 16;

/** Records that variable `name` may hold `values` (null: a value the gate cannot know). */
function setVar(st: State, name: string, values: string[] | null): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
  const had = st.vars.get(name);
  if (values === null || had === null) st.vars.set(name, null);
  else st.vars.set(name, [...new Set([...(had ?? []), ...values])].slice(0, MAX_ALTERNATIVES));
}

/**
 * The text as bash reads it: a backslash-newline (line continuation) outside single quotes,
 * `$'…'` and heredoc bodies is removed, so `git kizu t\<newline>ap` is `git kizu tap` (the
 * grammar reads a continuation as a word break). `root` is `text`'s syntax tree.
 */
function joinContinuations(root: TsNode, text: string): string {
  const keep: [number, number][] = [];
  const stack: TsNode[] = [root];
  while (stack.length) {
    const x = stack.pop()!;
    if (['raw_string', 'ansi_c_string', 'heredoc_body', 'comment'].includes(x.type)) {
      keep.push([x.startIndex, x.endIndex]);
      continue;
    }
    for (let i = x.childCount - 1; i >= 0; i--) stack.push(x.child(i)!);
  }
  // tree-sitter's indices are in UTF-16 code units for a JS string: the same as `text`'s.
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && !keep.some(([a, b]) => i >= a && i < b)) {
      const nl = text[i + 1] === '\n' ? 1 : text[i + 1] === '\r' && text[i + 2] === '\n' ? 2 : 0;
      if (nl) {
        i += nl;
        continue;
      }
      out += ch + (text[i + 1] ?? '');
      i++;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Parses `text` (shell code at nesting `depth`, run under wrappers `via`) and collects its commands. */
function readText(st: State, text: string, depth: number, via: string[]): void {
  if (depth > MAX_DEPTH) throw new Unreadable('over-budget', `shell code nested more than ${MAX_DEPTH} levels deep`);
  if (text.length > BUDGET.maxChars) throw new Unreadable('over-budget', `command longer than ${BUDGET.maxChars} characters`);
  const tree = st.parser.parse(text, null, {
    progressCallback: (() => Date.now() > st.deadline) as unknown as () => void,
  });
  if (!tree) throw new Unreadable('over-budget', `parsing took longer than ${BUDGET.parseMs} ms`);
  if (/\\\r?\n/.test(text) && !tree.rootNode.hasError) {
    const joined = joinContinuations(tree.rootNode, text);
    if (joined !== text) {
      tree.delete();
      readText(st, joined, depth, via);
      return;
    }
  }
  try {
    if (tree.rootNode.hasError) throw new Unreadable('unparsable', `not valid shell syntax near ${JSON.stringify(errorAt(tree.rootNode, text))}`);
    walk(st, tree.rootNode, depth, via, [], false);
  } finally {
    tree.delete();
  }
}

/** A short excerpt where the first ERROR/MISSING node is. */
function errorAt(n: TsNode, text: string): string {
  const stack: TsNode[] = [n];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.isError || x.isMissing) return text.slice(x.startIndex, x.startIndex + 40) || text.slice(Math.max(0, x.startIndex - 20), x.startIndex + 20);
    for (let i = x.childCount - 1; i >= 0; i--) stack.push(x.child(i)!);
  }
  return text.slice(0, 40);
}

function tick(st: State): void {
  if (++st.nodes > BUDGET.maxNodes) throw new Unreadable('over-budget', `more than ${BUDGET.maxNodes} syntax nodes`);
  if ((st.nodes & 255) === 0 && Date.now() > st.deadline) throw new Unreadable('over-budget', `reading took longer than ${BUDGET.parseMs} ms`);
}

/**
 * Walks a syntax node: each `command` becomes a simple command (with the redirections
 * `redirects` of the statement around it); every other node's children are walked.
 * `piped`: the node's stdin is a pipe.
 */
function walk(st: State, n: TsNode, depth: number, via: string[], redirects: Redirect[], piped: boolean): void {
  tick(st);
  switch (n.type) {
    case 'command':
      command(st, n, depth, via, redirects, piped, null);
      return;
    case 'redirected_statement': {
      const body = n.childForFieldName('body');
      const reds: Redirect[] = [...redirects];
      const inputs: Word[] = [];
      let stdinText: string | null = null;
      for (const r of n.childrenForFieldName('redirect')) {
        if (!r) continue;
        const red = redirectOf(st, r, depth, via);
        reds.push(...red.outs);
        if (red.input) inputs.push(red.input);
        if (red.stdinText !== null) stdinText = red.stdinText;
      }
      if (body?.type === 'command') command(st, body, depth, via, reds, piped, stdinText, inputs);
      else if (body) {
        walk(st, body, depth, via, reds, piped);
      }
      if (!body || body.type !== 'command') {
        // A redirection with no command (`> .git/x`) or around a group writes the file too.
        for (const r of reds.slice(redirects.length)) st.out.commands.push(bare(via, [r]));
      }
      return;
    }
    case 'pipeline': {
      let first = true;
      for (const c of n.namedChildren) {
        if (!c) continue;
        walk(st, c, depth, via, redirects, !first || piped);
        first = false;
      }
      return;
    }
    case 'variable_assignment': {
      // `KIZU_SKIP=1` on its own line: in force for what follows (and exported with `set -a`).
      const name = n.childForFieldName('name')?.text ?? '';
      const value = n.childForFieldName('value');
      if (value) walkInside(st, value, depth, via);
      // `a[$(cmd)]=1`: the subscript runs too.
      const nameNode = n.childForFieldName('name');
      if (nameNode) walkInside(st, nameNode, depth, via);
      const w = value ? wordOf(st, value) : { value: '', raw: '' };
      // `PS4='$(cmd)'; set -x`, `GIT_EDITOR=…; export GIT_EDITOR`: a value the shell or git runs later.
      if (COMMAND_VARS.has(name)) {
        if (w.value === null) st.out.dynamicNames.push({ ...bare(via, []), argv: [{ value: null, raw: n.text }] });
        else readText(st, w.value, depth + 1, [...via, name]);
      }
      if (w.value !== null) readLiteralCode(st, w.value, depth, via);
      st.out.commands.push({ ...bare(via, []), assignments: [{ name, value: w }] });
      setVar(st, name, value ? (value.type === 'array' ? null : valuesOf(st, value)) : ['']);
      return;
    }
    case 'for_statement': {
      // `for X in a b; do …; done`: X takes each literal value (each is tried); computed words make it unknown.
      const name = n.childForFieldName('variable')?.text ?? '';
      const values = n.childrenForFieldName('value').filter((c): c is TsNode => !!c);
      for (const v of values) walkInside(st, v, depth, via);
      if (n.type === 'for_statement' && values.length) {
        const all: string[] = [];
        let known = true;
        for (const v of values) {
          const vs = valuesOf(st, v);
          if (vs === null) known = false;
          else all.push(...vs);
        }
        setVar(st, name, known ? all : null);
        // The loop assigns its variable (exported under `set -a`): the rules on assignments see it.
        st.out.commands.push({ ...bare(via, []), assignments: (known ? all : [null]).map((v) => ({ name, value: { value: v, raw: v ?? '' } })) });
      } else setVar(st, name, null);
      const body = n.childForFieldName('body');
      if (body) walk(st, body, depth, via, redirects, piped);
      return;
    }
    case 'declaration_command':
    case 'unset_command': {
      // export/declare/typeset/local/readonly/unset NAME=VALUE ...: as a command (its words) with the assignments.
      // A shell word may be read as several adjacent nodes (`KIZU_SK""IP=1`): those are joined first.
      const argv: Word[] = [];
      const assignments: SimpleCommand['assignments'] = [];
      const groups: TsNode[][] = [];
      let computedName = false;
      for (const c of n.children) {
        if (!c) continue;
        const last = groups[groups.length - 1];
        if (last && last[last.length - 1].endIndex === c.startIndex && c.isNamed && last[0].isNamed) last.push(c);
        else groups.push([c]);
      }
      for (const g of groups) {
        for (const c of g) walkInside(st, c, depth, via);
        const c = g[0];
        if (g.length === 1 && !c.isNamed) {
          argv.push({ value: c.text, raw: c.text });
          continue;
        }
        if (g.length === 1 && c.type === 'variable_assignment') {
          const value = c.childForFieldName('value');
          const name = c.childForFieldName('name')?.text ?? '';
          assignments.push({ name, value: value ? wordOf(st, value) : { value: '', raw: '' } });
          argv.push({ value: c.text, raw: c.text });
          if (n.type === 'declaration_command') setVar(st, name, value ? (value.type === 'array' ? null : valuesOf(st, value)) : ['']);
          continue;
        }
        // Joined parts: each a static value (a variable_assignment's text as written), or computed.
        const raw = g.map((x) => x.text).join('');
        const parts = g.map((x) => (x.type === 'variable_assignment' ? valuesOfAssignment(st, x) : staticValues(st, x, false)));
        const vs = combine(parts);
        if (vs === null) {
          // `export $K=1`, `declare -x "$v"`: the name may be any variable's.
          argv.push({ value: null, raw });
          if (!raw.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(raw)) computedName = true;
          continue;
        }
        for (const v of vs) {
          argv.push({ value: v, raw });
          const eq = v.indexOf('=');
          if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v.slice(0, eq))) {
            assignments.push({ name: v.slice(0, eq), value: { value: v.slice(eq + 1), raw } });
            if (n.type === 'declaration_command') setVar(st, v.slice(0, eq), [v.slice(eq + 1)]);
          } else if (n.type === 'unset_command' || argv.some((w) => /^-[a-zA-Z]*[naA]/.test(w.value ?? ''))) setVar(st, v, null);
        }
      }
      const cmd = { ...bare(via, redirects), argv, assignments };
      st.out.commands.push(cmd);
      // `declare -n R=KIZU_SKIP; R=1`: a name reference makes any later assignment another variable's.
      const nameref = /^(declare|typeset|local)$/.test(argv[0]?.value ?? '') && argv.some((w) => /^-[a-zA-Z]*n/.test(w.value ?? ''));
      if (computedName || nameref) st.out.computedVarNames.push(cmd);
      if (n.type === 'unset_command') for (const w of argv.slice(1)) if (w.value !== null) setVar(st, w.value, null);
      return;
    }
    default:
      // A word outside a simple command (the operands of `[ … ]`, `[[ … ]]`, `(( … ))`): its
      // inside is judged as a word's is (substitutions, code-looking quoted text).
      if (['string', 'raw_string', 'ansi_c_string', 'concatenation', 'word', 'expansion', 'simple_expansion'].includes(n.type)) {
        walkInside(st, n, depth, via);
        return;
      }
      for (const c of n.namedChildren) if (c) walk(st, c, depth, via, redirects, piped);
  }
}

/**
 * Quoted text that bash may still run as code: a string holding `$(…)` or backticks is
 * evaluated by `${X@P}`, arithmetic on `a[$(…)]`, `let`, `declare "a[$(…)]"`, `printf -v`,
 * `read`, `test -v`, `mapfile -C`, a prompt (tester #134, #136). The code inside is judged too;
 * a part that does not parse is let be (the text may be data: awk's `$(NF)`).
 */
function readLiteralCode(st: State, value: string, depth: number, via: string[]): void {
  if (!/\$\(|`/.test(value) || depth >= MAX_DEPTH) return;
  const codes = [...value.matchAll(/\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? '');
  for (const code of codes) {
    if (!code.trim()) continue;
    try {
      readText(st, code, depth + 1, [...via, 'quoted code']);
    } catch (e) {
      // (readText fails on a syntax error before it records anything.)
      if (!(e instanceof Unreadable) || e.why !== 'unparsable') throw e;
    }
  }
}

/** Walks a word's inside for commands it runs (`$(…)`, backticks, `<(…)`). */
function walkInside(st: State, n: TsNode, depth: number, via: string[]): void {
  tick(st);
  if (n.type === 'expansion' && /`|\$\(/.test(n.text) && !hasSubstitution(n)) {
    // `${X:-`cmd`}`: the grammar reads the default as text; bash runs it.
    readLiteralCode(st, n.text.slice(2, -1), depth, via);
  }
  if (n.type === 'command_substitution' || n.type === 'process_substitution') {
    for (const c of n.namedChildren) if (c) walk(st, c, depth, via, [], false);
    return;
  }
  // Quoted text anywhere (a `[ -v 'a[$(…)]' ]` test, `typeset "a[\$(…)]=1"`): bash may still
  // evaluate a subscript in it as code (tester #136, N4, N5), so code-looking text is judged.
  if ((n.type === 'raw_string' || n.type === 'ansi_c_string' || (n.type === 'string' && !hasSubstitution(n))) && /`|\$\(/.test(n.text)) {
    readLiteralCode(st, n.text.slice(n.type === 'ansi_c_string' ? 2 : 1, -1), depth, via);
  }
  for (const c of n.namedChildren) if (c) walkInside(st, c, depth, via);
}

function bare(via: string[], redirects: Redirect[]): SimpleCommand {
  return { argv: [], assignments: [], redirects, inputs: [], via, openArgs: false, stdinText: null, stdinFromPipe: false };
}

/** A redirect node: an output redirection's targets (one per value a variable in it may have), or a heredoc's / here-string's static text. */
function redirectOf(st: State, r: TsNode, depth: number, via: string[]): { outs: Redirect[]; stdinText: string | null; input?: Word } {
  tick(st);
  if (r.type === 'heredoc_redirect') {
    const body = r.namedChildren.find((c) => c?.type === 'heredoc_body');
    for (const c of r.namedChildren) {
      if (!c || c.type === 'heredoc_body') continue;
      // `cat <<'EOF' | sh` reads as a heredoc holding the rest of the line (`| sh`, `&& …`): those are commands.
      if (c.type === 'pipeline') for (const x of c.namedChildren) x && walk(st, x, depth, via, [], true);
      else if (['command', 'list', 'redirected_statement', 'subshell', 'compound_statement'].includes(c.type)) walk(st, c, depth, via, [], false);
      else walkInside(st, c, depth, via);
    }
    if (body) walkInside(st, body, depth, via);
    // Also an output redirection on the heredoc line (`cat <<EOF > .git/x`).
    const dest = r.childForFieldName('destination') ?? r.namedChildren.find((c) => c?.type === 'file_redirect');
    const outs = dest?.type === 'file_redirect' ? redirectOf(st, dest, depth, via).outs : [];
    return { outs, stdinText: body ? body.text : '' };
  }
  if (r.type === 'herestring_redirect') {
    const w = r.namedChildren.find((c) => c && c.type !== 'file_descriptor');
    if (w) walkInside(st, w, depth, via);
    const v = w ? wordOf(st, w) : { value: '', raw: '' };
    return { outs: [], stdinText: v.value ?? v.raw };
  }
  // file_redirect: [descriptor] operator destination
  let op = '';
  for (const c of r.children) if (c && !c.isNamed) op += c.type;
  const dest = r.childForFieldName('destination');
  if (dest) walkInside(st, dest, depth, via);
  if (dest && op === '<') return { outs: [], stdinText: null, input: wordOf(st, dest) };
  if (!dest || !/>/.test(op)) return { outs: [], stdinText: null };
  const outs: Redirect[] = [];
  for (const target of wordsOf(st, dest)) {
    // `>&2`, `2>&1`: a file descriptor, not a file.
    if ((op === '>&' || op === '<&' || op === '>&-') && /^\d+-?$|^-$/.test(target.value ?? '')) continue;
    outs.push({ op, target });
  }
  return { outs, stdinText: null };
}

// ---------------------------------------------------------------------------------------
// Words

/** The value of a word node when it is static (quotes, escapes and `$'…'` applied; `~` expanded; a variable set to one literal earlier in the line replaced by it), else null. */
function wordOf(st: State, n: TsNode): Word {
  const vs = valuesOf(st, n);
  return { value: vs && vs.length === 1 ? vs[0] : null, raw: n.text };
}

/** The word node as each value it may have (a variable with several literal values gives several), or one Word with value null when computed. */
function wordsOf(st: State, n: TsNode): Word[] {
  const vs = valuesOf(st, n);
  return vs ? vs.map((v) => ({ value: v, raw: n.text })) : [{ value: null, raw: n.text }];
}

function valuesOf(st: State, n: TsNode): string[] | null {
  return staticValues(st, n, true);
}

/** The values a variable reference (`$X`, `${X}`, `"$X"`) may have, or null when any is computed or it is not a plain reference. */
function varValues(st: State, n: TsNode, quoted: boolean): string[] | null {
  const v = n.namedChildren[0];
  let vs: string[] | null = null;
  if (n.type === 'simple_expansion') vs = v?.type === 'variable_name' && n.text === '$' + v.text ? (st.vars.get(v.text) ?? null) : null;
  // `${X}` only: `${X:-…}`, `${X%…}`, `${#X}`, `${a[0]}`, `${!X}` are computed.
  else vs = n.namedChildren.length === 1 && v?.type === 'variable_name' && n.text === '${' + v.text + '}' ? (st.vars.get(v.text) ?? null) : null;
  // Unquoted, a value is split at IFS and globbed (`X="kizu tap"; git $X` is two words): such a value is computed.
  if (vs && !quoted && (st.vars.has('IFS') || vs.some((x) => /[\s*?[\]]/.test(x) || x === ''))) return null;
  return vs;
}

/** Every combination of `parts`' alternatives, concatenated; null when one part is computed or there are too many. */
function combine(parts: (string[] | null)[]): string[] | null {
  let out = [''];
  for (const p of parts) {
    if (p === null) return null;
    const next: string[] = [];
    for (const a of out) for (const b of p) next.push(a + b);
    if (next.length > MAX_ALTERNATIVES) return null;
    out = next;
  }
  return out;
}

function staticValues(st: State, n: TsNode, first: boolean): string[] | null {
  tick(st);
  switch (n.type) {
    case 'word':
    case 'command_name': {
      if (n.type === 'command_name') {
        const c = n.namedChildren[0];
        return c ? staticValues(st, c, first) : null;
      }
      const t = n.text;
      // Unquoted glob and brace characters expand at run time.
      if (/(^|[^\\])[*?[]/.test(t) || (/(^|[^\\])\{/.test(t) && /(,|\.\.)/.test(t))) return null;
      let v = t.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
      if (first && (v === '~' || v.startsWith('~/'))) v = st.home + v.slice(1);
      return [v];
    }
    case 'number':
    case 'variable_name':
      return [n.text];
    case 'raw_string':
      return [n.text.slice(1, -1)];
    case 'ansi_c_string':
      return [ansiC(n.text.slice(2, -1))];
    case 'simple_expansion':
    case 'expansion':
      return varValues(st, n, false);
    case 'string':
    case 'translated_string': {
      // The quoted text between the named parts, and each part: literal text, or a variable's values.
      const open = n.type === 'translated_string' ? 2 : 1;
      const start = n.startIndex + open;
      const end = n.endIndex - 1;
      const text = n.text;
      const parts: (string[] | null)[] = [];
      let at = start;
      const lit = (a: number, b: number) => text.slice(a - n.startIndex, b - n.startIndex).replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (c.startIndex > at) parts.push([lit(at, c.startIndex)]);
        if (c.type === 'string_content') parts.push([lit(c.startIndex, c.endIndex)]);
        else if (c.type === 'simple_expansion' || c.type === 'expansion') parts.push(varValues(st, c, true));
        else return null;
        at = c.endIndex;
      }
      if (end > at) parts.push([lit(at, end)]);
      return combine(parts);
    }
    case 'concatenation': {
      // `.{g,x}it` reads as words `.`, `{`, `g,x`, `}`, `it`: a brace expansion, not one static word.
      if (n.namedChildren.some((c) => c?.type === 'word' && c.text === '{')) return null;
      const parts: (string[] | null)[] = [];
      let i = 0;
      let at = n.startIndex;
      for (const c of n.namedChildren) {
        if (!c) continue;
        // Text between named children (an anonymous `$` before `"…"`, ...): kept as written.
        if (c.startIndex > at) {
          const gap = n.text.slice(at - n.startIndex, c.startIndex - n.startIndex);
          if (gap !== '$') parts.push([gap]);
        }
        parts.push(staticValues(st, c, first && i === 0));
        at = c.endIndex;
        i++;
      }
      if (n.endIndex > at) parts.push([n.text.slice(at - n.startIndex)]);
      return combine(parts);
    }
    default:
      return null;
  }
}

/** bash's `$'…'` escapes. */
function ansiC(s: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_m, e: string) => {
    if (e[0] === 'x' || e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 255);
    if (e[0] === 'c') return String.fromCharCode(e.charCodeAt(1) & 31);
    return simple[e] ?? '\\' + e;
  });
}

// ---------------------------------------------------------------------------------------
// Commands and wrappers

function command(st: State, n: TsNode, depth: number, via: string[], redirects: Redirect[], piped: boolean, stdinText: string | null, inputs: Word[] = []): void {
  const assignments: SimpleCommand['assignments'] = [];
  // Each argument with its alternatives (a variable that may hold several literal values).
  const alts: Word[][] = [];
  const reds = [...redirects];
  inputs = [...inputs];
  for (const c of n.children) {
    if (!c || !c.isNamed) continue;
    if (c.type === 'variable_assignment') {
      const value = c.childForFieldName('value');
      if (value) walkInside(st, value, depth, via);
      assignments.push({ name: c.childForFieldName('name')?.text ?? '', value: value ? wordOf(st, value) : { value: '', raw: '' } });
    } else if (c.type === 'file_redirect' || c.type === 'heredoc_redirect' || c.type === 'herestring_redirect') {
      const red = redirectOf(st, c, depth, via);
      reds.push(...red.outs);
      if (red.input) inputs.push(red.input);
      if (red.stdinText !== null) stdinText = red.stdinText;
    } else if (c.type === 'comment') {
      continue;
    } else if (c.type === 'subscript') {
      walkInside(st, c, depth, via);
    } else {
      walkInside(st, c, depth, via);
      const ws = wordsOf(st, c);
      for (const w of ws) if (w.value !== null) readLiteralCode(st, w.value, depth, via);
      alts.push(ws);
    }
  }
  // Every combination is judged (at most MAX_ALTERNATIVES; beyond, the varying words count as computed).
  let combos: Word[][] = [[]];
  for (const a of alts) {
    const next: Word[][] = [];
    for (const x of combos) for (const w of a) next.push([...x, w]);
    combos = next.length > MAX_ALTERNATIVES ? combos.map((x) => [...x, a.length > 1 ? { value: null, raw: a[0].raw } : a[0]]) : next;
  }
  for (const argv of combos) resolve(st, { argv, assignments, redirects: reds, inputs, via, openArgs: false, stdinText, stdinFromPipe: piped }, depth);
  // Variables this command sets to values the gate cannot know: `read X`, `printf -v X`, `mapfile X`, `getopts o X`, `let X=…`.
  const name = base(alts[0]?.[0]);
  const words = (alts.length ? alts.slice(1) : []).map((a) => a[0].value ?? '');
  if (name === 'read') {
    for (let i = 0; i < words.length; i++) {
      if (/^-[a-zA-Z]*[dnNptui]$/.test(words[i])) i++;
      else if (/^-[a-zA-Z]*a$/.test(words[i])) setVar(st, words[++i] ?? '', null);
      else if (!words[i].startsWith('-')) setVar(st, words[i], null);
    }
  } else if (name === 'printf') {
    const k = words.findIndex((w) => w === '-v');
    if (k >= 0) setVar(st, words[k + 1] ?? '', null);
  } else if (name === 'mapfile' || name === 'readarray' || name === 'getopts' || name === 'let') {
    for (const w of words) setVar(st, w.replace(/[=+\-*/].*$/, ''), null);
  }
  if (name === 'mapfile' || name === 'readarray') {
    // `mapfile -C CALLBACK`: bash runs the callback's text as a command for every -c lines read.
    const ws = alts.slice(1).map((a) => a[0]);
    for (let i = 0; i < ws.length; i++) {
      const v = ws[i].value;
      if (v === null || !/^-[a-zA-Z]*C/.test(v)) continue;
      const rest = v.slice(v.indexOf('C') + 1);
      const cb = rest ? { value: rest, raw: rest } : ws[i + 1];
      if (!cb) continue;
      if (cb.value === null) st.out.dynamicNames.push({ ...bare(via, []), argv: [cb] });
      else readText(st, cb.value, depth + 1, [...via, name]);
    }
  }
}

/** Basename of a static command word (`/usr/bin/git` → `git`). */
export function base(w: Word | undefined): string | null {
  if (!w || w.value === null) return null;
  const v = w.value;
  const i = Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\'));
  // Lower case, without `.exe`: macOS and Windows find `GIT` and `git.exe` as git.
  // (git-kizu's own bin is `git-kizu.js`.)
  return (i >= 0 ? v.slice(i + 1) : v).toLowerCase().replace(/\.exe$/, '').replace(/^git-kizu\.[cm]?js$/, 'git-kizu');
}

/** Options of a wrapper: the ones that take a separate value, and whether `--opt=value` forms exist. */
interface WrapperSpec {
  /** Short options taking a value (the rest of the cluster, or the next word). */
  shortValue?: string;
  /** Long options taking a value (the next word unless written `--x=v`). */
  longValue?: string[];
  /** Positional words before the command (timeout's duration, flock's lock file, taskset's mask). */
  positionals?: number;
  /** `NAME=value` words before the command are environment assignments. */
  assigns?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { shortValue: 'uCS', longValue: ['--unset', '--chdir', '--split-string', '--default-signal', '--ignore-signal', '--block-signal'], assigns: true },
  command: {},
  builtin: {},
  exec: { shortValue: 'a' },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  nohup: {},
  timeout: { shortValue: 'ks', longValue: ['--kill-after', '--signal'], positionals: 1 },
  sudo: { shortValue: 'ugCDhprtTUc', longValue: ['--user', '--group', '--close-from', '--chdir', '--host', '--prompt', '--role', '--type', '--command-timeout', '--other-user'], assigns: true },
  doas: { shortValue: 'uC' },
  time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  setsid: {},
  flock: { shortValue: 'wEc', longValue: ['--wait', '--timeout', '--conflict-exit-code', '--command'], positionals: 1 },
  ionice: { shortValue: 'cnp', longValue: ['--class', '--classdata', '--pid'] },
  chrt: { positionals: 1 },
  taskset: { positionals: 1 },
  unbuffer: {},
  caffeinate: { shortValue: 'tw' },
  npx: { shortValue: 'pc', longValue: ['--package', '--call'] },
  bunx: {},
  pnpx: {},
  xargs: { shortValue: 'ILnPsdEaei', longValue: ['--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--delimiter', '--eof', '--arg-file', '--process-slot-var'] },
  su: { shortValue: 'cgGsw', longValue: ['--command', '--group', '--supp-group', '--shell', '--whitelist-environment'], positionals: 1 },
  runuser: { shortValue: 'cgGsuw', longValue: ['--command', '--group', '--supp-group', '--shell', '--user', '--whitelist-environment'] },
  script: { shortValue: 'cEIOBTm', longValue: ['--command', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format'] },
  watch: { shortValue: 'nqd', longValue: ['--interval', '--differences', '--equexit'] },
  sudoedit: {},
  // Found by the tester (#106): programs that run their arguments as a command.
  prlimit: { shortValue: 'p', longValue: ['--pid', '--output'] },
  nsenter: { shortValue: 'tSGrwmuinpUC', longValue: ['--target', '--setuid', '--setgid', '--root', '--wd'] },
  setpriv: { longValue: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--selinux-label', '--apparmor-profile', '--pdeathsig'] },
  strace: { shortValue: 'abeEIOopPsSuX', longValue: ['--output', '--attach', '--user', '--env', '--trace', '--signal', '--status', '--string-limit'] },
  ltrace: { shortValue: 'aAbDeEFlnopsSuxX', longValue: ['--output'] },
  unshare: { shortValue: 'S', longValue: ['--setuid', '--setgid', '--root', '--wd', '--propagation'] },
  chroot: { longValue: ['--userspec', '--groups'], positionals: 1 },
  sg: { shortValue: 'c', positionals: 1 },
  valgrind: {},
  fakeroot: { shortValue: 'lsi', longValue: ['--lib', '--faked'] },
  linux32: {},
  linux64: {},
  setarch: { positionals: 1 },
  catchsegv: {},
  firejail: {},
  'systemd-run': { shortValue: 'pEuM', longValue: ['--property', '--setenv', '--unit', '--description', '--slice', '--uid', '--gid', '--working-directory', '--machine'] },
  'ld.so': {},
  coproc: {},
  nocorrect: {},
  noglob: {},
};

/**
 * Sees through `c`'s wrappers and shells and records the command(s) it runs.
 * Unknown wrappers are not seen through (the command is judged as itself).
 */
function resolve(st: State, c: SimpleCommand, depth: number): void {
  tick(st);
  const first = c.argv[0];
  if (!first) {
    if (c.assignments.length || c.redirects.length) st.out.commands.push(c);
    return;
  }
  if (first.value === null) {
    st.out.dynamicNames.push(c);
    st.out.commands.push(c);
    // `"$(git --exec-path)"/git-config …`: a dashed git command in a computed directory is judged as git's too.
    const m = /\/git-([a-z][a-z0-9-]*)["']?$/i.exec(first.raw);
    if (m) resolve(st, { ...c, argv: [{ value: 'git', raw: first.raw }, { value: m[1].toLowerCase(), raw: first.raw }, ...c.argv.slice(1)] }, depth);
    return;
  }
  const name = base(first)!;
  // A name the line made an alias of something else (`alias g=git`, `hash -p /usr/bin/git g`): what it runs.
  const alias = st.aliases.get(name);
  if (alias !== undefined && !c.via.includes(`alias ${name}`)) {
    if (alias === null) {
      st.out.dynamicNames.push(c);
      st.out.commands.push(c);
      return;
    }
    resolve(st, { ...c, argv: [...alias, ...c.argv.slice(1)], via: [...c.via, `alias ${name}`] }, depth);
    return;
  }
  st.out.commands.push(c);
  // git's dashed commands (`git-commit`, `/usr/lib/git-core/git-update-ref`): `git <sub>`.
  if (/^git-[a-z][a-z0-9-]*$/.test(name) && name !== 'git-kizu') {
    resolve(st, { ...c, argv: [{ value: 'git', raw: first.raw }, { value: name.slice(4), raw: first.raw }, ...c.argv.slice(1)] }, depth);
    return;
  }
  // Environment variables and git config values that git (or another program) runs as shell code.
  for (const a of c.assignments) {
    if (!COMMAND_VARS.has(a.name)) continue;
    if (a.value.value === null) st.out.dynamicNames.push(c);
    else readText(st, a.value.value, depth + 1, [...c.via, a.name]);
  }
  if (name === 'git') {
    let i = 1;
    for (; i < c.argv.length; i++) {
      const v = c.argv[i].value;
      if (v === null || !v.startsWith('-')) break;
      let kv: string | null | undefined;
      if (v === '-c') kv = c.argv[++i]?.value;
      else if (v.startsWith('-c')) kv = v.slice(2);
      else if (['-C', '--git-dir', '--work-tree', '--namespace', '--config-env'].includes(v)) i++;
      const eq = kv ? kv.indexOf('=') : -1;
      if (kv && eq > 0 && COMMAND_KEYS.test(kv.slice(0, eq))) readText(st, kv.slice(eq + 1).replace(/^!/, ''), depth + 1, [...c.via, 'git -c']);
    }
    // `git config [options] <key> <value>` (and `git config set <key> <value>`) of such a key: its value is judged as code.
    if (c.argv[i]?.value === 'config') {
      const pos = c.argv.slice(i + 1).filter((w) => !(w.value ?? '').startsWith('-') && w.value !== 'set');
      if (pos.length >= 2 && COMMAND_KEYS.test(pos[0].value ?? '')) {
        if (pos[1].value === null) st.out.dynamicNames.push(c);
        else readText(st, pos[1].value.replace(/^!/, ''), depth + 1, [...c.via, 'git config']);
      }
    }
    gitRunsCommands(st, c, i, depth);
  }


  if (name === 'alias') {
    // `alias g=git`: later `g …` runs what the alias says (a simple one is seen through; any other is computed).
    for (const w of c.argv.slice(1)) {
      const v = w.value;
      if (v === null || !v.includes('=')) continue;
      const code = v.slice(v.indexOf('=') + 1).trim();
      st.aliases.set(v.slice(0, v.indexOf('=')), /^[\w./-]+$/.test(code) ? [{ value: code, raw: w.raw }] : null);
    }
  }
  if (name === 'hash') {
    // `hash -p /usr/bin/git g`: `g …` runs that file.
    const k = c.argv.findIndex((w) => w.value === '-p');
    if (k > 0) {
      const file = c.argv[k + 1];
      for (const w of c.argv.slice(k + 2)) if (w.value !== null && !w.value.startsWith('-')) st.aliases.set(w.value, file && file.value !== null ? [file] : null);
      if (c.argv.slice(k + 2).some((w) => w.value === null)) st.out.dynamicNames.push(c);
    }
    return;
  }
  if ((name === 'make' || name === 'gmake') && makeReadsUnseen(c)) {
    st.out.unseenCommands.push(c);
    return;
  }
  if (name === 'batch' || (name === 'at' && (c.argv.length === 1 || !c.argv.slice(1).every((w) => /^-[lrdcVq]/.test(w.value ?? '') || /^\d+$/.test(w.value ?? ''))))) {
    st.out.unseenCommands.push(c);
    return;
  }
  if (name === 'crontab' && !c.argv.slice(1).every((w) => w.value === '-l' || w.value === '-u' || /^-[uli]$/.test(w.value ?? '') || c.argv[c.argv.indexOf(w) - 1]?.value === '-u')) {
    st.out.unseenCommands.push(c);
    return;
  }
  if (name === 'parallel') {
    // parallel [options] CMD … ::: args: CMD runs through a shell with each argument; without CMD it reads commands from stdin.
    let k = 1;
    while (k < c.argv.length && (c.argv[k].value ?? '').startsWith('-') && !(c.argv[k].value ?? '').startsWith(':::')) k++;
    const end = c.argv.findIndex((w, j) => j >= k && /^:::/.test(w.value ?? ''));
    const cmd = c.argv.slice(k, end < 0 ? undefined : end);
    if (!cmd.length) st.out.unseenCommands.push(c);
    else if (cmd.some((w) => w.value === null)) st.out.dynamicNames.push(c);
    else readText(st, cmd.map((w) => w.value).join(' '), depth + 1, [...c.via, 'parallel']);
    return;
  }
  if (name === 'alias' || name === 'trap') {
    // alias NAME='code' (expanded where aliases are on), trap 'code' SIGNAL: shell code to read.
    const codes = name === 'alias' ? c.argv.slice(1).filter((w) => (w.value ?? '').includes('=')).map((w) => w.value!.slice(w.value!.indexOf('=') + 1)) : c.argv[1]?.value ? [c.argv[1].value] : [];
    if (c.argv.slice(1).some((w) => w.value === null)) st.out.dynamicNames.push(c);
    for (const code of codes) readText(st, code, depth + 1, [...c.via, name]);
    return;
  }
  if (name === 'source' || name === '.') {
    // A script file is not read (as for `sh file`); stdin and process substitution are.
    const f = c.argv[1];
    if (!f) return;
    if (f.value === null) st.out.shellsFromStdin.push(c);
    else if (/^\/dev\/(stdin|fd\/0)$|^\/proc\/self\/fd\/0$/.test(f.value)) {
      if (c.stdinText !== null) readText(st, c.stdinText, depth + 1, [...c.via, name]);
      else st.out.shellsFromStdin.push(c);
    }
    return;
  }
  if (name === 'ssh') {
    // ssh [options] host command…: the command runs in a shell (maybe on this machine).
    const withValue = new Set('BbcDEeFIiJLlmOoPpQRSWw'.split(''));
    let i = 1;
    while (i < c.argv.length && (c.argv[i].value ?? '').startsWith('-')) {
      const v = c.argv[i].value!;
      i += v.length === 2 && withValue.has(v[1]) ? 2 : 1;
    }
    const rest = c.argv.slice(i + 1);
    // `ssh host` runs what its stdin or the terminal types in, and any command runs in the
    // remote login's environment, without the agent's session variables: asked, and read.
    if (c.argv[i]) st.out.unseenCommands.push(c);
    if (!rest.length) return;
    if (rest.some((w) => w.value === null)) st.out.dynamicNames.push(c);
    else readText(st, rest.map((w) => w.value).join(' '), depth + 1, [...c.via, 'ssh']);
    return;
  }
  if (name === 'eval') {
    const args = c.argv.slice(1);
    if (args.some((w) => w.value === null)) {
      st.out.dynamicNames.push(c);
      return;
    }
    readText(st, args.map((w) => w.value).join(' '), depth + 1, [...c.via, 'eval']);
    return;
  }
  if (SHELLS.has(name) || (name === 'busybox' && SHELLS.has(base(c.argv[1]) ?? ''))) {
    shell(st, name === 'busybox' ? { ...c, argv: c.argv.slice(1) } : c, depth);
    return;
  }
  if (name === 'find') {
    find(st, c, depth);
    return;
  }
  if (name === 'perf' && c.argv.length > 2) {
    // perf stat|record|trace [options] CMD …: options with a value (-o, -e, ...) are skipped as far as they can be told.
    let k = 2;
    while (k < c.argv.length && (c.argv[k].value ?? '').startsWith('-')) k += /^-[oeCpGtu]$|^--(output|event|cpu|pid|tid|uid)$/.test(c.argv[k].value ?? '') ? 2 : 1;
    if (k < c.argv.length) resolve(st, { ...c, argv: c.argv.slice(k), via: [...c.via, 'perf'] }, depth);
    return;
  }
  if (name === 'tar') {
    // tar -I CMD / --use-compress-program=CMD / --to-command=CMD / --checkpoint-action=exec=CMD / -F|--info-script CMD runs CMD.
    const a = c.argv.slice(1);
    for (let k = 0; k < a.length; k++) {
      const v = a[k].value;
      let code: Word | undefined;
      if (v === null) continue;
      if (v === '-I' || v === '--use-compress-program' || v === '--to-command' || v === '-F' || v === '--info-script' || v === '--new-volume-script') code = a[++k];
      else if (/^--(use-compress-program|to-command|info-script|new-volume-script)=/.test(v)) code = { value: v.slice(v.indexOf('=') + 1), raw: v };
      else if (v.startsWith('--checkpoint-action=exec=')) code = { value: v.slice('--checkpoint-action=exec='.length), raw: v };
      else if (/^-I./.test(v)) code = { value: v.slice(2), raw: v };
      if (!code) continue;
      if (code.value === null) st.out.dynamicNames.push(c);
      else readText(st, code.value, depth + 1, [...c.via, 'tar']);
    }
  }
  const spec = WRAPPERS[name];
  if (!spec) return;
  const via = [...c.via, name];
  let i = 1;
  const assignments = [...c.assignments];
  let positionals = spec.positionals ?? 0;
  let shellString: Word | null = null;
  let sudoShell = false;
  while (i < c.argv.length) {
    const w = c.argv[i];
    const v = w.value;
    if (v === null) {
      // An argument the gate cannot read where options go: the command may hide behind it.
      st.out.dynamicNames.push({ ...c, argv: c.argv.slice(i), via });
      return;
    }
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('--') && v.length > 2) {
      const [opt, eq] = [v.split('=')[0], v.includes('=')];
      const takes = spec.longValue?.includes(opt);
      const valueWord = takes && !eq ? c.argv[i + 1] : undefined;
      const value = eq ? v.slice(v.indexOf('=') + 1) : valueWord?.value ?? null;
      if (['--split-string', '--command'].includes(opt)) shellString = eq ? { value, raw: v } : (valueWord ?? null);
      if (opt === '--shell' || opt === '--login') sudoShell = name === 'sudo' || sudoShell;
      i += takes && !eq ? 2 : 1;
      continue;
    }
    if (v.startsWith('-') && v.length > 1 && (!/^-\d/.test(v) || name === 'xargs')) {
      // A short-option cluster (xargs -0/-0r is an option, not a command named -0); a value option takes the rest, or the next word.
      let consumedNext = false;
      for (let k = 1; k < v.length; k++) {
        const ch = v[k];
        if ((name === 'sudo' && (ch === 's' || ch === 'i')) || (name === 'npx' && ch === 'c')) sudoShell = true;
        if (spec.shortValue?.includes(ch)) {
          const rest = v.slice(k + 1);
          const val: Word | undefined = rest ? { value: rest, raw: rest } : c.argv[i + 1];
          if ((ch === 'S' && name === 'env') || (ch === 'c' && ['su', 'runuser', 'script', 'flock', 'npx', 'sg'].includes(name))) shellString = val ?? null;
          if (!rest) consumedNext = true;
          break;
        }
      }
      i += consumedNext ? 2 : 1;
      continue;
    }
    if (name === 'nice' && /^-\d+$/.test(v)) {
      i++;
      continue;
    }
    if (name === 'env' && /^BASH_FUNC_[^=]*=/.test(v)) {
      // `env 'BASH_FUNC_f%%=() { …; }' bash -c f`: an exported function's body, run by the bash below.
      readText(st, 'f' + v.slice(v.indexOf('=') + 1), depth + 1, [...via, 'BASH_FUNC']);
      i++;
      continue;
    }
    if (spec.assigns && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      assignments.push({ name: v.slice(0, v.indexOf('=')), value: { value: v.slice(v.indexOf('=') + 1), raw: w.raw } });
      i++;
      continue;
    }
    if (positionals > 0 && !(name === 'flock' && shellString)) {
      positionals--;
      i++;
      continue;
    }
    break;
  }
  const rest = c.argv.slice(i);
  if (shellString) {
    if (shellString.value === null) {
      st.out.dynamicNames.push({ ...c, via });
      return;
    }
    const text = [shellString.value, ...rest.map((w) => w.value ?? w.raw)].join(' ');
    readText(st, text, depth + 1, via);
    return;
  }
  if ((name === 'watch' || (sudoShell && (name === 'sudo' || name === 'npx'))) && rest.length) {
    // watch runs its arguments through `sh -c`; so does sudo -s/-i and npx -c.
    if (rest.some((w) => w.value === null)) {
      st.out.dynamicNames.push({ ...c, via });
      return;
    }
    readText(st, rest.map((w) => w.value).join(' '), depth + 1, via);
    return;
  }
  if (!rest.length) {
    // `xargs -0 nice < f`, `xargs env`: the command these run is the first word xargs reads.
    if (c.openArgs && name !== 'xargs') st.out.dynamicNames.push({ ...c, via });
    return;
  }
  resolve(
    st,
    {
      argv: rest,
      assignments,
      redirects: c.redirects,
      inputs: c.inputs,
      via,
      openArgs: c.openArgs || name === 'xargs',
      stdinText: c.stdinText,
      stdinFromPipe: c.stdinFromPipe,
    },
    depth,
  );
}

/** A shell: its `-c` string, or the heredoc/here-string it reads; a shell reading a pipe or an unseen file is recorded. */
function shell(st: State, c: SimpleCommand, depth: number): void {
  const name = base(c.argv[0])!;
  const via = [...c.via, name];
  let i = 1;
  let dashC = false;
  let readsStdin = false;
  while (i < c.argv.length) {
    const v = c.argv[i].value;
    if (v === null) {
      if (c.argv[i].raw.startsWith('<(')) break; // a script file made by process substitution
      st.out.dynamicNames.push({ ...c, via });
      return;
    }
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    if (/^[-+]o$|^-O$|^\+O$/.test(v) || ['--rcfile', '--init-file'].includes(v)) {
      i += 2;
      continue;
    }
    if (v.startsWith('--')) {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v[0] === '-' && v.includes('c')) dashC = true;
      if (v[0] === '-' && v.includes('s')) readsStdin = true;
      i++;
      continue;
    }
    break;
  }
  const rest = c.argv.slice(i);
  if (dashC) {
    const code = rest[0];
    if (!code) return;
    if (code.value === null) {
      st.out.dynamicNames.push({ ...c, via });
      return;
    }
    readText(st, code.value, depth + 1, [...via, '-c']);
    return;
  }
  if (rest.length && !readsStdin) {
    // A script file: `bash <(curl …)` or `sh /dev/stdin` read what the gate cannot see.
    const f = rest[0];
    if (f.value === null || /^\/dev\/(stdin|fd\/)|^\/proc\/self\/fd\//.test(f.value) || f.raw.startsWith('<(')) st.out.shellsFromStdin.push({ ...c, via });
    return;
  }
  if (c.stdinText !== null) {
    readText(st, c.stdinText, depth + 1, [...via, '<<']);
    return;
  }
  // No program: it reads commands from a pipe, or from what is typed into it later (Codex's
  // write_stdin types into a running command without a hook); input from a file is a script.
  if (c.stdinFromPipe || !c.inputs.length) st.out.shellsFromStdin.push({ ...c, via });
}

/** `find … -exec CMD … ;` / `-execdir` / `-ok` / `-okdir`: CMD is run (with open arguments); `-delete` deletes the start paths' files. */
function find(st: State, c: SimpleCommand, depth: number): void {
  const words = c.argv;
  const starts: Word[] = [];
  let i = 1;
  while (i < words.length && !(words[i].value ?? '').match(/^[-(!]/) && words[i].value !== null) starts.push(words[i++]);
  for (; i < words.length; i++) {
    const v = words[i].value;
    if (v === '-delete' || v === '-fprint' || v === '-fprintf' || v === '-fls') {
      st.out.commands.push({ ...c, argv: [{ value: 'rm', raw: 'find -delete' }, ...(starts.length ? starts : [{ value: '.', raw: '.' }])], via: [...c.via, 'find'] });
    }
    if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      let j = i + 1;
      while (j < words.length && words[j].value !== ';' && words[j].value !== '+') j++;
      const argv = words.slice(i + 1, j);
      // `{}` is each file found: under the start paths, so a file-changing command is judged on those (`-exec chmod 644 {} +` on .claude).
      const roots = starts.length ? starts : [{ value: '.', raw: '.' }];
      // (The grammar reads a bare `{}` as braces, so its text is used.)
      const withRoots = argv.flatMap((w) => {
        const v = w.value ?? (w.raw === '{}' ? '{}' : null);
        return v !== null && v.includes('{}') ? roots.map((r) => ({ value: r.value === null ? null : v.split('{}').join(r.value), raw: w.raw })) : [w];
      });
      if (argv.length) resolve(st, { ...c, argv: withRoots, via: [...c.via, 'find'], openArgs: true, redirects: [] }, depth);
      i = j;
    }
  }
}

/** A variable_assignment node's `NAME=value` text, with the value's alternatives (null when computed). */
function valuesOfAssignment(st: State, n: TsNode): string[] | null {
  const value = n.childForFieldName('value');
  const name = n.childForFieldName('name')?.text ?? '';
  if (!value) return [n.text];
  const vs = valuesOf(st, value);
  return vs ? vs.map((v) => `${name}=${v}`) : null;
}

/** True for a `make` that reads its makefile from stdin, a pipe or a file the gate cannot see (`-f /dev/stdin`, `-f -`, `-f <(…)`), or is given rules as text (`--eval`). */
function makeReadsUnseen(c: SimpleCommand): boolean {
  const a = c.argv.slice(1);
  const unseen = (w: Word | undefined) => !w || w.value === null || /^-$|^\/dev\/(stdin|fd\/)|^\/proc\/self\/fd\//.test(w.value) || w.raw.startsWith('<(');
  for (let i = 0; i < a.length; i++) {
    const v = a[i].value ?? '';
    if (v === '-f' || v === '--file' || v === '--makefile') {
      if (unseen(a[i + 1])) return true;
      i++;
    } else if (/^-f./.test(v) && !v.startsWith('--')) {
      if (unseen({ value: v.slice(2), raw: a[i].raw.slice(2) })) return true;
    } else if (/^--(file|makefile)=/.test(v)) {
      if (unseen({ value: v.slice(v.indexOf('=') + 1), raw: v })) return true;
    } else if (v === '-E' || v.startsWith('--eval')) return true;
  }
  return false;
}

/**
 * Commands git runs for a subcommand (`at`: where it is in `c.argv`): `rebase --exec|-x CMD`,
 * `bisect run CMD…`, `submodule foreach CMD…`, `filter-branch --*-filter CMD`: read as shell code.
 */
function gitRunsCommands(st: State, c: SimpleCommand, at: number, depth: number): void {
  const sub = c.argv[at]?.value;
  const args = c.argv.slice(at + 1);
  const via = [...c.via, `git ${sub}`];
  const code = (w: Word | undefined) => {
    if (!w) return;
    if (w.value === null) st.out.dynamicNames.push(c);
    else readText(st, w.value, depth + 1, via);
  };
  // git runs these words as `sh -c '<first> "$@"' <rest>`: the rest are arguments of the first (`sh -c "…"` stays one word).
  const words = (ws: Word[]) => {
    if (!ws.length) return;
    if (ws[0].value === null) st.out.dynamicNames.push(c);
    else if (ws.length === 1) readText(st, ws[0].value, depth + 1, via);
    else resolve(st, { ...c, argv: ws, via }, depth);
  };
  // `--upload-pack`, `--receive-pack`, `--exec` (fetch, ls-remote, push, archive, clone -u), `grep -O`: a command git runs.
  for (let k = 0; k < args.length; k++) {
    const v = args[k].value;
    if (v === null) continue;
    if (/^--(upload-pack|receive-pack)$/.test(v) || (v === '--exec' && sub !== 'rebase') || (v === '-u' && sub === 'clone')) code(args[++k]);
    else if (/^--(upload-pack|receive-pack|open-files-in-pager)=/.test(v) || (v.startsWith('--exec=') && sub !== 'rebase')) code({ value: v.slice(v.indexOf('=') + 1), raw: v });
    else if (sub === 'grep' && /^-O./.test(v)) code({ value: v.slice(2), raw: v });
    else if (sub === 'grep' && (v === '-O' || v === '--open-files-in-pager')) st.out.unseenCommands.push(c);
    else if (/^ext::/i.test(v)) {
      // An ext:: URL runs its command: words split at unescaped spaces (`% ` is a space, `%%` a percent sign).
      const argv = v.slice(5).split(/(?<!%) /).filter(Boolean).map((x) => {
        const val = x.replace(/% /g, ' ').replace(/%%/g, '%');
        return { value: val, raw: v };
      });
      if (argv.length) resolve(st, { ...c, argv, via }, depth);
    }
  }
  if (sub === 'rebase' || sub === 'filter-branch') {
    for (let k = 0; k < args.length; k++) {
      const v = args[k].value;
      if (v === null) continue;
      if (sub === 'rebase' && (v === '--exec' || v === '-x')) code(args[++k]);
      else if (sub === 'rebase' && v.startsWith('--exec=')) code({ value: v.slice(7), raw: v });
      else if (sub === 'rebase' && /^-x./.test(v)) code({ value: v.slice(2), raw: v });
      else if (sub === 'filter-branch' && /^--[a-z-]+-filter$/.test(v)) code(args[++k]);
    }
  } else if (sub === 'bisect' && args[0]?.value === 'run') words(args.slice(1));
  else if (sub === 'submodule') {
    const k = args.findIndex((w) => w.value === 'foreach');
    if (k < 0) return;
    let j = k + 1;
    while (j < args.length && /^(--recursive|-q|--quiet)$/.test(args[j].value ?? '')) j++;
    words(args.slice(j));
  }
}

function hasSubstitution(n: TsNode): boolean {
  if (n.type === 'command_substitution') return true;
  for (const c of n.namedChildren) if (c && hasSubstitution(c)) return true;
  return false;
}
