// The GitHub Copilot CLI adapter (src/agents/copilot/): payloads recorded from Copilot CLI
// 1.0.102 in both shapes (camelCase events, and PascalCase events with snake_case fields)
// parsed into git-kizu's hook inputs, answers rendered, and the installer's own hook file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { jsonError } from '../helpers/expect.mjs';
import { installContext, installerOf, runnerText, writePlan } from '../helpers/agents.mjs';

const { parseHookInput } = await import(src('agents/copilot/payload.ts'));
const { renderAnswer } = await import(src('agents/copilot/envelope.ts'));
const { PayloadError } = await import(src('hooks/contract.ts'));

// Recorded with Copilot CLI 1.0.102 (`copilot -p ... --allow-all-tools --trust-folder`, BYOK against test/helpers/fake-responses.mjs).
const PATCH = '*** Begin Patch\n*** Update File: app.js\n@@\n-const c = 3;\n+const c = 30;\n*** End Patch\n';
const S = '1764bba1-2bdb-42dd-8e2b-d850abfc1e64';
const CWD = '/tmp/kizu-test-2WOTJW/repo';
const POST = { sessionId: S, timestamp: 1796171936515, cwd: CWD, toolName: 'apply_patch', toolArgs: PATCH, toolResult: { resultType: 'success', textResultForLlm: 'Modified 1 file(s): /tmp/kizu-test-2WOTJW/repo/app.js' } };
const PROMPT = { sessionId: S, timestamp: 1796171936368, cwd: CWD, prompt: 'Edit it.' };
const STOP = { sessionId: S, timestamp: 1796171936668, cwd: CWD, transcriptPath: `/tmp/kizu-test-2WOTJW/home/.copilot/session-state/${S}/events.jsonl`, stopReason: 'end_turn', stop_hook_active: false };
const P = '7f184dc2-1f59-4a37-85ff-64da44fa802b';
const PCWD = '/tmp/kizu-test-GGtkld/repo';
const POST_P = { hook_event_name: 'PostToolUse', session_id: P, timestamp: '2026-12-02T00:39:09.301Z', cwd: PCWD, tool_name: 'Edit', tool_input: PATCH, tool_result: { result_type: 'success', text_result_for_llm: 'Modified 1 file(s): /tmp/kizu-test-GGtkld/repo/app.js' } };
const PROMPT_P = { hook_event_name: 'UserPromptSubmit', session_id: P, timestamp: '2026-12-02T00:39:08.438Z', cwd: PCWD, prompt: 'Edit it.' };
const STOP_P = { hook_event_name: 'Stop', session_id: P, timestamp: '2026-12-02T00:39:09.640Z', cwd: PCWD, transcript_path: `/tmp/kizu-test-GGtkld/home/.copilot/session-state/${P}/events.jsonl`, stop_reason: 'end_turn', stop_hook_active: false };

const parse = (event, payload) => parseHookInput(event, typeof payload === 'string' ? payload : JSON.stringify(payload), {});

test('camelCase payloads: postToolUse apply_patch, agentStop, userPromptSubmitted', () => {
  assert.deepEqual(parse('post-tool-use', POST), { input: { session: S, cwd: CWD, paths: ['app.js'] }, hookEventName: 'postToolUse' });
  assert.deepEqual(parse('stop', STOP), { input: { session: S, cwd: CWD, retry: false, subagent: null }, hookEventName: 'agentStop' });
  assert.equal(parse('stop', { ...STOP, stop_hook_active: true }).input.retry, true);
  assert.deepEqual(parse('user-prompt-submit', PROMPT), { input: { session: S, cwd: CWD, prompt: 'Edit it.' }, hookEventName: 'userPromptSubmitted' });
  // postToolUse runs after every tool (no matcher): other tools edit nothing.
  assert.deepEqual(parse('post-tool-use', { ...POST, toolName: 'bash', toolArgs: { command: 'ls' } }).input.paths, []);
  assert.equal(parse('journal', { ...POST, toolName: 'view', toolArgs: { path: 'a' } }).input.edit, null);
  const j = parse('journal', POST).input;
  assert.deepEqual({ ...j.edit, reportedByPath: Object.keys(j.edit.reportedByPath) }, { tool: 'apply_patch', toolUseId: null, paths: ['app.js'], reported: null, reportedByPath: ['app.js'] });
  assert.equal(parse('journal', { ...POST, toolResult: { resultType: 'failure', textResultForLlm: 'x' } }).input.edit, null);
});

test('PascalCase payloads (snake_case fields): PostToolUse Edit, Stop, UserPromptSubmit', () => {
  assert.deepEqual(parse('post-tool-use', POST_P), { input: { session: P, cwd: PCWD, paths: ['app.js'] }, hookEventName: 'PostToolUse' });
  assert.deepEqual(parse('stop', STOP_P), { input: { session: P, cwd: PCWD, retry: false, subagent: null }, hookEventName: 'Stop' });
  assert.deepEqual(parse('user-prompt-submit', PROMPT_P), { input: { session: P, cwd: PCWD, prompt: 'Edit it.' }, hookEventName: 'UserPromptSubmit' });
  assert.equal(parse('journal', { ...POST_P, tool_result: { result_type: 'rejected' } }).input.edit, null);
  assert.deepEqual(parse('journal', POST_P).input.edit.paths, ['app.js']);
});

test('garbage and other agents\' payloads: PayloadError with one line', () => {
  const claude = { session_id: 's', transcript_path: '/t', cwd: '/r', hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: '/r/a', old_string: 'a', new_string: 'b' } };
  const cases = [
    ['stop', '', 'empty hook payload on stdin'],
    // V8's own words for the syntax error, which differ between Node lines (22 adds the line and column).
    ['stop', '{', `hook payload is not JSON (${jsonError('{')})`],
    ['stop', 'null', 'hook payload is not a JSON object'],
    ['stop', '{"a":1}', 'hook payload has no "sessionId" or "hook_event_name" (is this a GitHub Copilot CLI hook payload?)'],
    ['post-tool-use', JSON.stringify(STOP), 'hook payload has no "toolName" (is this a postToolUse payload?)'],
    ['stop', JSON.stringify(POST_P), 'hook payload is for event "PostToolUse", expected agentStop or Stop'],
    ['post-tool-use', JSON.stringify(claude), 'the Edit arguments in the hook payload should be the patch text, got {"file_path":"/r/a","old_string":"a","new_string":"b"}'],
    ['post-tool-use', JSON.stringify({ ...POST, toolArgs: '*** Begin Patch\n*** Oops\n*** End Patch' }), "the apply_patch patch in the hook payload cannot be read: line 2: '*** Oops' is not a hunk header (*** Add File: , *** Delete File:  or *** Update File: <path>)"],
    ['stop', JSON.stringify({ ...STOP, sessionId: 7 }), 'hook payload field "sessionId" should be a string, got 7'],
  ];
  for (const [event, text, message] of cases) {
    assert.throws(() => parseHookInput(event, text, {}), (e) => e instanceof PayloadError && e.message === message, `${event} ${text}`);
  }
});

test('answers: block; context top-level (both keys for a PascalCase event); allow and none print nothing', () => {
  assert.equal(renderAnswer({ kind: 'block', reason: 'R', userMessage: 'U' }, 'agentStop'), '{"decision":"block","reason":"R"}\n');
  assert.equal(renderAnswer({ kind: 'context', context: 'C' }, 'postToolUse'), '{"additionalContext":"C"}\n');
  assert.equal(renderAnswer({ kind: 'context', context: 'C' }, 'PostToolUse'), '{"additionalContext":"C","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"C"}}\n');
  assert.equal(renderAnswer({ kind: 'allow', userMessage: 'U' }, 'agentStop'), '');
  assert.equal(renderAnswer({ kind: 'none' }, 'agentStop'), '');
});

const cmd = (hook) => `"$(git rev-parse --show-toplevel)"/.github/hooks/kizu-hook.sh ${hook} copilot`;
const hookFile = (c) =>
  JSON.stringify(
    {
      version: 1,
      hooks: {
        postToolUse: [
          { type: 'command', bash: c('post-tool-use'), timeoutSec: 30 },
          { type: 'command', bash: c('journal'), timeoutSec: 30 },
        ],
        agentStop: [{ type: 'command', bash: c('stop'), timeoutSec: 30 }],
        userPromptSubmitted: [{ type: 'command', bash: c('user-prompt-submit'), timeoutSec: 30 }],
        preToolUse: [{ type: 'command', bash: c('pre-tool-use'), timeoutSec: 30 }],
      },
    },
    null,
    2,
  ) + '\n';

test('install (project): .github/hooks/kizu.json and the runner, the folder trust step; idempotent; remove; state', async () => {
  const sb = sandbox();
  const installer = await installerOf('copilot');
  const ctx = installContext(sb, 'copilot');
  const file = sb.path('.github/hooks/kizu.json');
  const runner = sb.path('.github/hooks/kizu-hook.sh');
  assert.equal(installer.detect(ctx), false);
  assert.deepEqual(installer.state(ctx), { installed: 'missing', trust: 'unknown', file, fix: 'git kizu init --agent copilot' });
  const plan = installer.planInstall(ctx);
  const step = [
    `Copilot CLI loads ${sb.path('.github/hooks')}/*.json only in a trusted folder: start \`copilot\` in ${sb.dir} once and`,
    `choose to trust the folder and remember it (for one \`copilot -p\` run in ${sb.dir} itself: --trust-folder; anywhere: COPILOT_ALLOW_ALL=true).`,
  ];
  assert.deepEqual(plan, {
    writes: [
      { file: runner, text: runnerText('copilot'), mode: 0o755, owned: true },
      { file, text: hookFile(cmd), owned: true },
    ],
    notes: [`Copilot CLI will run git-kizu's hooks from ${file}.`, ...step],
  });
  writePlan(plan);
  assert.equal(statSync(runner).mode & 0o777, 0o755);
  assert.equal(installer.detect(ctx), true);
  assert.deepEqual(installer.planInstall(ctx), plan, 'a second plan is the same');
  assert.deepEqual(installer.state(ctx), { installed: 'installed', trust: 'unknown', file, fix: `trust ${sb.dir} in Copilot CLI if you have not (start \`copilot\` there and choose to remember the folder)` });
  assert.deepEqual(installer.planRemove(ctx), { writes: [], deletes: [file, runner], notes: [] });
  (await import('node:fs')).rmSync(runner);
  assert.deepEqual(installer.state(ctx), { installed: 'partial', trust: 'unknown', file, fix: 'git kizu init --agent copilot' });
});

test('install (user): $COPILOT_HOME/hooks, absolute runner path, no trust step', async () => {
  const sb = sandbox({ init: false });
  const installer = await installerOf('copilot');
  const home = path.join(sb.base, 'cph');
  const ctx = { ...installContext(sb, 'copilot', { scope: 'user', env: { COPILOT_HOME: home } }), root: null };
  const runner = path.join(home, 'hooks', 'kizu-hook.sh');
  const plan = installer.planInstall(ctx);
  assert.deepEqual(plan.writes.map((w) => [w.file, w.owned]), [[runner, true], [path.join(home, 'hooks', 'kizu.json'), true]]);
  assert.equal(plan.writes[1].text, hookFile((h) => `${runner} ${h} copilot`));
  assert.deepEqual(plan.notes, [`Copilot CLI will run git-kizu's hooks from ${path.join(home, 'hooks', 'kizu.json')}.`]);
  writePlan(plan);
  assert.deepEqual(installer.state(ctx), { installed: 'installed', trust: 'not-needed', file: path.join(home, 'hooks', 'kizu.json'), fix: null });
  assert.equal(existsSync(runner), true);
  assert.equal(readFileSync(runner, 'utf8'), runnerText('copilot'));
});

// Recorded with Copilot CLI 1.0.102: preToolUse payloads of its bash tool (arguments an
// object) and of apply_patch (the patch text).
test('preToolUse → pre-tool-use: bash is a shell call, apply_patch writes its files; deny and ask render as a deny', () => {
  const base = { sessionId: 'fe2bbefe-0478-4a5c-8b41-fc7df216d644', timestamp: 1796526197738, cwd: '/repo' };
  assert.deepEqual(parse('pre-tool-use', { ...base, toolName: 'bash', toolArgs: { command: 'echo hi > out.txt', description: 'x' } }), {
    input: { session: base.sessionId, cwd: '/repo', tool: 'bash', call: { kind: 'shell', command: 'echo hi > out.txt' } },
    hookEventName: 'preToolUse',
  });
  assert.deepEqual(parse('pre-tool-use', { ...base, toolName: 'write_bash', toolArgs: JSON.stringify({ sessionId: '1', input: 'git commit -n\n' }) }).input.call, { kind: 'shell', command: 'git commit -n\n' });
  assert.deepEqual(parse('pre-tool-use', { ...base, toolName: 'apply_patch', toolArgs: '*** Begin Patch\n*** Add File: b.txt\n+hello\n*** End Patch\n' }).input.call, {
    kind: 'write',
    writes: [{ path: 'b.txt', content: 'hello\n' }],
  });
  assert.deepEqual(parse('pre-tool-use', { ...base, toolName: 'view', toolArgs: { path: 'x' } }).input.call, { kind: 'other' });
  // Its other file tools (found by an adversarial tester): each writes its path.
  assert.deepEqual(parse('pre-tool-use', { ...base, toolName: 'create', toolArgs: { path: '/repo/.git/hooks/pre-commit', file_text: 'exit 0\n' } }).input.call, {
    kind: 'write',
    writes: [{ path: '/repo/.git/hooks/pre-commit', content: 'exit 0\n' }],
  });
  assert.deepEqual(parse('pre-tool-use', { ...base, toolName: 'str_replace_editor', toolArgs: JSON.stringify({ command: 'str_replace', path: '.kizurc.json', old_str: 'a', new_str: 'b' }) }).input.call, {
    kind: 'write',
    writes: [{ path: '.kizurc.json' }],
  });
  assert.throws(() => parse('pre-tool-use', { ...base, toolArgs: {} }), /has no "toolName" \(is this a preToolUse payload\?\)/);
  assert.throws(() => parse('pre-tool-use', { ...base, toolName: 'bash', toolArgs: { cmd: 'ls' } }), /should hold "command" as a string/);
  const deny = '{"permissionDecision":"deny","permissionDecisionReason":"R"}\n';
  assert.equal(renderAnswer({ kind: 'deny', reason: 'R', userMessage: 'U' }, 'preToolUse'), deny);
  assert.equal(renderAnswer({ kind: 'ask', reason: 'R' }, 'preToolUse'), deny);
});
