// git-kizu as a Claude Code plugin (plugin/, listed by the one-plugin marketplace at the
// repository root): the manifests pass the pinned client's `claude plugin validate`,
// plugin/hooks/hooks.json registers exactly what `git kizu init` registers in
// .claude/settings.json (derived from src/agents/claude/settings.ts kizuEntries through
// src/agents/claude/plugin.ts, so they cannot drift), and plugin/hooks/kizu-plugin-hook.sh runs
// git-kizu from PATH, or says in one stderr line what is missing, drains the payload and exits 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, sandbox, src } from '../helpers/sandbox.mjs';
import { CLAUDE_BIN, claudeEnv } from '../helpers/fake-anthropic.mjs';

const { kizuEntries } = await import(src('agents/claude/settings.ts'));
const { pluginHookCommand, pluginHooks, pluginInstallCommands, PLUGIN_NAME, MARKETPLACE_NAME, PLUGIN_DIR, PLUGIN_HOOK_SCRIPT } = await import(
  src('agents/claude/plugin.ts')
);

const readJson = (rel) => JSON.parse(readFileSync(path.join(ROOT, rel), 'utf8'));
const PLUGIN = path.join(ROOT, 'plugin');
const SCRIPT = path.join(PLUGIN, 'hooks', 'kizu-plugin-hook.sh');
const PAYLOAD = JSON.stringify({ hook_event_name: 'Stop', session_id: 's', filler: 'x'.repeat(200_000) });
const EVENTS = ['stop', 'post-tool-use', 'journal', 'user-prompt-submit', 'pre-tool-use'];

/** `claude plugin validate <args>` in the repository root, with a temp HOME and no traffic. */
function validate(args) {
  const sb = sandbox({ init: false });
  const r = spawnSync(CLAUDE_BIN, ['plugin', 'validate', ...args], {
    cwd: ROOT,
    env: claudeEnv(sb.env, 'http://127.0.0.1:9'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.ifError(r.error);
  return r;
}

/** A directory holding symlinks to the named commands (found on this PATH), and `extra` scripts. */
function binDir(sb, name, tools, extra = {}) {
  const dir = path.join(sb.base, name);
  mkdirSync(dir);
  for (const t of tools) {
    const which = spawnSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).stdout.trim();
    assert.ok(which, `${t} must be on PATH for this test`);
    symlinkSync(which, path.join(dir, t));
  }
  for (const [file, body] of Object.entries(extra)) {
    writeFileSync(path.join(dir, file), body);
    chmodSync(path.join(dir, file), 0o755);
  }
  return dir;
}

/**
 * Runs `sh -c '<cmd>; echo rest:; cat'` with PAYLOAD on stdin and PATH = `dirs`: the trailing
 * `cat` prints whatever of the payload the hook left unread. Returns {status, stdout, stderr}.
 */
function runHook(cmd, dirs, env = {}) {
  const r = spawnSync('/bin/sh', ['-c', `${cmd}; kizu_status=$?; echo rest:; cat; exit $kizu_status`], {
    input: PAYLOAD,
    env: { PATH: dirs.join(path.delimiter), CLAUDE_PLUGIN_ROOT: PLUGIN, ...env },
    encoding: 'utf8',
  });
  assert.ifError(r.error);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('claude plugin validate passes on the repository root (the marketplace) and on plugin/ (the plugin), also with --strict', () => {
  for (const [target, manifest] of [
    ['.', '.claude-plugin/marketplace.json'],
    ['plugin', 'plugin/.claude-plugin/plugin.json'],
  ]) {
    for (const args of [[target], ['--strict', target]]) {
      const r = validate(args);
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      const kind = manifest.endsWith('marketplace.json') ? 'marketplace' : 'plugin';
      assert.equal(r.stdout.split('\n')[0], `Validating ${kind} manifest: ${path.join(ROOT, manifest)}`);
      assert.equal(r.stdout.trimEnd().split('\n').at(-1), '✔ Validation passed');
    }
  }
});

test('claude plugin validate --json plugin: no errors or warnings; it provides the five hooks of kizuEntries and the /kizu command, nothing else', () => {
  const r = validate(['--json', 'plugin']);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.success, true);
  assert.deepEqual([report.manifest.errors, report.manifest.warnings], [[], []]);
  assert.deepEqual(
    report.provides.hooks,
    kizuEntries(pluginHookCommand).map((e) => ({
      event: e.event,
      ...(e.group.matcher ? { matcher: e.group.matcher } : {}),
      type: 'command',
      command: e.group.hooks[0].command,
    })),
  );
  assert.deepEqual(
    Object.entries(report.provides).filter(([, v]) => v.length > 0).map(([k]) => k),
    ['hooks', 'commands'],
  );
  assert.deepEqual(report.provides.commands, ['git-kizu:kizu']);
});

test('hooks/hooks.json registers exactly the events, matchers, timeouts and async flag of kizuEntries, each running the plugin hook script', () => {
  const file = readJson('plugin/hooks/hooks.json');
  assert.deepEqual(Object.keys(file), ['description', 'hooks']);
  assert.deepEqual(file.hooks, pluginHooks());
  // Spelled out once, so a change to kizuEntries shows here too.
  const cmd = (h) => `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/kizu-plugin-hook.sh" ${h}`;
  const editing = '^(Write|Edit|MultiEdit|NotebookEdit)$';
  assert.deepEqual(file.hooks, {
    Stop: [{ hooks: [{ type: 'command', command: cmd('stop'), timeout: 30 }] }],
    SubagentStop: [{ hooks: [{ type: 'command', command: cmd('stop'), timeout: 30 }] }],
    PostToolUse: [
      { matcher: editing, hooks: [{ type: 'command', command: cmd('post-tool-use'), timeout: 10 }] },
      { matcher: editing, hooks: [{ type: 'command', command: cmd('journal'), async: true, timeout: 30 }] },
    ],
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: cmd('user-prompt-submit'), timeout: 30 }] }],
    PreToolUse: [{ matcher: '^(Bash|Write|Edit|MultiEdit|NotebookEdit)$', hooks: [{ type: 'command', command: cmd('pre-tool-use'), timeout: 30 }] }],
  });
  assert.equal(PLUGIN_HOOK_SCRIPT, 'hooks/kizu-plugin-hook.sh');
  assert.ok(existsSync(path.join(ROOT, PLUGIN_DIR, PLUGIN_HOOK_SCRIPT)));
});

test('plugin.json and marketplace.json: names, the /kizu command a copy of .claude/commands/kizu.md, the marketplace lists plugin/', () => {
  const plugin = readJson('plugin/.claude-plugin/plugin.json');
  const market = readJson('.claude-plugin/marketplace.json');
  const pkg = readJson('package.json');
  assert.equal(plugin.name, PLUGIN_NAME);
  assert.equal(plugin.version, pkg.version);
  assert.equal(plugin.license, pkg.license);
  // Components in their default places: commands/, hooks/hooks.json (naming it again would load it twice).
  assert.deepEqual(Object.keys(plugin), ['name', 'version', 'description', 'author', 'license', 'keywords']);
  // The /kizu command is .claude/commands/kizu.md, copied by `npm run build` (the client loads
  // no symlinked command, and no path outside the plugin).
  const command = path.join(PLUGIN, 'commands', 'kizu.md');
  assert.equal(lstatSync(command).isFile(), true);
  assert.equal(
    readFileSync(command, 'utf8'),
    readFileSync(path.join(ROOT, '.claude', 'commands', 'kizu.md'), 'utf8'),
    'plugin/commands/kizu.md differs from .claude/commands/kizu.md: run `npm run build` and commit both',
  );
  // No package.json or lockfile in the plugin: the client would run npm ci in its copy.
  for (const f of ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb']) {
    assert.equal(existsSync(path.join(PLUGIN, f)), false, f);
  }
  assert.equal(market.name, MARKETPLACE_NAME);
  assert.deepEqual(
    market.plugins.map((p) => [p.name, p.source]),
    [[PLUGIN_NAME, `./${PLUGIN_DIR}`]],
  );
  // The npm package ships the marketplace and the plugin: `git kizu init --via plugin` adds the installed package's directory as the marketplace.
  assert.deepEqual(pkg.files, ['bin', 'dist', '!dist/.compile-cache', 'man/git-kizu.1', 'templates', '.claude/commands', '.claude-plugin', 'plugin']);
  // This repository's own settings hold no active hooks.
  const own = path.join(ROOT, '.claude', 'settings.json');
  assert.equal(existsSync(own) ? JSON.parse(readFileSync(own, 'utf8')).hooks : undefined, undefined);
});

test('pluginInstallCommands: marketplace add <source> (shell-quoted when needed), then install git-kizu@git-kizu', () => {
  assert.deepEqual(pluginInstallCommands('kizu-dev/git-kizu'), [
    'claude plugin marketplace add kizu-dev/git-kizu',
    'claude plugin install git-kizu@git-kizu',
  ]);
  assert.deepEqual(pluginInstallCommands('/home/a b/git-kizu'), [
    "claude plugin marketplace add '/home/a b/git-kizu'",
    'claude plugin install git-kizu@git-kizu',
  ]);
});

test('each hooks.json command runs `git-kizu hook <event>` from PATH with the payload on stdin', () => {
  const sb = sandbox({ init: false });
  // A git-kizu that prints its arguments and the payload's length.
  const bin = binDir(sb, 'bin-kizu', ['sh', 'node', 'cat', 'wc', 'tr'], {
    'git-kizu': '#!/bin/sh\nprintf "git-kizu %s; payload %s bytes\\n" "$*" "$(wc -c | tr -d " ")"\n',
  });
  const commands = Object.values(readJson('plugin/hooks/hooks.json').hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
  assert.equal(commands.length, 6);
  for (const cmd of commands) {
    const event = cmd.split(' ').at(-1);
    // CLAUDE_PLUGIN_ROOT as Claude Code expands it in the command line.
    const r = runHook(cmd.replace('${CLAUDE_PLUGIN_ROOT}', PLUGIN), [bin]);
    assert.deepEqual(r, { status: 0, stdout: `git-kizu hook ${event}; payload ${PAYLOAD.length} bytes\nrest:\n`, stderr: '' }, cmd);
  }
});

test('git-kizu missing from PATH: one stderr line naming the fix, exit 0 (the pre-tool gate: 2), the payload drained, for every event', () => {
  const sb = sandbox({ init: false });
  const tools = binDir(sb, 'bin-tools', ['node', 'cat', 'sh']);
  for (const event of EVENTS) {
    const label = { stop: 'Stop', 'post-tool-use': 'PostToolUse', journal: 'PostToolUse journal', 'user-prompt-submit': 'UserPromptSubmit', 'pre-tool-use': 'PreToolUse' }[event];
    const r = runHook(`sh "${SCRIPT}" ${event}`, [tools]);
    // The pre-tool gate fails closed: exit 2, the tool call refused.
    assert.deepEqual(
      r,
      event === 'pre-tool-use'
        ? {
            status: 2,
            stdout: 'rest:\n',
            stderr:
              'git-kizu: tool call refused: the pre-tool gate cannot run here: the git-kizu Claude Code plugin needs git-kizu and node on PATH; ' +
              "the human installs git-kizu (npm install -g git-kizu) where Claude Code's PATH finds it\n",
          }
        : {
            status: 0,
            stdout: 'rest:\n',
            stderr:
              `git-kizu: ${label} hook skipped: the git-kizu Claude Code plugin needs git-kizu and node on PATH; ` +
              "install git-kizu (npm install -g git-kizu) where Claude Code's PATH finds it\n",
          },
    );
  }
});

test('git-kizu on PATH but node missing: the same one line, exit 0, the payload drained', () => {
  const sb = sandbox({ init: false });
  const tools = binDir(sb, 'bin-no-node', ['cat', 'sh'], { 'git-kizu': '#!/bin/sh\necho ran\n' });
  const r = runHook(`sh "${SCRIPT}" stop`, [tools]);
  assert.deepEqual(r, {
    status: 0,
    stdout: 'rest:\n',
    stderr:
      "git-kizu: Stop hook skipped: the git-kizu Claude Code plugin needs git-kizu and node on PATH; install git-kizu (npm install -g git-kizu) where Claude Code's PATH finds it\n",
  });
});

test('an unknown event: one stderr line naming the fix, exit 0, the payload drained, git-kizu not run', () => {
  const sb = sandbox({ init: false });
  const tools = binDir(sb, 'bin-any', ['node', 'cat', 'sh'], { 'git-kizu': '#!/bin/sh\necho ran\n' });
  const r = runHook(`sh "${SCRIPT}" pre-tool-gate`, [tools]);
  assert.deepEqual(r, {
    status: 0,
    stdout: 'rest:\n',
    stderr:
      `git-kizu: hook skipped: ${SCRIPT} was run with "pre-tool-gate", expected stop, post-tool-use, journal, user-prompt-submit or pre-tool-use; ` +
      'reinstall the git-kizu plugin (claude plugin update git-kizu@git-kizu)\n',
  });
});
