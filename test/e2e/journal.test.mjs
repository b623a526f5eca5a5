// End-to-end: the edit journal against the REAL Claude Code client (node_modules/.bin/claude)
// and the scripted fake Anthropic API (test/helpers/fake-anthropic.mjs). `git kizu init`
// registers the journal hook as its own PostToolUse group with "async": true; the client runs
// it in the background for each Edit and Write, and the entries it records (from the client's
// real payloads) are rolled back with `git kizu rollback patch`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { claudeRepo, claudeSandboxEnv } from '../helpers/claude.mjs';
import { hookRuns, runAgainstFake, toolUse } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';

test('journal: the async hook records the real Edit and Write payloads; rollback patch undoes both', { timeout: E2E_TEST_MS }, async (t) => {
  const sb = claudeRepo({ files: { 'src/app.js': ORIGINAL }, journal: true });
  const groups = JSON.parse(sb.read('.claude/settings.json')).hooks.PostToolUse;
  assert.deepEqual(groups[1], {
    matcher: '^(Write|Edit|MultiEdit|NotebookEdit)$',
    hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh journal', async: true, timeout: 30 }],
  });
  const env = claudeSandboxEnv(sb);
  const app = sb.path('src/app.js');
  const READ = toolUse('Read', { file_path: app });
  const EDIT = toolUse('Edit', { file_path: app, old_string: 'const b = 2;', new_string: 'const b = 20;' });
  const WRITE = toolUse('Write', { file_path: sb.path('docs/notes.md'), content: '# Notes\n' });
  // The last step waits a second so the async hook of the Write finishes before the run ends.
  const WAIT = toolUse('Bash', { command: 'sleep 1', description: 'wait' });
  const { r } = await runAgainstFake(t, {
    agent: [[READ], [EDIT], [WRITE], [WAIT], 'done'],
    prompt: 'Change b and add notes.',
    cwd: sb.dir,
    env,
    args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(sleep:*)'],
    timeoutMs: E2E_RUN_MS,
  });
  assert.equal(r.json.result, 'done');
  assert.deepEqual(r.json.permission_denials, []);
  // Two PostToolUse runs per edit (the review hook and the journal hook), all clean and silent.
  const posts = hookRuns(r, 'PostToolUse');
  assert.deepEqual(
    posts.map((p) => [p.hook_name, p.exit_code, p.stdout, p.stderr]).sort(),
    [
      ['PostToolUse:Edit', 0, '', ''],
      ['PostToolUse:Edit', 0, '', ''],
      ['PostToolUse:Write', 0, '', ''],
      ['PostToolUse:Write', 0, '', ''],
    ],
  );

  const blob = (s) => sb.git('hash-object', '--stdin', { input: s }).trim();
  const j = JSON.parse(sb.kizu(['journal', '--json']).stdout);
  assert.deepEqual(
    j.map((e) => ({ tool: e.tool, session: e.session, toolUseId: e.toolUseId, files: e.files })),
    [
      {
        tool: 'Edit',
        session: r.json.session_id,
        toolUseId: EDIT.id,
        files: [{ path: 'src/app.js', before: blob(ORIGINAL), after: blob(ORIGINAL.replace('b = 2', 'b = 20')), added: 1, removed: 1, mode: 0o644 }],
      },
      { tool: 'Write', session: r.json.session_id, toolUseId: WRITE.id, files: [{ path: 'docs/notes.md', before: null, after: blob('# Notes\n'), added: 1, removed: 0, mode: 0o644 }] },
    ],
  );
  const s = sb.kizu(['journal', '--session', r.json.session_id]);
  assert.equal(s.stdout.split('\n').filter(Boolean).length, 2);

  const u = sb.kizu(['rollback', 'patch', '--yes', j[0].shortId, j[1].shortId]);
  assert.equal(u.status, 0, u.stderr);
  assert.equal(
    u.stdout.split('\n').slice(0, 2).join('\n'),
    `rolled back ${j[1].shortId} (Write): deleted docs/notes.md (it created the file, unchanged since)\n` +
      `rolled back ${j[0].shortId} (Edit): restored src/app.js (unchanged since, put back exactly)`,
  );
  assert.equal(sb.read('src/app.js'), ORIGINAL);
  assert.ok(!existsSync(sb.path('docs')));
});
