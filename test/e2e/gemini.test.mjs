// End-to-end: git-kizu's hooks for Gemini CLI (src/agents/gemini/), run by the REAL Gemini CLI
// (test/tools/node_modules/.bin/gemini, 0.61.0, pinned) against the scripted fake Gemini API in
// test/helpers/fake-gemini.mjs. No network but 127.0.0.1. Each test builds a sandbox repo, makes
// an uncommitted "agent" edit, scars it with `git kizu scar`, installs the hooks in the project's
// .gemini/settings.json with `git kizu init --agent gemini`, runs `gemini -p` once and asserts on every request the client sent, on
// its exit code, JSON result and warnings, and on the file left behind.
//
// The exact texts the model must see are computed first by running the same installed hooks
// (`git kizu hook <event> --agent gemini`) on the same files with a payload of another session:
// an AfterAgent block's reason R comes back as the next user turn [{text: R}]; an AfterTool
// context C comes back appended to the tool's functionResponse output as
// "\n\n<hook_context>" + C (with < and > escaped) + "</hook_context>"; headless mode lists
// each block as "Agent execution blocked: R" in the JSON result's `warnings`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { GEMINI_BIN, GEMINI_VERSION, call, geminiEnv, geminiHome, lastModelText, newContents, runAgainstFakeGemini, text } from '../helpers/fake-gemini.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';
import { commitConfig } from '../helpers/config.mjs';

const TEST_TIMEOUT = E2E_TEST_MS;
const GEMINI_TIMEOUT = E2E_RUN_MS;

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
const EDITED = 'const a = 1;\nconst b = 20;\nconst c = 3;\n'; // the "agent" change, uncommitted
const SCAR = '// @kizu[ask]: explain this change';
const SCARRED = `const a = 1;\n${SCAR}\nconst b = 20;\nconst c = 3;\n`;
const SCAR_ENTRY = { path: 'src/app.js', line: 2, kind: 'ask', body: 'explain this change' };
const HOOK_NAMES = ['kizu-post-tool-use', 'kizu-journal', 'kizu-snapshot', 'kizu-stop', 'kizu-pre-tool-gate'];

test('the pinned Gemini CLI runs here', { timeout: TEST_TIMEOUT }, () => {
  // No skip when the client is missing: every e2e test below fails then, and this says why.
  accessSync(GEMINI_BIN, constants.X_OK);
  const sb = sandbox({ init: false });
  const r = spawnSync(GEMINI_BIN, ['--version'], { env: geminiEnv(sb, 'http://127.0.0.1:9'), encoding: 'utf8', timeout: GEMINI_TIMEOUT });
  assert.ifError(r.error);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), GEMINI_VERSION);
});

/** `git kizu init --agent gemini` in the sandbox repo: the runner and .gemini/settings.json (and git's pre-commit guard). */
function installHooks(sb) {
  const init = sb.kizu(['init', '--agent', 'gemini']);
  assert.equal(init.status, 0, `git kizu init --agent gemini failed:\n${init.stdout}\n${init.stderr}`);
  assert.deepEqual(init.stdout.split('\n').filter((l) => /^created /.test(l)), ['created .git/hooks/pre-commit', 'created .gemini/hooks/kizu-hook.sh', 'created .gemini/settings.json']);
}

/**
 * A sandbox repo with src/app.js committed, git-kizu's Gemini hooks installed, then src/app.js
 * edited (uncommitted) and the edited line scarred by `git kizu scar src/app.js:2`.
 */
function scarredRepo({ config } = {}) {
  accessSync(GEMINI_BIN, constants.X_OK);
  const sb = sandbox({ files: { 'src/app.js': ORIGINAL } });
  if (config) commitConfig(sb, { '.kizurc.json': JSON.stringify(config) });
  installHooks(sb);
  geminiHome(sb);
  sb.write({ 'src/app.js': EDITED });
  const scar = sb.kizu(['scar', 'src/app.js:2']);
  assert.equal(scar.status, 0, `git kizu scar failed:\n${scar.stdout}\n${scar.stderr}`);
  assert.equal(sb.read('src/app.js'), SCARRED);
  assertScan(sb, [SCAR_ENTRY]);
  const settings = JSON.parse(sb.read('.gemini/settings.json'));
  assert.deepEqual(Object.keys(settings.hooks), ['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool']);
  accessSync(sb.path('.gemini/hooks/kizu-hook.sh'), constants.X_OK);
  return { sb, settings, abs: sb.path('src/app.js') };
}

function assertScan(sb, expected) {
  const r = sb.kizu(['scan', '--json']);
  assert.equal(r.status, expected.length ? 1 : 0, `git kizu scan --json exit code (stderr: ${r.stderr})`);
  assert.deepEqual(JSON.parse(r.stdout), expected);
}

/** Runs the installed hook `event` as Gemini CLI would, with `payload` (session "expected"); returns its parsed stdout. */
function hookAnswer(ctx, event, payload) {
  const r = ctx.sb.run('git', ['kizu', 'hook', event, '--agent', 'gemini'], {
    input: JSON.stringify({ session_id: 'expected', transcript_path: '', cwd: ctx.sb.dir, timestamp: '2026-12-02T00:00:00.000Z', ...payload }),
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
}

/** The block reasons of the stop hook on the current files: `n` stops in a row (the first a new turn, the others retries). */
function expectedReasons(ctx, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = hookAnswer(ctx, 'stop', { hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done', stop_hook_active: i > 0 });
    assert.deepEqual(Object.keys(a), ['decision', 'reason']);
    assert.equal(a.decision, 'block');
    out.push(a.reason);
  }
  const first = out[0];
  assert.ok(first.includes('"src/app.js":2') && first.includes('explain this change') && first.includes('git kizu unscar'), first);
  return out;
}

/** The user turn Gemini CLI sends after a block with `reason`. */
const reasonTurn = (reason) => [{ role: 'user', parts: [{ text: reason }] }];

/** Gemini CLI's escaping of an additionalContext (core hooks/types `getAdditionalContext`). */
const escapeContext = (c) => c.replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Asserts the project-hook warning of a first run lists exactly git-kizu's four hooks (they were loaded). */
function assertHooksLoaded(r) {
  const m = /The following project-level hooks have been detected in this workspace:\n((?:  - .+\n)+)/.exec(r.stderr);
  assert.ok(m, `no project-hook warning on stderr: ${r.stderr}`);
  assert.deepEqual(m[1].trim().split('\n').map((l) => l.replace(/^\s*- /, '')).sort(), [...HOOK_NAMES].sort());
}

/** The one functionResponse part of a request's new turn, checked to answer `name`. */
function functionResponse(q, name) {
  const turn = newContents(q);
  assert.equal(turn.length, 1, JSON.stringify(turn));
  assert.equal(turn[0].role, 'user');
  assert.equal(turn[0].parts.length, 1, JSON.stringify(turn));
  const fr = turn[0].parts[0].functionResponse;
  assert.equal(fr?.name, name, JSON.stringify(turn));
  return fr;
}

const PROMPT = 'Review the scars in this repository.';

test('(a) a scar blocks the first AfterAgent; the agent deletes the scar line with replace; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const [reason] = expectedReasons(ctx, 1);
  const FINAL = 'b is 20 because the limit doubled; I removed the scar.';
  const { r, agent } = await runAgainstFakeGemini(t, {
    sb: ctx.sb,
    cwd: ctx.sb.dir,
    prompt: PROMPT,
    timeoutMs: GEMINI_TIMEOUT,
    agent: ['done', [text('The change raises b from 2 to 20. Removing the scar now.'), call('replace', { file_path: ctx.abs, old_string: `${SCAR}\n`, new_string: '', instruction: 'Remove the answered scar.' })], FINAL],
  });
  assertHooksLoaded(r);
  assert.equal(agent.length, 3, 'agent-loop requests: done, (block) replace, final');
  assert.equal(r.json.response, FINAL);
  assert.deepEqual(r.json.warnings, [`Agent execution blocked: ${reason}`]);

  // Request 1: right after the blocked stop, exactly the reason as a user turn.
  assert.equal(lastModelText(agent[1]), 'done');
  assert.deepEqual(newContents(agent[1]), reasonTurn(reason));
  // Request 2: the replace went through; no scar left, so AfterTool adds no context.
  const fr = functionResponse(agent[2], 'replace');
  assert.equal(fr.response.output, `Successfully modified file: ${ctx.abs} (1 replacements). Here is the updated code:\n${EDITED}`);

  assert.equal(ctx.sb.read('src/app.js'), EDITED);
  assertScan(ctx.sb, []);
});

test('(b) editing a scarred file (replace) puts the AfterTool context (scar path:line and body) in the next request; write_file removes the scar', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const context = hookAnswer(ctx, 'post-tool-use', { hook_event_name: 'AfterTool', tool_name: 'replace', tool_input: { file_path: ctx.abs, old_string: 'x', new_string: 'y' }, tool_response: {} })
    .hookSpecificOutput;
  assert.equal(context.hookEventName, 'AfterTool');
  const C = context.additionalContext;
  assert.ok(C.includes('"src/app.js":2') && C.includes('explain this change'), C);
  assert.deepEqual([...new Set(C.match(/"?[\w./-]+\.\w+"?:\d+/g))], ['"src/app.js":2'], C);

  const { r, agent } = await runAgainstFakeGemini(t, {
    sb: ctx.sb,
    cwd: ctx.sb.dir,
    prompt: PROMPT,
    timeoutMs: GEMINI_TIMEOUT,
    agent: [
      [call('replace', { file_path: ctx.abs, old_string: 'const c = 3;', new_string: 'const c = 30;', instruction: 'Raise c.' })],
      [text('Noted the scar: b is 20 on purpose.'), call('write_file', { file_path: ctx.abs, content: 'const a = 1;\nconst b = 20;\nconst c = 30;\n' })],
      'done',
    ],
  });
  assertHooksLoaded(r);
  assert.equal(agent.length, 3, 'agent-loop requests: edit, delete scar, done');
  assert.equal(r.json.response, 'done');
  assert.equal(r.json.warnings, undefined, 'no block');

  // Request 1 (after the edit elsewhere): the tool result, then exactly the hook's context.
  const after = `const a = 1;\n${SCAR}\nconst b = 20;\nconst c = 30;\n`;
  assert.equal(
    functionResponse(agent[1], 'replace').response.output,
    `Successfully modified file: ${ctx.abs} (1 replacements). Here is the updated code:\n${after}\n\n<hook_context>${escapeContext(C)}</hook_context>`,
  );
  // After write_file rewrote the file without the scar line the hook adds nothing.
  assert.equal(
    functionResponse(agent[2], 'write_file').response.output,
    `Successfully overwrote file: ${ctx.abs}. Here is the updated code:\nconst a = 1;\nconst b = 20;\nconst c = 30;\n`,
  );
  assert.equal(ctx.sb.read('src/app.js'), 'const a = 1;\nconst b = 20;\nconst c = 30;\n');
  assertScan(ctx.sb, []);

  // The journal hook (AfterTool, beside the review hook) recorded both edits with Gemini's before/after.
  const blob = (s) => ctx.sb.git('hash-object', '--stdin', { input: s }).trim();
  const journal = JSON.parse(ctx.sb.kizu(['journal', '--json']).stdout);
  assert.deepEqual(
    journal.map((e) => [e.tool, e.session, e.toolUseId, e.files.map((f) => [f.path, f.before, f.after, f.added, f.removed])]),
    [
      ['replace', r.json.session_id, null, [['src/app.js', blob(SCARRED), blob(after), 1, 1]]],
      ['write_file', r.json.session_id, null, [['src/app.js', blob(after), blob('const a = 1;\nconst b = 20;\nconst c = 30;\n'), 0, 1]]],
    ],
  );
  // The BeforeAgent hook took the prompt's snapshot (of the scarred tree).
  assertSnapshots(ctx.sb, [PROMPT]);
});

/** The snapshots `git kizu snapshot list` shows: all of kind prompt, with these messages. */
function assertSnapshots(sb, messages) {
  const lines = sb.kizu(['snapshot', 'list']).stdout.trim().split('\n');
  assert.deepEqual(lines.map((l) => /^\d{8}-\d{6}-\d{3}-[0-9a-f]{8}  prompt  \d+ files?  (.*)$/.exec(l)?.[1]), messages, lines.join('\n'));
}

test('(c) a scar the agent never removes: blocked stop.maxBlocks (2) times, then the stop is allowed; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo({ config: { stop: { maxBlocks: 2 } } });
  const reasons = expectedReasons(ctx, 2);
  const { r, agent } = await runAgainstFakeGemini(t, { sb: ctx.sb, cwd: ctx.sb.dir, prompt: PROMPT, timeoutMs: GEMINI_TIMEOUT, agent: () => 'done' });
  assert.equal(agent.length, 1 + 2, 'agent-loop requests: 1 + maxBlocks (2)');
  assert.equal(r.json.response, 'donedonedone', 'headless mode joins the texts of the continued turns');
  assert.deepEqual(r.json.warnings, reasons.map((x) => `Agent execution blocked: ${x}`));
  for (let i = 0; i < 2; i++) assert.deepEqual(newContents(agent[i + 1]), reasonTurn(reasons[i]), `request ${i + 1}`);
  assert.equal(ctx.sb.read('src/app.js'), SCARRED, 'the scar stays');
  assertScan(ctx.sb, [SCAR_ENTRY]);
  // BeforeAgent runs again before each continued turn (its prompt the reason); nothing changed, so the one snapshot is reused.
  assertSnapshots(ctx.sb, [PROMPT]);
});

test('(c) the continued turn calls a tool, so Gemini CLI sends stop_hook_active false again: still blocked only stop.maxBlocks (2) times', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo({ config: { stop: { maxBlocks: 2 } } });
  const reasons = expectedReasons(ctx, 2);
  // A user-level AfterAgent hook of the test's own records what Gemini CLI sends.
  const seen = path.join(ctx.sb.base, 'after-agent.jsonl');
  geminiHome(ctx.sb, { hooks: { AfterAgent: [{ hooks: [{ name: 'record', type: 'command', command: `cat >> ${seen}; echo >> ${seen}`, timeout: 5000 }] }] } });
  // Each continued turn first edits elsewhere (c = 3 <-> 30), then says done; the scar stays.
  const edit = (from, to) => [call('replace', { file_path: ctx.abs, old_string: `const c = ${from};`, new_string: `const c = ${to};`, instruction: 'Tweak c.' })];
  const { r, agent } = await runAgainstFakeGemini(t, {
    sb: ctx.sb,
    cwd: ctx.sb.dir,
    prompt: PROMPT,
    timeoutMs: GEMINI_TIMEOUT,
    agent: ['done', edit(3, 30), 'done', edit(30, 3), 'done'],
  });
  assert.equal(agent.length, 5, 'agent-loop requests: done, (block) edit, done, (block) edit, done (allowed)');
  assert.deepEqual(r.json.warnings, reasons.map((x) => `Agent execution blocked: ${x}`));
  assert.deepEqual(newContents(agent[1]), reasonTurn(reasons[0]));
  assert.deepEqual(newContents(agent[3]), reasonTurn(reasons[1]));
  const payloads = readFileSync(seen, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual(payloads.map((p) => [p.hook_event_name, p.prompt, p.stop_hook_active]), [
    ['AfterAgent', PROMPT, false],
    ['AfterAgent', PROMPT, false],
    ['AfterAgent', PROMPT, false],
  ]);
  assert.equal(ctx.sb.read('src/app.js'), SCARRED, 'the scar stays');
});

test('(d) a garbage payload piped into the installed AfterAgent hook: no block, exit 0, one stderr line', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  // Same installed command, but its stdin is garbage instead of the client's payload; its
  // stderr goes to a file to be checked.
  const errFile = path.join(ctx.sb.base, 'stop-stderr.txt');
  const file = ctx.sb.path('.gemini/settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  const h = settings.hooks.AfterAgent[0].hooks[0];
  assert.equal(h.command, '"${GEMINI_PROJECT_DIR}/.gemini/hooks/kizu-hook.sh" stop gemini');
  h.command = `echo 'not json' | ${h.command} 2>${errFile}`;
  writeFileSync(file, JSON.stringify(settings, null, 2));

  const { r, agent } = await runAgainstFakeGemini(t, { sb: ctx.sb, cwd: ctx.sb.dir, prompt: PROMPT, timeoutMs: GEMINI_TIMEOUT, agent: ['done'] });
  assert.equal(agent.length, 1, 'one agent-loop request, no block');
  assert.equal(r.json.response, 'done');
  assert.equal(r.json.warnings, undefined);
  const err = readFileSync(errFile, 'utf8');
  assert.match(err, /^git-kizu: [^\n]+\n$/, `exactly one stderr line expected, got ${JSON.stringify(err)}`);
  assert.ok(err.includes('not JSON'), err);
  assert.equal(ctx.sb.read('src/app.js'), SCARRED);
});
