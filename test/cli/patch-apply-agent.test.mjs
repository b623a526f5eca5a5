// `git kizu patch apply` run from inside an agent's session (issue 22, #81-#83): a patch that
// changes review state (the queue file, git-kizu's config, an agent's hook settings, the git
// dir) is refused before anything is written, --dry-run too; a patch of the agent's own code
// applies as before; the reviewer applies any patch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';

const CLAUDE = { env: { CLAUDECODE: '1' } };

/** The patch that turns the working tree's current change into a diff, the change then undone (tracked files) or removed (new files). */
function patchOf(sb, name, paths) {
  sb.git('add', '-N', '--', ...paths);
  const diff = sb.git('diff', '--', ...paths);
  sb.git('reset', '-q', '--', ...paths);
  for (const p of paths) {
    if (sb.git('ls-files', '--', p).trim()) sb.git('checkout', '-q', '--', p);
    else sb.run('rm', ['-f', sb.path(p)]);
  }
  writeFileSync(sb.path(name), diff);
  return name;
}

test('an agent\'s patch apply refuses a patch touching the queue file, git-kizu\'s config or hook settings; its own code applies; the reviewer applies the same patch', () => {
  const sb = sandbox({ files: { 'app.js': 'a\n', '.claude/settings.json': '{"hooks":{}}\n', '.gitignore': '*.diff\n' } });
  ok(sb.kizu(['queue', 'add', 'human item']));
  sb.git('add', '-A');
  sb.git('commit', '-qm', 'queue');
  const queue = sb.read('.claude/review-queue.md');

  sb.write({ '.claude/review-queue.md': queue.split('\n').filter((l) => !l.includes('human item')).join('\n') });
  const q = patchOf(sb, 'q.diff', ['.claude/review-queue.md']);
  sb.write({ '.kizurc.json': '{"review":{"keys":{"tap":"!","reject":" "}}}\n' });
  const k = patchOf(sb, 'k.diff', ['.kizurc.json']);
  sb.write({ '.claude/settings.json': '{}\n' });
  const s = patchOf(sb, 's.diff', ['.claude/settings.json']);
  sb.write({ 'app.js': 'a\nb\n' });
  const own = patchOf(sb, 'own.diff', ['app.js']);

  const refused = (p, what) =>
    `git-kizu: error: this patch changes ${p}, ${what}, and it runs inside a Claude Code session (CLAUDECODE is set): an agent's patch may not change review state; nothing was written\n` +
    "hint: leave that file out of the patch; if the change is needed, tell the human, who can apply it in their own terminal\n";
  for (const [file, p, what] of [
    [q, '.claude/review-queue.md', 'the review queue'],
    [k, '.kizurc.json', "git-kizu's config"],
    [s, '.claude/settings.json', "an agent's hook settings or runner, or a hook manager's hooks"],
  ]) {
    for (const extra of [['--yes'], ['--dry-run']]) {
      const r = sb.kizu(['patch', 'apply', file, ...extra], CLAUDE);
      assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', refused(p, what)], `${file} ${extra}`);
    }
  }
  assert.equal(sb.read('.claude/review-queue.md'), queue);
  assert.equal(existsSync(sb.path('.kizurc.json')), false);
  assert.equal(sb.read('.claude/settings.json'), '{"hooks":{}}\n');

  assert.match(ok(sb.kizu(['patch', 'apply', own, '--yes'], CLAUDE)).stdout, /^patched app\.js \(\+1 -0\)\n/);
  assert.equal(sb.read('app.js'), 'a\nb\n');
  // The reviewer, outside any session, applies what the agent may not.
  assert.match(ok(sb.kizu(['patch', 'apply', q, '--yes'])).stdout, /^patched \.claude\/review-queue\.md \(\+0 -1\)\n/);
});
