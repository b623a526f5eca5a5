// The git pre-commit hook `git kizu init` installs, through the real bin and real commits:
// where it goes (core.hooksPath, linked worktrees; husky 4-8 gets the guard lines instead), chaining an existing hook (run
// first, arguments, stdin and exit status passed on, restored by teardown), concurrent
// inits, and refusing a staged scar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { commitStaged, mode, repoFiles } from '../helpers/install.mjs';

test('core.hooksPath .husky (husky 4-8: .husky/pre-commit is the git hook): the guard lines go at its end, no chaining; teardown restores it', () => {
  const sb = sandbox();
  const marker = path.join(sb.base, 'husky-ran');
  const husky = `#!/bin/sh\necho ran > '${marker}'\n`;
  sb.write({ '.husky/pre-commit': husky });
  chmodSync(sb.path('.husky/pre-commit'), 0o755);
  sb.git('config', 'core.hooksPath', '.husky');
  mkdirSync(sb.path('sub'));
  const r = ok(sb.kizu(['init'], { cwd: sb.path('sub') }), 'init');
  assert.ok(r.stdout.includes('updated .husky/pre-commit (added the git-kizu guard for husky (.husky/pre-commit))\n'), r.stdout);
  assert.ok(readFileSync(sb.path('.husky/pre-commit'), 'utf8').startsWith(husky + '# git-kizu: '));
  assert.ok(!existsSync(sb.path('.husky/pre-commit.kizu-chained')));
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));

  ok(commitStaged(sb, 'x.txt', 'x\n'), 'commit');
  assert.equal(readFileSync(marker, 'utf8'), 'ran\n');
  const scar = commitStaged(sb, 'y.js', '// @kizu[ask]: y\n');
  assert.equal(scar.status, 1);

  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.ok(t.stdout.includes('updated .husky/pre-commit (removed the git-kizu guard)\n'), t.stdout);
  assert.equal(readFileSync(sb.path('.husky/pre-commit'), 'utf8'), husky);
  assert.equal(mode(sb.path('.husky/pre-commit')), 0o755);
  assert.deepEqual(readdirSync(sb.path('.husky')), ['pre-commit']);
});

test('a chained hook that is not a sh script (node shebang) is executed directly', () => {
  const sb = sandbox();
  const marker = path.join(sb.base, 'node-ran');
  writeFileSync(
    sb.path('.git/hooks/pre-commit'),
    `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, process.argv[1]);\nprocess.exit(process.env.FAIL ? 4 : 0);\n`,
    { mode: 0o755 },
  );
  ok(sb.kizu(['init']));
  ok(commitStaged(sb, 'x.txt', 'x\n'), 'commit');
  assert.equal(readFileSync(marker, 'utf8'), path.join(sb.dir, '.git/hooks/pre-commit.kizu-chained'));
  const bad = commitStaged(sb, 'y.txt', 'y\n', { env: { FAIL: '1' } });
  assert.equal(bad.status, 1);
});

test('core.hooksPath pointing to a missing directory: init creates it, teardown removes it again', () => {
  const sb = sandbox();
  sb.git('config', 'core.hooksPath', '.githooks');
  ok(sb.kizu(['init']));
  assert.equal(mode(sb.path('.githooks/pre-commit')), 0o755);
  ok(sb.kizu(['teardown']));
  assert.ok(!existsSync(sb.path('.githooks')));
});

test('linked worktree: the hook lands in the common hooks dir and runs on a commit there', () => {
  const sb = sandbox();
  const marker = path.join(sb.base, 'chained-ran');
  const original = `#!/bin/sh\necho "chained $*" > '${marker}'\n`;
  writeFileSync(sb.path('.git/hooks/pre-commit'), original, { mode: 0o755 });
  const wt = path.join(sb.base, 'wt');
  sb.git('worktree', 'add', '-q', wt);
  const r = ok(sb.kizu(['init'], { cwd: wt }), 'init in worktree');
  const hook = path.join(realpathSync(sb.dir), '.git', 'hooks', 'pre-commit');
  assert.ok(r.stdout.includes(`created ${hook} (the hook that was there moved to pre-commit.kizu-chained and runs first)\n`), r.stdout);
  assert.ok(readFileSync(hook, 'utf8').includes('git-kizu-managed-pre-commit'));
  assert.equal(readFileSync(`${hook}.kizu-chained`, 'utf8'), original);
  assert.ok(existsSync(path.join(wt, '.claude/settings.json')));
  assert.ok(!existsSync(sb.path('.claude')));
  assert.ok(existsSync(sb.path('.git/worktrees/wt/kizu/install-project.json')));

  ok(commitStaged(sb, 'wt-file.txt', 'hello\n', { cwd: wt }), 'commit in worktree');
  assert.equal(readFileSync(marker, 'utf8'), 'chained \n');

  ok(sb.kizu(['teardown'], { cwd: wt }), 'teardown in worktree');
  assert.equal(readFileSync(hook, 'utf8'), original);
  assert.ok(!existsSync(path.join(wt, '.claude')));
});

test('an existing pre-commit is chained: both run, a failing one fails the commit; teardown restores bytes and mode', () => {
  const sb = sandbox();
  const marker = path.join(sb.base, 'mine-ran');
  const mine = `#!/bin/sh\necho mine >> '${marker}'\nif [ -e '${marker}.fail' ]; then echo 'mine says no' >&2; exit 3; fi\n`;
  const hookPath = sb.path('.git/hooks/pre-commit');
  writeFileSync(hookPath, mine);
  chmodSync(hookPath, 0o750);
  ok(sb.kizu(['init']), 'init');
  assert.equal(mode(sb.path('.git/hooks/pre-commit.kizu-chained')), 0o750);

  // Second init does not chain our own hook.
  ok(sb.kizu(['init']), 'init 2');
  assert.equal(readFileSync(sb.path('.git/hooks/pre-commit.kizu-chained'), 'utf8'), mine);

  ok(commitStaged(sb, 'one.txt', '1\n'), 'commit 1');
  assert.equal(readFileSync(marker, 'utf8'), 'mine\n');

  writeFileSync(`${marker}.fail`, '');
  const bad = commitStaged(sb, 'two.txt', '2\n');
  assert.equal(bad.status, 1, 'git reports a failed pre-commit as exit 1');
  assert.match(bad.stderr, /mine says no/);
  assert.equal(readFileSync(marker, 'utf8'), 'mine\nmine\n');
  assert.equal(sb.git('log', '--format=%s', '-1').trim(), 'add one.txt');

  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.ok(t.stdout.includes('restored .git/hooks/pre-commit (the hook git-kizu had chained)\n'), t.stdout);
  assert.equal(readFileSync(hookPath, 'utf8'), mine);
  assert.equal(mode(hookPath), 0o750);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.kizu-chained')));
});

test('the chained hook gets the arguments and stdin of our hook and its failing exit status is propagated', () => {
  const sb = sandbox();
  const out = path.join(sb.base, 'args');
  writeFileSync(sb.path('.git/hooks/pre-commit'), `#!/bin/sh\necho "$# $1 $2" > '${out}'\ncat >> '${out}'\nexit 7\n`, { mode: 0o755 });
  ok(sb.kizu(['init']));
  const r = sb.run(sb.path('.git/hooks/pre-commit'), ['a', 'b c'], { input: 'from stdin\n' });
  assert.equal(r.status, 7);
  assert.equal(readFileSync(out, 'utf8'), '2 a b c\nfrom stdin\n');
});

test('a foreign pre-commit plus an existing pre-commit.kizu-chained: exit 2, nothing written', () => {
  const sb = sandbox();
  writeFileSync(sb.path('.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(sb.path('.git/hooks/pre-commit.kizu-chained'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const before = repoFiles(sb.dir);
  const r = sb.kizu(['init']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^git-kizu: error: cannot chain the existing .*\/\.git\/hooks\/pre-commit: .*pre-commit\.kizu-chained already exists\n/);
  assert.deepEqual(repoFiles(sb.dir), before);
});

test('the installed pre-commit hook refuses a staged scar (path:line on stderr); KIZU_SKIP=1 commits', () => {
  const sb = sandbox({ files: { 'src/app.js': 'const a = 1;\n' } });
  ok(sb.kizu(['init']));
  sb.write({ 'src/app.js': 'const a = 1;\n// @kizu[ask]: explain this change\nconst b = 2;\n' });
  sb.git('add', 'src/app.js');
  const refused = sb.run('git', ['commit', '-q', '-m', 'scarred']);
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /^ {2}"src\/app\.js":2 {2}\[ask\] {2}explain this change$/m);
  assert.equal(sb.git('log', '--format=%s', '-1').trim(), 'initial');
  const skipped = sb.run('git', ['commit', '-q', '-m', 'scarred'], { env: { KIZU_SKIP: '1' } });
  assert.equal(skipped.status, 0, skipped.stderr);
  assert.equal(sb.git('log', '--format=%s', '-1').trim(), 'scarred');
});

test('concurrent init: the user hook ends up chained exactly once, never replaced by ours', async () => {
  for (let round = 0; round < 6; round++) {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    const userHook = '#!/bin/sh\necho USERHOOK >> "$(git rev-parse --git-dir)/user-hook-ran"\n';
    writeFileSync(sb.path('.git/hooks/pre-commit'), userHook);
    chmodSync(sb.path('.git/hooks/pre-commit'), 0o755);
    const results = await Promise.all([1, 2, 3, 4].map(() => sb.kizuAsync(['init'])));
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
