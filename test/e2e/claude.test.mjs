// End-to-end: the review hooks that `git kizu init` installs, run by the REAL Claude Code
// client (node_modules/.bin/claude, pinned devDependency) against the scripted fake Anthropic
// API in test/helpers/fake-anthropic.mjs. No network but 127.0.0.1. Each test builds a sandbox
// repo, makes an uncommitted "agent" edit, scars it with `git kizu scar`, installs the hooks
// with `git kizu init`, runs `claude -p` once and asserts on every request the client sent, on
// the hook outputs the client reports (stream-json with --include-hook-events), on claude's
// exit code and result, and on the file left behind.
//
// What the client sends and how hook output reaches the model (measured with Claude Code
// 2.1.332) is written down at the top of test/helpers/fake-anthropic.mjs. In short: a Stop
// block's reason R comes back in the next request as a user <system-reminder> "Stop hook
// feedback:\nR" plus a system message 'Stop hook blocking error from command: "<cmd>": R'; a
// PostToolUse additionalContext C as a system message "PostToolUse:Edit hook additional
// context: C"; a systemMessage never reaches the model (stream-json shows it as an
// "informational" event).
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { CLAUDE_ARGS, claudeRepo, claudeSandboxEnv, hookCommand } from '../helpers/claude.mjs';
import {
  CLAUDE_BIN,
  claudeEnv,
  editResult,
  hookRuns,
  assertRunEnded,
  lastAssistantText,
  newMessages,
  runAgainstFake,
  stopFeedback,
  text,
  toolUse,
} from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

const TEST_TIMEOUT = E2E_TEST_MS;
const CLAUDE_TIMEOUT = E2E_RUN_MS;

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
const EDITED = 'const a = 1;\nconst b = 20;\nconst c = 3;\n'; // the "agent" change, uncommitted
const SCAR = '// @kizu[ask]: explain this change';
const SCARRED = `const a = 1;\n${SCAR}\nconst b = 20;\nconst c = 3;\n`;
const SCAR_ENTRY = { path: 'src/app.js', line: 2, kind: 'ask', body: 'explain this change' };


test('the pinned Claude Code client runs here', { timeout: TEST_TIMEOUT }, () => {
  // No skip when the client is missing: every e2e test below fails then, and this says why.
  accessSync(CLAUDE_BIN, constants.X_OK);
  const sb = sandbox({ init: false });
  const r = spawnSync(CLAUDE_BIN, ['--version'], {
    env: claudeEnv(sb.env, 'http://127.0.0.1:9'),
    encoding: 'utf8',
    timeout: CLAUDE_TIMEOUT,
  });
  assert.ifError(r.error);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), '2.1.332 (Claude Code)');
});

/**
 * A sandbox repo with src/app.js committed, the hooks installed by `git kizu init`, then
 * src/app.js edited (uncommitted) and the edited line scarred by `git kizu scar src/app.js:2`.
 */
function scarredRepo({ config } = {}) {
  const sb = claudeRepo({ files: { 'src/app.js': ORIGINAL }, config });
  sb.write({ 'src/app.js': EDITED }); // what an agent changed
  const scar = sb.kizu(['scar', 'src/app.js:2']);
  assert.equal(scar.status, 0, `git kizu scar failed:\n${scar.stdout}\n${scar.stderr}`);
  assert.equal(sb.read('src/app.js'), SCARRED);
  assertScan(sb, [SCAR_ENTRY]);

  const settings = JSON.parse(sb.read('.claude/settings.json'));
  const hooks = settings.hooks ?? {};
  for (const ev of ['Stop', 'SubagentStop', 'PostToolUse']) {
    assert.ok(Array.isArray(hooks[ev]) && hooks[ev].length > 0, `settings.json has no hooks.${ev}: ${JSON.stringify(settings)}`);
  }
  const stopCmd = hookCommand(sb, 'Stop', /kizu-hook\.sh stop$/);
  hookCommand(sb, 'SubagentStop', /kizu-hook\.sh stop$/);
  const postEntry = hooks.PostToolUse.find((m) => (m.hooks ?? []).some((h) => /kizu-hook\.sh post-tool-use$/.test(h.command)));
  assert.ok(postEntry, `no kizu PostToolUse hook: ${JSON.stringify(hooks.PostToolUse)}`);
  for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']) {
    assert.match(tool, new RegExp(postEntry.matcher), `PostToolUse matcher ${postEntry.matcher} must match ${tool}`);
  }
  for (const tool of ['Read', 'Bash']) {
    assert.doesNotMatch(tool, new RegExp(`^(?:${postEntry.matcher})$`), `PostToolUse matcher ${postEntry.matcher} must not match ${tool}`);
  }
  accessSync(sb.path('.claude/hooks/kizu-hook.sh'), constants.X_OK);

  return { sb, settings, stopCmd, env: claudeSandboxEnv(sb), abs: sb.path('src/app.js') };
}

function assertScan(sb, expected) {
  const r = sb.kizu(['scan', '--json']);
  assert.equal(r.status, expected.length ? 1 : 0, `git kizu scan --json exit code (stderr: ${r.stderr})`);
  assert.deepEqual(JSON.parse(r.stdout), expected);
}

/** Starts the fake with `agent`, runs claude once in the repo, always closes the fake. */
function runScenario(t, ctx, agent) {
  return runAgainstFake(t, {
    agent,
    prompt: 'Review the scars in this repository.',
    cwd: ctx.sb.dir,
    env: ctx.env,
    args: CLAUDE_ARGS,
    timeoutMs: CLAUDE_TIMEOUT,
  });
}

/** Asserts a Stop hook run blocked, names the scar and the protocol; returns the reason. */
function assertBlock(run, label) {
  assert.equal(run.exit_code, 0, `${label}: stop hook exit code`);
  assert.equal(run.stderr, '', `${label}: stop hook stderr`);
  let out;
  assert.doesNotThrow(() => (out = JSON.parse(run.stdout)), `${label}: stop hook stdout is not JSON: ${run.stdout}`);
  assert.equal(out.decision, 'block', `${label}: ${run.stdout}`);
  assert.equal(typeof out.reason, 'string');
  const reason = out.reason;
  assert.ok(reason.includes('"src/app.js":2'), `${label}: reason lacks "src/app.js":2: ${reason}`);
  assert.ok(reason.includes('explain this change'), `${label}: reason lacks the scar body: ${reason}`);
  assert.match(reason, /\bask\b/, `${label}: reason lacks the kind: ${reason}`);
  assert.match(reason, /delete/i, `${label}: reason lacks the protocol (delete the scar line): ${reason}`);
  assert.ok(reason.includes('git kizu unscar'), `${label}: reason lacks the unscar alternative: ${reason}`);
  // Exactly one scar is listed: no other path:line pairs.
  assert.deepEqual([...new Set(reason.match(/"?[\w./-]+\.\w+"?:\d+/g))], ['"src/app.js":2'], `${label}: ${reason}`);
  return reason;
}

test('(a) a scar blocks the first stop; the agent answers and deletes the scar line with Edit; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const READ = toolUse('Read', { file_path: ctx.abs });
  const EDIT = toolUse('Edit', { file_path: ctx.abs, old_string: `${SCAR}\n`, new_string: '' });
  const FINAL = 'b is 20 because the limit doubled; I removed the scar.';
  const { r, agent } = await runScenario(t, ctx, [
    'done',
    [text('The change raises b from 2 to 20. Removing the scar now.'), READ],
    [EDIT],
    FINAL,
  ]);

  assert.equal(agent.length, 4, 'agent-loop requests: done, (block) read, edit, final');
  assert.equal(r.json.result, FINAL);

  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 2, `stop hook runs: ${JSON.stringify(stops)}`);
  const reason = assertBlock(stops[0], 'first stop');
  assert.deepEqual([stops[1].exit_code, stops[1].stdout, stops[1].stderr], [0, '', ''], 'second stop: no scars, nothing printed');

  // Request 1: what the client sent right after the blocked stop: exactly the hook feedback.
  assert.equal(lastAssistantText(agent[1].body), 'done');
  assert.deepEqual(newMessages(agent[1]), stopFeedback(ctx.stopCmd, reason));

  // Request 2: the Read result shows the scar on line 2.
  assert.deepEqual(newMessages(agent[2]), [
    {
      role: 'user',
      content: [{ tool_use_id: READ.id, type: 'tool_result', content: `1\tconst a = 1;\n2\t${SCAR}\n3\tconst b = 20;\n4\tconst c = 3;\n5\t` }],
    },
  ]);

  // Request 3: the Edit went through; the file has no scar left, so PostToolUse adds nothing.
  assert.deepEqual(newMessages(agent[3]), [
    {
      role: 'user',
      content: [
        {
          tool_use_id: EDIT.id,
          type: 'tool_result',
          content: editResult(ctx.abs),
        },
      ],
    },
  ]);
  const posts = hookRuns(r, 'PostToolUse');
  assert.deepEqual(posts.map((p) => [p.hook_name, p.exit_code, p.stdout]), [['PostToolUse:Edit', 0, '']]);

  assert.equal(ctx.sb.read('src/app.js'), EDITED);
  assertScan(ctx.sb, []);
});

test('(a) a scar blocks the first stop; the agent runs `git kizu unscar src/app.js:2` through Bash; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const BASH = toolUse('Bash', { command: 'git kizu unscar src/app.js:2', description: 'Remove the answered scar' });
  const FINAL = 'Answered above and removed the scar with git kizu unscar.';
  const { r, agent } = await runScenario(t, ctx, ['done', [text('b went from 2 to 20 on purpose.'), BASH], FINAL]);

  assertRunEnded(r, agent, 3, 'agent-loop requests: done, (block) bash, final', FINAL);

  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 2);
  const reason = assertBlock(stops[0], 'first stop');
  assert.deepEqual([stops[1].exit_code, stops[1].stdout], [0, '']);
  assert.deepEqual(newMessages(agent[1]), stopFeedback(ctx.stopCmd, reason));

  const after = newMessages(agent[2]);
  assert.equal(after.length, 1, JSON.stringify(after));
  const [result] = after[0].content;
  assert.equal(result.type, 'tool_result');
  assert.equal(result.tool_use_id, BASH.id);
  assert.equal(result.is_error, false, `git kizu unscar failed inside claude: ${JSON.stringify(result.content)}`);
  assert.deepEqual(hookRuns(r, 'PostToolUse'), [], 'Bash is not matched by the PostToolUse hook');

  assert.equal(ctx.sb.read('src/app.js'), EDITED);
  assertScan(ctx.sb, []);
});

test("(a2) from Claude Code's Bash tool, `git kizu unscar --all` is refused as the reviewer's act (by the pre-tool gate before it runs; the command itself refuses it too where CLAUDECODE=1 is set: test/cli/agent-acts.test.mjs); `unscar <path>:<line>` is the agent's", { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const ALL = toolUse('Bash', { command: 'git kizu unscar --all', description: 'Remove every scar' });
  const ONE = toolUse('Bash', { command: 'git kizu unscar src/app.js:2', description: 'Remove the answered scar' });
  const FINAL = 'Answered and removed the one scar.';
  const { r, agent } = await runScenario(t, ctx, ['done', [text('b is 20 on purpose.'), ALL], [ONE], FINAL]);
  assert.equal(agent.length, 4, 'agent-loop requests: done, (block) unscar --all (refused), unscar one, final');
  assert.equal(r.json.result, FINAL);
  assert.deepEqual(r.json.permission_denials.map((d) => [d.tool_name, d.tool_use_id]), [['Bash', ALL.id]]);
  const [refused] = newMessages(agent[2])[0].content;
  assert.equal(refused.tool_use_id, ALL.id);
  assert.equal(refused.is_error, true);
  assert.match(JSON.stringify(refused.content), /git-kizu refused this Bash call: this git kizu command is the human reviewer's act/);
  const [done] = newMessages(agent[3])[0].content;
  assert.deepEqual([done.tool_use_id, done.is_error], [ONE.id, false]);
  assert.equal(ctx.sb.read('src/app.js'), EDITED);
});

test('(b) editing a scarred file puts the PostToolUse context (scar path:line and body) in the next request', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const READ = toolUse('Read', { file_path: ctx.abs });
  const EDIT_ELSEWHERE = toolUse('Edit', { file_path: ctx.abs, old_string: 'const c = 3;', new_string: 'const c = 30;' });
  const DELETE_SCAR = toolUse('Edit', { file_path: ctx.abs, old_string: `${SCAR}\n`, new_string: '' });
  const { r, agent } = await runScenario(t, ctx, [[READ], [EDIT_ELSEWHERE], [text('Noted the scar: b is 20 on purpose.'), DELETE_SCAR], 'done']);

  assert.equal(agent.length, 4, 'agent-loop requests: read, edit, delete scar, done');
  assert.equal(r.json.result, 'done');

  const posts = hookRuns(r, 'PostToolUse');
  assert.equal(posts.length, 2, JSON.stringify(posts));
  assert.equal(posts[0].hook_name, 'PostToolUse:Edit');
  assert.equal(posts[0].exit_code, 0);
  assert.equal(posts[0].stderr, '');
  let out;
  assert.doesNotThrow(() => (out = JSON.parse(posts[0].stdout)), `post-tool-use stdout is not JSON: ${posts[0].stdout}`);
  assert.equal(out.hookSpecificOutput?.hookEventName, 'PostToolUse', posts[0].stdout);
  const context = out.hookSpecificOutput.additionalContext;
  assert.equal(typeof context, 'string');
  assert.ok(context.includes('"src/app.js":2'), `additionalContext lacks "src/app.js":2: ${context}`);
  assert.ok(context.includes('explain this change'), `additionalContext lacks the body: ${context}`);
  assert.match(context, /\bask\b/, context);
  assert.deepEqual([...new Set(context.match(/"?[\w./-]+\.\w+"?:\d+/g))], ['"src/app.js":2'], context);

  // Request 2 (after the edit elsewhere): the tool result, then exactly the hook's context.
  assert.deepEqual(newMessages(agent[2]), [
    {
      role: 'user',
      content: [
        {
          tool_use_id: EDIT_ELSEWHERE.id,
          type: 'tool_result',
          content: editResult(ctx.abs),
        },
      ],
    },
    { role: 'system', content: [{ type: 'text', text: `PostToolUse:Edit hook additional context: ${context}` }] },
  ]);

  // After the scar line is deleted the hook stays silent, and the stop is not blocked.
  assert.deepEqual([posts[1].exit_code, posts[1].stdout], [0, ''], 'no scar left: post-tool-use prints nothing');
  assert.equal(newMessages(agent[3]).length, 1, 'request 3 holds only the tool result');
  assert.deepEqual(hookRuns(r, 'Stop').map((s) => [s.exit_code, s.stdout]), [[0, '']]);

  assert.equal(ctx.sb.read('src/app.js'), 'const a = 1;\nconst b = 20;\nconst c = 30;\n');
  assertScan(ctx.sb, []);
});

test('(c) a scar the agent never removes: blocked maxBlocks (3) times, then the stop is allowed with a systemMessage', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  const { r, agent } = await runScenario(t, ctx, () => 'done');

  assert.equal(agent.length, 1 + 3, 'agent-loop requests: 1 + maxBlocks (default 3)');
  assert.equal(r.json.result, 'done');

  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 4, JSON.stringify(stops));
  for (let i = 0; i < 3; i++) {
    const reason = assertBlock(stops[i], `stop ${i + 1}`);
    assert.deepEqual(newMessages(agent[i + 1]), stopFeedback(ctx.stopCmd, reason), `request ${i + 1}`);
  }
  const last = stops[3];
  assert.equal(last.exit_code, 0);
  let out;
  assert.doesNotThrow(() => (out = JSON.parse(last.stdout)), `4th stop hook stdout is not JSON: ${last.stdout}`);
  assert.equal(out.decision, undefined, `the 4th stop must be allowed: ${last.stdout}`);
  assert.equal(typeof out.systemMessage, 'string', last.stdout);
  assert.ok(out.systemMessage.includes('"src/app.js":2'), out.systemMessage);
  assert.ok(out.systemMessage.includes('explain this change'), out.systemMessage);
  // The client shows it to the user (not to the model), each line prefixed with "Stop says: ".
  const shown = r.events.filter((e) => e.type === 'system' && e.subtype === 'informational').map((e) => e.content);
  assert.deepEqual(shown, [out.systemMessage.split('\n').map((l) => `Stop says: ${l}`).join('\n')]);

  assert.equal(ctx.sb.read('src/app.js'), SCARRED, 'the scar stays');
  assertScan(ctx.sb, [SCAR_ENTRY]);
});

test('(c) stop.maxBlocks from .kizurc.json bounds the retries (maxBlocks 1: one block, then allowed)', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo({ config: { stop: { maxBlocks: 1 } } });
  const { r, agent } = await runScenario(t, ctx, () => 'done');
  assert.equal(agent.length, 2, 'agent-loop requests: 1 + maxBlocks (1)');
  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 2, JSON.stringify(stops));
  const reason = assertBlock(stops[0], 'stop 1');
  assert.deepEqual(newMessages(agent[1]), stopFeedback(ctx.stopCmd, reason));
  const out = JSON.parse(stops[1].stdout);
  assert.equal(out.decision, undefined, stops[1].stdout);
  assert.ok(out.systemMessage.includes('"src/app.js":2'), stops[1].stdout);
  assert.equal(ctx.sb.read('src/app.js'), SCARRED);
});

test('(d) a garbage payload piped into the installed stop hook: no block, one stderr line, the run ends after one request', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  // Same installed script, but its stdin is garbage instead of the client's payload.
  const settingsPath = ctx.sb.path('.claude/settings.json');
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
  let replaced = 0;
  for (const m of settings.hooks.Stop) {
    for (const h of m.hooks) {
      if (h.command === ctx.stopCmd) {
        h.command = `echo 'not json' | ${ctx.stopCmd}`;
        replaced++;
      }
    }
  }
  assert.equal(replaced, 1);
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2));

  const { r, agent } = await runScenario(t, ctx, ['done']);
  assert.equal(agent.length, 1, 'one agent-loop request, no block');
  assert.equal(r.json.result, 'done');
  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 1, JSON.stringify(stops));
  assert.equal(stops[0].exit_code, 0);
  assert.equal(stops[0].stdout, '');
  assert.match(stops[0].stderr, /^[^\n]+\n?$/, `exactly one stderr line expected, got ${JSON.stringify(stops[0].stderr)}`);
  assert.equal(ctx.sb.read('src/app.js'), SCARRED);
});
