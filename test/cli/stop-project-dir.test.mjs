// The Stop hook checks the project the agent's session belongs to (CLAUDE_PROJECT_DIR, set by
// Claude Code for every hook), not the directory its shell is in when it stops: an agent that
// `cd`s into a new worktree or a nested repository before stopping left its project's scars
// behind (found by an adversarial tester, with the real client: the second Stop payload's cwd
// was the new worktree, and git-kizu let the agent stop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hook, sandbox } from '../helpers/sandbox.mjs';

test('Stop from a worktree the agent made: the project (CLAUDE_PROJECT_DIR) is checked, and its scar blocks', () => {
  const sb = sandbox({ files: { 'a.js': 'const a = 1;\n' } });
  sb.write({ 'a.js': '// @kizu[ask]: why?\nconst a = 2;\n' });
  sb.git('worktree', 'add', '-q', '--detach', 'wt');
  const payload = { session_id: 's', cwd: sb.path('wt'), hook_event_name: 'Stop', stop_hook_active: false };
  const r = hook(sb, 'stop', payload, { env: { CLAUDE_PROJECT_DIR: sb.dir } });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.decision, 'block');
  assert.match(out.reason, /^git-kizu: a human reviewer left 1 scar that is still unresolved\. Resolve it before you stop:\n- "a\.js":1 \[ask\] why\?/);
  // Without the variable (another agent, or a hook run by hand) the payload's cwd is used, as before.
  assert.deepEqual(hook(sb, 'stop', payload).stdout, '');
});
