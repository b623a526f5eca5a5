// src/agents/apply-patch.ts: Codex's apply_patch text parsed, its update chunks applied and
// reversed as codex-rs/apply-patch does, and what a patch says it did to each file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { parseApplyPatch, patchedPaths, applyChunks, unapplyChunks, patchReports, PatchSyntaxError } = await import(src('agents/apply-patch.ts'));

const chunk = (context, oldLines, newLines, endOfFile = false) => ({ context, oldLines, newLines, endOfFile });

const MULTI =
  '*** Begin Patch\n' +
  '*** Add File: docs/new.md\n+# New\n+\n+text\n' +
  '*** Update File: src/config.rs\n@@ impl Config\n-    pub a: bool,\n+    pub b: bool,\n     pub c: bool,\n@@ fn f()\n-    x\n+    y\n' +
  '*** Delete File: src/old.rs\n' +
  '*** Update File: crates/main.rs\n*** Move to: crates/bin/codex.rs\n@@\n-let a = 1;\n+let a = 2;\n' +
  '*** Update File: README.md\n@@\n last line\n+appended\n*** End of File\n' +
  '*** End Patch\n';

test('parse: add, update with @@ contexts, delete, update with move, End of File', () => {
  assert.deepEqual(parseApplyPatch(MULTI), [
    { path: 'docs/new.md', kind: 'add', moveTo: null, hunks: [], contents: '# New\n\ntext\n' },
    {
      path: 'src/config.rs',
      kind: 'update',
      moveTo: null,
      hunks: [chunk('impl Config', ['    pub a: bool,', '    pub c: bool,'], ['    pub b: bool,', '    pub c: bool,']), chunk('fn f()', ['    x'], ['    y'])],
      contents: null,
    },
    { path: 'src/old.rs', kind: 'delete', moveTo: null, hunks: [], contents: null },
    { path: 'crates/main.rs', kind: 'update', moveTo: 'crates/bin/codex.rs', hunks: [chunk(null, ['let a = 1;'], ['let a = 2;'])], contents: null },
    { path: 'README.md', kind: 'update', moveTo: null, hunks: [chunk(null, ['last line'], ['last line', 'appended'], true)], contents: null },
  ]);
  assert.deepEqual(patchedPaths(parseApplyPatch(MULTI)), ['docs/new.md', 'src/config.rs', 'src/old.rs', 'crates/main.rs', 'crates/bin/codex.rs', 'README.md']);
});

test('parse: the recorded Codex payload patch, a first chunk without @@, an empty line as context, a here-document, CRLF, blanks around markers', () => {
  assert.deepEqual(parseApplyPatch('*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n'), [
    { path: 'hello.txt', kind: 'add', moveTo: null, hunks: [], contents: 'hello\n' },
  ]);
  assert.deepEqual(parseApplyPatch('*** Begin Patch\n*** Update File: f.py\n import foo\n\n+bar\n*** End Patch'), [
    { path: 'f.py', kind: 'update', moveTo: null, hunks: [chunk(null, ['import foo', ''], ['import foo', '', 'bar'])], contents: null },
  ]);
  const wrapped = "<<'EOF'\n*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\nEOF\n";
  assert.deepEqual(parseApplyPatch(wrapped), [{ path: 'a.txt', kind: 'delete', moveTo: null, hunks: [], contents: null }]);
  assert.deepEqual(parseApplyPatch('*** Begin Patch \r\n*** Delete File: a.txt\r\n *** End Patch'), [{ path: 'a.txt', kind: 'delete', moveTo: null, hunks: [], contents: null }]);
  assert.deepEqual(parseApplyPatch('*** Begin Patch\n*** End Patch'), []);
});

test('parse: text Codex refuses throws PatchSyntaxError with the line', () => {
  const cases = [
    ['bad', "the first line of the patch must be '*** Begin Patch'"],
    ['*** Begin Patch\n*** Add File: a\n+x', "the last line of the patch must be '*** End Patch'"],
    ['*** Begin Patch\n*** Frobnicate: a\n*** End Patch', "line 2: '*** Frobnicate: a' is not a hunk header (*** Add File: , *** Delete File:  or *** Update File: <path>)"],
    ['*** Begin Patch\n*** Update File: a\n*** End Patch', "line 2: update of 'a' has no chunks"],
    ['*** Begin Patch\n*** Update File: a\n@@\n-x\n@@\n*** End Patch', 'line 6: update chunk has no lines'],
    ['*** Begin Patch\n*** Update File: a\n@@\nx\n*** End Patch', "line 4: unexpected line in update chunk: 'x'"],
    ['*** Begin Patch\n*** Update File: a\n-x\nfoo\n*** End Patch', "line 4: expected an update chunk to start with @@, got 'foo'"],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseApplyPatch(text), (e) => e instanceof PatchSyntaxError && e.message === message, text);
  }
});

test('applyChunks: as Codex applies them (context seek, loose match, insertion at the end, final newline)', () => {
  assert.equal(applyChunks('foo\nbar\n', [chunk(null, ['foo', 'bar'], ['foo', 'baz'])]), 'foo\nbaz\n');
  assert.equal(applyChunks('a\nb\nc\nd\ne\nf\n', [chunk(null, ['a', 'b'], ['a', 'B']), chunk(null, ['c', 'd', 'e'], ['c', 'd', 'E']), chunk(null, ['f'], ['f', 'g'], true)]), 'a\nB\nc\nd\nE\nf\ng\n');
  // The @@ context moves the search past its line: the second `x` is replaced.
  assert.equal(applyChunks('x\nfn g()\nx\n', [chunk('fn g()', ['x'], ['y'])]), 'x\nfn g()\ny\n');
  // No old lines: appended at the end.
  assert.equal(applyChunks('a\n', [chunk(null, [], ['z'])]), 'a\nz\n');
  // Trailing blanks in the file do not stop a match; the new lines are written as the patch has them.
  assert.equal(applyChunks('a  \nb\n', [chunk(null, ['a', 'b'], ['a', 'c'])]), 'a\nc\n');
  // A file without a final newline gets one.
  assert.equal(applyChunks('a\nb', [chunk(null, ['b'], ['c'])]), 'a\nc\n');
  assert.equal(applyChunks('a\n', [chunk(null, ['q'], ['r'])]), undefined);
  assert.equal(applyChunks('a\n', [chunk('nope', ['a'], ['b'])]), undefined);
});

test('unapplyChunks: the text before, checked by applying forwards; undefined where it does not fit', () => {
  const chunks = [chunk(null, ['const a = 1;', 'const c = 3;'], ['const a = 1;', 'const c = 30;'])];
  const before = 'const a = 1;\nconst c = 3;\nconst d = 4;\n';
  const after = applyChunks(before, chunks);
  assert.equal(after, 'const a = 1;\nconst c = 30;\nconst d = 4;\n');
  assert.equal(unapplyChunks(after, chunks), before);
  // Appended lines come off the end.
  assert.equal(unapplyChunks('a\nz\n', [chunk(null, [], ['z'])]), 'a\n');
  // The file changed since the patch: the new lines are not there.
  assert.equal(unapplyChunks('const a = 1;\nconst c = 31;\n', chunks), undefined);
  // A chunk that only deleted lines cannot be placed in the text after it.
  assert.equal(unapplyChunks('a\nc\n', [chunk(null, ['b'], [])]), undefined);
  // With the deleted line's neighbours as context it can.
  assert.equal(unapplyChunks('a\nc\n', [chunk(null, ['a', 'b', 'c'], ['a', 'c'])]), 'a\nb\nc\n');
  // Reversal takes the first `z`, but appending `z` to that text does not give `after`: refused.
  assert.equal(unapplyChunks('z\na\nz\n', [chunk(null, [], ['z'])]), undefined);
  // Where two texts fit, the first one found is taken (both give `after` when patched).
  assert.equal(unapplyChunks('y\ny\n', [chunk(null, ['x'], ['y'])]), 'x\ny\n');
});

test('patchReports: per path, what the journal can know', () => {
  const files = parseApplyPatch(
    '*** Begin Patch\n*** Add File: n.txt\n+new\n*** Delete File: gone.txt\n*** Update File: u.txt\n@@\n-1\n+2\n*** Update File: m.txt\n*** Move to: moved.txt\n@@\n-x\n+y\n*** End Patch\n',
  );
  const r = patchReports(files);
  assert.deepEqual(Object.keys(r), ['n.txt', 'gone.txt', 'u.txt', 'm.txt', 'moved.txt']);
  assert.deepEqual(r['n.txt'], { before: null, beforeUnknown: false, after: Buffer.from('new\n') });
  assert.deepEqual(r['gone.txt'], { before: null, beforeUnknown: true, after: undefined });
  assert.deepEqual({ ...r['u.txt'], beforeFrom: r['u.txt'].beforeFrom.path }, { before: null, beforeUnknown: true, after: undefined, beforeFrom: 'u.txt' });
  assert.deepEqual(r['u.txt'].beforeFrom.derive(Buffer.from('0\n2\n')), Buffer.from('0\n1\n'));
  assert.equal(r['u.txt'].beforeFrom.derive(Buffer.from('0\n3\n')), undefined);
  assert.equal(r['u.txt'].beforeFrom.derive(Buffer.from([0x32, 0x0a, 0xff])), undefined, 'not UTF-8');
  assert.deepEqual(r['u.txt'].beforeFrom.derive(Buffer.from('0\r\n2\r\n')), Buffer.from('0\r\n1\r\n'), 'CRLF throughout');
  assert.deepEqual(r['u.txt'].beforeFrom.derive(Buffer.from('0\r\n2\n')), Buffer.from('0\r\n1\n'), 'mixed line ends: lines as they are');
  assert.equal(r['u.txt'].beforeFrom.derive(Buffer.from('0\n2\r\n')), undefined, 'a CR on a patched line that the patch does not have: no fit');
  // A move: the old path's before content comes from the new path's file; the new path is created.
  assert.equal(r['m.txt'].beforeFrom.path, 'moved.txt');
  assert.deepEqual(r['m.txt'].beforeFrom.derive(Buffer.from('y\n')), Buffer.from('x\n'));
  assert.deepEqual(r['moved.txt'], { before: null, beforeUnknown: false, after: undefined });
  // A path named twice: unknown.
  const twice = patchReports(parseApplyPatch('*** Begin Patch\n*** Delete File: a\n*** Add File: a\n+b\n*** End Patch'));
  assert.deepEqual(twice, { a: { before: null, beforeUnknown: true, after: undefined } });
});
