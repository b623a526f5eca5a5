// `git kizu patch apply` through the real bin in real temp repos: multi-file patches applied
// exactly and journaled (and rolled back), --dry-run, every malformed or misfitting patch
// refused with nothing written, all or nothing, -p0, CRLF, GNU diffs, and no way through a
// symbolic link or into a special file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, statSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { journalTip } from '../helpers/refs.mjs';

const PATCH_HINT = 'hint: fix the patch (see git-apply(1) for the unified format) and run the command again; nothing was written\n';
const MISMATCH_HINT = 'hint: the file differs from what the patch expects; regenerate the patch against the current file (nothing was written)\n';

const TEN = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';
const FILES = { 'a.txt': TEN, 'b.txt': 'alpha\nbeta\n', 'old.txt': 'x\ny\n' };

const PATCH = [
  'A commit message before the diff is skipped.',
  '',
  'diff --git a/a.txt b/a.txt',
  'index 0123abc..4567def 100644',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,3 +1,3 @@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  '@@ -8,3 +8,4 @@ seven',
  ' eight',
  ' nine',
  ' ten',
  '+eleven',
  'diff --git a/new/c.txt b/new/c.txt',
  'new file mode 100644',
  'index 0000000..89abcde',
  '--- /dev/null',
  '+++ b/new/c.txt',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '+world',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  'index 89abcde..0000000',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-x',
  '-y',
  '',
].join('\n');

test('patch apply: a multi-file patch (modify, create, delete) applies exactly, is journaled, and rollback patch undoes it', () => {
  const sb = sandbox({ files: FILES });
  chmodSync(sb.path('a.txt'), 0o755);
  writeFileSync(path.join(sb.base, 'p.diff'), PATCH);
  const before = tree(sb.dir);
  const r = sb.kizu(['patch', 'apply', '--yes', path.join(sb.base, 'p.diff')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const id = journalTip(sb).slice(0, 8);
  assert.equal(
    r.stdout,
    'patched a.txt (+2 -1)\ncreated new/c.txt (+2)\ndeleted old.txt (-2)\n' + `journal entry ${id}; undo with: git kizu rollback patch ${id}\n`,
  );
  assert.equal(sb.read('a.txt'), 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n');
  assert.equal(statSync(sb.path('a.txt')).mode & 0o777, 0o755, 'mode kept');
  assert.equal(sb.read('new/c.txt'), 'hello\nworld\n');
  assert.ok(!existsSync(sb.path('old.txt')));
  assert.equal(sb.read('b.txt'), 'alpha\nbeta\n');

  const j = JSON.parse(sb.kizu(['journal', '--json']).stdout);
  assert.equal(j.length, 1);
  const blob = (s) => sb.git('hash-object', '--stdin', { input: s }).trim();
  assert.deepEqual(
    j[0].files.map(({ mode, ...f }) => f),
    [
      { path: 'a.txt', before: blob(TEN), after: blob(sb.read('a.txt')), added: 2, removed: 1 },
      { path: 'new/c.txt', before: null, after: blob('hello\nworld\n'), added: 2, removed: 0 },
      { path: 'old.txt', before: blob('x\ny\n'), after: null, added: 0, removed: 2 },
    ],
  );
  assert.equal(j[0].tool, 'patch-apply');
  assert.equal(j[0].session, null);
  assert.equal(j[0].files[0].mode, 0o755);

  const u = sb.kizu(['rollback', 'patch', '--yes', id]);
  assert.equal(u.status, 0, u.stderr);
  assert.equal(
    u.stdout.split('\n').slice(0, 3).join('\n'),
    [
      `rolled back ${id} (patch-apply): restored a.txt (unchanged since, put back exactly)`,
      `rolled back ${id} (patch-apply): deleted new/c.txt (it created the file, unchanged since)`,
      `rolled back ${id} (patch-apply): re-created old.txt (it had deleted the file)`,
    ].join('\n'),
  );
  assert.ok(!existsSync(sb.path('new')), 'the directory the patch created is gone');
  assert.deepEqual(tree(sb.dir), before);
});

test('patch apply --dry-run prints each hunk before and after, exactly, and writes nothing', () => {
  const sb = sandbox({ files: { ...FILES, 'tail.txt': 'keep\nlast' } });
  const patch =
    PATCH +
    ['--- a/tail.txt\t2024-01-01 00:00:00.000000000 +0000', '+++ b/tail.txt\t2024-01-02 00:00:00.000000000 +0000', '@@ -1,2 +1,2 @@', ' keep', '-last', '\\ No newline at end of file', '+last\twith tab', ''].join('\n');
  const before = tree(sb.dir);
  const r = expectRun(sb, ['patch', 'apply', '--dry-run', '-'], {
    input: patch,
    status: 0,
    stdout: [
      'would patch a.txt: 2 hunks, +2 -1',
      '  hunk 1 @@ -1,3 +1,3 @@',
      '    before, lines 1-3:',
      '      1  one',
      '      2  two',
      '      3  three',
      '    after, lines 1-3:',
      '      1  one',
      '      2  TWO',
      '      3  three',
      '  hunk 2 @@ -8,3 +8,4 @@ seven',
      '    before, lines 8-10:',
      '       8  eight',
      '       9  nine',
      '      10  ten',
      '    after, lines 8-11:',
      '       8  eight',
      '       9  nine',
      '      10  ten',
      '      11  eleven',
      'would create new/c.txt: +2',
      '  hunk 1 @@ -0,0 +1,2 @@',
      '    before: nothing',
      '    after, lines 1-2:',
      '      1  hello',
      '      2  world',
      'would delete old.txt: -2',
      '  hunk 1 @@ -1,2 +0,0 @@',
      '    before, lines 1-2:',
      '      1  x',
      '      2  y',
      '    after: nothing',
      'would patch tail.txt: 1 hunk, +1 -1',
      '  hunk 1 @@ -1,2 +1,2 @@',
      '    before, lines 1-2:',
      '      1  keep',
      '      2  last',
      '         \\ No newline at end of file',
      '    after, lines 1-2:',
      '      1  keep',
      '      2  last\twith tab',
      'dry run: 4 files would change; nothing written',
      '',
    ].join('\n'),
  });
  assert.ok(r);
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(journalTip(sb), '');
  // And for real: the line that had no newline gets one, exactly as the patch says.
  const a = sb.kizu(['patch', 'apply', '--yes', '-'], { input: patch });
  assert.equal(a.status, 0, a.stderr);
  assert.equal(sb.read('tail.txt'), 'keep\nlast\twith tab\n');
});

const A = (body) => `--- a/a.txt\n+++ b/a.txt\n${body}`;

/** [what, patch, message] for each malformed-diff rule (exit 2, nothing written). */
const MALFORMED = [
  ['no file in the patch', 'just some text\n', 'the patch holds no file changes (no "---"/"+++" headers)'],
  ['"---" without "+++"', '--- a/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n', 'patch line 1: a "---" header must be followed by a "+++" header'],
  ['"+++" without "---"', 'text\n+++ b/a.txt\n', 'patch line 2: a "+++" header without the "---" header before it'],
  ['a hunk outside a file', '@@ -1 +1 @@\n-one\n+ONE\n', 'patch line 1: a hunk outside a file section (no "---"/"+++" header before it)'],
  ['both sides /dev/null', '--- /dev/null\n+++ /dev/null\n', 'patch line 1: both sides are /dev/null'],
  ['a file header without hunks', A(''), 'a.txt (patch line 1): the file header is not followed by a "@@" hunk'],
  ['a malformed hunk header', A('@@ -1,x +1 @@\n-one\n'), 'a.txt: hunk 1 (patch line 3): malformed hunk header "@@ -1,x +1 @@"; expected "@@ -<start>,<count> +<start>,<count> @@"'],
  ['a hunk that changes nothing', A('@@ -1,0 +1,0 @@\n'), 'a.txt: hunk 1 (@@ -1,0 +1,0 @@, patch line 3): the hunk changes nothing (both counts are 0)'],
  ['a hunk cut short by the end of the patch', A('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n'), 'a.txt: hunk 1 (@@ -1,3 +1,3 @@, patch line 3): the patch ends 1 old and 1 new line(s) short of what the header counts'],
  ['a hunk longer than its counts', A('@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n three\n'), 'a.txt: hunk 1 (@@ -1,2 +1,2 @@, patch line 3): patch line 7 continues the hunk past the line counts in its header (2 old, 2 new)'],
  ['more removed lines than counted', A('@@ -1,1 +1,2 @@\n-one\n-two\n'), "a.txt: hunk 1 (@@ -1,1 +1,2 @@, patch line 3), patch line 5: more old lines (' ' and '-') than the header's count 1"],
  ['an empty line inside a hunk', A('@@ -1,3 +1,3 @@\n one\n\n three\n'), 'a.txt: hunk 1 (@@ -1,3 +1,3 @@, patch line 3): the hunk ends early at patch line 5: 2 old and 2 new line(s) still expected, found an empty line (a blank context line must be a single space)'],
  ['a body line with another prefix', A('@@ -1,2 +1,2 @@\n one\n*two\n'), 'a.txt: hunk 1 (@@ -1,2 +1,2 @@, patch line 3): the hunk ends early at patch line 5: 1 old and 1 new line(s) still expected, found "*two", which is not a \' \', \'-\' or \'+\' line'],
  ['a "\\" line before any body line', A('@@ -1,1 +1,1 @@\n\\ No newline at end of file\n-one\n+ONE\n'), 'a.txt: hunk 1 (@@ -1,1 +1,1 @@, patch line 3), patch line 4: a "\\" line must follow a body line ("\\ No newline at end of file")'],
  ['overlapping hunks', A('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n@@ -3,2 +3,2 @@\n three\n-four\n+FOUR\n'), 'a.txt: hunk 2 (@@ -3,2 +3,2 @@, patch line 8): overlaps or comes before the previous hunk (old lines from 3, previous hunk ends at line 3); hunks must be in file order without overlap'],
  ['hunks out of order', A('@@ -5,1 +5,1 @@\n-five\n+FIVE\n@@ -1,1 +1,1 @@\n-one\n+ONE\n'), 'a.txt: hunk 2 (@@ -1,1 +1,1 @@, patch line 6): overlaps or comes before the previous hunk (old lines from 1, previous hunk ends at line 5); hunks must be in file order without overlap'],
  ['a new start that does not follow', A('@@ -1,3 +1,4 @@\n one\n+1.5\n two\n three\n@@ -5,1 +5,1 @@\n-five\n+FIVE\n'), 'a.txt: hunk 2 (@@ -5,1 +5,1 @@, patch line 8): the new start 5 does not follow from the hunks before it (expected +6)'],
  ['a created file with a hunk not at 0,0', '--- /dev/null\n+++ b/n.txt\n@@ -1,0 +1,1 @@\n+x\n', 'n.txt: hunk 1 (@@ -1,0 +1,1 @@, patch line 3): a created file (--- /dev/null) takes exactly one hunk "@@ -0,0 +1,<n> @@"'],
  ['a binary diff', 'diff --git a/a.txt b/a.txt\nindex 1234567..89abcde 100644\nBinary files a/a.txt and b/a.txt differ\n', 'patch line 3: "Binary files a/a.txt and b/a.txt differ": binary patches are not supported'],
  ['a git binary patch', 'diff --git a/a.txt b/a.txt\nindex 1234567..89abcde 100644\nGIT binary patch\nliteral 0\n', 'patch line 3: "GIT binary patch": binary patches are not supported'],
  ['a git rename', 'diff --git a/a.txt b/z.txt\nsimilarity index 90%\nrename from a.txt\nrename to z.txt\n', 'patch line 2: "similarity index 90%": renames and copies are not supported; patch the file in place or split the change'],
  ['a rename by ---/+++ names', '--- a/a.txt\n+++ b/z.txt\n@@ -1 +1 @@\n-one\n+ONE\n', 'patch line 1: "a/a.txt" → "b/z.txt" renames a file; renames are not supported'],
  ['a mode change', 'diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 100755\n', 'patch line 2: "old mode 100644": mode changes are not applied'],
  ['an executable new file', 'diff --git a/x.sh b/x.sh\nnew file mode 100755\n--- /dev/null\n+++ b/x.sh\n@@ -0,0 +1 @@\n+hi\n', 'patch line 2: "new file mode 100755": only regular non-executable files (mode 100644) are created; mode changes are not applied'],
  ['a path leaving the repository', '--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n', 'patch line 1: "a/../x" leaves the repository'],
  ['an absolute path', '--- /etc/hosts\n+++ /etc/hosts\n@@ -1 +1 @@\n-a\n+b\n', 'patch line 1: "/etc/hosts" is an absolute path; patches name files relative to the repository root'],
  ['a path inside .git', '--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n', 'patch line 1: "a/.git/config" is inside .git; git-kizu does not patch git\'s own files'],
  ['a file patched twice', A('@@ -1 +1 @@\n-one\n+ONE\n') + A('@@ -2 +2 @@\n-two\n+TWO\n'), 'patch line 6: a.txt is patched twice (first at patch line 1); one section per file'],
];

test('patch apply refuses every malformed or unsupported patch with exit 2, naming the line, and writes nothing', () => {
  const sb = sandbox({ files: FILES });
  const before = tree(sb.dir);
  for (const [k, [what, patch, msg]] of MALFORMED.entries()) {
    for (const dry of k % 4 === 0 ? [[], ['--dry-run']] : [[]]) {
      const r = sb.kizu(['patch', 'apply', ...dry, '-'], { input: patch });
      assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 2, stdout: '', stderr: `git-kizu: error: ${msg}\n${PATCH_HINT}` }, what);
    }
  }
  // -p that strips the whole name
  expectRun(sb, ['patch', 'apply', '--yes', '-p', '3', '-'], {
    input: A('@@ -1 +1 @@\n-one\n+ONE\n'),
    status: 2,
    stderr: `git-kizu: error: patch line 1: "a/a.txt" has fewer than 4 path components, so -p3 leaves no file name\n${PATCH_HINT}`,
  });
  expectRun(sb, ['patch', 'apply', '--yes', '-p', 'x', '-'], {
    input: A('@@ -1 +1 @@\n-one\n+ONE\n'),
    status: 2,
    stderr: 'git-kizu: error: -p takes a whole number >= 0, got "x"\nhint: use -p1 for a/ b/ prefixes (the default), -p0 for none\n',
  });
  expectRun(sb, ['patch', 'apply', '--yes', 'missing.diff'], {
    status: 2,
    stderr: `git-kizu: error: cannot read the patch missing.diff: ENOENT: no such file or directory, open '${sb.path('missing.diff')}'\nhint: give a patch file, or - to read it from stdin\n`,
  });
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(journalTip(sb), '');
});

test('a patch that does not fit: exit 1 naming file, hunk, line, expected and actual text; no file is written', () => {
  const sb = sandbox({ files: { ...FILES, 'a.txt': TEN.replace('two\n', 'two  \n') } });
  const before = tree(sb.dir);
  const fitsB = '--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-alpha\n+ALPHA\n beta\n';
  const r = expectRun(sb, ['patch', 'apply', '--yes', '-'], {
    input: fitsB + A('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n'),
    status: 1,
    stderr:
      'git-kizu: error: a.txt: hunk 1 (@@ -1,3 +1,3 @@) does not apply: line 2 differs\n' +
      '  expected: "two\\n"\n' +
      '  actual:   "two  \\n"\n' +
      MISMATCH_HINT,
  });
  assert.ok(r);
  // Several files that do not fit: each one's first problem.
  expectRun(sb, ['patch', 'apply', '--yes', '-'], {
    input:
      '--- a/b.txt\n+++ b/b.txt\n@@ -2,2 +2,2 @@\n beta\n-gamma\n+GAMMA\n' +
      '--- /dev/null\n+++ b/old.txt\n@@ -0,0 +1 @@\n+new\n' +
      '--- a/gone.txt\n+++ b/gone.txt\n@@ -1 +1 @@\n-a\n+b\n' +
      '--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n'.replace('--- a/old.txt', '--- a/old2.txt').replace('+++ /dev/null', '+++ /dev/null'),
    status: 1,
    stderr:
      'git-kizu: error: the patch does not apply to 4 files:\n' +
      '- b.txt: hunk 1 (@@ -2,2 +2,2 @@) does not apply: line 3 should be "gamma\\n", but b.txt has only 2 lines\n' +
      '- old.txt: the patch creates it (--- /dev/null), but it already exists\n' +
      '- gone.txt: the patch changes it, but it does not exist\n' +
      '- old2.txt: the patch deletes it, but it does not exist\n' +
      MISMATCH_HINT,
  });
  // A deletion that leaves lines behind, and a "\ No newline" line that would not be last.
  expectRun(sb, ['patch', 'apply', '--yes', '-'], {
    input: '--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-alpha\n',
    status: 1,
    stderr: 'git-kizu: error: b.txt: the patch deletes it (+++ /dev/null) but removes only 1 of its 2 lines\n' + MISMATCH_HINT,
  });
  expectRun(sb, ['patch', 'apply', '--yes', '-'], {
    input: '--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n\\ No newline at end of file\n',
    status: 1,
    stderr: 'git-kizu: error: b.txt: a line marked "\\ No newline at end of file" ("ALPHA") would not be the last line of the result\n' + MISMATCH_HINT,
  });
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(journalTip(sb), '');
});

test('all or nothing: when writing the second file fails, the first one is put back', () => {
  const sb = sandbox({ files: FILES });
  const before = tree(sb.dir);
  // A 250-byte file name passes every check, but the temp file written next to it for the
  // atomic rename (name + ".<hash>") exceeds NAME_MAX (255): the write fails with ENAMETOOLONG,
  // for root too.
  const long = 'L'.repeat(246) + '.txt';
  const patch = A('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n') + `--- /dev/null\n+++ b/${long}\n@@ -0,0 +1 @@\n+x\n`;
  const r = sb.kizu(['patch', 'apply', '--yes', '-'], { input: patch });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(
    r.stderr,
    new RegExp(
      '^' +
        esc(`git-kizu: error: could not write ${long}: ENAMETOOLONG: name too long, open '${sb.path(long)}.`) +
        "[0-9a-f]+'" +
        esc('; put back the 1 file already written (a.txt), so nothing changed\nhint: fix the cause (permissions, disk space, a directory in the way) and run the command again\n') +
        '$',
    ),
  );
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(journalTip(sb), '');
  // The same transaction, the failing file first: nothing was written before it.
  const r2 = sb.kizu(['patch', 'apply', '--yes', '-'], { input: `--- /dev/null\n+++ b/${long}\n@@ -0,0 +1 @@\n+x\n` + A('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n') });
  assert.equal(r2.status, 2);
  assert.match(r2.stderr, /'; nothing changed\nhint: /);
  assert.deepEqual(tree(sb.dir), before);
});

test('patch apply: -p0, CRLF lines kept byte for byte, a GNU diff with timestamps, and rollback of a partly edited result', () => {
  const sb = sandbox({ files: { 'w.txt': 'a\r\nb\r\nc\r\n', 'sub/n.txt': '1\n2\n3\n4\n5\n6\n7\n8\n9\n' } });
  const r = sb.kizu(['patch', 'apply', '--yes', '-p0', '-'], { input: '--- w.txt\n+++ w.txt\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('w.txt'), 'a\r\nB\r\nc\r\n');
  const g = sb.kizu(['patch', 'apply', '--yes', '-'], {
    input: '--- sub/n.txt.orig\t2024-01-01 10:00:00 +0100\n+++ sub/n.txt\t2024-01-01 10:01:00 +0100\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n'.replace('sub/n.txt.orig', 'x/sub/n.txt').replace('+++ sub/n.txt', '+++ y/sub/n.txt'),
  });
  assert.equal(g.status, 0, g.stderr);
  assert.equal(sb.read('sub/n.txt'), '1\n2\nthree\n4\n5\n6\n7\n8\n9\n');
  // A later edit far away: rollback reverses the hunk by its context and keeps the edit.
  writeFileSync(sb.path('sub/n.txt'), '1\n2\nthree\n4\n5\n6\n7\n8\nNINE\n');
  const id = /journal entry ([0-9a-f]+)/.exec(g.stdout)[1];
  const u = sb.kizu(['rollback', 'patch', '--yes', id]);
  assert.equal(u.status, 0, u.stderr);
  assert.match(u.stdout, new RegExp(`^rolled back ${id} \\(patch-apply\\): reversed 1 hunk in sub/n.txt \\(later edits kept\\)\n`));
  assert.equal(sb.read('sub/n.txt'), '1\n2\n3\n4\n5\n6\n7\n8\nNINE\n');
});

test('patch apply never goes through a symbolic link or into a special file: outside the repository, into .git, onto another file, a FIFO; exit 2, nothing written', () => {
  const sb = sandbox({ files: { 'b.txt': 'secret\n', 'real/c.txt': 'secret\n' } });
  const outside = path.join(sb.base, 'outside.txt');
  writeFileSync(outside, 'secret\n');
  const outDir = path.join(sb.base, 'outdir');
  sb.run('mkdir', ['-p', outDir]);
  writeFileSync(path.join(outDir, 'c.txt'), 'secret\n');
  sb.run('ln', ['-s', outside, 'out-link']);
  sb.run('ln', ['-s', '.git/description', 'git-link']);
  sb.run('ln', ['-s', 'b.txt', 'in-link']);
  sb.run('ln', ['-s', outDir, 'out-dir']);
  sb.run('mkfifo', ['fifo']);
  const description = readFileSync(sb.path('.git/description'));
  const hint = 'hint: patch the file itself, inside the working tree (nothing was written)\n';
  const cases = [
    ['out-link', 'it is a symbolic link; git-kizu patches regular files only'],
    ['git-link', 'it is a symbolic link; git-kizu patches regular files only'],
    ['in-link', 'it is a symbolic link; git-kizu patches regular files only'],
    ['fifo', 'it is not a regular file (a FIFO, socket or device)'],
    ['out-dir/c.txt', `out-dir leads outside the repository (to ${outDir})`],
  ];
  for (const [file, why] of cases) {
    const patch = `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-secret\n+overwritten\n`;
    const r = sb.kizu(['patch', 'apply', '--yes', '-'], { input: patch });
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', `git-kizu: error: ${file}: ${why}\n${hint}`], file);
  }
  assert.equal(readFileSync(outside, 'utf8'), 'secret\n');
  assert.equal(readFileSync(path.join(outDir, 'c.txt'), 'utf8'), 'secret\n');
  assert.equal(sb.read('b.txt'), 'secret\n');
  assert.deepEqual(readFileSync(sb.path('.git/description')), description);
  assert.equal(journalTip(sb), '');
});
