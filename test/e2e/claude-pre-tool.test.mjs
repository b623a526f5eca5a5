// End-to-end: the pre-tool gate that `git kizu init` installs (PreToolUse, Bash and the edit
// tools), run by the REAL Claude Code client against the scripted fake Anthropic API
// (test/helpers/fake-anthropic.mjs). Bash is allowed by the client's own permission rules
// (--allowedTools Bash), so only the gate stands between the agent and the command: a denied
// call never runs, and the model reads the gate's reason in the tool result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { claudeRepo, claudeSandboxEnv } from '../helpers/claude.mjs';
import { hookRuns, newMessages, runAgainstFake, text, toolUse } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

test('a Bash call that skips the hooks is denied by the PreToolUse gate: it never runs, and the model sees the reason', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = claudeRepo({ files: { 'src/app.js': 'const a = 1;\n' } });
  sb.write({ 'src/app.js': 'const a = 2;\n' });
  const DENIED = toolUse('Bash', { command: 'touch ran-denied.txt && git commit -a --no-verify -m wip', description: 'Commit' });
  const ALLOWED = toolUse('Bash', { command: 'touch ran-allowed.txt', description: 'Touch' });
  const FINAL = 'Left the commit to the human.';
  const { r, agent } = await runAgainstFake(t, {
    agent: [[text('Committing.'), DENIED], [ALLOWED], FINAL],
    prompt: 'Commit the change.',
    cwd: sb.dir,
    env: claudeSandboxEnv(sb),
    args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'],
    timeoutMs: E2E_RUN_MS,
  });
  assert.equal(agent.length, 3);
  assert.equal(r.json.result, FINAL);

  const gate = hookRuns(r, 'PreToolUse');
  assert.equal(gate.length, 2, JSON.stringify(gate));
  assert.equal(gate[0].exit_code, 0);
  const out = JSON.parse(gate[0].stdout);
  assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
  const reason = out.hookSpecificOutput.permissionDecisionReason;
  assert.ok(reason.startsWith('git-kizu refused this Bash call: this commit skips the git hooks'), reason);
  assert.deepEqual([gate[1].exit_code, gate[1].stdout], [0, '']);

  // The model reads the reason as the tool's error result.
  const [denied] = newMessages(agent[1])[0].content;
  assert.equal(denied.tool_use_id, DENIED.id);
  assert.equal(denied.is_error, true);
  const content = typeof denied.content === 'string' ? denied.content : JSON.stringify(denied.content);
  assert.ok(content.includes('this commit skips the git hooks'), content);
  assert.equal(existsSync(sb.path('ran-denied.txt')), false, 'the denied command ran');
  // The allowed one ran.
  const [allowed] = newMessages(agent[2])[0].content;
  assert.equal(allowed.is_error, false, JSON.stringify(allowed));
  assert.equal(existsSync(sb.path('ran-allowed.txt')), true);
  // Nothing was committed.
  assert.equal(sb.git('rev-list', '--count', 'HEAD').trim(), '1');
});

test('another PreToolUse hook answering "allow" does not lift the gate\'s deny (why doctor names it as a note only)', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = claudeRepo({ files: { 'src/app.js': 'const a = 1;\n' } });
  sb.write({ 'src/app.js': 'const a = 2;\n' });
  const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'other hook' } });
  sb.write({ '.claude/settings.local.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${allow}'` }] }] } }) + '\n' });
  const DENIED = toolUse('Bash', { command: 'touch ran-denied.txt && git commit -a --no-verify -m wip', description: 'Commit' });
  const { agent } = await runAgainstFake(t, {
    agent: [[text('Committing.'), DENIED], 'Left it.'],
    prompt: 'Commit the change.',
    cwd: sb.dir,
    env: claudeSandboxEnv(sb),
    args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'],
    timeoutMs: E2E_RUN_MS,
  });
  const [denied] = newMessages(agent[1])[0].content;
  assert.equal(denied.is_error, true, JSON.stringify(denied));
  assert.equal(existsSync(sb.path('ran-denied.txt')), false, 'the denied command ran');
  assert.equal(sb.git('rev-list', '--count', 'HEAD').trim(), '1');
  assert.match(sb.kizu(['doctor']).stdout, /ok {3}install: .*settings\.local\.json: another hook on PreToolUse: echo/);
});
