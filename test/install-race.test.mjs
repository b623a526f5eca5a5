// Concurrent `git kizu init` must never lose the user's own pre-commit hook or chain ours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { sandbox } from './helpers.mjs';

function kizuAsync(sb, args) {
  return new Promise((resolve) => {
    const c = spawn('git', ['kizu', ...args], { cwd: sb.dir, env: { ...process.env, ...sb.env } });
    let err = '';
    c.stderr.on('data', (b) => (err += b));
    c.on('close', (status) => resolve({ status, stderr: err }));
  });
}

test('concurrent init: the user hook ends up chained exactly once, never replaced by ours', async () => {
  for (let round = 0; round < 6; round++) {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    const userHook = '#!/bin/sh\necho USERHOOK >> "$(git rev-parse --git-dir)/user-hook-ran"\n';
    writeFileSync(sb.path('.git/hooks/pre-commit'), userHook);
    chmodSync(sb.path('.git/hooks/pre-commit'), 0o755);
    const results = await Promise.all([1, 2, 3, 4].map(() => kizuAsync(sb, ['init'])));
    for (const r of results) assert.ok(!/internal error/.test(r.stderr), r.stderr);
    assert.equal(readFileSync(sb.path('.git/hooks/pre-commit.kizu-chained'), 'utf8'), userHook, `round ${round}`);
    assert.match(readFileSync(sb.path('.git/hooks/pre-commit'), 'utf8'), /git-kizu-managed-pre-commit/);
    sb.write({ 'a.txt': 'b\n' });
    sb.git('add', 'a.txt');
    sb.git('commit', '-q', '-m', 'x');
    assert.equal(sb.read('.git/user-hook-ran'), 'USERHOOK\n');
  }
});

test('a chained file that is a copy of our own hook is not run (no self-loop)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  assert.equal(sb.kizu(['init']).status, 0);
  const ours = readFileSync(sb.path('.git/hooks/pre-commit'), 'utf8');
  writeFileSync(sb.path('.git/hooks/pre-commit.kizu-chained'), ours);
  chmodSync(sb.path('.git/hooks/pre-commit.kizu-chained'), 0o755);
  sb.write({ 'a.txt': 'b\n' });
  sb.git('add', 'a.txt');
  const r = sb.run('timeout', ['20', 'git', 'commit', '-q', '-m', 'x']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /pre-commit\.kizu-chained is a copy of this hook, not yours; it was not run/);
});
