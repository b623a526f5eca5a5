// `git kizu rollback snapshot` and ignored files the snapshot never looked at, and a plan
// (--dry-run) that says what the real run would fail on. Real repos, real bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { promptTerminal } from '../helpers/terminal.mjs';
import { commitConfig } from '../helpers/config.mjs';

const snap = (sb, msg = 's') => /^snapshot (\S+):/.exec(ok(sb.kizu(['snapshot', '-m', msg])).stdout)[1];
const heading = (sb, name, msg = 's') => {
  const meta = JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout).find((x) => x.name === name);
  assert.ok(meta, name);
  return `rollback to snapshot ${name} (manual, ${meta.time}, "${msg}"):\n`;
};
const TAIL = 'the changes made since the snapshot are taken away, but they stay recoverable: a safety snapshot of the current state is taken first (git kizu undo restores it).\n';

test('rollback snapshot keeps an ignored file the snapshot did not capture (snapshot.include did not name it then), and deletes one its include named', () => {
  const sb = sandbox({ files: { '.gitignore': '.env\n', 'a.txt': 'a\n' } });
  writeFileSync(sb.path('.env'), 'KEY=x\n');
  const s1 = snap(sb);
  // snapshot.include takes effect from the committed config (README "Config").
  commitConfig(sb, { '.kizurc.json': '{"snapshot":{"include":[".env"]}}\n' });
  expectRun(sb, ['rollback', 'snapshot', s1, '--dry-run'], {
    status: 0,
    stdout:
      heading(sb, s1) +
      '  kept    .env  (ignored, not captured by that snapshot; left as it is)\n' +
      '  delete  .kizurc.json  (created since the snapshot; removed; lines -1)\n' +
      `1 path would change; ${TAIL}`,
  });
  const r = sb.kizu(['rollback', 'snapshot', s1, '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, 'git-kizu: warning: kept .env: ignored, not captured by that snapshot; left as it is\n');
  assert.equal(sb.read('.env'), 'KEY=x\n');

  // A snapshot whose snapshot.include named .env, taken when there was none: .env was created since.
  writeFileSync(sb.path('.kizurc.json'), '{"snapshot":{"include":[".env"]}}\n');
  rmSync(sb.path('.env'));
  const s2 = snap(sb, 's2');
  writeFileSync(sb.path('.env'), 'KEY=new\n');
  expectRun(sb, ['rollback', 'snapshot', s2, '--dry-run'], {
    status: 0,
    stdout: heading(sb, s2, 's2') + '  delete  .env  (created since the snapshot; removed; lines -1)\n' + `1 path would change; ${TAIL}`,
  });
  // An ignored file no include names (now or then) is not captured at all: nothing to do.
  commitConfig(sb, { '.kizurc.json': '{"snapshot":{"include":[]}}\n' });
  expectRun(sb, ['rollback', 'snapshot', s2, '--dry-run'], {
    status: 0,
    stdout: heading(sb, s2, 's2') + '  modify  .kizurc.json  (changed since the snapshot; lines +1 -1)\n' + `1 path would change; ${TAIL}`,
  });
});

test('rollback snapshot: a directory where the snapshot has a file, holding files the rollback leaves, is refused by the plan (--dry-run too), nothing changed', () => {
  const sb = sandbox({ files: { '.gitignore': '*.log\n', 'a.txt': 'a\n' } });
  writeFileSync(sb.path('d'), 'dfile\n');
  const s1 = snap(sb);
  rmSync(sb.path('d'));
  mkdirSync(sb.path('d'));
  writeFileSync(sb.path('d/u.txt'), 'untracked\n');
  writeFileSync(sb.path('d/x.log'), 'ignored\n');
  const before = tree(sb.dir);
  const refusal = err(
    `cannot restore snapshot ${s1}: d: a directory with other files is in the way (d/x.log); nothing was changed`,
    'move what is in the way aside (it is not part of the snapshot, so the restore does not remove it), then run the command again',
  );
  expectRun(sb, ['rollback', 'snapshot', s1, '--dry-run'], { status: 1, stderr: refusal });
  expectRun(sb, ['rollback', 'snapshot', s1, '--yes'], { status: 1, stderr: refusal });
  assert.deepEqual(tree(sb.dir), before);

  // A file where the snapshot has a directory, left by the rollback (ignored, not captured).
  rmSync(sb.path('d'), { recursive: true });
  mkdirSync(sb.path('e'));
  writeFileSync(sb.path('e/f'), 'f\n');
  writeFileSync(sb.path('d'), 'dfile\n');
  const s2 = snap(sb, 's2');
  rmSync(sb.path('e'), { recursive: true });
  writeFileSync(sb.path('e.log'), 'x\n');
  writeFileSync(sb.path('.gitignore'), '*.log\ne\n');
  writeFileSync(sb.path('e'), 'ignored now\n');
  const before2 = tree(sb.dir);
  const refusal2 = err(
    `cannot restore snapshot ${s2}: e/f: e is a file, not a directory; nothing was changed`,
    'move what is in the way aside (it is not part of the snapshot, so the restore does not remove it), then run the command again',
  );
  expectRun(sb, ['rollback', 'snapshot', s2, '--dry-run'], { status: 1, stderr: refusal2 });
  expectRun(sb, ['rollback', 'snapshot', s2, '--yes'], { status: 1, stderr: refusal2 });
  assert.deepEqual(tree(sb.dir), before2);

  // Once moved aside, the dry run and the real run agree.
  rmSync(sb.path('e'));
  const dry = sb.kizu(['rollback', 'snapshot', s2, '--dry-run']);
  assert.equal(dry.status, 0, dry.stderr);
  const real = sb.kizu(['rollback', 'snapshot', s2, '--yes']);
  assert.equal(real.status, 0, real.stderr);
  assert.equal(sb.read('e/f'), 'f\n');
});

test('rollback snapshot on a terminal: an ignored file put in the way while the question waits is refused after the answer, nothing changed', async (t) => {
  const sb = sandbox({ files: { '.gitignore': '*.log\n', 'a.txt': 'a\n' } });
  writeFileSync(sb.path('d'), 'dfile\n');
  const s1 = snap(sb);
  rmSync(sb.path('d'));
  mkdirSync(sb.path('d'));
  writeFileSync(sb.path('d/u.txt'), 'untracked\n');
  const run = promptTerminal(t, sb, ['rollback', 'snapshot', s1]);
  await run.waitFor(`Roll back 2 paths to snapshot ${s1}? [y/N]`);
  writeFileSync(sb.path('d/x.log'), 'ignored, written meanwhile\n');
  const before = tree(sb.dir);
  run.answer('y');
  const screen = await run.done();
  assert.deepEqual(screen.slice(-3), [
    `git-kizu: error: cannot restore snapshot ${s1}: d: a directory with other files is in the way (d/x.log); nothing was changed`,
    'hint: move what is in the way aside (it is not part of the snapshot, so the restore does not remove it), then run the command again',
    'EXIT=1',
  ]);
  assert.deepEqual(tree(sb.dir), before);
});
