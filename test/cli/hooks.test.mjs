// Hook handlers through the real bin: `git-kizu hook <event>` with payloads on stdin; scars
// in the Stop and PostToolUse output, bounded retries, bad payloads, the pre-commit handler.
import { vouch } from '../helpers/provenance.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox } from '../helpers/sandbox.mjs';
import { PROTOCOL, contextOutput, stopPayload } from '../helpers/hooks.mjs';
import { commitConfig } from '../helpers/config.mjs';

function scarredRepo() {
  const sb = sandbox({ files: { 'src/app.js': 'const a = 1;\nconst b = 2;\n', 'README.md': '# x\n' } });
  sb.write({ 'src/app.js': 'const a = 1;\n// @kizu[ask]: explain this change\nconst b = 3;\n' });
  return sb;
}

test('post-tool-use: edited file with a scar → exact additionalContext JSON', () => {
  const sb = scarredRepo();
  const r = hook(sb, 'post-tool-use', { session_id: 's', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(sb.dir, 'src/app.js') } });
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.deepEqual(
    JSON.parse(r.stdout),
    contextOutput(
      'git-kizu: the file you just edited holds 1 review scar left by a human reviewer:\n' +
        '- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
        PROTOCOL +
        ' Resolve it before you finish your turn.',
    ),
  );
  assert.equal(r.stdout.trim().split('\n').length, 1);
});

test('post-tool-use: relative path resolves against payload cwd; notebook_path and legacy edits[] are read', () => {
  const sb = scarredRepo();
  sb.write({ 'nb.py': '# @kizu[free]: split this cell\nx = 1\n' });
  const rel = hook(sb, 'post-tool-use', { session_id: 's', hook_event_name: 'PostToolUse', cwd: path.join(sb.dir, 'src'), tool_name: 'Write', tool_input: { file_path: 'app.js' } });
  assert.match(JSON.parse(rel.stdout).hookSpecificOutput.additionalContext, /^git-kizu: the file you just edited holds 1 review scar[^]*- "src\/app\.js":2 \[ask\] explain this change/);
  const nb = hook(sb, 'post-tool-use', { session_id: 's', hook_event_name: 'PostToolUse', cwd: sb.dir, tool_name: 'NotebookEdit', tool_input: { notebook_path: 'nb.py' } });
  assert.match(JSON.parse(nb.stdout).hookSpecificOutput.additionalContext, /- "nb\.py":1 \[free\] split this cell → do what it says, then delete the scar line/);
  const multi = hook(sb, 'post-tool-use', { session_id: 's', hook_event_name: 'PostToolUse', cwd: sb.dir, tool_name: 'MultiEdit', tool_input: { edits: [{ file_path: 'nb.py' }, { file_path: 'src/app.js' }] } });
  const ctx = JSON.parse(multi.stdout).hookSpecificOutput.additionalContext;
  assert.match(ctx, /holds 2 review scars/);
  assert.match(ctx, /- "nb\.py":1 \[free\]/);
  assert.match(ctx, /- "src\/app\.js":2 \[ask\]/);
});

test('post-tool-use: file without scars, missing file, path outside the repo → nothing on stdout', () => {
  const sb = scarredRepo();
  const outside = path.join(sb.base, 'outside.js');
  writeFileSync(outside, '// @kizu[ask]: not ours\n');
  for (const file_path of [path.join(sb.dir, 'README.md'), path.join(sb.dir, 'gone.js'), outside, '../outside.js']) {
    const r = hook(sb, 'post-tool-use', { session_id: 's', hook_event_name: 'PostToolUse', cwd: sb.dir, tool_name: 'Edit', tool_input: { file_path } });
    assert.equal(r.status, 0, file_path);
    assert.equal(r.stdout, '', file_path);
    assert.equal(r.stderr, '', file_path);
  }
});

test('bad payloads (garbage, empty, array, wrong types) → exit 0, no stdout, exactly one stderr line', () => {
  const sb = scarredRepo();
  // `{}` and other objects without hook_event_name are not Claude Code payloads.
  const payloads = ['not json', '', '[1,2]', '"str"', '{}', '{"session_id": "s", "cwd": "/x"}', '{"tool_input": 5, "cwd": 7}', '{"hook_event_name": "PostToolUse", "cwd": "/nonexistent/dir/x"}', '{"hook_event_name": "UserPromptSubmit"}', '{"stop_hook_active": "yes"}'];
  for (const event of ['stop', 'post-tool-use']) {
    for (const p of payloads) {
      const r = hook(sb, event, p);
      assert.equal(r.status, 0, `${event} ${p}`);
      assert.equal(r.stdout, '', `${event} ${p}`);
      if (event === 'post-tool-use' && p === '{"hook_event_name": "PostToolUse", "cwd": "/nonexistent/dir/x"}') {
        assert.equal(r.stderr, '', `${event} ${p}`); // valid payload with nothing to read: silent
      } else {
        assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, `${event} ${p}: ${r.stderr}`);
        assert.match(r.stderr, /^git-kizu: /);
      }
    }
  }
});

test('stop and user-prompt-submit: cwd outside any git repository → exit 0, silent (user-scope hooks and the plugin run in every folder)', () => {
  const sb = sandbox({ init: false });
  const r = hook(sb, 'stop', { session_id: 's', hook_event_name: 'Stop', cwd: sb.dir, stop_hook_active: false });
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  const u = hook(sb, 'user-prompt-submit', { session_id: 's', hook_event_name: 'UserPromptSubmit', cwd: sb.dir, prompt: 'hi' });
  assert.deepEqual([u.status, u.stdout, u.stderr], [0, '', '']);
});

test('stop: scar in a changed file blocks with the exact reason; no scars → nothing', () => {
  const sb = scarredRepo();
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.deepEqual(JSON.parse(r.stdout), {
    decision: 'block',
    reason:
      'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n' +
      '- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
      PROTOCOL,
  });
  sb.write({ 'src/app.js': 'const a = 1;\nconst b = 3;\n' });
  const ok = hook(sb, 'stop', stopPayload(sb, true));
  assert.equal(ok.status, 0);
  assert.equal(ok.stdout, '');
  assert.equal(ok.stderr, '');
});

test('stop: scars in untracked new files are found; ignored files and unchanged tracked files are not', () => {
  const sb = sandbox({ files: { '.gitignore': 'build/\n', 'old.py': '# @kizu[ask]: committed long ago\n' } });
  sb.write({ 'build/out.js': '// @kizu[ask]: ignored\n' });
  assert.equal(hook(sb, 'stop', stopPayload(sb, false)).stdout, '');
  sb.write({ 'new/thing.rb': "puts 1\n  # @kizu[reject]: revert this change\n" });
  const r = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(r.decision, 'block');
  assert.match(r.reason, /^git-kizu: a human reviewer left 1 scar that is still unresolved\. Resolve it before you stop:\n- "new\/thing\.rb":2 \[reject\] revert this change → undo that change, then delete the scar line\n/);
});

test('stop: bounded retries — maxBlocks blocks without progress, then allowed with a systemMessage', () => {
  const sb = scarredRepo();
  const reasons = [];
  for (let i = 0; i < 3; i++) {
    const r = JSON.parse(hook(sb, 'stop', stopPayload(sb, i > 0)).stdout);
    assert.equal(r.decision, 'block', `block ${i + 1}`);
    reasons.push(r.reason);
  }
  assert.ok(!reasons[0].includes('(Block'));
  assert.ok(reasons[1].endsWith('\n(Block 2 of 3 without progress; after that the stop is allowed and the user is told.)'));
  assert.ok(reasons[2].endsWith('\n(Block 3 of 3 without progress; after that the stop is allowed and the user is told.)'));
  const fourth = hook(sb, 'stop', stopPayload(sb, true));
  assert.equal(fourth.status, 0);
  assert.deepEqual(JSON.parse(fourth.stdout), {
    systemMessage:
      'git-kizu: allowing the stop after 3 blocks without progress; 1 scar still unresolved:\n' +
      '- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
      'Run `git kizu scan` to see them; the git pre-commit hook refuses them if staged.',
  });
  // The next turn (stop_hook_active false) starts counting again.
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout).decision, 'block');
});

test('stop: the bound holds for a client that never flags a retry (stop_hook_active always false): maxBlocks blocks, then allowed', () => {
  const sb = scarredRepo();
  const blocks = [];
  for (let i = 0; i < 3; i++) blocks.push(JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout));
  assert.deepEqual(blocks.map((b) => b.decision), ['block', 'block', 'block']);
  assert.ok(blocks[2].reason.endsWith('\n(Block 3 of 3 without progress; after that the stop is allowed and the user is told.)'));
  const fourth = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(fourth.decision, undefined);
  assert.match(fourth.systemMessage, /^git-kizu: allowing the stop after 3 blocks without progress; 1 scar still unresolved:/);
});

test('stop: an unflagged stop long after the last block is a new turn; a flagged retry continues the count however late', () => {
  const sb = scarredRepo();
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout).decision, 'block');
  const file = sb.path('.git/kizu/stop/sess-1.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(Object.keys(state), ['key', 'streak', 'at']);
  assert.equal(state.streak, 1);
  // 16 minutes ago: beyond the 15-minute window.
  writeFileSync(file, JSON.stringify({ ...state, at: Date.now() - 16 * 60_000 }) + '\n');
  const fresh = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.ok(!fresh.reason.includes('(Block'), fresh.reason);
  writeFileSync(file, JSON.stringify({ ...state, at: Date.now() - 16 * 60_000 }) + '\n');
  const retry = JSON.parse(hook(sb, 'stop', stopPayload(sb, true)).stdout);
  assert.ok(retry.reason.endsWith('\n(Block 2 of 3 without progress; after that the stop is allowed and the user is told.)'), retry.reason);
});

test('stop: progress (the unresolved set changes) keeps blocking past maxBlocks; sessions are counted apart', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  const scars = Array.from({ length: 6 }, (_, i) => `// @kizu[free]: task ${i}\n`);
  sb.write({ 'a.js': scars.join('') + 'x\n' });
  for (let i = 0; i < 6; i++) {
    sb.write({ 'a.js': scars.slice(i).join('') + 'x\n' }); // one scar resolved per round
    const r = JSON.parse(hook(sb, 'stop', stopPayload(sb, i > 0)).stdout);
    assert.equal(r.decision, 'block', `round ${i}`);
    assert.ok(!r.reason.includes('(Block'), `round ${i} counts as progress`);
  }
  // Another session starts at block 1 even though sess-1 has a streak going.
  hook(sb, 'stop', stopPayload(sb, true));
  const other = JSON.parse(hook(sb, 'stop', stopPayload(sb, true, 'sess-2')).stdout);
  assert.ok(!other.reason.includes('(Block'));
});

test('stop: config stop.maxBlocks is honoured', () => {
  const sb = scarredRepo();
  commitConfig(sb, { '.kizurc.json': '{"stop": {"maxBlocks": 1}}\n' });
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout).decision, 'block');
  assert.match(JSON.parse(hook(sb, 'stop', stopPayload(sb, true)).stdout).systemMessage, /^git-kizu: allowing the stop after 1 block without progress; 1 scar still unresolved:/);
});

test('stop: SubagentStop is allowed by default; stop.subagents: true opts in', () => {
  const sb = scarredRepo();
  const sub = { session_id: 's', cwd: sb.dir, hook_event_name: 'SubagentStop', agent_id: 'a1', stop_hook_active: false };
  const r = hook(sb, 'stop', sub);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, '');
  commitConfig(sb, { '.kizurc.json': '{"stop": {"subagents": true}}\n' });
  assert.equal(JSON.parse(hook(sb, 'stop', sub).stdout).decision, 'block');
});

test('stop: scan.exclude keeps fixtures with literal scars from blocking', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  commitConfig(sb, { '.kizurc.json': '{"scan": {"exclude": ["test/fixtures/**"]}}\n' });
  sb.write({ 'test/fixtures/scarred.js': '// @kizu[ask]: fixture\n' });
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, '');
});

test('an invalid config does not switch the gates off: Stop, PostToolUse and pre-commit use its valid keys and defaults, and say so', () => {
  const sb = scarredRepo();
  sb.write({ 'vendor/lib.js': '// @kizu[ask]: not mine\n' });
  // One valid key (scan.exclude) and one invalid one (stop.maxBlocks).
  commitConfig(sb, { '.kizurc.json': '{"stop": {"maxBlocks": 0}, "scan": {"exclude": ["vendor/**"]}}\n' });
  const file = path.join(realpathSync(sb.dir), '.kizurc.json');
  const warning = `git-kizu: warning: invalid config in ${file}: "stop.maxBlocks" must be an integer >= 1, got 0; its valid keys and the defaults for the rest are used until it is fixed (see README "Config")`;
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, warning + '\n');
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['decision', 'reason', 'systemMessage']);
  assert.equal(out.decision, 'block');
  assert.equal(out.reason.split('\n').slice(0, 2).join('\n'), 'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line');
  assert.equal(out.systemMessage, warning);

  const ptu = hook(sb, 'post-tool-use', { session_id: 's', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: sb.path('src/app.js') } });
  assert.equal(ptu.status, 0);
  assert.equal(ptu.stderr, warning + '\n');
  assert.equal(JSON.parse(ptu.stdout).hookSpecificOutput.additionalContext.split('\n').slice(0, 2).join('\n'), 'git-kizu: the file you just edited holds 1 review scar left by a human reviewer:\n- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line');

  sb.git('add', 'src/app.js', 'vendor/lib.js');
  const pc = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(pc.status, 1);
  assert.deepEqual(pc.stderr.split('\n').slice(0, 3), [warning, 'git-kizu: commit refused: 1 unresolved scar is staged:', '  "src/app.js":2  [ask]  explain this change']);

  // A config that cannot even be parsed: the defaults; with nothing to resolve, only the warning.
  writeFileSync(sb.path('.kizurc.json'), '{"stop": \n');
  writeFileSync(sb.path('src/app.js'), 'const a = 1;\n');
  rmSync(sb.path('vendor'), { recursive: true });
  const clean = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(clean.status, 0);
  const msg = JSON.parse(clean.stdout);
  assert.deepEqual(Object.keys(msg), ['systemMessage']);
  const [warned, untrusted] = msg.systemMessage.split('\n');
  assert.match(warned, /^git-kizu: warning: could not read config: .*; the defaults are used until it is fixed \(see README "Config"\)$/);
  // The committed config's gate keys (its scan.exclude) still hold, and the user is told.
  assert.equal(
    untrusted,
    "git-kizu: the working tree's .kizurc.json is not the committed one (unreadable, emptied or without a config), so its change to scan.exclude is not applied (the committed .kizurc.json's values are used); commit it to apply it: git add -A -- .kizurc.json && git commit",
  );
  assert.equal(clean.stderr, warned + '\n');
});

test('stop: state lives under the git dir, never in the working tree', () => {
  const sb = scarredRepo();
  hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual(readdirSync(sb.path('.git/kizu/stop')), ['sess-1.json']);
  assert.equal(sb.git('status', '--porcelain'), ' M src/app.js\n');
});

test('pre-commit handler: staged blob decides, not the working tree; KIZU_SKIP=1 skips', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n', 'b.js': 'y\n' } });
  sb.write({ 'a.js': '// @kizu[ask]: explain this change\nx\n' });
  sb.git('add', 'a.js');
  sb.write({ 'a.js': 'x\n' }); // working tree clean again, index still scarred
  sb.write({ 'b.js': '// @kizu[ask]: only in the working tree\ny\n' });
  const r = sb.run(process.execPath, [path.join(sb.base, 'bin', 'git-kizu'), 'hook', 'pre-commit']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'git-kizu: commit refused: 1 unresolved scar is staged:\n' +
      '  "a.js":1  [ask]  explain this change\n' +
      'Resolve each scar and remove its line (git kizu unscar <path>:<line>), then git add the file again.\n' +
      'If a scar cannot be resolved, ask the human reviewer: only they decide to commit it anyway.\n',
  );
  const skip = sb.run(process.execPath, [path.join(sb.base, 'bin', 'git-kizu'), 'hook', 'pre-commit'], { env: { KIZU_SKIP: '1' } });
  assert.equal(skip.status, 0);
  assert.equal(skip.stderr, '');
  sb.git('add', 'a.js');
  const clean = sb.run(process.execPath, [path.join(sb.base, 'bin', 'git-kizu'), 'hook', 'pre-commit']);
  assert.equal(clean.status, 0);
  assert.equal(clean.stderr, '');
});

test('pre-commit handler: deleted files with scars in HEAD do not block; unborn HEAD works', () => {
  const sb = sandbox({ files: { 'old.js': '// @kizu[ask]: old\n' } });
  sb.git('rm', '-q', 'old.js');
  const bin = path.join(sb.base, 'bin', 'git-kizu');
  assert.equal(sb.run(process.execPath, [bin, 'hook', 'pre-commit']).status, 0);
  const fresh = sandbox({ commit: false });
  fresh.write({ 'n.sh': '# @kizu[reject]: revert this change\n' });
  fresh.git('add', 'n.sh');
  const r = fresh.run(process.execPath, [bin, 'hook', 'pre-commit']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^git-kizu: commit refused: 1 unresolved scar is staged:\n  "n\.sh":1  \[reject\]  revert this change\n/);
});

test('hook: unknown event → exit 2 with the list of events', () => {
  const sb = scarredRepo();
  const r = hook(sb, 'nope', '{}');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'git-kizu: unknown hook event "nope"; expected one of: stop, post-tool-use, journal, user-prompt-submit, pre-tool-use, pre-commit\n');
});

test('a hook whose stdin is non-blocking and not written yet waits for the payload (no "bad payload")', async () => {
  const { openSync, closeSync, writeSync, constants: C } = await import('node:fs');
  const sb = sandbox({ files: { 'src/app.ts': '// @kizu[ask]: why?\nexport const a = 1;\n' } });
  vouch(sb); // the reviewer's scar (helpers/provenance.mjs), as hook() would record it
  const fifo = path.join(sb.base, 'stdin.fifo');
  sb.run('mkfifo', [fifo]);
  const rfd = openSync(fifo, C.O_RDONLY | C.O_NONBLOCK);
  const wfd = openSync(fifo, C.O_WRONLY);
  const child = spawn(process.execPath, [BIN, 'hook', 'post-tool-use'], { cwd: sb.dir, env: { ...process.env, ...sb.env }, stdio: [rfd, 'pipe', 'pipe'] });
  closeSync(rfd);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise((resolve) => child.on('close', resolve));
  await new Promise((r) => setTimeout(r, 400));
  writeSync(wfd, JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(sb.dir, 'src/app.ts') } }));
  closeSync(wfd);
  assert.equal(await done, 0);
  assert.equal(err, '');
  assert.match(JSON.parse(out).hookSpecificOutput.additionalContext, /"src\/app\.ts":1 \[ask\] why\?/);
});

test('stop: an unreadable review queue is shown to the user (systemMessage) while the scars still block', () => {
  const sb = scarredRepo();
  sb.write({ '.claude/review-queue.md': Buffer.from('- [ ] caf\xe9\n', 'latin1') });
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.status, 0);
  const line = 'git-kizu: review queue not read: .claude/review-queue.md is not valid UTF-8';
  assert.equal(r.stderr, line + '\n');
  const out = JSON.parse(r.stdout);
  assert.equal(out.decision, 'block');
  assert.equal(out.systemMessage, line);
  writeFileSync(sb.path('src/app.js'), 'const a = 1;\n');
  const clean = hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual(JSON.parse(clean.stdout), { systemMessage: line });
});

test('a scar left by revert -m tells the agent the change is already undone', () => {
  const sb = sandbox({ files: { 'a.js': 'one;\ntwo;\n' } });
  sb.write({ 'a.js': 'one;\nTWO;\n' });
  assert.equal(sb.kizu(['revert', 'a.js:2', '-m', 'keep the old name']).status, 0);
  const r = hook(sb, 'stop', { session_id: 's', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false });
  assert.match(
    JSON.parse(r.stdout).reason,
    /\n- "a\.js":2 \[reject\] reverted: keep the old name → the reviewer already reverted this change: do not redo it; take the reason into account, then delete the scar line\n/,
  );
});

test('a bad payload with a CR and a terminal escape: the one stderr line shows them as \\xNN, never raw', () => {
  const sb = sandbox();
  const r = hook(sb, 'stop', 'x\rbar\x1b[31m');
  assert.deepEqual([r.status, r.stdout], [0, '']);
  assert.equal(r.stderr, `git-kizu: ignored a bad hook payload: hook payload is not JSON (Unexpected token 'x', "x\\x0dbar\\x1b[31m" is not valid JSON)\n`);
});
