// `git kizu init --agent` / `--via` / `teardown --agent`: which agents, the errors that name
// the fix and write nothing, and the plugin route for Claude Code. Each agent's own files are
// tested with its adapter (test/unit/agent-*.test.mjs) and on its real CLI (test/e2e/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sandbox, ROOT } from '../helpers/sandbox.mjs';
import { expectRun, err, ok } from '../helpers/expect.mjs';

/** Every path under the repository (but .git/objects, .git/logs and hooks samples), sorted. */
function tree(sb) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(sb.dir, p);
      if (/^\.git\/(objects|logs|hooks\/.*\.sample)/.test(rel)) continue;
      out.push(rel);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(sb.dir);
  return out.sort();
}

test('init refuses an unknown agent, an agent without --scope local, and --via plugin without claude: exit 2, the fix named, nothing written', () => {
  const sb = sandbox();
  const before = tree(sb);
  expectRun(sb, ['init', '--agent', 'claude,vim'], {
    status: 2,
    stderr: err('unknown agent "vim" in --agent claude,vim', 'name one or more of claude, codex, gemini, copilot, cursor, separated by commas (e.g. --agent claude,codex)'),
  });
  expectRun(sb, ['init', '--agent', 'codex,gemini', '--scope', 'local'], {
    status: 2,
    stderr: err("--scope local is Claude Code's settings.local.json; codex, gemini have no local scope", 'use --scope project (the repository\'s files) or --scope user (your home directory\'s) for codex, gemini'),
  });
  expectRun(sb, ['init', '--agent', 'codex', '--via', 'plugin'], {
    status: 2,
    stderr: err('--via plugin is how Claude Code gets its hooks, but claude is not among the agents', 'add claude to --agent (e.g. --agent claude --via plugin), or leave out --via'),
  });
  expectRun(sb, ['teardown', '--agent', 'nano'], {
    status: 2,
    stderr: err('unknown agent "nano" in --agent nano', 'name one or more of claude, codex, gemini, copilot, cursor, separated by commas (e.g. --agent claude,codex)'),
  });
  assert.deepEqual(tree(sb), before);
});

test('init --agent claude --via plugin writes no Claude Code settings, installs the guard and prints the two plugin commands', () => {
  const sb = sandbox();
  const r = ok(sb.kizu(['init', '--agent', 'claude', '--via', 'plugin']));
  assert.equal(r.stderr, '');
  assert.deepEqual(r.stdout.split('\n'), [
    'created .git/hooks/pre-commit',
    'Claude Code gets the hooks and /kizu from the git-kizu plugin; install it with:',
    `  claude plugin marketplace add ${ROOT}`,
    '  claude plugin install git-kizu@git-kizu',
    "The plugin's hooks run git-kizu from PATH (keep `npm install -g git-kizu` installed); restart Claude Code afterwards.",
    'next: scar a change with `git kizu scar path:line`; the agent has to resolve it before it stops (or run /kizu in Claude Code). Restart running Claude Code sessions to load the hooks.',
    '',
  ]);
  assert.equal(existsSync(sb.path('.claude')), false);
  ok(sb.kizu(['teardown']));
  assert.equal(existsSync(sb.path('.git/hooks/pre-commit')), false);
});

test('teardown --agent codex takes out only Codex: its files, its folders and the trust block in ~/.codex/config.toml; Claude Code and the guard stay until the last teardown', () => {
  const sb = sandbox();
  const before = tree(sb);
  ok(sb.kizu(['init', '--agent', 'claude,codex']));
  assert.equal(existsSync(sb.path('.codex/hooks.json')), true);
  assert.equal(existsSync(path.join(sb.home, '.codex', 'config.toml')), true);
  const r = ok(sb.kizu(['teardown', '--agent', 'codex']));
  assert.deepEqual(r.stdout.split('\n'), [
    'removed .codex/hooks.json',
    'removed ~/.codex/config.toml',
    'removed .codex/hooks/kizu-hook.sh',
    "removed git-kizu's hooks for Codex CLI (--scope project); the hooks for Claude Code and the pre-commit guard stay (`git kizu teardown` removes everything)",
    '',
  ]);
  assert.equal(existsSync(sb.path('.codex')), false);
  assert.equal(existsSync(path.join(sb.home, '.codex')), false);
  for (const f of ['.claude/settings.json', '.claude/hooks/kizu-hook.sh', '.claude/commands/kizu.md', '.git/hooks/pre-commit']) assert.equal(existsSync(sb.path(f)), true, f);
  ok(sb.kizu(['teardown']));
  assert.deepEqual(tree(sb), before);
});

test("init refuses to overwrite a user's file at a path git-kizu owns whole (a runner, Copilot's kizu.json): exit 2, nothing written", () => {
  const sb = sandbox();
  const mine = '{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"echo mine"}]}}\n';
  sb.write({ '.github/hooks/kizu.json': mine, '.codex/hooks/kizu-hook.sh': 'echo mine\n', '.gemini/hooks/kizu-hook.sh': 'echo mine\n', '.cursor/hooks/kizu-hook.sh': 'echo mine\n' });
  const before = tree(sb);
  const file = (rel) => sb.path(rel);
  for (const [agent, rel] of [['copilot', '.github/hooks/kizu.json'], ['codex', '.codex/hooks/kizu-hook.sh'], ['gemini', '.gemini/hooks/kizu-hook.sh'], ['cursor', '.cursor/hooks/kizu-hook.sh']]) {
    expectRun(sb, ['init', '--agent', agent], {
      status: 2,
      stderr: err(`${file(rel)} exists and is not git-kizu's: init --agent ${agent} would overwrite it`, `move it away (or merge what it does into another file), then run \`git kizu init --agent ${agent}\` again (nothing was written)`),
    });
  }
  assert.deepEqual(tree(sb), before);
  assert.equal(sb.read('.github/hooks/kizu.json'), mine);
});

test('init without --agent: the agents whose folder exists in the repository or the home directory (~/.codex, .gemini), else Claude Code alone', () => {
  const sb = sandbox();
  const r = ok(sb.kizu(['init', '--no-pre-commit']));
  assert.match(r.stdout, /^created \.claude\/settings\.json/m);
  ok(sb.kizu(['teardown']));
  execFileSync('mkdir', ['-p', path.join(sb.home, '.codex'), sb.path('.gemini')]);
  const both = ok(sb.kizu(['init', '--no-pre-commit']));
  assert.deepEqual(
    both.stdout.split('\n').filter((l) => /^created /.test(l)),
    ['created .codex/hooks/kizu-hook.sh', 'created .codex/hooks.json', 'created ~/.codex/config.toml', 'created .gemini/hooks/kizu-hook.sh', 'created .gemini/settings.json'],
  );
  assert.equal(existsSync(sb.path('.claude')), false);
});

test('teardown puts back the exact bytes of a shared hooks file that had an empty "hooks" object or event array before init', () => {
  const files = { '.codex/hooks.json': '{"hooks":{}}', '.gemini/settings.json': '{"hooks": {"AfterAgent": []}, "ui": {}}\n', '.cursor/hooks.json': '{\r\n\t"version": 1,\r\n\t"hooks": {}\r\n}\r\n' };
  const sb = sandbox({ files });
  ok(sb.kizu(['init', '--agent', 'codex,gemini,cursor', '--no-pre-commit']));
  for (const f of Object.keys(files)) assert.notEqual(sb.read(f), files[f], f);
  const r = ok(sb.kizu(['teardown']));
  assert.match(r.stdout, /^updated \.codex\/hooks\.json \(removed the git-kizu hooks\)$/m);
  for (const [f, text] of Object.entries(files)) assert.equal(sb.read(f), text, f);
  assert.equal(sb.git('status', '--porcelain'), '');
});

test('teardown --agent for an agent that is not installed says so and changes nothing; a file where a config folder should be is named as such', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--agent', 'claude']));
  const before = tree(sb);
  const r = ok(sb.kizu(['teardown', '--agent', 'codex']));
  assert.equal(r.stdout, "nothing to tear down: git-kizu's hooks for Codex CLI are not installed for --scope project here\n");
  assert.deepEqual(tree(sb), before);
  sb.write({ '.gemini': 'not a folder\n' });
  expectRun(sb, ['init', '--agent', 'gemini'], {
    status: 2,
    stderr: err(`cannot read ${sb.path('.gemini/settings.json')}: a folder on its path is a file`, 'move what stands in the way, then run the command again (nothing was changed)'),
  });
});

test('teardown without the install record deletes only what is recognisably git-kizu\'s: a runner or kizu.json of the user\'s stays', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--agent', 'codex,copilot', '--no-pre-commit']));
  rmSync(sb.path('.git/kizu/install-project.json'));
  const mine = '{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"echo mine"}]}}\n';
  sb.write({ '.codex/hooks/kizu-hook.sh': '#!/bin/sh\necho my own runner\n', '.github/hooks/kizu.json': mine });
  const r = ok(sb.kizu(['teardown']));
  assert.match(r.stderr, /kept \.codex\/hooks\/kizu-hook\.sh: it is not git-kizu's/);
  assert.match(r.stderr, /kept \.github\/hooks\/kizu\.json: it is not git-kizu's/);
  assert.equal(sb.read('.codex/hooks/kizu-hook.sh'), '#!/bin/sh\necho my own runner\n');
  assert.equal(sb.read('.github/hooks/kizu.json'), mine);
  assert.equal(existsSync(sb.path('.github/hooks/kizu-hook.sh')), false, 'the generated runner still goes');
});

test('teardown in the main worktree keeps the pre-commit guard that a linked worktree\'s install still uses', () => {
  const sb = sandbox();
  const wt = path.join(sb.base, 'wt');
  sb.git('worktree', 'add', '-q', wt, '-b', 'wt');
  ok(sb.kizu(['init', '--agent', 'codex']));
  ok(sb.kizu(['init', '--agent', 'codex'], { cwd: wt }));
  const r = ok(sb.kizu(['teardown']));
  assert.match(r.stdout, /^kept \.git\/hooks\/pre-commit \(still used by the --scope project install\)$/m);
  assert.equal(existsSync(sb.path('.git/hooks/pre-commit')), true);
  // (doctor exits 1 there: Codex's project trust is a step init only prints.)
  assert.match(sb.kizu(['doctor'], { cwd: wt }).stdout, /^ok {3}pre-commit guard: runs from /m);
  ok(sb.kizu(['teardown'], { cwd: wt }));
  assert.equal(existsSync(sb.path('.git/hooks/pre-commit')), false);
});
