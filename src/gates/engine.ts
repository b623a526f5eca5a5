/**
 * The pre-tool gate's engine: applies the policy table (./policy.ts) to one tool call
 * (src/hooks/contract.ts `ToolCall`) and returns the verdict of the strongest matching rule.
 * - A write (Write/Edit/... or an apply_patch) is judged by its paths (resolved: relative to
 *   the working directory, `..`, `~`, symbolic links of the part that exists, any case) and,
 *   for the root `package.json`, by whether it changes a key git-kizu or a hook manager reads.
 * - A shell command first meets a cheap filter ({@link mayMatter}); only text that may matter
 *   is parsed (./shell.ts, tree-sitter-bash loaded then), and every command it runs is judged
 *   by the command rules, and its output redirections and file arguments by the path rules.
 * Fails closed: text that cannot be parsed within the budget is `unparsable`/`over-budget`.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PlannedWrite, ToolCall } from '../hooks/contract.js';
import { FILE_WRITERS, INTERPRETERS, PACKAGE_JSON_REVIEW_KEYS, RULES, ruleOf, type PathPattern, type RuleId, type Strength } from './policy.js';
import type { ShellReading, SimpleCommand, Word } from './shell.js';

/** Where the call happens. */
export interface GateContext {
  /** The agent's working directory (absolute). */
  cwd: string;
  /** The home directory (absolute). */
  home: string;
  /**
   * More absolute paths (files, or directories with everything under them) judged as the
   * home's hook files (rule `user-hook-files`): where the agents' user settings live when the
   * environment moves them (`$CLAUDE_CONFIG_DIR/settings.json`, `$CODEX_HOME`, ...).
   */
  userHookPaths?: string[];
}

/** What the gate decided about a call that may not simply run. */
export interface Verdict {
  strength: Exclude<Strength, 'pass'>;
  rule: RuleId;
  /** What matched: the path (relative to the root or home when inside), or the command's text. */
  subject: string;
}

/**
 * True when a shell command line may matter to the gate and must be parsed: it has quoting,
 * escapes, expansions, globs or braces (which can spell any name), or names git, git-kizu,
 * a hook or config file, a shell, `eval`, a wrapper, an interpreter or a terminal program
 * that runs what is typed into it (policy.ts `isInteractive`). A line without any of
 * these can only run literal commands that none of the rules match (`ls`, `npm test`).
 */
export function mayMatter(command: string): boolean {
  // Another HOME is another global git config (upper case: \bhome\b in a path is not it).
  if (/\b(HOME|XDG_CONFIG_HOME)=/.test(command)) return true;
  // A redirection or a file-writing command: its path may reach a guarded file through a
  // symbolic link (`c/settings.json` where c is `.claude`), which no text shows. Plain words are
  // still read without the parser (readPlainShell); a redirection loads it.
  if (/>/.test(command) || WRITER_WORD.test(command)) return true;
  return /[$`\\'"?*[{]|git|kizu|hook|husky|lefthook|commit|pre-commit|\.claude|\.codex|\.gemini|\.cursor|\.config|package\.json|sh\b|eval|source|exec|xargs|sudo|doas|env\b|python|node|perl|ruby|php|awk|deno|bun|osascript|find|busybox|watch|flock|script|su\b|runuser|patch|ssh|alias|trap|coproc|unset|claudecode|codex_|gemini_cli|copilot_cli|cursor_agent|ai_agent|make\s.*(-f|--(make)?file|--eval|-E)|parallel|\bat\b|batch|crontab|hash|tmux|screen|expect|unbuffer|socat|irb|pry|vi|nano|emacs|less|more|most|gdb|lldb|sqlite|duckdb|mysql|mariadb|psql|julia|wish|gnuplot|octave|\/etc\//i.test(
    command,
  );
}

/** A word naming one of policy.ts `FILE_WRITERS` (`cp`, `mv`, `tee`, ...). */
const WRITER_WORD = new RegExp(`(^|[\\s;&|(/])(${[...FILE_WRITERS].map((w) => w.replace(/[-]/g, '\\-')).join('|')})(\\s|$)`);

/**
 * Judges one tool call.
 * @returns the verdict of the strongest matching rule (the first deny, else the first ask),
 *   or null when the call may run.
 * @throws Error when the bash grammar cannot be loaded (a broken install): the hook fails closed.
 */
export async function judge(call: ToolCall, ctx: GateContext): Promise<Verdict | null> {
  if (call.kind === 'other') return null;
  if (call.kind === 'write') {
    const repo = findRepo(ctx.cwd);
    const verdicts = call.writes.map((w) => judgeWrite(w, ctx, repo)).filter((v): v is Verdict => v !== null);
    return strongest(verdicts);
  }
  if (!mayMatter(call.command)) return null;
  const { readPlainShell, readShell } = await import('./shell.js');
  let reading = readPlainShell(call.command, ctx.home);
  if (!reading) {
    const { parserFor } = await import('../syntax/grammars.js');
    reading = readShell(await parserFor('bash'), call.command, ctx.home);
  }
  return judgeReading(reading, call.command, ctx);
}

/** The verdicts of a shell reading (exported for tests). */
export function judgeReading(reading: ShellReading, text: string, ctx: GateContext): Verdict | null {
  const excerpt = (s: string) => (s.length > 200 ? s.slice(0, 200) + '…' : s);
  if (reading.unreadable) return { strength: ruleOf(reading.unreadable.why).strength as Verdict['strength'], rule: reading.unreadable.why, subject: `${excerpt(text)} (${reading.unreadable.detail})` };
  const out: Verdict[] = [];
  const repo = findRepo(ctx.cwd);
  // Variables the line itself sets to static values (`D=.git; rm $D/index`), and the directories
  // it changes into (`cd .git/hooks && rm pre-commit`): relative paths are judged from each.
  const vars = new Map<string, string>([['HOME', ctx.home], ['PWD', ctx.cwd]]);
  for (const c of reading.commands) for (const a of c.assignments) if (a.value.value !== null) vars.set(a.name, a.value.value);
  // The directories a command may run in, in the order of the line: after `cd D`, D (and the
  // one before, when D does not exist and the cd would fail); null for one the gate cannot know.
  let dirs: (string | null)[] = [ctx.cwd];
  // `shopt -s cdable_vars` (cd X goes to $X), `nocaseglob`/`nocasematch` (a glob may match .CLAUDE as .claude) set earlier in the line.
  const shopts = new Set<string>();
  for (const c of reading.commands) {
    const n = baseName(c.argv[0]?.value ?? null);
    if (n === 'shopt' && c.argv.some((w) => w.value === '-s')) for (const w of c.argv.slice(1)) shopts.add(w.value ?? '*');
    if (n === 'cd' || n === 'pushd' || n === 'popd') {
      const t = c.argv.slice(1).find((w) => !(w.value ?? '').startsWith('-') || w.value === '-');
      const v = t ? (t.value ?? substitute(t.raw, vars)) : n === 'pushd' ? null : ctx.home;
      const from = dirs.find((d): d is string => d !== null) ?? ctx.cwd;
      // Where the gate cannot know: `cd -` (OLDPWD), popd and pushd's stack (`+1`, no argument), a
      // name looked up in CDPATH (set in the line or the environment), a variable's name under cdable_vars.
      const bareName = v !== null && !path.isAbsolute(v) && !/^\.\.?(\/|$)/.test(v) && !v.startsWith('~');
      const otherTilde = v !== null && v.startsWith('~') && v !== '~' && !v.startsWith('~/'); // `~-` is OLDPWD, `~+N` the stack
      const cdpath = vars.has('CDPATH') || c.assignments.some((a) => a.name === 'CDPATH') || !!process.env.CDPATH;
      const unknown = n === 'popd' || v === null || v === '-' || otherTilde || /^[+-]\d+$/.test(v) || (bareName && (cdpath || shopts.has('cdable_vars') || shopts.has('*')));
      const to = unknown ? null : path.resolve(from, v === '~' || v.startsWith('~/') ? ctx.home + v.slice(1) : v);
      dirs = to === null ? [null] : existsSync(to) ? [to] : [to, ...dirs];
    }
    const name = baseName(c.argv[0]?.value ?? null);
    const shown = excerpt(c.argv.map((w) => w.raw).join(' ') || c.redirects.map((r) => `${r.op} ${r.target.raw}`).join(' ') || c.assignments.map((a) => `${a.name}=${a.value.raw}`).join(' '));
    for (const r of RULES) {
      if (r.match.on !== 'command' || r.strength === 'pass') continue;
      if (!r.match.names.includes('*') && (name === null || !r.match.names.includes(name))) continue;
      if (r.match.test({ ...c, argv: name ? [{ value: name, raw: c.argv[0].raw }, ...c.argv.slice(1)] : c.argv })) out.push({ strength: r.strength, rule: r.id, subject: shown });
    }
    for (const target of [...writtenPaths(c, name), ...patchedPaths(c, name, dirs.find((d): d is string => d !== null) ?? ctx.cwd)]) {
      if (target.value === null && /[*?[]/.test(target.raw) && (shopts.has('nocaseglob') || shopts.has('nocasematch') || shopts.has('*'))) {
        // After `shopt -s nocaseglob`, `.CLAUD[E]` matches `.claude`: a glob written to is computed (and still judged as written).
        out.push({ strength: ruleOf('computed-path').strength as Verdict['strength'], rule: 'computed-path', subject: shown });
      }
      for (const dir of dirs) {
        if (dir === null) {
          // A directory the gate cannot know (`cd "$(git rev-parse --git-dir)"`) and a relative path written there.
          const rel = target.value ?? target.raw;
          if (!path.isAbsolute(rel) && !rel.startsWith('~')) out.push({ strength: ruleOf('dynamic-command').strength as Verdict['strength'], rule: 'dynamic-command', subject: shown });
          continue;
        }
        const v = judgePathWord(target, { ...ctx, cwd: dir }, repo, c, vars);
        if (v) out.push(v);
      }
    }
    if (((c.openArgs && c.via.includes('xargs')) || c.via.includes('parallel')) && name !== null && (name === 'git' || name === 'git-kizu' || FILE_WRITERS.has(name) || openCode(c, name))) {
      out.push({ strength: ruleOf('open-arguments').strength as Verdict['strength'], rule: 'open-arguments', subject: shown });
    }
  }
  for (const c of reading.dynamicNames) out.push({ strength: ruleOf('dynamic-command').strength as Verdict['strength'], rule: 'dynamic-command', subject: excerpt(c.argv.map((w) => w.raw).join(' ')) });
  for (const c of reading.computedVarNames) out.push({ strength: ruleOf('computed-variable-name').strength as Verdict['strength'], rule: 'computed-variable-name', subject: excerpt(c.argv.map((w) => w.raw).join(' ')) });
  for (const c of reading.unseenCommands) out.push({ strength: ruleOf('runs-unseen-commands').strength as Verdict['strength'], rule: 'runs-unseen-commands', subject: excerpt(c.argv.map((w) => w.raw).join(' ')) });
  for (const c of reading.shellsFromStdin) out.push({ strength: ruleOf('shell-from-stdin').strength as Verdict['strength'], rule: 'shell-from-stdin', subject: excerpt(c.argv.map((w) => w.raw).join(' ')) });
  return strongest(out);
}

function strongest(vs: Verdict[]): Verdict | null {
  return vs.find((v) => v.strength === 'deny') ?? vs.find((v) => v.strength === 'ask') ?? null;
}

/**
 * True for an interpreter whose code may come from the open arguments xargs adds: one given no
 * program or `-c`/`-e` code (`xargs -0 python3 < f`, the input holding `-c` and the code),
 * and a database shell (`xargs sqlite3 db`: each argument is SQL or a dot-command).
 */
function openCode(c: SimpleCommand, name: string): boolean {
  if (!INTERPRETERS.test(name)) return false;
  if (/^(sqlite3?|duckdb|mysql|mariadb|psql)$/i.test(name)) return true;
  const args = c.argv.slice(1);
  // A program argument (awk's program, python's script) or a -c/-e code option: the open arguments are its data.
  return !args.some((w) => !(w.value ?? '').startsWith('-') || /^-(c|e|E|r|-eval|-exec|-command)$|^-[a-zA-Z]*[ce]$/.test(w.value ?? ''));
}

function baseName(v: string | null): string | null {
  if (v === null) return null;
  const i = Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\'));
  return (i >= 0 ? v.slice(i + 1) : v).toLowerCase().replace(/\.exe$/, '').replace(/^git-kizu\.[cm]?js$/, 'git-kizu');
}

/**
 * The words of a command that name files it writes: its output redirections' targets, and
 * for the file-writing commands of policy.ts `FILE_WRITERS` their non-option arguments (for
 * `cp`, `install` and `rsync` only the destination; `dd` its `of=`; `sed`/`perl` only with
 * `-i`; `git rm|mv` their paths).
 */
function writtenPaths(c: SimpleCommand, name: string | null): Word[] {
  const out: Word[] = c.redirects.map((r) => r.target);
  if (name === null) return out;
  const args = c.argv.slice(1);
  // Any command's output file option (`sort -o f`, `git diff --output=f`), except where -o means something else.
  if (!['ls', 'grep', 'rg', 'egrep', 'fgrep', 'ps', 'ssh', 'mount', 'cat', 'head', 'tail', 'find'].includes(name)) {
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value ?? '';
      if ((v === '-o' || v === '--output' || v === '--output-file' || v === '--log-file') && args[i + 1]) out.push(args[i + 1]);
      const m = /^--(output|output-file|log-file|output-document)=(.*)$/.exec(v);
      if (m) out.push({ value: m[2], raw: m[2] });
    }
  }
  let positional: Word[] = [];
  let afterDashes = false;
  for (const w of args) {
    if (!afterDashes && w.value === '--') {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && w.value !== null && w.value.startsWith('-') && w.value.length > 1) continue;
    positional.push(w);
  }
  if (name === 'git') {
    // Paths are relative to `--work-tree` or `-C` when given (`git --work-tree=.claude checkout s -- settings.json`: tester #155-#157).
    const root: string[] = [];
    for (let k = 0; k < args.length && (args[k].value ?? '-').startsWith('-'); k++) {
      const v = args[k].value;
      if (v === '-C' || v === '--work-tree') root.push(args[++k]?.value ?? '\0');
      else if (v?.startsWith('--work-tree=')) root.push(v.slice(12));
      else if (v === null || v === '-c' || v === '--git-dir' || v === '--namespace') k++;
    }
    if (root.length) {
      // The same command without -C/--work-tree and their values, its paths then put under that folder.
      const argv = c.argv.filter((w, k) => {
        const prev = c.argv[k - 1]?.value;
        return !(w.value === '-C' || w.value === '--work-tree' || (w.value ?? '').startsWith('--work-tree=') || prev === '-C' || prev === '--work-tree');
      });
      const inner = writtenPaths({ ...c, redirects: [], argv }, name);
      const dir = root.includes('\0') ? null : path.join(...root);
      return [...out, ...inner.map((w) => (dir === null || w.value === null ? { value: null, raw: w.raw } : { value: path.isAbsolute(w.value) ? w.value : path.join(dir, w.value), raw: w.raw }))];
    }
    // git rm|mv, and git checkout|restore of paths (which writes them from the index or a commit the agent may have made),
    // and update-index entries put straight into the index (`--cacheinfo mode,oid,path`).
    const i = args.findIndex((w) => w.value === null || !w.value.startsWith('-'));
    const sub = i >= 0 ? args[i].value : null;
    const rest = i >= 0 ? args.slice(i + 1) : [];
    // A folder every written file goes under: `checkout-index --prefix=.git/refs/`, `apply|am --directory=.claude`, `read-tree --prefix=`.
    if (sub === 'checkout-index' || sub === 'apply' || sub === 'am' || sub === 'read-tree') {
      const under: Word[] = [];
      rest.forEach((w, k) => {
        const m = /^--(prefix|directory)(=?)([\s\S]*)$/.exec(w.value ?? '');
        if (w.value === null && /^--(prefix|directory)=/.test(w.raw)) under.push({ value: null, raw: w.raw });
        else if (m && m[2]) under.push({ value: m[3], raw: w.raw });
        else if (m && !m[3] && rest[k + 1]) under.push(rest[k + 1]);
      });
      out.push(...under);
    }
    // The folder a new repository or working tree is written into (`git clone . .husky`: the repository's own hooks land there).
    if (sub === 'clone' || sub === 'init' || (sub === 'submodule' && rest[0]?.value === 'add') || (sub === 'worktree' && rest[0]?.value === 'add')) {
      const words = (sub === 'clone' || sub === 'init' ? rest : rest.slice(1)).filter((w) => !(w.value ?? '').startsWith('-'));
      out.push(...(sub === 'init' || sub === 'worktree' ? words.slice(0, 1) : words.slice(1)));
    }
    if (sub === 'rm' || sub === 'mv') return [...out, ...rest.filter((w) => !(w.value ?? '').startsWith('-'))];
    if (sub === 'checkout' || sub === 'restore') {
      const dd = rest.findIndex((w) => w.value === '--');
      // Without `--`, a computed word or the value of -b/-B/--orphan is a branch or commit name (rule git-computed-word judges a computed one).
      const named = rest.filter((w, k) => !(w.value ?? '').startsWith('-') && w.value !== null && !['-b', '-B', '--orphan'].includes(rest[k - 1]?.value ?? ''));
      return [...out, ...(dd >= 0 ? rest.slice(dd + 1) : named)];
    }
    if (sub === 'update-index') {
      const more: Word[] = [];
      rest.forEach((w, k) => {
        if (w.value === '--cacheinfo' && rest[k + 1]) {
          const v = rest[k + 1].value;
          more.push(v !== null && v.split(',').length === 3 ? { value: v.split(',')[2], raw: rest[k + 1].raw } : (rest[k + 3] ?? rest[k + 1]));
        }
      });
      if (rest.some((w) => w.value === '--add' || w.value === '--replace' || w.value === '--chmod=-x' || w.value === '--chmod=+x')) more.push(...rest.filter((w) => !(w.value ?? '').startsWith('-')));
      return [...out, ...more];
    }
    return out;
  }
  if (!FILE_WRITERS.has(name)) return out;
  if (name === 'dd') return [...out, ...args.filter((w) => (w.value ?? w.raw).startsWith('of=')).map((w) => ({ value: w.value === null ? null : w.value.slice(3), raw: w.raw.slice(3) }))];
  if (name === 'sed' || name === 'gsed' || name === 'perl') {
    if (!args.some((w) => /^-[a-zA-Z]*i|^--in-place/.test(w.value ?? ''))) return out;
    // The script is the first positional unless given with -e/-f: every positional is checked (a path-looking script is harmless to check).
    return [...out, ...positional];
  }
  const links = (name === 'cp' && args.some((w) => /^-[a-zA-Z]*[ls]|^--(link|symbolic-link)$/.test(w.value ?? ''))) || name === 'ln' || name === 'link';
  if ((name === 'cp' || name === 'install' || name === 'rsync' || name === 'mv') && !links) {
    // Into a directory (`-t DIR`, or a last argument that is one): each source lands as
    // DIR/<its name>, so `cp -t .claude settings.local.json` writes .claude/settings.local.json.
    const t = args.findIndex((w) => w.value === '-t' || (w.value ?? '').startsWith('--target-directory'));
    const dir = t >= 0 ? (args[t].value === '-t' ? args[t + 1] : { value: (args[t].value ?? '').split('=')[1] ?? '', raw: args[t].raw }) : positional[positional.length - 1];
    const sources = t >= 0 ? positional.filter((w) => w !== args[t + 1]) : positional.slice(0, -1);
    const into: Word[] = [];
    if (dir && dir.value !== null) {
      for (const s of sources) if (s.value !== null) into.push({ value: path.join(dir.value, path.basename(s.value)), raw: s.raw });
    }
    // mv takes its sources away too: each is written (deleted) as well.
    const moved = name === 'mv' ? sources : [];
    return [...out, ...(dir ? [dir] : []), ...into, ...moved].filter(Boolean);
  }
  if (name === 'curl' || name === 'wget') {
    const o = args.findIndex((w) => w.value === '-o' || w.value === '--output' || w.value === '-O' || w.value === '--output-document');
    return o >= 0 && args[o + 1] ? [...out, args[o + 1]] : out;
  }
  if (name === 'tar' || name === 'unzip') {
    const d = args.findIndex((w) => w.value === '-C' || w.value === '-d' || w.value === '--directory');
    return d >= 0 && args[d + 1] ? [...out, args[d + 1]] : out;
  }
  return [...out, ...positional];
}

/** Where a patch of `git apply|am` or `patch` comes from: a heredoc or here-string, `< file`, or file arguments (read, up to 1 MB each). */
function patchTexts(c: SimpleCommand, name: string | null, dir: string): string[] {
  const texts: string[] = [];
  if (c.stdinText !== null) texts.push(c.stdinText);
  const files: Word[] = [...c.inputs];
  const args = c.argv.slice(1);
  if (name === 'git') {
    const i = args.findIndex((w) => w.value === null || !w.value.startsWith('-'));
    // `git kizu patch apply FILE` (tester #81) applies a patch as `git apply` does.
    const kizuPatch = args[i]?.value === 'kizu' && args[i + 1]?.value === 'patch' && args[i + 2]?.value === 'apply';
    if (i < 0 || (!['apply', 'am'].includes(args[i].value ?? '') && !kizuPatch)) return [];
    files.push(...args.slice(i + (kizuPatch ? 3 : 1)).filter((w) => !(w.value ?? '').startsWith('-')));
  } else if (name === 'patch') {
    args.forEach((w, k) => {
      if ((w.value === '-i' || w.value === '--input') && args[k + 1]) files.push(args[k + 1]);
      else if (w.value?.startsWith('--input=')) files.push({ value: w.value.slice(8), raw: w.raw });
    });
  } else return [];
  for (const f of files) {
    if (f.value === null) continue;
    try {
      const p = path.resolve(dir, f.value);
      if (statSync(p).size <= 1 << 20) texts.push(readFileSync(p, 'utf8'));
    } catch {
      /* not a readable file: nothing to judge */
    }
  }
  return texts;
}

/** The paths a patch (unified diff, git diff, or apply_patch) writes, for `git apply|am` and `patch` (a/ and b/ prefixes both ways). */
function patchedPaths(c: SimpleCommand, name: string | null, dir: string): Word[] {
  const out: Word[] = [];
  for (const t of patchTexts(c, name, dir)) {
    for (const line of t.split('\n')) {
      const m =
        /^diff --git "?a\/(.+?)"? "?b\/(.+?)"?$/.exec(line) ??
        /^(?:---|\+\+\+) "?(.+?)"?(?:\t.*)?$/.exec(line) ??
        /^(?:rename|copy) (?:from|to) (.+)$/.exec(line) ??
        /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line) ??
        /^\*\*\* Move to: (.+)$/.exec(line);
      if (!m) continue;
      for (const p of m.slice(1)) {
        if (!p || p === '/dev/null') continue;
        out.push({ value: p, raw: p });
        const stripped = p.replace(/^[ab]\//, '');
        if (stripped !== p) out.push({ value: stripped, raw: p });
      }
    }
  }
  return out;
}

/** A file word of a shell command against the path rules (a word that is not static is checked by its text). */
function judgePathWord(w: Word, ctx: GateContext, repo: Repo | null, c: SimpleCommand, vars: Map<string, string> = new Map()): Verdict | null {
  if (w.value === null) {
    // Braces and globs in a path the shell expands: judged for each name they could give.
    const text = substitute(w.raw, vars);
    if (text !== null) {
      for (const alt of expandBraces(text.replace(/["']/g, ''))) {
        for (const name of /[*?[]/.test(alt) ? globMatches(alt, ctx.cwd) : [alt]) {
          const v = judgePathWord({ value: name, raw: w.raw }, ctx, repo, c, vars);
          if (v) return { ...v, subject: w.raw };
        }
      }
    }
  }
  if (w.value !== null) {
    const hit = classifyPath(w.value, ctx, repo);
    if (!hit) return null;
    if (hit.rule === 'package-json-review-keys') {
      // A shell command that writes package.json: denied when the file holds a key the gate guards, or the command names one.
      const before = readText(hit.abs);
      const raw = c.argv.map((x) => x.raw).join(' ');
      const guarded = (before !== null && changedKeys(before, '{}').length > 0) || PACKAGE_JSON_REVIEW_KEYS.some((k) => raw.includes(k));
      return guarded ? { strength: 'deny', rule: hit.rule, subject: hit.shown } : null;
    }
    return { strength: ruleOf(hit.rule).strength as Verdict['strength'], rule: hit.rule, subject: hit.shown };
  }
  // Not static (`$D/.git/config`, `"$(pwd)"/.husky/pre-commit`): judged by the literal parts of its text.
  const literal = w.raw.replace(/["']/g, '');
  // `"$(git rev-parse --git-dir)"/info/attributes` and its kin name the git dir.
  if (/rev-parse\s[^)`]*--(git-dir|git-common-dir|absolute-git-dir|git-path)/.test(literal)) return { strength: 'deny', rule: 'git-dir', subject: w.raw };
  // A computed prefix before a git dir's own file names (`$D/hooks/pre-commit`, `${X}/info/exclude`): it may be .git.
  if (/^[$`]/.test(literal) && /(^|\/)(hooks\/[\w.-]+|info\/(attributes|exclude|sparse-checkout)|refs\/.*|packed-refs|config|HEAD|index)$/.test(literal)) {
    return { strength: ruleOf('dynamic-command').strength as Verdict['strength'], rule: 'dynamic-command', subject: w.raw };
  }
  const hit = classifyPath(literal.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([^)]*\)|`[^`]*`/g, 'x'), ctx, repo);
  if (hit && hit.rule !== 'package-json-review-keys') return { strength: ruleOf(hit.rule).strength as Verdict['strength'], rule: hit.rule, subject: w.raw };
  if (/(^|[^\w.-])\.git([^\w.-]|$)/i.test(literal)) return { strength: 'deny', rule: 'git-dir', subject: w.raw };
  // A link whose target the gate cannot read may point into .git, and the next write would go through it.
  const name = baseName(c.argv[0]?.value ?? null);
  if (name === 'ln' || name === 'link' || (name === 'cp' && c.argv.some((x) => /^-[a-zA-Z]*[ls]|^--(link|symbolic-link)$/.test(x.value ?? '')))) return { strength: ruleOf('dynamic-command').strength as Verdict['strength'], rule: 'dynamic-command', subject: c.argv.map((x) => x.raw).join(' ') };
  // A file name computed when it runs (`> $X`, `> "${a[0]}"`, `cp x "$D/$F"`), or a computed folder holding a
  // file of a name the gate guards (`> "$D/settings.json"`): the gate cannot tell what it is.
  // (A plain `$NAME` in a folder part is let through: `cp x "$OUT_DIR/out.js"`.)
  const last = literal.slice(literal.lastIndexOf('/') + 1);
  const folders = literal.slice(0, Math.max(0, literal.lastIndexOf('/'))).replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*/g, '');
  if (/[$`]/.test(last) || /[$`]/.test(folders) || GUARDED_NAMES.test(last)) return { strength: ruleOf('computed-path').strength as Verdict['strength'], rule: 'computed-path', subject: w.raw };
  return null;
}

/** File names the path rules guard in some folder: written in a computed folder, they may be those. */
const GUARDED_NAMES = /^(settings(\.local)?\.json|review-queue\.md|\.?kizurc.*|kizu\.config\..*|pre-commit|hooks\.json|\.?lefthook.*|\.pre-commit-config\.ya?ml|config|exclude|attributes|ignore|\.gitconfig|\.gitignore.*|\.gitattributes|packed-refs|head|index)$/i;

/** The files git's config names as the user's excludes and attributes files (`core.excludesFile`, `core.attributesFile`), from the user's and the repository's config files. */
function configuredGitFiles(ctx: GateContext, repo: Repo | null): string[] {
  const out: string[] = [];
  const files = [path.join(ctx.home, '.gitconfig'), path.join(ctx.home, '.config', 'git', 'config'), ...(ctx.userHookPaths ?? []).flatMap((p) => [p, path.join(p, 'config')]), ...(repo?.gitDirs ?? []).map((g) => path.join(g, 'config'))];
  for (const f of files) {
    const t = readText(f);
    if (!t) continue;
    for (const m of t.matchAll(/^\s*(?:excludesfile|attributesfile)\s*=\s*(.*?)\s*$/gim)) {
      const v = m[1].replace(/^"(.*)"$/, '$1');
      if (v) out.push(path.resolve(v === '~' || v.startsWith('~/') ? ctx.home + v.slice(1) : v));
    }
  }
  return out;
}

/** `raw` with `$NAME`/`${NAME}` replaced by the known static values of `vars`; null when another expansion remains. */
function substitute(raw: string, vars: Map<string, string>): string | null {
  const s = raw.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, a: string | undefined, b: string | undefined) => vars.get((a ?? b)!) ?? m);
  return /\$|`/.test(s) ? null : s;
}

/** bash's brace expansion of a word (`.{g,x}it` → `.git`, `.xit`), at most 64 results. */
function expandBraces(s: string): string[] {
  const m = /\{([^{}]*)\}/.exec(s);
  if (!m || !/,|\.\./.test(m[1])) return [s];
  const parts = m[1].includes(',') ? m[1].split(',') : [m[1]];
  const out: string[] = [];
  for (const p of parts) for (const r of expandBraces(s.slice(0, m.index) + p + s.slice(m.index + m[0].length))) if (out.length < 64) out.push(r);
  return out;
}

/**
 * The existing paths a glob (`*`, `?`, `[…]` in any component) matches from `cwd`, as bash
 * expands it without dotglob (a component must start with a literal `.` to match a dotfile);
 * at most 2000 directory entries are looked at, after which the glob itself is returned with
 * every wildcard component guessed as `.git` (so an over-broad glob near a git dir still counts).
 */
function globMatches(pattern: string, cwd: string): string[] {
  const abs = path.isAbsolute(pattern);
  const comps = pattern.split('/').filter((c, i) => c !== '' || i === 0);
  let paths = [abs ? '/' : ''];
  let budget = 2000;
  for (const comp of comps.slice(abs ? 1 : 0)) {
    if (!/[*?[]/.test(comp)) {
      paths = paths.map((p) => (p ? path.join(p, comp) : comp));
      continue;
    }
    let re: RegExp;
    try {
      re = new RegExp('^' + comp.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.').replace(/\[!/g, '[^') + '$');
    } catch {
      return [pattern.replace(/[^/]*[*?[][^/]*/g, '.git')];
    }
    const next: string[] = [];
    for (const p of paths) {
      let names: string[] = [];
      try {
        names = readdirSync(path.resolve(cwd, p || '.'));
      } catch {
        continue;
      }
      budget -= names.length;
      if (budget < 0) return [pattern.replace(/[^/]*[*?[][^/]*/g, '.git')];
      for (const n of names) if (re.test(n) && (n[0] !== '.' || comp[0] === '.')) next.push(p ? path.join(p, n) : n);
    }
    paths = next;
  }
  return paths;
}

// ---------------------------------------------------------------------------------------
// Paths

interface Repo {
  /** The working tree's top (absolute, as found and as resolved). */
  roots: string[];
  /** The git dir and common dir (absolute, resolved). */
  gitDirs: string[];
}

/** The repository around `cwd`: the nearest directory with a `.git` entry, and its git dirs (a `.git` file's `gitdir:` and that dir's `commondir`). Null outside one. */
export function findRepo(cwd: string): Repo | null {
  let dir = path.resolve(cwd);
  for (;;) {
    const dotgit = path.join(dir, '.git');
    let st;
    try {
      st = lstatSync(dotgit);
    } catch {
      st = null;
    }
    if (st) {
      const gitDirs: string[] = [];
      if (st.isDirectory()) gitDirs.push(dotgit);
      else {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotgit) ?? '');
        if (m) {
          const gd = path.resolve(dir, m[1]);
          gitDirs.push(gd);
          const common = readText(path.join(gd, 'commondir'));
          if (common) gitDirs.push(path.resolve(gd, common.trim()));
        }
      }
      return { roots: uniq([dir, real(dir)]), gitDirs: uniq(gitDirs.flatMap((g) => [g, real(g)])) };
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** The nearest existing directory at or above `p`'s parent. */
function nearestDir(p: string): string {
  let d = path.dirname(p);
  while (!existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}

/** The real path of `p`'s longest existing prefix, with the rest appended (a symlinked parent is seen through). */
function real(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(head), ...tail.reverse());
    } catch {
      const up = path.dirname(head);
      if (up === head) return p;
      tail.push(path.basename(head));
      head = up;
    }
  }
}

function readText(file: string): string | null {
  try {
    if (!statSync(file).isFile()) return null;
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** A component that names a git dir: `.git` in any case, with NTFS's trailing dots and spaces, its 8.3 alias `git~1`, or an NTFS stream (`.git::$INDEX_ALLOCATION`). */
function isGitComponent(c: string): boolean {
  // HFS+ ignores these code points in names (git's is_hfs_dotgit): `.g\u200cit` is `.git` there.
  const l = c.toLowerCase().replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, '');
  return /^\.git[. ]*$/.test(l) || /^git~\d+$/.test(l) || l.startsWith('.git::') || /^\.git\u200c|^\.git\u200d/.test(l);
}

function matches(rel: string, p: PathPattern): boolean {
  if ('exact' in p) return rel === p.exact;
  if ('under' in p) return rel === p.under || rel.startsWith(p.under + '/');
  const i = rel.lastIndexOf('/');
  const dir = i < 0 ? '' : rel.slice(0, i);
  return dir === p.dir && rel.slice(i + 1).startsWith(p.prefix);
}

/** A path's first matching path rule. */
interface PathHit {
  rule: RuleId;
  /** The path as shown (relative to the root or home when inside). */
  shown: string;
  abs: string;
}

/** Folders (relative to a repository root, lower case) that hold the agents' hook settings and runners or a hook manager's hooks. */
const HOOK_DIRS: readonly string[] = ['.claude', '.claude/hooks', '.codex', '.codex/hooks', '.gemini', '.gemini/hooks', '.github', '.github/hooks', '.cursor', '.cursor/hooks', '.husky', '.husky/_'];

/**
 * The path rule a path falls under, if any: resolved against `ctx.cwd` (`~` is the home),
 * normalised, and seen through the symbolic links of its existing part; compared in lower case.
 */
export function classifyPath(p: string, ctx: GateContext, cwdRepo: Repo | null): PathHit | null {
  const expanded = p === '~' || p.startsWith('~/') ? ctx.home + p.slice(1) : p;
  const abs = path.resolve(ctx.cwd, expanded);
  const cands = uniq([abs, real(abs)]);
  for (const cand of cands) {
    // The path's own repository (another clone or worktree than the agent's cwd has its own config and hooks), else the cwd's.
    const own = cwdRepo && cwdRepo.roots.some((r) => cand.toLowerCase().startsWith(r.toLowerCase() + path.sep)) ? null : findRepo(nearestDir(cand));
    const repo: Repo | null = own ?? cwdRepo;
    const shown = (base: string) => path.relative(base, cand) || '.';
    if (cand.split(/[\\/]/).some(isGitComponent)) return { rule: 'git-dir', shown: repo ? shown(repo.roots[0]) : cand, abs: cand };
    const lc = cand.toLowerCase();
    for (const g of repo?.gitDirs ?? []) {
      const gl = g.toLowerCase();
      if (lc === gl || lc.startsWith(gl + path.sep)) return { rule: 'git-dir', shown: cand, abs: cand };
    }
    for (const root of repo?.roots ?? []) {
      const rel = path.relative(root.toLowerCase(), lc).split(path.sep).join('/');
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (rel === 'package.json') return { rule: 'package-json-review-keys', shown: 'package.json', abs: cand };
      // A folder that holds hook registrations or runners, written (moved, removed, replaced) whole.
      if (HOOK_DIRS.includes(rel)) return { rule: 'hook-files', shown: shown(root), abs: cand };
      for (const r of RULES) {
        if (r.match.on === 'path' && r.match.repo?.some((pat) => matches(rel, pat))) return { rule: r.id, shown: shown(root), abs: cand };
      }
    }
    for (const root of repo?.roots ?? []) {
      const rel = path.relative(root.toLowerCase(), lc).split(path.sep).join('/');
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      for (const r of RULES) {
        if (r.match.on !== 'path' || !r.match.anyDepth) continue;
        const parts = rel.split('/');
        for (let k = 1; k < parts.length; k++) {
          const tail = parts.slice(k).join('/');
          if (r.match.anyDepth.some((pat) => matches(tail, pat))) return { rule: r.id, shown: shown(root), abs: cand };
        }
      }
    }
    for (const x of ctx.userHookPaths ?? []) {
      const xl = path.resolve(x).toLowerCase();
      if (lc === xl || lc.startsWith(xl + path.sep)) return { rule: 'user-hook-files', shown: cand, abs: cand };
    }
    const sysRel = lc.split(path.sep).join('/').replace(/^[a-z]:/, '').replace(/^\/+/, '');
    for (const r of RULES) {
      if (r.match.on === 'path' && r.match.system?.some((pat) => matches(sysRel, pat))) return { rule: r.id, shown: cand, abs: cand };
    }
    if (configuredGitFiles(ctx, repo).some((f) => f.toLowerCase() === lc || real(f).toLowerCase() === lc)) return { rule: 'user-git-files', shown: cand, abs: cand };
    const home = path.resolve(ctx.home).toLowerCase();
    const hrel = path.relative(home, lc).split(path.sep).join('/');
    if (!hrel.startsWith('..') && !path.isAbsolute(hrel)) {
      for (const r of RULES) {
        if (r.match.on === 'path' && r.match.home?.some((pat) => matches(hrel, pat))) return { rule: r.id, shown: '~/' + path.relative(ctx.home, cand), abs: cand };
      }
    }
  }
  return null;
}

/** A write tool's planned write against the path rules (and package.json's guarded keys). */
function judgeWrite(w: PlannedWrite, ctx: GateContext, repo: Repo | null): Verdict | null {
  const hit = classifyPath(w.path, ctx, repo);
  if (!hit) return null;
  if (hit.rule !== 'package-json-review-keys') return { strength: ruleOf(hit.rule).strength as Verdict['strength'], rule: hit.rule, subject: hit.shown };
  const before = existsSync(hit.abs) ? readText(hit.abs) : '';
  let after: string | null = null;
  if (w.deletes) after = '{}';
  else if (w.content !== undefined) after = w.content;
  else if (w.replacements && before !== null) {
    let t: string | null = before;
    for (const r of w.replacements) {
      if (t === null || r.old === '' || !t.includes(r.old)) {
        t = null;
        break;
      }
      t = r.all ? t.split(r.old).join(r.new) : t.replace(r.old, () => r.new);
    }
    // An edit whose old text is not there fails in the tool itself: nothing to judge.
    if (t === null) return null;
    after = t;
  }
  if (after === null || before === null) return { strength: 'deny', rule: hit.rule, subject: hit.shown };
  return changedKeys(before, after).length ? { strength: 'deny', rule: hit.rule, subject: `${hit.shown} (${changedKeys(before, after).map((k) => `"${k}"`).join(', ')})` } : null;
}

/**
 * The guarded top-level keys (policy.ts `PACKAGE_JSON_REVIEW_KEYS`) whose value differs
 * between two package.json texts. A text that is not a JSON object counts as holding every
 * key with an unknown value (so any change to it that involves a guarded key is a change).
 */
export function changedKeys(before: string, after: string): string[] {
  const parse = (t: string): Record<string, unknown> | null => {
    try {
      const v = JSON.parse(t) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  const a = parse(before);
  const b = parse(after);
  return PACKAGE_JSON_REVIEW_KEYS.filter((k) => {
    if (a === null || b === null) return (a === null ? before : after).includes(`"${k}"`) || (b === null ? after : before).includes(`"${k}"`);
    return JSON.stringify(a[k]) !== JSON.stringify(b[k]);
  });
}
