// Issue 22, round 2: ways the agent makes git (or git-kizu's own limits) hide a change or a
// scar, through the real bin in real repos: a scarred file padded past scan.maxFileBytes, a
// scar committed since the baseline, attributes that make git drop bytes, ignore rules that
// hide new files. Each is reviewed, or named and holding the stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { BIN, hook, sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { stopPayload } from '../helpers/hooks.mjs';

test('a scarred file padded past scan.maxFileBytes: its scar is still found (line rule) by scan, the Stop hook and the guard', () => {
  const sb = sandbox({ files: { 'big.js': 'a;\n' } });
  // 5 MiB of padding after the scar (the default limit is 4 MiB).
  const pad = `${'x'.repeat(1023)}\n`.repeat(5 * 1024);
  sb.write({ 'big.js': `a;\n// @kizu[ask]: why?\n${pad}// @kizu[free]: tail\n` });
  const found = `big.js:2  [ask]  why?\nbig.js:${5 * 1024 + 3}  [free]  tail\n`;
  expectRun(sb, ['scan'], { status: 1, stdout: found });
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  assert.match(stop.reason, /- "big\.js":2 \[ask\] why\?/);
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: found });
  const pc = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(pc.status, 1, pc.stderr);
  assert.match(pc.stderr, /"big\.js":2  \[ask\]  why\?\n/);
});

test('a scar committed since the baseline (past the guard) stays in the default scope: scan and the Stop hook find it', () => {
  const sb = sandbox({ files: { 'a.js': 'a;\n' } });
  assert.equal(sb.kizu(['baseline', 'set']).status, 0);
  sb.write({ 'a.js': 'a;\n// @kizu[ask]: committed past the guard\n' });
  sb.git('commit', '-q', '--no-verify', '-am', 'sneak');
  expectRun(sb, ['scan'], { status: 1, stdout: 'a.js:2  [ask]  committed past the guard\n' });
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  assert.match(stop.reason, /- "a\.js":2 \[ask\] committed past the guard/);
});

const ignoredLine = (p, rule) => `${p} is hidden by the ignore rule ${rule}, which the baseline does not hold, so git status does not list it; git-kizu reviews it anyway; restore: take the rule out (or commit it to keep it)`;

test('a .gitignore that ignores itself and a new file: git status shows nothing; hunks lists both as untracked, scan and the Stop hook find the scar, every command names the rule', () => {
  const sb = sandbox({ files: { 'a.js': 'a;\n' } });
  sb.write({ 'evil.js': 'x;\n// @kizu[ask]: hidden by an ignore rule\n', '.gitignore': 'evil.js\n.gitignore\n' });
  assert.equal(sb.git('status', '--porcelain'), '');
  const lines = [ignoredLine('.gitignore', '.gitignore:2: .gitignore'), ignoredLine('evil.js', '.gitignore:1: evil.js')];
  const hunks = sb.kizu(['hunks']);
  assert.equal(hunks.stderr, lines.map((l) => `git-kizu: warning: hidden change: ${l}\n`).join(''));
  assert.match(hunks.stdout, /^[0-9a-f]{8} {2}\.gitignore:1-2 {2}\+2 -0 {2}untracked\n[0-9a-f]{8} {2}evil\.js:1-2 {2}\+2 -0 {2}untracked\n$/);
  expectRun(sb, ['scan'], { status: 1, stdout: 'evil.js:2  [ask]  hidden by an ignore rule\n', stderr: lines.map((l) => `git-kizu: warning: hidden change: ${l}\n`).join('') });
  const status = sb.kizu(['status']);
  assert.ok(status.stdout.includes(lines.map((l) => `hidden change: ${l}\n`).join('')), status.stdout);
  const doctor = sb.kizu(['doctor']);
  assert.ok(doctor.stdout.includes('fix  hidden changes: evil.js is hidden by the ignore rule .gitignore:1: evil.js, which the baseline does not hold, so git status does not list it; fix: take the rule .gitignore:1: evil.js out, or commit it to keep it\n'), doctor.stdout);
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  // (labelled as found: the test helper vouches only for the scars of files git lists)
  assert.match(stop.reason, /- "evil\.js":2 \[ask\] "hidden by an ignore rule"/);
  assert.ok(stop.systemMessage.startsWith(`git-kizu: 2 files git does not show by a rule:\n  ${lines[0]}\n  ${lines[1]}\n`), stop.systemMessage);
  // Committed, the rule is the baseline's: nothing more is named.
  sb.git('add', '-f', '.gitignore');
  sb.git('commit', '-q', '--no-verify', '-m', 'ignore');
  expectRun(sb, ['scan'], { status: 0, stdout: '' });
});

test('an ignore rule not in the baseline that hides a directory of more than 1000 files: named, and it holds the stop', () => {
  const sb = sandbox({ files: { '.gitignore': 'node_modules/\n' } });
  const many = {};
  for (let i = 0; i < 1001; i++) many[`gen/f${i}.js`] = `${i};\n`;
  sb.write({ ...many, '.gitignore': 'node_modules/\ngen/\n' });
  const line = 'gen/ is hidden by the ignore rule .gitignore:2: gen/, which the baseline does not hold, so git status does not list it and git-kizu does not review the files under it (too many); the stop is held until the rule is taken out or committed';
  const status = sb.kizu(['status']);
  assert.equal(status.status, 1);
  assert.ok(status.stdout.includes(`hidden change: ${line}\n`), status.stdout);
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.deepEqual(stop, {
    decision: 'block',
    reason: 'git-kizu: an ignore rule that the human has not reviewed hides gen/ (.gitignore:2: gen/), too many files to review one by one. Take the rule out, or commit the .gitignore that holds it (so the human sees it), before you stop.',
    systemMessage: `git-kizu: a file git does not show by a rule:\n  ${line}`,
  });
});

test('attributes that make git drop bytes: ident ($Id: ... $ collapsed) and a configured clean filter; git diff shows nothing, git-kizu names both and finds the filtered scar', () => {
  const sb = sandbox({ files: { '.gitattributes': '*.js ident\n*.txt filter=strip\n', 'a.js': 'a;\n// $Id$\n', 'b.txt': 'keep\n' } });
  sb.git('config', 'filter.strip.clean', 'grep -v SECRET');
  sb.git('config', 'filter.strip.smudge', 'cat');
  sb.write({ 'a.js': 'a;\n// $Id: evil(); $\n', 'b.txt': 'keep\n# @kizu[ask]: filtered SECRET\n' });
  assert.equal(sb.git('diff', 'HEAD'), '');
  const lines = [
    'a.js has the attribute ident (set in .gitattributes), so git diff does not show text inside $Id: ... $; git-kizu scans its bytes anyway; restore: take the attribute out',
    'b.txt has the attribute filter=strip (set in .gitattributes), so git diff shows what that clean filter makes of it, not its bytes; git-kizu scans its bytes anyway; restore: take the attribute out, or git config --unset filter.strip.clean',
  ];
  const warned = lines.map((l) => `git-kizu: warning: hidden change: ${l}\n`).join('');
  expectRun(sb, ['scan'], { status: 1, stdout: 'b.txt:2  [ask]  filtered SECRET\n', stderr: warned });
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${sb.git('rev-parse', 'HEAD').trim()}\n`, stderr: warned });
  const doctor = sb.kizu(['doctor']);
  assert.ok(doctor.stdout.includes('fix  hidden changes: a.js has the attribute ident (set in .gitattributes), so git diff does not show all of its bytes; fix: take the ident attribute out\n'), doctor.stdout);
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  assert.match(stop.reason, /- "b\.txt":2 \[ask\] filtered SECRET/);
  assert.equal(stop.systemMessage, `git-kizu: 2 files git does not show by a rule:\n  ${lines[0]}\n  ${lines[1]}`);
  // What git writes into $Id$ itself (a blob id) is not a finding; nor is git-lfs's filter.
  sb.write({ 'b.txt': 'keep\n' });
  rmIdent(sb);
  sb.git('config', 'filter.strip.clean', 'git-lfs clean -- %f');
  expectRun(sb, ['scan'], { status: 0, stdout: '' });
});

function rmIdent(sb) {
  // A fresh checkout writes `$Id: <blob id> $`.
  rmSync(sb.path('a.js'));
  sb.git('checkout', '--', 'a.js');
  assert.match(sb.read('a.js'), /^a;\n\/\/ \$Id: [0-9a-f]{40} \$\n$/);
}

test('a scar in a file git stores through working-tree-encoding=UTF-16: git diff shows it as text, scan and the Stop hook find it in the UTF-16 bytes', () => {
  const sb = sandbox({ files: { '.gitattributes': '*.ps1 text working-tree-encoding=UTF-16\n', 'a.ps1': Buffer.from('\ufeffx\n', 'utf16le') } });
  sb.write({ 'a.ps1': Buffer.from('\ufeffx\n# @kizu[ask]: in UTF-16\n', 'utf16le') });
  assert.match(sb.git('diff', 'HEAD'), /\+# @kizu\[ask\]: in UTF-16/);
  expectRun(sb, ['scan'], { status: 1, stdout: 'a.ps1:2  [ask]  in UTF-16\n' });
  const be = Buffer.from('\ufeffx\n# @kizu[ask]: big-endian\n', 'utf16le').swap16();
  sb.write({ 'a.ps1': be });
  expectRun(sb, ['scan'], { status: 1, stdout: 'a.ps1:2  [ask]  big-endian\n' });
  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
});
