// The one path rule for paths read back from stored state (src/git/verify-path.ts): a table of
// every alias class git's verify_path refuses (read-cache.c, path.c is_ntfs_dotgit, utf8.c
// is_hfs_dotgit), each row also put to git itself (`git update-index --add --cacheinfo` runs
// verify_path; core.protectNTFS and core.protectHFS on), so the table cannot drift from git;
// then the rows where git-kizu is stricter than git on Linux, and the tree-level checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';

const { pathProblem, treeProblem, isDotGitComponent, MAX_PATH_DEPTH, unsafePathError } = await import(src('git/verify-path.ts'));

const DOTGIT = 'it leads into a .git directory';
const alias = (c) => `"${c}" is taken for .git by some file systems`;
const LINKMOD = 'a symbolic link named .gitmodules (or a name taken for it) is refused by git';

// [path, symlink?, expected problem or null]: git agrees on every row.
const SAME_AS_GIT = [
  ['src/a.js', false, null],
  ['.gitignore', false, null],
  ['.github/workflows/ci.yml', false, null],
  ['.gitx/a', false, null],
  ['a.git/b', false, null],
  ['...', false, null],
  ['git~2/a', false, null],
  ['.gitmodules', false, null],
  ['gitmod~1', false, null],
  ['../x', false, 'a ".." component leaves the working tree'],
  ['a/../../x', false, 'a ".." component leaves the working tree'],
  ['a/./b', false, 'it has a "." component'],
  ['.', false, 'it has a "." component'],
  ['a//b', false, 'it has an empty component'],
  ['/etc/passwd', false, 'it is an absolute path'],
  ['.git/hooks/pre-commit', false, DOTGIT],
  ['sub/.git/config', false, DOTGIT],
  ['.GIT/hooks/pre-commit', false, DOTGIT],
  ['.Git', false, DOTGIT],
  ['git~1/hooks/pre-commit', false, alias('git~1')],
  ['GIT~1/config', false, alias('GIT~1')],
  ['.git./hooks/x', false, alias('.git.')],
  ['.git /hooks/x', false, alias('.git ')],
  ['.git. . /hooks/x', false, alias('.git. . ')],
  ['.git::$INDEX_ALLOCATION/hooks/x', false, alias('.git::$INDEX_ALLOCATION')],
  ['.git:stream', false, alias('.git:stream')],
  ['git~1::$INDEX_ALLOCATION/x', false, alias('git~1::$INDEX_ALLOCATION')],
  ['.g\u200cit/hooks/x', false, alias('.g\\342\\200\\214it')],
  ['\u200c.git\ufeff/x', false, alias('\\342\\200\\214.git\\357\\273\\277')],
  ['.gi\u202et/x', false, alias('.gi\\342\\200\\256t')],
  ['.gitmodules', true, LINKMOD],
  ['.GITMODULES', true, LINKMOD],
  ['sub/.gitmodules', true, LINKMOD],
  ['gitmod~1', true, LINKMOD],
  ['GITMOD~4', true, LINKMOD],
  ['gi7eba~1', true, LINKMOD],
  ['gi7eb~12', true, LINKMOD],
  ['.gitmodules. ', true, LINKMOD],
  ['.gitmodules:x', true, LINKMOD],
  ['.git\u200dmodules', true, LINKMOD],
  ['gitmod~5', true, null],
  ['.gitmodulesx', true, null],
  ['.gitattributes', true, null],
];

test('pathProblem: each alias class, as git itself decides it', () => {
  const sb = sandbox();
  const empty = sb.git('hash-object', '-w', '--stdin').trim();
  const env = { GIT_INDEX_FILE: path.join(sb.base, 'probe-index') };
  for (const [p, symlink, want] of SAME_AS_GIT) {
    assert.equal(pathProblem(p, { symlink }), want, `${JSON.stringify(p)} symlink=${symlink}`);
    const r = sb.run('git', ['-c', 'core.protectNTFS=true', '-c', 'core.protectHFS=true', 'update-index', '--add', '--cacheinfo', `${symlink ? '120000' : '100644'},${empty},${p}`], { env });
    // git normalises nothing here: a path it accepts is a path it would check out.
    assert.equal(r.status === 0, want === null, `git on ${JSON.stringify(p)} symlink=${symlink}: ${r.stderr}`);
  }
});

test('pathProblem: stricter than git on Linux (backslash, NUL, empty, depth)', () => {
  assert.equal(pathProblem('a\\b'), 'it holds a backslash, which Windows reads as a directory separator');
  assert.equal(pathProblem('..\\x'), 'it holds a backslash, which Windows reads as a directory separator');
  assert.equal(pathProblem('.git\\hooks\\pre-commit'), 'it holds a backslash, which Windows reads as a directory separator');
  assert.equal(pathProblem('a\0b'), 'it holds a NUL byte');
  assert.equal(pathProblem(''), 'the path is empty');
  assert.equal(pathProblem('a/'), 'it has an empty component');
  assert.equal(pathProblem(Array(MAX_PATH_DEPTH).fill('d').join('/')), null);
  assert.equal(pathProblem(Array(MAX_PATH_DEPTH + 1).fill('d').join('/')), `it is nested ${MAX_PATH_DEPTH + 1} directories deep (at most ${MAX_PATH_DEPTH})`);
  assert.equal(isDotGitComponent('.git'), true);
  assert.equal(isDotGitComponent('.gitignore'), false);
});

test('treeProblem: modes, paths listed twice, anything under a file, link or submodule', () => {
  const e = (p, mode = '100644') => ({ path: p, mode });
  assert.equal(treeProblem([e('a'), e('d', '040000'), e('d/b', '100755'), e('l', '120000'), e('m', '160000')]), null);
  assert.deepEqual(treeProblem([e('a'), e('x/../../y')]), { path: 'x/../../y', why: 'a ".." component leaves the working tree' });
  assert.deepEqual(treeProblem([e('a', '100664')]), { path: 'a', why: 'it has mode 100664, which is not a git file mode' });
  assert.deepEqual(treeProblem([e('a'), e('a')]), { path: 'a', why: 'the tree lists it twice' });
  assert.deepEqual(treeProblem([e('l', '120000'), e('l/x')]), { path: 'l/x', why: 'it is under l, which the same tree holds as a file, symbolic link or submodule' });
  assert.deepEqual(treeProblem([e('f'), e('f/g/h')]), { path: 'f/g/h', why: 'it is under f, which the same tree holds as a file, symbolic link or submodule' });
  assert.deepEqual(treeProblem([e('m', '160000'), e('m/x')]), { path: 'm/x', why: 'it is under m, which the same tree holds as a file, symbolic link or submodule' });
  assert.deepEqual(treeProblem([e('.gitmodules', '120000')]), { path: '.gitmodules', why: LINKMOD });
  assert.equal(treeProblem([e('.gitmodules')]), null);
});

test('unsafePathError: names the origin and the path escaped, exit 2', () => {
  const err = unsafePathError('snapshot S (refs/kizu/snapshots/S)', 'a\x1b[31m/../x', 'why', 'hint');
  assert.equal(err.message, 'snapshot S (refs/kizu/snapshots/S) names an unsafe path "a\\033[31m/../x": why; nothing was changed');
  assert.equal(err.hint, 'hint');
  assert.equal(err.exitCode, 2);
  assert.equal(unsafePathError('o', '', 'the path is empty', 'h').message, 'o names an unsafe path "": the path is empty; nothing was changed');
});
