// The pre-commit guard where no hook manager is used: git-kizu's own hook in .git/hooks (or an
// untracked core.hooksPath), which holds no machine path and lets a commit through when no
// runtime can run; a symlinked pre-commit (moved aside itself, never written through); a
// committed core.hooksPath directory (the same two lines on every machine); --scope user
// (no repository touched unless --pre-commit); status naming the guard or saying it is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { REAL_BIN, commitScar, commitStaged, filesUnder, mode, repoFiles } from '../helpers/install.mjs';

const guardOf = (sb) => JSON.parse(sb.kizu(['status', '--json']).stdout).hooks.guard;
const hooksLine = (sb) => sb.kizu(['status']).stdout.split('\n').find((l) => l.startsWith('hooks'));

test('the generated hook holds no machine path; status names it, or says missing with the init that was made (`git kizu init --agent claude`)', () => {
  const sb = sandbox();
  assert.deepEqual(guardOf(sb), { state: 'missing', why: 'no pre-commit hook runs git-kizu', fix: 'git kizu init' });
  ok(sb.kizu(['init']), 'init');
  const text = sb.read('.git/hooks/pre-commit');
  assert.ok(!text.includes(REAL_BIN) && !text.includes(process.execPath) && !text.includes(sb.base), 'no machine path');
  assert.ok(text.includes('\nkizu_launcher="$(git rev-parse --git-common-dir 2>/dev/null)/kizu/git-kizu"\n'));
  assert.deepEqual(guardOf(sb), { state: 'installed', via: 'hooks-dir', file: sb.path('.git/hooks/pre-commit') });
  assert.match(hooksLine(sb), /; pre-commit: installed \(git hook, \.git\/hooks\/pre-commit\)$/);
  rmSync(sb.path('.git/hooks/pre-commit'));
  assert.match(hooksLine(sb), /; pre-commit: missing: no pre-commit hook runs git-kizu; run `git kizu init --agent claude`$/);
});

test('no node on PATH: the launcher runs the recorded node; without a launcher the commit goes through with one stderr line (exit 0, never 126/127)', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']), 'init');
  const bare = path.join(sb.base, 'bare-bin');
  mkdirSync(bare);
  for (const t of ['git', 'sh', 'dirname', 'head', 'grep']) symlinkSync(execFileSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).trim(), path.join(bare, t));
  const env = { PATH: bare };
  assert.notEqual(sb.run(path.join(bare, 'sh'), ['-c', 'command -v node'], { env }).status, 0, 'node is not on that PATH');
  const refused = commitScar(sb, 'scarred.js', { env });
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /"scarred\.js":2 {2}\[ask\] {2}x/);
  sb.git('reset', '-q');

  rmSync(sb.path('.git/kizu/git-kizu'));
  const hook = sb.run(sb.path('.git/hooks/pre-commit'), [], { env });
  assert.equal(hook.status, 0);
  assert.equal(hook.stdout, '');
  assert.equal(
    hook.stderr,
    "git-kizu: pre-commit scar check skipped: neither this clone's launcher (.git/kizu/git-kizu) nor git-kizu and node on PATH can run; install git-kizu (npm install -g git-kizu), then run `git kizu init`\n",
  );
  ok(commitScar(sb, 'scarred.js', { env }), 'commit without a runtime');
});

for (const kind of ['tracked', 'untracked']) {
  test(`a symlinked pre-commit (${kind} target): the link itself is moved aside and restored exactly; the target is never written`, () => {
    const sb = sandbox({ files: kind === 'tracked' ? { 'scripts/pre-commit': '#!/bin/sh\necho user-ran >> "$(git rev-parse --git-dir)/user-ran"\n' } : {} });
    const target = kind === 'tracked' ? '../../scripts/pre-commit' : '../my-hook';
    const targetFile = kind === 'tracked' ? sb.path('scripts/pre-commit') : sb.path('.git/my-hook');
    if (kind === 'untracked') writeFileSync(targetFile, '#!/bin/sh\necho user-ran >> "$(git rev-parse --git-dir)/user-ran"\n');
    chmodSync(targetFile, 0o755);
    const userText = execFileSync('cat', [targetFile], { encoding: 'utf8' });
    const link = sb.path('.git/hooks/pre-commit');
    symlinkSync(target, link);

    ok(sb.kizu(['init']), 'init');
    assert.equal(execFileSync('cat', [targetFile], { encoding: 'utf8' }), userText, 'the target is untouched');
    assert.ok(lstatSync(link).isFile(), 'our hook replaced the link');
    assert.equal(readlinkSync(`${link}.kizu-chained`), target, 'the link moved aside, same text');
    assert.equal(commitScar(sb).status, 1);
    sb.git('reset', '-q');
    ok(commitStaged(sb, 'clean.js', 'x\n'), 'clean commit');
    assert.equal(sb.read('.git/user-ran'), 'user-ran\nuser-ran\n', 'the user hook ran first, both times');

    const t = ok(sb.kizu(['teardown']), 'teardown');
    assert.ok(t.stdout.includes('restored .git/hooks/pre-commit (the hook git-kizu had chained)\n'), t.stdout);
    assert.equal(readlinkSync(link), target);
    assert.ok(!existsSync(`${link}.kizu-chained`));
    assert.equal(execFileSync('cat', [targetFile], { encoding: 'utf8' }), userText);
    assert.equal(mode(targetFile), 0o755);
  });
}

test('a committed core.hooksPath (.githooks): the same two lines on every machine (no path), a missing pre-commit created 0755; teardown restores the bytes', () => {
  const files = { '.githooks/post-merge': '#!/bin/sh\ntrue\n', '.githooks/pre-commit': '#!/bin/sh\necho team-ran >> "$(git rev-parse --git-dir)/team-ran"\n' };
  const a = sandbox({ files });
  const b = sandbox({ files });
  for (const sb of [a, b]) {
    sb.git('config', 'core.hooksPath', '.githooks');
    chmodSync(sb.path('.githooks/pre-commit'), 0o755);
  }
  const before = filesUnder(a.dir, ['.githooks/', '.git/hooks/']);
  const r = ok(a.kizu(['init']), 'init a');
  assert.ok(
    r.stdout.includes(
      'updated .githooks/pre-commit (added the git-kizu guard for core.hooksPath (.githooks/pre-commit))\n' +
        'next: commit .githooks/pre-commit (the hooks directory is shared: every clone whose core.hooksPath names it runs the guard; the lines hold no path of this machine)\n',
    ),
    r.stdout,
  );
  ok(b.kizu(['init']), 'init b');
  assert.equal(a.read('.githooks/pre-commit'), b.read('.githooks/pre-commit'), 'identical on both machines');
  assert.ok(!a.read('.githooks/pre-commit').includes(a.base));
  assert.ok(!existsSync(a.path('.git/hooks/pre-commit')) && !existsSync(a.path('.githooks/pre-commit.kizu-chained')));
  assert.deepEqual(guardOf(a), { state: 'installed', via: 'hooks-path', file: a.path('.githooks/pre-commit') });
  assert.equal(commitScar(a).status, 1);
  a.git('reset', '-q');
  ok(commitStaged(a, 'clean.js', 'x\n'), 'clean commit');
  assert.equal(a.read('.git/team-ran'), 'team-ran\nteam-ran\n');
  ok(a.kizu(['teardown']), 'teardown');
  assert.deepEqual(filesUnder(a.dir, ['.githooks/', '.git/hooks/']), before);

  const c = sandbox({ files: { '.githooks/post-merge': '#!/bin/sh\ntrue\n' } });
  c.git('config', 'core.hooksPath', '.githooks');
  const cb = repoFiles(c.dir);
  ok(c.kizu(['init']), 'init c');
  assert.equal(mode(c.path('.githooks/pre-commit')), 0o755);
  assert.ok(c.read('.githooks/pre-commit').startsWith('#!/bin/sh\n# git-kizu: '));
  ok(c.kizu(['teardown']), 'teardown c');
  const after = repoFiles(c.dir);
  for (const k of Object.keys(after)) if (k.startsWith('.git/kizu')) delete after[k];
  for (const k of Object.keys(cb)) if (k.startsWith('.git/kizu')) delete cb[k];
  assert.deepEqual(after, cb);
});

test('--scope user touches no repository; with --pre-commit it installs the guard there (and the clone launcher it runs)', () => {
  const sb = sandbox();
  const before = repoFiles(sb.dir);
  const r = ok(sb.kizu(['init', '--scope', 'user']), 'init --scope user');
  assert.ok(!r.stdout.includes('pre-commit'), r.stdout);
  assert.deepEqual(repoFiles(sb.dir), before);
  ok(sb.kizu(['teardown', '--scope', 'user']), 'teardown');

  ok(sb.kizu(['init', '--scope', 'user', '--pre-commit']), 'init --scope user --pre-commit');
  assert.ok(sb.read('.git/hooks/pre-commit').includes('git-kizu-managed-pre-commit'));
  assert.equal(mode(sb.path('.git/kizu/git-kizu')), 0o755);
  assert.equal(commitScar(sb, 'scarred.js', { env: { PATH: '/usr/bin:/bin' } }).status, 1);
  sb.git('reset', '-q');
  ok(sb.kizu(['teardown', '--scope', 'user']), 'teardown user');
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));
});
