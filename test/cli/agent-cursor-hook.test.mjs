// `git-kizu hook <event> --agent cursor` through the real bin, with the payloads the Cursor
// hooks reference documents (https://cursor.com/docs/hooks, "Input (all hooks)", "stop",
// "afterFileEdit", "beforeSubmitPrompt"; Cursor's agent is not on the npm registry, so they
// are the documented payloads, not measured ones) in a sandbox repository with a scar.
import { test } from 'node:test';
import { vouch } from '../helpers/provenance.mjs';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { BIN, sandbox } from '../helpers/sandbox.mjs';
import { PROTOCOL } from '../helpers/hooks.mjs';

function scarredRepo() {
  const sb = sandbox({ files: { 'src/app.js': 'const a = 1;\nconst b = 2;\n' } });
  sb.write({ 'src/app.js': 'const a = 1;\n// @kizu[ask]: explain this change\nconst b = 3;\n' });
  return sb;
}

/** The documented common fields (https://cursor.com/docs/hooks, "Input (all hooks)"). */
const common = (sb) => ({
  conversation_id: 'conv-cursor-1',
  generation_id: 'gen-1',
  model: 'claude-sonnet-4-20250514',
  cursor_version: '1.7.2',
  workspace_roots: [sb.dir],
  user_email: null,
  transcript_path: null,
});

/** Runs the bin as Cursor's hook would (through the runner): `git-kizu hook <event> --agent cursor`. */
function cursorHook(sb, event, payload) {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  vouch(sb); // the scars are the reviewer's (helpers/provenance.mjs)
  return sb.run(process.execPath, [BIN, 'hook', event, '--agent', 'cursor'], { input, env: { CURSOR_PROJECT_DIR: sb.dir, CLAUDE_PROJECT_DIR: sb.dir } });
}

const REASON =
  'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n' +
  '- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
  PROTOCOL;

test('cursor stop: a scar → exactly {"followup_message": reason naming path:line}; aborted → nothing; resolved → nothing', () => {
  const sb = scarredRepo();
  const stop = (status, loop_count) => ({ ...common(sb), hook_event_name: 'stop', status, loop_count });
  const r = cursorHook(sb, 'stop', stop('completed', 0));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, JSON.stringify({ followup_message: REASON }) + '\n');
  // The user aborted the agent: no follow-up restarts it.
  const aborted = cursorHook(sb, 'stop', stop('aborted', 0));
  assert.deepEqual(aborted, { status: 0, stdout: '', stderr: '' });
  sb.write({ 'src/app.js': 'const a = 1;\nconst b = 3;\n' });
  assert.deepEqual(cursorHook(sb, 'stop', stop('completed', 1)), { status: 0, stdout: '', stderr: '' });
});

test('cursor stop: a garbage payload → exit 0, one stderr line, nothing on stdout', () => {
  const sb = scarredRepo();
  assert.deepEqual(cursorHook(sb, 'stop', 'not json'), {
    status: 0,
    stdout: '',
    stderr: 'git-kizu: ignored a bad hook payload: hook payload is not JSON (Unexpected token \'o\', "not json" is not valid JSON)\n',
  });
  // Claude Code's Stop payload is not Cursor's.
  assert.deepEqual(cursorHook(sb, 'stop', { session_id: 's', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false }), {
    status: 0,
    stdout: '',
    stderr: 'git-kizu: ignored a bad hook payload: hook payload is for event "Stop", expected stop\n',
  });
});

test('cursor afterFileEdit: the journal records the edit (content before unknown), prints nothing; beforeSubmitPrompt snapshots and continues', () => {
  const sb = scarredRepo();
  const edit = {
    ...common(sb),
    hook_event_name: 'afterFileEdit',
    file_path: sb.path('src/app.js'),
    edits: [{ old_string: 'const b = 2;', new_string: '// @kizu[ask]: explain this change\nconst b = 3;' }],
  };
  assert.deepEqual(cursorHook(sb, 'journal', edit), { status: 0, stdout: '', stderr: '' });
  const journal = sb.kizu(['journal', '--json']);
  assert.equal(journal.status, 0, journal.stderr);
  const [entry, ...more] = JSON.parse(journal.stdout);
  assert.equal(more.length, 0);
  assert.deepEqual(
    { tool: entry.tool, session: entry.session, toolUseId: entry.toolUseId, files: entry.files, rollbackOf: entry.rollbackOf },
    {
      tool: 'afterFileEdit',
      session: 'conv-cursor-1',
      toolUseId: null,
      // Cursor reports no content: the content after is the file at hook time, the one before unknown.
      files: [{ path: 'src/app.js', before: null, after: sb.git('hash-object', 'src/app.js').trim(), added: null, removed: null, mode: 0o644, beforeUnknown: true }],
      rollbackOf: [],
    },
  );
  assert.deepEqual(cursorHook(sb, 'post-tool-use', edit), { status: 0, stdout: '', stderr: '' });
  const prompt = { ...common(sb), hook_event_name: 'beforeSubmitPrompt', prompt: 'Fix the bug\nplease', attachments: [] };
  assert.deepEqual(cursorHook(sb, 'user-prompt-submit', prompt), { status: 0, stdout: '{"continue":true}\n', stderr: '' });
  const snaps = sb.kizu(['snapshot', 'list']);
  assert.equal(snaps.status, 0, snaps.stderr);
  assert.match(snaps.stdout, /^\d{8}-\d{6}-\d{3}-[0-9a-f]{8} {2}prompt {2}1 file {2}Fix the bug\n$/);
});

test('git kizu init --agent cursor: a user\'s hooks.json gets the hooks, which run from the project root through the runner; teardown restores it byte for byte', () => {
  const sb = scarredRepo();
  // The user's own hooks.json: 4-space indent, CRLF, a stop hook of their own.
  const users = '{\r\n    "version": 1,\r\n    "hooks": {\r\n        "stop": [{ "command": ".cursor/hooks/audit.sh" }]\r\n    }\r\n}\r\n';
  sb.write({ '.cursor/hooks.json': users });
  const init = sb.kizu(['init', '--agent', 'cursor']);
  assert.deepEqual(init, {
    status: 0,
    stdout: [
      'created .git/hooks/pre-commit',
      'created .cursor/hooks/kizu-hook.sh',
      'updated .cursor/hooks.json',
      'Cursor runs git-kizu from .cursor/hooks.json: afterFileEdit records each edit in the journal, stop keeps the agent working while review scars remain (as a follow-up message; Cursor sends at most 5 in a conversation), beforeSubmitPrompt snapshots the working tree, beforeShellExecution denies shell commands that would switch review off (edits are not gated before the write: Cursor documents no hook for that).',
      'Cursor gives a hook no way to add context after an edit, so the agent learns of scars when it tries to stop.',
      "Built from Cursor's documentation only (https://cursor.com/docs/hooks); not run against Cursor itself.",
      'Cursor runs project hooks only in a trusted workspace: trust this folder when Cursor asks.',
      'next: scar a change with `git kizu scar path:line`; the agent has to resolve it before it stops. Restart running Cursor sessions to load the hooks.',
      '',
    ].join('\n'),
    stderr: '',
  });
  const hooks = JSON.parse(sb.read('.cursor/hooks.json')).hooks;
  assert.deepEqual(hooks, {
    stop: [{ command: '.cursor/hooks/audit.sh' }, { command: '.cursor/hooks/kizu-hook.sh stop cursor', timeout: 30 }],
    afterFileEdit: [{ command: '.cursor/hooks/kizu-hook.sh journal cursor', timeout: 30 }],
    beforeSubmitPrompt: [{ command: '.cursor/hooks/kizu-hook.sh user-prompt-submit cursor', timeout: 30 }],
    beforeShellExecution: [{ command: '.cursor/hooks/kizu-hook.sh pre-tool-use cursor', timeout: 30 }],
  });
  // As Cursor runs a project hook: the command in a shell, from the project root.
  const run = (command, payload) => (vouch(sb), sb.run('sh', ['-c', command], { input: JSON.stringify(payload), env: { CURSOR_PROJECT_DIR: sb.dir, CLAUDE_PROJECT_DIR: sb.dir } }));
  assert.deepEqual(run(hooks.stop[1].command, { ...common(sb), hook_event_name: 'stop', status: 'completed', loop_count: 0 }), {
    status: 0,
    stdout: JSON.stringify({ followup_message: REASON }) + '\n',
    stderr: '',
  });
  assert.deepEqual(run(hooks.beforeSubmitPrompt[0].command, { ...common(sb), hook_event_name: 'beforeSubmitPrompt', prompt: 'go', attachments: [] }), {
    status: 0,
    stdout: '{"continue":true}\n',
    stderr: '',
  });
  const edit = { ...common(sb), hook_event_name: 'afterFileEdit', file_path: sb.path('src/app.js'), edits: [{ old_string: 'x', new_string: 'y' }] };
  assert.deepEqual(run(hooks.afterFileEdit[0].command, edit), { status: 0, stdout: '', stderr: '' });
  assert.equal(JSON.parse(sb.kizu(['journal', '--json']).stdout).length, 1);
  assert.deepEqual(sb.kizu(['teardown', '--agent', 'cursor']), {
    status: 0,
    stdout: [
      'updated .cursor/hooks.json (removed the git-kizu hooks)',
      'removed .cursor/hooks/kizu-hook.sh',
      'removed .git/hooks/pre-commit',
      'git-kizu is uninstalled for --scope project; scars already in files stay until you remove them (git kizu unscar --all)',
      '',
    ].join('\n'),
    stderr: '',
  });
  assert.equal(sb.read('.cursor/hooks.json'), users);
  assert.equal(existsSync(sb.path('.cursor/hooks')), false);
});
