// The Claude Code hook runner `git kizu init` writes (`.claude/hooks/kizu-hook.sh`, committed
// by teams) where node is not on PATH (GUI clients, nvm): it never exits 126/127 and never
// blocks the agent; it says so in one stderr line naming the fix, or runs the hook through the
// clone's launcher, which holds this machine's node.
import { test } from 'node:test';
import { vouch } from '../helpers/provenance.mjs';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { stopPayload } from '../helpers/hooks.mjs';
import { NO_RUNTIME, pathWithoutNode } from '../helpers/install.mjs';

const EVENTS = [
  ['stop', 'Stop'],
  ['post-tool-use', 'PostToolUse'],
  ['journal', 'PostToolUse journal'],
  ['user-prompt-submit', 'UserPromptSubmit'],
  ['pre-tool-use', 'PreToolUse'],
];

/** Runs the hook the way Claude Code does (`sh -c <command>` in the project, CLAUDE_PROJECT_DIR set). */
function runHook(sb, event, payload, PATH) {
  const command = `"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh ${event}`;
  vouch(sb); // the scars are the reviewer's (helpers/provenance.mjs)
  return sb.run('/bin/sh', ['-c', command], { input: JSON.stringify(payload), env: { PATH, CLAUDE_PROJECT_DIR: sb.dir } });
}

test('no node on PATH and no launcher: every event exits 0 with one stderr line naming the fix (the pre-tool gate refuses: exit 2), also with a git-kizu on PATH whose node is missing', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--no-pre-commit']));
  rmSync(sb.path('.git/kizu/git-kizu')); // a teammate's clone before their `git kizu init`
  const bare = pathWithoutNode(sb);
  const kizuNoNode = pathWithoutNode(sb, 'kizu-no-node', { 'git-kizu': BIN });
  for (const PATH of [bare, kizuNoNode]) {
    for (const [event, label] of EVENTS) {
      const r = runHook(sb, event, stopPayload(sb, false), PATH);
      // The pre-tool gate fails closed: the call it cannot judge does not run.
      const expected =
        event === 'pre-tool-use'
          ? [2, '', "git-kizu: tool call refused: the pre-tool gate cannot run here (no git-kizu with node on PATH, and no launcher in this clone's git dir); the human installs git-kizu (npm install -g git-kizu) and runs `git kizu init`\n"]
          : [0, '', `git-kizu: ${label} hook skipped: ${NO_RUNTIME}\n`];
      assert.deepEqual([r.status, r.stdout, r.stderr], expected, `${event} with PATH=${PATH}`);
    }
  }
});

test('no node on PATH, the launcher present: the hook really runs (Stop blocks on a scar), also with a git-kizu on PATH whose node is missing', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--no-pre-commit']));
  writeFileSync(sb.path('a.js'), 'const a = 1;\n// @kizu[ask]: why 1?\n');
  for (const PATH of [pathWithoutNode(sb), pathWithoutNode(sb, 'kizu-no-node', { 'git-kizu': BIN })]) {
    const r = runHook(sb, 'stop', stopPayload(sb, false, `s-${path.basename(PATH)}`), PATH);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const out = JSON.parse(r.stdout);
    assert.equal(out.decision, 'block');
    assert.match(out.reason, /"a\.js":2/);
  }
  // The snapshot hook runs too (it prints nothing; a snapshot ref appears).
  const u = runHook(sb, 'user-prompt-submit', { session_id: 's', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' }, pathWithoutNode(sb, 'ups'));
  assert.deepEqual([u.status, u.stdout, u.stderr], [0, '', '']);
  assert.match(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/'), /^refs\/kizu\/snapshots\/\S+\n$/);
});

test('the launcher of a user-scope install runs the hook where the clone has none', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--no-pre-commit']));
  ok(sb.kizu(['init', '--scope', 'user', '--no-pre-commit']));
  rmSync(sb.path('.git/kizu/git-kizu'));
  writeFileSync(sb.path('a.js'), 'const a = 1;\n// @kizu[ask]: why 1?\n');
  const r = sb.run('/bin/sh', ['-c', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh stop'], {
    input: JSON.stringify(stopPayload(sb, false)),
    env: { PATH: pathWithoutNode(sb), CLAUDE_PROJECT_DIR: sb.dir, HOME: sb.home },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).decision, 'block');
});

test('the runner passes an agent on as --agent, and refuses an unknown one with one stderr line and exit 0', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--no-pre-commit']));
  writeFileSync(sb.path('a.js'), 'const a = 1;\n// @kizu[ask]: why 1?\n');
  const PATH = pathWithoutNode(sb);
  const run = (args) =>
    sb.run('/bin/sh', ['-c', `"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh ${args}`], {
      input: JSON.stringify(stopPayload(sb, false)),
      env: { PATH, CLAUDE_PROJECT_DIR: sb.dir },
    });
  // `claude` named explicitly is the default's answer: the Claude Code Stop block.
  const c = run('stop claude');
  assert.equal(c.status, 0, c.stderr);
  assert.equal(c.stderr, '');
  assert.equal(JSON.parse(c.stdout).decision, 'block');
  const bad = run('stop vim');
  assert.deepEqual(
    [bad.status, bad.stdout, bad.stderr],
    [0, '', `git-kizu: hook skipped: ${sb.path('.claude/hooks/kizu-hook.sh')} was run for agent "vim", expected claude, codex, gemini, copilot or cursor; run \`git kizu init\` again to repair the hook settings\n`],
  );
});

test('git-kizu hook with an unknown --agent or a stray argument lets the action through: exit 0, one stderr line, nothing on stdout', () => {
  const sb = sandbox();
  writeFileSync(sb.path('a.js'), 'const a = 1;\n// @kizu[ask]: why 1?\n');
  const input = JSON.stringify(stopPayload(sb, false));
  const unknown = sb.kizu(['hook', 'stop', '--agent', 'vim'], { input });
  assert.deepEqual(
    [unknown.status, unknown.stdout, unknown.stderr],
    [0, '', 'git-kizu: stop hook skipped: unknown agent "vim"; expected `git-kizu hook stop --agent <agent>` with one of: claude, codex, gemini, copilot, cursor (run `git kizu init --agent <agent>` again to repair the registration)\n'],
  );
  const stray = sb.kizu(['hook', 'stop', 'extra'], { input });
  assert.equal(stray.status, 0);
  assert.equal(stray.stdout, '');
  assert.match(stray.stderr, /^git-kizu: stop hook skipped: Unexpected argument 'extra'[^\n]*\n$/);
});
