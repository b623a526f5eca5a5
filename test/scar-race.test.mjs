// Concurrent `git kizu scar` calls on one file must all land (they are serialised by a lock).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { sandbox } from './helpers.mjs';

const run = (sb, args) =>
  new Promise((resolve) => {
    const c = spawn('git', ['kizu', ...args], { cwd: sb.dir, env: { ...process.env, ...sb.env } });
    let out = '';
    c.stdout.on('data', (b) => (out += b));
    c.on('close', (status) => resolve({ status, out }));
  });

test('eight concurrent scars on one file: every one is written and recorded', async () => {
  const lines = Array.from({ length: 40 }, (_, i) => `v = ${i + 1}\n`).join('');
  const sb = sandbox({ files: { 'conc.py': lines } });
  const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => run(sb, ['scar', `conc.py:${(i + 1) * 4}`, '-k', 'free', '-m', `c${i + 1}`])));
  for (const r of rs) assert.equal(r.status, 0);
  const scan = JSON.parse(sb.kizu(['scan', '--json']).stdout);
  assert.deepEqual(scan.map((s) => s.body).sort(), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
  // Every non-scar line is still there, in order.
  assert.equal(sb.read('conc.py').split('\n').filter((l) => !l.startsWith('# @kizu')).join('\n'), lines);
  const records = JSON.parse(sb.read('.git/kizu/scars.json'));
  assert.equal(records.length, 8);
});
