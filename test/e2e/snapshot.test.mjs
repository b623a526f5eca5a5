// End-to-end: the UserPromptSubmit snapshot hook against the REAL Claude Code client
// (node_modules/.bin/claude) and the scripted fake Anthropic API
// (test/helpers/fake-anthropic.mjs).
// `git kizu init` registers it; the client runs it with its real payload before handling the
// prompt; it must print nothing (a UserPromptSubmit hook's stdout would be added to the
// model's context) and leave a snapshot of the tree as it was before the agent's edit, which
// `git kizu rollback snapshot` then restores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeRepo, claudeSandboxEnv } from '../helpers/claude.mjs';
import { hookRuns, runAgainstFake, toolUse } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
const EDITED = 'const a = 1;\nconst b = 20;\nconst c = 3;\n';

test('UserPromptSubmit: the real client runs the hook silently; the prompt snapshot holds the tree before the edit', { timeout: E2E_TEST_MS }, async (t) => {
  // The install as init wrote it (the journal hook kept): the prompt hook's integrity check
  // would tell the user of a missing entry, and this run is about a silent one.
  const sb = claudeRepo({ files: { 'src/app.js': ORIGINAL }, journal: true });
  assert.deepEqual(JSON.parse(sb.read('.claude/settings.json')).hooks.UserPromptSubmit, [
    { hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh user-prompt-submit', timeout: 30 }] },
  ]);
  sb.write({ 'notes.txt': 'untracked before the prompt\n' });
  const env = claudeSandboxEnv(sb);
  const app = sb.path('src/app.js');
  const { r, agent } = await runAgainstFake(t, {
    agent: [[toolUse('Read', { file_path: app })], [toolUse('Edit', { file_path: app, old_string: 'const b = 2;', new_string: 'const b = 20;' })], 'done'],
    prompt: 'Change b to 20.\nNothing else.',
    cwd: sb.dir,
    env,
    args: ['--permission-mode', 'acceptEdits'],
    timeoutMs: E2E_RUN_MS,
  });
  assert.equal(r.json.result, 'done');
  assert.equal(sb.read('src/app.js'), EDITED);

  // One silent hook run; nothing of it in what the model was sent.
  assert.deepEqual(
    hookRuns(r, 'UserPromptSubmit').map((h) => [h.exit_code, h.stdout, h.stderr]),
    [[0, '', '']],
  );
  const first = agent[0].body.messages[0];
  assert.equal(first.role, 'user');
  assert.equal(first.content[first.content.length - 1].text, 'Change b to 20.\nNothing else.', 'the prompt is the last block, nothing added after it');
  for (const q of agent) {
    const sent = JSON.stringify(q.body.messages);
    const m = /.{0,200}(UserPromptSubmit|user-prompt-submit|refs\/kizu|kizu snapshot|hook additional context).{0,200}/i.exec(sent);
    assert.equal(m, null, `hook output reached the model: ${m?.[0]}`);
  }

  const list = JSON.parse(sb.kizu(['snapshot', 'list', '--json']).stdout);
  assert.deepEqual(list.map((s) => [s.kind, s.message]), [['prompt', 'Change b to 20.']]);
  assert.equal(sb.git('cat-file', 'blob', `${list[0].id}:src/app.js`), ORIGINAL, 'taken before the agent edited');
  assert.equal(sb.git('cat-file', 'blob', `${list[0].id}:notes.txt`), 'untracked before the prompt\n');

  const rb = sb.kizu(['rollback', 'snapshot', list[0].name, '--yes']);
  assert.equal(rb.status, 0, rb.stderr);
  assert.equal(sb.read('src/app.js'), ORIGINAL);
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr);
  assert.equal(sb.read('src/app.js'), EDITED);
});
