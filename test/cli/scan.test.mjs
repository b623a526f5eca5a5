// `git kizu scan [--all | --staged] [--json] [paths...]` through the real bin in real temp
// repos: scopes, what counts as a scar, skips, output formats and exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { ASK } from '../helpers/scars.mjs';
import { commitConfig } from '../helpers/config.mjs';

/** A repo with a committed scar, then a modified, a staged, an untracked and an ignored one. */
function scopedRepo() {
  const sb = sandbox({
    files: {
      '.gitignore': 'build/\n*.log\n',
      'old.ts': `// ${ASK}\nold;\n`,
      'mod.ts': 'a;\nb;\n',
      'staged.py': 'x = 1\n',
      'clean.ts': 'c;\n',
    },
  });
  sb.write({
    'mod.ts': 'a;\n  // @kizu[reject]: revert this change\nb;\n',
    'staged.py': '# @kizu[free]: rename x\nx = 1\n',
    'new/fresh.md': 'Title\n<!-- @kizu[ask]: why this doc? -->\n',
    'build/out.ts': `// ${ASK}\n`,
    'debug.log': `# ${ASK}\n`,
  });
  sb.git('add', 'staged.py');
  return sb;
}

test('scan (default): changed vs HEAD, staged and untracked-not-ignored files; grouped output; exit 1', () => {
  const sb = scopedRepo();
  expectRun(sb, ['scan'], {
    status: 1,
    stdout: 'mod.ts:2  [reject]  revert this change\n\nnew/fresh.md:2  [ask]  why this doc?\n\nstaged.py:1  [free]  rename x\n',
  });
  expectRun(sb, ['scan', '--json'], {
    status: 1,
    stdout:
      JSON.stringify([
        { path: 'mod.ts', line: 2, kind: 'reject', body: 'revert this change' },
        { path: 'new/fresh.md', line: 2, kind: 'ask', body: 'why this doc?' },
        { path: 'staged.py', line: 1, kind: 'free', body: 'rename x' },
      ]) + '\n',
  });
});

test('scan --all: every tracked and untracked-not-ignored file', () => {
  const sb = scopedRepo();
  expectRun(sb, ['scan', '--all'], {
    status: 1,
    stdout:
      'mod.ts:2  [reject]  revert this change\n\nnew/fresh.md:2  [ask]  why this doc?\n\nold.ts:1  [ask]  explain this change\n\nstaged.py:1  [free]  rename x\n',
  });
});

test('scan --staged reads the index blobs, not the working tree', () => {
  const sb = sandbox({ files: { 'a.ts': 'a;\n', 'b.ts': 'b;\n' } });
  // a.ts: staged version has a scar, working tree does not
  sb.write({ 'a.ts': `// ${ASK}\na;\n` });
  sb.git('add', 'a.ts');
  sb.write({ 'a.ts': 'a;\n' });
  // b.ts: working tree has a scar, staged version does not
  sb.write({ 'b.ts': 'b;\n// @kizu[free]: only here\n' });
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: 'a.ts:1  [ask]  explain this change\n' });
  expectRun(sb, ['scan', '--staged', '--json'], { status: 1, stdout: '[{"path":"a.ts","line":1,"kind":"ask","body":"explain this change"}]\n' });
  expectRun(sb, ['scan'], { status: 1, stdout: 'b.ts:2  [free]  only here\n' });
  expectRun(sb, ['scan', '--all', '--staged'], { status: 2, stderr: 'git-kizu: error: --all and --staged cannot be combined\nhint: pick one scope\n' });
});

test('scan: what is a scar — not in markdown fences, not in strings, not a marker whose opener is no comment in the file\'s language', () => {
  const sb = sandbox();
  sb.write({
    'doc.md': [
      '<!-- @kizu[ask]: real -->',
      '```',
      '<!-- @kizu[ask]: in backtick fence -->',
      '````',
      '```',
      '# @kizu[ask]: inside the second fence (closed by the longer fence below)',
      '````',
      '  ~~~ts',
      '// @kizu[ask]: in tilde fence',
      '  ~~~',
      '# @kizu[free]: after fences',
    ].join('\n') + '\n',
    'code.ts': [
      'const s = "// @kizu[ask]: in a string";',
      "const t = '# @kizu[ask]: in a string';",
      'foo(); // @kizu[ask]: trailing comment is not a scar line',
      '   //@kizu[reject]:no space',
      '\t// @kizu[x-1]: unknown kind word',
      '// @kizu[ask] missing colon',
      '// @kizu(ask): wrong brackets',
      '/* @kizu[ask]: block */',
      '-- @kizu[ask]: sql is no TypeScript comment',
      '{/* @kizu[ask]: jsx */}',
      '# @kizu[ask]: hash is no TypeScript comment',
      '<!-- @kizu[ask]: nor is an HTML comment -->',
    ].join('\r\n') + '\r\n',
    // A file with a backtick is parsed: a marker line inside a template literal or a block comment is not a scar.
    'tpl.ts': ['const t = `', '// @kizu[ask]: in a template', '`;', '/*', '// @kizu[ask]: in a block comment', '*/', '// @kizu[ask]: after them', ''].join('\n'),
    'q.sql': '-- @kizu[ask]: sql\nSELECT 1;\n',
    'x.py': '\t# @kizu[x-1]: hash in Python\n',
  });
  expectRun(sb, ['scan', '--json'], {
    status: 1,
    stdout:
      JSON.stringify([
        { path: 'code.ts', line: 4, kind: 'reject', body: 'no space' },
        { path: 'code.ts', line: 5, kind: 'x-1', body: 'unknown kind word' },
        { path: 'code.ts', line: 8, kind: 'ask', body: 'block' },
        { path: 'code.ts', line: 10, kind: 'ask', body: 'jsx' },
        { path: 'doc.md', line: 1, kind: 'ask', body: 'real' },
        { path: 'doc.md', line: 11, kind: 'free', body: 'after fences' },
        { path: 'q.sql', line: 1, kind: 'ask', body: 'sql' },
        { path: 'tpl.ts', line: 7, kind: 'ask', body: 'after them' },
        { path: 'x.py', line: 1, kind: 'x-1', body: 'hash in Python' },
      ]) + '\n',
  });
});

test('scan: scars in binary files count (git would hide them); files over scan.maxFileBytes are searched by the line rule', () => {
  const sb = sandbox();
  commitConfig(sb, { '.kizurc.json': '{"scan":{"maxFileBytes":100}}' });
  sb.write({
    'bin.dat': Buffer.concat([Buffer.from(`# ${ASK}\n`), Buffer.alloc(4), Buffer.from('\n')]),
    'big.py': `# ${ASK}\n` + 'x = 1\n'.repeat(20),
    'small.py': `# ${ASK}\n`,
  });
  const found = 'big.py:1  [ask]  explain this change\n\nbin.dat:1  [ask]  explain this change\n\nsmall.py:1  [ask]  explain this change\n';
  for (const mode of [[], ['--all']]) expectRun(sb, ['scan', ...mode], { status: 1, stdout: found });
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: found });
});

test('scan: default scan.maxFileBytes is 4 MiB (4194304 bytes parsed, 4194305 searched by the line rule)', () => {
  const sb = sandbox();
  const head = `# ${ASK}\n`;
  const fill = (n) => head + 'x'.repeat(n - head.length - 1) + '\n';
  sb.write({ 'fits.txt': fill(4 * 1024 * 1024), 'over.txt': fill(4 * 1024 * 1024 + 1) });
  expectRun(sb, ['scan'], {
    status: 1,
    stdout: 'fits.txt:1  [ask]  explain this change\n\nover.txt:1  [ask]  explain this change\n',
  });
});

test('scan: scan.exclude globs skip a fixture directory in every mode', () => {
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ scan: { exclude: ['test/fixtures/**', '**/*.snap'] } }) } });
  sb.write({
    'test/fixtures/a.ts': `// ${ASK}\n`,
    'test/fixtures/deep/b.py': `# ${ASK}\n`,
    'test/x.snap': `# ${ASK}\n`,
    'test/real.ts': `// ${ASK}\n`,
  });
  expectRun(sb, ['scan'], { status: 1, stdout: 'test/real.ts:1  [ask]  explain this change\n' });
  expectRun(sb, ['scan', '--all'], { status: 1, stdout: 'test/real.ts:1  [ask]  explain this change\n' });
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: 'test/real.ts:1  [ask]  explain this change\n' });
  expectRun(sb, ['unscar', '--all'], { status: 0, stdout: `removed test/real.ts:1  // ${ASK}\n` });
  expectRun(sb, ['scan', '--all'], { status: 0 });
});

test('scan: exit 0 and no output when there are none; exit 2 outside a repo or for paths outside it', () => {
  const sb = sandbox({ files: { 'a.ts': 'a;\n' } });
  expectRun(sb, ['scan'], { status: 0 });
  expectRun(sb, ['scan', '--all', '--json'], { status: 0, stdout: '[]\n' });
  const outside = path.join(sb.base, 'home');
  const r = sb.kizu(['scan'], { cwd: outside });
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [2, '', `git-kizu: error: not inside a git working tree: ${realpathSync(outside)}\nhint: run git kizu from inside a git repository (git init creates one)\n`],
  );
  expectRun(sb, ['scan', '../home'], {
    status: 2,
    stderr: `git-kizu: error: ../home: path is outside the repository ${realpathSync(sb.dir)}\nhint: name paths inside the working tree\n`,
  });
});

test('scan: a repo with no commits yet (default, --all, --staged)', () => {
  const sb = sandbox({ commit: false, files: { 'a.ts': `// ${ASK}\n`, 'u.py': '# @kizu[free]: untracked\n' } });
  sb.git('add', 'a.ts');
  const both = 'a.ts:1  [ask]  explain this change\n\nu.py:1  [free]  untracked\n';
  expectRun(sb, ['scan'], { status: 1, stdout: both });
  expectRun(sb, ['scan', '--all'], { status: 1, stdout: both });
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: 'a.ts:1  [ask]  explain this change\n' });
  const empty = sandbox({ commit: false });
  expectRun(empty, ['scan'], { status: 0 });
});

test('scan paths: limit to files/directories, relative to a subdirectory cwd; output stays root-relative', () => {
  const sb = sandbox({ files: { 'src/deep/er/a.ts': 'a;\n', 'src/b.ts': 'b;\n', 'top.ts': 't;\n' } });
  sb.write({ 'src/deep/er/a.ts': `// ${ASK}\na;\n`, 'src/b.ts': `// ${ASK}\nb;\n`, 'top.ts': `// ${ASK}\nt;\n` });
  const cwd = sb.path('src/deep');
  expectRun(sb, ['scan', 'er'], { cwd, status: 1, stdout: 'src/deep/er/a.ts:1  [ask]  explain this change\n' });
  expectRun(sb, ['scan', '../b.ts', 'er/a.ts'], { cwd, status: 1, stdout: 'src/b.ts:1  [ask]  explain this change\n\nsrc/deep/er/a.ts:1  [ask]  explain this change\n' });
  expectRun(sb, ['scan', '--all', '../..'], {
    cwd,
    status: 1,
    stdout: 'src/b.ts:1  [ask]  explain this change\n\nsrc/deep/er/a.ts:1  [ask]  explain this change\n\ntop.ts:1  [ask]  explain this change\n',
  });
  expectRun(sb, ['scan'], { cwd, status: 1, stdout: 'src/b.ts:1  [ask]  explain this change\n\nsrc/deep/er/a.ts:1  [ask]  explain this change\n\ntop.ts:1  [ask]  explain this change\n' });
});

test('scan --staged: paths that look like index stage specs (1:x) are read from stage 0', () => {
  const sb = sandbox({ files: { '1:x.py': `# ${ASK}\n`, '2:dir/y.sh': '# @kizu[free]: f\n' } });
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: '1:x.py:1  [ask]  explain this change\n\n2:dir/y.sh:1  [free]  f\n' });
});

test('scan paths are literal: glob characters and pathspec magic in names are not patterns', () => {
  const sb = sandbox({ files: { '[ab].py': 'x\n', 'a.py': 'x\n', ':(icase)b.py': 'x\n', 'B.PY': 'x\n' } });
  sb.write({ '[ab].py': `# ${ASK}\n`, 'a.py': `# ${ASK}\n`, ':(icase)b.py': `# ${ASK}\n`, 'B.PY': `# ${ASK}\n` });
  for (const mode of [[], ['--all']]) {
    expectRun(sb, ['scan', ...mode, '[ab].py'], { status: 1, stdout: '[ab].py:1  [ask]  explain this change\n' });
    expectRun(sb, ['scan', ...mode, ':(icase)b.py'], { status: 1, stdout: ':(icase)b.py:1  [ask]  explain this change\n' });
  }
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged', '[ab].py'], { status: 1, stdout: '[ab].py:1  [ask]  explain this change\n' });
});

test('scan paths: a name starting with ".." inside the repo is not "outside"', () => {
  const sb = sandbox();
  sb.write({ '..notes/a.md': '<!-- @kizu[ask]: dots -->\n', '..b.py': `# ${ASK}\n` });
  expectRun(sb, ['scan', '..notes', '..b.py'], { status: 1, stdout: '..b.py:1  [ask]  explain this change\n\n..notes/a.md:1  [ask]  dots\n' });
});

test('scan: odd file names (spaces, unicode, colons, leading dash, newline) in every mode', () => {
  const names = ['with space.ts', 'ünï cødé/ファイル.py', 'a:3', '-dash.sh', 'line\nbreak.py', 'tab\there.rb'];
  const sb = sandbox();
  for (const n of names) sb.write({ [n]: n.endsWith('.ts') ? `// ${ASK}\n` : `# ${ASK}\n` });
  const sorted = [...names].sort((a, b) => (a < b ? -1 : 1));
  const json = (list) => JSON.stringify(list.map((p) => ({ path: p, line: 1, kind: 'ask', body: 'explain this change' }))) + '\n';
  expectRun(sb, ['scan', '--json'], { status: 1, stdout: json(sorted) });
  expectRun(sb, ['scan', '--all', '--json'], { status: 1, stdout: json(sorted) });
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged', '--json'], {
    status: 1,
    stdout: json(sorted),
  });
  expectRun(sb, ['scan', '--', '-dash.sh', 'a:3'], { status: 1, stdout: '-dash.sh:1  [ask]  explain this change\n\na:3:1  [ask]  explain this change\n' });
});

test('scan paths: a path naming nothing is an error (exit 2), a path deleted but still in the index is not', () => {
  const sb = sandbox({ files: { 'src/a.ts': `// ${ASK}\n`, 'gone.ts': `// ${ASK}\n` } });
  sb.run('rm', ['gone.ts']);
  expectRun(sb, ['scan', 'src/typo.ts', 'src'], {
    status: 2,
    stderr: 'git-kizu: error: no such path in the working tree or the index: src/typo.ts\nhint: paths are relative to the current directory\n',
  });
  expectRun(sb, ['scan', 'typo'], {
    cwd: sb.path('src'),
    status: 2,
    stderr: 'git-kizu: error: no such path in the working tree or the index: typo\nhint: paths are relative to the current directory\n',
  });
  expectRun(sb, ['scan', 'gone.ts'], { status: 0 });
  expectRun(sb, ['scan', '--staged', 'gone.ts'], { status: 1, stdout: 'gone.ts:1  [ask]  explain this change\n' });
});

test('an unreadable review queue (not UTF-8) does not hide the scars: scan and status list them, report the queue and exit 2', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': 'x\n// @kizu[ask]: why\n', '.claude/review-queue.md': Buffer.from('- [ ] caf\xe9\n', 'latin1') });
  const problem = '.claude/review-queue.md is not valid UTF-8 (save the file as UTF-8, or move it aside and let git kizu queue add create a new one)';
  const scan = sb.kizu(['scan']);
  assert.deepEqual([scan.status, scan.stdout, scan.stderr], [2, 'a.js:2  [ask]  why\n', `git-kizu: warning: review queue not read: ${problem}\n`]);
  const status = sb.kizu(['status']);
  assert.equal(status.status, 2);
  assert.ok(status.stdout.includes('\nscars     1\n  a.js:2  [ask]  why  (found: in the working tree, not written through git kizu here)\n'), status.stdout);
  assert.ok(status.stdout.includes(`\nqueue     not read: ${problem}\n`), status.stdout);
  const json = sb.kizu(['status', '--json']);
  assert.equal(json.status, 2);
  assert.deepEqual(JSON.parse(json.stdout).queue, { open: [], done: 0, error: problem });
});

test('scan keeps a closer that does not match the opener (only the opener\'s own closer is stripped)', () => {
  const sb = sandbox();
  // `<!-- -->` is no TypeScript comment: that line is in a text file, where the line rule applies.
  sb.write({ 'a.ts': '// @kizu[free]: emit <!-- x -->\n/* @kizu[ask]: keep --> but strip */\n', 'notes.txt': 'intro\n<!-- @kizu[ask]: keep */ but strip -->\n' });
  expectRun(sb, ['scan', '--json'], {
    status: 1,
    stdout:
      JSON.stringify([
        { path: 'a.ts', line: 1, kind: 'free', body: 'emit <!-- x -->' },
        { path: 'a.ts', line: 2, kind: 'ask', body: 'keep --> but strip' },
        { path: 'notes.txt', line: 2, kind: 'ask', body: 'keep */ but strip' },
      ]) + '\n',
  });
});
