// How `scar`/`unscar` runs move their line past rewrites that other commands (patch apply,
// rollback patch, revert) recorded since they started (src/scars/insert.ts recordRewrite,
// lineSince), and that the working-tree write lock is re-entrant within one call chain
// (src/git/lock.ts withWorkTreeLock).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { src } from '../helpers/sandbox.mjs';

const { lineSince, recordRewrite } = await import(src('scars/insert.ts'));
const { withWorkTreeLock } = await import(src('git/lock.ts'));

const lines = (n, f = (k) => `${k}`) => Buffer.from(Array.from({ length: n }, (_, k) => f(k + 1) + '\n').join(''));

test('recordRewrite: one entry for the block between the common first and last lines, none when no line moved', async () => {
  const gitDir = mkdtempSync(path.join(tmpdir(), 'kizu-rw-'));
  await recordRewrite(gitDir, 'f.py', 'f.py', lines(20), lines(20, (k) => (k === 7 ? 'X' : `${k}`)));
  assert.equal(existsSync(path.join(gitDir, 'kizu', 'scars.json')), false);
  const before = lines(20);
  const after = Buffer.from(before.toString().replace('8\n9\n10\n', 'N\n'));
  await recordRewrite(gitDir, 'f.py', 'f.py', before, after);
  const [r] = JSON.parse(readFileSync(path.join(gitDir, 'kizu', 'scars.json'), 'utf8'));
  assert.deepEqual({ ...r, time: typeof r.time }, { rel: 'f.py', realRel: 'f.py', line: 8, text: '', time: 'string', rewrite: { removed: 3, added: 1 } });
});

test('lineSince: a rewrite below the line leaves it, above it moves it, over it refuses (exit 1); older entries and other files do not count', () => {
  const t = (ms) => new Date(ms).toISOString();
  const records = [
    { rel: 'f.py', realRel: 'f.py', line: 8, text: '', time: t(2000), rewrite: { removed: 3, added: 1 } },
    { rel: 'g.py', realRel: 'g.py', line: 1, text: '', time: t(2000), rewrite: { removed: 0, added: 5 } },
  ];
  assert.equal(lineSince(records, 'f.py', 7, 1000), 7);
  assert.equal(lineSince(records, 'f.py', 11, 1000), 9);
  assert.equal(lineSince(records, 'f.py', 11, 3000), 11);
  assert.throws(() => lineSince(records, 'f.py', 9, 1000), (e) => {
    assert.equal(e.message, 'f.py:9: another git kizu command (patch apply, rollback patch or revert) rewrote lines 8-10 of f.py since this command started, and this line was among them; nothing was written');
    assert.equal(e.hint, 'look at the file as it is now and run the command again with the line where it is');
    assert.equal(e.exitCode, 1);
    return true;
  });
  // Lines added with none removed (a pure insertion at line 1) move every line at or below it.
  assert.equal(lineSince(records, 'g.py', 1, 1000), 6);
});

test('withWorkTreeLock: a nested call in the same chain runs at once; the lock is gone afterwards', async () => {
  const gitDir = mkdtempSync(path.join(tmpdir(), 'kizu-rw-'));
  const lock = path.join(gitDir, 'kizu', 'scars.lock');
  const seen = await withWorkTreeLock(gitDir, () => withWorkTreeLock(gitDir, async () => existsSync(lock)));
  assert.equal(seen, true);
  assert.equal(existsSync(lock), false);
});
