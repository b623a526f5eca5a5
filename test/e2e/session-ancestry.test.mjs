// The reviewer's acts from the real Claude Code client's Bash tool with its session variables
// removed (`env -u CLAUDECODE -u AI_AGENT git kizu tap`): git-kizu finds the client among the
// command's ancestors (src/agents/session-ancestry.ts, /proc) and refuses. No hooks are
// installed here, so no pre-tool gate stands in front: the command itself decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { claudeSandboxEnv, requireClaude } from '../helpers/claude.mjs';
import { newMessages, runAgainstFake, toolUse } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';
import { CODEX_BIN, COPILOT_BIN, MODEL, codexEnv, copilotEnv, newInput, runAgainstFake as runAgainstFakeResponses } from '../helpers/fake-responses.mjs';
import { call, geminiHome, newContents, runAgainstFakeGemini } from '../helpers/fake-gemini.mjs';

/** Every session variable an agent sets (README "Agents"), removed with `env -u`. */
const UNSET = ['CLAUDECODE', 'AI_AGENT', 'CODEX_THREAD_ID', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'GEMINI_CLI', 'COPILOT_CLI', 'CURSOR_AGENT'].map((v) => `-u ${v}`).join(' ');

/** A repository with one uncommitted hunk and no hooks (no pre-tool gate); returns {sb, hunk}. */
function changed() {
  const sb = sandbox({ files: { 'src/app.js': 'a\nb\n' } });
  sb.write({ 'src/app.js': 'a\nB\n' });
  const [hunk] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  return { sb, hunk };
}

/** The refusal of `git kizu tap` found by the ancestry, for `agent` (its label) and the program `name`. */
const refused = (agent, name) => new RegExp(`git kizu tap is the reviewer's act, and this runs inside a ${agent} session \\(its process \\d+, ${name}, started this one\\): nothing was changed[\\s\\S]*exit 2`);

test("from Claude Code's Bash tool, `env -u CLAUDECODE -u AI_AGENT git kizu tap` is refused: the client is the command's ancestor", { timeout: E2E_TEST_MS }, async (t) => {
  requireClaude();
  const sb = sandbox({ files: { 'src/app.js': 'a\nb\n' } });
  sb.write({ 'src/app.js': 'a\nB\n' });
  const [h] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  const TAP = toolUse('Bash', { command: `env -u CLAUDECODE -u AI_AGENT git kizu tap ${h.shortId}; echo "exit $?"`, description: 'Tap the hunk' });
  const { agent } = await runAgainstFake(t, {
    agent: [[TAP], 'done'],
    prompt: 'Tap the hunk.',
    cwd: sb.dir,
    env: claudeSandboxEnv(sb),
    args: ['--allowedTools', 'Bash'],
    timeoutMs: E2E_RUN_MS,
  });
  assert.equal(agent.length, 2, 'agent-loop requests: tap, done');
  const [result] = newMessages(agent[1])[0].content;
  const out = JSON.stringify(result.content);
  assert.match(out, /git kizu tap is the reviewer's act, and this runs inside a Claude Code session \(its process \d+, claude, started this one\): nothing was changed/);
  assert.match(out, /exit 2/);
  assert.equal(sb.kizu(['marks', 'list']).stdout, '');
});

test("from Codex CLI's exec_command, with every session variable removed, `git kizu tap` is refused: its codex binary is the command's ancestor", { timeout: E2E_TEST_MS }, async (t) => {
  const { sb, hunk } = changed();
  const shell = (id, cmd) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'exec_command', arguments: JSON.stringify({ cmd }), status: 'completed' });
  const { agent } = await runAgainstFakeResponses(t, {
    bin: CODEX_BIN,
    args: ['exec', '-m', MODEL, '--skip-git-repo-check', 'tap the hunk'],
    cwd: sb.dir,
    envFor: (url) => codexEnv(sb, url),
    // Codex's shell builds its own PATH: put the sandbox's git-kizu back on it.
    agent: [shell(1, `PATH=${sb.binDir}:$PATH env ${UNSET} git kizu tap ${hunk.shortId}; echo "exit $?"`), 'done'],
  });
  assert.match(newInput(agent[1]).find((i) => /_output$/.test(i.type)).output, refused('Codex CLI', 'codex'));
  assert.equal(sb.kizu(['marks', 'list']).stdout, '');
});

test("from Gemini CLI's run_shell_command, with every session variable removed, `git kizu tap` is refused: its node process running gemini is the command's ancestor", { timeout: E2E_TEST_MS }, async (t) => {
  const { sb, hunk } = changed();
  geminiHome(sb);
  const { agent } = await runAgainstFakeGemini(t, {
    sb,
    cwd: sb.dir,
    prompt: 'tap the hunk',
    agent: [call('run_shell_command', { command: `env ${UNSET} git kizu tap ${hunk.shortId}; echo "exit $?"` }), 'done'],
  });
  assert.match(JSON.stringify(newContents(agent[1])[0].parts[0].functionResponse.response).replace(/\\n/g, '\n'), refused('Gemini CLI', 'gemini'));
  assert.equal(sb.kizu(['marks', 'list']).stdout, '');
});

test("from Copilot CLI's bash tool, with every session variable removed, `git kizu tap` is refused: its copilot binary is the command's ancestor", { timeout: E2E_TEST_MS }, async (t) => {
  const { sb, hunk } = changed();
  const bash = (id, command) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'bash', arguments: JSON.stringify({ command, description: 'run' }), status: 'completed' });
  const { agent } = await runAgainstFakeResponses(t, {
    bin: COPILOT_BIN,
    args: ['-p', 'tap the hunk', '--allow-all-tools', '--trust-folder'],
    cwd: sb.dir,
    envFor: (url) => copilotEnv(sb, url),
    agent: [bash(1, `env ${UNSET} git kizu tap ${hunk.shortId}; echo "exit $?"`), 'done'],
  });
  assert.match(newInput(agent[1]).find((i) => /_output$/.test(i.type)).output, refused('Copilot CLI', 'copilot'));
  assert.equal(sb.kizu(['marks', 'list']).stdout, '');
});
