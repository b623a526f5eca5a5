// End-to-end: the hooks `git kizu init --agent copilot` installs, run by the REAL GitHub
// Copilot CLI (test/tools: @github/copilot 1.0.102, `copilot -p`, bring-your-own-key against
// the scripted fake Responses API of test/helpers/fake-responses.mjs). No network but 127.0.0.1.
//
// What Copilot 1.0.102 does here (measured): it loads the repository's .github/hooks/*.json
// only in a trusted folder (`--trust-folder` for one run trusts the working directory, so
// it works from the top level only; COPILOT_ALLOW_ALL=true; without trust the hooks never
// run); it runs a hook in the session's working directory; a hook runs after
// every tool (no matcher) with a camelCase payload; an agentStop block's reason R reaches the
// model as a user message `<current_datetime>...</current_datetime>\n\nR`; a postToolUse
// top-level additionalContext C is appended to the tool's output as
// `\n\nTool "apply_patch" succeeded. Additional guidance from postToolUse hooks:\nC`.
// Copilot ends a turn after 8 blocks in a row; git-kizu's `stop.maxBlocks` ends it sooner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BIN, sandbox } from '../helpers/sandbox.mjs';
import { COPILOT_BIN, applyPatch, copilotCacheEnv, copilotEnv, newInput, runAgainstFake } from '../helpers/fake-responses.mjs';
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

test('the pinned Copilot CLI runs here', { timeout: TEST_TIMEOUT }, () => {
  accessSync(COPILOT_BIN, constants.X_OK); // no skip: a missing client fails every test below
  const sb = sandbox({ init: false });
  const r = spawnSync(COPILOT_BIN, ['--version'], { encoding: 'utf8', timeout: RUN_TIMEOUT, env: { ...sb.env, ...copilotCacheEnv() } });
  assert.ifError(r.error);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0], 'GitHub Copilot CLI 1.0.102.');
});

/** A sandbox repo with src/app.js committed, `git kizu init --agent copilot`, then the edit and its scar. */
function scarredRepo({ config } = {}) {
  accessSync(COPILOT_BIN, constants.X_OK);
  const sb = sandbox({ files: { 'src/app.js': ORIGINAL } });
  if (config) commitConfig(sb, { '.kizurc.json': JSON.stringify(config) }); // gate keys apply from the committed config only
  const init = sb.kizu(['init', '--agent', 'copilot']);
  assert.equal(init.status, 0, `git kizu init --agent copilot failed:\n${init.stdout}\n${init.stderr}`);
  sb.write({ 'src/app.js': EDITED });
  assert.equal(sb.kizu(['scar', 'src/app.js:2']).status, 0);
  assert.equal(sb.read('src/app.js'), SCARRED);
  const hooksFile = sb.path('.github/hooks/kizu.json');
  const stopCmd = JSON.parse(readFileSync(hooksFile, 'utf8')).hooks.agentStop[0].bash;
  assert.equal(stopCmd, '"$(git rev-parse --show-toplevel)"/.github/hooks/kizu-hook.sh stop copilot');
  return { sb, hooksFile, stopCmd };
}

/** What git-kizu's hook `event` prints for a Copilot payload in `sb` now (a probe session). */
function probe(sb, event, extra) {
  const r = sb.run(process.execPath, [BIN, 'hook', event, '--agent', 'copilot'], { input: JSON.stringify({ sessionId: 'probe', timestamp: 0, cwd: sb.dir, ...extra }) });
  assert.deepEqual([r.status, r.stderr], [0, ''], `probe ${event}`);
  return JSON.parse(r.stdout);
}
const stopReason = (sb) => probe(sb, 'stop', { stopReason: 'end_turn', stop_hook_active: false }).reason;
const postContext = (sb) => probe(sb, 'post-tool-use', { toolName: 'apply_patch', toolArgs: REMOVE_SCAR }).additionalContext;

/** The text of the one user message agent request `q` added, without Copilot's datetime prefix. */
function userText(q) {
  const added = newInput(q);
  assert.equal(added.length, 1, JSON.stringify(added));
  assert.equal(added[0].role, 'user');
  const m = /^<current_datetime>[^<]+<\/current_datetime>\n\n([^]*)$/.exec(added[0].content[0].text);
  assert.ok(m, added[0].content[0].text);
  return m[1];
}

/** The tool output agent request `q` holds for call `callId`. */
function toolOutput(q, callId) {
  const added = newInput(q);
  assert.deepEqual(added.map((i) => [i.type, i.call_id]), [['custom_tool_call_output', callId]]);
  return added[0].output;
}

function run(t, sb, agent, cwd = sb.dir, env = {}) {
  return runAgainstFake(t, {
    agent,
    bin: COPILOT_BIN,
    args: ['-p', PROMPT, '--allow-all-tools', ...(env.COPILOT_ALLOW_ALL ? [] : ['--trust-folder'])],
    envFor: (url) => ({ ...copilotEnv(sb, url), ...env }),
    cwd,
    timeoutMs: RUN_TIMEOUT,
  });
}

test('(a) a scar blocks the first stop; the agent deletes the scar line with apply_patch; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb } = scarredRepo();
  const reason = stopReason(sb);
  assert.ok(reason.includes('"src/app.js":2') && reason.includes('explain this change'), reason);
  const PATCH = applyPatch(REMOVE_SCAR);
  const { agent } = await run(t, sb, ['done', [PATCH], 'b is 20 on purpose; scar removed.']);
  assert.equal(agent.length, 3, 'requests: done, (block) patch, final');
  // The first request holds the prompt alone: the prompt hook printed nothing for the model.
  assert.equal(userText(agent[0]), PROMPT);
  assert.equal(userText(agent[1]), reason);
  assert.equal(toolOutput(agent[2], PATCH.call_id), `Modified 1 file(s): ${sb.path('src/app.js')}`, 'no scar left: no context');
  assert.equal(sb.read('src/app.js'), EDITED);
  assert.deepEqual(JSON.parse(sb.kizu(['scan', '--json']).stdout), []);
  const j = JSON.parse(sb.kizu(['journal', '--json']).stdout);
  assert.deepEqual(j.map((e) => [e.tool, e.files.map((f) => f.path)]), [['apply_patch', ['src/app.js']]]);
  // The prompt hook took its snapshot of the working tree before the turn.
  const snaps = JSON.parse(sb.kizu(['snapshot', 'list', '--json']).stdout);
  assert.deepEqual(snaps.map((s) => [s.kind, s.message]), [['prompt', PROMPT]]);
});

test('(b) editing a scarred file appends the post-edit context to the tool output the model sees', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb } = scarredRepo();
  const context = postContext(sb);
  assert.ok(context.includes('"src/app.js":2') && context.includes('explain this change'), context);
  const EDIT = applyPatch('*** Begin Patch\n*** Update File: src/app.js\n@@\n-const c = 3;\n+const c = 30;\n*** End Patch\n');
  const DELETE = applyPatch(REMOVE_SCAR);
  const { agent } = await run(t, sb, [[EDIT], [DELETE], 'done']);
  assert.equal(agent.length, 3, 'requests: edit, delete scar, done (no block)');
  const abs = sb.path('src/app.js');
  assert.equal(toolOutput(agent[1], EDIT.call_id), `Modified 1 file(s): ${abs}\n\nTool "apply_patch" succeeded. Additional guidance from postToolUse hooks:\n${context}`);
  assert.equal(toolOutput(agent[2], DELETE.call_id), `Modified 1 file(s): ${abs}`);
  assert.equal(sb.read('src/app.js'), 'const a = 1;\nconst b = 20;\nconst c = 30;\n');
});

test('(c) a scar never removed: stop.maxBlocks (2) blocks, then the turn ends (before Copilot\'s own 8); started in src/', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb } = scarredRepo({ config: { stop: { maxBlocks: 2 } } });
  const reason = stopReason(sb);
  // Started in a subdirectory: the hook commands find the runner from the repository's top
  // level. (--trust-folder trusts src/ only, and then the top level's hooks do not load, even
  // with COPILOT_ALLOW_ALL=true; COPILOT_ALLOW_ALL=true alone loads them.)
  const { agent } = await run(t, sb, () => 'done', sb.path('src'), { COPILOT_ALLOW_ALL: 'true' });
  assert.equal(agent.length, 1 + 2, 'requests: the first, then one per block');
  assert.equal(userText(agent[1]), reason);
  assert.equal(userText(agent[2]), `${reason}\n(Block 2 of 2 without progress; after that the stop is allowed and the user is told.)`);
  assert.equal(sb.read('src/app.js'), SCARRED);
});

test('(d) a garbage payload piped into the installed stop hook: no block, exit 0, one stderr line', { timeout: TEST_TIMEOUT }, async (t) => {
  const { sb, hooksFile, stopCmd } = scarredRepo();
  const errFile = path.join(sb.base, 'stop-stderr.txt');
  writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace(JSON.stringify(stopCmd), JSON.stringify(`echo 'not json' | ${stopCmd} 2>${errFile}`)));
  const { agent } = await run(t, sb, ['done']);
  assert.equal(agent.length, 1, 'one request, no block');
  const err = readFileSync(errFile, 'utf8');
  assert.match(err, /^git-kizu: [^\n]+\n$/, `exactly one stderr line expected, got ${JSON.stringify(err)}`);
  assert.equal(sb.read('src/app.js'), SCARRED);
});
