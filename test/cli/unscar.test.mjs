// `git kizu unscar` through the real bin in real temp repos: exact file bytes, stdout,
// stderr and exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun } from '../helpers/expect.mjs';
import { ASK, REJECT, expectRefused } from '../helpers/scars.mjs';

test('unscar: one scar by its line or the line below it, all in a file, --all in the repo', () => {
  const sb = sandbox({
    files: {
      'a.ts': `// ${ASK}\na;\nb;\n  // @kizu[free]: inline b\n  c;\n`,
      'd/b.py': `# ${REJECT}\nx = 1\n`,
      'README.md': '# Doc\n\n```ts\n// @kizu[ask]: an example in a fence\n```\n<!-- @kizu[ask]: real one -->\ntext\n',
    },
  });
  expectRun(sb, ['unscar', 'a.ts:2'], { status: 0, stdout: `removed a.ts:1  // ${ASK}\n` });
  assert.equal(sb.read('a.ts'), 'a;\nb;\n  // @kizu[free]: inline b\n  c;\n');
  expectRefused(sb, ['unscar', 'a.ts:1'], 'a.ts', { status: 1, stderr: err('a.ts:1: no scar on this line or directly above it', 'use git kizu scan to list scars with their lines') });
  expectRun(sb, ['unscar', 'a.ts:3'], { status: 0, stdout: 'removed a.ts:3  // @kizu[free]: inline b\n' });
  expectRun(sb, ['unscar', 'a.ts'], { status: 0, stdout: 'no scars in a.ts\n' });
  expectRun(sb, ['unscar', '--all'], { status: 0, stdout: `removed README.md:6  <!-- @kizu[ask]: real one -->\nremoved d/b.py:1  # ${REJECT}\n` });
  assert.equal(sb.read('README.md'), '# Doc\n\n```ts\n// @kizu[ask]: an example in a fence\n```\ntext\n');
  assert.equal(sb.read('d/b.py'), 'x = 1\n');
  expectRun(sb, ['unscar', '--all'], { status: 0, stdout: 'no scars found\n' });
  expectRefused(sb, ['unscar', 'a.ts', '--all'], null, { stderr: err('--all takes no path', 'use either git kizu unscar --all or git kizu unscar <path>[:<line>]') });
  expectRefused(sb, ['unscar'], null, { stderr: err('missing <path>[:<line>] or --all', 'e.g. git kizu unscar src/app.ts:41') });
});

test('unscar <path> removes the file\'s scars but not markers inside markdown code fences', () => {
  const sb = sandbox({ files: { 'doc.md': '<!-- @kizu[ask]: why -->\n```\n# @kizu[ask]: sample\n```\n~~~~md\n<!-- @kizu[reject]: sample -->\n~~~~\n' } });
  expectRun(sb, ['unscar', 'doc.md'], { status: 0, stdout: 'removed doc.md:1  <!-- @kizu[ask]: why -->\n' });
  assert.equal(sb.read('doc.md'), '```\n# @kizu[ask]: sample\n```\n~~~~md\n<!-- @kizu[reject]: sample -->\n~~~~\n');
  expectRefused(sb, ['unscar', 'doc.md:2'], 'doc.md', { status: 1, stderr: err('doc.md:2: no scar on this line or directly above it', 'use git kizu scan to list scars with their lines') });
});
