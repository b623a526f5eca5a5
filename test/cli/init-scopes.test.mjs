// `git kizu init --scope local|user` and `git kizu teardown --scope ...` through the real
// bin: where each scope writes, scopes sharing the scripts, and the scopes outside a git
// repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { ADDED, EXCLUDED, LOCAL_HOOKS, NEXT, PROJECT_HOOKS, TEMPLATE_COMMAND, UNINSTALLED, expectedHooks, lines, mode, repoFiles } from '../helpers/install.mjs';

test('--scope local: settings.local.json running the launcher, no runner in the working tree, project settings untouched', () => {
  const sb = sandbox({ files: { '.claude/settings.json': '{\n  "model": "x"\n}\n' } });
  const r = ok(sb.kizu(['init', '--scope', 'local']));
  assert.deepEqual(lines(r.stdout), [
    'created .claude/commands/kizu.md',
    EXCLUDED('.claude/settings.local.json, .claude/commands/kizu.md and .claude/review-queue.md'),
    'created .git/hooks/pre-commit',
    'created .claude/settings.local.json ' + ADDED,
    NEXT,
  ]);
  assert.equal(sb.read('.claude/settings.json'), '{\n  "model": "x"\n}\n');
  assert.deepEqual(JSON.parse(sb.read('.claude/settings.local.json')), { hooks: LOCAL_HOOKS(sb.path('.git/kizu/git-kizu')) });
  assert.ok(!existsSync(sb.path('.claude/hooks')));
  ok(sb.kizu(['teardown', '--scope', 'local']));
  assert.deepEqual(readdirSync(sb.path('.claude')), ['settings.json']);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));
});

test('project and local installs share the slash command and the launcher: tearing one down keeps what the other still uses', () => {
  const sb = sandbox();
  const before = repoFiles(sb.dir);
  ok(sb.kizu(['init']));
  const l = ok(sb.kizu(['init', '--scope', 'local']));
  assert.ok(l.stdout.includes('unchanged .git/hooks/pre-commit\n'), l.stdout);
  const t = ok(sb.kizu(['teardown']));
  assert.deepEqual(lines(t.stdout), [
    'removed .claude/hooks/kizu-hook.sh',
    'removed .claude/settings.json',
    'kept .claude/commands/kizu.md (still used by the --scope local install)',
    'kept .git/hooks/pre-commit (still used by the --scope local install)',
    UNINSTALLED('project'),
  ]);
  assert.ok(existsSync(sb.path('.claude/settings.local.json')));
  assert.ok(existsSync(sb.path('.git/kizu/git-kizu')), 'the launcher stays for the local install');
  ok(sb.kizu(['teardown', '--scope', 'local']));
  assert.deepEqual(repoFiles(sb.dir), before);
});

test('--scope user: the script, settings and /kizu under $HOME/.claude with absolute commands', () => {
  const sb = sandbox();
  const home = sb.home;
  const r = ok(sb.kizu(['init', '--scope', 'user']));
  assert.deepEqual(lines(r.stdout), [
    'created ~/.claude/hooks/kizu-hook.sh',
    'created ~/.claude/commands/kizu.md',
    'created ~/.claude/settings.json ' + ADDED,
    NEXT,
  ]);
  const script = path.join(home, '.claude/hooks/kizu-hook.sh');
  assert.equal(mode(script), 0o755);
  assert.equal(
    readFileSync(path.join(home, '.claude/settings.json'), 'utf8'),
    JSON.stringify({ hooks: expectedHooks(`${script} stop`, `${script} post-tool-use`, `${script} journal`, `${script} user-prompt-submit`) }, null, 2) + '\n',
  );
  assert.equal(readFileSync(path.join(home, '.claude/commands/kizu.md'), 'utf8'), TEMPLATE_COMMAND);
  assert.ok(existsSync(path.join(home, '.claude/kizu/install-user.json')));
  assert.ok(!existsSync(sb.path('.claude')));

  // The installed script really runs the stop handler (here through PATH).
  const h = sb.run(script, ['stop'], { input: 'not json' });
  assert.equal(h.status, 0);
  assert.equal(h.stdout, '');
  assert.match(h.stderr, /^git-kizu: ignored a bad hook payload: [^\n]*\n$/);

  const t = ok(sb.kizu(['teardown', '--scope', 'user']));
  assert.deepEqual(lines(t.stdout), [
    'removed ~/.claude/hooks/kizu-hook.sh',
    'removed ~/.claude/settings.json',
    'removed ~/.claude/commands/kizu.md',
    UNINSTALLED('user'),
  ]);
  assert.deepEqual(readdirSync(home), ['.gitconfig']);
});

test('--scope user --pre-commit outside a git repository installs for Claude Code and skips the git hook', () => {
  const sb = sandbox({ init: false });
  const r = ok(sb.kizu(['init', '--scope', 'user', '--pre-commit']));
  assert.ok(
    r.stdout.includes(`skipped the git pre-commit hook: ${sb.dir} is not in a git repository (run \`git kizu init --scope user\` inside one to add it there)\n`),
    r.stdout,
  );
  assert.ok(existsSync(path.join(sb.home, '.claude/settings.json')));
  ok(sb.kizu(['teardown', '--scope', 'user']));
  assert.deepEqual(readdirSync(sb.home), ['.gitconfig']);
});

test('project or local scope outside a git repository: exit 2, nothing written', () => {
  const sb = sandbox({ init: false });
  for (const args of [['init'], ['init', '--scope', 'local'], ['teardown']]) {
    const r = sb.kizu(args);
    assert.equal(r.status, 2, args.join(' '));
    const scope = args[2] ?? 'project';
    assert.equal(
      r.stderr,
      `git-kizu: error: --scope ${scope} needs a git repository, and ${sb.dir} is not inside a git working tree\n` +
        'hint: run it inside the repository you want to review (git init creates one), or use --scope user to install for every project\n',
    );
    assert.deepEqual(readdirSync(sb.dir), []);
  }
});
