// The one way in (bin -> src/main.ts): `hook <event>` runs the hook handlers without the CLI
// framework, every other command the commander program; what every command does when the
// current directory is gone or a command group is used without its subcommand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sandbox } from '../helpers/sandbox.mjs';

test('the prompt, edit, stop and pre-commit hooks load no CLI framework (commander); commands do; a config error is reported as one', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.kizurc.json': '{"snapshot":{"keep":0}}' } });
  // Which packages a process loads: a module resolve hook (node:module register) logs them.
  const log = path.join(sb.base, 'loaded.txt');
  const hooks = path.join(sb.base, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); const m = /\\/node_modules\\/([^/]+)\\//.exec(r.url); if (m) appendFileSync(${JSON.stringify(log)}, m[1] + '\\n'); return r; }\n`);
  const register = path.join(sb.base, 'register.mjs');
  // Synchronous hooks where Node has them (module.registerHooks): Node 26 deprecates module.register with a warning on stderr.
  writeFileSync(
    register,
    `import * as mod from 'node:module';\nimport { appendFileSync } from 'node:fs';\n` +
      `if (mod.registerHooks) mod.registerHooks({ resolve(s, c, next) { const r = next(s, c); const m = /\\/node_modules\\/([^/]+)\\//.exec(r.url); if (m) appendFileSync(${JSON.stringify(log)}, m[1] + '\\n'); return r; } });\n` +
      `else mod.register(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const env = { NODE_OPTIONS: `--import=${register}` };
  const commanderLoaded = () => {
    const l = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
    rmSync(log, { force: true });
    return l.includes('commander');
  };
  const r = sb.kizu(['snapshot'], { env });
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [2, '', `git-kizu: error: invalid config in ${sb.dir}/.kizurc.json:\n  - "snapshot.keep" must be an integer >= 1, got 0\nhint: fix the listed keys (see README "Config")\n`],
  );
  assert.equal(commanderLoaded(), true, 'a command runs through the commander program');

  rmSync(sb.path('.kizurc.json'));
  const payload = JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  const h = sb.kizu(['hook', 'user-prompt-submit'], { env, input: payload });
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, '', '']);
  assert.equal(commanderLoaded(), false, 'user-prompt-submit');
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/').split('\n').filter(Boolean).length, 1, 'the hook took a snapshot');
  const st = sb.kizu(['hook', 'stop'], { env, input: JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false }) });
  assert.deepEqual([st.status, st.stdout, st.stderr], [0, '', '']);
  assert.equal(commanderLoaded(), false, 'stop');
  const ptu = sb.kizu(['hook', 'post-tool-use'], {
    env,
    input: JSON.stringify({ session_id: 's', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: sb.path('a.txt') } }),
  });
  assert.deepEqual([ptu.status, ptu.stdout, ptu.stderr], [0, '', '']);
  assert.equal(commanderLoaded(), false, 'post-tool-use');
  const pc = sb.kizu(['hook', 'pre-commit'], { env });
  assert.equal(pc.status, 0, pc.stderr);
  assert.equal(commanderLoaded(), false, 'pre-commit');
});

test('a deleted current directory: commands exit 2 with one clear message, help and --version work, hooks exit 0 with one stderr line', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const gone = path.join(sb.base, 'gone');
  // git itself refuses to start in a deleted directory, so the bin is run directly.
  const inGone = (args, input = '') =>
    sb.run('sh', ['-c', `mkdir "$1" && cd "$1" && rmdir "$1" && shift && exec git-kizu "$@"`, 'sh', gone, ...args], { input });
  for (const cmd of [['hunks'], ['status'], ['snapshot'], ['tap', 'a.txt:1'], ['scan']]) {
    const r = inGone(cmd);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [2, '', 'git-kizu: the current directory no longer exists (it was deleted or moved)\nhint: cd into your repository and run the command again\n'],
      cmd.join(' '),
    );
  }
  const v = inGone(['--version']);
  assert.deepEqual([v.status, v.stdout.trim(), v.stderr], [0, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version, '']);
  const help = inGone(['help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: git kizu/);
  const h = inGone(['hook', 'stop'], '{}');
  assert.equal(h.status, 0);
  assert.equal(h.stdout, '');
  assert.equal(h.stderr.trim().split('\n').length, 1, h.stderr);
});

test('a command group without its subcommand, an unknown subcommand, or help for an unknown command: exit 2 with a message saying so', () => {
  const sb = sandbox();
  const cases = [
    [['rollback'], "git-kizu: error: git kizu rollback needs a subcommand: snapshot, branch, patch\nhint: git kizu rollback --help describes them\n"],
    [['queue'], 'git-kizu: error: git kizu queue needs a subcommand: add, list, done, reopen, rm, clear\nhint: git kizu queue --help describes them\n'],
    [['task', 'bogus'], "git-kizu: error: unknown command 'git kizu task bogus' (known: start, list, land)\nhint: git kizu task --help describes them\n"],
    [['help', 'bogus'], "git-kizu: error: unknown command 'bogus'\nhint: git kizu help lists the commands\n"],
    [['hook'], "git-kizu: error: missing required argument 'event'\n(run with --help for usage)\n"],
  ];
  for (const [args, stderr] of cases) {
    const r = sb.kizu(args);
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', stderr], args.join(' '));
  }
  const h = sb.kizu(['help', 'rollback']);
  assert.equal(h.status, 0);
  assert.match(h.stdout, /^Usage: git kizu rollback \[options\] \[command\]\n/);
  const hh = sb.kizu(['hook', '--help']);
  assert.deepEqual([hh.status, hh.stdout.split('\n')[0], hh.stderr], [0, 'Usage: git kizu hook [options] <event>', '']);
});
