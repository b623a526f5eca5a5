// Error classes, and which code each entry loads: the hooks run without the CLI framework.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandbox } from './helpers.mjs';

test('instanceof: a plain KizuError is none of its subclasses; PayloadError is no KizuError', async () => {
  // Subclasses: a plain KizuError is not one of them (it once was, through an inherited brand
  // check, so patch apply took any KizuError for a patch mismatch).
  const { PatchMismatch } = await import('../src/rollback/journal/patch-apply.ts');
  const { PatchError } = await import('../src/rollback/journal/patch-parse.ts');
  const { KizuError } = await import('../src/errors.ts');
  const { PayloadError } = await import('../src/agents/claude/payload.ts');
  const e = new KizuError('boom', { hint: 'h', exitCode: 1 });
  assert.deepEqual([e.message, e.hint, e.exitCode, e.name], ['boom', 'h', 1, 'KizuError']);
  assert.equal(new Error('plain') instanceof KizuError, false);
  assert.equal({ name: 'KizuError' } instanceof KizuError, false);
  assert.equal(new KizuError('k') instanceof PatchMismatch, false);
  assert.equal(new KizuError('k') instanceof PatchError, false);
  assert.equal(new PatchError('k') instanceof PatchMismatch, false);
  assert.equal(new PatchMismatch('k') instanceof PatchMismatch, true);
  assert.equal(new PatchMismatch('k') instanceof KizuError, true);
  assert.equal(new PayloadError('bad').message, 'bad');
  assert.equal(new KizuError('k') instanceof PayloadError, false);
  assert.equal(new PayloadError('k') instanceof KizuError, false);
});

test('the prompt, edit, stop and pre-commit hooks load no CLI framework (commander); commands do; a config error is reported as one', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.kizurc.json': '{"snapshot":{"keep":0}}' } });
  // Which packages a process loads: a module resolve hook (node:module register) logs them.
  const log = path.join(sb.base, 'loaded.txt');
  const hooks = path.join(sb.base, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); const m = /\\/node_modules\\/([^/]+)\\//.exec(r.url); if (m) appendFileSync(${JSON.stringify(log)}, m[1] + '\\n'); return r; }\n`);
  const register = path.join(sb.base, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const env = { NODE_OPTIONS: `--import=${register}` };
  const commanderLoaded = () => {
    const l = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
    rmSync(log, { force: true });
    return l.includes('commander');
  };
  const r = sb.kizu(['snapshot'], { env });
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [2, '', `git-kizu: error: invalid config in ${sb.dir}/.kizurc.json:\n  - "snapshot.keep" must be an integer >= 1, got 0\nhint: fix the listed keys (see README "Config")\n`],
  );
  assert.equal(commanderLoaded(), true, 'a command runs through the commander program');

  rmSync(sb.path('.kizurc.json'));
  const payload = JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  const h = sb.kizu(['hook', 'user-prompt-submit'], { env, input: payload });
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, '', '']);
  assert.equal(commanderLoaded(), false, 'user-prompt-submit');
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/').split('\n').filter(Boolean).length, 1, 'the hook took a snapshot');
  const st = sb.kizu(['hook', 'stop'], { env, input: JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false }) });
  assert.deepEqual([st.status, st.stdout, st.stderr], [0, '', '']);
  assert.equal(commanderLoaded(), false, 'stop');
  const ptu = sb.kizu(['hook', 'post-tool-use'], {
    env,
    input: JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: sb.path('a.txt') } }),
  });
  assert.deepEqual([ptu.status, ptu.stdout, ptu.stderr], [0, '', '']);
  assert.equal(commanderLoaded(), false, 'post-tool-use');
  const pc = sb.kizu(['hook', 'pre-commit'], { env });
  assert.equal(pc.status, 0, pc.stderr);
  assert.equal(commanderLoaded(), false, 'pre-commit');
});
