// End-to-end: the pre-tool gate that `git kizu init --agent <agent>` installs, run by the REAL
// Codex CLI (PreToolUse), Gemini CLI (BeforeTool) and Copilot CLI (preToolUse) against the
// scripted fake model APIs of test/helpers. In each run the fake model asks for three calls in
// turn: a shell command that switches review off (`git commit --no-verify`), a write of
// git-kizu's config (`.kizurc.json`, through the agent's own edit tool), and a harmless shell
// command. The first two must not run, and the model must read the gate's reason as their
// result; the third must run. Measured on this machine (0.171.0, 0.61.0, 1.0.102): the
// model reads a denied call's result as "Command blocked by PreToolUse hook: R. Command: ..."
// (Codex), "Tool execution blocked: R" (Gemini CLI), "Denied by preToolUse hook: R" (Copilot).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { CODEX_BIN, COPILOT_BIN, MODEL, applyPatch, codexEnv, copilotEnv, newInput, runAgainstFake } from '../helpers/fake-responses.mjs';
import { call, geminiHome, newContents, runAgainstFakeGemini } from '../helpers/fake-gemini.mjs';
import { E2E_TEST_MS } from '../helpers/fake-server.mjs';

const NO_VERIFY = 'git commit --no-verify -q -m sneaky';
const HARMLESS = 'echo ok > harmless.txt';
const CONFIG_PATCH = '*** Begin Patch\n*** Add File: .kizurc.json\n+{"scan":{"exclude":["**"]}}\n*** End Patch\n';
const NO_VERIFY_REASON = /git-kizu refused this \w+ call: this commit skips the git hooks .*\(rule commit-no-verify: \\?"git commit --no-verify -q -m sneaky\\?"\)/; // the agent may print the reason inside JSON
const CONFIG_REASON = /git-kizu refused this \w+ call: this file is git-kizu's config.*\(rule kizu-config: \\?".*\.kizurc\.json\\?"\)/;

/** A repository with one staged change (so a commit would go through), `git kizu init --agent <agent>` run. */
function repo(agent) {
  const sb = sandbox({ files: { 'a.js': 'const a = 1;\n' } });
  const init = sb.kizu(['init', '--agent', agent]);
  assert.equal(init.status, 0, `git kizu init --agent ${agent}:\n${init.stdout}\n${init.stderr}`);
  sb.write({ 'a.js': 'const a = 2;\n' });
  sb.git('add', 'a.js');
  return sb;
}

/** What the repository shows after the run: the commit did not happen, the config was not written, the harmless command ran. */
function assertGated(sb, head) {
  assert.equal(sb.git('rev-parse', 'HEAD').trim(), head, 'the --no-verify commit ran');
  assert.equal(existsSync(sb.path('.kizurc.json')), false, 'the config write ran');
  assert.equal(sb.read('harmless.txt'), 'ok\n', 'the harmless command did not run');
}

test('Codex CLI: PreToolUse denies a --no-verify commit and a config patch, lets a harmless command run', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = repo('codex');
  const head = sb.git('rev-parse', 'HEAD').trim();
  const shell = (id, cmd) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'exec_command', arguments: JSON.stringify({ cmd }), status: 'completed' });
  const { agent } = await runAgainstFake(t, {
    bin: CODEX_BIN,
    args: ['exec', '-m', MODEL, 'commit the change'],
    cwd: sb.dir,
    envFor: (url) => codexEnv(sb, url),
    agent: [shell(1, NO_VERIFY), applyPatch(CONFIG_PATCH, 'call_2'), shell(3, HARMLESS), 'done'],
  });
  const out = (q) => newInput(q).find((i) => /_output$/.test(i.type)).output;
  assert.match(out(agent[1]), /^Command blocked by PreToolUse hook: /);
  assert.match(out(agent[1]), NO_VERIFY_REASON);
  assert.match(out(agent[2]), CONFIG_REASON);
  assert.doesNotMatch(out(agent[3]), /blocked/);
  assertGated(sb, head);
});

test('Gemini CLI: BeforeTool denies a --no-verify commit and a config write, lets a harmless command run', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = repo('gemini');
  geminiHome(sb);
  const head = sb.git('rev-parse', 'HEAD').trim();
  const { agent } = await runAgainstFakeGemini(t, {
    sb,
    cwd: sb.dir,
    prompt: 'commit the change',
    agent: [
      call('run_shell_command', { command: NO_VERIFY }),
      call('write_file', { file_path: sb.path('.kizurc.json'), content: '{"scan":{"exclude":["**"]}}\n' }),
      call('run_shell_command', { command: HARMLESS }),
      'done',
    ],
  });
  const out = (q) => JSON.stringify(newContents(q)[0].parts[0].functionResponse.response);
  assert.match(out(agent[1]), /Tool execution blocked: git-kizu refused/);
  assert.match(out(agent[1]), NO_VERIFY_REASON);
  assert.match(out(agent[2]), CONFIG_REASON);
  assert.doesNotMatch(out(agent[3]), /blocked/);
  assertGated(sb, head);
});

test('Copilot CLI: preToolUse denies a --no-verify commit and a config patch, lets a harmless command run', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = repo('copilot');
  const head = sb.git('rev-parse', 'HEAD').trim();
  const bash = (id, command) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'bash', arguments: JSON.stringify({ command, description: 'run' }), status: 'completed' });
  const { agent } = await runAgainstFake(t, {
    bin: COPILOT_BIN,
    args: ['-p', 'commit the change', '--allow-all-tools', '--trust-folder'],
    cwd: sb.dir,
    envFor: (url) => copilotEnv(sb, url),
    agent: [bash(1, NO_VERIFY), applyPatch(CONFIG_PATCH, 'call_2'), bash(3, HARMLESS), 'done'],
  });
  const out = (q) => newInput(q).find((i) => /_output$/.test(i.type)).output;
  assert.match(out(agent[1]), /^Denied by preToolUse hook: git-kizu refused/);
  assert.match(out(agent[1]), NO_VERIFY_REASON);
  assert.match(out(agent[2]), CONFIG_REASON);
  assert.doesNotMatch(out(agent[3]), /Denied/);
  assertGated(sb, head);
});
