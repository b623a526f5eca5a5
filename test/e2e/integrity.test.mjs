// End-to-end with the REAL Claude Code client (see test/e2e/claude.test.mjs): install
// integrity's message from the UserPromptSubmit hook reaches the user and not the model, and
// `disableAllHooks` really switches git-kizu's hooks off (so it is worth a finding).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAUDE_ARGS, claudeRepo, claudeSandboxEnv } from '../helpers/claude.mjs';
import { hookRuns, runAgainstFake } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

/** Takes git-kizu's Stop entry out of .claude/settings.json, as an agent could. */
function dropStop(sb) {
  const s = JSON.parse(sb.read('.claude/settings.json'));
  delete s.hooks.Stop;
  sb.write({ '.claude/settings.json': JSON.stringify(s, null, 2) + '\n' });
}

test('the Stop entry removed: the prompt hook tells the user once in a systemMessage, which the model never sees', { timeout: E2E_TEST_MS }, async (t) => {
  // The journal hook kept: init's whole install, so the one change is the Stop entry.
  const sb = claudeRepo({ files: { 'a.js': 'a\n' }, journal: true });
  dropStop(sb);
  const env = claudeSandboxEnv(sb);
  const { r, agent } = await runAgainstFake(t, { agent: ['done'], prompt: 'Say done.', cwd: sb.dir, env, args: CLAUDE_ARGS, timeoutMs: E2E_RUN_MS });
  const runs = hookRuns(r, 'UserPromptSubmit');
  assert.equal(runs.length, 1, JSON.stringify(hookRuns(r)));
  const msg = JSON.parse(runs[0].stdout).systemMessage;
  assert.match(msg, /^git-kizu: review may be switched off: 1 change to git-kizu's hooks since git kizu init: \.claude\/settings\.json: git-kizu's Stop entry is missing or changed; run `git kizu init --agent claude`\./);
  // Shown to the user ...
  const shown = r.events.filter((e) => e.type === 'system' && e.subtype === 'informational').map((e) => e.content);
  assert.ok(shown.some((c) => c.includes('review may be switched off')), JSON.stringify(shown));
  // ... and not in any request to the model.
  for (const q of agent) assert.ok(!JSON.stringify(q.body).includes('review may be switched off'), 'the message reached the model');
  // Told once: the next prompt says nothing.
  const again = await runAgainstFake(t, { agent: ['done'], prompt: 'Say done.', cwd: sb.dir, env, args: CLAUDE_ARGS, timeoutMs: E2E_RUN_MS });
  assert.deepEqual(hookRuns(again.r, 'UserPromptSubmit').map((h) => h.stdout), ['']);
});

test('disableAllHooks in .claude/settings.local.json: Claude Code runs none of git-kizu\'s hooks', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = claudeRepo({ files: { 'a.js': 'a\n' } });
  sb.write({ '.claude/settings.local.json': '{ "disableAllHooks": true }\n' });
  const { r } = await runAgainstFake(t, { agent: ['done'], prompt: 'Say done.', cwd: sb.dir, env: claudeSandboxEnv(sb), args: CLAUDE_ARGS, timeoutMs: E2E_RUN_MS });
  assert.deepEqual(hookRuns(r), []);
  assert.match(sb.kizu(['doctor']).stdout, /fix {2}install: .*settings\.local\.json: "disableAllHooks": true switches off every Claude Code hook/);
});

test('another Stop hook answering {"continue": false} ends the turn although git-kizu\'s Stop hook blocks (why doctor warns about it)', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = claudeRepo({ files: { 'a.js': 'a\n' } });
  sb.write({ 'a.js': '// @kizu[ask]: explain this change\na\n' });
  sb.write({ '.claude/settings.local.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `echo '{"continue": false, "stopReason": "other hook"}'` }] }] } }) + '\n' });
  const { r, agent } = await runAgainstFake(t, { agent: ['done', 'second'], prompt: 'Say done.', cwd: sb.dir, env: claudeSandboxEnv(sb), args: CLAUDE_ARGS, timeoutMs: E2E_RUN_MS });
  const stops = hookRuns(r, 'Stop');
  // Both ran; git-kizu's blocked ...
  assert.ok(stops.some((h) => /"decision":"block"/.test(h.stdout)), JSON.stringify(stops));
  // ... and the turn ended anyway: the model was asked once.
  assert.equal(agent.length, 1, JSON.stringify(stops));
  assert.match(sb.kizu(['doctor']).stdout, /warn install: .*settings\.local\.json: another hook on Stop: echo/);
});
