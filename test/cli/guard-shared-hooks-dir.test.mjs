// A core.hooksPath set outside the repository (the global config, or a file it includes) names
// a hooks directory every repository on the machine runs: project-scope init refuses to put
// the guard there (exit 2, nothing written, the fixes named); --scope user --pre-commit puts it
// there for all of them, after which project init in any repository leaves it alone and
// status, doctor and a scarred commit tell the truth; teardown --scope user puts the user's
// hook back exactly. A relative core.hooksPath in the global config is each repository's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { exits, ok } from '../helpers/expect.mjs';
import { NEXT, commitScar, filesUnder, repoFiles } from '../helpers/install.mjs';

const USER_HOOK = '#!/bin/sh\necho user-hook-ran >> "$(git rev-parse --git-dir)/user-ran"\n';
const guardOf = (sb, cwd) => JSON.parse(sb.kizu(['status', '--json'], { cwd }).stdout).hooks.guard;

/** A sandbox whose global config (or a file it includes, `via`) sets core.hooksPath to ~/.ghooks, which holds the user's pre-commit. */
function sharedHooks(via = 'global') {
  const sb = sandbox();
  const gh = path.join(sb.home, '.ghooks');
  mkdirSync(gh);
  writeFileSync(path.join(gh, 'pre-commit'), USER_HOOK);
  chmodSync(path.join(gh, 'pre-commit'), 0o755);
  const setting = '[core]\n\thooksPath = ~/.ghooks\n';
  const cfg = via === 'global' ? sb.env.GIT_CONFIG_GLOBAL : path.join(sb.home, '.gitconfig-work');
  if (via === 'global') appendFileSync(cfg, setting);
  else {
    writeFileSync(cfg, setting);
    appendFileSync(sb.env.GIT_CONFIG_GLOBAL, `[includeIf "gitdir:${sb.base}/"]\n\tpath = ${cfg}\n`);
  }
  return { sb, gh, cfg };
}

const refusal = (gh, cfg, scopeArg = '') =>
  `git-kizu: error: core.hooksPath is set to ~/.ghooks in your global git config (${cfg}), so every repository using that config runs the git hooks in ${gh}; git kizu init${scopeArg} does not put the pre-commit guard there\n` +
  `hint: run \`git kizu init --scope user --pre-commit\` to install the guard there for all of them, \`git kizu init${scopeArg} --no-pre-commit\` to leave it out, or give this repository its own hooks directory (\`git config core.hooksPath .git/hooks\`), then run the command again; nothing was changed\n`;

for (const via of ['global', 'includeIf']) {
  test(`core.hooksPath from the ${via === 'global' ? 'global config' : 'file an includeIf of the global config names'}: init (project and local scope) refuses, nothing written; status names the user-scope fix`, () => {
    const { sb, gh, cfg } = sharedHooks(via);
    const missing = {
      state: 'missing',
      why: `no pre-commit hook runs git-kizu in ${gh} (core.hooksPath set in your global git config (${cfg}), shared by every repository using it)`,
      fix: 'git kizu init --scope user --pre-commit',
    };
    assert.deepEqual(guardOf(sb), missing);
    const before = { repo: repoFiles(sb.dir), home: repoFiles(sb.home) };
    for (const [args, scopeArg] of [[['init'], ''], [['init', '--scope', 'local'], ' --scope local']]) {
      const r = exits(sb.kizu(args), 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, refusal(gh, cfg, scopeArg));
      assert.deepEqual({ repo: repoFiles(sb.dir), home: repoFiles(sb.home) }, before);
    }
    assert.deepEqual(guardOf(sb), missing);
  });
}

test('--scope user --pre-commit installs the guard in the shared directory; project init elsewhere leaves it; status, doctor and commits agree; teardown --scope user restores the user hook exactly', () => {
  const { sb, gh } = sharedHooks();
  const homeBefore = filesUnder(sb.home, ['.ghooks/']);
  ok(sb.kizu(['init', '--scope', 'user', '--pre-commit']), 'init --scope user --pre-commit');
  assert.deepEqual(Object.keys(filesUnder(sb.home, ['.ghooks/'])).sort(), ['.ghooks/', '.ghooks/pre-commit', '.ghooks/pre-commit.kizu-chained']);
  const installed = { state: 'installed', via: 'hooks-dir', file: path.join(gh, 'pre-commit') };
  assert.deepEqual(guardOf(sb), installed);

  // Another repository using the same global config.
  const b = path.join(sb.base, 'b');
  mkdirSync(b);
  sb.git('init', '-q', { cwd: b });
  sb.git('commit', '-q', '--allow-empty', '-m', 'initial', { cwd: b });
  assert.deepEqual(guardOf(sb, b), installed);
  const r = ok(sb.kizu(['init'], { cwd: b }), 'init in b');
  assert.equal(
    r.stdout,
    'created .claude/hooks/kizu-hook.sh\n' +
      'created .claude/commands/kizu.md\n' +
      `unchanged ~/.ghooks/pre-commit (the git-kizu guard there runs for every repository using core.hooksPath from your global git config (${sb.env.GIT_CONFIG_GLOBAL}))\n` +
      'created .claude/settings.json (added hooks: Stop, SubagentStop, PostToolUse, UserPromptSubmit, PreToolUse)\n' +
      `${NEXT}\n`,
  );
  const doctor = sb.kizu(['doctor'], { cwd: b }).stdout.split('\n').find((l) => l.includes('pre-commit guard'));
  assert.equal(doctor, `ok   pre-commit guard: runs from ${path.join(gh, 'pre-commit')}`);
  const refused = commitScar(sb, 'scarred.js', { cwd: b });
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
  assert.equal(sb.read(path.join('..', 'b', '.git', 'user-ran')), 'user-hook-ran\nuser-hook-ran\n', 'the user hook ran first, for the initial commit and this one');
  sb.git('reset', '-q', { cwd: b });

  // Project teardown in b does not take the guard away from every repository.
  ok(sb.kizu(['teardown'], { cwd: b }), 'teardown in b');
  assert.deepEqual(guardOf(sb), installed);
  const t = ok(sb.kizu(['teardown', '--scope', 'user']), 'teardown --scope user');
  assert.ok(t.stdout.includes('restored ~/.ghooks/pre-commit (the hook git-kizu had chained)\n'), t.stdout);
  assert.deepEqual(filesUnder(sb.home, ['.ghooks/']), homeBefore);
  assert.ok(!existsSync(path.join(gh, 'pre-commit.kizu-chained')));
});

test('a relative core.hooksPath in the global config names each repository\'s own directory: init installs the guard there', () => {
  const sb = sandbox();
  appendFileSync(sb.env.GIT_CONFIG_GLOBAL, '[core]\n\thooksPath = .hooks\n');
  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stdout.includes('created .hooks/pre-commit\n'), r.stdout);
  assert.deepEqual(guardOf(sb), { state: 'installed', via: 'hooks-dir', file: sb.path('.hooks/pre-commit') });
});
