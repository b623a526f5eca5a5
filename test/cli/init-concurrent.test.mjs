// Concurrent `git kizu init` runs in one repository are serialised by the install lock
// (`<common-dir>/kizu/install.lock`, src/install/install.ts withInstallLock): none overwrites
// the install record another wrote, so one teardown afterwards gives back every file
// byte for byte (the fault: it kept .claude/commands/kizu.md "(it existed before init)" and
// left the guard in husky's file). Several rounds, since a race does not show every time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { repoFiles } from '../helpers/install.mjs';
import { husky } from '../helpers/tools.mjs';

const ROUNDS = 3;

/** 4 inits at once, then teardown: everything as before init. */
async function concurrentRound(sb) {
  const before = repoFiles(sb.dir);
  const runs = await Promise.all([1, 2, 3, 4].map(() => sb.kizuAsync(['init'])));
  for (const r of runs) assert.equal(r.status, 0, r.stderr);
  assert.ok(!existsSync(sb.path('.git/kizu/install.lock')), 'the lock is released');
  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.equal(t.stderr, '');
  assert.ok(!t.stdout.includes('existed before init'), t.stdout);
  assert.deepEqual(repoFiles(sb.dir), before);
}

test('4 concurrent inits, then teardown, in a plain repository: every file as before', async () => {
  for (let i = 0; i < ROUNDS; i++) await concurrentRound(sandbox({ files: { 'a.txt': 'a\n' } }));
});

test('4 concurrent inits, then teardown, with husky: .husky/pre-commit and every other file as before', async () => {
  for (let i = 0; i < ROUNDS; i++) {
    const sb = sandbox({ files: { 'package.json': '{\n  "name": "x"\n}\n', '.husky/pre-commit': 'npm test\n' } });
    ok(sb.run(husky(), []), 'husky');
    await concurrentRound(sb);
  }
});
