// End-to-end: journal, rollback patch, rollback snapshot and undo against the REAL Claude Code
// client (node_modules/.bin/claude) and the scripted fake Anthropic API
// (test/helpers/fake-anthropic.mjs). One prompt: the UserPromptSubmit hook takes a prompt
// snapshot; the agent Edits A, changes B with `sed -i` and deletes C through Bash, then Edits
// D. The journal holds only the two Edits (Bash changes are not journalled); `rollback patch`
// undoes exactly the D edit; `rollback snapshot` puts every file back to its bytes and mode
// before the prompt; `undo` reverses that.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { claudeSandboxEnv, initHooks, requireClaude } from '../helpers/claude.mjs';
import { hookRuns, runAgainstFake, toolUse } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

const A0 = 'export const a = 1;\nexport const b = 2;\n';
const A1 = 'export const a = 1;\nexport const b = 20;\n';
const B0 = '#!/bin/sh\necho old value\necho keep\n';
const B1 = '#!/bin/sh\necho new value\necho keep\n';
const C0 = 'to be deleted\nsecond line\n';
const D0 = 'function d() {\n  return "before";\n}\n';
const D1 = 'function d() {\n  return "after";\n}\n';
const NOTES = 'untracked, never committed\n';

/** Every file under the repo except .git: rel path -> {mode, bytes} (symlinks: {link}). */
function tree(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const abs = path.join(d, name);
      const rel = path.relative(dir, abs);
      if (rel === '.git') continue;
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isSymbolicLink()) out[rel] = { link: readlinkSync(abs) };
      else out[rel] = { mode: (st.mode & 0o777).toString(8), bytes: readFileSync(abs) };
    }
  };
  walk(dir);
  return out;
}

test('rollback: journal has only the Edits; rollback patch undoes one; rollback snapshot restores the pre-prompt tree; undo reverses it', { timeout: E2E_TEST_MS }, async (t) => {
  requireClaude();
  const sb = sandbox({ files: { 'src/a.js': A0, 'bin/b.sh': B0, 'docs/c.txt': C0, 'src/d.js': D0 } });
  chmodSync(sb.path('bin/b.sh'), 0o755);
  sb.git('add', '-A');
  sb.git('commit', '-q', '-m', 'b.sh executable');
  initHooks(sb, { journal: true });
  sb.write({ 'notes.txt': NOTES });
  chmodSync(sb.path('notes.txt'), 0o600);

  const before = tree(sb.dir);
  assert.deepEqual(
    Object.fromEntries(['src/a.js', 'bin/b.sh', 'docs/c.txt', 'src/d.js', 'notes.txt'].map((f) => [f, [before[f].mode, before[f].bytes.toString()]])),
    { 'src/a.js': ['644', A0], 'bin/b.sh': ['755', B0], 'docs/c.txt': ['644', C0], 'src/d.js': ['644', D0], 'notes.txt': ['600', NOTES] },
  );

  const env = claudeSandboxEnv(sb);
  const a = sb.path('src/a.js');
  const d = sb.path('src/d.js');
  const EDIT_A = toolUse('Edit', { file_path: a, old_string: 'b = 2;', new_string: 'b = 20;' });
  const EDIT_D = toolUse('Edit', { file_path: d, old_string: 'return "before";', new_string: 'return "after";' });
  const { r } = await runAgainstFake(t, {
    agent: [
      [toolUse('Read', { file_path: a })],
      [EDIT_A],
      [toolUse('Bash', { command: "sed -i 's/old/new/' bin/b.sh", description: 'update b.sh' })],
      [toolUse('Bash', { command: 'rm docs/c.txt', description: 'delete c.txt' })],
      [toolUse('Read', { file_path: d })],
      [EDIT_D],
      // Waits a second so the async journal hook of the last Edit finishes before the run ends.
      [toolUse('Bash', { command: 'sleep 1', description: 'wait' })],
      'done',
    ],
    prompt: 'Change a, b, c and d.',
    cwd: sb.dir,
    env,
    args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(sed:*)', 'Bash(rm:*)', 'Bash(sleep:*)'],
    timeoutMs: E2E_RUN_MS,
  });
  assert.equal(r.json.result, 'done');
  assert.deepEqual(r.json.permission_denials, []);
  assert.deepEqual(hookRuns(r, 'UserPromptSubmit').map((h) => [h.exit_code, h.stdout, h.stderr]), [[0, '', '']]);

  const after = tree(sb.dir);
  const expectedAfter = { ...before, 'src/a.js': { mode: '644', bytes: Buffer.from(A1) }, 'bin/b.sh': { mode: '755', bytes: Buffer.from(B1) }, 'src/d.js': { mode: '644', bytes: Buffer.from(D1) } };
  delete expectedAfter['docs/c.txt'];
  assert.deepEqual(after, expectedAfter, 'the run changed exactly A, B, C and D');

  // The prompt snapshot, taken before the agent did anything.
  const snaps = JSON.parse(sb.kizu(['snapshot', 'list', '--json']).stdout);
  assert.deepEqual(snaps.map((s) => [s.kind, s.message]), [['prompt', 'Change a, b, c and d.']]);

  // The journal: exactly the two Edits, not the Bash changes.
  const blob = (s) => sb.git('hash-object', '--stdin', { input: s }).trim();
  const j = JSON.parse(sb.kizu(['journal', '--json']).stdout);
  assert.deepEqual(
    j.map((e) => ({ tool: e.tool, session: e.session, toolUseId: e.toolUseId, files: e.files })),
    [
      { tool: 'Edit', session: r.json.session_id, toolUseId: EDIT_A.id, files: [{ path: 'src/a.js', before: blob(A0), after: blob(A1), added: 1, removed: 1, mode: 0o644 }] },
      { tool: 'Edit', session: r.json.session_id, toolUseId: EDIT_D.id, files: [{ path: 'src/d.js', before: blob(D0), after: blob(D1), added: 1, removed: 1, mode: 0o644 }] },
    ],
  );

  // rollback patch of the D edit: D back to its bytes before the edit, nothing else touched.
  const p = sb.kizu(['rollback', 'patch', '--yes', j[1].shortId]);
  assert.equal(p.status, 0, p.stderr);
  assert.equal(p.stdout.split('\n')[0], `rolled back ${j[1].shortId} (Edit): restored src/d.js (unchanged since, put back exactly)`);
  const afterPatch = tree(sb.dir);
  assert.deepEqual(afterPatch, { ...after, 'src/d.js': { mode: '644', bytes: Buffer.from(D0) } }, 'only the D edit was undone');

  // rollback snapshot: every file exactly as before the prompt (A, B restored, C recreated).
  const rb = sb.kizu(['rollback', 'snapshot', snaps[0].name, '--yes']);
  assert.equal(rb.status, 0, rb.stderr);
  assert.deepEqual(tree(sb.dir), before, 'the tree is exactly as before the prompt');

  // undo: back to the tree just before that rollback.
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr);
  assert.deepEqual(tree(sb.dir), afterPatch, 'undo restored the tree from just before the rollback');
});
