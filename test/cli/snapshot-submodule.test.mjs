// Snapshots of a repository with a submodule, through the real bin: the submodule's working
// tree (its own repository) is not captured, and every place that shows a snapshot says so
// (the `snapshot` warning, its --json, `snapshot show`, the `rollback snapshot` preview and
// its --json); a rollback leaves the submodule's files as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';

const REASON = 'submodule: its working tree is its own repository and is not captured, only the commit checked out in it; commit or stash inside it';

/** A sandbox whose repository has a submodule `sm` (from a second repository). */
function withSubmodule() {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const sub = sandbox({ files: { 's.txt': 's\n' } });
  sb.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'sm');
  sb.git('commit', '-q', '-m', 'submodule');
  return sb;
}

test('snapshot, snapshot --json, snapshot show and the rollback preview name the submodule as skipped, with the reason; its files stay', () => {
  const sb = withSubmodule();
  sb.write({ 'sm/inside.txt': 'untracked inside the submodule\n' });
  const r = sb.kizu(['snapshot', '-m', 'with sm']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^snapshot (\S+): 3 files \(\d+ read again\)\n$/);
  assert.equal(r.stderr, `git-kizu: warning: not in the snapshot: sm: ${REASON}\n`);
  const name = /^snapshot (\S+):/.exec(r.stdout)[1];
  // Taken again (cold, from its state, after a change): still listed.
  sb.write({ 'a.txt': 'a2\n' });
  const j = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'again'])).stdout);
  assert.deepEqual(j.skipped, [{ path: 'sm', reason: REASON }]);
  const show = ok(sb.kizu(['snapshot', 'show', name])).stdout;
  assert.match(show, new RegExp(`^skipped:  sm \\(${REASON.replace(/[()]/g, '\\$&')}\\)$`, 'm'));
  const list = JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout);
  assert.deepEqual(
    list.map((s) => [s.message, s.skipped]),
    [
      ['again', [{ path: 'sm', reason: REASON }]],
      ['with sm', [{ path: 'sm', reason: REASON }]],
    ],
  );
  // Rolling back to the first: the preview names sm as kept, and sm's files stay.
  sb.write({ 'sm/later.txt': 'made after the snapshot\n' });
  const kept = `the snapshot could not save it (${REASON}); left as it is`;
  const dry = ok(sb.kizu(['rollback', 'snapshot', name, '--dry-run'])).stdout;
  assert.deepEqual(dry.split('\n').slice(1, 3), ['  modify  a.txt  (changed since the snapshot; lines +1 -1)', `  kept    sm  (${kept})`]);
  const dj = JSON.parse(ok(sb.kizu(['rollback', 'snapshot', name, '--dry-run', '--json'])).stdout);
  assert.deepEqual(dj.changes.find((c) => c.path === 'sm'), { path: 'sm', action: 'kept', current: null, target: null, added: null, removed: null, reason: kept });
  const done = sb.kizu(['rollback', 'snapshot', name, '--yes']);
  assert.equal(done.status, 0, done.stderr);
  assert.match(done.stderr, new RegExp(`^git-kizu: warning: kept sm: ${kept.replace(/[()]/g, '\\$&')}$`, 'm'));
  assert.equal(sb.read('a.txt'), 'a\n');
  assert.equal(sb.read('sm/inside.txt'), 'untracked inside the submodule\n');
  assert.equal(sb.read('sm/later.txt'), 'made after the snapshot\n');
});
