// git-kizu's own refs (refs/kizu/journal, reverts, baseline, snapshots, tasks, trash, marks) moved onto the wrong object type
// or onto an object that is gone: commands stop with exit 2 naming the ref, what it points at
// and the fix; the journal hook exits 0 with one stderr line saying the edit was not recorded;
// no corrupt ref is ever overwritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { agentWrite, blob, common, entries } from '../helpers/journal.mjs';
import { rev } from '../helpers/refs.mjs';

const MISSING = '1234567890abcdef1234567890abcdef12345678';

/** What the loose ref file `ref` holds (both kinds of corruption here write one). */
const refFile = (sb, ref) => readFileSync(path.join(sb.dir, '.git', ref), 'utf8').trim();

/** Points `ref` at a new blob ('x\n'); returns the blob id. */
function blobRef(sb, ref) {
  const b = sb.git('hash-object', '-w', '--stdin', { input: 'x\n' }).trim();
  sb.git('update-ref', ref, b);
  return b;
}

/** Points `ref` at an object id that is not in the repository (git update-ref refuses that: the loose ref file is written). */
function missingRef(sb, ref) {
  const file = path.join(sb.dir, '.git', ref);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, MISSING + '\n');
  return MISSING;
}

const blobError = (ref, oid) =>
  `git-kizu: error: ${ref} points at a blob (${oid}), not a commit; git-kizu reads and writes nothing through it\n` +
  `hint: save it with \`git update-ref refs/kizu-corrupt/${ref.slice('refs/kizu/'.length)} ${oid}\`, then delete it with \`git update-ref -d ${ref}\`\n`;
const missingError = (ref) =>
  `git-kizu: error: ${ref} points at a missing object ${MISSING}; git-kizu reads and writes nothing through it\n` +
  `hint: the object is gone (see \`git fsck\`); delete the ref with \`git update-ref -d ${ref}\`\n`;

const writePayload = (sb, rel, content) => ({
  ...common(sb, 'sess-1'),
  tool_name: 'Write',
  tool_input: { file_path: sb.path(rel), content },
  tool_response: { type: 'create', filePath: sb.path(rel), content, structuredPatch: [], originalFile: null },
  tool_use_id: 'toolu_corrupt_1',
  duration_ms: 3,
});

for (const [kind, corrupt, error] of [
  ['a blob', blobRef, (ref, oid) => blobError(ref, oid)],
  ['a missing object', missingRef, (ref) => missingError(ref)],
]) {
  test(`refs/kizu/journal at ${kind}: journal and patch apply exit 2 naming it, nothing written; the hook records nothing, says so in one line, exits 0; the ref is kept`, () => {
    const sb = sandbox();
    const oid = corrupt(sb, 'refs/kizu/journal');
    const err = error('refs/kizu/journal', oid);
    expectRun(sb, ['journal'], { status: 2, stdout: '', stderr: err });
    expectRun(sb, ['journal', '--json'], { status: 2, stdout: '', stderr: err });
    writeFileSync(sb.path('new.txt'), 'new\n');
    const r = hook(sb, 'journal', writePayload(sb, 'new.txt', 'new\n'));
    const hint = err.split('\n')[1].slice('hint: '.length);
    const msg = err.split('\n')[0].slice('git-kizu: error: '.length);
    assert.deepEqual(
      { status: r.status, stdout: r.stdout, stderr: r.stderr },
      { status: 0, stdout: '', stderr: `git-kizu: edit not recorded in the journal: ${msg} (${hint})\n` },
    );
    assert.equal(refFile(sb, 'refs/kizu/journal'), oid);
    // patch apply records what it writes: it stops before the first write.
    const patch = 'diff --git a/p.txt b/p.txt\nnew file mode 100644\n--- /dev/null\n+++ b/p.txt\n@@ -0,0 +1 @@\n+hi\n';
    expectRun(sb, ['patch', 'apply', '-'], { status: 2, stdout: '', stderr: err, input: patch });
    assert.equal(existsSync(sb.path('p.txt')), false);
    assert.equal(refFile(sb, 'refs/kizu/journal'), oid);
  });

  test(`refs/kizu/baseline at ${kind}: hunks exits 2 naming it and the baseline commands that fix it`, () => {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    sb.write({ 'a.txt': 'b\n' });
    const oid = corrupt(sb, 'refs/kizu/baseline');
    const what = kind === 'a blob' ? `a blob (${oid}), not a commit` : `a missing object ${MISSING}`;
    expectRun(sb, ['hunks'], {
      status: 2,
      stdout: '',
      stderr:
        `git-kizu: error: refs/kizu/baseline points at ${what}; git-kizu reads and writes nothing through it\n` +
        'hint: set it again with `git kizu baseline set <rev>`, or drop it with `git kizu baseline reset`\n',
    });
  });

  test(`refs/kizu/reverts at ${kind}: revert exits 2 before it changes the file, the ref is kept`, () => {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    sb.write({ 'a.txt': 'b\n' });
    const oid = corrupt(sb, 'refs/kizu/reverts');
    expectRun(sb, ['revert', 'a.txt:1'], { status: 2, stdout: '', stderr: error('refs/kizu/reverts', oid) });
    assert.equal(sb.read('a.txt'), 'b\n');
    assert.equal(refFile(sb, 'refs/kizu/reverts'), oid);
  });

  test(`a snapshot ref at ${kind}: snapshot list and taking a snapshot exit 2 naming it, the prompt hook exits 0 with one line; nothing is written`, () => {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    const ref = 'refs/kizu/snapshots/20260101-000000-000-12345678';
    const oid = corrupt(sb, ref);
    expectRun(sb, ['snapshot', 'list'], { status: 2, stdout: '', stderr: error(ref, oid) });
    expectRun(sb, ['snapshot', '-m', 'x'], { status: 2, stdout: '', stderr: error(ref, oid) });
    assert.equal(refFile(sb, ref), oid);
    // The prompt hook's snapshot: exit 0, one stderr line, nothing written.
    const h = hook(sb, 'user-prompt-submit', { session_id: 's', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
    const msg = error(ref, oid).split('\n')[0].slice('git-kizu: error: '.length);
    assert.deepEqual({ status: h.status, stdout: h.stdout, stderr: h.stderr }, { status: 0, stdout: '', stderr: `git-kizu: snapshot skipped because of an error: ${msg}\n` });
    assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/snapshots/'), `${ref}\n`);
  });

  test(`a task record at ${kind}: task list exits 2 naming it`, () => {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    const oid = corrupt(sb, 'refs/kizu/tasks/bar');
    expectRun(sb, ['task', 'list'], { status: 2, stdout: '', stderr: error('refs/kizu/tasks/bar', oid) });
  });

  test(`a task's trash ref at ${kind}: undo of its rollback branch exits 2 naming it, not "no longer exists"`, () => {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    assert.equal(sb.kizu(['task', 'start', 'foo']).status, 0);
    assert.equal(sb.kizu(['rollback', 'branch', 'foo', '--yes']).status, 0);
    const ref = sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/trash/').trim();
    sb.git('update-ref', '-d', ref);
    const oid = corrupt(sb, ref);
    expectRun(sb, ['undo', '--yes'], { status: 2, stdout: '', stderr: error(ref, oid) });
    assert.equal(refFile(sb, ref), oid);
    assert.equal(rev(sb, 'refs/heads/kizu/foo'), '');
  });

  test(`refs/kizu/marks at ${kind}: tap exits 2 naming it (marks/commits.ts says it its own way), the ref is kept`, () => {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    sb.write({ 'a.txt': 'b\n' });
    const oid = corrupt(sb, 'refs/kizu/marks');
    const what = kind === 'a blob' ? `${oid} is a blob, not a commit` : `commit ${oid} is missing from the object store`;
    expectRun(sb, ['tap', 'a.txt:1'], {
      status: 2,
      stdout: '',
      stderr:
        `git-kizu: error: refs/kizu/marks is corrupt: ${what}\n` +
        'hint: earlier values are in `git reflog refs/kizu/marks`; restore one with `git update-ref refs/kizu/marks <commit>`, or drop every mark with `git update-ref -d refs/kizu/marks`\n',
    });
    assert.equal(refFile(sb, 'refs/kizu/marks'), oid);
  });
}

test('happy paths unchanged: the journal records onto an existing chain; revert saves onto refs/kizu/reverts', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const e1 = agentWrite(sb, 'n.txt', 'one\n');
  const e2 = agentWrite(sb, 'n.txt', 'two\n');
  assert.deepEqual(entries(sb).map((e) => e.id), [e1.id, e2.id]);
  assert.equal(sb.git('rev-parse', 'refs/kizu/journal~1').trim(), e1.id);
  assert.equal(e2.files[0].after, blob(sb, 'two\n'));
  sb.write({ 'a.txt': 'b\n' });
  const r = sb.kizu(['revert', 'a.txt:1']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('a.txt'), 'a\n');
  assert.equal(sb.git('cat-file', '-t', 'refs/kizu/reverts').trim(), 'commit');
});
