// Paths in git's quoted form are accepted where a path is an argument (`"tab\there.py":1`, as
// `git kizu hunks` prints it: src/git/quote.ts unquotePathArg), and error messages and hints
// quote every path as git does, so a tab or a newline in a name never reaches the terminal raw.
import { test } from 'node:test';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun, err, kizuOk } from '../helpers/expect.mjs';
import { hunksJson } from '../helpers/hunks.mjs';

const TAB = 'tab\there.py';
const NL = 'new\nline.py';
const UTF = 'été.py';
const Q = { [TAB]: '"tab\\there.py"', [NL]: '"new\\nline.py"', [UTF]: '"\\303\\251t\\303\\251.py"' };

function repo() {
  const sb = sandbox({ files: { 'a.py': 'a = 1\n' } });
  for (const n of [TAB, NL, UTF]) sb.write({ [n]: 'x = 1\ny = 2\n' });
  sb.git('add', '-A');
  return sb;
}

const idOf = (sb, p) => hunksJson(sb).find((h) => h.path === p).shortId;

test('tap, untap, reject and revert take a hunk as "<quoted path>":<line>, as git kizu hunks prints it', () => {
  const sb = repo();
  const listed = kizuOk(sb, ['hunks']).split('\n').filter(Boolean).map((l) => l.split('  ')[1]);
  assert.deepEqual(listed.sort(), [`${Q[TAB]}:1-2`, `${Q[NL]}:1-2`, `${Q[UTF]}:1-2`].sort());
  assert.equal(kizuOk(sb, ['tap', `${Q[TAB]}:1`]), `tapped ${idOf(sb, TAB)} ${Q[TAB]}:1-2\n`);
  assert.equal(kizuOk(sb, ['untap', `${Q[TAB]}:2`]), `untapped ${idOf(sb, TAB)} ${Q[TAB]}:1-2\n`);
  assert.equal(kizuOk(sb, ['reject', Q[UTF]]), `rejected ${idOf(sb, UTF)} ${Q[UTF]}:1-2\n`);
  const id = idOf(sb, NL);
  const r = sb.kizu(['revert', `${Q[NL]}:1`]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^reverted ${id}  "new\\\\nline\\.py":1-2`));
  assert.equal(r.stderr, '');
  assert.equal(r.stdout.split('\n')[1], `removed ${Q[NL]} from the index: the staged addition is undone`);
  assert.equal(existsSync(sb.path(NL)), false);
  assert.equal(sb.git('ls-files', '-z', '--', NL), '');
  // `hunks <path>` too.
  assert.equal(kizuOk(sb, ['hunks', Q[TAB]]).split('  ')[1], `${Q[TAB]}:1-2`);
});

test('a refusal names the spec and lists the candidate hunks with their paths quoted (no raw tab or newline)', () => {
  const sb = repo();
  const ids = Object.fromEntries([TAB, NL, UTF].map((p) => [p, idOf(sb, p)]));
  const r = sb.kizu(['tap', 'tab\there.py:9']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    err('no hunk matches "tab\\there.py:9" (the file may have changed since it was listed)', `current hunks in ${Q[TAB]} (git kizu hunks lists them all):\n  ${ids[TAB]}  ${Q[TAB]}:1-2`),
  );
  const all = sb.kizu(['tap', 'nothing.py:1']);
  assert.equal(all.status, 1);
  const lines = all.stderr.split('\n');
  assert.equal(lines[0], 'git-kizu: error: no hunk matches "nothing.py:1" (the file may have changed since it was listed)');
  assert.deepEqual(lines.slice(2, -1).sort(), [TAB, NL, UTF].map((p) => `  ${ids[p]}  ${Q[p]}:1-2`).sort());
  assert.equal(lines.length, 6, all.stderr);
});

test('scar, unscar and queue add --at take "<quoted path>":<line>; their refusals quote the path, and hints give a command that works', () => {
  const sb = repo();
  assert.equal(kizuOk(sb, ['scar', `${Q[TAB]}:2`]), `scarred ${Q[TAB]}:2  # @kizu[ask]: explain this change\n`);
  assert.equal(sb.read(TAB), 'x = 1\n# @kizu[ask]: explain this change\ny = 2\n');
  assert.equal(kizuOk(sb, ['unscar', `${Q[TAB]}:2`]), `removed ${Q[TAB]}:2  # @kizu[ask]: explain this change\n`);
  assert.match(kizuOk(sb, ['queue', 'add', '--at', `${Q[UTF]}:1`, 'look']), /^[0-9a-z]{4}\n$/);
  expectRun(sb, ['scar', `${Q[NL]}:9`], { status: 2, stderr: err(`${Q[NL]}:9: line is beyond the end of the file (it has 2 lines)`, 'use a line from 1 to 3') });
  expectRun(sb, ['unscar', `${Q[NL]}:1`], { status: 1, stderr: err(`${Q[NL]}:1: no scar on this line or directly above it`, 'use git kizu scan to list scars with their lines') });
  expectRun(sb, ['scar', 'tab\tmissing.py:1'], { status: 2, stderr: err('"tab\\tmissing.py": no such file', 'check the path (it is relative to the current directory)') });
  expectRun(sb, ['scar', 'tab\tx.py'], { status: 2, stderr: err('expected <path>:<line>, got "tab\\tx.py"', 'name the line, e.g. git kizu scar src/app.ts:42') });
  // A hint's command names the file in the quoted form, in single quotes: pasted, it works.
  sb.write({ 'bïn.py': Buffer.from('a\0b\n') });
  expectRun(sb, ['scar', 'bïn.py:1'], {
    status: 2,
    stderr: err('"b\\303\\257n.py": binary file (NUL byte in the first 8 KiB); scars go into text files', `queue the remark instead: git kizu queue add --at '"b\\303\\257n.py":1' "<text>"`),
  });
  const r = sb.run('sh', ['-c', `git kizu queue add --at '"b\\303\\257n.py":1' "look here"`]);
  assert.equal(r.status, 0, r.stderr);
});

test('a task worktree whose path holds a tab: messages quote it, and hints name it as <path> (not raw)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  kizuOk(sb, ['task', 'start', 'tabbed', '--worktree', 'wt\tx']);
  const wt = path.join(realpathSync(sb.dir), 'wt\tx');
  writeFileSync(path.join(wt, 'wip.txt'), 'wip\n');
  const q = `"${realpathSync(sb.dir)}/wt\\tx"`;
  expectRun(sb, ['task', 'land', 'tabbed'], {
    status: 1,
    stderr: err(
      `task "tabbed" has uncommitted changes in ${q} (1 file); they would not be landed`,
      `commit them there (git -C <path> (the path ${q}) add -A && git -C <path> (the path ${q}) commit), or remove them; then land again`,
    ),
  });
});
