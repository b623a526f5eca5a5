// `git kizu demo` runs the main loop for real, end to end, through the real bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';

test('git kizu demo runs every step to the end and cleans up its temp repo', () => {
  const sb = sandbox({ init: false });
  const tmp = sb.path('../tmp');
  sb.run('mkdir', ['-p', tmp]);
  const r = sb.kizu(['demo'], { env: { TMPDIR: tmp } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const headers = r.stdout.split('\n').filter((l) => /^\[\d\/7\]/.test(l));
  assert.deepEqual(headers, [
    '[1/7] git kizu init: install the Claude Code hooks and the pre-commit hook',
    '[2/7] the agent edits a file',
    '[3/7] you scar the changed line: git kizu scar src/greet.js:2',
    '[4/7] the agent tries to stop: the Stop hook blocks it',
    '[5/7] the agent answers and deletes the scar line: git kizu unscar src/greet.js:2',
    '[6/7] the agent tries to stop again: allowed',
    '[7/7] a scar that gets staged is refused by the pre-commit hook',
  ]);
  assert.ok(r.stdout.includes('    > - src/greet.js:2 [ask] explain this change → answer the question in your reply, then delete the scar line\n'));
  assert.ok(r.stdout.includes('    git commit exited 1: refused\n'));
  assert.ok(r.stdout.endsWith('Next: run `git kizu init` in your own repository (see README, Quickstart).\n'));
  assert.deepEqual(readdirSync(tmp), []);
});

test('git kizu demo --keep keeps the repo and says where', () => {
  const sb = sandbox({ init: false });
  const tmp = sb.path('../tmp2');
  sb.run('mkdir', ['-p', tmp]);
  const r = sb.kizu(['demo', '--keep'], { env: { TMPDIR: tmp } });
  assert.equal(r.status, 0, r.stderr);
  const kept = readdirSync(tmp);
  assert.equal(kept.length, 1);
  assert.ok(r.stdout.endsWith(`demo repo kept at ${tmp}/${kept[0]}/repo\n`), r.stdout.slice(-200));
});
