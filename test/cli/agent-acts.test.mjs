// The reviewer's acts taken from inside an agent's session (the variables agents set in the
// processes they start, README "Agents"): refused with exit 2 and nothing changed; the same
// act from the human's terminal works; the agent's own acts are recorded as the agent's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { Q, add, stop } from '../helpers/queue.mjs';
import { REF } from '../helpers/marks.mjs';

const CLAUDE = { CLAUDECODE: '1' };

/** The exact refusal `git kizu <act>` prints inside a Claude Code session. */
const refusal = (act, agent = 'Claude Code', variable = 'CLAUDECODE') =>
  `git-kizu: error: git kizu ${act} is the reviewer's act, and this runs inside a ${agent} session (${variable} is set): nothing was changed\n` +
  `hint: ask the human to run git kizu ${act} in their own terminal; an agent answers review with its edits, scars it deleted and git kizu queue done\n`;

/** Everything a reviewer act could change: refs/kizu/*, the queue file, the working tree's scar file, the install. */
function state(sb) {
  const refs = sb.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/kizu/');
  const files = ['src/a.js', Q, '.claude/settings.json'].map((f) => {
    try {
      return sb.read(f);
    } catch {
      return null;
    }
  });
  return { refs, files };
}

/** A repo with init done, a changed hunk, a scar, a queue item (done), a snapshot, a bare remote. */
function world() {
  const sb = sandbox({ files: { 'src/a.js': 'one\ntwo\nthree\n', 'src/b.js': 'b\n' } });
  assert.equal(sb.kizu(['init', '--no-pre-commit']).status, 0);
  sb.git('add', '-A');
  sb.git('commit', '-qm', 'init');
  sb.write({ 'src/a.js': 'one\nTWO\nthree\n' });
  assert.equal(sb.kizu(['scar', 'src/b.js:1', '-m', 'why b?', '-k', 'free']).status, 0);
  const item = add(sb, 'explain TWO');
  assert.equal(sb.kizu(['queue', 'done', item]).status, 0);
  assert.equal(sb.kizu(['snapshot', '-m', 'before']).status, 0);
  const snap = JSON.parse(sb.kizu(['snapshot', 'list', '--json']).stdout)[0].name;
  const hunk = JSON.parse(sb.kizu(['hunks', '--json']).stdout).find((h) => h.path === 'src/a.js');
  const bare = path.join(sb.base, 'remote.git');
  sb.git('init', '-q', '--bare', bare);
  return { sb, item, snap, hunk, bare };
}

const ACTS = (w) => [
  ['tap', ['tap', w.hunk.shortId]],
  ['untap', ['untap', w.hunk.shortId]],
  ['unscar --all', ['unscar', '--all']],
  ['review', ['review']],
  ['revert --restore', ['revert', '--restore', '0123456789abcdef0123456789abcdef01234567']],
  ['queue rm', ['queue', 'rm', w.item]],
  ['queue clear', ['queue', 'clear', '--done']],
  ['baseline set', ['baseline', 'set', 'HEAD']],
  ['baseline reset', ['baseline', 'reset']],
  ['marks pull', ['marks', 'pull', w.bare]],
  ['marks push', ['marks', 'push', w.bare]],
  ['snapshot drop', ['snapshot', 'drop', w.snap]],
  ['gc', ['gc']],
  ['teardown', ['teardown']],
  // Rollbacks discard working-tree content: the queue file and the reviewer's scars too.
  ['rollback snapshot', ['rollback', 'snapshot', w.snap, '--yes']],
  ['rollback patch', ['rollback', 'patch', 'abcd', '--yes']],
  ['rollback branch', ['rollback', 'branch', 'nope', '--yes']],
  ['undo', ['undo', '--yes']],
];

test("every reviewer act from inside an agent's session: exit 2, the exact message, nothing changed", () => {
  const w = world();
  const before = state(w.sb);
  for (const [act, args] of ACTS(w)) {
    const r = w.sb.kizu(args, { env: CLAUDE });
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', refusal(act)], act);
    assert.deepEqual(state(w.sb), before, `${act} changed nothing`);
  }
});

test('each agent by its own variable (seen on its CLI, or documented) is named in the refusal', () => {
  const w = world();
  for (const [variable, value, agent] of [
    ['CODEX_THREAD_ID', '01a24944-5d27-7c62-a32b-639ea5f18472', 'Codex CLI'],
    ['CODEX_SANDBOX', 'seatbelt', 'Codex CLI'],
    ['GEMINI_CLI', '1', 'Gemini CLI'],
    ['COPILOT_CLI', '1', 'Copilot CLI'],
    ['CURSOR_AGENT', '1', 'Cursor'],
  ]) {
    const r = w.sb.kizu(['tap', w.hunk.shortId], { env: { [variable]: value } });
    assert.deepEqual([r.status, r.stderr], [2, refusal('tap', agent, variable)], variable);
  }
  const other = w.sb.kizu(['gc'], { env: { AI_AGENT: 'some-new-agent_1_agent' } });
  assert.deepEqual([other.status, other.stderr], [2, refusal('gc', 'coding agent', 'AI_AGENT')]);
});

test("the human's same acts still work outside an agent's session (and with the marker set to 0)", () => {
  const w = world();
  const ok = (args, env = {}) => {
    const r = w.sb.kizu(args, { env });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r;
  };
  ok(['tap', w.hunk.shortId]);
  ok(['untap', w.hunk.shortId], { CLAUDECODE: '0' });
  ok(['queue', 'clear', '--done']);
  ok(['rollback', 'snapshot', w.snap, '--dry-run'], CLAUDE);
  ok(['rollback', 'snapshot', w.snap, '--yes']);
  ok(['undo', '--dry-run'], CLAUDE);
  ok(['undo', '--yes']);
  ok(['baseline', 'set', 'HEAD']);
  ok(['baseline', 'reset']);
  ok(['marks', 'push', w.bare]);
  ok(['marks', 'pull', w.bare]);
  ok(['snapshot', 'drop', w.snap]);
  ok(['gc']);
  ok(['unscar', '--all']);
  ok(['teardown']);
  // What the hooks start inside the agent's env, and what changes nothing, stay allowed.
  ok(['gc', '--auto'], CLAUDE);
  ok(['gc', '--dry-run'], CLAUDE);
});

test("the agent's own acts: reject recorded as agent:claude and shown as such; deleting one scar and queue done stay allowed", () => {
  const w = world();
  const r = w.sb.kizu(['reject', w.hunk.shortId], { env: CLAUDE });
  assert.deepEqual([r.status, r.stderr], [0, '']);
  const marks = JSON.parse(w.sb.kizu(['marks', 'list', '--json']).stdout);
  assert.equal(marks[w.hunk.id].by, 'agent:claude');
  assert.match(w.sb.kizu(['marks', 'list']).stdout, new RegExp(`^rejected ${w.hunk.id} src/a.js:2  agent:claude \\S+\\n$`));
  const out = stop(w.sb, false);
  assert.equal(out.decision, 'block');
  const st = w.sb.kizu(['status']);
  assert.match(st.stdout, new RegExp(`\\n  rejected  ${w.hunk.shortId}  src/a\\.js:2  \\(by agent:claude\\)\\n`));
  assert.deepEqual(JSON.parse(w.sb.kizu(['status', '--json']).stdout).hunks.byAgent, [{ id: w.hunk.id, state: 'rejected', by: 'agent:claude' }]);
  assert.deepEqual([w.sb.kizu(['unscar', 'src/b.js:1'], { env: CLAUDE }).status, w.sb.read('src/b.js')], [0, 'b\n']);
  // The human's reject stays the human's when the agent rejects the same hunk again.
  const h2 = w.sb.kizu(['hunks', '--json']);
  w.sb.write({ 'src/b.js': 'b\nB\n' });
  const bHunk = JSON.parse(w.sb.kizu(['hunks', '--json']).stdout).find((h) => h.path === 'src/b.js');
  assert.ok(h2.status === 0 && bHunk);
  assert.equal(w.sb.kizu(['reject', bHunk.shortId]).status, 0);
  assert.equal(w.sb.kizu(['reject', bHunk.shortId], { env: CLAUDE }).status, 0);
  assert.equal(JSON.parse(w.sb.kizu(['marks', 'list', '--json']).stdout)[bHunk.id].by, 'kizu@example.invalid');
  const item = add(w.sb, 'one more');
  assert.equal(w.sb.kizu(['queue', 'done', item], { env: CLAUDE }).status, 0);
  // Reverting one hunk (what the protocol asks for a reject) stays the agent's.
  assert.deepEqual([w.sb.kizu(['revert', w.hunk.shortId], { env: CLAUDE }).status, w.sb.read('src/a.js')], [0, 'one\ntwo\nthree\n']);
});

test("an agent's tap (by agent:<name>) is not review: with stop.requireReview the hunk is still unreviewed", () => {
  const sb = sandbox({ files: { 'src/a.js': 'one\ntwo\n', '.kizurc.json': JSON.stringify({ stop: { requireReview: true } }) } });
  sb.write({ 'src/a.js': 'one\nTWO\n' });
  const [h] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  const marks = { version: 1, marks: { [h.id]: { state: 'tapped', time: new Date().toISOString(), by: 'agent:claude', path: 'src/a.js', range: 'src/a.js:2' } } };
  const blob = sb.git('hash-object', '-w', '--stdin', { input: JSON.stringify(marks, null, 2) + '\n' }).trim();
  const tree = sb.git('mktree', { input: `100644 blob ${blob}\tmarks.json\n` }).trim();
  sb.git('update-ref', REF, sb.git('commit-tree', tree, '-m', 'agent tap').trim());
  const st = JSON.parse(sb.kizu(['status', '--json']).stdout);
  assert.deepEqual([st.hunks.unreviewed, st.hunks.tapped, st.hunks.byAgent], [1, 0, [{ id: h.id, state: 'tapped', by: 'agent:claude' }]]);
  assert.match(sb.kizu(['status']).stdout, new RegExp(`\\n  tapped by agent:claude, not review  ${h.shortId}  src/a\\.js:2\\n`));
  assert.equal(stop(sb, false).decision, 'block');
  assert.match(sb.kizu(['marks', 'list']).stdout, new RegExp(`^tapped ${h.id} src/a.js:2  agent:claude `));
});

test('agentSession: markers, values that mean off, AI_AGENT prefixes', async () => {
  const { agentSession } = await import(src('agents/session-env.ts'));
  assert.equal(agentSession({}), null);
  assert.equal(agentSession({ CLAUDECODE: '' }), null);
  assert.equal(agentSession({ CLAUDECODE: '0', GEMINI_CLI: 'false' }), null);
  assert.deepEqual(agentSession({ CLAUDECODE: '1' }), { agent: 'claude', variable: 'CLAUDECODE', by: 'agent:claude' });
  assert.deepEqual(agentSession({ CODEX_SANDBOX_NETWORK_DISABLED: '1' }), { agent: 'codex', variable: 'CODEX_SANDBOX_NETWORK_DISABLED', by: 'agent:codex' });
  assert.deepEqual(agentSession({ AI_AGENT: 'claude-code_2-1-332_agent' }), { agent: 'claude', variable: 'AI_AGENT', by: 'agent:claude' });
  assert.deepEqual(agentSession({ AI_AGENT: 'zed' }), { agent: 'other', variable: 'AI_AGENT', by: 'agent:other' });
});

test("review shows a mark an agent set as the agent's: `[rejected by agent:claude]`", async (t) => {
  const { terminal } = await import('../helpers/terminal.mjs');
  const { head } = await import('../helpers/review.mjs');
  const sb = sandbox({ files: { 'a.txt': 'one\ntwo\n' } });
  sb.write({ 'a.txt': 'one\nTWO\n' });
  const [h] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  assert.equal(sb.kizu(['reject', h.shortId], { env: CLAUDE }).status, 0);
  const s = terminal(t, sb, ['review']);
  await s.waitFor(head(h, 'rejected by agent:claude'));
  s.type('q');
  await s.waitFor(`  ${h.shortId}  a.txt:2  +1 -1  modified  [rejected by agent:claude]`);
});

/**
 * Runs `shell` (sh -c, with $1 = `arg`) from a node program at `<base>/agentbin/<name>`, with
 * every session variable removed from its environment first, as an agent would (`env -u`,
 * `unset`, `os.environ.pop`). Returns {pid: the program's pid, status, stderr} of the command.
 */
function runFrom(sb, name, shell, arg) {
  const dir = path.join(sb.base, 'agentbin');
  mkdirSync(dir, { recursive: true });
  const prog = path.join(dir, name);
  writeFileSync(
    prog,
    `#!${process.execPath}\n` +
      `const { spawnSync } = require('node:child_process');\n` +
      `const env = { ...process.env };\n` +
      `for (const k of ${JSON.stringify(MARKERS)}) delete env[k];\n` +
      `const r = spawnSync('sh', ['-c', process.argv[2], 'sh', process.argv[3]], { env, encoding: 'utf8' });\n` +
      `process.stdout.write(JSON.stringify({ pid: process.pid, status: r.status, stderr: r.stderr }));\n`,
  );
  chmodSync(prog, 0o755);
  // The agent's own environment holds its marker; the program removes it before the command.
  const r = sb.run(prog, [shell, arg], { env: { CLAUDECODE: '1', AI_AGENT: 'claude-code_2-1-332_agent' } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const MARKERS = ['CLAUDECODE', 'AI_AGENT', 'CODEX_THREAD_ID', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'GEMINI_CLI', 'COPILOT_CLI', 'CURSOR_AGENT'];

test("with every variable removed, a reviewer's act started under an agent's CLI process (its ancestor) is refused; under any other program it runs", () => {
  const w = world();
  const before = state(w.sb);
  // The adversarial tester's forms: env -u, unset + a computed command, the launcher through sh.
  for (const shell of [
    'env -u CLAUDECODE git kizu tap "$1"',
    'unset CLAUDECODE; X=kizu; git $X tap "$1"',
    'sh "$(git rev-parse --git-common-dir)/kizu/git-kizu" tap "$1"',
  ]) {
    const r = runFrom(w.sb, 'claude', shell, w.hunk.shortId);
    const why = `its process ${r.pid}, claude, started this one`;
    assert.deepEqual(
      [r.status, r.stderr],
      [
        2,
        `git-kizu: error: git kizu tap is the reviewer's act, and this runs inside a Claude Code session (${why}): nothing was changed\n` +
          `hint: ask the human to run git kizu tap in their own terminal; an agent answers review with its edits, scars it deleted and git kizu queue done\n`,
      ],
      shell,
    );
    assert.deepEqual(state(w.sb), before, `${shell} changed nothing`);
  }
  // A rollback too, and a reject from there is recorded as the agent's.
  const rb = runFrom(w.sb, 'gemini', 'git kizu rollback snapshot "$1" --yes', w.snap);
  assert.deepEqual([rb.status, rb.stderr.split('\n')[0]], [2, `git-kizu: error: git kizu rollback snapshot is the reviewer's act, and this runs inside a Gemini CLI session (its process ${rb.pid}, gemini, started this one): nothing was changed`]);
  assert.deepEqual(state(w.sb), before);
  assert.equal(runFrom(w.sb, 'codex', 'git kizu reject "$1"', w.hunk.shortId).status, 0);
  assert.equal(JSON.parse(w.sb.kizu(['marks', 'list', '--json']).stdout)[w.hunk.id].by, 'agent:codex');
  // The same program under another name (an editor, a terminal, a script of the human's): allowed.
  const ok = runFrom(w.sb, 'code', 'env -u CLAUDECODE git kizu tap "$1"', w.hunk.shortId);
  assert.deepEqual([ok.status, ok.stderr], [0, '']);
  assert.equal(JSON.parse(w.sb.kizu(['marks', 'list', '--json']).stdout)[w.hunk.id].state, 'tapped');
});

test('agentOfProcess: the command lines measured on the real CLIs; other programs are not agents', async () => {
  const { agentOfProcess } = await import(src('agents/session-ancestry.ts'));
  const nm = '/work/main/node_modules';
  const tools = '/work/main/test/tools/node_modules';
  const cases = [
    [{ argv: [`${nm}/.bin/claude`, '-p', 'hi'], exe: `${nm}/@anthropic-ai/claude-code/bin/claude.exe`, comm: 'claude' }, 'claude'],
    [{ argv: ['claude'], exe: '/home/u/.local/share/claude/versions/2.1.332', comm: 'claude' }, 'claude'],
    [{ argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], exe: '/usr/bin/node', comm: 'node' }, 'claude'],
    [{ argv: ['node', `${tools}/.bin/codex`, 'exec', 'hi'], exe: '/usr/bin/node', comm: 'node' }, 'codex'],
    [{ argv: [`${tools}/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex`, 'exec'], exe: null, comm: 'codex' }, 'codex'],
    [{ argv: ['/usr/bin/node', '--max-old-space-size=12052', `${tools}/.bin/gemini`, '-p', 'hi'], exe: '/usr/bin/node', comm: 'node' }, 'gemini'],
    [{ argv: ['node', `${tools}/@google/gemini-cli/bundle/gemini.js`], exe: '/usr/bin/node', comm: 'node' }, 'gemini'],
    [{ argv: [`${tools}/@github/copilot-linux-x64/copilot`, '-p', 'hi'], exe: `${tools}/@github/copilot-linux-x64/copilot`, comm: 'MainThread' }, 'copilot'],
    [{ argv: ['node', `${tools}/.bin/copilot`], exe: '/usr/bin/node', comm: 'node' }, 'copilot'],
    [{ argv: ['cursor-agent'], exe: null, comm: 'cursor-agent' }, 'cursor'],
    [{ argv: ['/usr/share/code/code', '--type=renderer'], exe: '/usr/share/code/code', comm: 'code' }, null],
    [{ argv: ['-bash'], exe: '/usr/bin/bash', comm: 'bash' }, null],
    [{ argv: ['vim', 'claude'], exe: '/usr/bin/vim', comm: 'vim' }, null],
    [{ argv: ['node', '/usr/lib/node_modules/git-kizu/bin/git-kizu.js', 'tap'], exe: '/usr/bin/node', comm: 'node' }, null],
    [{ argv: [], exe: null, comm: 'kthreadd' }, null],
  ];
  for (const [p, agent] of cases) assert.equal(agentOfProcess(p), agent, p.argv.join(' '));
});

test('agentInAncestry walks the parent pids of a proc tree up to an agent, and stops at pid 1 or an unreadable link', async () => {
  const { agentInAncestry } = await import(src('agents/session-ancestry.ts'));
  const { detectAgentSession } = await import(src('agents/session.ts'));
  const proc = mkdtempSync(path.join(tmpdir(), 'kizu-proc-'));
  const ps = (pid, ppid, argv, comm) => {
    mkdirSync(path.join(proc, String(pid)));
    writeFileSync(path.join(proc, String(pid), 'stat'), `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1\n`);
    writeFileSync(path.join(proc, String(pid), 'cmdline'), argv.join('\0') + '\0');
  };
  try {
    ps(10, 1, ['/usr/share/code/code'], 'code');
    ps(20, 10, ['node', '/opt/bin/claude'], 'claude');
    ps(30, 20, ['/bin/bash', '-c', 'env -u CLAUDECODE git kizu tap'], 'bash');
    ps(40, 30, ['git', 'kizu', 'tap'], 'git');
    ps(50, 10, ['/bin/bash'], 'a (odd) name');
    ps(60, 50, ['git', 'kizu', 'tap'], 'git');
    ps(70, 999, ['git'], 'git');
    assert.deepEqual(agentInAncestry({ pid: 40, proc }), { agent: 'claude', by: 'agent:claude', ancestor: { pid: 20, name: 'claude' } });
    assert.equal(agentInAncestry({ pid: 60, proc }), null);
    assert.equal(agentInAncestry({ pid: 70, proc }), null);
    // The variables answer first; the ancestry only where none is set.
    assert.deepEqual(detectAgentSession({ GEMINI_CLI: '1' }, { pid: 40, proc }), { agent: 'gemini', variable: 'GEMINI_CLI', by: 'agent:gemini' });
    assert.equal(detectAgentSession({}, { pid: 40, proc }).agent, 'claude');
  } finally {
    rmSync(proc, { recursive: true, force: true });
  }
});
