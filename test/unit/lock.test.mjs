// The advisory lock (src/git/lock.ts) with real processes: when several waiters find the same
// stale lock (a dead pid on this host), exactly one takes it over at a time. Each holder
// checks mutual exclusion itself: on entering it creates a marker file with O_EXCL (which
// fails if another holder is inside) and appends `enter`/`exit` lines (O_APPEND) to a shared
// log that must strictly alternate. Every other round the takeover guard is stale too. The
// same waiter processes play every round (one process start each, not one per round).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { TS, src } from '../helpers/sandbox.mjs';

// argv: <dir> <rounds>. For each round r, waits for <dir>/<r>/go (so that all waiters meet the
// stale lock together), acquires <dir>/<r>/lock, checks it is alone, holds a few ms, releases,
// and writes <dir>/<r>/done-<pid>.
const WORKER = `
import { acquireLock } from ${JSON.stringify(src('git/lock.ts'))};
import { appendFileSync, closeSync, existsSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const [top, rounds] = process.argv.slice(1);
writeFileSync(path.join(top, 'ready-' + process.pid), '');
for (let round = 0; round < Number(rounds); round++) {
  const dir = path.join(top, String(round));
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
  writeFileSync(path.join(dir, 'done-' + process.pid), '');
}
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

/** Starts a waiter for `rounds` rounds in `dir`: { pid, exited (null while it runs), done (resolves {pid, status, stderr}) }. */
function worker(dir, rounds) {
  const c = spawn(process.execPath, [...TS, '--input-type=module', '-e', WORKER, dir, String(rounds)]);
  const w = { pid: c.pid, exited: null, stderr: '' };
  c.stderr.on('data', (b) => (w.stderr += b));
  w.done = new Promise((resolve) => c.on('close', (status) => resolve((w.exited = { pid: c.pid, status, stderr: w.stderr }))));
  return w;
}

test('stale lock: concurrent waiters take it over one at a time, and every one gets the lock', async () => {
  const WORKERS = 8;
  const ROUNDS = 15;
  const top = mkdtempSync(path.join(tmpdir(), 'kizu-lock-'));
  const workers = Array.from({ length: WORKERS }, () => worker(top, ROUNDS));
  const pids = new Set(workers.map((w) => w.pid));
  /**
   * Waits until `count()` reaches WORKERS. A waiter that exits before `finished(pid)` holds, or
   * exits non-zero, fails the test; one that exits 0 after its last round has finished is fine.
   * `why` is called only on failure, so it shows the state at that moment.
   */
  const until = async (count, finished, why) => {
    while (count() < WORKERS) {
      const gone = workers.find((w) => w.exited && (w.exited.status !== 0 || !finished(w.pid)));
      if (gone) assert.fail(`worker ${gone.pid} exited ${gone.exited.status} ${why()}: ${gone.exited.stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  try {
    await until(() => readdirSync(top).filter((f) => f.startsWith('ready-')).length, () => false, () => 'before it was ready');
    for (let round = 0; round < ROUNDS; round++) {
      const dir = path.join(top, String(round));
      mkdirSync(dir);
      // Abandoned by a process that is gone (fresh mtime: stale only because the pid is dead).
      writeFileSync(path.join(dir, 'lock'), `${deadPid()} ${hostname()} ${new Date().toISOString()}\n`);
      // Every other round also a takeover guard left by a process that crashed while holding it.
      if (round % 2) writeFileSync(path.join(dir, 'lock.takeover'), `${deadPid()} ${hostname()} ${new Date().toISOString()}\n`);
      writeFileSync(path.join(dir, 'go'), '');
      const done = () => readdirSync(dir).filter((f) => f.startsWith('done-')).length;
      const log = () => (readdirSync(dir).includes('log') ? readFileSync(path.join(dir, 'log'), 'utf8').trim().split('\n') : []);
      const why = () => `round ${round}:\n${log().join('\n')}\n${workers.map((w) => w.stderr).join('')}`;
      await until(done, (pid) => existsSync(path.join(dir, `done-${pid}`)), () => `in round ${round}, ${why()}`);
      assert.ok(!log().some((l) => l.startsWith('OVERLAP')), `two processes held the lock at once, ${why()}`);
      assert.equal(log().length, 2 * WORKERS, why());
      for (let i = 0; i < log().length; i += 2) {
        const [a, pa] = log()[i].split(' ');
        const [b, pb] = log()[i + 1].split(' ');
        assert.ok(a === 'enter' && b === 'exit' && pa === pb, `overlapping holds, ${why()}`);
      }
      assert.deepEqual(new Set(log().map((l) => Number(l.split(' ')[1]))), pids, why());
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('lock')), [], 'no lock, guard or aside file is left');
    }
    for (const r of await Promise.all(workers.map((w) => w.done))) assert.equal(r.status, 0, `worker ${r.pid} failed: ${r.stderr}`);
  } finally {
    for (const w of workers) {
      try {
        if (!w.exited) process.kill(w.pid);
      } catch {
        // it has just exited
      }
    }
    rmSync(top, { recursive: true, force: true });
  }
});
