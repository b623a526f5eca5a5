// `git kizu task land <name> --remove` never deletes an ignored file without a copy or a
// question: the worktree's ignored files (.env, build output) are saved in
// refs/kizu/trash/<name>/<time> first, and the output says how to get them back; ignored
// files over the save budget (snapshot.maxFileBytes) are deleted only after --yes or a "y"
// on a terminal; --dry-run says what would happen and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, kizuOk } from '../helpers/expect.mjs';
import { rev } from '../helpers/refs.mjs';
import { commit, sibling, state } from '../helpers/tasks.mjs';
import { promptTerminal } from '../helpers/terminal.mjs';

/** A repo with task `name` in its own worktree: one commit landed by fast-forward, and ignored files `ignored` (path → content) there. */
function taskWithIgnored(name, ignored, kizurc) {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.gitignore': '.env\n*.log\nbuild/\n', ...(kizurc ? { '.kizurc.json': kizurc } : {}) } });
  kizuOk(sb, ['task', 'start', name, '--worktree']);
  const wt = sibling(sb, name);
  const tip = commit(sb, wt, 'work', { 'b.txt': 'b\n' });
  for (const [rel, content] of Object.entries(ignored)) {
    mkdirSync(path.dirname(path.join(wt, rel)), { recursive: true });
    writeFileSync(path.join(wt, rel), content);
  }
  return { sb, wt, tip };
}

const trashRef = (sb, name) => sb.git('for-each-ref', '--format=%(refname)', `refs/kizu/trash/${name}/`).trim();

test('task land --remove saves the ignored files (.env, build output) before the worktree goes, and says how to get them back', () => {
  const { sb, wt, tip } = taskWithIgnored('e', { '.env': 'SECRET=1\n', 'build/out.js': 'x\n', 'debug.log': 'log\n' });
  const out = kizuOk(sb, ['task', 'land', 'e', '--remove']);
  const ref = trashRef(sb, 'e');
  assert.match(ref, /^refs\/kizu\/trash\/e\/\d{8}T\d{6}Z$/);
  assert.equal(
    out,
    `landed task e in main: fast-forward to ${tip.slice(0, 12)}\n` +
      `saved 3 ignored files of ${wt} in ${ref}: .env, build/out.js, debug.log\n` +
      `removed worktree ${wt} (with 3 ignored files and directories: .env, build/, debug.log)\n` +
      'deleted branch kizu/e and refs/kizu/tasks/e\n' +
      `get the ignored files back: git worktree add --detach ${wt} ${ref}\n`,
  );
  assert.equal(existsSync(wt), false);
  // The way back it prints brings every file back byte for byte.
  sb.git('worktree', 'add', '-q', '--detach', wt, ref);
  assert.deepEqual(
    ['.env', 'build/out.js', 'debug.log', 'b.txt'].map((f) => readFileSync(path.join(wt, f), 'utf8')),
    ['SECRET=1\n', 'x\n', 'log\n', 'b\n'],
  );
});

test('task land --remove without ignored files saves nothing and prints no way back', () => {
  const { sb, wt, tip } = taskWithIgnored('plain', {});
  expectRun(sb, ['task', 'land', 'plain', '--remove'], {
    status: 0,
    stdout: `landed task plain in main: fast-forward to ${tip.slice(0, 12)}\nremoved worktree ${wt}\ndeleted branch kizu/plain and refs/kizu/tasks/plain\n`,
  });
  assert.equal(trashRef(sb, 'plain'), '');
});

test('task land --remove with ignored files over the save budget: no terminal prints the plan and refuses (exit 1, nothing changed); --dry-run only tells; --yes deletes them and saves the rest', () => {
  const big = 'B'.repeat(40) + '\n';
  const { sb, wt, tip } = taskWithIgnored('b', { '.env': 'SECRET=1\n', 'build/big.bin': big, 'build/huge.bin': big + big }, '{"snapshot": {"maxFileBytes": 50}}\n');
  const before = state(sb);
  const wtBefore = state(sb, wt);
  const plan =
    'would land task b in main\n' +
    `would save 2 ignored files of ${wt} in refs/kizu/trash/b/<time>: .env, build/big.bin\n` +
    `would remove worktree ${wt}\n` +
    'would delete without a copy (over the 50-byte budget, snapshot.maxFileBytes): build/huge.bin\n' +
    'would delete branch kizu/b and refs/kizu/tasks/b\n';
  // The plan, then the refusal (README, Confirmation).
  expectRun(sb, ['task', 'land', 'b', '--remove'], {
    status: 1,
    stdout: plan,
    stderr: err(
      `not landing task "b" with --remove without confirmation: 1 ignored file in ${wt} is over the 50-byte budget, snapshot.maxFileBytes, so --remove would delete it without a copy (build/huge.bin); no terminal to ask on`,
      'check the plan above (git kizu task land b --remove --dry-run shows it again), then run git kizu task land b --remove --yes, or move those files out first',
    ),
  });
  assert.deepEqual(state(sb), before);
  assert.deepEqual(state(sb, wt), wtBefore);
  expectRun(sb, ['task', 'land', 'b', '--remove', '--dry-run'], { status: 0, stdout: plan });
  assert.deepEqual(state(sb), before);
  assert.deepEqual(state(sb, wt), wtBefore);
  const out = kizuOk(sb, ['task', 'land', 'b', '--remove', '--yes']);
  const ref = trashRef(sb, 'b');
  assert.equal(
    out,
    `landed task b in main: fast-forward to ${tip.slice(0, 12)}\n` +
      `saved 2 ignored files of ${wt} in ${ref}: .env, build/big.bin\n` +
      `removed worktree ${wt} (with 2 ignored files and directories: .env, build/)\n` +
      'deleted without a copy (over the save budget, snapshot.maxFileBytes): build/huge.bin\n' +
      'deleted branch kizu/b and refs/kizu/tasks/b\n' +
      `get the ignored files back: git worktree add --detach ${wt} ${ref}\n`,
  );
  assert.equal(sb.git('show', `${ref}:.env`), 'SECRET=1\n');
  assert.equal(sb.git('show', `${ref}:build/big.bin`), big);
  assert.equal(sb.git('ls-tree', '--name-only', ref, 'build/huge.bin'), '');
  assert.equal(rev(sb, 'HEAD'), tip);
});

test('task land --remove on a terminal shows the plan and asks before deleting ignored files over the budget: "n" changes nothing, "y" lands', async (t) => {
  const big = 'B'.repeat(80) + '\n';
  const { sb, wt, tip } = taskWithIgnored('q', { 'build/huge.bin': big }, '{"snapshot": {"maxFileBytes": 50}}\n');
  const before = state(sb);
  const no = promptTerminal(t, sb, ['task', 'land', 'q', '--remove']);
  await no.waitFor('[y/N]');
  no.answer('n');
  const lines = await no.done();
  assert.equal(lines[0], 'would land task q in main');
  assert.deepEqual(lines.slice(-2), ['cancelled: nothing changed', 'EXIT=0']);
  assert.deepEqual(state(sb), before);
  const yes = promptTerminal(t, sb, ['task', 'land', 'q', '--remove']);
  await yes.waitFor('[y/N]');
  yes.answer('y');
  const out = await yes.done();
  assert.equal(out[out.length - 1], 'EXIT=0');
  assert.equal(existsSync(wt), false);
  assert.equal(rev(sb, 'HEAD'), tip);
});
