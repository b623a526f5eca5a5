// `git kizu doctor` and the Stop hook's once-per-session note about a missing pre-commit guard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sandbox, hook, ROOT } from '../helpers/sandbox.mjs';
import { exits, ok } from '../helpers/expect.mjs';
import { stopPayload } from '../helpers/hooks.mjs';

const which = (sb, name) => execFileSync('sh', ['-c', `command -v ${name}`], { env: sb.env, encoding: 'utf8' }).trim();

test('doctor before init: exit 1, one line per check with its fix', () => {
  const sb = sandbox();
  const r = exits(sb.kizu(['doctor']), 1);
  const launcher = path.join(sb.dir, '.git', 'kizu', 'git-kizu');
  assert.equal(
    r.stdout,
    `ok   repository: ${sb.dir}\n` +
      'fix  pre-commit guard: missing: no pre-commit hook runs git-kizu; fix: git kizu init\n' +
      'ok   install: the installed hook files and settings are what git kizu init writes, and no setting switches the hooks off\n' +
      "fix  Claude Code hooks: no Claude Code settings file runs git-kizu's hooks; fix: git kizu init\n" +
      `ok   launcher: ${launcher} is missing (not needed while node and git-kizu are on PATH)\n` +
      `ok   runtime: node at ${which(sb, 'node')}, git-kizu at ${path.join(sb.binDir, 'git-kizu')}\n` +
      'ok   config: valid (or none: the defaults)\n' +
      '2 to fix (see the lines marked fix)\n',
  );
  assert.equal(r.stderr, '');
});

test('doctor after init: every check ok, exit 0; --json has the same checks', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  const r = ok(sb.kizu(['doctor']));
  const launcher = path.join(sb.dir, '.git', 'kizu', 'git-kizu');
  const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  assert.equal(
    r.stdout,
    `ok   repository: ${sb.dir}\n` +
      `ok   pre-commit guard: runs from ${path.join(sb.dir, '.git', 'hooks', 'pre-commit')}\n` +
      'ok   install: the installed hook files and settings are what git kizu init writes, and no setting switches the hooks off\n' +
      'ok   Claude Code hooks: installed (project)\n' +
      `ok   launcher: ${launcher} starts git-kizu ${version}\n` +
      `ok   runtime: node at ${which(sb, 'node')}, git-kizu at ${path.join(sb.binDir, 'git-kizu')}\n` +
      'ok   config: valid (or none: the defaults)\n' +
      'everything git-kizu needs is in place\n',
  );
  const j = JSON.parse(ok(sb.kizu(['doctor', '--json'])).stdout);
  assert.equal(j.ok, true);
  assert.deepEqual(
    j.checks.map((c) => [c.name, c.ok]),
    [['repository', true], ['pre-commit guard', true], ['install', true], ['Claude Code hooks', true], ['launcher', true], ['runtime', true], ['config', true]],
  );
});

test('doctor names each broken part: runner not executable, launcher whose node is gone, no runtime on PATH, invalid config', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  chmodSync(sb.path('.claude/hooks/kizu-hook.sh'), 0o644);
  const launcher = path.join(sb.dir, '.git', 'kizu', 'git-kizu');
  writeFileSync(launcher, readFileSync(launcher, 'utf8').replace(/^kizu_node=.*$/m, 'kizu_node=/nonexistent/node'));
  sb.write({ '.kizurc.json': '{"stop": {"maxBlocks": 0}}\n' });
  // Run the bin by its absolute path with a PATH holding git but neither node nor git-kizu.
  const bare = path.join(sb.base, 'bare');
  execFileSync('sh', ['-c', `mkdir ${bare} && ln -s "$(command -v git)" ${bare}/git`]);
  const r = sb.run(process.execPath, [path.join(sb.binDir, 'git-kizu'), 'doctor', '--json'], { env: { PATH: bare } });
  assert.equal(r.status, 1, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.ok, false);
  const bad = j.checks.filter((c) => !c.ok);
  assert.deepEqual(bad, [
    // Install integrity (test/cli/integrity.test.mjs): init writes an executable runner and this machine's node.
    { name: 'install', ok: false, detail: `${sb.path('.claude/hooks/kizu-hook.sh')}: the hook runner is not executable`, fix: 'git kizu init --agent claude' },
    { name: 'install', ok: false, detail: `${launcher}: the launcher (it starts git-kizu for the hooks) differs from what git kizu init writes`, fix: 'git kizu init --agent claude' },
    { name: 'Claude Code hooks', ok: false, detail: '.claude/settings.json runs .claude/hooks/kizu-hook.sh, which is missing or not executable', fix: 'git kizu init --agent claude' },
    { name: 'launcher', ok: false, detail: `${launcher} cannot start git-kizu without PATH (its recorded node or git-kizu is gone)`, fix: 'git kizu init --agent claude' },
    { name: 'runtime', ok: false, detail: 'node not on PATH, git-kizu not on PATH, and no working launcher: hooks skip git-kizu (they let the agent and commits through)', fix: 'npm install -g git-kizu && git kizu init --agent claude' },
    { name: 'config', ok: false, detail: bad[5].detail, fix: bad[5].fix },
  ]);
  assert.match(bad[5].detail, /^invalid config in .*\.kizurc\.json: .*"stop\.maxBlocks" must be an integer >= 1, got 0$/);
});

test('the Stop hook tells the user once per session that the pre-commit guard init installed is gone', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  // A hook manager's install (or a hand edit) replaced git-kizu's hook.
  writeFileSync(sb.path('.git/hooks/pre-commit'), '#!/bin/sh\necho lint\n');
  const note =
    'git-kizu: the pre-commit guard is missing (no pre-commit hook runs git-kizu), so a commit of files holding scars is not refused; run `git kizu init` (`git kizu doctor` checks the whole install)';
  const first = hook(sb, 'stop', stopPayload(sb, false, 's1'));
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout), { systemMessage: note });
  // Later stops of the same session: nothing.
  assert.equal(hook(sb, 'stop', stopPayload(sb, false, 's1')).stdout, '');
  // A scar blocks; the note rides along for a new session, once.
  sb.write({ 'a.js': '// @kizu[ask]: why?\nx\n' });
  const blocked = JSON.parse(hook(sb, 'stop', stopPayload(sb, false, 's2')).stdout);
  assert.equal(blocked.decision, 'block');
  assert.equal(blocked.systemMessage, note);
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, true, 's2')).stdout).systemMessage, undefined);
  // With the guard back, a new session hears nothing about it.
  sb.run('rm', [sb.path('.git/hooks/pre-commit')]);
  ok(sb.kizu(['init']));
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false, 's3')).stdout).systemMessage, undefined);
});

test('the Stop hook says nothing about a guard this clone never installed (--no-pre-commit, no init)', () => {
  const sb = sandbox();
  sb.write({ 'a.js': '// @kizu[ask]: why?\nx\n' });
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false, 's1')).stdout).systemMessage, undefined);
  ok(sb.kizu(['init', '--no-pre-commit']));
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false, 's2')).stdout).systemMessage, undefined);
});

test('doctor outside a repository: only the user-scope install; its fix is the user-scope init', () => {
  const sb = sandbox({ init: false });
  const r = exits(sb.kizu(['doctor', '--json']), 1);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.checks[0], { name: 'repository', ok: true, detail: `${sb.dir} is not in a git repository: only the user-scope install is checked` });
  assert.deepEqual(j.checks.find((c) => c.name === 'Claude Code hooks'), {
    name: 'Claude Code hooks',
    ok: false,
    detail: "no Claude Code settings file runs git-kizu's hooks",
    fix: 'git kizu init --scope user',
  });
  ok(sb.kizu(['init', '--scope', 'user']));
  assert.equal(ok(sb.kizu(['doctor'])).stdout.split('\n').filter((l) => l.startsWith('fix')).length, 0);
});

test('doctor: the plugin alone is enough for Claude Code; the plugin and settings hooks together run every hook twice, which it names with the fix', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--agent', 'claude', '--via', 'plugin']));
  const settings = path.join(sb.home, '.claude', 'settings.json');
  execFileSync('mkdir', ['-p', path.dirname(settings)]);
  writeFileSync(settings, JSON.stringify({ enabledPlugins: { 'git-kizu@git-kizu': true } }) + '\n');
  const alone = ok(sb.kizu(['doctor']));
  assert.match(alone.stdout, /^ok {3}Claude Code hooks: the git-kizu plugin is enabled \(~\/\.claude\/settings\.json\)$/m);
  assert.doesNotMatch(alone.stdout, /^fix/m);
  assert.match(ok(sb.kizu(['status'])).stdout, /^hooks {5}Claude Code: installed \(plugin\); pre-commit: installed/m);
  ok(sb.kizu(['init', '--agent', 'claude']));
  const both = exits(sb.kizu(['doctor']), 1);
  assert.match(
    both.stdout,
    /^fix  Claude Code hooks: the git-kizu plugin is enabled and the settings \(project\) register git-kizu's hooks too, so every hook runs twice; fix: git kizu teardown --agent claude \(for --scope project\), or claude plugin uninstall git-kizu@git-kizu$/m,
  );
});

test('doctor: Claude Code hooks in two settings scopes run twice: a fix that keeps one', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  ok(sb.kizu(['init', '--scope', 'user', '--no-pre-commit']));
  const r = exits(sb.kizu(['doctor']), 1);
  assert.match(r.stdout, /^fix  Claude Code hooks: installed in 2 settings files \(project, user\), so Claude Code runs every hook 2 times; fix: git kizu teardown --agent claude --scope user$/m);
  ok(sb.kizu(['teardown', '--agent', 'claude', '--scope', 'user']));
  assert.match(ok(sb.kizu(['doctor'])).stdout, /^ok {3}Claude Code hooks: installed \(project\)$/m);
});

test('doctor: an agent whose hooks are in both its project and its user settings runs them twice: a fix', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--agent', 'gemini']));
  ok(sb.kizu(['init', '--agent', 'gemini', '--scope', 'user']));
  const r = exits(sb.kizu(['doctor']), 1);
  assert.match(r.stdout, /^fix  Gemini CLI hooks: installed in both the project and the user scope, so Gemini CLI runs every hook twice; fix: git kizu teardown --agent gemini --scope user$/m);
  ok(sb.kizu(['teardown', '--agent', 'gemini', '--scope', 'user']));
  assert.doesNotMatch(sb.kizu(['doctor']).stdout, /runs every hook twice/);
});

test('after a user-scope install, doctor and status name the guard-only fix, and following it adds no project hooks', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--scope', 'user', '--agent', 'claude,codex']));
  const fix = 'git kizu init --scope user --agent claude,codex --pre-commit';
  const r = exits(sb.kizu(['doctor']), 1);
  assert.deepEqual(r.stdout.split('\n').filter((l) => l.startsWith('fix')), [`fix  pre-commit guard: missing: no pre-commit hook runs git-kizu; fix: ${fix}`]);
  const hooks = ok(sb.kizu(['status'])).stdout.split('\n').find((l) => l.startsWith('hooks'));
  assert.equal(hooks, `hooks     Claude Code: installed (user); Codex CLI: installed (user); pre-commit: missing: no pre-commit hook runs git-kizu; run \`${fix}\``);
  // A ~/.gemini appearing since is not installed by the fix.
  execFileSync('mkdir', [path.join(sb.home, '.gemini')]);
  ok(sb.kizu(fix.split(' ').slice(2)));
  assert.equal(ok(sb.kizu(['doctor'])).stdout.split('\n').filter((l) => l.startsWith('fix')).length, 0);
  assert.equal(sb.git('status', '--porcelain', '--ignored'), '');
  assert.equal(
    ok(sb.kizu(['status'])).stdout.split('\n').find((l) => l.startsWith('hooks')),
    `hooks     Claude Code: installed (user); Codex CLI: installed (user); pre-commit: installed (git hook, .git/hooks/pre-commit)`,
  );
});

test('after init --via plugin, doctor and status point to the two claude plugin commands, and the guard fix adds no Claude Code settings', () => {
  // (The install lines are install integrity's: test/cli/integrity.test.mjs.)
  const sb = sandbox();
  ok(sb.kizu(['init', '--agent', 'claude', '--via', 'plugin']));
  const plugin = `claude plugin marketplace add ${ROOT} && claude plugin install git-kizu@git-kizu`;
  const r = exits(sb.kizu(['doctor']), 1);
  assert.deepEqual(r.stdout.split('\n').filter((l) => l.startsWith('fix') && !l.startsWith('fix  install:')), [
    `fix  Claude Code hooks: git kizu init --via plugin left Claude Code's hooks to the git-kizu plugin, which is not enabled; fix: ${plugin}`,
  ]);
  const hooksLine = () => sb.kizu(['status']).stdout.split('\n').find((l) => l.startsWith('hooks'));
  assert.equal(hooksLine(), `hooks     Claude Code: not installed (${plugin}); pre-commit: installed (git hook, .git/hooks/pre-commit)`);
  assert.equal(JSON.parse(ok(sb.kizu(['status', '--json'])).stdout).hooks.claudeFix, plugin);
  // The guard gone: its fix keeps Claude Code on the plugin.
  sb.run('rm', [sb.path('.git/hooks/pre-commit')]);
  const fix = 'git kizu init --agent claude --via plugin';
  assert.deepEqual(exits(sb.kizu(['doctor']), 1).stdout.split('\n').filter((l) => l.startsWith('fix') && !l.startsWith('fix  install:')), [
    `fix  pre-commit guard: missing: no pre-commit hook runs git-kizu; fix: ${fix}`,
    `fix  Claude Code hooks: git kizu init --via plugin left Claude Code's hooks to the git-kizu plugin, which is not enabled; fix: ${plugin}`,
  ]);
  assert.equal(hooksLine(), `hooks     Claude Code: not installed (${plugin}); pre-commit: missing: no pre-commit hook runs git-kizu; run \`${fix}\``);
  ok(sb.kizu(fix.split(' ').slice(2)));
  assert.equal(existsSync(sb.path('.claude')), false);
  // With the plugin enabled, nothing is missing.
  const settings = path.join(sb.home, '.claude', 'settings.json');
  execFileSync('mkdir', ['-p', path.dirname(settings)]);
  writeFileSync(settings, JSON.stringify({ enabledPlugins: { 'git-kizu@git-kizu': true } }) + '\n');
  assert.equal(ok(sb.kizu(['doctor'])).stdout.split('\n').filter((l) => l.startsWith('fix') && !l.startsWith('fix  install:')).length, 0);
  assert.equal(hooksLine(), 'hooks     Claude Code: installed (plugin); pre-commit: installed (git hook, .git/hooks/pre-commit)');
});

test('after a user-scope install, the launcher, runtime and settings fixes re-run that install, not a project one', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--scope', 'user', '--agent', 'claude,codex']));
  const launcher = path.join(sb.home, '.claude', 'kizu', 'git-kizu');
  writeFileSync(launcher, readFileSync(launcher, 'utf8').replace(/^kizu_node=.*$/m, 'kizu_node=/nonexistent/node'));
  const bare = path.join(sb.base, 'bare');
  execFileSync('sh', ['-c', `mkdir ${bare} && ln -s "$(command -v git)" ${bare}/git`]);
  const r = sb.run(process.execPath, [path.join(sb.binDir, 'git-kizu'), 'doctor', '--json'], { env: { PATH: bare } });
  assert.equal(r.status, 1, r.stderr);
  const repoLauncher = path.join(sb.dir, '.git', 'kizu', 'git-kizu');
  assert.deepEqual(JSON.parse(r.stdout).checks.filter((c) => !c.ok && c.name !== 'install'), [
    { name: 'pre-commit guard', ok: false, detail: 'missing: no pre-commit hook runs git-kizu', fix: 'git kizu init --scope user --agent claude,codex --pre-commit' },
    { name: 'launcher', ok: false, detail: `${repoLauncher} is missing`, fix: 'git kizu init --scope user --agent claude,codex --pre-commit' },
    { name: 'launcher', ok: false, detail: `${launcher} cannot start git-kizu without PATH (its recorded node or git-kizu is gone)`, fix: 'git kizu init --scope user --agent claude,codex' },
    { name: 'runtime', ok: false, detail: 'node not on PATH, git-kizu not on PATH, and no working launcher: hooks skip git-kizu (they let the agent and commits through)', fix: 'npm install -g git-kizu && git kizu init --scope user --agent claude,codex --pre-commit' },
  ]);
  writeFileSync(path.join(sb.home, '.claude', 'settings.json'), '{ not json\n');
  const bad = JSON.parse(exits(sb.kizu(['doctor', '--json']), 1).stdout).checks.find((c) => c.name === 'Claude Code hooks');
  assert.equal(bad.fix, 'fix the JSON, then run `git kizu init --agent claude --scope user`');
});
