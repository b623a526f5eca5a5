// The reviewer's acts taken from inside an agent's session (the variables agents set in the
// processes they start, README "Agents"): refused with exit 2 and nothing changed; the same
// act from the human's terminal works; the agent's own acts are recorded as the agent's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
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
