// Issue 22, round 2: ways the agent makes git (or git-kizu's own limits) hide a change or a
// scar, through the real bin in real repos: a scarred file padded past scan.maxFileBytes, a
// scar committed since the baseline, attributes that make git drop bytes, ignore rules that
// hide new files. Each is reviewed, or named and holding the stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BIN, hook, sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { stopPayload } from '../helpers/hooks.mjs';

test('a scarred file padded past scan.maxFileBytes: its scar is still found (line rule) by scan, the Stop hook and the guard', () => {
  const sb = sandbox({ files: { 'big.js': 'a;\n' } });
  // 5 MiB of padding after the scar (the default limit is 4 MiB).
  const pad = `${'x'.repeat(1023)}\n`.repeat(5 * 1024);
  sb.write({ 'big.js': `a;\n// @kizu[ask]: why?\n${pad}// @kizu[free]: tail\n` });
  const found = `big.js:2  [ask]  why?\nbig.js:${5 * 1024 + 3}  [free]  tail\n`;
  expectRun(sb, ['scan'], { status: 1, stdout: found });
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  assert.match(stop.reason, /- big\.js:2 \[ask\] why\?/);
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: found });
  const pc = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(pc.status, 1, pc.stderr);
  assert.match(pc.stderr, /big\.js:2  \[ask\]  why\?\n/);
});

test('a scar committed since the baseline (past the guard) stays in the default scope: scan and the Stop hook find it', () => {
  const sb = sandbox({ files: { 'a.js': 'a;\n' } });
  assert.equal(sb.kizu(['baseline', 'set']).status, 0);
  sb.write({ 'a.js': 'a;\n// @kizu[ask]: committed past the guard\n' });
  sb.git('commit', '-q', '--no-verify', '-am', 'sneak');
  expectRun(sb, ['scan'], { status: 1, stdout: 'a.js:2  [ask]  committed past the guard\n' });
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  assert.match(stop.reason, /- a\.js:2 \[ask\] committed past the guard/);
});
