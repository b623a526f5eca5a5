// The hot paths load the parser only when a file needs it: the PostToolUse hook on a file
// without markers, or with markers but nothing above them that can open a multi-line token
// of its language, never imports web-tree-sitter; a marker below a template literal does,
// and there only the comment is a scar.
import { test } from 'node:test';
import { vouch } from '../helpers/provenance.mjs';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandbox, BIN } from '../helpers/sandbox.mjs';
import { editPayload, contextOutput, PROTOCOL, stopPayload } from '../helpers/hooks.mjs';

const LOGGER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'load-log.mjs');

/** Runs `git-kizu hook <event>` with the load logger; returns the run and what it loaded. */
function hookLogged(sb, event, payload) {
  const log = path.join(sb.base, `loads-${Math.random().toString(36).slice(2)}.txt`);
  vouch(sb); // the scars are the reviewer's (helpers/provenance.mjs)
  const r = sb.run(process.execPath, ['--import', LOGGER, BIN, 'hook', event], { input: JSON.stringify(payload), env: { KIZU_TEST_LOAD_LOG: log } });
  return { r, loaded: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [] };
}

test('PostToolUse: no parser for a file without markers, nor for markers with nothing above them that opens a multi-line token', () => {
  const sb = sandbox({
    files: {
      'plain.ts': 'export const a = `x`;\n',
      'simple.ts': 'export const a = 1;\n// @kizu[ask]: explain this change\nexport const b = 2;\n// a `quoted` word below the last marker\n',
      'template.ts': 'export const t = `\n// @kizu[ask]: inside the template\n`;\n// @kizu[ask]: real\nexport const b = 2;\n',
    },
  });
  const plain = hookLogged(sb, 'post-tool-use', editPayload(sb, 'plain.ts'));
  assert.deepEqual([plain.r.status, plain.r.stdout, plain.r.stderr, plain.loaded], [0, '', '', []]);
  const simple = hookLogged(sb, 'post-tool-use', editPayload(sb, 'simple.ts'));
  assert.deepEqual([simple.r.status, simple.r.stderr, simple.loaded], [0, '', []]);
  assert.deepEqual(JSON.parse(simple.r.stdout), contextOutput('git-kizu: the file you just edited holds 1 review scar left by a human reviewer:\n- "simple.ts":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n' + PROTOCOL + ' Resolve it before you finish your turn.'));
  const tpl = hookLogged(sb, 'post-tool-use', editPayload(sb, 'template.ts'));
  assert.deepEqual([tpl.r.status, tpl.r.stderr, tpl.loaded], [0, '', ['web-tree-sitter']]);
  assert.deepEqual(JSON.parse(tpl.r.stdout), contextOutput('git-kizu: the file you just edited holds 1 review scar left by a human reviewer:\n- "template.ts":4 [ask] real → answer the question in your reply, then delete the scar line\n' + PROTOCOL + ' Resolve it before you finish your turn.'));
});

test('Stop: a marker inside a template literal does not block; nothing is parsed when no changed file needs it', () => {
  const sb = sandbox({ files: { 'a.ts': 'export const a = 1;\n' } });
  sb.write({ 'a.ts': 'export const a = 1;\n// plain change\n' });
  const clean = hookLogged(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual([clean.r.status, clean.r.stdout, clean.r.stderr, clean.loaded], [0, '', '', []]);
  sb.write({ 'a.ts': 'export const t = `\n// @kizu[ask]: part of the string\n`;\n' });
  const tpl = hookLogged(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual([tpl.r.status, tpl.r.stdout, tpl.r.stderr, tpl.loaded], [0, '', '', ['web-tree-sitter']]);
});
