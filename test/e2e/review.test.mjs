// End-to-end: rejected hunks (`git kizu reject`) against the REAL Claude Code client
// (node_modules/.bin/claude) and the scripted fake Anthropic API in
// test/helpers/fake-anthropic.mjs (how the client sends hook output to the model is written
// down there). Each test builds a sandbox
// repo, installs the hooks with the real `git kizu init`, makes an uncommitted "agent" change,
// rejects it with the real `git kizu reject`, runs `claude -p` once and asserts on every
// agent-loop request, on the hook runs the client reports, and on the file left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextOutput } from '../helpers/hooks.mjs';
import { CLAUDE_ARGS, claudeRepo, claudeSandboxEnv, hookCommand } from '../helpers/claude.mjs';
import {
  assertRunEnded,
  editResult,
  hookRuns,
  lastAssistantText,
  newMessages,
  postToolUseContext,
  runAgainstFake,
  stopFeedback,
  text,
  toolUse,
} from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

const TEST_TIMEOUT = E2E_TEST_MS;
const CLAUDE_TIMEOUT = E2E_RUN_MS;

// src/app.js: 12 lines committed; the "agent" changed line 10 (uncommitted), the reviewer rejected it.
const LINES = Array.from({ length: 12 }, (_, i) => `const v${i + 1} = ${i + 1};`);
const file = (repl = {}) => LINES.map((l, i) => `${repl[i + 1] ?? l}\n`).join('');
const ORIGINAL = file();
const AGENT_LINE = 'const v10 = 1000;';
const EDITED = file({ 10: AGENT_LINE });

/** A file's text as the Read tool returns it: `<n>\t<line>` per line. */
const numbered = (s) => s.split('\n').map((l, i) => `${i + 1}\t${l}`).join('\n');

/** A sandbox repo with src/app.js committed, hooks installed, line 10 changed and rejected. */
function rejectedRepo() {
  const sb = claudeRepo({ files: { 'src/app.js': ORIGINAL } });
  sb.write({ 'src/app.js': EDITED });
  const hunks = JSON.parse(sb.kizu(['hunks', '--json', 'src/app.js']).stdout);
  assert.deepEqual(hunks.map((h) => [h.range, h.mark]), [['src/app.js:10', 'unreviewed']]);
  const rej = sb.kizu(['reject', 'src/app.js:10']);
  assert.deepEqual([rej.status, rej.stdout, rej.stderr], [0, `rejected ${hunks[0].shortId} src/app.js:10\n`, '']);
  const base = sb.git('rev-parse', 'HEAD').trim().slice(0, 12);
  const place =
    '- "src/app.js":10 → a reviewer rejected this change without giving a reason: compare it with the baseline ' +
    `(\`git diff ${base} -- src/app.js\`), work out what is wrong, and rework or revert it`;
  return { sb, stopCmd: hookCommand(sb), env: claudeSandboxEnv(sb), app: sb.path('src/app.js'), hunkId: hunks[0].id, place };
}

function run(t, ctx, agent) {
  return runAgainstFake(t, { agent, prompt: 'Finish the change in src/app.js.', cwd: ctx.sb.dir, env: ctx.env, args: CLAUDE_ARGS, timeoutMs: CLAUDE_TIMEOUT });
}

/** Review marks of the current hunks of src/app.js, as [range, mark]. */
const marks = (sb) => JSON.parse(sb.kizu(['hunks', '--json', 'src/app.js']).stdout).map((h) => [h.range, h.mark]);

test('review: a rejected hunk blocks the first stop with only its place; the agent rewrites it (Read + Edit), is told the rework is an edit nobody reviewed, reverts it; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = rejectedRepo();
  const REASON = `git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${ctx.place}`;
  const READ = toolUse('Read', { file_path: ctx.app });
  const REWORK = 'const v10 = 10 * 10;';
  const EDIT = toolUse('Edit', { file_path: ctx.app, old_string: AGENT_LINE, new_string: REWORK });
  const REVERT = toolUse('Edit', { file_path: ctx.app, old_string: REWORK, new_string: 'const v10 = 10;' });
  const FINAL = 'Reverted v10 after the rejection.';
  const { r, agent } = await run(t, ctx, ['done', [text('The reviewer rejected line 10; reworking it.'), READ], [EDIT], [REVERT], FINAL]);

  assertRunEnded(r, agent, 5, 'agent-loop requests: done, (block) read, edit, (context) revert, final', FINAL);

  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 2, JSON.stringify(stops));
  assert.deepEqual([stops[0].exit_code, stops[0].stderr], [0, ''], 'first stop: exit code, stderr');
  assert.deepEqual(JSON.parse(stops[0].stdout), { decision: 'block', reason: REASON });
  assert.deepEqual([stops[1].exit_code, stops[1].stdout, stops[1].stderr], [0, '', ''], 'second stop: the rejected lines are back to the baseline');

  // Request 1: right after the blocked stop, exactly the hook feedback, naming only the place.
  assert.equal(lastAssistantText(agent[1].body), 'done');
  const feedback = newMessages(agent[1]);
  assert.deepEqual(feedback, stopFeedback(ctx.stopCmd, REASON));
  const fed = JSON.stringify(feedback);
  for (const l of [AGENT_LINE, '1000', ...LINES.slice(6, 13)]) assert.ok(!fed.includes(l), `the stop feedback must not quote "${l}"`);
  assert.ok(!JSON.stringify(agent[1].body).includes(AGENT_LINE), 'the rejected content reaches the model only through its own Read');

  // Request 2: the Read result. Request 3: the Edit went through; the rework is an edit of the rejected lines (issue 22), and PostToolUse says so.
  assert.deepEqual(newMessages(agent[2]), [
    { role: 'user', content: [{ tool_use_id: READ.id, type: 'tool_result', content: numbered(EDITED) }] },
  ]);
  const posts = hookRuns(r, 'PostToolUse');
  assert.equal(posts.length, 2, JSON.stringify(posts));
  const context = JSON.parse(posts[0].stdout).hookSpecificOutput.additionalContext;
  assert.match(context, /^git-kizu: a reviewer rejected a change in the file you just edited:\n- "src\/app\.js":10 → a reviewer rejected this change; it was edited instead of reverted \(now [0-9a-f]{8} "src\/app\.js":10\), and nobody reviewed the edit: /);
  assert.deepEqual(newMessages(agent[3]), [
    { role: 'user', content: [{ tool_use_id: EDIT.id, type: 'tool_result', content: editResult(ctx.app) }] },
    postToolUseContext(context),
  ]);
  assert.deepEqual([posts[1].exit_code, posts[1].stdout, posts[1].stderr], [0, '', ''], 'after the revert: nothing rejected in the file');

  assert.equal(ctx.sb.read('src/app.js'), ORIGINAL);
  assert.deepEqual(marks(ctx.sb), []);
});

test('review: editing the file elsewhere names the rejected hunk in the PostToolUse context; the agent reworks it before stopping', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = rejectedRepo();
  const CONTEXT = `git-kizu: a reviewer rejected a change in the file you just edited:\n${ctx.place}`;
  const READ = toolUse('Read', { file_path: ctx.app });
  const EDIT_FAR = toolUse('Edit', { file_path: ctx.app, old_string: 'const v1 = 1;', new_string: 'const v1 = 11;' });
  const REVERT = toolUse('Edit', { file_path: ctx.app, old_string: AGENT_LINE, new_string: 'const v10 = 10;' });
  const FINAL = 'Changed v1 and reverted the rejected v10 change.';
  const { r, agent } = await run(t, ctx, [[READ], [EDIT_FAR], [text('Line 10 was rejected; reverting it.'), REVERT], FINAL]);

  assert.equal(agent.length, 4, 'agent-loop requests: read, edit far, (context) revert, final');
  assert.equal(r.json.result, FINAL);

  const posts = hookRuns(r, 'PostToolUse');
  assert.equal(posts.length, 2, JSON.stringify(posts));
  assert.deepEqual([posts[0].hook_name, posts[0].exit_code, posts[0].stderr], ['PostToolUse:Edit', 0, '']);
  assert.deepEqual(JSON.parse(posts[0].stdout), contextOutput(CONTEXT));
  assert.deepEqual([posts[1].exit_code, posts[1].stdout, posts[1].stderr], [0, '', ''], 'after the revert: nothing rejected in the file');

  // Request 2: the Edit result, then exactly the hook's context.
  assert.deepEqual(newMessages(agent[2]), [
    { role: 'user', content: [{ tool_use_id: EDIT_FAR.id, type: 'tool_result', content: editResult(ctx.app) }] },
    postToolUseContext(CONTEXT),
  ]);
  assert.deepEqual(newMessages(agent[3]), [
    { role: 'user', content: [{ tool_use_id: REVERT.id, type: 'tool_result', content: editResult(ctx.app) }] },
  ]);
  assert.deepEqual(hookRuns(r, 'Stop').map((s) => [s.exit_code, s.stdout, s.stderr]), [[0, '', '']], 'nothing rejected left: the stop is not blocked');

  assert.equal(ctx.sb.read('src/app.js'), file({ 1: 'const v1 = 11;' }));
  assert.deepEqual(marks(ctx.sb), [['src/app.js:1', 'unreviewed']]);
});
