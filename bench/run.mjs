#!/usr/bin/env node
// Benchmarks for git-kizu's hot paths. Each figure is a median ratio against a floor
// measured in the same run, with runs interleaved so machine noise hits both sides alike.
// Usage: npm run bench   (or: node bench/run.mjs [--runs N] [--files N] [--only <text in a benchmark's name>] [--keep-node-env] [--keep])
// --keep leaves the generated repositories in place and prints where they are.
// Prints one line per benchmark; never fails on a slow figure (timing is not a test).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'git-kizu.js');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('--runs', 21);
const FILES = arg('--files', 20000);
const CHANGED = 250;

const base = mkdtempSync(path.join(tmpdir(), 'kizu-bench-'));
const binDir = path.join(base, 'bin');
mkdirSync(binDir);
symlinkSync(BIN, path.join(binDir, 'git-kizu'));
const gitconfig = path.join(base, 'gitconfig');
writeFileSync(gitconfig, '[user]\n\tname = Bench\n\temail = bench@example.invalid\n[init]\n\tdefaultBranch = main\n');
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}`, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
// Settings that make every Node start do extra work that is not git-kizu's: NODE_EXTRA_CA_CERTS
// makes Node read and parse a CA bundle at start-up (seen here: `node -e 0` 37 ms without it,
// 111 ms with it), NODE_OPTIONS can preload anything. They are removed for every process the
// bench times (subject and floor alike) unless --keep-node-env is given.
const KEEP_NODE_ENV = process.argv.includes('--keep-node-env');
const dropped = KEEP_NODE_ENV ? [] : ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'].filter((k) => k in env);
for (const k of dropped) delete env[k];
console.log(
  dropped.length
    ? `(timed processes run without ${dropped.join(' and ')}, which this environment sets; --keep-node-env keeps them)`
    : `(timed processes run with this environment's NODE_* settings as they are)`,
);

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

const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;

/**
 * Interleaves subject and floor runs; returns the ratio of medians (null when skipped by
 * --only). `bound`, if given, is timed in the same interleaving: a Node process that only runs
 * the floor's git commands (bench/floor-in-node.mjs), printed as the least a Node
 * implementation can reach against this floor on this machine.
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
  const ma = median(a);
  const mb = median(b);
  const ratio = ma / mb;
  console.log(
    `${name}: median ${ma.toFixed(1)} ms vs floor ${mb.toFixed(1)} ms → ratio ${ratio.toFixed(2)} (target ≤ ${target}${ratio <= target ? ', met' : ', NOT met'}; ${RUNS} runs each)`,
  );
  if (bound) {
    const mc = median(c);
    console.log(`  lower bound for any Node process here: a script that only runs the floor's git commands takes ${mc.toFixed(1)} ms → ratio ${(mc / mb).toFixed(2)}`);
  }
  return ratio;
}

const FLOOR_IN_NODE = path.join(ROOT, 'bench', 'floor-in-node.mjs');
/** Times bench/floor-in-node.mjs running `cmds` (arrays of git args) in `cwd`, `seq` or `par`. */
const inNode = (cwd, mode, ...cmds) => () => run(process.execPath, [FLOOR_IN_NODE, mode, ...cmds.flatMap((c) => ['--', ...c])], cwd).ms;

// Hook handlers are timed as the generated hook scripts run them (templates/hooks: `exec
// git-kizu hook <event>`, found on PATH), not through `git kizu`, whose extra git process
// (git's dispatch to git-kizu, about 10 ms here) a hook never pays.

function git(cwd, ...args) {
  const r = run('git', args, cwd);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

try {
  // 1. PostToolUse on one edited file that holds scars.
  const small = path.join(base, 'small');
  mkdirSync(path.join(small, 'src'), { recursive: true });
  git(small, 'init', '-q');
  const lines = Array.from({ length: 400 }, (_, i) => (i % 50 === 0 ? `// @kizu[ask]: explain line ${i}\n` : `export const v${i} = ${i};\n`));
  writeFileSync(path.join(small, 'src/app.ts'), lines.join(''));
  const ptu = JSON.stringify({ session_id: 'bench', cwd: small, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(small, 'src/app.ts') } });
  const check = run('git-kizu', ['hook', 'post-tool-use'], small, ptu);
  if (!check.stdout.includes('additionalContext')) throw new Error(`post-tool-use produced no context: ${check.stdout}${check.stderr}`);
  compare('hook post-tool-use (1 file, 8 scars) vs node -e 0', () => run('git-kizu', ['hook', 'post-tool-use'], small, ptu).ms, () => run(process.execPath, ['-e', '0'], small).ms, 1.5);

  // Tap of one hunk (marks commit chain written with isomorphic-git + git update-ref).
  git(small, 'add', '-A');
  git(small, 'commit', '-q', '-m', 'base');
  writeFileSync(path.join(small, 'src/app.ts'), lines.join('').replace('export const v3 = 3;', 'export const v3 = 333;'));
  const hid = JSON.parse(run('git', ['kizu', 'hunks', '--json'], small).stdout)[0].shortId;
  const t = run('git', ['kizu', 'tap', hid], small);
  if (t.status !== 0) throw new Error(`tap failed: ${t.stderr}`);
  compare('tap of one hunk vs node -e 0', () => run('git', ['kizu', 'tap', hid], small).ms, () => run(process.execPath, ['-e', '0'], small).ms, 2);

  // 2. Stop with a 500-item review queue against the same hook with an empty queue.
  const qEmpty = path.join(base, 'queue-empty');
  const qFull = path.join(base, 'queue-full');
  const tmpl = (await import('node:fs')).readFileSync(path.join(ROOT, 'templates', 'review-queue.md'), 'utf8');
  for (const [dir, n] of [[qEmpty, 0], [qFull, 500]]) {
    mkdirSync(path.join(dir, '.claude'), { recursive: true });
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'a.js'), 'x\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'i');
    let q = tmpl;
    for (let i = 0; i < n; i++) q += `- [ ] (ask) \`a.js:1\` question number ${i} about this change <!-- kizu:b${i.toString(36).padStart(3, '0')} -->\n`;
    writeFileSync(path.join(dir, '.claude', 'review-queue.md'), q);
  }
  const qp = (dir) => JSON.stringify({ session_id: 'bench', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false });
  const full = run('git-kizu', ['hook', 'stop'], qFull, qp(qFull));
  if (!full.stdout.includes('500 open items')) throw new Error(`stop hook did not report 500 items: ${full.stdout.slice(0, 300)}${full.stderr}`);
  if (run('git-kizu', ['hook', 'stop'], qEmpty, qp(qEmpty)).stdout !== '') throw new Error('stop hook blocked on an empty queue');
  compare(
    'hook stop with a 500-item queue vs the same hook with an empty queue',
    () => run('git-kizu', ['hook', 'stop'], qFull, qp(qFull)).ms,
    () => run('git-kizu', ['hook', 'stop'], qEmpty, qp(qEmpty)).ms,
    1.2,
  );

  // 3. Stop and scan --all on a generated repo of FILES files with CHANGED changed/untracked.
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
  const stopPayload = JSON.stringify({ session_id: 'bench', cwd: big, hook_event_name: 'Stop', stop_hook_active: false });
  const s = run('git-kizu', ['hook', 'stop'], big, stopPayload);
  if (!s.stdout.includes('"decision":"block"')) throw new Error(`stop hook did not block: ${s.stdout}${s.stderr}`);
  compare(
    `hook stop (${FILES} files, ${CHANGED} changed/untracked) vs node -e 0 + git diff + git ls-files -o`,
    () => run('git-kizu', ['hook', 'stop'], big, stopPayload).ms,
    () => run('sh', ['-c', 'node -e 0; git diff --name-only -z HEAD >/dev/null; git ls-files -o --exclude-standard -z >/dev/null'], big).ms,
    1.5,
  );
  compare(
    `hunks (${FILES} files, ${CHANGED} changed/untracked) vs git diff HEAD + untracked listing`,
    () => run('git', ['kizu', 'hunks'], big).ms,
    () => run('sh', ['-c', 'git diff HEAD >/dev/null; git ls-files -o --exclude-standard -z >/dev/null'], big).ms,
    2,
    inNode(big, 'par', ['diff', 'HEAD'], ['ls-files', '-o', '--exclude-standard', '-z']),
  );
  const sc = run('git', ['kizu', 'scan', '--all', '--json'], big);
  if (sc.status !== 1) throw new Error(`scan --all exit ${sc.status}: ${sc.stderr}`);
  compare(
    `scan --all (${FILES} files) vs git grep -n -I "@kizu\\[" + untracked listing`,
    () => run('git', ['kizu', 'scan', '--all'], big).ms,
    () => run('sh', ['-c', 'git grep -n -I "@kizu\\[" >/dev/null; git ls-files -o --exclude-standard -z >/dev/null'], big).ms,
    2,
  );

  // ---------------------------------------------------------------------------------------
  // 4. Snapshots (src/rollback) on the same generated repo (FILES files, CHANGED changed or
  //    untracked). A "first" snapshot starts from no private index each run (the whole
  //    <git-dir>/kizu/snapshot directory is removed before the timed run): by default the
  //    private index is seeded from the user's index; KIZU_SNAPSHOT_NO_SEED=1 times a cold
  //    start that hashes every file, like the floor does.
  {
    const { rmSync: rm, writeFileSync: write } = await import('node:fs');
    const store = path.join(big, '.git', 'kizu', 'snapshot');
    const tmpIndex = path.join(base, 'floor-index');
    const check = run('git', ['kizu', 'snapshot', '--json'], big);
    if (check.status !== 0 || JSON.parse(check.stdout).files !== FILES + CHANGED - 200) throw new Error(`snapshot failed: ${check.stdout}${check.stderr}`);
    const floorAddA = () => {
      rm(tmpIndex, { force: true });
      return run('sh', ['-c', `GIT_INDEX_FILE='${tmpIndex}' git add -A && GIT_INDEX_FILE='${tmpIndex}' git write-tree >/dev/null`], big).ms;
    };
    const first = (extraEnv) => () => {
      rm(store, { recursive: true, force: true });
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
      rm(tmpIndex, { force: true });
      return inNode(big, 'seq', [`GIT_INDEX_FILE=${tmpIndex}`, 'add', '-A'], [`GIT_INDEX_FILE=${tmpIndex}`, 'write-tree'])();
    };
    compare(`first snapshot, seeded from the user's index (${FILES} files, ${CHANGED} changed) vs git add -A into a new index + write-tree`, first({}), floorAddA, 1.5, addAInNode);
    compare(`first snapshot, cold (KIZU_SNAPSHOT_NO_SEED=1) (${FILES} files) vs git add -A into a new index + write-tree`, first({ KIZU_SNAPSHOT_NO_SEED: '1' }), floorAddA, 1.5);

    let flip = 0;
    const touchOne = () => write(path.join(big, 'pkg50', 'mod0', 'file50.js'), `// touched ${flip++}\n`);
    run('git', ['kizu', 'snapshot'], big);
    compare(
      `second snapshot after one file changed (${FILES} files) vs git status --porcelain`,
      () => {
        touchOne();
        const r = run('git', ['kizu', 'snapshot'], big);
        if (r.status !== 0) throw new Error(r.stderr);
        return r.ms;
      },
      () => run('git', ['status', '--porcelain'], big).ms,
      2,
      inNode(big, 'seq', ['status', '--porcelain']),
    );
    const ups = (n) => JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: big, hook_event_name: 'UserPromptSubmit', prompt: `prompt ${n}` });
    compare(
      `hook user-prompt-submit after one file changed (${FILES} files) vs node -e 0 + git status --porcelain`,
      () => {
        touchOne();
        const r = run('git-kizu', ['hook', 'user-prompt-submit'], big, ups(flip));
        if (r.status !== 0 || r.stdout !== '' || r.stderr !== '') throw new Error(`hook: ${r.status} ${r.stdout} ${r.stderr}`);
        return r.ms;
      },
      () => run('sh', ['-c', 'node -e 0; git status --porcelain >/dev/null'], big).ms,
      1.5,
    );
  }
} finally {
  if (process.argv.includes('--keep')) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
