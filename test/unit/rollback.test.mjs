// The rollback library (src/rollback): restoreSnapshot limited to paths, and the undo log's
// record validation, called in a child process in a real repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { snapshotLib } from '../helpers/snapshots.mjs';

test('restoreSnapshot (library): `paths` limits the restore; the plan says what it did; no undo record is written', () => {
  const sb = sandbox({ files: { 'a.txt': 'a1\n', 'dir/b.txt': 'b1\n', 'dir/sub/c.txt': 'c1\n' } });
  const id = snapshotLib(sb, `process.stdout.write((await snap.takeSnapshot(process.cwd(), { message: 'lib' })).id);`);
  writeFileSync(sb.path('a.txt'), 'a2\n');
  writeFileSync(sb.path('dir/b.txt'), 'b2\n');
  writeFileSync(sb.path('dir/sub/new.txt'), 'new\n');
  const dry = JSON.parse(snapshotLib(sb, `process.stdout.write(JSON.stringify(await snap.restoreSnapshot(process.cwd(), ${JSON.stringify(id)}, { dryRun: true, paths: ['dir/'] })));`));
  assert.deepEqual(dry.changes.map((c) => [c.path, c.action]), [['dir/b.txt', 'modify'], ['dir/sub/new.txt', 'delete']]);
  assert.deepEqual([dry.paths, dry.applied, dry.safetySnapshot], [['dir'], false, null]);
  const plan = JSON.parse(snapshotLib(sb, `process.stdout.write(JSON.stringify(await snap.restoreSnapshot(process.cwd(), ${JSON.stringify(id.slice(0, 10))}, { paths: ['dir'] })));`));
  assert.equal(plan.applied, true);
  assert.deepEqual(plan.failures, []);
  assert.match(plan.safetySnapshot, /^[0-9a-f]{40}$/);
  assert.deepEqual([sb.read('a.txt'), sb.read('dir/b.txt'), existsSync(sb.path('dir/sub/new.txt')), sb.read('dir/sub/c.txt')], ['a2\n', 'b1\n', false, 'c1\n']);
  assert.ok(!existsSync(sb.path('.git/kizu/rollbacks.json')), 'callers record rollbacks themselves');
  const outside = sb.runModule(`import { restoreSnapshot } from ${JSON.stringify(src('rollback/snapshots/restore.ts'))};
    try { await restoreSnapshot(process.cwd(), ${JSON.stringify(id)}, { paths: ['../x'] }); } catch (e) { process.stdout.write(e.message); }`);
  assert.equal(outside.stdout, '../x: not a path inside the repository');
});

test('recordRollback validates records (one message naming the field)', () => {
  const sb = sandbox();
  const r = sb.runModule(`import { recordRollback } from ${JSON.stringify(src('rollback/undo-log.ts'))};
    try { await recordRollback(process.cwd(), { level: 'patch', time: 'x', safetySnapshot: 'abc', description: '' }); } catch (e) { process.stdout.write(e.message); }`);
  assert.equal(r.stdout, 'invalid rollback record: time must be an ISO date string, got "x"');
  // A number JSON cannot write is shown as it is (JSON.stringify would say null).
  const inf = sb.runModule(`import { recordRollback } from ${JSON.stringify(src('rollback/undo-log.ts'))};
    try { await recordRollback(process.cwd(), { level: 1e400, time: 'x', safetySnapshot: 'abc', description: '' }); } catch (e) { process.stdout.write(e.message); }`);
  assert.equal(inf.stdout, 'invalid rollback record: level must be snapshot, patch or branch, got Infinity');
  assert.ok(!existsSync(sb.path('.git/kizu/rollbacks.json')));
});
