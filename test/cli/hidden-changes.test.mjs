// Changes git itself does not show, through the real bin in real repos: files flagged
// assume-unchanged or skip-worktree, scars in files git calls binary, names that are not
// valid UTF-8. Each is reviewed (hunks, scan, Stop hook, guard) or named with its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox, src, withEnv } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { PROTOCOL, stopPayload } from '../helpers/hooks.mjs';

const auLine = 'au.js is marked assume-unchanged, so git status and git diff do not show that it was modified; git-kizu reviews it anyway; restore: git update-index --no-assume-unchanged -- au.js';
const swLine = 'sw.js is marked skip-worktree, so git status and git diff do not show that it was modified; git-kizu reviews it anyway; restore: git update-index --no-skip-worktree -- sw.js';

test('assume-unchanged and skip-worktree: the change is listed with the ids it has unflagged, its scar is found, the flag is named with its fix', async () => {
  const sb = sandbox({ files: { 'au.js': 'a;\nb;\n', 'sw.js': 'a;\nb;\n' } });
  sb.git('update-index', '--assume-unchanged', 'au.js');
  sb.git('update-index', '--skip-worktree', 'sw.js');
  sb.write({ 'au.js': 'a;\n// @kizu[free]: hidden one\nb;\n', 'sw.js': 'a;\nb;\nc;\n' });
  assert.equal(sb.git('status', '--porcelain'), ''); // git sees nothing
  const hunks = sb.kizu(['hunks']);
  assert.equal(hunks.stderr, `git-kizu: warning: hidden change: ${auLine}\ngit-kizu: warning: hidden change: ${swLine}\n`);
  assert.equal(hunks.status, 0);
  assert.match(hunks.stdout, /^[0-9a-f]{8}  au\.js:2  \+1 -0  modified\n[0-9a-f]{8}  sw\.js:3  \+1 -0  modified\n$/);
  expectRun(sb, ['scan'], { status: 1, stdout: 'au.js:2  [free]  hidden one\n', stderr: `git-kizu: warning: hidden change: ${auLine}\ngit-kizu: warning: hidden change: ${swLine}\n` });
  const status = sb.kizu(['status']);
  assert.equal(status.status, 1);
  assert.ok(status.stdout.includes(`hunks     2: 2 unreviewed, 0 tapped, 0 rejected\nscars     1\n  au.js:2  [free]  hidden one  (found: in the working tree, not written through git kizu here)\n`), status.stdout);
  assert.ok(status.stdout.includes(`\nhidden change: ${auLine}\nhidden change: ${swLine}\nnot done:`), status.stdout);
  const doctor = sb.kizu(['doctor']);
  assert.ok(
    doctor.stdout.includes(
      'fix  hidden changes: au.js is marked assume-unchanged, so git status and git diff do not show that it was modified; fix: git update-index --no-assume-unchanged -- au.js\n' +
        'fix  hidden changes: sw.js is marked skip-worktree, so git status and git diff do not show that it was modified; fix: git update-index --no-skip-worktree -- sw.js\n',
    ),
    doctor.stdout,
  );
  const stop = hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual(JSON.parse(stop.stdout), {
    decision: 'block',
    reason: 'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n- "au.js":2 [free] hidden one → do what it says, then delete the scar line\n' + PROTOCOL,
    systemMessage: `git-kizu: 2 changes git does not show:\n  ${auLine}\n  ${swLine}`,
  });
  // review (the loop, in this process, quit at once) names them at the start and after its summary.
  const { runReview } = await import(src('cli/review/loop.ts'));
  const { DEFAULT_REVIEW_KEYS } = await import(src('config/review-keys.ts'));
  let out = '';
  await withEnv({ ...sb.env, NO_COLOR: '1' }, () =>
    runReview({ root: sb.dir, gitDir: sb.path('.git'), paths: [], all: false, keys: DEFAULT_REVIEW_KEYS, io: { readKey: async () => DEFAULT_REVIEW_KEYS.quit, readLine: async () => '', write: (t) => (out += t), writeErr: (t) => (out += t) } }),
  );
  const findings = `hidden change: ${auLine}\nhidden change: ${swLine}\n`;
  assert.ok(out.startsWith(findings), out);
  assert.ok(out.includes('review: 0 tapped, 0 rejected, 0 scarred, 0 reverted, 0 skipped\n') && out.endsWith(findings), out);
  // Cleared flags: the same hunks with the same ids, and nothing hidden any more.
  sb.git('update-index', '--no-assume-unchanged', 'au.js');
  sb.git('update-index', '--no-skip-worktree', 'sw.js');
  expectRun(sb, ['hunks'], { status: 0, stdout: hunks.stdout });
});

test('a file git calls binary (a NUL byte, or -diff in .gitattributes): its scars block the stop and the commit; hunks shows it changed', () => {
  const sb = sandbox({ files: { '.gitattributes': '*.gen -diff\n', 'data.bin': 'x\n', 'out.gen': 'a\n' } });
  sb.write({ 'data.bin': Buffer.from('x\0\n# @kizu[ask]: why this blob?\n'), 'out.gen': 'a\n// @kizu[free]: regenerate\n' });
  const hunks = sb.kizu(['hunks']);
  assert.equal(hunks.stderr, '');
  assert.match(hunks.stdout, /^[0-9a-f]{8}  data\.bin \(binary\)  \+0 -0  modified\n[0-9a-f]{8}  out\.gen \(binary\)  \+0 -0  modified\n$/);
  const found = 'data.bin:2  [ask]  why this blob?\n\nout.gen:2  [free]  regenerate\n';
  expectRun(sb, ['scan'], { status: 1, stdout: found });
  expectRun(sb, ['scan', '--all'], { status: 1, stdout: found });
  const stop = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(JSON.parse(stop.stdout).decision, 'block');
  assert.match(JSON.parse(stop.stdout).reason, /^git-kizu: a human reviewer left 2 scars that are still unresolved\.[^]*- "data\.bin":2 \[ask\] why this blob\?[^]*- "out\.gen":2 \[free\] regenerate/);
  sb.git('add', '-A');
  expectRun(sb, ['scan', '--staged'], { status: 1, stdout: found });
  const pc = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(pc.status, 1, pc.stderr);
  assert.match(pc.stderr, /"data\.bin":2  \[ask\]  why this blob\?\n {2}"out\.gen":2  \[free\]  regenerate\n/);
  // unscar takes such a scar out, every other byte kept.
  const un = sb.kizu(['unscar', 'data.bin:2']);
  assert.equal(un.status, 0, un.stderr);
  assert.deepEqual(sb.read('data.bin', 'buffer'), Buffer.from('x\0\n'));
});

test('a name that is not valid UTF-8: named by hunks, scan, status and doctor, the Stop hook holds on it, snapshot says it is left out', () => {
  const sb = sandbox({ files: { 'a.js': 'a;\n' } });
  writeFileSync(Buffer.concat([Buffer.from(sb.dir + path.sep), Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from('.js')]), '// @kizu[ask]: hidden by its name\n');
  assert.equal(sb.git('status', '--porcelain'), '?? "caf\\351.js"\n');
  const line = '"caf\\351.js" has a name that is not valid UTF-8: git-kizu cannot review, scan or snapshot it; rename it (git mv, or mv for an untracked file)';
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${sb.git('rev-parse', 'HEAD').trim()}\n`, stderr: `git-kizu: warning: unreadable name: ${line}\n` });
  expectRun(sb, ['scan'], { status: 0, stderr: `git-kizu: warning: unreadable name: ${line}\n` });
  const status = sb.kizu(['status']);
  assert.equal(status.status, 1);
  assert.ok(status.stdout.endsWith(`\nunreadable name: ${line}\nnot done: these must be resolved, but no agent's Stop hook is installed here (git kizu init installs it)\n`), status.stdout);
  assert.ok(sb.kizu(['doctor']).stdout.includes('fix  hidden changes: "caf\\351.js" has a name that is not valid UTF-8: git-kizu cannot review, scan or snapshot it; fix: rename it (git mv, or mv for an untracked file)\n'));
  const stop = hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual(JSON.parse(stop.stdout), {
    decision: 'block',
    reason: 'git-kizu: a file you changed has a name that is not valid UTF-8, so the human reviewer cannot review it: "caf\\351.js". Rename it to a UTF-8 name (git mv for a tracked file, mv for an untracked one) before you stop.',
    systemMessage: `git-kizu: a file git-kizu cannot review:\n  ${line}`,
  });
  const snap = sb.kizu(['snapshot', '-m', 'x']);
  assert.equal(snap.status, 0, snap.stderr);
  assert.equal(
    snap.stderr,
    'git-kizu: warning: not in the snapshot: "caf\\357\\277\\275.js": its name is not valid UTF-8 (shown with U+FFFD for the bad bytes), so git-kizu cannot capture it; rename it (git mv, or mv for an untracked file)\n',
  );
});

test('a refs/replace/ ref that swaps the baseline blob for the changed one does not hide the change or its scar', () => {
  const sb = sandbox({ files: { 'x.js': 'a;\n' } });
  sb.write({ 'x.js': 'a;\n// @kizu[free]: replaced\n' });
  sb.git('replace', sb.git('rev-parse', 'HEAD:x.js').trim(), sb.git('hash-object', '-w', 'x.js').trim());
  assert.equal(sb.git('diff', '--name-only', 'HEAD'), ''); // git itself sees no change
  const hunks = sb.kizu(['hunks']);
  assert.match(hunks.stdout, /^[0-9a-f]{8}  x\.js:2  \+1 -0  modified\n$/);
  expectRun(sb, ['scan'], { status: 1, stdout: 'x.js:2  [free]  replaced\n' });
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout).decision, 'block');
});

test('a file deleted, then hidden by a sparse checkout the agent set (git sparse-checkout set --no-cone "/*" "!/tests/"): hunks, status, doctor and the Stop hook name the deletion and the sparse checkout', () => {
  const sb = sandbox({ files: { 'tests/sec.test.js': 't;\n', 'src/app.js': 'a;\n' } });
  rmSync(sb.path('tests/sec.test.js'));
  sb.git('sparse-checkout', 'set', '--no-cone', '/*', '!/tests/');
  assert.equal(sb.git('status', '--porcelain'), ''); // git sees nothing
  const line =
    'tests/sec.test.js is marked skip-worktree and absent (a sparse checkout, core.sparseCheckout, leaves such files out), so git status and git diff do not show that it was deleted; git-kizu reviews it as deleted; restore: git sparse-checkout disable (brings the left-out files back), or git update-index --no-skip-worktree -- tests/sec.test.js';
  const hunks = sb.kizu(['hunks']);
  assert.equal(hunks.stderr, `git-kizu: warning: hidden change: ${line}\n`);
  assert.match(hunks.stdout, /^[0-9a-f]{8}  tests\/sec\.test\.js \(deleted file\)  \+0 -1  deleted\n$/);
  const status = sb.kizu(['status']);
  assert.ok(status.stdout.includes(`\nhunks     1: 1 unreviewed, 0 tapped, 0 rejected\n`), status.stdout);
  assert.ok(status.stdout.includes(`\nhidden change: ${line}\n`), status.stdout);
  const doctor = sb.kizu(['doctor']);
  assert.ok(
    doctor.stdout.includes(
      'fix  hidden changes: 1 file (tests/sec.test.js) is marked skip-worktree and absent (a sparse checkout, core.sparseCheckout, leaves such files out), so git status and git diff do not show whether it was deleted: git-kizu reviews it as deleted; fix: git sparse-checkout disable (brings the left-out files back)\n',
    ),
    doctor.stdout,
  );
  const stop = hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual(JSON.parse(stop.stdout), { systemMessage: `git-kizu: a change git does not show:\n  ${line}` });
  // The fix brings the file back; nothing is hidden any more.
  sb.git('sparse-checkout', 'disable');
  assert.equal(sb.read('tests/sec.test.js'), 't;\n');
  const head = sb.git('rev-parse', 'HEAD').trim();
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${head}\n` });
});

test('the restore command of a hidden change quotes the path for the shell: a file name never runs as a command (tester #95)', () => {
  const name = 'x;touch INJECTED;.js';
  const sb = sandbox({ files: { [name]: 'a;\n' } });
  sb.write({ [name]: 'a;\nb;\n' });
  sb.git('update-index', '--assume-unchanged', name);
  const status = sb.kizu(['status']);
  assert.ok(status.stdout.includes(`restore: git update-index --no-assume-unchanged -- 'x;touch INJECTED;.js'\n`), status.stdout);
  const doctor = sb.kizu(['doctor']);
  assert.ok(doctor.stdout.includes(`git update-index --no-assume-unchanged -- 'x;touch INJECTED;.js'`), doctor.stdout);
  assert.ok(!doctor.stdout.includes(`-- x;touch`), doctor.stdout);
});
