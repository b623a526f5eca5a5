// KizuError and PayloadError are recognised across copies of their modules: the snapshot fast
// path runs from a bundle (dist/bundle/) with its own copy, and errors cross between it and
// modules loaded from dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('instanceof KizuError / PayloadError holds across two copies of the module, and only for them', async () => {
  const a = await import('../dist/errors.js');
  const b = await import('../dist/errors.js?second-copy');
  assert.notEqual(a.KizuError, b.KizuError, 'two module instances');
  const e = new b.KizuError('boom', { hint: 'h', exitCode: 1 });
  assert.equal(e instanceof a.KizuError, true);
  assert.equal(new a.KizuError('x') instanceof b.KizuError, true);
  assert.deepEqual([e.message, e.hint, e.exitCode, e.name], ['boom', 'h', 1, 'KizuError']);
  assert.equal(new Error('plain') instanceof a.KizuError, false);
  assert.equal(null instanceof a.KizuError, false);
  assert.equal({ name: 'KizuError' } instanceof a.KizuError, false);

  const p = await import('../dist/hooks/payload.js');
  const q = await import('../dist/hooks/payload.js?second-copy');
  assert.equal(new q.PayloadError('bad') instanceof p.PayloadError, true);
  assert.equal(new q.PayloadError('bad').message, 'bad');
  assert.equal(new a.KizuError('k') instanceof p.PayloadError, false);
  assert.equal(new p.PayloadError('k') instanceof a.KizuError, false);

  // Subclasses: a plain KizuError is not one of them (it once was, through the inherited
  // brand check, so patch apply took any KizuError for a patch mismatch).
  const { PatchMismatch } = await import('../dist/rollback/patch-apply.js');
  const { PatchError } = await import('../dist/rollback/patch-parse.js');
  const { KizuError } = await import('../dist/errors.js');
  assert.equal(new KizuError('k') instanceof PatchMismatch, false);
  assert.equal(new KizuError('k') instanceof PatchError, false);
  assert.equal(new PatchError('k') instanceof PatchMismatch, false);
  assert.equal(new PatchMismatch('k') instanceof PatchMismatch, true);
  assert.equal(new PatchMismatch('k') instanceof KizuError, true);
  assert.equal(new PatchMismatch('k') instanceof b.KizuError, true);
});

test('the snapshot fast path and the prompt, edit and stop hooks run from their bundles; a config error there is reported as one', async () => {
  const { writeFileSync } = await import('node:fs');
  const path = (await import('node:path')).default;
  const { sandbox } = await import('./helpers.mjs');
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.kizurc.json': '{"snapshot":{"keep":0}}' } });
  // Which of our modules a process loads: a module resolve hook (node:module register) logs them.
  const log = path.join(sb.base, 'loaded.txt');
  const dist = new URL('../dist/', import.meta.url).href;
  const hooks = path.join(sb.base, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith(${JSON.stringify(dist)})) appendFileSync(${JSON.stringify(log)}, r.url.slice(${JSON.stringify(dist)}.length) + '\\n'); return r; }\n`);
  const register = path.join(sb.base, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify('file://' + hooks)});\n`);
  const r = sb.kizu(['snapshot'], { env: { NODE_OPTIONS: `--import=${register}` } });
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [2, '', `git-kizu: error: invalid config in ${sb.dir}/.kizurc.json:\n  - "snapshot.keep" must be an integer >= 1, got 0\nhint: fix the listed keys (see README "Config")\n`],
  );
  const { readFileSync, rmSync } = await import('node:fs');
  const loaded = () => {
    const l = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
    rmSync(log);
    return l;
  };
  assert.deepEqual(loaded(), ['bundle/snapshot.js']);

  rmSync(sb.path('.kizurc.json'));
  const payload = JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  const h = sb.kizu(['hook', 'user-prompt-submit'], { env: { NODE_OPTIONS: `--import=${register}` }, input: payload });
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, '', '']);
  assert.deepEqual(loaded(), ['bundle/hook-user-prompt-submit.js']);
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/').split('\n').filter(Boolean).length, 1, 'the hook took a snapshot');
  const st = sb.kizu(['hook', 'stop'], { env: { NODE_OPTIONS: `--import=${register}` }, input: JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false }) });
  assert.deepEqual([st.status, st.stdout, st.stderr], [0, '', '']);
  assert.deepEqual(loaded(), ['bundle/hook-stop.js']);
  const ptu = sb.kizu(['hook', 'post-tool-use'], {
    env: { NODE_OPTIONS: `--import=${register}` },
    input: JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: sb.path('a.txt') } }),
  });
  assert.deepEqual([ptu.status, ptu.stdout, ptu.stderr], [0, '', '']);
  assert.deepEqual(loaded(), ['bundle/hook-post-tool-use.js'], 'no marks ref: the hunk review code is not loaded');
  const pc = sb.kizu(['hook', 'pre-commit'], { env: { NODE_OPTIONS: `--import=${register}` } });
  assert.equal(pc.status, 0, pc.stderr);
  assert.equal(loaded()[0], 'hooks/cli.js', 'other hooks load from dist/');
});
