// Paths mean the same thing in every command run from a subdirectory; clear messages for
// short ids, missing paths, and scars that record a revert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { sandbox, hook } from './helpers.mjs';

test('tap/reject/untap resolve path:line relative to the current directory, like revert and scar', () => {
  const sb = sandbox({ files: { 'src/app.ts': 'a;\nb;\nc;\n' } });
  sb.write({ 'src/app.ts': 'a;\nB;\nc;\n' });
  const cwd = path.join(sb.dir, 'src');
  const r = sb.kizu(['tap', 'app.ts:2'], { cwd });
  assert.equal(r.status, 0, r.stderr);
  const [h] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  assert.equal(r.stdout, `tapped ${h.shortId} src/app.ts:2\n`);
  assert.equal(h.mark, 'tapped');
  assert.equal(sb.kizu(['reject', 'app.ts:2'], { cwd }).status, 0);
  assert.equal(JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0].mark, 'rejected');
  assert.equal(sb.kizu(['untap', 'app.ts:2'], { cwd }).status, 0);
  assert.equal(JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0].mark, 'unreviewed');
});

test('a hunk id shorter than 4 hex digits gets its own message (exit 1)', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n' } });
  sb.write({ 'a.js': 'b\n' });
  const r = sb.kizu(['tap', '9']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^git-kizu: error: "9" is too short for a hunk id: use at least 4 hex digits\n/);
});

test('hunks with a path that names nothing: exit 2; a deleted file is still a valid path', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n', 'gone.js': 'g\n' } });
  const r = sb.kizu(['hunks', 'nothere']);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'git-kizu: error: no such path in the working tree or the baseline: nothere\nhint: paths are relative to the current directory\n');
  sb.run('rm', ['gone.js']);
  const d = sb.kizu(['hunks', '--json', 'gone.js']);
  assert.equal(d.status, 0, d.stderr);
  assert.deepEqual(JSON.parse(d.stdout).map((h) => [h.range, h.kind]), [['gone.js (deleted file)', 'deleted']]);
});

test('a scar left by revert -m tells the agent the change is already undone', () => {
  const sb = sandbox({ files: { 'a.js': 'one;\ntwo;\n' } });
  sb.write({ 'a.js': 'one;\nTWO;\n' });
  assert.equal(sb.kizu(['revert', 'a.js:2', '-m', 'keep the old name']).status, 0);
  const r = hook(sb, 'stop', { session_id: 's', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false });
  assert.match(
    JSON.parse(r.stdout).reason,
    /\n- a\.js:2 \[reject\] reverted: keep the old name → the reviewer already reverted this change: do not redo it; take the reason into account, then delete the scar line\n/,
  );
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
  assert.deepEqual([v.status, v.stdout.trim(), v.stderr], [0, JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version, '']);
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
  ];
  for (const [args, stderr] of cases) {
    const r = sb.kizu(args);
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', stderr], args.join(' '));
  }
  const h = sb.kizu(['help', 'rollback']);
  assert.equal(h.status, 0);
  assert.match(h.stdout, /^Usage: git kizu rollback \[options\] \[command\]\n/);
});
