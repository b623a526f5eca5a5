// The Stop hook works within a bound below its runner's timeout (issue 22, round 2): a
// working tree with more changed or untracked files than it reads in one stop
// (`stop.maxFiles`; also a byte and a time budget) blocks the stop naming how many files were
// not checked and where, and tells the user, instead of running until the agent's CLI kills
// it (which lets the agent stop). `status` says the same. The real bin and real git; the
// bound is provoked with a small `stop.maxFiles`, never with timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { stopPayload } from '../helpers/hooks.mjs';

function stop(sb) {
  rmSync(sb.path('.git/kizu/stop/sess-1.json'), { force: true });
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.status, 0, r.stderr);
  return r.stdout === '' ? null : JSON.parse(r.stdout);
}

test('more changed or untracked files than stop.maxFiles: the stop blocks naming the files not checked (not a silent pass), status says so and exits 1', () => {
  const sb = sandbox({ files: { '.kizurc.json': '{"stop":{"maxFiles":3}}\n', 'src/app.js': 'one\n' } });
  sb.write({ 'gen/a.txt': 'a\n', 'gen/b.txt': 'b\n', 'gen/c.txt': 'c\n', 'gen/d.txt': 'd\n', 'gen/e.txt': 'e\n', 'other/x.txt': 'x\n' });
  const what = '3 changed or untracked files (2 under gen/, 1 under other/) were not checked for review remarks: the working tree holds more than stop.maxFiles (3) changed or untracked files';
  const a = stop(sb);
  assert.deepEqual(a, {
    decision: 'block',
    reason: `git-kizu: ${what}. Review cannot pass over files nobody checked: remove the files you generated that are not meant to stay; if they are, stop and tell the human (they commit or ignore them).`,
    systemMessage:
      'git-kizu: the Stop hook could not check 3 changed or untracked files for review remarks in time (2 under gen/, 1 under other/): it blocks the agent until fewer are left; commit or ignore what is not to be reviewed',
  });
  const r = sb.kizu(['status', '--json']);
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).unchecked, {
    files: 3,
    why: 'files',
    where: [
      { dir: 'gen/', files: 2 },
      { dir: 'other/', files: 1 },
    ],
    what,
    fix: 'review them, or have the human commit or ignore (.gitignore) them, so fewer are left to check',
  });
  // Within the bound again: nothing blocks.
  rmSync(sb.path('gen'), { recursive: true });
  assert.equal(stop(sb), null);
  const ok = sb.kizu(['status', '--json']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).unchecked, null);
});

test('a scar in a file read within the bound still blocks beside the files not checked', () => {
  const sb = sandbox({ files: { '.kizurc.json': '{"stop":{"maxFiles":1}}\n' } });
  sb.write({ 'a.js': '// @kizu[ask]: why\n', 'b.js': 'x\n' });
  const a = stop(sb);
  assert.equal(a.decision, 'block');
  assert.ok(a.reason.includes('\n- "a.js":1 [ask] why → '), a.reason);
  assert.ok(a.reason.endsWith('\ngit-kizu: 1 changed or untracked file (1 under the top directory) was not checked for review remarks: the working tree holds more than stop.maxFiles (1) changed or untracked files. Review cannot pass over files nobody checked: remove the files you generated that are not meant to stay; if they are, stop and tell the human (they commit or ignore them).'), a.reason);
});
