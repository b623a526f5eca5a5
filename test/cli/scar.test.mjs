// `git kizu scar` and `git kizu scar --undo` through the real bin in real temp repos: exact
// file bytes, stdout, stderr and exit codes; concurrent scars on one file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, chmodSync, symlinkSync, mkdirSync, writeFileSync, readFileSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun } from '../helpers/expect.mjs';
import { bytes } from '../helpers/files.mjs';
import { ASK, REJECT, expectRefused } from '../helpers/scars.mjs';

test('scar: inserts the canned ask scar above the line with the target line indent', () => {
  const sb = sandbox({ files: { 'src/app.ts': 'function f() {\n  return 1;\n}\n' } });
  expectRun(sb, ['scar', 'src/app.ts:2'], { status: 0, stdout: `scarred src/app.ts:2  // ${ASK}\n` });
  assert.equal(sb.read('src/app.ts'), `function f() {\n  // ${ASK}\n  return 1;\n}\n`);
});

test('scar: kinds and bodies (reject canned, -m overrides, free needs -m)', () => {
  const sb = sandbox({ files: { 'a.py': 'x = 1\ny = 2\nz = 3\n' } });
  expectRun(sb, ['scar', 'a.py:1', '--kind', 'reject'], { status: 0, stdout: `scarred a.py:1  # ${REJECT}\n` });
  expectRun(sb, ['scar', 'a.py:3', '-k', 'ask', '-m', 'why 2?'], { status: 0, stdout: 'scarred a.py:3  # @kizu[ask]: why 2?\n' });
  expectRun(sb, ['scar', 'a.py:5', '--kind', 'free', '--message', 'rename z to total'], {
    status: 0,
    stdout: 'scarred a.py:5  # @kizu[free]: rename z to total\n',
  });
  assert.equal(sb.read('a.py'), `# ${REJECT}\nx = 1\n# @kizu[ask]: why 2?\ny = 2\n# @kizu[free]: rename z to total\nz = 3\n`);
  expectRefused(sb, ['scar', 'a.py:1', '--kind', 'free'], 'a.py', { stderr: err('a free scar needs a body', 'add -m "<what the agent should do>"') });
  expectRefused(sb, ['scar', 'a.py:1', '-m', ' \t '], 'a.py', { stderr: err('the scar body is empty', 'give a body with -m "<text>"') });
  const bad = sb.kizu(['scar', 'a.py:1', '--kind', 'nit']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.equal(
    bad.stderr,
    "git-kizu: error: option '-k, --kind <kind>' argument 'nit' is invalid. Allowed choices are ask, reject, free.\n(run with --help for usage)\n",
  );
});

test('scar: bodies are one line and cannot close the comment early', () => {
  const sb = sandbox({
    files: { 'a.ts': 'a;\n', 's.css': 'a {}\n', 'p.html': '<p>x</p>\n', 'J.tsx': 'export const J = () => (\n  <div>\n    <b>x</b>\n  </div>\n);\n' },
  });
  expectRun(sb, ['scar', 'a.ts:1', '-m', 'one\ntwo\r\nthree\rfour   five\t\tsix'], { status: 0, stdout: 'scarred a.ts:1  // @kizu[ask]: one two three four five six\n' });
  expectRun(sb, ['scar', 's.css:1', '-m', 'drop */ this'], { status: 0, stdout: 'scarred s.css:1  /* @kizu[ask]: drop * / this */\n' });
  expectRun(sb, ['scar', 'p.html:1', '-m', 'x --> y'], { status: 0, stdout: 'scarred p.html:1  <!-- @kizu[ask]: x - - > y -->\n' });
  expectRun(sb, ['scar', 'J.tsx:3', '-m', 'a */} b'], { status: 0, stdout: 'scarred J.tsx:3  {/* @kizu[ask]: a * /} b */}\n' });
  assert.equal(sb.read('s.css'), '/* @kizu[ask]: drop * / this */\na {}\n');
  assert.equal(sb.read('p.html'), '<!-- @kizu[ask]: x - - > y -->\n<p>x</p>\n');
  assert.equal(sb.read('J.tsx'), 'export const J = () => (\n  <div>\n    {/* @kizu[ask]: a * /} b */}\n    <b>x</b>\n  </div>\n);\n');
});

test('scar: blank target takes the indent of the next non-blank line, else the previous one', () => {
  const sb = sandbox({ files: { 'f.py': 'def f():\n    x = 1\n\n        \n\ty = 2\n', 'g.py': 'if x:\n    y()\n\n\n' } });
  expectRun(sb, ['scar', 'f.py:3'], { status: 0, stdout: `scarred f.py:3  # ${ASK}\n` });
  assert.equal(sb.read('f.py'), `def f():\n    x = 1\n\t# ${ASK}\n\n        \n\ty = 2\n`);
  expectRun(sb, ['scar', 'g.py:4'], { status: 0, stdout: `scarred g.py:4  # ${ASK}\n` });
  assert.equal(sb.read('g.py'), `if x:\n    y()\n\n    # ${ASK}\n\n`);
  expectRun(sb, ['scar', 'g.py:6', '-k', 'reject'], { status: 0, stdout: `scarred g.py:6  # ${REJECT}\n` });
  assert.equal(sb.read('g.py'), `if x:\n    y()\n\n    # ${ASK}\n\n    # ${REJECT}\n`);
});

test('scar: CRLF file gets a CRLF scar line; mixed endings keep every other byte', () => {
  const sb = sandbox({ files: { 'w.c': 'int a;\r\nint b;\r\n', 'm.c': 'int a;\nint b;\r\nint c;\n' } });
  expectRun(sb, ['scar', 'w.c:2'], { status: 0, stdout: `scarred w.c:2  // ${ASK}\n` });
  assert.equal(sb.read('w.c'), `int a;\r\n// ${ASK}\r\nint b;\r\n`);
  expectRun(sb, ['scar', 'm.c:2'], { status: 0, stdout: `scarred m.c:2  // ${ASK}\n` });
  assert.equal(sb.read('m.c'), `int a;\n// ${ASK}\r\nint b;\r\nint c;\n`);
  expectRun(sb, ['scar', 'm.c:4', '-k', 'reject'], { status: 0, stdout: `scarred m.c:4  // ${REJECT}\n` });
  assert.equal(sb.read('m.c'), `int a;\n// ${ASK}\r\nint b;\r\n// ${REJECT}\nint c;\n`);
});

test('scar: UTF-8 BOM stays first, also when scarring line 1; scan finds that scar', () => {
  const sb = sandbox({ files: { 'b.ts': '\ufeffconst a = 1;\nconst b = 2;\n' } });
  expectRun(sb, ['scar', 'b.ts:1'], { status: 0, stdout: `scarred b.ts:1  // ${ASK}\n` });
  assert.deepEqual(bytes(sb, 'b.ts'), Buffer.from(`\ufeff// ${ASK}\nconst a = 1;\nconst b = 2;\n`));
  expectRun(sb, ['scan'], { status: 1, stdout: 'b.ts:1  [ask]  explain this change\n' });
  expectRun(sb, ['scan', '--all', '--json'], { status: 1, stdout: '[{"path":"b.ts","line":1,"kind":"ask","body":"explain this change"}]\n' });
  expectRun(sb, ['unscar', 'b.ts:1'], { status: 0, stdout: `removed b.ts:1  // ${ASK}\n` });
  assert.deepEqual(bytes(sb, 'b.ts'), Buffer.from('\ufeffconst a = 1;\nconst b = 2;\n'));
});

test('scar: a file without a final newline keeps that, also when appending at end+1', () => {
  const sb = sandbox({ files: { 'n.rb': 'a = 1\nb = 2', 'e.rb': 'a = 1' } });
  expectRun(sb, ['scar', 'n.rb:2'], { status: 0, stdout: `scarred n.rb:2  # ${ASK}\n` });
  assert.equal(sb.read('n.rb'), `a = 1\n# ${ASK}\nb = 2`);
  expectRun(sb, ['scar', 'e.rb:2', '-k', 'reject'], { status: 0, stdout: `scarred e.rb:2  # ${REJECT}\n` });
  assert.equal(sb.read('e.rb'), `a = 1\n# ${REJECT}`);
  // again: the same scar is already there
  expectRun(sb, ['scar', 'e.rb:2', '-k', 'reject'], { status: 0, stdout: 'unchanged: e.rb:2 already holds this scar\n' });
  assert.equal(sb.read('e.rb'), `a = 1\n# ${REJECT}`);
  expectRun(sb, ['unscar', 'e.rb:2'], { status: 0, stdout: `removed e.rb:2  # ${REJECT}\n` });
  assert.equal(sb.read('e.rb'), 'a = 1');
});

test('scar: mode bits unchanged (0755 stays 0755, 0600 stays 0600)', () => {
  const sb = sandbox({ files: { 'run.sh': '#!/bin/sh\necho hi\n', 'secret.sh': 'x=1\n' } });
  chmodSync(sb.path('run.sh'), 0o755);
  chmodSync(sb.path('secret.sh'), 0o600);
  expectRun(sb, ['scar', 'run.sh:2'], { status: 0, stdout: `scarred run.sh:2  # ${ASK}\n` });
  expectRun(sb, ['scar', 'secret.sh:1'], { status: 0, stdout: `scarred secret.sh:1  # ${ASK}\n` });
  assert.equal(statSync(sb.path('run.sh')).mode & 0o7777, 0o755);
  assert.equal(statSync(sb.path('secret.sh')).mode & 0o7777, 0o600);
  assert.equal(sb.read('run.sh'), `#!/bin/sh\n# ${ASK}\necho hi\n`);
});

test('scar: non-UTF-8 bytes elsewhere in the file are untouched', () => {
  const latin1 = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\nx = "'), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('"\ny = 1\n')]);
  const sb = sandbox({ files: { 'l.py': latin1 } });
  expectRun(sb, ['scar', 'l.py:3'], { status: 0, stdout: `scarred l.py:3  # ${ASK}\n` });
  assert.deepEqual(
    bytes(sb, 'l.py'),
    Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\nx = "'), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(`"\n# ${ASK}\ny = 1\n`)]),
  );
  // and the scan reports it at the right line
  expectRun(sb, ['scan'], { status: 1, stdout: 'l.py:3  [ask]  explain this change\n' });
});

test('scar: idempotent — the same scar directly above is a no-op, and so is repeating the command', () => {
  const sb = sandbox({ files: { 'a.go': 'package a\n\n\tx := 1\n', 'b.go': `package b\n// ${ASK}\nvar x = 1\n` } });
  expectRun(sb, ['scar', 'b.go:3'], { status: 0, stdout: 'unchanged: b.go:2 already holds this scar\n' });
  assert.equal(sb.read('b.go'), `package b\n// ${ASK}\nvar x = 1\n`);
  expectRun(sb, ['scar', 'a.go:3'], { status: 0, stdout: `scarred a.go:3  // ${ASK}\n` });
  const once = bytes(sb, 'a.go');
  assert.equal(once.toString(), `package a\n\n\t// ${ASK}\n\tx := 1\n`);
  expectRun(sb, ['scar', 'a.go:3'], { status: 0, stdout: 'unchanged: a.go:3 already holds this scar\n' });
  expectRun(sb, ['scar', 'a.go:4'], { status: 0, stdout: 'unchanged: a.go:3 already holds this scar\n' });
  assert.deepEqual(bytes(sb, 'a.go'), once);
  // a different kind above the same line is a new scar
  expectRun(sb, ['scar', 'a.go:4', '-k', 'reject'], { status: 0, stdout: `scarred a.go:4  // ${REJECT}\n` });
  assert.equal(sb.read('a.go'), `package a\n\n\t// ${ASK}\n\t// ${REJECT}\n\tx := 1\n`);
});

test('scar refusals: exit 2, nothing written, message says what and how to fix', () => {
  const sb = sandbox({ files: { 'a.ts': 'a;\nb;\nc;\n', 'src/x.ts': 'x;\n', 'empty.ts': '' } });
  const root = realpathSync(sb.dir);
  writeFileSync(path.join(sb.base, 'outside.ts'), 'o;\n');
  writeFileSync(sb.path('img.bin'), Buffer.concat([Buffer.from('PNG\n'), Buffer.alloc(10), Buffer.from('\nmore\n')]));
  expectRefused(sb, ['scar', '../outside.ts:1'], null, { stderr: err(`../outside.ts: path is outside the repository ${root}`, 'name a file inside the working tree') });
  assert.equal(readFileSync(path.join(sb.base, 'outside.ts'), 'utf8'), 'o;\n');
  const absOut = path.join(sb.base, 'outside.ts');
  expectRefused(sb, ['scar', `${absOut}:1`], null, { stderr: err(`${absOut}: path is outside the repository ${root}`, 'name a file inside the working tree') });
  expectRefused(sb, ['scar', 'nope.ts:1'], null, { stderr: err('nope.ts: no such file', 'check the path (it is relative to the current directory)') });
  expectRefused(sb, ['scar', 'a.ts:5'], 'a.ts', { stderr: err('a.ts:5: line is beyond the end of the file (it has 3 lines)', 'use a line from 1 to 4') });
  expectRefused(sb, ['scar', 'empty.ts:2'], 'empty.ts', { stderr: err('empty.ts:2: line is beyond the end of the file (it has 0 lines)', 'use a line from 1 to 1') });
  expectRefused(sb, ['scar', 'a.ts:0'], 'a.ts', { stderr: err('line must be a positive integer (1-based), got 0 in "a.ts:0"', 'lines are numbered from 1') });
  expectRefused(sb, ['scar', 'a.ts'], 'a.ts', { stderr: err('expected <path>:<line>, got "a.ts"', 'name the line, e.g. git kizu scar src/app.ts:42') });
  expectRefused(sb, ['scar', 'img.bin:1'], 'img.bin', {
    stderr: err('img.bin: binary file (NUL byte in the first 8 KiB); scars go into text files', 'queue the remark instead: git kizu queue add --at img.bin:1 "<text>"'),
  });
  expectRefused(sb, ['scar', 'src:1'], null, { stderr: err('src: is a directory', 'name a file and a line, e.g. src/index.ts:1') });
  expectRefused(sb, ['scar', '.git/config:1'], null, { stderr: err('.git/config: refusing to write inside the .git directory', 'name a file in the working tree') });
  symlinkSync(path.join(sb.base, 'outside.ts'), sb.path('out-link.ts'));
  expectRefused(sb, ['scar', 'out-link.ts:1'], null, {
    stderr: err(`out-link.ts: symlink points outside the repository (${realpathSync(path.join(sb.base, 'outside.ts'))})`, 'scar a file inside the working tree'),
  });
  assert.equal(readFileSync(path.join(sb.base, 'outside.ts'), 'utf8'), 'o;\n');
  // nothing was recorded for undo by any refusal
  expectRun(sb, ['scar', '--undo'], { status: 1, stderr: err('no scar to undo: none was written with git kizu scar in this repository', 'use git kizu unscar <path>:<line> to remove a scar') });
});

test('scar: a symlink inside the repo scars the target file and keeps the link', () => {
  const sb = sandbox({ files: { 'real/t.ts': 'a;\nb;\n' } });
  symlinkSync('real/t.ts', sb.path('link.ts'));
  expectRun(sb, ['scar', 'link.ts:2'], { status: 0, stdout: `scarred link.ts:2  // ${ASK}\n` });
  assert.ok(lstatSync(sb.path('link.ts')).isSymbolicLink());
  assert.equal(readlinkSync(sb.path('link.ts')), 'real/t.ts');
  assert.equal(sb.read('real/t.ts'), `a;\n// ${ASK}\nb;\n`);
});

test('scar --undo removes the last scar written; refused (exit 1, file untouched) after the user edited it', () => {
  const sb = sandbox({ files: { 'a.ts': 'a;\nb;\n', 'b.ts': 'x;\n' } });
  expectRun(sb, ['scar', 'a.ts:1'], { status: 0, stdout: `scarred a.ts:1  // ${ASK}\n` });
  expectRun(sb, ['scar', 'a.ts:3', '-k', 'reject'], { status: 0, stdout: `scarred a.ts:3  // ${REJECT}\n` });
  expectRun(sb, ['scar', '--undo'], { status: 0, stdout: `removed scar a.ts:3  // ${REJECT}\n` });
  assert.equal(sb.read('a.ts'), `// ${ASK}\na;\nb;\n`);
  expectRun(sb, ['scar', 'b.ts:1', '-m', 'why x'], { status: 0, stdout: 'scarred b.ts:1  // @kizu[ask]: why x\n' });
  sb.write({ 'b.ts': '// @kizu[ask]: why x, and why here?\nx;\n' });
  expectRefused(sb, ['scar', '--undo'], 'b.ts', {
    status: 1,
    stderr: err(
      'cannot undo the last scar: b.ts:1 is no longer exactly "// @kizu[ask]: why x" (it was edited or removed); it is dropped from the undo record',
      "if an edited scar is still there, remove it with git kizu unscar 'b.ts:<line>'. Run git kizu scar --undo again to undo the scar written before it.",
    ),
  });
  assert.equal(sb.read('a.ts'), `// ${ASK}\na;\nb;\n`);
  // The stale record no longer blocks: the next --undo removes the scar written before it.
  expectRun(sb, ['scar', '--undo'], { status: 0, stdout: `removed scar a.ts:1  // ${ASK}\n` });
  assert.equal(sb.read('a.ts'), 'a;\nb;\n');
  assert.equal(sb.read('b.ts'), '// @kizu[ask]: why x, and why here?\nx;\n');
  expectRefused(sb, ['scar', 'a.ts:1', '--undo'], 'a.ts', { stderr: err('--undo takes no <path>:<line>', 'run git kizu scar --undo alone') });
});

test('scar --undo: the record lives under .git/kizu/ and follows the scar when lines above it move', () => {
  const sb = sandbox({ files: { 'a.py': 'x = 1\ny = 2\n' } });
  expectRun(sb, ['scar', 'a.py:2'], { status: 0, stdout: `scarred a.py:2  # ${ASK}\n` });
  const rec = JSON.parse(readFileSync(sb.path('.git/kizu/scars.json'), 'utf8'));
  assert.deepEqual(rec.map(({ rel, line, text }) => ({ rel, line, text })), [{ rel: 'a.py', line: 2, text: `# ${ASK}` }]);
  sb.write({ 'a.py': `import os\nx = 1\n# ${ASK}\ny = 2\n` });
  expectRun(sb, ['scar', '--undo'], { status: 0, stdout: `removed scar a.py:3  # ${ASK}\n` });
  assert.equal(sb.read('a.py'), 'import os\nx = 1\ny = 2\n');
  expectRun(sb, ['scar', '--undo'], { status: 1, stderr: err('no scar to undo: none was written with git kizu scar in this repository', 'use git kizu unscar <path>:<line> to remove a scar') });
});

test('hostile paths: spaces, unicode, colons, leading dash, deep subdirectory cwd', () => {
  const sb = sandbox({
    files: { 'dir with space/ünï côde.py': 'x = 1\n', 'a:3': 'hello\n', '-lead.py': 'y\n', 'deep/a/b/c/d.rb': 'puts 1\n', 'top.sh': 'echo\n' },
  });
  // The path is printed as git prints it (core.quotePath: bytes beyond ASCII in octal).
  expectRun(sb, ['scar', 'dir with space/ünï côde.py:1'], { status: 0, stdout: `scarred "dir with space/\\303\\274n\\303\\257 c\\303\\264de.py":1  # ${ASK}\n` });
  assert.equal(sb.read('dir with space/ünï côde.py'), `# ${ASK}\nx = 1\n`);
  // `a:3:1` is line 1 of the file `a:3`
  expectRun(sb, ['scar', 'a:3:1', '-k', 'reject'], {
    status: 0,
    stdout: `scarred a:3:1  # ${REJECT}\n`,
    stderr: 'git-kizu: warning: a:3: unknown file type, using "#" comments (set scar.syntax in the config to choose)\n',
  });
  assert.equal(sb.read('a:3'), `# ${REJECT}\nhello\n`);
  // a leading dash after `--`; a body that starts with dashes
  expectRun(sb, ['scar', '-m', '--not-an-option', '--', '-lead.py:1'], { status: 0, stdout: 'scarred -lead.py:1  # @kizu[ask]: --not-an-option\n' });
  assert.equal(sb.read('-lead.py'), '# @kizu[ask]: --not-an-option\ny\n');
  // from a deep subdirectory: paths relative to cwd, messages root-relative
  const cwd = sb.path('deep/a/b');
  expectRun(sb, ['scar', 'c/d.rb:1'], { cwd, status: 0, stdout: `scarred deep/a/b/c/d.rb:1  # ${ASK}\n` });
  expectRun(sb, ['scar', '../../../top.sh:2'], { cwd, status: 0, stdout: `scarred top.sh:2  # ${ASK}\n` });
  assert.equal(sb.read('top.sh'), `echo\n# ${ASK}\n`);
  expectRun(sb, ['unscar', 'c/d.rb:2'], { cwd, status: 0, stdout: `removed deep/a/b/c/d.rb:1  # ${ASK}\n` });
  expectRun(sb, ['scar', '--undo'], { cwd, status: 0, stdout: `removed scar top.sh:2  # ${ASK}\n` });
  assert.equal(sb.read('top.sh'), 'echo\n');
  expectRun(sb, ['scan', '--json'], {
    cwd,
    status: 1,
    stdout:
      JSON.stringify([
        { path: '-lead.py', line: 1, kind: 'ask', body: '--not-an-option' },
        { path: 'a:3', line: 1, kind: 'reject', body: 'revert this change' },
        { path: 'dir with space/ünï côde.py', line: 1, kind: 'ask', body: 'explain this change' },
      ]) + '\n',
  });
});

test('hostile paths: a file named like `b:7` with no `b` — scar asks for the line, unscar takes the whole name', () => {
  const sb = sandbox({ files: { 'b:7': `# ${ASK}\nb\n` } });
  expectRefused(sb, ['scar', 'b:7'], 'b:7', { stderr: err('b:7: names a file, but no line (b does not exist)', "add the line after the name: git kizu scar 'b:7:<line>'") });
  expectRun(sb, ['unscar', 'b:7'], { status: 0, stdout: `removed b:7:1  # ${ASK}\n` });
  assert.equal(sb.read('b:7'), 'b\n');
});

test('hostile locations: empty path, the repo root, huge and non-decimal line numbers', () => {
  const sb = sandbox({ files: { 'a.ts': 'a;\n' } });
  expectRefused(sb, ['scar', ':3'], null, { stderr: err('expected <path>:<line>, got ":3" (the path is missing)', 'name the file before the line, e.g. src/app.ts:42') });
  expectRefused(sb, ['scar', '.:1'], null, { stderr: err('.: is a directory (the repository root)', 'name a file and a line, e.g. src/app.ts:1') });
  expectRefused(sb, ['scar', 'a.ts:18446744073709551616'], 'a.ts', {
    stderr: err('line 18446744073709551616 in "a.ts:18446744073709551616" is too large (the largest line number is 9007199254740991)', 'name a line that exists in the file'),
  });
  expectRefused(sb, ['scar', 'a.ts:9007199254740991'], 'a.ts', { stderr: err('a.ts:9007199254740991: line is beyond the end of the file (it has 1 line)', 'use a line from 1 to 2') });
  expectRefused(sb, ['scar', 'a.ts:-1'], 'a.ts', { stderr: err('line must be a positive integer (1-based), got -1 in "a.ts:-1"', 'lines are numbered from 1') });
  expectRefused(sb, ['scar', 'a.ts:1e3'], 'a.ts', { stderr: err('expected <path>:<line>, got "a.ts:1e3"', 'name the line, e.g. git kizu scar src/app.ts:42') });
  expectRefused(sb, ['unscar', 'a.ts:18446744073709551616'], 'a.ts', {
    stderr: err('line 18446744073709551616 in "a.ts:18446744073709551616" is too large (the largest line number is 9007199254740991)', 'name a line that exists in the file'),
  });
  expectRefused(sb, ['unscar', 'a.ts:5'], 'a.ts', { stderr: err('a.ts:5: line is beyond the end of the file (it has 1 line)', 'use git kizu scan to list scars with their lines') });
});

test('hostile contents: a lone \\r before \\r\\n (two line endings), empty files, mixed CRLF/LF through scar, unscar and undo', () => {
  const sb = sandbox({ files: { 'cr.py': 'a\r\r\n\r\nb\r\n', 'empty.py': '', 'mix.sh': 'a\r\nb\nc' } });
  expectRun(sb, ['scar', 'cr.py:2'], { status: 0, stdout: `scarred cr.py:2  # ${ASK}\n` });
  assert.equal(sb.read('cr.py'), `a\r# ${ASK}\r\n\r\n\r\nb\r\n`);
  expectRun(sb, ['scan'], { status: 1, stdout: 'cr.py:2  [ask]  explain this change\n' });
  expectRun(sb, ['scar', '--undo'], { status: 0, stdout: `removed scar cr.py:2  # ${ASK}\n` });
  assert.equal(sb.read('cr.py'), 'a\r\r\n\r\nb\r\n');
  expectRun(sb, ['scar', 'empty.py:1'], { status: 0, stdout: `scarred empty.py:1  # ${ASK}\n` });
  assert.equal(sb.read('empty.py'), `# ${ASK}\n`);
  expectRun(sb, ['unscar', 'empty.py'], { status: 0, stdout: `removed empty.py:1  # ${ASK}\n` });
  assert.equal(sb.read('empty.py'), '');
  expectRun(sb, ['scar', 'mix.sh:2'], { status: 0, stdout: `scarred mix.sh:2  # ${ASK}\n` });
  expectRun(sb, ['scar', 'mix.sh:5', '-k', 'reject'], { status: 0, stdout: `scarred mix.sh:5  # ${REJECT}\n` });
  assert.equal(sb.read('mix.sh'), `a\r\n# ${ASK}\nb\nc\r\n# ${REJECT}`);
  expectRun(sb, ['unscar', 'mix.sh'], { status: 0, stdout: `removed mix.sh:2  # ${ASK}\nremoved mix.sh:5  # ${REJECT}\n` });
  assert.equal(sb.read('mix.sh'), 'a\r\nb\nc');
});

test('hostile targets: symlinks into .git and nested .git directories are refused', () => {
  const sb = sandbox({ files: { 'a.ts': 'a;\n' } });
  const gitConfig = bytes(sb, '.git/config');
  symlinkSync('.git/config', sb.path('cfg-link'));
  expectRefused(sb, ['scar', 'cfg-link:1'], null, {
    stderr: err(`cfg-link: symlink points inside the .git directory (${path.join(realpathSync(sb.dir), '.git/config')})`, 'scar a file in the working tree'),
  });
  symlinkSync('.git', sb.path('gitdir-link'));
  expectRefused(sb, ['scar', 'gitdir-link/config:1'], null, { stderr: err('gitdir-link/config: refusing to write inside the .git directory', 'name a file in the working tree') });
  assert.deepEqual(bytes(sb, '.git/config'), gitConfig);
  mkdirSync(sb.path('vendor/lib/.git'), { recursive: true });
  writeFileSync(sb.path('vendor/lib/.git/HEAD'), 'ref: refs/heads/main\n');
  expectRefused(sb, ['scar', 'vendor/lib/.git/HEAD:1'], 'vendor/lib/.git/HEAD', {
    stderr: err('vendor/lib/.git/HEAD: refusing to write inside the .git directory', 'name a file in the working tree'),
  });
});

test('scar warns when git kizu scan would not report it: ignored file, scan.exclude, over scan.maxFileBytes', () => {
  const sb = sandbox({
    files: { '.gitignore': 'ign/\n', '.kizurc.json': JSON.stringify({ scan: { exclude: ['fixtures/**'], maxFileBytes: 60 } }), 'fixtures/f.py': 'x\n', 'big.py': 'x = 1\n'.repeat(5) },
  });
  sb.write({ 'ign/x.py': 'x\n' });
  symlinkSync('ign/x.py', sb.path('to-ignored.py'));
  expectRun(sb, ['scar', 'ign/x.py:1'], {
    status: 0,
    stdout: `scarred ign/x.py:1  # ${ASK}\n`,
    stderr: 'git-kizu: warning: ign/x.py: git kizu scan will not report this scar (the file is ignored by git)\n',
  });
  expectRun(sb, ['scar', 'to-ignored.py:2', '-k', 'reject'], {
    status: 0,
    stdout: `scarred to-ignored.py:2  # ${REJECT}\n`,
    stderr: 'git-kizu: warning: ign/x.py: git kizu scan will not report this scar (the file is ignored by git)\n',
  });
  expectRun(sb, ['scar', 'fixtures/f.py:1'], {
    status: 0,
    stdout: `scarred fixtures/f.py:1  # ${ASK}\n`,
    stderr: 'git-kizu: warning: fixtures/f.py: git kizu scan will not report this scar (the file matches scan.exclude)\n',
  });
  // Over scan.maxFileBytes: scan still finds it (by the line rule, so padding cannot hide a scar): no warning.
  expectRun(sb, ['scar', 'big.py:1'], { status: 0, stdout: `scarred big.py:1  # ${ASK}\n`, stderr: '' });
  expectRun(sb, ['unscar', '--all'], { status: 0, stdout: `removed big.py:1  # ${ASK}\n`, stderr: '' });
});

test('eight concurrent scars on one file: every one is written and recorded', async () => {
  const lines = Array.from({ length: 40 }, (_, i) => `v = ${i + 1}\n`).join('');
  const sb = sandbox({ files: { 'conc.py': lines } });
  const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => sb.kizuAsync(['scar', `conc.py:${(i + 1) * 4}`, '-k', 'free', '-m', `c${i + 1}`])));
  for (const r of rs) assert.equal(r.status, 0);
  const scan = JSON.parse(sb.kizu(['scan', '--json']).stdout);
  assert.deepEqual(scan.map((s) => s.body).sort(), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
  // Every non-scar line is still there, in order.
  assert.equal(sb.read('conc.py').split('\n').filter((l) => !l.startsWith('# @kizu')).join('\n'), lines);
  const records = JSON.parse(sb.read('.git/kizu/scars.json'));
  assert.equal(records.length, 8);
});
