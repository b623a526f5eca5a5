// Scars in files with lone CR line endings (old Mac files) and mixed CR / LF / CRLF endings.
// A line ends at `\r\n`, `\n` or a lone `\r`, as editors show the file (git diff sees a
// CR-only file as one line): scar, scan, unscar and scar --undo all count lines that way, the
// scar takes the file's own line ending, and removing it gives back the file byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun } from '../helpers/expect.mjs';
import { ASK, REJECT } from '../helpers/scars.mjs';

test('CR-only file: the scar lands above line N with a CR ending; scan names that line; unscar and undo give back every byte', () => {
  const cr = 'x = 1\ry = 2\rz = 3\r';
  const sb = sandbox({ files: { 'a.py': cr } });
  expectRun(sb, ['scar', 'a.py:2'], { status: 0, stdout: `scarred a.py:2  # ${ASK}\n` });
  assert.equal(sb.read('a.py'), `x = 1\r# ${ASK}\ry = 2\rz = 3\r`);
  expectRun(sb, ['scan'], { status: 1, stdout: 'a.py:2  [ask]  explain this change\n' });
  expectRun(sb, ['unscar', 'a.py:3'], { status: 0, stdout: `removed a.py:2  # ${ASK}\n` });
  assert.equal(sb.read('a.py'), cr);
  expectRun(sb, ['scar', 'a.py:3', '-k', 'reject'], { status: 0, stdout: `scarred a.py:3  # ${REJECT}\n` });
  assert.equal(sb.read('a.py'), `x = 1\ry = 2\r# ${REJECT}\rz = 3\r`);
  expectRun(sb, ['scar', '--undo'], { status: 0, stdout: `removed scar a.py:3  # ${REJECT}\n` });
  assert.equal(sb.read('a.py'), cr);
});

test('CR-only file without a final CR: appending after the last line and unscar keep the missing final ending', () => {
  const cr = 'x = 1\ry = 2';
  const sb = sandbox({ files: { 'b.py': cr } });
  expectRun(sb, ['scar', 'b.py:3'], { status: 0, stdout: `scarred b.py:3  # ${ASK}\n` });
  assert.equal(sb.read('b.py'), `x = 1\ry = 2\r# ${ASK}`);
  expectRun(sb, ['unscar', 'b.py'], { status: 0, stdout: `removed b.py:3  # ${ASK}\n` });
  assert.equal(sb.read('b.py'), cr);
  expectRun(sb, ['scar', 'b.py:2'], { status: 0, stdout: `scarred b.py:2  # ${ASK}\n` });
  assert.equal(sb.read('b.py'), `x = 1\r# ${ASK}\ry = 2`);
  expectRun(sb, ['unscar', 'b.py:2'], { status: 0, stdout: `removed b.py:2  # ${ASK}\n` });
  assert.equal(sb.read('b.py'), cr);
  expectRun(sb, ['unscar', 'b.py:3'], { status: 2, stdout: '', stderr: err('b.py:3: line is beyond the end of the file (it has 2 lines)', 'use git kizu scan to list scars with their lines') });
});

test('mixed CR, LF and CRLF endings: each scar takes the ending of the line it stands above (above a last line without one: the first ending in the file); unscar gives back every byte', () => {
  const mixed = 'a = 1\rb = 2\r\nc = 3\nd = 4';
  const sb = sandbox({ files: { 'm.py': mixed } });
  expectRun(sb, ['scar', 'm.py:4'], { status: 0, stdout: `scarred m.py:4  # ${ASK}\n` });
  assert.equal(sb.read('m.py'), `a = 1\rb = 2\r\nc = 3\n# ${ASK}\rd = 4`);
  expectRun(sb, ['scar', 'm.py:2', '-k', 'reject'], { status: 0, stdout: `scarred m.py:2  # ${REJECT}\n` });
  assert.equal(sb.read('m.py'), `a = 1\r# ${REJECT}\r\nb = 2\r\nc = 3\n# ${ASK}\rd = 4`);
  expectRun(sb, ['scar', 'm.py:1', '-k', 'free', '-m', 'first'], { status: 0, stdout: 'scarred m.py:1  # @kizu[free]: first\n' });
  assert.equal(sb.read('m.py'), `# @kizu[free]: first\ra = 1\r# ${REJECT}\r\nb = 2\r\nc = 3\n# ${ASK}\rd = 4`);
  expectRun(sb, ['scan'], { status: 1, stdout: `m.py:1  [free]  first\nm.py:3  [reject]  revert this change\nm.py:6  [ask]  explain this change\n` });
  expectRun(sb, ['unscar', 'm.py'], {
    status: 0,
    stdout: `removed m.py:1  # @kizu[free]: first\nremoved m.py:3  # ${REJECT}\nremoved m.py:6  # ${ASK}\n`,
  });
  assert.equal(sb.read('m.py'), mixed);
});

test('CR-only Markdown: a fenced code block is found by its CR-ended lines, and a scar inside it is refused', () => {
  const md = '# T\r\r```\rcode\r```\rtext\r';
  const sb = sandbox({ files: { 'r.md': md } });
  expectRun(sb, ['scar', 'r.md:4'], {
    status: 2,
    stdout: '',
    stderr: err(
      'r.md:4: this line is inside a fenced code block (opened at line 3), where git kizu scan does not look for scars',
      'scar the fence instead: git kizu scar r.md:3, or use git kizu queue add --at r.md:4 "<text>"',
    ),
  });
  assert.equal(sb.read('r.md'), md);
  expectRun(sb, ['scar', 'r.md:6'], { status: 0, stdout: `scarred r.md:6  <!-- ${ASK} -->\n` });
  assert.equal(sb.read('r.md'), `# T\r\r\`\`\`\rcode\r\`\`\`\r<!-- ${ASK} -->\rtext\r`);
});

test('revert -m in a file with lone CRs: the scar stands above the reverted line (git counts lines at LF only)', () => {
  const base = 'p = 0\nx = 1\ry = 2\nz = 3\n';
  const sb = sandbox({ files: { 'c.py': base } });
  writeFileSync(sb.path('c.py'), 'p = 0\nx = 1\ry = 2\nz = 30\n');
  const [h] = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  const r = sb.kizu(['revert', h.shortId, '-m', 'keep z']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('c.py'), 'p = 0\nx = 1\ry = 2\n# @kizu[reject]: reverted: keep z\nz = 3\n');
});
