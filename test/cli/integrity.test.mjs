// Install integrity (src/install/integrity.ts): `doctor`, `status` and the prompt hook find an
// install that differs from what `git kizu init` writes now, and settings that switch hooks off,
// each with the command that restores it; an unchanged install gives no finding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { sandbox, hook } from '../helpers/sandbox.mjs';
import { exits, ok } from '../helpers/expect.mjs';

/** The `install` lines of doctor's output. */
const doctorInstall = (sb) => sb.kizu(['doctor']).stdout.split('\n').filter((l) => / {2}install: /.test(l));
/** The `install` section of status text: its heading line and the finding lines under it. */
function statusInstall(sb) {
  const lines = sb.kizu(['status']).stdout.split('\n');
  const i = lines.findIndex((l) => l.startsWith('install '));
  const out = [lines[i]];
  for (let k = i + 1; lines[k]?.startsWith('  '); k++) out.push(lines[k]);
  return out;
}
const prompt = (sb) => hook(sb, 'user-prompt-submit', { session_id: 's1', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
const CLEAN_DOCTOR = ['ok   install: the installed hook files and settings are what git kizu init writes, and no setting switches the hooks off'];
const CLEAN_STATUS = ['install   no hook file changed since git kizu init, no setting switches hooks off'];

/** Each tampering an agent can do, the file it touches and the sentence doctor/status say. */
const TAMPERINGS = [
  {
    name: 'the Stop entry removed from .claude/settings.json',
    do: (sb) => {
      const s = JSON.parse(sb.read('.claude/settings.json'));
      delete s.hooks.Stop;
      sb.write({ '.claude/settings.json': JSON.stringify(s, null, 2) + '\n' });
    },
    line: ".claude/settings.json: git-kizu's Stop entry is missing or changed; run `git kizu init --agent claude`",
    stop: true,
  },
  {
    name: 'disableAllHooks in .claude/settings.local.json',
    do: (sb) => sb.write({ '.claude/settings.local.json': '{ "disableAllHooks": true }\n' }),
    line: (sb) => `.claude/settings.local.json: "disableAllHooks": true switches off every Claude Code hook, git-kizu's too; remove "disableAllHooks" from ${sb.path('.claude/settings.local.json')}`,
    stop: true,
  },
  {
    name: 'a no-op runner',
    do: (sb) => sb.write({ '.claude/hooks/kizu-hook.sh': '#!/bin/sh\nexit 0\n' }),
    line: '.claude/hooks/kizu-hook.sh: the hook runner differs from what git kizu init writes; run `git kizu init --agent claude`',
    stop: true,
  },
  {
    name: 'a no-op launcher',
    do: (sb) => sb.write({ '.git/kizu/git-kizu': '#!/bin/sh\nexit 0\n' }),
    line: '.git/kizu/git-kizu: the launcher (it starts git-kizu for the hooks) differs from what git kizu init writes; run `git kizu init --agent claude`',
    stop: false,
  },
  {
    name: 'exit 0 at the top of the pre-commit hook',
    do: (sb) => {
      const f = sb.path('.git/hooks/pre-commit');
      sb.write({ '.git/hooks/pre-commit': sb.read('.git/hooks/pre-commit').replace('#!/bin/sh\n', '#!/bin/sh\nexit 0\n') });
      chmodSync(f, 0o755);
    },
    line: '.git/hooks/pre-commit: the pre-commit guard differs from what git kizu init writes; run `git kizu init --agent claude`',
    stop: false,
  },
  {
    name: 'core.hooksPath moved away from the guard',
    do: (sb) => {
      mkdirSync(sb.path('elsewhere'));
      sb.git('config', 'core.hooksPath', 'elsewhere');
    },
    line: (sb) => `.git/hooks/pre-commit: git runs the hooks in ${sb.path('elsewhere')} now (core.hooksPath), not the guard here; run \`git kizu init --agent claude\``,
    stop: false,
  },
];

test('after a plain init (project, local, user --pre-commit): no integrity finding in doctor, status or the prompt hook', () => {
  for (const args of [['init'], ['init', '--scope', 'local'], ['init', '--scope', 'user', '--pre-commit']]) {
    const sb = sandbox();
    ok(sb.kizu(args));
    assert.deepEqual(doctorInstall(sb), CLEAN_DOCTOR, args.join(' '));
    assert.deepEqual(statusInstall(sb), CLEAN_STATUS, args.join(' '));
    const r = prompt(sb);
    assert.equal(r.stdout, '', args.join(' '));
    assert.equal(r.stderr, '', args.join(' '));
  }
});

test('each tampering is a doctor finding and a status line naming the fix; the Stop line says when the Stop hook may not run', () => {
  for (const t of TAMPERINGS) {
    const sb = sandbox({ files: { 'a.js': 'a\n' } });
    ok(sb.kizu(['init']));
    t.do(sb);
    const line = typeof t.line === 'function' ? t.line(sb) : t.line;
    const [file, rest] = [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)];
    const fixAt = rest.lastIndexOf('; ');
    const fix = rest.slice(fixAt + 2).replace(/^run `(.*)`$/, '$1');
    const d = exits(sb.kizu(['doctor']), 1);
    assert.ok(d.stdout.includes(`fix  install: ${sb.path(file)}: ${rest.slice(0, fixAt)}; fix: ${fix}\n`), `${t.name}:\n${d.stdout}`);
    assert.deepEqual(statusInstall(sb), ['install   1 changed since git kizu init (review may be switched off):', `  ${line}`], t.name);
    // A scar: status says whether the Stop hook that should block on it may not run.
    sb.write({ 'a.js': '// @kizu[ask]: explain this change\na\n' });
    const last = sb.kizu(['status']).stdout.trimEnd().split('\n').at(-1);
    assert.equal(
      last,
      t.stop
        ? "not done: these must be resolved, but the agent's Stop hook may not run (see install above): it may stop without resolving them"
        : "not done: the agent's Stop hook blocks until these are resolved",
      t.name,
    );
    // The fix restores it (disableAllHooks is the user's edit).
    if (fix === 'git kizu init --agent claude') {
      if (t.name.startsWith('core.hooksPath')) sb.git('config', '--unset', 'core.hooksPath');
      ok(sb.kizu(['init']));
      assert.deepEqual(doctorInstall(sb), CLEAN_DOCTOR, `${t.name}, after the fix`);
    }
  }
});

test('status with something to resolve and no agent hook installed says so, not that the Stop hook blocks', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n' } });
  sb.write({ 'a.js': '// @kizu[ask]: explain this change\na\n' });
  const last = exits(sb.kizu(['status']), 1).stdout.trimEnd().split('\n').at(-1);
  assert.equal(last, "not done: these must be resolved, but no agent's Stop hook is installed here (git kizu init installs it)");
});

test('the prompt hook tells the user once per change, as a systemMessage, and again after another change', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  TAMPERINGS[0].do(sb);
  const first = prompt(sb);
  assert.equal(first.stderr, '');
  assert.deepEqual(JSON.parse(first.stdout), {
    systemMessage:
      "git-kizu: review may be switched off: 1 change to git-kizu's hooks since git kizu init: .claude/settings.json: git-kizu's Stop entry is missing or changed; run `git kizu init --agent claude`. git kizu doctor lists them; this is shown once per change.",
  });
  assert.equal(prompt(sb).stdout, '', 'told once');
  TAMPERINGS[1].do(sb);
  const again = JSON.parse(prompt(sb).stdout).systemMessage;
  assert.match(again, /^git-kizu: review may be switched off: 2 changes to git-kizu's hooks since git kizu init: .*disableAllHooks/);
  assert.equal(prompt(sb).stdout, '');
  // Restored, then the same change again: told again.
  ok(sb.kizu(['init']));
  sb.write({ '.claude/settings.local.json': '{}\n' });
  assert.equal(prompt(sb).stdout, '');
  TAMPERINGS[0].do(sb);
  assert.match(JSON.parse(prompt(sb).stdout).systemMessage, /Stop entry is missing/);
  // status and doctor always show it.
  assert.equal(statusInstall(sb).length, 2);
});

test('hook managers: an unchanged guard insertion gives no finding; the guard lines taken out are one', () => {
  const sb = sandbox({ files: { 'package.json': '{"name":"x","simple-git-hooks":{"pre-commit":"npm test"}}\n' } });
  ok(sb.kizu(['init']));
  assert.deepEqual(doctorInstall(sb), CLEAN_DOCTOR);
  sb.write({ 'package.json': '{"name":"x","simple-git-hooks":{"pre-commit":"npm test"}}\n' });
  assert.deepEqual(statusInstall(sb), [
    'install   1 changed since git kizu init (review may be switched off):',
    '  package.json: the git-kizu guard lines init added for simple-git-hooks are missing or changed; run `git kizu init --agent claude`',
  ]);
});

test('the other agents: Codex [features] hooks = false and Gemini hooksConfig.enabled = false are findings; their entries removed too', () => {
  const sb = sandbox();
  mkdirSync(sb.path('.codex'));
  mkdirSync(sb.path('.gemini'));
  ok(sb.kizu(['init', '--agent', 'claude,codex,gemini']));
  assert.deepEqual(doctorInstall(sb), CLEAN_DOCTOR);
  const codexHome = path.join(sb.home, '.codex');
  // Appended: init keeps its hooks' trust entries in that file too.
  appendFileSync(path.join(codexHome, 'config.toml'), '\n[features]\nhooks = false\n');
  const g = JSON.parse(sb.read('.gemini/settings.json'));
  sb.write({ '.gemini/settings.json': JSON.stringify({ ...g, hooksConfig: { enabled: false } }, null, 2) + '\n' });
  const lines = statusInstall(sb);
  assert.deepEqual(lines, [
    'install   2 changed since git kizu init (review may be switched off):',
    `  .gemini/settings.json: "hooksConfig.enabled": false switches off every Gemini CLI hook, git-kizu's too; remove that setting from ${sb.path('.gemini/settings.json')}`,
    `  ${path.join(codexHome, 'config.toml')}: [features] hooks = false switches off every Codex CLI hook, git-kizu's too; remove [features] hooks from ${path.join(codexHome, 'config.toml')}`,
  ]);
  // Gemini's Stop (AfterAgent) entry taken out: init writes it again.
  sb.write({ '.gemini/settings.json': JSON.stringify({ hooks: {} }, null, 2) + '\n' });
  assert.ok(
    statusInstall(sb).includes("  .gemini/settings.json: git-kizu's Gemini CLI hooks are not registered in it; run `git kizu init --agent claude,codex,gemini`"),
    statusInstall(sb).join('\n'),
  );
});

test('the guard refusal names what to do and does not teach the bypass', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  sb.write({ 'b.js': '// @kizu[ask]: explain this change\nb\n' });
  sb.git('add', 'b.js');
  const r = sb.run('git', ['commit', '-q', '-m', 'x']);
  assert.equal(r.status, 1);
  assert.ok(!r.stderr.includes('KIZU_SKIP'), r.stderr);
  assert.ok(!r.stderr.includes('--no-verify'), r.stderr);
  assert.match(r.stderr, /If a scar cannot be resolved, ask the human reviewer: only they decide to commit it anyway\.\n$/);
});
