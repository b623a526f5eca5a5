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
const COMMAND_VARS: ReadonlySet<string> = new Set(['GIT_EDITOR', 'EDITOR', 'VISUAL', 'GIT_SEQUENCE_EDITOR', 'GIT_PAGER', 'PAGER', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'PROMPT_COMMAND', 'BASH_ENV', 'ENV']);

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
  const out: ShellReading = { commands: [], unreadable: null, dynamicNames: [], shellsFromStdin: [] };
  const st = { nodes: 0, deadline: Date.now() + BUDGET.parseMs, parser, home, out };
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
  const out: ShellReading = { commands: [], unreadable: null, dynamicNames: [], shellsFromStdin: [] };
  const st: State = { nodes: 0, deadline: Date.now() + BUDGET.parseMs, parser: null as unknown as TsParser, home, out };
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
}

/** Parses `text` (shell code at nesting `depth`, run under wrappers `via`) and collects its commands. */
function readText(st: State, text: string, depth: number, via: string[]): void {
  if (depth > MAX_DEPTH) throw new Unreadable('over-budget', `shell code nested more than ${MAX_DEPTH} levels deep`);
  if (text.length > BUDGET.maxChars) throw new Unreadable('over-budget', `command longer than ${BUDGET.maxChars} characters`);
  const tree = st.parser.parse(text, null, {
    progressCallback: (() => Date.now() > st.deadline) as unknown as () => void,
  });
  if (!tree) throw new Unreadable('over-budget', `parsing took longer than ${BUDGET.parseMs} ms`);
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
        if (red.out) reds.push(red.out);
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
      st.out.commands.push({ ...bare(via, []), assignments: [{ name, value: value ? wordOf(st, value) : { value: '', raw: '' } }] });
      if (value) walkInside(st, value, depth, via);
      return;
    }
    case 'declaration_command':
    case 'unset_command': {
      // export/declare/typeset/local/readonly NAME=VALUE ...: as a command (its words) with the assignments.
      const argv: Word[] = [];
      const assignments: SimpleCommand['assignments'] = [];
      for (const c of n.children) {
        if (!c) continue;
        if (c.type === 'variable_assignment') {
          const value = c.childForFieldName('value');
          assignments.push({ name: c.childForFieldName('name')?.text ?? '', value: value ? wordOf(st, value) : { value: '', raw: '' } });
          argv.push({ value: c.text, raw: c.text });
          if (value) walkInside(st, value, depth, via);
        } else {
          argv.push(c.isNamed ? wordOf(st, c) : { value: c.text, raw: c.text });
          walkInside(st, c, depth, via);
        }
      }
      st.out.commands.push({ ...bare(via, redirects), argv, assignments });
      return;
    }
    default:
      for (const c of n.namedChildren) if (c) walk(st, c, depth, via, redirects, piped);
  }
}

/** Walks a word's inside for commands it runs (`$(…)`, backticks, `<(…)`). */
function walkInside(st: State, n: TsNode, depth: number, via: string[]): void {
  tick(st);
  if (n.type === 'command_substitution' || n.type === 'process_substitution') {
    for (const c of n.namedChildren) if (c) walk(st, c, depth, via, [], false);
    return;
  }
  for (const c of n.namedChildren) if (c) walkInside(st, c, depth, via);
}

function bare(via: string[], redirects: Redirect[]): SimpleCommand {
  return { argv: [], assignments: [], redirects, inputs: [], via, openArgs: false, stdinText: null, stdinFromPipe: false };
}

/** A redirect node: an output redirection's target, or a heredoc's / here-string's static text. */
function redirectOf(st: State, r: TsNode, depth: number, via: string[]): { out: Redirect | null; stdinText: string | null; input?: Word } {
  tick(st);
  if (r.type === 'heredoc_redirect') {
    const body = r.namedChildren.find((c) => c?.type === 'heredoc_body');
    for (const c of r.namedChildren) if (c && c.type !== 'heredoc_body') walkInside(st, c, depth, via);
    if (body) walkInside(st, body, depth, via);
    // Also an output redirection on the heredoc line (`cat <<EOF > .git/x`).
    const dest = r.childForFieldName('destination') ?? r.namedChildren.find((c) => c?.type === 'file_redirect');
    let out: Redirect | null = null;
    if (dest?.type === 'file_redirect') out = redirectOf(st, dest, depth, via).out;
    return { out, stdinText: body ? body.text : '' };
  }
  if (r.type === 'herestring_redirect') {
    const w = r.namedChildren.find((c) => c && c.type !== 'file_descriptor');
    if (w) walkInside(st, w, depth, via);
    const v = w ? wordOf(st, w) : { value: '', raw: '' };
    return { out: null, stdinText: v.value ?? v.raw };
  }
  // file_redirect: [descriptor] operator destination
  let op = '';
  for (const c of r.children) if (c && !c.isNamed) op += c.type;
  const dest = r.childForFieldName('destination');
  if (dest) walkInside(st, dest, depth, via);
  if (dest && op === '<') return { out: null, stdinText: null, input: wordOf(st, dest) };
  if (!dest || !/>/.test(op)) return { out: null, stdinText: null };
  const target = wordOf(st, dest);
  // `>&2`, `2>&1`: a file descriptor, not a file.
  if ((op === '>&' || op === '<&' || op === '>&-') && /^\d+-?$|^-$/.test(target.value ?? '')) return { out: null, stdinText: null };
  return { out: { op, target }, stdinText: null };
}

// ---------------------------------------------------------------------------------------
// Words

/** The value of a word node when it is static (quotes, escapes and `$'…'` applied; `~` expanded), else null. */
function wordOf(st: State, n: TsNode): Word {
  return { value: staticValue(st, n, true), raw: n.text };
}

function staticValue(st: State, n: TsNode, first: boolean): string | null {
  tick(st);
  switch (n.type) {
    case 'word':
    case 'command_name': {
      if (n.type === 'command_name') {
        const c = n.namedChildren[0];
        return c ? staticValue(st, c, first) : null;
      }
      const t = n.text;
      // Unquoted glob and brace characters expand at run time.
      if (/(^|[^\\])[*?[]/.test(t) || (/(^|[^\\])\{/.test(t) && /(,|\.\.)/.test(t))) return null;
      let v = t.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
      if (first && (v === '~' || v.startsWith('~/'))) v = st.home + v.slice(1);
      return v;
    }
    case 'number':
    case 'variable_name':
      return n.text;
    case 'raw_string':
      return n.text.slice(1, -1);
    case 'ansi_c_string':
      return ansiC(n.text.slice(2, -1));
    case 'string':
    case 'translated_string': {
      if (n.namedChildren.some((c) => c && c.type !== 'string_content')) return null;
      const inner = n.type === 'translated_string' ? n.text.slice(2, -1) : n.text.slice(1, -1);
      return inner.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
    }
    case 'concatenation': {
      // `.{g,x}it` reads as words `.`, `{`, `g,x`, `}`, `it`: a brace expansion, not one static word.
      if (n.namedChildren.some((c) => c?.type === 'word' && c.text === '{')) return null;
      let v = '';
      let i = 0;
      for (const c of n.namedChildren) {
        if (!c) continue;
        const x = staticValue(st, c, first && i === 0);
        if (x === null) return null;
        v += x;
        i++;
      }
      // Text between named children (anonymous tokens) makes it dynamic-looking: compare lengths.
      return v;
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
  const argv: Word[] = [];
  const reds = [...redirects];
  inputs = [...inputs];
  for (const c of n.children) {
    if (!c || !c.isNamed) continue;
    if (c.type === 'variable_assignment') {
      const value = c.childForFieldName('value');
      assignments.push({ name: c.childForFieldName('name')?.text ?? '', value: value ? wordOf(st, value) : { value: '', raw: '' } });
      if (value) walkInside(st, value, depth, via);
    } else if (c.type === 'file_redirect' || c.type === 'heredoc_redirect' || c.type === 'herestring_redirect') {
      const red = redirectOf(st, c, depth, via);
      if (red.out) reds.push(red.out);
      if (red.input) inputs.push(red.input);
      if (red.stdinText !== null) stdinText = red.stdinText;
    } else if (c.type === 'subscript' || c.type === 'comment') {
      continue;
    } else {
      argv.push(wordOf(st, c));
      walkInside(st, c, depth, via);
    }
  }
  resolve(st, { argv, assignments, redirects: reds, inputs, via, openArgs: false, stdinText, stdinFromPipe: piped }, depth);
}

/** Basename of a static command word (`/usr/bin/git` → `git`). */
export function base(w: Word | undefined): string | null {
  if (!w || w.value === null) return null;
  const v = w.value;
  const i = Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\'));
  // Lower case, without `.exe`: macOS and Windows find `GIT` and `git.exe` as git.
  return (i >= 0 ? v.slice(i + 1) : v).toLowerCase().replace(/\.exe$/, '');
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
    return;
  }
  const name = base(first)!;
  st.out.commands.push(c);
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
    if (v.startsWith('-') && v.length > 1 && !/^-\d/.test(v)) {
      // A short-option cluster; a value option takes the rest, or the next word.
      let consumedNext = false;
      for (let k = 1; k < v.length; k++) {
        const ch = v[k];
        if ((name === 'sudo' && (ch === 's' || ch === 'i')) || (name === 'npx' && ch === 'c')) sudoShell = true;
        if (spec.shortValue?.includes(ch)) {
          const rest = v.slice(k + 1);
          const val: Word | undefined = rest ? { value: rest, raw: rest } : c.argv[i + 1];
          if ((ch === 'S' && name === 'env') || (ch === 'c' && ['su', 'runuser', 'script', 'flock', 'npx'].includes(name))) shellString = val ?? null;
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
  if (!rest.length) return;
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
      if (argv.length) resolve(st, { ...c, argv, via: [...c.via, 'find'], openArgs: true, redirects: [] }, depth);
      i = j;
    }
  }
}
