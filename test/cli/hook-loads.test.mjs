// What the hooks load: every module on a hook's path is paid for on each edit, prompt or tool
// call (ARCHITECTURE.md, "hook path"), so the common cases load no git runner
// (node:child_process) when they start no git process, no hashing (node:crypto) when they hash
// nothing, and the prompt hook's integrity check no settings parser (jsonc-parser) for settings
// that are plain JSON. A structural check, not a timing one: the hook runs the real bin with a
// preload that writes, at exit, Node's list of loaded built-in modules
// (process.moduleLoadList) and the CommonJS modules loaded (require.cache).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, BIN } from '../helpers/sandbox.mjs';

/**
 * Runs `git-kizu hook <event>` with `payload` in the sandbox.
 * @returns {{status, stdout, stderr, builtins: string[], cjs: string[]}} the built-in modules
 *   loaded (names as `node:<id>`, public ones only) and the CommonJS files loaded.
 */
function hookLoads(sb, event, payload) {
  const out = path.join(sb.base, `loads-${event}.json`);
  const preload = path.join(sb.base, 'loads-preload.cjs');
  writeFileSync(
    preload,
    "const fs = require('node:fs');\n" +
      "process.on('exit', () => fs.writeFileSync(process.env.KIZU_TEST_LOADS, JSON.stringify({ builtins: process.moduleLoadList, cjs: Object.keys(require('node:module')._cache) })));\n",
  );
  const r = sb.run(process.execPath, ['--require', preload, BIN, 'hook', event], { input: JSON.stringify(payload), env: { KIZU_TEST_LOADS: out } });
  const loads = JSON.parse(readFileSync(out, 'utf8'));
  const builtins = loads.builtins.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => `node:${m.slice('NativeModule '.length)}`);
  return { ...r, builtins, cjs: loads.cjs.filter((f) => f.includes('node_modules')) };
}

const absent = (loaded, names) => names.filter((n) => loaded.includes(n));

test('post-tool-use on a file without scars, and the pre-tool gate on a harmless command: no git runner, no hashing', () => {
  const sb = sandbox({ files: { 'a.js': 'const a = 1;\n' } });
  sb.write({ 'a.js': 'const a = 2;\n' });
  const edit = hookLoads(sb, 'post-tool-use', { session_id: 's1', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: sb.path('a.js') } });
  assert.deepEqual([edit.status, edit.stdout, edit.stderr], [0, '', '']);
  assert.deepEqual(absent(edit.builtins, ['node:child_process', 'node:crypto']), []);
  const gate = hookLoads(sb, 'pre-tool-use', { session_id: 's1', cwd: sb.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 't1' });
  assert.deepEqual([gate.status, gate.stdout, gate.stderr], [0, '', '']);
  assert.deepEqual(absent(gate.builtins, ['node:child_process', 'node:crypto']), []);
});

test('user-prompt-submit after git kizu init: the integrity check compares without jsonc-parser or node:crypto (plain JSON settings, nothing to tell)', () => {
  const sb = sandbox();
  // init by the Node that runs the hook (the launcher records that Node's path).
  assert.equal(sb.run(process.execPath, [BIN, 'init']).status, 0);
  const r = hookLoads(sb, 'user-prompt-submit', { session_id: 's1', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  assert.deepEqual(r.cjs.filter((f) => f.includes(`${path.sep}jsonc-parser${path.sep}`)), []);
  assert.deepEqual(absent(r.builtins, ['node:crypto']), []);
});
