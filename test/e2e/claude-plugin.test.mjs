// End-to-end: the review hooks from git-kizu's Claude Code PLUGIN (plugin/ in this repository),
// run by the REAL Claude Code client
// (node_modules/.bin/claude) against the scripted fake Anthropic API
// (test/helpers/fake-anthropic.mjs). The sandbox repo has no hook settings at all (no
// `git kizu init`, no .claude/settings.json): every hook run comes from hooks/hooks.json, whose
// commands run hooks/kizu-plugin-hook.sh, which runs the git-kizu on PATH (the sandbox's PATH
// entry links this worktree's bin/git-kizu.js as `git-kizu`).
//
// Scenario (a) installs the plugin as users do, in the sandbox's HOME: `claude plugin
// marketplace add <repository>` then `claude plugin install git-kizu@git-kizu` (the client copies
// plugin/ into ~/.claude/plugins/cache and enables it in ~/.claude/settings.json; from a local
// directory marketplace it then loads plugin/ in place, from a GitHub one the copy); the other
// test loads plugin/ with --plugin-dir, as the plugin's author does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, pathWithoutKizu, sandbox } from '../helpers/sandbox.mjs';
import { CLAUDE_ARGS, claudeSandboxEnv, requireClaude } from '../helpers/claude.mjs';
import { CLAUDE_BIN, editResult, hookRuns, lastAssistantText, newMessages, runAgainstFake, stopFeedback, text, toolUse } from '../helpers/fake-anthropic.mjs';
import { E2E_TEST_MS, E2E_RUN_MS } from '../helpers/fake-server.mjs';

const TEST_TIMEOUT = E2E_TEST_MS;
const CLAUDE_TIMEOUT = E2E_RUN_MS;

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
const EDITED = 'const a = 1;\nconst b = 20;\nconst c = 3;\n'; // the "agent" change, uncommitted
const SCAR = '// @kizu[ask]: explain this change';
const SCARRED = `const a = 1;\n${SCAR}\nconst b = 20;\nconst c = 3;\n`;
const SCAR_ENTRY = { path: 'src/app.js', line: 2, kind: 'ask', body: 'explain this change' };
const PLUGIN = path.join(ROOT, 'plugin');

/** The command of plugin/hooks/hooks.json's one hook of `event` running `<hook>` (as the client names it in hook feedback). */
function pluginCommand(event, hook) {
  const cmds = JSON.parse(readFileSync(path.join(PLUGIN, 'hooks', 'hooks.json'), 'utf8'))
    .hooks[event].flatMap((g) => g.hooks.map((h) => h.command))
    .filter((c) => c.endsWith(` ${hook}`));
  assert.equal(cmds.length, 1, `${event}: ${JSON.stringify(cmds)}`);
  return cmds[0];
}

/** A sandbox repo with src/app.js committed, then edited (uncommitted) and scarred; no hook settings. */
function scarredRepo() {
  requireClaude();
  const sb = sandbox({ files: { 'src/app.js': ORIGINAL } });
  sb.write({ 'src/app.js': EDITED });
  const scar = sb.kizu(['scar', 'src/app.js:2']);
  assert.equal(scar.status, 0, `git kizu scar failed:\n${scar.stdout}\n${scar.stderr}`);
  assert.equal(sb.read('src/app.js'), SCARRED);
  assertScan(sb, [SCAR_ENTRY]);
  assert.equal(existsSync(sb.path('.claude')), false, 'the sandbox repo has no .claude/ (no settings-file hooks)');
  return { sb, env: claudeSandboxEnv(sb), abs: sb.path('src/app.js') };
}

function assertScan(sb, expected) {
  const r = sb.kizu(['scan', '--json']);
  assert.equal(r.status, expected.length ? 1 : 0, `git kizu scan --json exit code (stderr: ${r.stderr})`);
  assert.deepEqual(JSON.parse(r.stdout), expected);
}

const VERSION = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/**
 * Installs the plugin for the sandbox's user as the README says (`claude plugin marketplace add
 * <repository>`, `claude plugin install git-kizu@git-kizu`), asserting each command's output,
 * the copy in the plugin cache (plugin/ only: no package.json, so the client runs no npm ci) and
 * the user settings it wrote.
 */
function installPlugin(sb, env) {
  const claude = (args) => {
    const r = spawnSync(CLAUDE_BIN, ['plugin', ...args], { cwd: sb.base, env, encoding: 'utf8', timeout: CLAUDE_TIMEOUT });
    assert.ifError(r.error);
    assert.equal(r.status, 0, `claude plugin ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  assert.equal(claude(['marketplace', 'add', ROOT]), 'Adding marketplace…✔ Successfully added marketplace: git-kizu (declared in user settings)\n');
  assert.equal(claude(['install', 'git-kizu@git-kizu']), 'Installing plugin "git-kizu@git-kizu"...✔ Successfully installed plugin: git-kizu@git-kizu (scope: user)\n');
  const copy = path.join(sb.home, '.claude', 'plugins', 'cache', 'git-kizu', 'git-kizu', VERSION);
  const files = spawnSync('find', ['.', '-type', 'f'], { cwd: copy, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
  assert.deepEqual(files, ['./.claude-plugin/plugin.json', './commands/kizu.md', './hooks/hooks.json', './hooks/kizu-plugin-hook.sh']);
  assert.equal(readFileSync(path.join(copy, 'commands', 'kizu.md'), 'utf8'), readFileSync(path.join(ROOT, '.claude', 'commands', 'kizu.md'), 'utf8'));
  const settings = JSON.parse(readFileSync(path.join(sb.home, '.claude', 'settings.json'), 'utf8'));
  assert.deepEqual(settings, {
    extraKnownMarketplaces: { 'git-kizu': { source: { source: 'directory', path: ROOT } } },
    enabledPlugins: { 'git-kizu@git-kizu': true },
  });
}

/** The client's init event names the git-kizu plugin (from `dir`, as `source`) and its /kizu command. */
function assertPluginLoaded(r, dir, source) {
  const init = r.events.find((e) => e.type === 'system' && e.subtype === 'init');
  assert.ok(init, 'no init event');
  assert.deepEqual(init.plugins.filter((p) => p.name === 'git-kizu'), [{ name: 'git-kizu', path: dir, source, version: VERSION }]);
  assert.ok(init.slash_commands.includes('git-kizu:kizu'), JSON.stringify(init.slash_commands));
}

test('plugin installed from the marketplace (a): a scar blocks the first stop with path:line and body; the agent deletes the scar line with Edit; the run ends', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  installPlugin(ctx.sb, ctx.env);
  const READ = toolUse('Read', { file_path: ctx.abs });
  const EDIT = toolUse('Edit', { file_path: ctx.abs, old_string: `${SCAR}\n`, new_string: '' });
  // Waits a second so the async journal hook of the Edit finishes before the run ends.
  const WAIT = toolUse('Bash', { command: 'sleep 1', description: 'wait' });
  const FINAL = 'b is 20 because the limit doubled; I removed the scar.';
  const { r, agent } = await runAgainstFake(t, {
    agent: ['done', [text('The change raises b from 2 to 20. Removing the scar now.'), READ], [EDIT], [WAIT], FINAL],
    prompt: 'Review the scars in this repository.',
    cwd: ctx.sb.dir,
    env: ctx.env,
    args: [...CLAUDE_ARGS, '--allowedTools', 'Bash(sleep:*)'],
    timeoutMs: CLAUDE_TIMEOUT,
  });
  // A directory marketplace's plugin is loaded from the directory itself.
  assertPluginLoaded(r, PLUGIN, 'git-kizu@git-kizu');
  assert.equal(agent.length, 5, 'agent-loop requests: done, (block) read, edit, wait, final');
  assert.equal(r.json.result, FINAL);
  assert.deepEqual(r.json.permission_denials, []);

  // The UserPromptSubmit hook ran once, silently, and took a snapshot.
  assert.deepEqual(hookRuns(r, 'UserPromptSubmit').map((h) => [h.hook_name, h.exit_code, h.stdout, h.stderr]), [['UserPromptSubmit', 0, '', '']]);
  const snaps = JSON.parse(ctx.sb.kizu(['snapshot', 'list', '--json']).stdout);
  assert.equal(snaps.length, 1, JSON.stringify(snaps));

  const stops = hookRuns(r, 'Stop');
  assert.equal(stops.length, 2, `stop hook runs: ${JSON.stringify(stops)}`);
  assert.deepEqual([stops[0].exit_code, stops[0].stderr], [0, '']);
  const out = JSON.parse(stops[0].stdout);
  assert.deepEqual(Object.keys(out), ['decision', 'reason']);
  assert.equal(out.decision, 'block');
  const reason = out.reason;
  assert.ok(reason.includes('- "src/app.js":2 [ask] explain this change'), reason);
  assert.deepEqual([...new Set(reason.match(/"[\w./-]+\.\w+":\d+/g))], ['"src/app.js":2'], reason);
  assert.ok(reason.includes('git kizu unscar'), reason);
  assert.deepEqual([stops[1].exit_code, stops[1].stdout, stops[1].stderr], [0, '', ''], 'second stop: no scars, nothing printed');

  // Request 1: right after the blocked stop, exactly the hook feedback, naming the plugin's command
  // as written in plugin/hooks/hooks.json (the client does not expand ${CLAUDE_PLUGIN_ROOT} there).
  assert.equal(lastAssistantText(agent[1].body), 'done');
  const stopCmd = pluginCommand('Stop', 'stop');
  assert.equal(stopCmd, 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/kizu-plugin-hook.sh" stop');
  assert.deepEqual(newMessages(agent[1]), stopFeedback(stopCmd, reason));

  // Request 2: the Read result shows the scar on line 2.
  assert.deepEqual(newMessages(agent[2]), [
    { role: 'user', content: [{ tool_use_id: READ.id, type: 'tool_result', content: `1\tconst a = 1;\n2\t${SCAR}\n3\tconst b = 20;\n4\tconst c = 3;\n5\t` }] },
  ]);
  // Request 3: the Edit went through; no scar is left, so the PostToolUse hook adds nothing.
  assert.deepEqual(newMessages(agent[3]), [{ role: 'user', content: [{ tool_use_id: EDIT.id, type: 'tool_result', content: editResult(ctx.abs) }] }]);
  // Request 4: the Bash wait; nothing else.
  const waited = newMessages(agent[4]);
  assert.equal(waited.length, 1, JSON.stringify(waited));
  assert.deepEqual(
    waited[0].content.map((b) => [b.type, b.tool_use_id, b.is_error]),
    [['tool_result', WAIT.id, false]],
  );

  // Two PostToolUse runs for the Edit (the review hook and the async journal hook), clean and silent.
  assert.deepEqual(
    hookRuns(r, 'PostToolUse').map((p) => [p.hook_name, p.exit_code, p.stdout, p.stderr]),
    [
      ['PostToolUse:Edit', 0, '', ''],
      ['PostToolUse:Edit', 0, '', ''],
    ],
  );
  const journal = JSON.parse(ctx.sb.kizu(['journal', '--json']).stdout);
  assert.deepEqual(
    journal.map((e) => [e.tool, e.session, e.toolUseId, e.files.map((f) => [f.path, f.added, f.removed])]),
    [['Edit', r.json.session_id, EDIT.id, [['src/app.js', 0, 1]]]],
  );

  assert.equal(ctx.sb.read('src/app.js'), EDITED);
  assertScan(ctx.sb, []);
  assert.equal(existsSync(ctx.sb.path('.claude')), false);
});

test('plugin loaded with --plugin-dir, without git-kizu on PATH: every hook says so in one stderr line and exits 0; the stop is not blocked', { timeout: TEST_TIMEOUT }, async (t) => {
  const ctx = scarredRepo();
  // Neither the sandbox's git-kizu nor one the tester installed (npm link) is on PATH.
  const env = { ...ctx.env, PATH: pathWithoutKizu(ctx.env.PATH.split(path.delimiter).filter((d) => d !== ctx.sb.binDir).join(path.delimiter)) };
  const { r, agent } = await runAgainstFake(t, {
    agent: ['done'],
    prompt: 'Review the scars in this repository.',
    cwd: ctx.sb.dir,
    env,
    args: [...CLAUDE_ARGS, '--plugin-dir', PLUGIN],
    timeoutMs: CLAUDE_TIMEOUT,
  });
  assertPluginLoaded(r, PLUGIN, 'git-kizu@inline');
  assert.equal(agent.length, 1, 'one agent-loop request, no block');
  assert.equal(r.json.result, 'done');
  const line = (label) =>
    `git-kizu: ${label} hook skipped: the git-kizu Claude Code plugin needs git-kizu and node on PATH; install git-kizu (npm install -g git-kizu) where Claude Code's PATH finds it\n`;
  assert.deepEqual(
    hookRuns(r).map((h) => [h.hook_name, h.exit_code, h.stdout, h.stderr]),
    [
      ['UserPromptSubmit', 0, '', line('UserPromptSubmit')],
      ['Stop', 0, '', line('Stop')],
    ],
  );
  assert.equal(ctx.sb.read('src/app.js'), SCARRED, 'the scar stays');
});
