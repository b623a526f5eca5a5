// `git kizu teardown` through the real bin: what it removes (only what is recognisably
// git-kizu's, with or without an install record), what it keeps (a /kizu command the user had
// or edited, a pre-commit hook that is not ours), and the /kizu command this repository ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { TEMPLATE_COMMAND, repoFiles } from '../helpers/install.mjs';

test('--no-pre-commit installs no git hook, and teardown leaves a hook that is not ours alone', () => {
  const sb = sandbox();
  const r = ok(sb.kizu(['init', '--no-pre-commit']));
  assert.ok(!r.stdout.includes('pre-commit'), r.stdout);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));
  writeFileSync(sb.path('.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  ok(sb.kizu(['teardown']));
  assert.equal(readFileSync(sb.path('.git/hooks/pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
  assert.ok(!existsSync(sb.path('.claude')));
});

test('teardown when nothing is installed says so and exits 0 (a committed /kizu command like ours is left alone)', () => {
  const sb = sandbox({ files: { '.claude/settings.json': '{"model": "x"}\n', '.claude/commands/kizu.md': TEMPLATE_COMMAND } });
  const before = repoFiles(sb.dir);
  const r = ok(sb.kizu(['teardown']));
  assert.equal(
    r.stdout,
    'nothing to tear down: git-kizu is not installed for --scope project here (no install record, hook scripts, settings entries or pre-commit hook found)\n',
  );
  assert.deepEqual(repoFiles(sb.dir), before);
});

test('teardown without an install record removes what is recognisably ours', () => {
  const sb = sandbox({ files: { '.claude/settings.json': '{\n  "model": "x"\n}\n' } });
  ok(sb.kizu(['init']));
  const recFile = sb.path('.git/kizu/install-project.json');
  writeFileSync(recFile, 'lost');
  ok(sb.kizu(['teardown']));
  assert.equal(sb.read('.claude/settings.json'), '{\n  "model": "x"\n}\n');
  assert.ok(!existsSync(sb.path('.claude/hooks/kizu-hook.sh')));
  assert.ok(!existsSync(sb.path('.claude/commands/kizu.md')));
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));
  assert.ok(!existsSync(sb.path('.git/kizu/git-kizu')), 'no install record left: the launcher is deleted');
});

test('a /kizu command edited after init is kept by teardown, with a warning', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']));
  writeFileSync(sb.path('.claude/commands/kizu.md'), TEMPLATE_COMMAND + '\nMy own note.\n');
  const r = ok(sb.kizu(['teardown']));
  assert.ok(
    r.stderr.includes(
      'git-kizu: warning: kept .claude/commands/kizu.md: it was modified after `git kizu init`; delete it yourself if you no longer want it\n',
    ),
    r.stderr,
  );
  assert.equal(sb.read('.claude/commands/kizu.md'), TEMPLATE_COMMAND + '\nMy own note.\n');
  assert.deepEqual(readdirSync(sb.path('.claude')), ['commands']);
});

test('a /kizu command the user already had is neither overwritten by init nor removed by teardown', () => {
  const sb = sandbox({ files: { '.claude/commands/kizu.md': 'my own /kizu\n' } });
  const r = ok(sb.kizu(['init']));
  assert.match(r.stderr, /warning: kept \.claude\/commands\/kizu\.md: it differs from git-kizu's \/kizu command/);
  assert.equal(sb.read('.claude/commands/kizu.md'), 'my own /kizu\n');
  ok(sb.kizu(['teardown']));
  assert.equal(sb.read('.claude/commands/kizu.md'), 'my own /kizu\n');
});

test('the shipped /kizu command is the template, and this repository registers no hooks', () => {
  assert.equal(readFileSync(path.join(ROOT, '.claude/commands/kizu.md'), 'utf8'), TEMPLATE_COMMAND);
  assert.match(TEMPLATE_COMMAND, /^---\ndescription: [^\n]+\nargument-hint: [^\n]+\nallowed-tools: Bash\(git kizu:\*\)[^\n]*\n---\n/);
  for (const s of ['git kizu scan --json', 'ask`: answer the question in your reply, then delete the scar line', 'reject`: undo that change, then delete the scar line', 'do what it says, then delete the scar line', 'git kizu unscar <path>:<line>']) {
    assert.ok(TEMPLATE_COMMAND.includes(s), s);
  }
  const settings = path.join(ROOT, '.claude/settings.json');
  if (existsSync(settings)) assert.equal(JSON.parse(readFileSync(settings, 'utf8')).hooks, undefined);
});

test('a repository that ships our /kizu command (like this one): init leaves it, teardown keeps it', () => {
  const sb = sandbox({ files: { '.claude/commands/kizu.md': TEMPLATE_COMMAND } });
  const r = ok(sb.kizu(['init', '--no-pre-commit']));
  assert.ok(r.stdout.includes('unchanged .claude/commands/kizu.md\n'), r.stdout);
  const t = ok(sb.kizu(['teardown']));
  assert.ok(t.stdout.includes('kept .claude/commands/kizu.md (it existed before init)\n'), t.stdout);
  assert.equal(sb.read('.claude/commands/kizu.md'), TEMPLATE_COMMAND);
  assert.deepEqual(readdirSync(sb.path('.claude')), ['commands']);
  assert.equal(sb.git('status', '--porcelain'), '');
});
