// End-to-end: the hooks `git kizu init --agent codex` installs, run by the REAL Codex CLI
// (test/tools: @openai/codex 0.171.0, `codex exec`) against the scripted fake Responses API of
// test/helpers/fake-responses.mjs. No network but 127.0.0.1.
//
// What Codex 0.171.0 does here (measured): it runs each hook with `$SHELL -lc <command>` in
// the session's working directory, the payload on stdin; it skips hooks whose trust entry
// in $CODEX_HOME/config.toml is missing or stale (init writes them) and project hooks of an
// untrusted project (the test's config.toml trusts the sandbox repo). A Stop block's reason R
// reaches the model as the user message `<hook_prompt hook_run_id="stop:5:<hooks.json>">R</hook_prompt>`
// (R with <, > and & escaped); a PostToolUse additionalContext C as a developer message right
// before the tool's output. Codex has no limit of its own on blocked stops: git-kizu's
// `stop.maxBlocks` is what ends a run whose scar is never removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BIN, sandbox } from '../helpers/sandbox.mjs';
import { CODEX_BIN, MODEL, applyPatch, codexEnv, newInput, runAgainstFake } from '../helpers/fake-responses.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';
import { commitConfig } from '../helpers/config.mjs';

const TEST_TIMEOUT = E2E_TEST_MS;
const RUN_TIMEOUT = E2E_RUN_MS;
const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
const EDITED = 'const a = 1;\nconst b = 20;\nconst c = 3;\n';
const SCAR = '// @kizu[ask]: explain this change';
const SCARRED = `const a = 1;\n${SCAR}\nconst b = 20;\nconst c = 3;\n`;
const PROMPT = 'Review the scars in this repository.';
const REMOVE_SCAR = `*** Begin Patch\n*** Update File: src/app.js\n@@\n const a = 1;\n-${SCAR}\n const b = 20;\n*** End Patch\n`;

test('the pinned Codex CLI runs here', { timeout: TEST_TIMEOUT }, () => {
  accessSync(CODEX_BIN, constants.X_OK); // no skip: a missing client fails every test below
  const r = spawnSync(CODEX_BIN, ['--version'], { encoding: 'utf8', timeout: RUN_TIMEOUT });
  assert.ifError(r.error);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'codex-cli 0.171.0');
});

/** A sandbox repo with src/app.js committed, `git kizu init --agent codex`, then the edit and its scar. */
function scarredRepo({ config } = {}) {
  accessSync(CODEX_BIN, constants.X_OK);
  const sb = sandbox({ files: { 'src/app.js': ORIGINAL } });
  if (config) commitConfig(sb, { '.kizurc.json': JSON.stringify(config) });
  const init = sb.kizu(['init', '--agent', 'codex']);
  assert.equal(init.status, 0, `git kizu init --agent codex failed:\n${init.stdout}\n${init.stderr}`);
  sb.write({ 'src/app.js': EDITED });
  assert.equal(sb.kizu(['scar', 'src/app.js:2']).status, 0);
  assert.equal(sb.read('src/app.js'), SCARRED);
  const hooksFile = sb.path('.codex/hooks.json');
  const stopCmd = JSON.parse(readFileSync(hooksFile, 'utf8')).hooks.Stop[0].hooks[0].command;
  assert.equal(stopCmd, '"$(git rev-parse --show-toplevel)"/.codex/hooks/kizu-hook.sh stop codex');
  return { sb, hooksFile, stopCmd };
}

/** What git-kizu's hook `event` prints for a Codex payload naming src/app.js in `sb` now (a probe session). */
function probe(sb, event, extra) {
  const payload = { session_id: 'probe', turn_id: 'probe', cwd: sb.dir, model: MODEL, permission_mode: 'bypassPermissions', ...extra };
  const r = sb.run(process.execPath, [BIN, 'hook', event, '--agent', 'codex'], { input: JSON.stringify(payload) });
  assert.deepEqual([r.status, r.stderr], [0, ''], `probe ${event}`);
  return JSON.parse(r.stdout);
}
const stopReason = (sb) => probe(sb, 'stop', { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'x' }).reason;
const postContext = (sb) =>
  probe(sb, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'apply_patch', tool_input: { command: REMOVE_SCAR }, tool_response: '', tool_use_id: 'p' }).hookSpecificOutput.additionalContext;

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The input item a Stop block with `reason` adds (Codex's hook_prompt; 5 is the stop handler's display order among init's six). */
const hookPrompt = (hooksFile, reason) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text: `<hook_prompt hook_run_id="stop:5:${hooksFile}">${escape(reason)}</hook_prompt>` }],
});
/** apply_patch's output as the model sees it (its wall time normalised). */
const patchOutput = (q, callId) => {
  const [out] = newInput(q).filter((i) => i.type === 'custom_tool_call_output');
  assert.equal(out.call_id, callId);
  return out.output.replace(/^Wall time: [\d.]+ seconds$/m, 'Wall time: N seconds');
};
const PATCHED = 'Exit code: 0\nWall time: N seconds\nOutput:\nSuccess. Updated the following files:\nM src/app.js\n';

function run(t, sb, agent, cwd = sb.dir) {
  return runAgainstFake(t, { agent, bin: CODEX_BIN, args: ['exec', '-m', MODEL, PROMPT], envFor: (url) => codexEnv(sb, url), cwd, timeoutMs: RUN_TIMEOUT });
}

function assertScan(sb, expected) {
  const r = sb.kizu(['scan', '--json']);
  assert.deepEqual(JSON.parse(r.stdout), expected);
}

test('(a) a scar blocks the first stop; the agent deletes the scar line with apply_patch; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb, hooksFile } = scarredRepo();
  const reason = stopReason(sb);
  assert.ok(reason.includes('"src/app.js":2') && reason.includes('explain this change'), reason);
  const PATCH = applyPatch(REMOVE_SCAR);
  const { r, agent } = await run(t, sb, ['done', [PATCH], 'b is 20 on purpose; scar removed.']);
  assert.equal(agent.length, 3, 'requests: done, (block) patch, final');
  assert.equal(r.stdout, 'b is 20 on purpose; scar removed.\n');
  // The prompt is the last input of the first request: the prompt hook added nothing.
  const { id: _, ...last } = agent[0].body.input.at(-1);
  assert.deepEqual(last, { type: 'message', role: 'user', content: [{ type: 'input_text', text: PROMPT }] });
  assert.deepEqual(newInput(agent[1]), [hookPrompt(hooksFile, reason)]);
  // The scar is gone: no context after the patch, and the second stop is allowed.
  assert.equal(newInput(agent[2]).length, 1);
  assert.equal(patchOutput(agent[2], PATCH.call_id), PATCHED);
  assert.equal(sb.read('src/app.js'), EDITED);
  assertScan(sb, []);
  // The journal hook recorded the patch, its before content reversed from the file.
  const j = JSON.parse(sb.kizu(['journal', '--json']).stdout);
  assert.deepEqual(j.map((e) => [e.tool, e.files.map((f) => f.path)]), [['apply_patch', ['src/app.js']]]);
  // The prompt hook took its snapshot of the working tree before the turn.
  const snaps = JSON.parse(sb.kizu(['snapshot', 'list', '--json']).stdout);
  assert.deepEqual(snaps.map((s) => [s.kind, s.message]), [['prompt', PROMPT]]);
});

test('(b) editing a scarred file puts the post-edit context in the next request, before the tool output', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb } = scarredRepo();
  const context = postContext(sb);
  assert.ok(context.includes('"src/app.js":2') && context.includes('explain this change'), context);
  const EDIT = applyPatch('*** Begin Patch\n*** Update File: src/app.js\n@@\n-const c = 3;\n+const c = 30;\n*** End Patch\n');
  const DELETE = applyPatch(REMOVE_SCAR);
  const { agent } = await run(t, sb, [[EDIT], [DELETE], 'done']);
  assert.equal(agent.length, 3, 'requests: edit, delete scar, done (no block)');
  const added = newInput(agent[1]);
  assert.deepEqual(added[0], { type: 'message', role: 'developer', content: [{ type: 'input_text', text: context }] });
  assert.equal(added.length, 2);
  assert.equal(patchOutput(agent[1], EDIT.call_id), PATCHED);
  assert.equal(newInput(agent[2]).length, 1, 'no scar left: only the tool output');
  assert.equal(sb.read('src/app.js'), 'const a = 1;\nconst b = 20;\nconst c = 30;\n');
});

test('(c) a scar never removed: stop.maxBlocks (2) blocks, then Codex may stop (it has no limit of its own); started in src/', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb, hooksFile } = scarredRepo({ config: { stop: { maxBlocks: 2 } } });
  const reason = stopReason(sb);
  // Started in a subdirectory: the hook commands find the runner from the repository's top level.
  const { agent } = await run(t, sb, () => 'done', sb.path('src'));
  assert.equal(agent.length, 1 + 2, 'requests: the first, then one per block');
  assert.deepEqual(newInput(agent[1]), [hookPrompt(hooksFile, reason)]);
  const [second] = newInput(agent[2]);
  assert.equal(second.content[0].text, `<hook_prompt hook_run_id="stop:5:${hooksFile}">${escape(reason)}\n(Block 2 of 2 without progress; after that the stop is allowed and the user is told.)</hook_prompt>`);
  assert.equal(sb.read('src/app.js'), SCARRED);
});

test('(d) a garbage payload piped into the installed stop hook: no block, exit 0, one stderr line', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb, hooksFile, stopCmd } = scarredRepo();
  const { codexHookHash } = await import(new URL('../../src/agents/codex/install.ts', import.meta.url).href);
  const errFile = path.join(sb.base, 'stop-stderr.txt');
  const garbage = `echo 'not json' | ${stopCmd} 2>${errFile}`;
  writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace(JSON.stringify(stopCmd), JSON.stringify(garbage)));
  // Trust the changed command (its hash replaces the one init wrote).
  const config = path.join(sb.home, '.codex', 'config.toml');
  writeFileSync(config, readFileSync(config, 'utf8').replace(codexHookHash('stop', undefined, stopCmd, 30), codexHookHash('stop', undefined, garbage, 30)));
  const { agent } = await run(t, sb, ['done']);
  assert.equal(agent.length, 1, 'one request, no block');
  const err = readFileSync(errFile, 'utf8');
  assert.match(err, /^git-kizu: [^\n]+\n$/, `exactly one stderr line expected, got ${JSON.stringify(err)}`);
  assert.equal(sb.read('src/app.js'), SCARRED);
});

test('(e) user scope: `init --agent codex --scope user` hooks run in a project Codex does not trust', { timeout: TEST_TIMEOUT }, async (t) => {
  accessSync(CODEX_BIN, constants.X_OK);
  const sb = sandbox({ files: { 'src/app.js': ORIGINAL, '.kizurc.json': JSON.stringify({ stop: { maxBlocks: 1 } }) } });
  const codexHome = path.join(sb.home, '.codex');
  const init = sb.kizu(['init', '--agent', 'codex', '--scope', 'user'], { env: { CODEX_HOME: codexHome } });
  assert.equal(init.status, 0, init.stderr);
  const hooksFile = path.join(codexHome, 'hooks.json');
  assert.equal(JSON.parse(readFileSync(hooksFile, 'utf8')).hooks.Stop[0].hooks[0].command, `${path.join(codexHome, 'hooks', 'kizu-hook.sh')} stop codex`);
  sb.write({ 'src/app.js': EDITED });
  assert.equal(sb.kizu(['scar', 'src/app.js:2']).status, 0);
  const reason = stopReason(sb);
  const { agent } = await runAgainstFake(t, {
    agent: () => 'done',
    bin: CODEX_BIN,
    args: ['exec', '-m', MODEL, PROMPT],
    envFor: (url) => codexEnv(sb, url, path.join(sb.base, 'elsewhere')), // the sandbox repo is not a trusted project
    cwd: sb.dir,
    timeoutMs: RUN_TIMEOUT,
  });
  assert.equal(agent.length, 2, 'requests: the first, then one block (maxBlocks 1)');
  assert.deepEqual(newInput(agent[1]), [hookPrompt(hooksFile, reason)]);
});
