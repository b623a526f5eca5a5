#!/usr/bin/env node
// Benchmarks for git-kizu's hot paths. Each figure is a median ratio against a floor
// measured in the same run, with runs interleaved so machine noise hits both sides alike.
//
// The seven acceptance figures run on one generated repository (--files files, 250 of them
// changed or untracked), each against a floor that includes Node's own start (`node -e 0`)
// plus the git commands that do the same work:
//   hook post-tool-use     node -e 0 (the hook starts no git process)               target <= 1.3
//   hook stop              node -e 0 + git diff --name-only HEAD + untracked listing target <= 1.3
//   hook user-prompt-submit node -e 0 + git status --porcelain                       target <= 1.5
//   hunks                  node -e 0 + git diff HEAD + untracked listing             target <= 1.5
//   tap                    as for hunks + git hash-object -w --stdin + git update-ref target <= 1.5
//   scan --all             node -e 0 + git grep + untracked listing                  target <= 1.5
//   snapshot               node -e 0 + git status --porcelain                        target <= 1.5
// A few cheaper figures on small repositories follow; --extra adds the first-snapshot ones
// (slow: each run hashes the whole repository).
//
// Usage: npm run bench   (or: node bench/run.mjs [--bin <path to a git-kizu.js>] [--runs N]
//   [--files N] [--only <text in a benchmark's name>] [--extra] [--keep-node-env] [--keep])
// --bin times another build (default: this tree's bin/git-kizu.js, built by `npm run bench`).
// --keep leaves the generated repositories in place and prints where they are.
// Prints one line per benchmark and a summary of the seven; never fails on a slow figure
// (timing is not a test).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync, symlinkSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    bin: { type: 'string' },
    runs: { type: 'string', default: '21' },
    files: { type: 'string', default: '20000' },
    only: { type: 'string' },
    extra: { type: 'boolean', default: false },
    'keep-node-env': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const count = (name) => {
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} wants a positive whole number, got ${opts[name]}`);
  return n;
};
const RUNS = count('runs');
const FILES = count('files');
const CHANGED = 250;
if (FILES < 2 * CHANGED) throw new Error(`--files must be at least ${2 * CHANGED}`);
const BIN = path.resolve(opts.bin ?? path.join(ROOT, 'bin', 'git-kizu.js'));
if (!existsSync(BIN)) throw new Error(`no such file: ${BIN}`);
const ONLY = opts.only ?? null;

const base = mkdtempSync(path.join(tmpdir(), 'kizu-bench-'));
// `git-kizu` (the build under test) and `node` (this very Node, for the bin's `#!/usr/bin/env
// node` and the floors' `node -e 0` alike) come first on PATH.
const binDir = path.join(base, 'bin');
mkdirSync(binDir);
symlinkSync(BIN, path.join(binDir, 'git-kizu'));
symlinkSync(process.execPath, path.join(binDir, 'node'));
const gitconfig = path.join(base, 'gitconfig');
writeFileSync(gitconfig, '[user]\n\tname = Bench\n\temail = bench@example.invalid\n[init]\n\tdefaultBranch = main\n');
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}`, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
// Settings that make every Node start do extra work that is not git-kizu's: NODE_EXTRA_CA_CERTS
// makes Node read and parse a CA bundle at start-up (seen here: `node -e 0` 37 ms without it,
// 111 ms with it), NODE_OPTIONS can preload anything. They are removed for every process the
// bench times (subject and floor alike) unless --keep-node-env is given.
const dropped = opts['keep-node-env'] ? [] : ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'].filter((k) => k in env);
for (const k of dropped) delete env[k];

/**
 * Records every scar line of the working tree at `dir` (tracked and untracked files) in the
 * ledger `<git-dir>/kizu/written` the way `git kizu scar` does: the SHA-256 of
 * `scar\0<path>\0<kind>\0<body>` (src/provenance/ledger.ts scarKey), one per line; `extra`:
 * more keys (queue items: ledger.ts itemKey).
 */
function vouch(dir, extra = []) {
  const gitDir = run('git', ['rev-parse', '--absolute-git-dir'], dir).stdout.trim();
  const files = run('git', ['ls-files', '-z', '-co', '--exclude-standard'], dir).stdout.split('\0').filter(Boolean);
  const keys = [...extra];
  for (const rel of files) {
    let text;
    try {
      text = readFileSync(path.join(dir, rel), 'utf8');
    } catch {
      continue;
    }
    if (!text.includes('@kizu[')) continue;
    for (const m of text.matchAll(/@kizu\[([a-z]+)\]: (.*?)\s*(?:\*\/|-->)?\s*$/gm)) keys.push(`scar\0${rel}\0${m[1]}\0${m[2]}`);
  }
  mkdirSync(path.join(gitDir, 'kizu'), { recursive: true });
  appendFileSync(path.join(gitDir, 'kizu', 'written'), keys.map((k) => createHash('sha256').update(k).digest('hex') + '\n').join(''));
}

function run(cmd, args, cwd, input = '') {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, env, input, maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const version = run('git-kizu', ['--version'], base);
console.log(`build: ${BIN} (git-kizu ${version.stdout.trim() || `--version failed: ${version.stderr.trim()}`}); node ${process.version}; ${run('git', ['--version'], base).stdout.trim()}`);
console.log(
  dropped.length
    ? `(timed processes run without ${dropped.join(' and ')}, which this environment sets; --keep-node-env keeps them)`
    : `(timed processes run with this environment's NODE_* settings as they are)`,
);

/**
 * Interleaves subject and floor runs; returns {ms, floorMs, ratio} with the ratio of the
 * medians, or null when skipped by --only. `bound`, if given, is timed in the same
 * interleaving: a Node process that only runs the floor's git commands
 * (bench/floor-in-node.mjs), printed as the least a Node implementation can reach against this
 * floor on this machine.
 */
function compare(name, subject, floor, target, bound) {
  if (ONLY && !name.includes(ONLY)) return null;
  subject();
  floor(); // warm caches
  bound?.();
  const a = [];
  const b = [];
  const c = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(subject());
    b.push(floor());
    if (bound) c.push(bound());
  }
  const ms = median(a);
  const floorMs = median(b);
  const ratio = ms / floorMs;
  console.log(
    `${name}: median ${ms.toFixed(1)} ms vs floor ${floorMs.toFixed(1)} ms → ratio ${ratio.toFixed(2)} (target ≤ ${target}${ratio <= target ? ', met' : ', NOT met'}; ${RUNS} runs each)`,
  );
  if (bound) {
    const mc = median(c);
    console.log(`  lower bound for any Node process here: a script that only runs the floor's git commands takes ${mc.toFixed(1)} ms → ratio ${(mc / floorMs).toFixed(2)}`);
  }
  return { ms, floorMs, ratio, target };
}

const FLOOR_IN_NODE = path.join(ROOT, 'bench', 'floor-in-node.mjs');
/** Times bench/floor-in-node.mjs running `cmds` (arrays of git args) in `cwd`, `seq` or `par`. */
const inNode = (cwd, mode, ...cmds) => () => run(process.execPath, [FLOOR_IN_NODE, mode, ...cmds.flatMap((c) => ['--', ...c])], cwd).ms;
/** Times `sh -c <script>` in `cwd` (a floor: `node` there is this Node, see binDir). */
const sh = (cwd, script) => () => run('sh', ['-c', script], cwd).ms;

// Hook handlers are timed as the generated hook scripts run them (`exec git-kizu hook
// <event>`, found on PATH), not through `git kizu`, whose extra git process (git's dispatch to
// git-kizu) a hook never pays. Commands are timed as users run them: `git kizu <command>`.

function git(cwd, ...args) {
  const r = run('git', args, cwd);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The seven acceptance figures, by label, in the order the summary prints them. */
const ACCEPTANCE = ['hook post-tool-use', 'hook stop', 'hook user-prompt-submit', 'hunks', 'tap', 'scan --all', 'snapshot'];
const results = new Map();
/** {@link compare} for one of the seven: labelled `[acceptance] <label>` and kept for the summary. */
function acceptance(label, what, subject, floor, target, bound) {
  const r = compare(`[acceptance] ${label} ${what}`, subject, floor, target, bound);
  if (r) results.set(label, r);
}

try {
  // ---------------------------------------------------------------------------------------
  // The generated repository: FILES files committed, then CHANGED changed or untracked (200
  // modified, every 20th with a scar; 50 new, every 10th with a scar).
  const big = path.join(base, 'big');
  mkdirSync(big);
  git(big, 'init', '-q');
  process.stderr.write(`generating a repo of ${FILES} files...\n`);
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(big, `pkg${i % 100}`, `mod${Math.floor(i / 100) % 20}`);
    if (i < 2000) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `file${i}.js`), `// file ${i}\nexport const value${i} = ${i};\nexport function f${i}(x) {\n  return x + ${i};\n}\n`);
  }
  git(big, 'add', '-A');
  git(big, 'commit', '-q', '-m', 'generated');
  for (let i = 0; i < CHANGED; i++) {
    if (i < 200) {
      const p = path.join(big, `pkg${i % 100}`, `mod${Math.floor(i / 100) % 20}`, `file${i}.js`);
      writeFileSync(p, `// file ${i}\n${i % 20 === 0 ? '// @kizu[ask]: explain this change\n' : ''}export const value${i} = ${i * 2};\n`);
    } else {
      writeFileSync(path.join(big, `pkg0`, `new${i}.js`), `${i % 10 === 0 ? '// @kizu[free]: add a test\n' : ''}export const n${i} = ${i};\n`);
    }
  }
  // The scars are the reviewer's, as if written with `git kizu scar`: recorded in the ledger
  // of what git kizu wrote (src/provenance/ledger.ts), so the hooks hand them over as the
  // reviewer's and look up no origin (a remark found in the repository costs git processes).
  vouch(big);
  const repoDesc = `(${FILES} files, ${CHANGED} changed/untracked)`;
  const untracked = 'git ls-files -o --exclude-standard -z >/dev/null';
  const transcript = path.join(base, 'transcript.jsonl');
  writeFileSync(transcript, '');

  // Measured in this order so that each runs in the state a user would meet: the hooks before
  // any review marks exist (tap creates refs/kizu/marks), the snapshots last.

  // PostToolUse on one edited file that holds a scar: reads that file, starts no git process.
  const edited = path.join(big, 'pkg0', 'mod0', 'file0.js');
  const ptu = JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: big, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: edited } });
  const p = run('git-kizu', ['hook', 'post-tool-use'], big, ptu);
  if (!p.stdout.includes('additionalContext')) throw new Error(`post-tool-use produced no context: ${p.stdout}${p.stderr}`);
  acceptance('hook post-tool-use', `${repoDesc}, 1 edited file with a scar, vs node -e 0 (the hook starts no git process)`, () => run('git-kizu', ['hook', 'post-tool-use'], big, ptu).ms, () => run('node', ['-e', '0'], big).ms, 1.3);

  // PreToolUse, the pre-tool gate: a harmless edit (path rules only) and a harmless command (the
  // pre-filter lets it through unparsed), each against node -e 0; a plain git command (judged
  // word by word, no parser); and a quoted one, which loads tree-sitter-bash and parses it.
  const preTool = (tool, input) => JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: big, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 't' });
  for (const [what, payload] of [
    ['a harmless edit (Edit of pkg0/mod0/file0.js)', preTool('Edit', { file_path: edited, old_string: 'a', new_string: 'b' })],
    ['a harmless command (`npm test`, not parsed)', preTool('Bash', { command: 'npm test' })],
    ['a plain git command (`git log --oneline -5`: judged without the parser)', preTool('Bash', { command: 'git log --oneline -5' })],
    ['a parsed command (`git commit -m "x"`: tree-sitter-bash loaded)', preTool('Bash', { command: 'git commit -m "x"' })],
  ]) {
    const g = run('git-kizu', ['hook', 'pre-tool-use'], big, payload);
    if (g.status !== 0 || g.stdout || g.stderr) throw new Error(`pre-tool-use did not let ${what} through: ${g.status} ${g.stdout}${g.stderr}`);
    compare(`hook pre-tool-use on ${what} vs node -e 0`, () => run('git-kizu', ['hook', 'pre-tool-use'], big, payload).ms, () => run('node', ['-e', '0'], big).ms, 1.3);
  }

  // Stop: scans the changed and untracked files.
  const stopPayload = JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: big, hook_event_name: 'Stop', stop_hook_active: false });
  const s = run('git-kizu', ['hook', 'stop'], big, stopPayload);
  if (!s.stdout.includes('"decision":"block"')) throw new Error(`stop hook did not block: ${s.stdout}${s.stderr}`);
  acceptance(
    'hook stop',
    `${repoDesc} vs node -e 0 + git diff --name-only HEAD + git ls-files -o`,
    () => run('git-kizu', ['hook', 'stop'], big, stopPayload).ms,
    sh(big, `node -e 0; git diff --name-only -z HEAD >/dev/null; ${untracked}`),
    1.3,
    inNode(big, 'par', ['diff', '--name-only', '-z', 'HEAD'], ['ls-files', '-o', '--exclude-standard', '-z']),
  );

  // The same two hooks for each other agent, with its own payload (recorded shapes: see
  // test/unit/agent-*.test.mjs) through its adapter (`--agent`), against the same floors and
  // targets. Cursor has no post-edit context (its afterFileEdit answers nothing).
  const rel = path.relative(big, edited);
  const patch = `*** Begin Patch\n*** Update File: ${rel}\n@@\n-x\n+y\n*** End Patch\n`;
  const agentPayloads = {
    codex: {
      post: { session_id: 'bench-codex', turn_id: 't', transcript_path: transcript, cwd: big, hook_event_name: 'PostToolUse', model: 'gpt-5.5', permission_mode: 'bypassPermissions', tool_name: 'apply_patch', tool_input: { command: patch }, tool_response: `Exit code: 0\nSuccess. Updated the following files:\nM ${rel}\n`, tool_use_id: 'call_1' },
      stop: { session_id: 'bench-codex', turn_id: 't', transcript_path: transcript, cwd: big, hook_event_name: 'Stop', model: 'gpt-5.5', permission_mode: 'bypassPermissions', stop_hook_active: false, last_assistant_message: 'done' },
    },
    gemini: {
      post: { session_id: 'bench-gemini', transcript_path: transcript, cwd: big, hook_event_name: 'AfterTool', timestamp: '2026-12-02T00:00:00.000Z', tool_name: 'replace', tool_input: { file_path: edited, old_string: 'x', new_string: 'y' }, tool_response: { llmContent: 'ok' } },
      stop: { session_id: 'bench-gemini', transcript_path: transcript, cwd: big, hook_event_name: 'AfterAgent', timestamp: '2026-12-02T00:00:00.000Z', prompt: 'go', prompt_response: 'done', stop_hook_active: false },
    },
    copilot: {
      post: { sessionId: 'bench-copilot', timestamp: 1764633600000, cwd: big, toolName: 'apply_patch', toolArgs: patch, toolResult: { resultType: 'success', textResultForLlm: 'ok' } },
      stop: { sessionId: 'bench-copilot', timestamp: 1764633600000, cwd: big, transcriptPath: transcript, stopReason: 'end_turn', stop_hook_active: false },
    },
    cursor: {
      stop: { conversation_id: 'bench-cursor', generation_id: 'g', hook_event_name: 'stop', status: 'completed', loop_count: 0, workspace_roots: [big] },
    },
  };
  for (const [agent, pl] of Object.entries(agentPayloads)) {
    if (pl.post) {
      const input = JSON.stringify(pl.post);
      const r = run('git-kizu', ['hook', 'post-tool-use', '--agent', agent], big, input);
      if (!r.stdout.includes('additionalContext') || r.stderr) throw new Error(`${agent} post-tool-use produced no context: ${r.stdout}${r.stderr}`);
      compare(`hook post-tool-use --agent ${agent} ${repoDesc} vs node -e 0`, () => run('git-kizu', ['hook', 'post-tool-use', '--agent', agent], big, input).ms, () => run('node', ['-e', '0'], big).ms, 1.3);
    }
    const input = JSON.stringify(pl.stop);
    const r = run('git-kizu', ['hook', 'stop', '--agent', agent], big, input);
    if (!/"decision":"block"|"followup_message"/.test(r.stdout) || r.stderr) throw new Error(`${agent} stop hook did not block: ${r.stdout}${r.stderr}`);
    compare(
      `hook stop --agent ${agent} ${repoDesc} vs node -e 0 + git diff --name-only HEAD + git ls-files -o`,
      () => run('git-kizu', ['hook', 'stop', '--agent', agent], big, input).ms,
      sh(big, `node -e 0; git diff --name-only -z HEAD >/dev/null; ${untracked}`),
      1.3,
    );
  }

  const h = run('git', ['kizu', 'hunks'], big);
  if (h.status !== 0) throw new Error(`hunks failed: ${h.stderr}`);
  acceptance(
    'hunks',
    `${repoDesc} vs node -e 0 + git diff HEAD + git ls-files -o`,
    () => run('git', ['kizu', 'hunks'], big).ms,
    sh(big, `node -e 0; git diff HEAD >/dev/null; ${untracked}`),
    1.5,
    inNode(big, 'par', ['diff', 'HEAD'], ['ls-files', '-o', '--exclude-standard', '-z']),
  );

  const sc = run('git', ['kizu', 'scan', '--all', '--json'], big);
  if (sc.status !== 1) throw new Error(`scan --all exit ${sc.status}: ${sc.stderr}`);
  acceptance(
    'scan --all',
    `${repoDesc} vs node -e 0 + git grep -n -I "@kizu\\[" + git ls-files -o`,
    () => run('git', ['kizu', 'scan', '--all'], big).ms,
    sh(big, `node -e 0; git grep -n -I "@kizu\\[" >/dev/null; ${untracked}`),
    1.5,
    inNode(big, 'par', ['grep', '-n', '-I', '@kizu\\['], ['ls-files', '-o', '--exclude-standard', '-z']),
  );

  // Tap of one hunk: lists the hunks, then writes a marks commit (isomorphic-git) and moves
  // refs/kizu/marks (git update-ref). The floor writes one object ($$: new content each run)
  // and moves a ref of its own.
  const hid = JSON.parse(run('git', ['kizu', 'hunks', '--json'], big).stdout)[0].shortId;
  const t = run('git', ['kizu', 'tap', hid], big);
  if (t.status !== 0) throw new Error(`tap failed: ${t.stderr}`);
  acceptance(
    'tap',
    `of one hunk ${repoDesc} vs node -e 0 + git diff HEAD + git ls-files -o + git hash-object -w --stdin + git update-ref`,
    () => run('git', ['kizu', 'tap', hid], big).ms,
    sh(big, `node -e 0; git diff HEAD >/dev/null; ${untracked}; oid=$(echo "$$" | git hash-object -w --stdin) && git update-ref refs/kizu-bench/floor "$oid"`),
    1.5,
  );

  // Snapshots: after one file changed since the last one (the private index is git's stat
  // cache, so only that file is read again), by `git kizu snapshot` and by the
  // UserPromptSubmit hook.
  let flip = 0;
  const touchOne = () => writeFileSync(path.join(big, 'pkg50', 'mod0', 'file50.js'), `// touched ${flip++}\n`);
  const first = run('git', ['kizu', 'snapshot', '--json'], big);
  if (first.status !== 0 || JSON.parse(first.stdout).files !== FILES + CHANGED - 200) throw new Error(`snapshot failed: ${first.stdout}${first.stderr}`);
  acceptance(
    'snapshot',
    `after one file changed ${repoDesc} vs node -e 0 + git status --porcelain`,
    () => {
      touchOne();
      const r = run('git', ['kizu', 'snapshot'], big);
      if (r.status !== 0) throw new Error(r.stderr);
      return r.ms;
    },
    sh(big, 'node -e 0; git status --porcelain >/dev/null'),
    1.5,
    inNode(big, 'seq', ['status', '--porcelain']),
  );
  const ups = (n) => JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: big, hook_event_name: 'UserPromptSubmit', prompt: `prompt ${n}` });
  acceptance(
    'hook user-prompt-submit',
    `after one file changed ${repoDesc} vs node -e 0 + git status --porcelain`,
    () => {
      touchOne();
      const r = run('git-kizu', ['hook', 'user-prompt-submit'], big, ups(flip));
      if (r.status !== 0 || r.stdout !== '' || r.stderr !== '') throw new Error(`hook: ${r.status} ${r.stdout} ${r.stderr}`);
      return r.ms;
    },
    sh(big, 'node -e 0; git status --porcelain >/dev/null'),
    1.5,
    inNode(big, 'seq', ['status', '--porcelain']),
  );

  // ---------------------------------------------------------------------------------------
  // Cheaper figures on small repositories.

  // PostToolUse and tap in a 1-file repository, against Node's start alone.
  const small = path.join(base, 'small');
  mkdirSync(path.join(small, 'src'), { recursive: true });
  git(small, 'init', '-q');
  const lines = Array.from({ length: 400 }, (_, i) => (i % 50 === 0 ? `// @kizu[ask]: explain line ${i}\n` : `export const v${i} = ${i};\n`));
  writeFileSync(path.join(small, 'src/app.ts'), lines.join(''));
  writeFileSync(path.join(small, 'src/parsed.ts'), 'export const t = `a\n${1}\nb`;\n' + lines.join(''));
  vouch(small);
  const ptuSmall = JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: small, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(small, 'src/app.ts') } });
  if (!run('git-kizu', ['hook', 'post-tool-use'], small, ptuSmall).stdout.includes('additionalContext')) throw new Error('post-tool-use produced no context in the small repo');
  compare('hook post-tool-use (1 file, 8 scars) vs node -e 0', () => run('git-kizu', ['hook', 'post-tool-use'], small, ptuSmall).ms, () => run('node', ['-e', '0'], small).ms, 1.5);
  // The same file with a template literal above the scars: the marker lines must be told
  // from template text, so the hook loads web-tree-sitter and the TypeScript grammar.
  writeFileSync(path.join(small, 'src/parsed.ts'), 'export const t = `a\n${1}\nb`;\n' + lines.join(''));
  const ptuParsed = ptuSmall.replace('src/app.ts', 'src/parsed.ts');
  if (!run('git-kizu', ['hook', 'post-tool-use'], small, ptuParsed).stdout.includes('additionalContext')) throw new Error('post-tool-use produced no context for the parsed file');
  compare('hook post-tool-use (1 file, 8 scars, parsed: a template literal above them) vs node -e 0', () => run('git-kizu', ['hook', 'post-tool-use'], small, ptuParsed).ms, () => run('node', ['-e', '0'], small).ms, 2.5);
  // Placing a scar in that file: parsed, then parsed again with the scar in it (the second
  // and later runs find the scar already there and write nothing).
  if (run('git-kizu', ['scar', 'src/parsed.ts:200'], small).status !== 0) throw new Error('scar failed in the small repo');
  compare('scar in a 400-line TS file (parsed to place it) vs node -e 0', () => run('git-kizu', ['scar', 'src/parsed.ts:200'], small).ms, () => run('node', ['-e', '0'], small).ms, 4);
  git(small, 'add', '-A');
  git(small, 'commit', '-q', '-m', 'base');
  writeFileSync(path.join(small, 'src/app.ts'), lines.join('').replace('export const v3 = 3;', 'export const v3 = 333;'));
  const smallHunk = JSON.parse(run('git', ['kizu', 'hunks', '--json'], small).stdout)[0].shortId;
  if (run('git', ['kizu', 'tap', smallHunk], small).status !== 0) throw new Error('tap failed in the small repo');
  compare('tap of one hunk (1 file) vs node -e 0', () => run('git', ['kizu', 'tap', smallHunk], small).ms, () => run('node', ['-e', '0'], small).ms, 2);

  // Stop with a 500-item review queue against the same hook with an empty queue.
  const qEmpty = path.join(base, 'queue-empty');
  const qFull = path.join(base, 'queue-full');
  const tmpl = readFileSync(path.join(ROOT, 'templates', 'review-queue.md'), 'utf8');
  for (const [dir, n] of [[qEmpty, 0], [qFull, 500]]) {
    mkdirSync(path.join(dir, '.claude'), { recursive: true });
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'a.js'), 'x\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'i');
    let q = tmpl;
    for (let i = 0; i < n; i++) q += `- [ ] (ask) \`a.js:1\` question number ${i} about this change <!-- kizu:b${i.toString(36).padStart(3, '0')} -->\n`;
    writeFileSync(path.join(dir, '.claude', 'review-queue.md'), q);
    // The reviewer's items, as `git kizu queue add` records them (ledger.ts itemKey).
    vouch(dir, Array.from({ length: n }, (_, i) => `queue\0ask\0a.js:1\0question number ${i} about this change`));
  }
  const qp = (dir) => JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false });
  const full = run('git-kizu', ['hook', 'stop'], qFull, qp(qFull));
  if (!full.stdout.includes('500 open items')) throw new Error(`stop hook did not report 500 items: ${full.stdout.slice(0, 300)}${full.stderr}`);
  if (run('git-kizu', ['hook', 'stop'], qEmpty, qp(qEmpty)).stdout !== '') throw new Error('stop hook blocked on an empty queue');
  compare(
    'hook stop with a 500-item queue vs the same hook with an empty queue',
    () => run('git-kizu', ['hook', 'stop'], qFull, qp(qFull)).ms,
    () => run('git-kizu', ['hook', 'stop'], qEmpty, qp(qEmpty)).ms,
    1.2,
  );

  // ---------------------------------------------------------------------------------------
  // Retention: `git kizu gc` on a repository with 10,000 journal entries and 500 snapshots
  // (spread over 20 days, written in one git fast-import), timed once (it changes the
  // repository); then the PostToolUse hook while `gc --dry-run` (retention's planning: every
  // ref, chain and byte count read) runs in a loop beside it, against Node's start.
  if (!ONLY || 'gc'.includes(ONLY) || ONLY.includes('gc')) {
    const repo = path.join(base, 'gc');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(path.join(repo, 'a.js'), 'x\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'i');
    const now = Math.floor(Date.now() / 1000);
    const span = 20 * 86_400;
    const parts = [];
    const data = (text) => {
      const b = Buffer.from(text);
      parts.push(Buffer.from(`data ${b.length}\n`), b, Buffer.from('\n'));
    };
    let mark = 0;
    const ENTRIES = 10_000;
    for (let k = 0; k < ENTRIES; k++) {
      const t = now - span + Math.floor((k * span) / ENTRIES);
      const blob = ++mark;
      parts.push(Buffer.from(`blob\nmark :${blob}\n`));
      data(`// entry ${k}\nexport const v = ${k};\n`);
      const body = { version: 1, time: new Date(t * 1000).toISOString(), tool: 'Edit', session: 'bench', toolUseId: `bench-${k}`, files: [{ path: `src/f${k % 200}.js`, before: null, after: null, added: 2, removed: 0 }], worktree: repo };
      parts.push(Buffer.from(`commit refs/kizu/journal\nmark :${++mark}\ncommitter Bench <bench@example.invalid> ${t} +0000\n`));
      data(`kizu journal: Edit src/f${k % 200}.js\n\n${JSON.stringify(body)}\n`);
      parts.push(Buffer.from(`deleteall\nM 100644 :${blob} 0.after\n\n`));
    }
    const SNAPS = 500;
    for (let k = 0; k < SNAPS; k++) {
      const t = now - span + Math.floor((k * span) / SNAPS);
      const d = new Date(t * 1000).toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\.(\d+)Z$/, '-$1');
      const blob = ++mark;
      parts.push(Buffer.from(`blob\nmark :${blob}\n`));
      data(`x\n// snapshot ${k}\n`);
      parts.push(Buffer.from(`commit refs/kizu/snapshots/${d}-${k.toString(16).padStart(8, '0')}\nmark :${++mark}\ncommitter git-kizu <git-kizu@localhost> ${t} +0000\n`));
      data(`kizu snapshot (prompt): prompt ${k}\n\nkizu-snapshot: ${JSON.stringify({ kind: 'prompt', time: new Date(t * 1000).toISOString(), message: `prompt ${k}`, worktree: repo, head: null, files: 1 })}\n`);
      parts.push(Buffer.from(`deleteall\nM 100644 :${blob} a.js\n\n`));
    }
    const t0 = process.hrtime.bigint();
    const fi = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo, env, input: Buffer.concat(parts), maxBuffer: 1 << 28 });
    if (fi.status !== 0) throw new Error(`fast-import: ${fi.stderr}`);
    const buildMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const dry = run('git', ['kizu', 'gc', '--dry-run', '--json'], repo);
    if (dry.status !== 0) throw new Error(`gc --dry-run: ${dry.stderr}`);
    const plan = JSON.parse(dry.stdout).kinds.filter((k) => k.entries).map((k) => `${k.kind} ${k.entries} → drop ${k.drop}`);
    const gc = run('git', ['kizu', 'gc', '--json'], repo);
    if (gc.status !== 0) throw new Error(`gc: ${gc.stderr}`);
    const after = JSON.parse(run('git', ['kizu', 'gc', '--dry-run', '--json'], repo).stdout).kinds.filter((k) => k.entries).map((k) => `${k.kind} ${k.entries}`);
    console.log(`gc on ${ENTRIES} journal entries and ${SNAPS} snapshots (fixture written by git fast-import in ${buildMs.toFixed(0)} ms): gc --dry-run ${dry.ms.toFixed(0)} ms; gc ${gc.ms.toFixed(0)} ms, one run (${plan.join(', ')}; after: ${after.join(', ')})`);
    // The hook path, first alone, then while retention runs beside it.
    const ptu0 = JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(repo, 'a.js') } });
    compare('hook post-tool-use in the gc repository, nothing beside it, vs node -e 0', () => run('git-kizu', ['hook', 'post-tool-use'], repo, ptu0).ms, () => run('node', ['-e', '0'], repo).ms, 1.3);
    const loop = spawn('sh', ['-c', 'while :; do git kizu gc --dry-run >/dev/null 2>&1; done'], { cwd: repo, env, stdio: 'ignore', detached: true });
    try {
      const ptu = JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(repo, 'a.js') } });
      compare('hook post-tool-use while gc --dry-run runs in a loop beside it vs node -e 0', () => run('git-kizu', ['hook', 'post-tool-use'], repo, ptu).ms, () => run('node', ['-e', '0'], repo).ms, 1.3);
    } finally {
      process.kill(-loop.pid, 'SIGTERM');
    }
  }

  // ---------------------------------------------------------------------------------------
  // --extra: a first snapshot on the generated repository (slow). It starts from no private
  // index each run (the whole <git-dir>/kizu/snapshot directory is removed before the timed
  // run): by default the private index is seeded from the user's index;
  // KIZU_SNAPSHOT_NO_SEED=1 times a cold start that hashes every file, like the floor does.
  if (opts.extra) {
    const store = path.join(big, '.git', 'kizu', 'snapshot');
    const tmpIndex = path.join(base, 'floor-index');
    const floorAddA = () => {
      rmSync(tmpIndex, { force: true });
      return run('sh', ['-c', `node -e 0; GIT_INDEX_FILE='${tmpIndex}' git add -A && GIT_INDEX_FILE='${tmpIndex}' git write-tree >/dev/null`], big).ms;
    };
    const firstSnapshot = (extraEnv) => () => {
      rmSync(store, { recursive: true, force: true });
      const saved = { ...env };
      Object.assign(env, extraEnv);
      try {
        const r = run('git', ['kizu', 'snapshot'], big);
        if (r.status !== 0) throw new Error(r.stderr);
        return r.ms;
      } finally {
        for (const k of Object.keys(extraEnv)) if (k in saved) env[k] = saved[k];
        else delete env[k];
      }
    };
    const addAInNode = () => {
      rmSync(tmpIndex, { force: true });
      return inNode(big, 'seq', [`GIT_INDEX_FILE=${tmpIndex}`, 'add', '-A'], [`GIT_INDEX_FILE=${tmpIndex}`, 'write-tree'])();
    };
    compare(`first snapshot, seeded from the user's index ${repoDesc} vs node -e 0 + git add -A into a new index + write-tree`, firstSnapshot({}), floorAddA, 1.5, addAInNode);
    compare(`first snapshot, cold (KIZU_SNAPSHOT_NO_SEED=1) ${repoDesc} vs node -e 0 + git add -A into a new index + write-tree`, firstSnapshot({ KIZU_SNAPSHOT_NO_SEED: '1' }), floorAddA, 1.5);
  }

  // ---------------------------------------------------------------------------------------
  if (results.size) {
    console.log(`\nacceptance: median ratios against floors that include Node's start ${repoDesc}, ${RUNS} runs each, build ${BIN}:`);
    for (const label of ACCEPTANCE) {
      const r = results.get(label);
      if (!r) continue;
      console.log(
        `  ${label.padEnd(24)} ${r.ratio.toFixed(2)}  (target ≤ ${r.target}, ${r.ratio <= r.target ? 'met' : 'NOT met'}; ${r.ms.toFixed(1)} ms vs floor ${r.floorMs.toFixed(1)} ms)`,
      );
    }
  }
} finally {
  if (opts.keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
