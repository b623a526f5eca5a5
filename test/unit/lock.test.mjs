// The advisory lock (src/git/lock.ts) with real processes: when several waiters find the same
// stale lock (a dead pid on this host), exactly one takes it over at a time. Each holder
// checks mutual exclusion itself: on entering it creates a marker file with O_EXCL (which
// fails if another holder is inside) and appends `enter`/`exit` lines (O_APPEND) to a shared
// log that must strictly alternate. Every other round the takeover guard is stale too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { TS, src } from '../helpers/sandbox.mjs';

// argv: <dir>. Waits for <dir>/go (so that all waiters meet the stale lock together),
// acquires <dir>/lock, checks it is alone, holds a few ms, releases.
const WORKER = `
import { acquireLock } from ${JSON.stringify(src('git/lock.ts'))};
import { appendFileSync, closeSync, existsSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const dir = process.argv[1];
writeFileSync(path.join(dir, 'ready-' + process.pid), '');
while (!existsSync(path.join(dir, 'go')));
const release = await acquireLock(path.join(dir, 'lock'), 'the test lock', 20_000);
let fd;
try {
  fd = openSync(path.join(dir, 'inside'), 'wx');
} catch (e) {
  appendFileSync(path.join(dir, 'log'), 'OVERLAP ' + process.pid + '\\n');
  console.error('OVERLAP: another process holds the lock too (' + e.code + ')');
  process.exit(3);
}
closeSync(fd);
appendFileSync(path.join(dir, 'log'), 'enter ' + process.pid + '\\n');
await new Promise((r) => setTimeout(r, 5));
appendFileSync(path.join(dir, 'log'), 'exit ' + process.pid + '\\n');
rmSync(path.join(dir, 'inside'));
release();
release(); // idempotent
`;

/**
 * A pid no process has: above Linux's largest possible pid_max (2^22), so kill(pid, 0) gives
 * ESRCH (a pid of a process that just exited could be reused by a busy machine).
 */
function deadPid() {
  const pid = 2 ** 22 + 12345;
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
  return pid;
}

function worker(dir) {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [...TS, '--input-type=module', '-e', WORKER, dir]);
    let err = '';
    c.stderr.on('data', (b) => (err += b));
    c.on('close', (status) => resolve({ pid: c.pid, status, stderr: err }));
  });
}

test('stale lock: concurrent waiters take it over one at a time, and every one gets the lock', async () => {
  const WORKERS = 8;
  const ROUNDS = 15;
  for (let round = 0; round < ROUNDS; round++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'kizu-lock-'));
    try {
      const done = Array.from({ length: WORKERS }, () => worker(dir));
      const ready = () => readdirSync(dir).filter((f) => f.startsWith('ready-')).length;
      while (ready() < WORKERS) await new Promise((r) => setTimeout(r, 5));
      // Abandoned by a process that is gone (fresh mtime: stale only because the pid is dead).
      writeFileSync(path.join(dir, 'lock'), `${deadPid()} ${hostname()} ${new Date().toISOString()}\n`);
      // Every other round also a takeover guard left by a process that crashed while holding it.
      if (round % 2) writeFileSync(path.join(dir, 'lock.takeover'), `${deadPid()} ${hostname()} ${new Date().toISOString()}\n`);
      writeFileSync(path.join(dir, 'go'), '');
      const results = await Promise.all(done);
      const log = readFileSync(path.join(dir, 'log'), 'utf8').trim().split('\n');
      const why = `round ${round}:\n${log.join('\n')}\n${results.map((r) => r.stderr).join('')}`;
      assert.ok(!log.some((l) => l.startsWith('OVERLAP')), `two processes held the lock at once, ${why}`);
      for (const r of results) assert.equal(r.status, 0, `worker ${r.pid} failed, ${why}`);
      assert.equal(log.length, 2 * WORKERS, why);
      for (let i = 0; i < log.length; i += 2) {
        const [a, pa] = log[i].split(' ');
        const [b, pb] = log[i + 1].split(' ');
        assert.ok(a === 'enter' && b === 'exit' && pa === pb, `overlapping holds, ${why}`);
      }
      assert.deepEqual(new Set(log.map((l) => Number(l.split(' ')[1]))), new Set(results.map((r) => r.pid)), why);
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('lock')), [], 'no lock, guard or aside file is left');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
