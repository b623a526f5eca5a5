// End-to-end: the review queue (.claude/review-queue.md, `git kizu queue ...`) against the REAL
// Claude Code client (node_modules/.bin/claude) and the scripted fake Anthropic API in
// test/helpers/fake-anthropic.mjs (how the client sends hook output to the model is written
// down there).
// Each test builds a sandbox repo, installs the hooks with the real `git kizu init`, queues
// items with the real `git kizu queue add`, runs `claude -p` once and asserts on every
// agent-loop request, on the hook runs the client reports, and on the queue file left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/sandbox.mjs';
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

const QUEUE = '.claude/review-queue.md';
// A new queue file: the template, one blank line, then the items.
const HEAD = readFileSync(path.join(ROOT, 'templates', 'review-queue.md'), 'utf8').replace(/\n*$/, '\n\n');
const APP = 'const a = 1;\nconst b = 3;\nconst c = 4;\n';

/** A sandbox repo with src/app.js committed and the hooks installed by `git kizu init`. */
function queueRepo() {
  const sb = claudeRepo({ files: { 'src/app.js': APP } });
  assert.equal(existsSync(sb.path(QUEUE)), false, 'git kizu init must not create the queue');
  return { sb, stopCmd: hookCommand(sb), env: claudeSandboxEnv(sb), app: sb.path('src/app.js'), queue: sb.path(QUEUE) };
}

/** `git kizu queue add <args>`; asserts it printed just the new id, returns it. */
function queueAdd(sb, args) {
  const r = sb.kizu(['queue', 'add', ...args]);
  assert.equal(r.status, 0, `git kizu queue add ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^[0-9a-z]{4}\n$/, 'queue add prints the new id on one line');
  return r.stdout.trim();
}

/** `git kizu queue list --all --json`, as {id: [checked, kind, path, line, text]}. */
function listAll(sb) {
  const r = sb.kizu(['queue', 'list', '--all', '--json']);
  assert.equal(r.status, 0, r.stderr);
  return Object.fromEntries(JSON.parse(r.stdout).map((x) => [x.id, [x.checked, x.kind, x.path, x.line, x.text]]));
}

/** Runs claude once in the repo against a fake answering the agent loop with `agent`. */
function run(t, ctx, agent, { args = CLAUDE_ARGS, env = {} } = {}) {
  return runAgainstFake(t, { agent, prompt: 'Work through the review queue.', cwd: ctx.sb.dir, env: { ...ctx.env, ...env }, args, timeoutMs: CLAUDE_TIMEOUT });
}

// The client refuses Edit/Write of files under .claude/ as "sensitive" in every mode but
// bypassPermissions, whatever the allow rules (see fake-anthropic.mjs); as root that mode needs
// IS_SANDBOX=1.
const BYPASS = { args: ['--permission-mode', 'bypassPermissions'], env: { IS_SANDBOX: '1' } };

/**
 * An agent script as a function: reply i answers agent-loop request i, after `before[i]` (if
 * any) ran with the request body; a reply that is a function is called for the reply then. A
 * request past the end throws (the fake records it as an error and answers 500).
 */
function scripted(replies, before = {}) {
  return ({ index, body }) => {
    if (index >= replies.length) throw new Error(`agent-loop request #${index} came after the ${replies.length}-reply script ran out`);
    before[index]?.(body);
    const reply = replies[index];
    return typeof reply === 'function' ? reply(body) : reply;
  };
}

/** The block reason the Stop hook gives for one open, unanchored, kindless queue item. */
const oneItemReason = (id, what) =>
  `git-kizu: a human reviewer queued 1 open item in ${QUEUE}. Resolve it before you stop:\n` +
  `- [${id}] ${what} → do what it says, then run \`git kizu queue done ${id}\``;

/** Asserts a Stop hook run printed exactly {"decision":"block","reason":reason}. */
function assertBlocked(run, reason, label) {
  assert.deepEqual([run.exit_code, run.stderr], [0, ''], `${label}: exit code, stderr`);
  let out;
  assert.doesNotThrow(() => (out = JSON.parse(run.stdout)), `${label}: stop hook stdout is not JSON: ${run.stdout}`);
  assert.deepEqual(out, { decision: 'block', reason }, label);
}

/**
 * Asserts the Stop hook ran twice: it blocked with exactly `reason` (see assertBlocked; `label`
 * names that run), then let the agent stop, printing nothing.
 */
function assertBlockedOnce(r, reason, label) {
  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 2, JSON.stringify(stops));
  assertBlocked(stops[0], reason, label);
  assert.deepEqual([stops[1].exit_code, stops[1].stdout, stops[1].stderr], [0, '', ''], 'second stop: nothing open, nothing printed');
}

/** A file's text as the Read tool returns it: `<n>\t<line>` per line. */
const numbered = (s) => s.split('\n').map((l, i) => `${i + 1}\t${l}`).join('\n');

/** The exact tail of the request after a successful Bash tool call printing `stdout`. */
const bashResult = (use, stdout) => [{ role: 'user', content: [{ tool_use_id: use.id, type: 'tool_result', content: stdout, is_error: false }] }];

test('queue: an open item blocks the first stop; the agent runs `git kizu queue done <id>` through Bash; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = queueRepo();
  // A done item first (it must not block, and must stay byte for byte), then the open one.
  const old = queueAdd(ctx.sb, ['rename the helper']);
  assert.equal(ctx.sb.kizu(['queue', 'done', old]).status, 0);
  const id = queueAdd(ctx.sb, ['also add a test for the empty case']);
  const OLD_LINE = `- [x] rename the helper <!-- kizu:${old} -->\n`;
  const before = `${HEAD}${OLD_LINE}- [ ] also add a test for the empty case <!-- kizu:${id} -->\n`;
  assert.equal(readFileSync(ctx.queue, 'utf8'), before);

  const REASON = oneItemReason(id, 'also add a test for the empty case');
  const BASH = toolUse('Bash', { command: `git kizu queue done ${id}`, description: 'Mark the queue item done' });
  const FINAL = 'Added the empty-case test and marked the item done.';
  const { r, agent } = await run(t, ctx, ['done', [text('Adding the empty-case test, then ticking the item.'), BASH], FINAL]);

  assertRunEnded(r, agent, 3, 'agent-loop requests: done, (block) bash, final', FINAL);

  assertBlockedOnce(r, REASON, 'first stop');

  // Request 1: right after the blocked stop, exactly the hook feedback naming the item and its id.
  assert.equal(lastAssistantText(agent[1].body), 'done');
  assert.deepEqual(newMessages(agent[1]), stopFeedback(ctx.stopCmd, REASON));
  // Request 2: git kizu queue done ran inside claude and said so.
  assert.deepEqual(newMessages(agent[2]), bashResult(BASH, `done: [${id}] also add a test for the empty case`));
  assert.deepEqual(hookRuns(r, 'PostToolUse'), [], 'Bash is not matched by the PostToolUse hook');

  assert.equal(readFileSync(ctx.queue, 'utf8'), `${HEAD}${OLD_LINE}- [x] also add a test for the empty case <!-- kizu:${id} -->\n`);
  assert.deepEqual(listAll(ctx.sb), {
    [old]: [true, null, null, null, 'rename the helper'],
    [id]: [true, null, null, null, 'also add a test for the empty case'],
  });
});

/** What the model reads when git-kizu's pre-tool gate refuses an Edit of the queue file (hooks/text.ts GATE_REASONS). */
const QUEUE_GATE_REASON =
  'git-kizu refused this Edit call: this is the review queue the human keeps for you. Do not edit it; when you have done an item, run `git kizu queue done <id>`. (rule review-queue-file: ".claude/review-queue.md")';

test('queue: an open item blocks the first stop; an Edit of the queue file is refused by git-kizu\'s pre-tool gate even under bypassPermissions; `git kizu queue done` through Bash ticks it; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = queueRepo();
  const id = queueAdd(ctx.sb, ['also add a test for the empty case']);
  const ITEM = `also add a test for the empty case <!-- kizu:${id} -->`;
  const before = `${HEAD}- [ ] ${ITEM}\n`;
  assert.equal(readFileSync(ctx.queue, 'utf8'), before);

  const REASON = oneItemReason(id, 'also add a test for the empty case');
  const READ = toolUse('Read', { file_path: ctx.queue });
  const EDIT = toolUse('Edit', { file_path: ctx.queue, old_string: `- [ ] ${ITEM}`, new_string: `- [x] ${ITEM}` });
  const BASH = toolUse('Bash', { command: `git kizu queue done ${id}`, description: 'Mark the queue item done' });
  const FINAL = 'Added the empty-case test and ticked the item.';
  const { r, agent } = await run(t, ctx, ['done', [text('Ticking the item in the queue file.'), READ], [EDIT], [BASH], FINAL], BYPASS);

  assert.equal(agent.length, 5, 'agent-loop requests: done, (block) read, edit (refused), bash, final');
  assert.equal(r.json.result, FINAL);
  assert.deepEqual(r.json.permission_denials, [
    { tool_name: 'Edit', tool_use_id: EDIT.id, tool_input: { file_path: ctx.queue, old_string: `- [ ] ${ITEM}`, new_string: `- [x] ${ITEM}`, replace_all: false } },
  ]);
  assertBlockedOnce(r, REASON, 'first stop');
  assert.deepEqual(newMessages(agent[1]), stopFeedback(ctx.stopCmd, REASON));
  assert.deepEqual(newMessages(agent[2]), [
    { role: 'user', content: [{ tool_use_id: READ.id, type: 'tool_result', content: numbered(before) }] },
  ]);
  // Request 3: the gate refused the Edit before it ran, and the model reads why.
  assert.deepEqual(newMessages(agent[3]), [
    {
      role: 'user',
      content: [{ tool_use_id: EDIT.id, type: 'tool_result', is_error: true, content: `PreToolUse:Edit hook error: ${QUEUE_GATE_REASON}` }],
    },
  ]);
  assert.deepEqual(newMessages(agent[4]), bashResult(BASH, `done: [${id}] also add a test for the empty case`));
  assert.equal(readFileSync(ctx.queue, 'utf8'), `${HEAD}- [x] ${ITEM}\n`);
  assert.deepEqual(listAll(ctx.sb), { [id]: [true, null, null, null, 'also add a test for the empty case'] });
});

test('queue: under acceptEdits an Edit of .claude/review-queue.md is refused (git-kizu\'s pre-tool gate, before the client\'s sensitive-file rule); `git kizu queue done` through Bash still resolves the item', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = queueRepo();
  const id = queueAdd(ctx.sb, ['also add a test for the empty case']);
  const ITEM = `also add a test for the empty case <!-- kizu:${id} -->`;
  const before = `${HEAD}- [ ] ${ITEM}\n`;

  const REASON = oneItemReason(id, 'also add a test for the empty case');
  const READ = toolUse('Read', { file_path: ctx.queue });
  const EDIT = toolUse('Edit', { file_path: ctx.queue, old_string: `- [ ] ${ITEM}`, new_string: `- [x] ${ITEM}` });
  const BASH = toolUse('Bash', { command: `git kizu queue done ${id}`, description: 'Mark the queue item done' });
  const FINAL = 'Ticked the item with git kizu queue done.';
  const { r, agent } = await run(t, ctx, ['done', [READ], [EDIT], [BASH], FINAL]);

  assert.equal(agent.length, 5, 'agent-loop requests: done, (block) read, edit (refused), bash, final');
  assert.equal(r.json.result, FINAL);
  assert.deepEqual(r.json.permission_denials, [
    { tool_name: 'Edit', tool_use_id: EDIT.id, tool_input: { file_path: ctx.queue, old_string: `- [ ] ${ITEM}`, new_string: `- [x] ${ITEM}`, replace_all: false } },
  ]);

  assertBlockedOnce(r, REASON, 'first stop');

  assert.deepEqual(newMessages(agent[1]), stopFeedback(ctx.stopCmd, REASON));
  assert.deepEqual(newMessages(agent[2]), [
    { role: 'user', content: [{ tool_use_id: READ.id, type: 'tool_result', content: numbered(before) }] },
  ]);
  assert.deepEqual(newMessages(agent[3]), [
    {
      role: 'user',
      // git-kizu's pre-tool gate runs before the client's own permission check.
      content: [{ tool_use_id: EDIT.id, type: 'tool_result', is_error: true, content: `PreToolUse:Edit hook error: ${QUEUE_GATE_REASON}` }],
    },
  ]);
  assert.deepEqual(newMessages(agent[4]), bashResult(BASH, `done: [${id}] also add a test for the empty case`));
  assert.deepEqual(hookRuns(r, 'PostToolUse'), [], 'no PostToolUse for a refused Edit (nor for Bash)');

  assert.equal(readFileSync(ctx.queue, 'utf8'), `${HEAD}- [x] ${ITEM}\n`);
});

test('queue: an item anchored to src/app.js:2 reaches the agent through PostToolUse when it edits src/app.js', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = queueRepo();
  const id = queueAdd(ctx.sb, ['--at', 'src/app.js:2', '--kind', 'ask', 'why 3?']);
  const before = `${HEAD}- [ ] (ask) \`src/app.js:2\` why 3? <!-- kizu:${id} -->\n`;
  assert.equal(readFileSync(ctx.queue, 'utf8'), before);

  const CONTEXT =
    `git-kizu: 1 open review item in ${QUEUE} is about the file you just edited:\n` +
    `- [${id}] "src/app.js":2 (ask) why 3? → answer it in your reply, then run \`git kizu queue done ${id}\``;
  const READ = toolUse('Read', { file_path: ctx.app });
  const EDIT = toolUse('Edit', { file_path: ctx.app, old_string: 'const c = 4;', new_string: 'const c = 5;' });
  const BASH = toolUse('Bash', { command: `git kizu queue done ${id}`, description: 'Mark the question answered' });
  const FINAL = 'b is 3 because the spec says three retries.';
  const { r, agent } = await run(t, ctx, [[READ], [EDIT], [text('b is 3 because the spec says three retries.'), BASH], FINAL]);

  assertRunEnded(r, agent, 4, 'agent-loop requests: read, edit, (context) answer + bash, final', FINAL);

  // Request 1: only the Read result (Read runs no hook, so the item has not been shown yet).
  assert.deepEqual(newMessages(agent[1]), [
    { role: 'user', content: [{ tool_use_id: READ.id, type: 'tool_result', content: '1\tconst a = 1;\n2\tconst b = 3;\n3\tconst c = 4;\n4\t' }] },
  ]);
  // Request 2: the Edit result, then exactly the hook's context naming the item.
  const posts = hookRuns(r, 'PostToolUse');
  assert.equal(posts.length, 1, JSON.stringify(posts));
  assert.deepEqual([posts[0].hook_name, posts[0].exit_code, posts[0].stderr], ['PostToolUse:Edit', 0, '']);
  assert.deepEqual(JSON.parse(posts[0].stdout), contextOutput(CONTEXT));
  assert.deepEqual(newMessages(agent[2]), [
    { role: 'user', content: [{ tool_use_id: EDIT.id, type: 'tool_result', content: editResult(ctx.app) }] },
    postToolUseContext(CONTEXT),
  ]);
  // Request 3: queue done ran; the item was resolved before the stop, which is not blocked.
  assert.deepEqual(newMessages(agent[3]), bashResult(BASH, `done: [${id}] src/app.js:2 (ask) why 3?`));
  assert.deepEqual(hookRuns(r, 'Stop').map((s) => [s.exit_code, s.stdout, s.stderr]), [[0, '', '']]);

  assert.equal(ctx.sb.read('src/app.js'), 'const a = 1;\nconst b = 3;\nconst c = 5;\n');
  assert.equal(readFileSync(ctx.queue, 'utf8'), `${HEAD}- [x] (ask) \`src/app.js:2\` why 3? <!-- kizu:${id} -->\n`);
  assert.deepEqual(listAll(ctx.sb), { [id]: [true, 'ask', 'src/app.js', 2, 'why 3?'] });
});

test('queue: an item added while the agent is mid-turn is picked up at its next stop', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = queueRepo();
  let id = null;
  const READ = toolUse('Read', { file_path: ctx.app });
  let BASH = null;
  const FINAL = 'Changelog updated; item done.';
  const { r, agent } = await run(
    t,
    ctx,
    scripted(
      [
        [READ],
        'done',
        () => [text('Updating the changelog, then ticking the item.'), BASH],
        FINAL,
      ],
      {
        // Upon the 2nd request, before answering it: a reviewer queues an item.
        1: () => {
          assert.equal(existsSync(ctx.queue), false, 'no queue before the reviewer adds to it');
          id = queueAdd(ctx.sb, ['also update the changelog']);
          BASH = toolUse('Bash', { command: `git kizu queue done ${id}`, description: 'Mark the queue item done' });
        },
      },
    ),
  );
  assert.ok(id, 'the reviewer item was added');
  const REASON = oneItemReason(id, 'also update the changelog');

  assertRunEnded(r, agent, 4, 'agent-loop requests: read, (item added) done, (block) bash, final', FINAL);
  assert.ok(!JSON.stringify(agent[1].body).includes('also update the changelog'), 'the 2nd request came before the item existed');

  assertBlockedOnce(r, REASON, 'first stop (after the item was added)');

  assert.equal(lastAssistantText(agent[2].body), 'done');
  assert.deepEqual(newMessages(agent[2]), stopFeedback(ctx.stopCmd, REASON));
  assert.deepEqual(newMessages(agent[3]), bashResult(BASH, `done: [${id}] also update the changelog`));

  assert.equal(readFileSync(ctx.queue, 'utf8'), `${HEAD}- [x] also update the changelog <!-- kizu:${id} -->\n`);
  assert.deepEqual(listAll(ctx.sb), { [id]: [true, null, null, null, 'also update the changelog'] });
});
