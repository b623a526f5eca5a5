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
