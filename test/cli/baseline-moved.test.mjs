// A refs/kizu/baseline moved outside HEAD's history (issue 22, #86): a crafted commit whose
// branch was deleted makes `hunks` show its content as "removed by the agent", and `revert`
// would write it into the file. status, doctor name it; revert refuses before any write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';

test('a baseline outside HEAD\'s history: status and doctor name it with the fix, revert refuses and writes nothing; a baseline set to HEAD~1 is no finding', () => {
  const sb = sandbox({ files: { 'app.js': 'a\nb\n' } });
  const head = sb.git('rev-parse', 'HEAD').trim();
  // The crafted commit: app.js with a backdoor line, on a branch then deleted.
  sb.git('checkout', '-q', '-b', 'evil');
  sb.write({ 'app.js': 'a\nbackdoor()\nb\n' });
  sb.git('commit', '-qam', 'x');
  const evil = sb.git('rev-parse', 'HEAD').trim();
  sb.git('checkout', '-q', 'main');
  sb.git('branch', '-qD', 'evil');
  sb.git('update-ref', 'refs/kizu/baseline', evil);
  sb.write({ 'app.js': 'a\nb\nc\n' });

  const short = evil.slice(0, 12);
  const moved = `the baseline ${short} (refs/kizu/baseline) is not in HEAD's history: it was moved, or HEAD was rewritten since it was set (an amend, a rebase); hunks show its content as what the agent removed, and revert would write it back`;
  const fix = "git kizu baseline set <rev> (a commit of HEAD's history, e.g. HEAD), or git kizu baseline reset";
  const st = sb.kizu(['status']);
  assert.equal(st.status, 1);
  assert.equal(st.stdout.split('\n').slice(0, 2).join('\n'), `baseline  refs/kizu/baseline ${short} (git kizu baseline reset: back to HEAD)\n  moved  ${moved}; fix: ${fix}`);
  assert.equal(JSON.parse(sb.kizu(['status', '--json']).stdout).baseline.outsideHead, true);
  const doc = sb.kizu(['doctor']);
  assert.ok(doc.stdout.includes(`fix  baseline: ${moved}; fix: ${fix}\n`), doc.stdout);
  assert.equal(doc.status, 1);

  // The prompt hook tells the user (systemMessage), every prompt until it is fixed.
  const payload = { session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
  const p = hook(sb, 'user-prompt-submit', payload);
  assert.equal(p.status, 0);
  assert.equal(JSON.parse(p.stdout).systemMessage, `git-kizu: ${moved}; fix: ${fix}`);
  const hunks = JSON.parse(ok(sb.kizu(['hunks', '--json'])).stdout);
  assert.equal(hunks.length, 1);
  const r = sb.kizu(['revert', hunks[0].shortId, '-m', 'no']);
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [2, '', `git-kizu: error: ${moved}; nothing was reverted\nhint: check it (git log -1 -p ${short}), then: ${fix}\n`],
  );
  assert.equal(sb.read('app.js'), 'a\nb\nc\n');

  // A baseline the reviewer set in HEAD's history is no finding.
  ok(sb.kizu(['baseline', 'set', head]));
  const fine = JSON.parse(sb.kizu(['status', '--json']).stdout);
  assert.equal(fine.baseline.outsideHead, false);
  assert.ok(!sb.kizu(['doctor']).stdout.includes('baseline'));
  assert.equal(hook(sb, 'user-prompt-submit', payload).stdout, '');
});
