// `git kizu completion bash|zsh` and `completion --ids`: the scripts run in the real shells,
// bash with git's own completion (/usr/share/bash-completion/completions/git) and zsh with its
// own `_git` (compinit, a pseudo-terminal, TAB), against a repository with real hunks,
// snapshots and tasks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { expectRun, err, kizuOk } from '../helpers/expect.mjs';
import { hunksJson } from '../helpers/hunks.mjs';
import { bashComplete, zshComplete } from '../helpers/completion.mjs';

/** A repository with two hunks (in two files), two snapshots and one task. */
function reviewRepo() {
  const sb = sandbox({ files: { 'a.txt': 'one\ntwo\n', 'b.txt': 'three\n' } });
  kizuOk(sb, ['task', 'start', 'fix-it', '--worktree']);
  sb.write({ 'a.txt': 'one\nTWO\n', 'b.txt': 'three\nfour\n' });
  const snaps = [JSON.parse(kizuOk(sb, ['snapshot', '-m', 'first', '--json'])).name];
  sb.write({ 'b.txt': 'three\nfour\nfive\n' });
  snaps.push(JSON.parse(kizuOk(sb, ['snapshot', '-m', 'second', '--json'])).name);
  const hunks = hunksJson(sb).map((h) => h.shortId);
  assert.equal(hunks.length, 2);
  assert.ok(hunks.every((id) => /^[0-9a-f]{8}$/.test(id)), hunks.join(' '));
  return { sb, hunks, snaps: snaps.reverse() }; // snapshot list: newest first
}

/** The commands, options and option choices of the commander program, by command path. */
function programShape(sb) {
  const r = sb.runModule(`
    const { buildProgram } = await import(${JSON.stringify(src('cli/program.ts'))});
    const shape = {};
    const walk = (cmd, p) => {
      shape[p] = { subs: cmd.commands.map((c) => c.name()), opts: cmd.options.filter((o) => !o.hidden).flatMap((o) => [o.long, o.short].filter(Boolean)) };
      for (const c of cmd.commands) walk(c, p ? p + ' ' + c.name() : c.name());
    };
    walk(buildProgram(() => {}), '');
    process.stdout.write(JSON.stringify(shape));`);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const spaced = (xs) => xs.map((x) => `${x} `);

test('bash: commands, options, option values, hunk ids, snapshot names and task names, through git\'s own completion', () => {
  const { sb, hunks, snaps } = reviewRepo();
  const got = bashComplete(sb, [
    ['git', 'kizu', 'ta'],
    ['git', 'kizu', 'tap', ''],
    ['git', 'kizu', 'tap', hunks[0], ''],
    ['git', 'kizu', 'tap', hunks[1].slice(0, 3)],
    ['git', 'kizu', 'revert', ''],
    ['git', 'kizu', 'snapshot', 'show', ''],
    ['git', 'kizu', 'rollback', 'snapshot', ''],
    ['git', 'kizu', 'rollback', 'snapshot', snaps[0], ''],
    ['git', 'kizu', 'task', 'land', ''],
    ['git', 'kizu', 'scar', '--k'],
    ['git', 'kizu', 'scar', '--kind', ''],
    ['git', 'kizu', 'scar', '-k', 'r'],
    ['git', 'kizu', 'scar', '--kind=f'],
    ['git', 'kizu', 'rollback', 'snapshot', '--'],
    ['git', 'kizu', 'rollback', ''],
    ['git', 'kizu', 'help', 'sn'],
    ['git', 'kizu', 'completion', ''],
    ['git', 'kizu', 'scar', ''],
    ['git', 'kizu', 'queue', 'add', 'done', ''],
  ]);
  assert.deepEqual(got, [
    ['tap ', 'task '],
    spaced(hunks),
    spaced(hunks),
    spaced(hunks.filter((h) => h.startsWith(hunks[1].slice(0, 3)))),
    spaced(hunks),
    spaced(snaps),
    spaced(snaps),
    [], // rollback snapshot takes one id
    ['fix-it '],
    ['--kind '],
    ['ask ', 'reject ', 'free '],
    ['reject '],
    ['free '],
    spaced(['--dry-run', '--yes', '--json', '--other-worktree', '--help']),
    ['snapshot ', 'branch ', 'patch '],
    ['snapshot '],
    ['bash ', 'zsh '],
    [], // a path: bash's default completion (file names) takes over
    [], // queue add's text: `done` is an argument, not the subcommand
  ]);
});

test('bash: `git -C <dir> kizu` lists the ids of that repository; outside a repository, none and no noise', () => {
  const { sb, hunks } = reviewRepo();
  const outside = sandbox({ init: false });
  assert.deepEqual(bashComplete(sb, [['git', '-C', sb.dir, 'kizu', 'untap', '']], { cwd: outside.dir }), [spaced(hunks)]);
  assert.deepEqual(bashComplete(outside, [['git', 'kizu', 'tap', ''], ['git', 'kizu', 'snapshot', 'drop', '']]), [[], []]);
});

test('bash: `git-kizu` itself completes without git\'s helpers (no trailing space added by us)', () => {
  const { sb, snaps } = reviewRepo();
  assert.deepEqual(bashComplete(sb, [['git-kizu', 'sn'], ['git-kizu', 'snapshot', 'drop', ''], ['git-kizu', 'init', '--scope', '']]), [
    ['snapshot'],
    snaps,
    ['project', 'local', 'user'],
  ]);
});

test('bash: every command, subcommand and option of the commander program is offered, and nothing else', () => {
  const sb = sandbox();
  const shape = programShape(sb);
  const paths = Object.keys(shape);
  assert.ok(paths.includes('snapshot show') && paths.includes('rollback branch'), paths.join(', '));
  const cases = [];
  for (const p of paths) {
    const words = ['git', 'kizu', ...(p ? p.split(' ') : [])];
    if (shape[p].subs.length) cases.push([...words, '']);
    cases.push([...words, '-']);
  }
  const got = bashComplete(sb, cases);
  let k = 0;
  for (const p of paths) {
    if (shape[p].subs.length) assert.deepEqual(got[k++], spaced([...shape[p].subs, ...(p ? [] : ['help'])]), `subcommands of '${p}'`);
    const opts = shape[p].opts.filter((o) => o.startsWith('-'));
    assert.deepEqual(got[k++], spaced([...opts, '--help', '-h']), `options of '${p}'`);
  }
});

test('zsh: `_git-kizu` on fpath: zsh\'s _git lists kizu and hands `git kizu` to it; `git-kizu` completes too', () => {
  const { sb, hunks, snaps } = reviewRepo();
  const got = zshComplete(sb, 'fpath', [
    'git ki',
    'git kizu ta',
    'git kizu tap ',
    'git kizu snapshot show ',
    'git kizu task land ',
    'git kizu scar --kind ',
    'git kizu rollback snapshot --o',
    'git-kizu queue ',
  ]);
  assert.ok(got[0].includes('kizu'), got[0].join(' '));
  assert.deepEqual(got.slice(1), [
    ['tap', 'task'],
    [...hunks].sort(),
    [...snaps].sort(),
    ['fix-it'],
    ['ask', 'free', 'reject'],
    ['--other-worktree'],
    ['add', 'clear', 'done', 'list', 'reopen', 'rm'],
  ]);
});

test('zsh: sourced after compinit, the same completions, and kizu among git\'s commands', () => {
  const { sb, hunks } = reviewRepo();
  const got = zshComplete(sb, 'source', ['git ki', 'git kizu unt', 'git kizu untap ', 'git-kizu snapshot ']);
  assert.ok(got[0].includes('kizu'), got[0].join(' '));
  assert.deepEqual(got.slice(1), [['untap'], [...hunks].sort(), ['drop', 'list', 'show']]);
});

test('the program\'s --color completes always, never, auto (as `--color <when>` and `--color=<when>`, before and after a command), in bash and zsh', () => {
  const { sb } = reviewRepo();
  const whens = ['always', 'never', 'auto'];
  assert.deepEqual(
    bashComplete(sb, [
      ['git', 'kizu', '--color', ''],
      ['git', 'kizu', '--color='],
      ['git', 'kizu', '--color=n'],
      ['git', 'kizu', 'status', '--color', ''],
      ['git', 'kizu', 'scar', '--color='],
      ['git', 'kizu', '--color', 'never', 'ta'],
      ['git', 'kizu', '--color', 'ta'], // a bare --color: the next word is the command
      ['git', 'kizu', '--color', 'never', 'scar', '--kind', ''],
      ['git-kizu', '--color', ''],
    ]),
    [spaced(whens), spaced(whens), ['never '], spaced(whens), spaced(whens), ['tap ', 'task '], ['tap ', 'task '], ['ask ', 'reject ', 'free '], whens],
  );
  assert.deepEqual(zshComplete(sb, 'fpath', ['git kizu --color ', 'git kizu --color=', 'git kizu status --color=a', 'git kizu --color ta', 'git-kizu --color never ta']), [
    ['always', 'auto', 'never'],
    ['always', 'auto', 'never'],
    ['always', 'auto'],
    ['tap', 'task'],
    ['tap', 'task'],
  ]);
  // What completion offers runs: `--color never` is the value, not a command.
  assert.match(kizuOk(sb, ['--color', 'never', 'hunks']), /^[0-9a-f]{8}  a\.txt:2  \+1 -1  modified\n/);
  assert.match(kizuOk(sb, ['hunks', '--color', 'always']), /^\x1b\[1m[0-9a-f]{8}/);
});

test('completion --ids lists what the other commands print; a shell is required; unknown ones are refused (exit 2)', () => {
  const { sb, hunks, snaps } = reviewRepo();
  expectRun(sb, ['completion', '--ids', 'hunks'], { status: 0, stdout: hunks.map((h) => `${h}\n`).join('') });
  expectRun(sb, ['completion', '--ids', 'snapshots'], { status: 0, stdout: snaps.map((s) => `${s}\n`).join('') });
  expectRun(sb, ['completion', '--ids', 'tasks'], { status: 0, stdout: 'fix-it\n' });
  expectRun(sb, ['completion'], { status: 2, stderr: err('git kizu completion needs a shell: bash or zsh', 'run git kizu completion bash or git kizu completion zsh') });
  expectRun(sb, ['completion', 'fish'], {
    status: 2,
    stderr: "git-kizu: error: command-argument value 'fish' is invalid for argument 'shell'. Allowed choices are bash, zsh.\n(run with --help for usage)\n",
  });
  const bash = kizuOk(sb, ['completion', 'bash']);
  assert.match(bash, /^_git_kizu\(\) \{$/m);
  assert.match(kizuOk(sb, ['completion', 'zsh']), /^#compdef git-kizu\n/);
});

test('ID_ARGUMENTS names only commands of the program that take arguments', () => {
  const sb = sandbox({ init: false });
  const r = sb.runModule(`
    const { buildProgram } = await import(${JSON.stringify(src('cli/program.ts'))});
    const { ID_ARGUMENTS, completionTree } = await import(${JSON.stringify(src('cli/completion.ts'))});
    const tree = completionTree(buildProgram(() => {}));
    const bad = Object.keys(ID_ARGUMENTS).filter((p) => tree.find((n) => n.path === p)?.args.kind !== ID_ARGUMENTS[p]);
    process.stdout.write(JSON.stringify({ bad, n: Object.keys(ID_ARGUMENTS).length }));`);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { bad: [], n: 9 });
});
