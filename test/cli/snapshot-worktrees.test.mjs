// Snapshots, rollbacks and the hooks in other repository layouts, through the real bin: a
// working tree apart from its git dir (refused), one named by GIT_DIR/GIT_WORK_TREE (a
// dotfiles repository), linked worktrees (whose snapshots are whose, undo across them), and a
// moved repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';

test('a working tree apart from its git dir (core.worktree) is refused clearly by snapshot, the hook and hunks; nothing is written', () => {
  const sb = sandbox({ init: false });
  const tree = path.join(sb.base, 'tree');
  sb.git('init', '-q');
  sb.git('config', 'core.worktree', tree);
  sb.run('mkdir', ['-p', tree]);
  writeFileSync(path.join(tree, 'f'), 'f\n');
  sb.git('add', 'f');
  sb.git('commit', '-q', '-m', 'i');
  writeFileSync(path.join(tree, 'f'), 'f2\n');
  const msg = `git-kizu: error: the working tree ${tree} is apart from its git dir ${path.join(sb.dir, '.git')} (core.worktree): git kizu does not support this layout\nhint: git kizu needs the git dir at ${path.join(tree, '.git')} (a directory, or a .git file naming it, as in linked worktrees)\n`;
  for (const args of [['snapshot'], ['hunks'], ['tap', 'f:1']]) {
    const r = sb.kizu(args);
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', msg], args.join(' '));
  }
  const h = hook(sb, 'user-prompt-submit', { session_id: 's', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  assert.deepEqual([h.status, h.stdout], [0, '']);
  assert.equal(sb.git('for-each-ref', 'refs/kizu/'), '');
});

test('snapshots of a working tree named by GIT_DIR/GIT_WORK_TREE (a dotfiles repository), and with a relative GIT_DIR as a git hook passes it', () => {
  const sb = sandbox({ init: false });
  const repo = path.join(sb.base, 'dotfiles.git');
  const home = path.join(sb.base, 'tree');
  sb.git('init', '-q', '--bare', repo);
  sb.run('mkdir', ['-p', home]);
  const env = { GIT_DIR: repo, GIT_WORK_TREE: home };
  writeFileSync(path.join(home, '.bashrc'), 'a\n');
  sb.git('add', '.bashrc', { env, cwd: home });
  sb.git('commit', '-q', '-m', 'i', { env, cwd: home });
  writeFileSync(path.join(home, '.bashrc'), 'a\nb\n');
  const first = JSON.parse(ok(sb.kizu(['snapshot', '--json'], { env, cwd: home })).stdout);
  assert.equal(sb.git('cat-file', 'blob', `${first.id}:.bashrc`, { env, cwd: home }), 'a\nb\n');
  assert.equal(existsSync(path.join(repo, 'kizu', 'snapshot', 'index')), true, 'the store is in the named git dir');
  writeFileSync(path.join(home, '.bashrc'), 'changed\n');
  writeFileSync(path.join(home, 'new.txt'), 'n\n');
  ok(sb.kizu(['rollback', 'snapshot', first.name, '--yes'], { env, cwd: home }), 'rollback');
  assert.deepEqual(tree(home), { '.bashrc': { mode: '644', hex: Buffer.from('a\nb\n').toString('hex') } });
  ok(sb.kizu(['undo', '--yes'], { env, cwd: home }), 'undo');
  assert.equal(readFileSync(path.join(home, '.bashrc'), 'utf8'), 'changed\n');
  assert.equal(readFileSync(path.join(home, 'new.txt'), 'utf8'), 'n\n');

  // A git hook runs with GIT_DIR=.git (relative) in the top level: same repository.
  const sb2 = sandbox({ files: { 'a.txt': 'a\n' } });
  sb2.write({ 'u.txt': 'u\n' });
  const s2 = JSON.parse(ok(sb2.kizu(['snapshot', '--json'], { env: { GIT_DIR: '.git' } })).stdout);
  assert.deepEqual(sb2.git('ls-tree', '-r', '--name-only', s2.id).split('\n').filter(Boolean), ['a.txt', 'u.txt']);
});

test('snapshots of another worktree: listed with the worktree they come from; rollback refuses them without --other-worktree', () => {
  const sb = sandbox({ files: { 'a.txt': 'main\n' } });
  const wt = path.join(sb.base, 'linked');
  sb.git('worktree', 'add', '-q', wt);
  const wtReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', wt]).stdout.trim();
  const mainReal = sb.run('sh', ['-c', 'pwd -P'], {}).stdout.trim();
  sb.write({ 'a.txt': 'main changed\n' });
  const s = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'in main'])).stdout);
  const mine = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'in linked'], { cwd: wt })).stdout);

  const list = ok(sb.kizu(['snapshot', 'list'], { cwd: wt })).stdout.split('\n').filter(Boolean);
  assert.deepEqual(list, [
    `${mine.name}  manual  1 file  in linked`,
    `${s.name}  manual  1 file  [worktree ${mainReal}]  in main`,
  ]);
  const show = ok(sb.kizu(['snapshot', 'show', s.name], { cwd: wt })).stdout;
  assert.ok(show.includes(`\nworktree: ${mainReal} (another worktree of this repository)\n`), show);

  const before = tree(wt);
  const r = sb.kizu(['rollback', 'snapshot', s.name, '--yes'], { cwd: wt });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `git-kizu: error: snapshot ${s.name} was taken in another worktree (${mainReal}), not in this one (${wtReal})\n` +
      `hint: git kizu snapshot list shows where each snapshot was taken; to make this worktree equal to it anyway: git kizu rollback snapshot ${s.name} --other-worktree\n`,
  );
  assert.deepEqual(tree(wt), before, 'nothing changed');
  const dryRun = ok(sb.kizu(['rollback', 'snapshot', s.name, '--dry-run'], { cwd: wt }));
  assert.equal(
    dryRun.stderr,
    `git-kizu: warning: snapshot ${s.name} was taken in another worktree (${mainReal}), not in this one (${wtReal}): the rollback itself needs --other-worktree (git kizu rollback snapshot ${s.name} --other-worktree)\n`,
  );
  const dry = dryRun.stdout;
  const time = JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout).find((x) => x.name === s.name).time;
  assert.equal(dry.split('\n')[0], `rollback to snapshot ${s.name} (manual, ${time}, "in main", taken in worktree ${mainReal}):`);
  assert.equal(ok(sb.kizu(['rollback', 'snapshot', s.name, '--dry-run', '--other-worktree'], { cwd: wt })).stderr, '', 'no warning with --other-worktree');
  ok(sb.kizu(['rollback', 'snapshot', s.name, '--yes', '--other-worktree'], { cwd: wt }), 'rollback --other-worktree');
  assert.equal(readFileSync(path.join(wt, 'a.txt'), 'utf8'), 'main changed\n');
});

test('a moved repository keeps its snapshots as its own; a new worktree at an old worktree\'s path does not take them over', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\n' } });
  sb.write({ 'a.txt': 'two\n' });
  const s = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'before the move'])).stdout);
  const moved = path.join(sb.base, 'moved repo');
  renameSync(sb.dir, moved);
  const movedReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', moved], { cwd: moved }).stdout.trim();
  const oldReal = path.join(path.dirname(movedReal), 'repo');
  assert.deepEqual(ok(sb.kizu(['snapshot', 'list'], { cwd: moved })).stdout.split('\n').filter(Boolean), [`${s.name}  manual  1 file  before the move`]);
  const show = ok(sb.kizu(['snapshot', 'show', s.name], { cwd: moved })).stdout;
  assert.ok(show.includes(`\nworktree: ${oldReal} (this worktree, since moved to ${movedReal})\n`), show);
  writeFileSync(path.join(moved, 'a.txt'), 'three\n');
  ok(sb.kizu(['rollback', 'snapshot', s.name, '--yes'], { cwd: moved }), 'rollback in the moved repository');
  assert.equal(readFileSync(path.join(moved, 'a.txt'), 'utf8'), 'two\n');
  ok(sb.kizu(['undo', '--yes'], { cwd: moved }), 'undo in the moved repository');
  assert.equal(readFileSync(path.join(moved, 'a.txt'), 'utf8'), 'three\n');

  // A linked worktree removed and another added at the same path: the old one's snapshots
  // are not this one's.
  const wt = path.join(sb.base, 'linked');
  sb.git('worktree', 'add', '-q', '-b', 'w1', wt, { cwd: moved });
  const wtReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', wt], { cwd: moved }).stdout.trim();
  writeFileSync(path.join(wt, 'a.txt'), 'linked\n');
  const old = JSON.parse(ok(sb.kizu(['snapshot', '--json', '-m', 'old linked'], { cwd: wt })).stdout);
  sb.git('worktree', 'remove', '--force', wt, { cwd: moved });
  sb.git('worktree', 'add', '-q', '-b', 'w2', wt, { cwd: moved });
  const r = sb.kizu(['rollback', 'snapshot', old.name, '--yes'], { cwd: wt });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.split('\n')[0], `git-kizu: error: snapshot ${old.name} was taken in an earlier worktree at this path (${wtReal}), removed since; this one is a new worktree`);
  assert.equal(readFileSync(path.join(wt, 'a.txt'), 'utf8'), 'one\n');
});

test('undo of a rollback made in a linked worktree: restores there when it moved, refuses when it was removed or replaced (nothing changes here)', () => {
  const sb = sandbox({ files: { 'm.txt': 'main\n' } });
  const main = sb.dir;
  const mk = (name) => {
    const wt = path.join(sb.base, name);
    sb.git('worktree', 'add', '-q', '-b', name, wt);
    writeFileSync(path.join(wt, 'm.txt'), `${name} 1\n`);
    const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json'], { cwd: wt })).stdout);
    writeFileSync(path.join(wt, 'm.txt'), `${name} 2\n`);
    ok(sb.kizu(['rollback', 'snapshot', snap.name, '--yes'], { cwd: wt }), 'rollback');
    assert.equal(readFileSync(path.join(wt, 'm.txt'), 'utf8'), `${name} 1\n`);
    return wt;
  };
  // Moved: undo from the main worktree finds it by identity and restores there.
  const a = mk('wa');
  const moved = path.join(sb.base, 'wa-moved');
  sb.git('worktree', 'move', a, moved);
  writeFileSync(path.join(main, 'm.txt'), 'my work\n');
  const movedReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', moved]).stdout.trim();
  const u = ok(sb.kizu(['undo', '--yes']), 'undo').stdout;
  assert.ok(u.includes(`\nrestore the 1 path the rollback changed in ${movedReal} (another worktree: the rollback was made there) from safety snapshot `), u);
  assert.match(u, new RegExp(`\\(to redo: cd ${movedReal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} && git kizu rollback snapshot \\S+\\)\\n$`));
  assert.equal(readFileSync(path.join(moved, 'm.txt'), 'utf8'), 'wa 2\n');
  assert.equal(readFileSync(path.join(main, 'm.txt'), 'utf8'), 'my work\n');

  // Removed, then replaced by a new worktree at its path: refused, nothing changes.
  const b = mk('wb');
  const bReal = sb.run('sh', ['-c', 'cd "$1" && pwd -P', 'sh', b]).stdout.trim();
  sb.git('worktree', 'remove', '--force', b);
  const r = sb.kizu(['undo', '--yes']);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.split('\n')[0], `git-kizu: error: the rollback to undo was made in the worktree ${bReal}, which no longer exists`);
  assert.equal(readFileSync(path.join(main, 'm.txt'), 'utf8'), 'my work\n');
  sb.git('worktree', 'add', '-q', '-b', 'wb2', b);
  const r2 = sb.kizu(['undo', '--yes'], { cwd: b });
  assert.equal(r2.status, 1, r2.stderr);
  assert.equal(r2.stderr.split('\n')[0], `git-kizu: error: the rollback to undo was made in the worktree ${bReal}, which no longer exists (the worktree there now is a new one)`);
  assert.equal(readFileSync(path.join(b, 'm.txt'), 'utf8'), 'main\n');
});

test('hooks in a working tree named by GIT_DIR/GIT_WORK_TREE: Stop blocks on a scar, PostToolUse names it, UserPromptSubmit takes a snapshot', () => {
  const sb = sandbox({ init: false });
  const repo = path.join(sb.base, 'dotfiles.git');
  const home = path.join(sb.base, 'tree');
  sb.git('init', '-q', '--bare', repo);
  sb.run('mkdir', ['-p', path.join(home, 'sub')]);
  const env = { GIT_DIR: repo, GIT_WORK_TREE: home };
  writeFileSync(path.join(home, '.bashrc'), 'a\n');
  sb.git('add', '.bashrc', { env, cwd: home });
  sb.git('commit', '-q', '-m', 'i', { env, cwd: home });
  writeFileSync(path.join(home, '.bashrc'), 'a\n# @kizu[ask]: why?\nalias x=y\n');
  const stop = hook(sb, 'stop', { session_id: 's', cwd: path.join(home, 'sub'), hook_event_name: 'Stop', stop_hook_active: false }, { env, cwd: home });
  assert.equal(stop.status, 0, stop.stderr);
  assert.equal(JSON.parse(stop.stdout).decision, 'block');
  // Written by hand, not through git kizu: quoted as found data, still blocking (provenance).
  assert.match(JSON.parse(stop.stdout).reason, /- "\.bashrc":2 \[ask\] "why\?" \(in the working tree, not written through git kizu here\)/);
  const ptu = hook(sb, 'post-tool-use', { session_id: 's', cwd: home, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(home, '.bashrc') } }, { env, cwd: home });
  assert.match(JSON.parse(ptu.stdout).hookSpecificOutput.additionalContext, /"\.bashrc":2 \[ask\] "why\?"/);
  const ups = hook(sb, 'user-prompt-submit', { session_id: 's', transcript_path: '/dev/null', cwd: home, hook_event_name: 'UserPromptSubmit', prompt: 'go' }, { env, cwd: home });
  assert.deepEqual([ups.status, ups.stdout, ups.stderr], [0, '', '']);
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/', { env, cwd: home }).split('\n').filter(Boolean).length, 1);
});
