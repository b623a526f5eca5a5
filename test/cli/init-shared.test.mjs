// What `git kizu init` / `teardown` leave in a repository a team shares: `--scope local`
// leaves `git status` clean (its working-tree files go into git's exclude file, which
// teardown restores byte for byte); a teammate's clone of a committed `.claude/` stays
// unchanged through init and teardown; symbolic links at the files init writes are replaced,
// never written through, and put back by teardown; the launcher goes with the last install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { EXCLUDED, LOCAL_HOOKS, PROJECT_HOOKS, TEMPLATE_COMMAND, lines, repoFiles } from '../helpers/install.mjs';

const status = (sb, cwd) => sb.git('status', '--porcelain', '--untracked-files=all', { cwd: cwd ?? sb.dir });

test('--scope local leaves git status clean; teardown leaves git\'s exclude file byte-identical', () => {
  // An exclude file without a final newline, and a user's own untracked file that stays listed.
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const exclude = sb.path('.git/info/exclude');
  writeFileSync(exclude, '# mine\n*.log');
  writeFileSync(sb.path('notes.txt'), 'n\n');
  const statusBefore = status(sb);
  assert.equal(statusBefore, '?? notes.txt\n');
  const before = repoFiles(sb.dir);

  const r = ok(sb.kizu(['init', '--scope', 'local']));
  assert.ok(lines(r.stdout).includes(EXCLUDED('.claude/settings.local.json, .claude/commands/kizu.md and .claude/review-queue.md')), r.stdout);
  assert.equal(status(sb), statusBefore);
  assert.equal(readFileSync(exclude, 'utf8'), '# mine\n*.log\n/.claude/settings.local.json\n/.claude/commands/kizu.md\n/.claude/review-queue.md\n');
  assert.deepEqual(JSON.parse(sb.read('.claude/settings.local.json')), { hooks: LOCAL_HOOKS(sb.path('.git/kizu/git-kizu')) });
  assert.equal(sb.read('.claude/commands/kizu.md'), TEMPLATE_COMMAND);

  // Idempotent: no second line.
  const again = ok(sb.kizu(['init', '--scope', 'local']));
  assert.ok(!again.stdout.includes('exclude'), again.stdout);
  assert.equal(readFileSync(exclude, 'utf8'), '# mine\n*.log\n/.claude/settings.local.json\n/.claude/commands/kizu.md\n/.claude/review-queue.md\n');

  const t = ok(sb.kizu(['teardown', '--scope', 'local']));
  assert.ok(lines(t.stdout).includes('updated .git/info/exclude (removed the lines git-kizu added)'), t.stdout);
  assert.equal(readFileSync(exclude, 'utf8'), '# mine\n*.log');
  assert.deepEqual(repoFiles(sb.dir), before);

  // A file git already ignores (here through .gitignore) gets no line; no exclude file (nor
  // info/): both created, then removed.
  const sb2 = sandbox({ files: { '.gitignore': '/.claude/settings.local.json\n' } });
  rmSync(sb2.path('.git/info'), { recursive: true });
  const before2 = repoFiles(sb2.dir);
  const r2 = ok(sb2.kizu(['init', '--scope', 'local', '--no-pre-commit']));
  assert.ok(lines(r2.stdout).includes(EXCLUDED('.claude/commands/kizu.md and .claude/review-queue.md', 'created')), r2.stdout);
  assert.equal(readFileSync(sb2.path('.git/info/exclude'), 'utf8'), '/.claude/commands/kizu.md\n/.claude/review-queue.md\n');
  assert.equal(status(sb2), '');
  const t2 = ok(sb2.kizu(['teardown', '--scope', 'local']));
  assert.ok(lines(t2.stdout).includes('removed .git/info/exclude'), t2.stdout);
  assert.deepEqual(repoFiles(sb2.dir), before2);
});

test('--scope local: the review queue queue add creates later is excluded too (git status clean); teardown takes the line out, the queue stays', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const exclude = sb.path('.git/info/exclude');
  const excludeBefore = readFileSync(exclude, 'utf8');
  ok(sb.kizu(['init', '--scope', 'local', '--no-pre-commit']));
  assert.equal(readFileSync(exclude, 'utf8'), excludeBefore + '/.claude/settings.local.json\n/.claude/commands/kizu.md\n/.claude/review-queue.md\n');
  const id = ok(sb.kizu(['queue', 'add', 'check the empty case'])).stdout.trim();
  assert.ok(sb.read('.claude/review-queue.md').endsWith(`- [ ] check the empty case <!-- kizu:${id} -->\n`));
  assert.equal(status(sb), '');
  ok(sb.kizu(['teardown', '--scope', 'local']));
  assert.equal(readFileSync(exclude, 'utf8'), excludeBefore);
  assert.equal(status(sb), '?? .claude/review-queue.md\n');
  // A queue git tracks already gets no line.
  sb.git('add', '.claude/review-queue.md');
  sb.git('commit', '-q', '-m', 'queue');
  const r = ok(sb.kizu(['init', '--scope', 'local', '--no-pre-commit']));
  assert.ok(lines(r.stdout).includes(EXCLUDED('.claude/settings.local.json and .claude/commands/kizu.md')), r.stdout);
  assert.equal(readFileSync(exclude, 'utf8'), excludeBefore + '/.claude/settings.local.json\n/.claude/commands/kizu.md\n');
});

test('project scope after local scope: the slash command local had excluded is no longer ignored, so it can be committed', () => {
  const sb = sandbox();
  const exclude = sb.path('.git/info/exclude');
  const excludeBefore = readFileSync(exclude, 'utf8');
  ok(sb.kizu(['init', '--scope', 'local', '--no-pre-commit']));
  const p = ok(sb.kizu(['init', '--no-pre-commit']));
  assert.ok(
    lines(p.stdout).includes(
      'updated .git/info/exclude (git no longer ignores .claude/commands/kizu.md, which the --scope local install had excluded: project scope shares it, commit it)',
    ),
    p.stdout,
  );
  assert.equal(readFileSync(exclude, 'utf8'), excludeBefore + '/.claude/settings.local.json\n/.claude/review-queue.md\n');
  assert.equal(status(sb), '?? .claude/commands/kizu.md\n?? .claude/hooks/kizu-hook.sh\n?? .claude/settings.json\n');
  ok(sb.kizu(['teardown', '--scope', 'local']));
  ok(sb.kizu(['teardown']));
  assert.equal(readFileSync(exclude, 'utf8'), excludeBefore);
  assert.equal(status(sb), '');
});

test('a teammate\'s clone of a committed .claude/: init and teardown change no tracked byte; the launcher goes with the last install', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  ok(sb.kizu(['init']));
  sb.git('add', '-A');
  sb.git('commit', '-q', '-m', 'git-kizu hooks for the team');
  const clone = path.join(sb.base, 'clone');
  sb.git('clone', '-q', sb.dir, clone);
  const i = ok(sb.kizu(['init'], { cwd: clone }));
  assert.deepEqual(lines(i.stdout).slice(0, 2), ['unchanged .claude/hooks/kizu-hook.sh', 'unchanged .claude/commands/kizu.md']);
  assert.ok(existsSync(path.join(clone, '.git/kizu/git-kizu')));
  assert.equal(status(sb, clone), '');
  const t = ok(sb.kizu(['teardown'], { cwd: clone }));
  assert.ok(lines(t.stdout).includes('kept .claude/hooks/kizu-hook.sh (.claude/settings.json still runs it)'), t.stdout);
  assert.equal(status(sb, clone), '');
  assert.ok(!existsSync(path.join(clone, '.git/kizu/git-kizu')), 'no install record left: the launcher is deleted');
});

test('symbolic links at the settings file, the slash command, the runner and the exclude file: replaced, targets untouched, restored by teardown', () => {
  const sb = sandbox({ files: { 'shared/settings.json': '{\n  "model": "x"\n}\n', 'shared/runner.sh': '#!/bin/sh\n# Generated by git-kizu (old)\n' } });
  mkdirSync(sb.path('.claude/commands'), { recursive: true });
  mkdirSync(sb.path('.claude/hooks'));
  const links = {
    '.claude/settings.json': '../shared/settings.json',
    '.claude/commands/kizu.md': '../../shared/kizu.md', // leads to nothing
    '.claude/hooks/kizu-hook.sh': '../../shared/runner.sh',
  };
  for (const [at, to] of Object.entries(links)) symlinkSync(to, sb.path(at));
  const before = repoFiles(sb.dir);
  const r = ok(sb.kizu(['init', '--no-pre-commit']));
  assert.deepEqual(lines(r.stdout).slice(0, 3), [
    'updated .claude/hooks/kizu-hook.sh (the symbolic link to ../../shared/runner.sh)',
    'created .claude/commands/kizu.md (the symbolic link to ../../shared/kizu.md)',
    'updated .claude/settings.json (added hooks: Stop, SubagentStop, PostToolUse, UserPromptSubmit, PreToolUse) (the symbolic link to ../shared/settings.json)',
  ]);
  for (const at of Object.keys(links)) assert.ok(lstatSync(sb.path(at)).isFile(), `${at} is a regular file now`);
  assert.equal(sb.read('shared/settings.json'), '{\n  "model": "x"\n}\n');
  assert.equal(sb.read('shared/runner.sh'), '#!/bin/sh\n# Generated by git-kizu (old)\n');
  assert.ok(!existsSync(sb.path('shared/kizu.md')));
  assert.deepEqual(JSON.parse(sb.read('.claude/settings.json')), { model: 'x', hooks: PROJECT_HOOKS() });
  ok(sb.kizu(['init', '--no-pre-commit']), 'init 2');

  const t = ok(sb.kizu(['teardown']));
  assert.deepEqual(lines(t.stdout).slice(0, 3), [
    'restored .claude/hooks/kizu-hook.sh (the symbolic link to ../../shared/runner.sh)',
    'restored .claude/settings.json (the symbolic link to ../shared/settings.json)',
    'restored .claude/commands/kizu.md (the symbolic link to ../../shared/kizu.md)',
  ]);
  for (const [at, to] of Object.entries(links)) assert.equal(readlinkSync(sb.path(at)), to, at);
  assert.deepEqual(repoFiles(sb.dir), before);

  // The exclude file of a local install.
  const sb2 = sandbox();
  const exclude = sb2.path('.git/info/exclude');
  const text = readFileSync(exclude, 'utf8');
  writeFileSync(sb2.path('.git/my-exclude'), text);
  rmSync(exclude);
  symlinkSync('../my-exclude', exclude);
  const before2 = repoFiles(sb2.dir);
  ok(sb2.kizu(['init', '--scope', 'local', '--no-pre-commit']));
  assert.ok(lstatSync(exclude).isFile());
  assert.equal(readFileSync(sb2.path('.git/my-exclude'), 'utf8'), text);
  assert.equal(status(sb2), '');
  ok(sb2.kizu(['teardown', '--scope', 'local']));
  assert.equal(readlinkSync(exclude), '../my-exclude');
  assert.deepEqual(repoFiles(sb2.dir), before2);
});

test('the launcher stays while any install record of the clone is left', () => {
  const sb = sandbox();
  const launcher = sb.path('.git/kizu/git-kizu');
  ok(sb.kizu(['init', '--no-pre-commit']));
  ok(sb.kizu(['init', '--scope', 'local', '--no-pre-commit']));
  ok(sb.kizu(['teardown']));
  assert.ok(existsSync(launcher));
  ok(sb.kizu(['teardown', '--scope', 'local']));
  assert.ok(!existsSync(launcher));
  assert.ok(!existsSync(sb.path('.git/kizu')));
});
