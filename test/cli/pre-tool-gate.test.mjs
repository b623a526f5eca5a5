// The pre-tool gate through the real bin: `git-kizu hook pre-tool-use` with Claude Code's
// PreToolUse payloads on stdin. A denied call gets Claude Code's permission decision with the
// reason the agent reads and a line for the user; a harmless call gets nothing; a payload the
// gate cannot read, an unknown agent or an agent without a pre-tool adapter fail closed (exit 2,
// one stderr line), where every other hook lets the action through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BIN, hook, sandbox } from '../helpers/sandbox.mjs';

const pre = (sb, tool_name, tool_input, extra = {}) => ({ session_id: 's', cwd: sb.dir, hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 't1', ...extra });

test('a Bash call that skips the hooks is denied with the reason, the rule and what matched; the user is told', () => {
  const sb = sandbox();
  const r = hook(sb, 'pre-tool-use', pre(sb, 'Bash', { command: 'FOO=1 bash -c "git commit -n -m wip"' }));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.deepEqual(JSON.parse(r.stdout), {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason:
        'git-kizu refused this Bash call: this commit skips the git hooks (`--no-verify`/`-n`), and with them the check that no unresolved review remark is committed. Commit without it; if the pre-commit check refuses, resolve what it names (or tell the human). (rule commit-no-verify: "git commit -n -m wip")',
    },
    systemMessage: "git-kizu pre-tool gate denied the agent's Bash call (rule commit-no-verify): git commit -n -m wip",
  });
});

test('harmless calls get no answer: a command, an edit, a read', () => {
  const sb = sandbox();
  for (const p of [
    pre(sb, 'Bash', { command: 'npm test' }),
    pre(sb, 'Bash', { command: 'git commit -m "mention --no-verify in a message"' }),
    pre(sb, 'Edit', { file_path: sb.path('src/a.js'), old_string: 'a', new_string: 'b' }),
    pre(sb, 'Read', { file_path: sb.path('.git/config') }),
  ]) {
    const r = hook(sb, 'pre-tool-use', p);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''], JSON.stringify(p.tool_input));
  }
});

test('edits of hook files and .git/ are denied for Write, Edit, MultiEdit and NotebookEdit (relative paths resolved against cwd)', () => {
  const sb = sandbox();
  const cases = [
    [pre(sb, 'Write', { file_path: sb.path('.claude/settings.local.json'), content: '{"disableAllHooks":true}' }), 'hook-files', '.claude/settings.local.json'],
    [pre(sb, 'Edit', { file_path: '../.git/hooks/pre-commit', old_string: 'a', new_string: 'exit 0' }, { cwd: sb.path('src') }), 'git-dir', '.git/hooks/pre-commit'],
    [pre(sb, 'MultiEdit', { file_path: sb.path('.kizurc.json'), edits: [{ old_string: '[]', new_string: '["**"]' }] }), 'kizu-config', '.kizurc.json'],
    [pre(sb, 'NotebookEdit', { notebook_path: sb.path('.git/x.ipynb'), new_source: '' }), 'git-dir', '.git/x.ipynb'],
  ];
  for (const [p, rule, shown] of cases) {
    const r = hook(sb, 'pre-tool-use', p);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.ok(out.hookSpecificOutput.permissionDecisionReason.startsWith(`git-kizu refused this ${p.tool_name} call: `), out.hookSpecificOutput.permissionDecisionReason);
    assert.ok(out.hookSpecificOutput.permissionDecisionReason.endsWith(`(rule ${rule}: "${shown}")`), out.hookSpecificOutput.permissionDecisionReason);
  }
});

test('a command the gate cannot read is asked about (the user decides); control characters in what matched are escaped', () => {
  const sb = sandbox();
  const r = hook(sb, 'pre-tool-use', pre(sb, 'Bash', { command: '$X commit\x1b[2J' }));
  const out = JSON.parse(r.stdout);
  assert.equal(out.hookSpecificOutput.permissionDecision, 'ask');
  assert.ok(out.hookSpecificOutput.permissionDecisionReason.endsWith('(rule dynamic-command: "$X commit\\u001b[2J")'), out.hookSpecificOutput.permissionDecisionReason);
  assert.ok(!r.stdout.includes('\x1b'));
});

test('fails closed: a bad payload, a Bash call without a command, an unknown agent, a payload the agent\'s adapter cannot read → exit 2, one stderr line, nothing on stdout', () => {
  const sb = sandbox();
  const run = (payload, args = []) => sb.run(process.execPath, [BIN, 'hook', 'pre-tool-use', ...args], { input: payload });
  const cases = [
    [run('not json'), /^git-kizu refused this tool call: its pre-tool gate could not check it \(hook payload is not JSON \(.*\)\); if this repeats, tell the human to run `git kizu doctor`\n$/],
    [run(JSON.stringify(pre(sb, 'Bash', { cmd: 'git commit -n' }))), /could not check it \(hook payload field "tool_input\.command" should be a string, got undefined\)/],
    [run(JSON.stringify(pre(sb, 'Bash', { command: 'ls' })), ['--agent', 'nobody']), /could not check it \(unknown agent "nobody"; the hook settings should run `git-kizu hook pre-tool-use --agent <agent>` with one of: claude, codex, gemini, copilot, cursor\)/],
    [run(JSON.stringify({ conversation_id: 'c', hook_event_name: 'beforeShellExecution', workspace_roots: [sb.dir] }), ['--agent', 'cursor']), /could not check it \(hook payload has no "command" \(beforeShellExecution names the command line\)\)/],
  ];
  for (const [r, re] of cases) {
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, re);
    assert.equal(r.stderr.split('\n').length, 2);
  }
  // Other events still let the action through on a bad payload.
  const stop = sb.run(process.execPath, [BIN, 'hook', 'stop'], { input: 'not json' });
  assert.equal(stop.status, 0);
});

test('package.json through the payload: an Edit or MultiEdit that changes "kizu" is denied, one of its other keys passes; a Write is compared as a whole', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x",\n  "scripts": { "test": "node --test" },\n  "kizu": { "scan": { "exclude": [] } }\n}\n' } });
  const decision = (p) => {
    const r = hook(sb, 'pre-tool-use', p);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout ? JSON.parse(r.stdout).hookSpecificOutput.permissionDecision : 'none';
  };
  const file_path = sb.path('package.json');
  assert.equal(decision(pre(sb, 'Edit', { file_path, old_string: '"node --test"', new_string: '"node --test --watch"' })), 'none');
  assert.equal(decision(pre(sb, 'Edit', { file_path, old_string: '"exclude": []', new_string: '"exclude": ["**"]' })), 'deny');
  assert.equal(decision(pre(sb, 'MultiEdit', { file_path, edits: [{ old_string: '"x"', new_string: '"y"' }, { old_string: '"kizu"', new_string: '"kizu-off"' }] })), 'deny');
  assert.equal(decision(pre(sb, 'Write', { file_path, content: '{"name":"y","kizu":{"scan":{"exclude":[]}}}' })), 'none');
  assert.equal(decision(pre(sb, 'Write', { file_path, content: '{"name":"y"}' })), 'deny');
});

test('Claude Code settings moved by CLAUDE_CONFIG_DIR are protected like ~/.claude/settings.json', () => {
  const sb = sandbox();
  const dir = path.join(sb.base, 'claude-config');
  const r = hook(sb, 'pre-tool-use', pre(sb, 'Write', { file_path: path.join(dir, 'settings.json'), content: '{"disableAllHooks":true}' }), { env: { CLAUDE_CONFIG_DIR: dir } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny');
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /\(rule user-hook-files: /);
});
