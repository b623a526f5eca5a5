// End-to-end: a team shares `.claude/`. One machine runs `git kizu init` and commits what it
// wrote; a teammate clones the repository on another machine (another HOME, git-kizu
// installed at another place) and runs `git kizu init` too: nothing changes in the working
// tree (`git status --porcelain` empty), because committed files hold no machine path; the
// per-clone launcher under the git dir holds each machine's own. The teammate's hooks then
// run through the committed runner with node missing from PATH.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { stopPayload } from '../helpers/hooks.mjs';
import { pathWithoutNode } from '../helpers/install.mjs';

/**
 * A copy of the built package (bin/, dist/, templates/, package.json; its dependencies
 * linked from this checkout) at `<sb.base>/<name>`, put first on the sandbox's PATH as
 * `git-kizu` instead of this checkout's bin. Returns its bin's real path.
 */
function installCopy(sb, name) {
  const pkg = path.join(sb.base, name);
  mkdirSync(pkg);
  for (const part of ['bin', 'dist', 'templates', 'package.json']) cpSync(path.join(ROOT, part), path.join(pkg, part), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  rmSync(path.join(sb.binDir, 'git-kizu'));
  symlinkSync(path.join(pkg, 'bin', 'git-kizu.js'), path.join(sb.binDir, 'git-kizu'));
  return realpathSync(path.join(pkg, 'bin', 'git-kizu.js'));
}

const status = (sb) => sb.git('status', '--porcelain', '--untracked-files=all');

test('initialised on one machine, cloned to another with another HOME and install place: the second init changes nothing', () => {
  const alice = sandbox({ files: { 'app.js': 'export const a = 1;\n' } });
  const aliceBin = installCopy(alice, 'alice-git-kizu');
  ok(alice.kizu(['init']), 'alice init');
  alice.git('add', '-A');
  alice.git('commit', '-q', '-m', 'review hooks for the team');
  assert.equal(status(alice), '');

  const bob = sandbox({ init: false });
  const bobBin = installCopy(bob, 'bob-git-kizu');
  assert.notEqual(bob.home, alice.home);
  assert.notEqual(bobBin, aliceBin);
  bob.git('clone', '-q', alice.dir, '.');
  const r = ok(bob.kizu(['init']), 'bob init');
  assert.equal(r.stderr, '');
  assert.equal(status(bob), '', 'no diff after the second machine\'s init');
  for (const f of ['.claude/hooks/kizu-hook.sh', '.claude/settings.json', '.claude/commands/kizu.md']) {
    assert.equal(bob.read(f), alice.read(f), f);
    for (const machineFact of [aliceBin, bobBin, alice.home, bob.home, alice.base, bob.base]) {
      assert.ok(!bob.read(f).includes(machineFact), `${f} holds no path of a machine`);
    }
  }
  // Each clone's launcher holds its own machine's git-kizu.
  assert.ok(alice.read('.git/kizu/git-kizu').includes(`\nkizu_bin=${aliceBin}\n`));
  assert.ok(bob.read('.git/kizu/git-kizu').includes(`\nkizu_bin=${bobBin}\n`));

  // Alice runs init again: still nothing to commit.
  ok(alice.kizu(['init']), 'alice init again');
  assert.equal(status(alice), '');

  // Bob's agent stops with a scar left: the committed runner blocks it, node not on PATH.
  writeFileSync(bob.path('app.js'), 'export const a = 1;\n// @kizu[ask]: why 1?\n');
  const stop = bob.run('/bin/sh', ['-c', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh stop'], {
    input: JSON.stringify(stopPayload(bob, false)),
    env: { PATH: pathWithoutNode(bob), CLAUDE_PROJECT_DIR: bob.dir },
  });
  assert.equal(stop.status, 0, stop.stderr);
  assert.equal(stop.stderr, '');
  assert.equal(JSON.parse(stop.stdout).decision, 'block');
  writeFileSync(bob.path('app.js'), 'export const a = 1;\n');

  // Bob tears his install down: the team's files stay as committed.
  ok(bob.kizu(['teardown']), 'bob teardown');
  assert.equal(status(bob), '');
  assert.ok(!readFileSync(bob.path('.claude/settings.json'), 'utf8').includes(bobBin));
});
