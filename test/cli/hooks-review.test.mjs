// Hunk review state in the hook handlers (`git-kizu hook stop|post-tool-use` through the real
// bin): rejected hunks block the stop and are named in PostToolUse context; with
// stop.requireReview unreviewed hunks block too; tapped hunks never block. Marks are set with
// the real `git kizu tap|reject|untap`. Every hook output is asserted exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { expectRun, kizuOk } from '../helpers/expect.mjs';
import { text } from '../helpers/files.mjs';
import { PROTOCOL, contextOutput, editPayload, stopPayload } from '../helpers/hooks.mjs';
import { hunksJson } from '../helpers/hunks.mjs';
import { commitConfig } from '../helpers/config.mjs';

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);

/** LINES with the given 1-based line numbers replaced. */
const withLines = (repl, base = LINES) => base.map((l, i) => repl[i + 1] ?? l);

/** A repo with src/app.js (30 lines) and README.md committed, then line 20 of src/app.js changed. */
function repo({ files = {} } = {}) {
  const sb = sandbox({ files: { 'src/app.js': text(LINES), 'README.md': '# x\n', ...files } });
  sb.write({ 'src/app.js': text(withLines({ 20: 'line 20 changed by the agent' })) });
  return sb;
}

/** {path:range → [shortId, mark]} from `git kizu hunks --json`. */
const hunks = (sb) => Object.fromEntries(hunksJson(sb).map((h) => [h.range, [h.shortId, h.mark]]));

const base12 = (sb, rev = 'HEAD') => sb.git('rev-parse', rev).trim().slice(0, 12);

/** `range` of `file` as the hooks show it to the agent: the path quoted as data. */
const dataRange = (range, file = range.replace(/:.*/, '')) => `"${file}"${range.slice(file.length)}`;

/** The listing line for a rejected hunk at `range` of `file`. */
const rejLine = (range, base, file = range.replace(/:.*/, '')) =>
  `- ${dataRange(range)} → a reviewer rejected this change without giving a reason: compare it with the baseline ` +
  `(\`git diff ${base} -- ${file}\`), work out what is wrong, and rework or revert it`;

const unrevLine = (range) =>
  `- ${dataRange(range)} → not reviewed yet: only a human reviewer can tap or reject it (\`git kizu review\`); tell the user it is waiting for review`;

/** Runs the stop hook; asserts exit 0 and no stderr; returns the parsed stdout (null if empty). */
function stopOut(sb, active, session) {
  const r = hook(sb, 'stop', stopPayload(sb, active, session));
  assert.deepEqual([r.status, r.stderr], [0, ''], `stop hook: ${r.stderr}`);
  if (r.stdout === '') return null;
  assert.equal(r.stdout.split('\n').length, 2, `one JSON line: ${r.stdout}`);
  return JSON.parse(r.stdout);
}

const blocked = (reason) => ({ decision: 'block', reason });
const streakNote = (k) => `\n(Block ${k} of 3 without progress; after that the stop is allowed and the user is told.)`;

test('stop: a rejected hunk blocks with the exact reason, naming only its place (no content)', () => {
  const sb = repo();
  expectRun(sb, ['reject', 'src/app.js:20'], { status: 0, stdout: `rejected ${hunks(sb)['src/app.js:20'][0]} src/app.js:20\n` });
  const out = stopOut(sb, false);
  assert.deepEqual(out, blocked(`git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${rejLine('src/app.js:20', base12(sb))}`));
  assert.equal(
    out.reason,
    'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
      `- "src/app.js":20 → a reviewer rejected this change without giving a reason: compare it with the baseline (\`git diff ${base12(sb)} -- src/app.js\`), ` +
      'work out what is wrong, and rework or revert it',
  );
  for (const l of ['line 20', 'line 19', 'line 21', 'changed by the agent']) assert.ok(!out.reason.includes(l), `reason must not quote "${l}"`);
  assert.deepEqual(readdirSync(sb.path('.git/kizu/stop')), ['sess-1.json']);
});

test('stop: after the agent edits the rejected hunk\'s own lines it still blocks, as an edit nobody reviewed (issue 22); reverting them resolves it', () => {
  const sb = repo();
  kizuOk(sb, ['reject', 'src/app.js:20']);
  assert.equal(stopOut(sb, false).decision, 'block');
  // Reworked: the hunk's content changed, so its id changed; the rejection outlives it as an edit.
  sb.write({ 'src/app.js': text(withLines({ 20: 'line 20 reworked' })) });
  const [[edit, mark]] = Object.values(hunks(sb));
  assert.equal(mark, 'unreviewed');
  const edited = (now) =>
    blocked(
      'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
        `- "src/app.js":20 → a reviewer rejected this change; it was edited instead of reverted (now ${now} "src/app.js":20), and nobody reviewed the edit: ` +
        `revert it to the baseline (\`git diff ${base12(sb)} -- src/app.js\`), or tell the user the rework waits for review (\`git kizu review\`)`,
    );
  assert.deepEqual(stopOut(sb, true), edited(edit));
  // A context line of the hunk changed (line 18 is within 3 lines): an edit as well.
  sb.write({ 'src/app.js': text(withLines({ 20: 'line 20 changed by the agent' })) });
  assert.equal(stopOut(sb, false).decision, 'block', 'the original content is rejected again');
  sb.write({ 'src/app.js': text(withLines({ 18: 'line 18 touched', 20: 'line 20 changed by the agent' })) });
  const [[ctx]] = Object.values(hunks(sb));
  assert.match(stopOut(sb, true).reason, new RegExp(`edited instead of reverted \\(now ${ctx} "src/app.js":18-20\\)`));
  // Reverted: the hunk is gone.
  sb.write({ 'src/app.js': text(LINES) });
  assert.equal(stopOut(sb, false), null);
  assert.deepEqual(readdirSync(sb.path('.git/kizu/stop')), [], 'the stop state is dropped when nothing is left');
});

test('stop: an edit far above the rejected hunk is a separate hunk; the rejected one keeps its id and still blocks (no progress)', () => {
  const sb = repo();
  kizuOk(sb, ['reject', 'src/app.js:20']);
  const [id] = hunks(sb)['src/app.js:20'];
  const first = stopOut(sb, false);
  // The agent inserts a line at the top: the rejected hunk moves to line 21, same content.
  sb.write({ 'src/app.js': text(['inserted at the top', ...withLines({ 20: 'line 20 changed by the agent' })]) });
  const now = hunks(sb);
  assert.deepEqual(Object.keys(now), ['src/app.js:1', 'src/app.js:21']);
  assert.deepEqual(now['src/app.js:21'], [id, 'rejected'], 'same id, still rejected');
  assert.equal(now['src/app.js:1'][1], 'unreviewed');
  const second = stopOut(sb, true);
  assert.deepEqual(second, blocked(`git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${rejLine('src/app.js:21', base12(sb))}${streakNote(2)}`));
  assert.notEqual(first.reason, second.reason.replace(streakNote(2), ''), 'the range moved');
});

test('stop: tapped hunks never block; untap (of a tap or a reject) leaves nothing that blocks', () => {
  const sb = repo();
  kizuOk(sb, ['tap', 'src/app.js:20']);
  assert.equal(stopOut(sb, false), null);
  expectRun(sb, ['untap', 'src/app.js:20'], { status: 0, stdout: `untapped ${hunks(sb)['src/app.js:20'][0]} src/app.js:20\n` });
  assert.equal(stopOut(sb, false), null);
  kizuOk(sb, ['reject', 'src/app.js:20']);
  assert.equal(stopOut(sb, false).decision, 'block');
  kizuOk(sb, ['untap', 'src/app.js:20']);
  assert.deepEqual(Object.values(hunks(sb)).map(([, m]) => m), ['unreviewed']);
  assert.equal(stopOut(sb, true), null);
  // Reject then tap: the newer mark wins.
  kizuOk(sb, ['reject', 'src/app.js:20']);
  kizuOk(sb, ['tap', 'src/app.js:20']);
  assert.equal(stopOut(sb, false), null);
});

test('stop: stop.requireReview true → unreviewed hunks block, tapped ones do not; default false → they never block', () => {
  const sb = repo({ files: { '.kizurc.json': '{"stop": {"requireReview": true}}\n' } });
  sb.write({ 'src/app.js': text(withLines({ 2: 'line 2 changed', 20: 'line 20 changed by the agent' })) });
  kizuOk(sb, ['tap', 'src/app.js:2']);
  assert.deepEqual(stopOut(sb, false), blocked(`git-kizu: a human reviewer left 1 change not reviewed yet. Resolve it before you stop:\n${unrevLine('src/app.js:20')}`));
  kizuOk(sb, ['reject', 'src/app.js:20']);
  assert.deepEqual(stopOut(sb, true), blocked(`git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${rejLine('src/app.js:20', base12(sb))}`));
  kizuOk(sb, ['tap', 'src/app.js:20']);
  assert.equal(stopOut(sb, true), null);
  kizuOk(sb, ['untap', '--all']);
  assert.deepEqual(
    stopOut(sb, false),
    blocked(`git-kizu: a human reviewer left 2 changes not reviewed yet. Resolve each one before you stop:\n${unrevLine('src/app.js:2')}\n${unrevLine('src/app.js:20')}`),
  );
  // The same repo with the default config: unreviewed hunks do not block.
  commitConfig(sb, { '.kizurc.json': '{"stop": {"requireReview": false}}\n' });
  assert.equal(stopOut(sb, false), null);
});

test('stop: scars, queue items and a rejected hunk together → one reason (exact)', () => {
  const sb = repo({ files: { 'b.js': 'const b = 2;\n' } });
  kizuOk(sb, ['reject', 'src/app.js:20']);
  sb.write({ 'b.js': '// @kizu[ask]: explain this change\nconst b = 3;\n' });
  const id = kizuOk(sb, ['queue', 'add', 'also add a test']).trim();
  assert.match(id, /^[0-9a-z]{4}$/);
  assert.deepEqual(
    stopOut(sb, false),
    blocked(
      'git-kizu: a human reviewer left 1 scar that is still unresolved, 1 open item in .claude/review-queue.md and 1 rejected change. Resolve each one before you stop:\n' +
        '- "b.js":1 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
        `- [${id}] also add a test → do what it says, then run \`git kizu queue done ${id}\`\n` +
        `${rejLine('src/app.js:20', base12(sb))}\n` +
        PROTOCOL,
    ),
  );
  // Only the queue item and the rejected hunk left.
  sb.write({ 'b.js': 'const b = 3;\n' });
  assert.deepEqual(
    stopOut(sb, true),
    blocked(
      'git-kizu: a human reviewer left 1 open item in .claude/review-queue.md and 1 rejected change. Resolve each one before you stop:\n' +
        `- [${id}] also add a test → do what it says, then run \`git kizu queue done ${id}\`\n` +
        rejLine('src/app.js:20', base12(sb)),
    ),
  );
});

test('stop: bounded retries with a rejected hunk — 3 blocks without progress, then allowed with a systemMessage; resolving one of two is progress', () => {
  const sb = repo();
  kizuOk(sb, ['reject', 'src/app.js:20']);
  const reason = `git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${rejLine('src/app.js:20', base12(sb))}`;
  assert.deepEqual(stopOut(sb, false), blocked(reason));
  assert.deepEqual(stopOut(sb, true), blocked(reason + streakNote(2)));
  assert.deepEqual(stopOut(sb, true), blocked(reason + streakNote(3)));
  assert.deepEqual(stopOut(sb, true), {
    systemMessage:
      'git-kizu: allowing the stop after 3 blocks without progress; 1 rejected hunk still unresolved:\n' +
      `${rejLine('src/app.js:20', base12(sb))}\n` +
      'Run `git kizu hunks` to see them.',
  });
  // A new turn counts again.
  assert.deepEqual(stopOut(sb, false), blocked(reason));

  const two = repo();
  two.write({ 'src/app.js': text(withLines({ 2: 'line 2 changed', 20: 'line 20 changed by the agent' })) });
  kizuOk(two, ['reject', '--all']);
  const both =
    'git-kizu: a human reviewer left 2 rejected changes. Resolve each one before you stop:\n' +
    `${rejLine('src/app.js:2', base12(two))}\n${rejLine('src/app.js:20', base12(two))}`;
  assert.deepEqual(stopOut(two, false), blocked(both));
  assert.deepEqual(stopOut(two, true), blocked(both + streakNote(2)));
  // Line 2 reverted (an edit instead would still be a finding: issue 22).
  two.write({ 'src/app.js': text(withLines({ 20: 'line 20 changed by the agent' })) });
  assert.deepEqual(stopOut(two, true), blocked(reason.replace(base12(sb), base12(two))), 'the set changed: progress, the count restarts');
});

test('post-tool-use: a rejected hunk in the edited file is named (exact); edits of other files add nothing', () => {
  const sb = repo();
  kizuOk(sb, ['reject', 'src/app.js:20']);
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.js'));
  assert.deepEqual([r.status, r.stderr], [0, '']);
  assert.equal(r.stdout.split('\n').length, 2);
  assert.deepEqual(JSON.parse(r.stdout), contextOutput(`git-kizu: a reviewer rejected a change in the file you just edited:\n${rejLine('src/app.js:20', base12(sb))}`));
  sb.write({ 'README.md': '# x\nmore\n' });
  for (const f of ['README.md', 'other.js']) {
    const o = hook(sb, 'post-tool-use', editPayload(sb, f));
    assert.deepEqual([o.status, o.stdout, o.stderr], [0, '', ''], f);
  }
  // Two rejected hunks in the file.
  sb.write({ 'src/app.js': text(withLines({ 2: 'line 2 changed', 20: 'line 20 changed by the agent' })) });
  kizuOk(sb, ['reject', 'src/app.js:2']);
  const two = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.js'));
  assert.deepEqual(JSON.parse(two.stdout).hookSpecificOutput.additionalContext, `git-kizu: a reviewer rejected changes in the file you just edited:\n${rejLine('src/app.js:2', base12(sb))}\n${rejLine('src/app.js:20', base12(sb))}`);
  // The rejected hunks reworked: named as edits nobody reviewed (issue 22).
  sb.write({ 'src/app.js': text(withLines({ 2: 'line 2 reworked', 20: 'line 20 reworked' })) });
  const { 'src/app.js:2': [e2], 'src/app.js:20': [e20] } = hunks(sb);
  const edit = (range, now) =>
    `- ${dataRange(range)} → a reviewer rejected this change; it was edited instead of reverted (now ${now} ${dataRange(range)}), and nobody reviewed the edit: ` +
    `revert it to the baseline (\`git diff ${base12(sb)} -- src/app.js\`), or tell the user the rework waits for review (\`git kizu review\`)`;
  const reworked = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.js'));
  assert.deepEqual(JSON.parse(reworked.stdout).hookSpecificOutput.additionalContext, `git-kizu: a reviewer rejected changes in the file you just edited:\n${edit('src/app.js:2', e2)}\n${edit('src/app.js:20', e20)}`);
  // Reverted: nothing.
  sb.write({ 'src/app.js': text(LINES) });
  const none = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.js'));
  assert.deepEqual([none.status, none.stdout, none.stderr], [0, '', '']);
});

test('corrupt refs/kizu/marks (a blob): stop exits 0 with one stderr line and blocks, on the scar and on the lost marks (told to the user); post-tool-use warns once', () => {
  const sb = repo({ files: { 'b.js': 'const b = 2;\n' } });
  kizuOk(sb, ['reject', 'src/app.js:20']);
  sb.write({ 'b.js': '// @kizu[ask]: explain this change\nconst b = 3;\n' });
  const blob = sb.git('hash-object', '-w', '--stdin', { input: 'not a marks commit\n' }).trim();
  sb.git('update-ref', 'refs/kizu/marks', blob);
  const warning = `git-kizu: review marks not read: refs/kizu/marks is corrupt: ${blob} is a blob, not a commit\n`;
  const what = `the review marks cannot be read, so every tap and reject is unknown (refs/kizu/marks is corrupt: ${blob} is a blob, not a commit)`;
  const fix = 'git update-ref -d refs/kizu/marks (no earlier readable value in its reflog: this drops every mark)';
  const lostReason = `git-kizu: review state is missing, so the review cannot be checked: ${what}. Put it back (${fix}); if that is refused to you, stop and tell the human in your answer what happened.`;
  const lostMessage = `git-kizu: review state lost: ${what}; restore: ${fix}`;
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, warning);
  assert.deepEqual(JSON.parse(r.stdout), {
    decision: 'block',
    reason:
      'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n' +
      '- "b.js":1 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
      PROTOCOL +
      '\n' +
      lostReason,
    systemMessage: lostMessage,
  });
  // No scar left: the lost marks alone still hold the stop (bounded by stop.maxBlocks, like any block).
  sb.write({ 'b.js': 'const b = 3;\n' });
  const held = hook(sb, 'stop', stopPayload(sb, true));
  assert.deepEqual([held.status, held.stderr], [0, warning]);
  assert.deepEqual(JSON.parse(held.stdout), { decision: 'block', reason: lostReason, systemMessage: lostMessage });
  // PostToolUse over two edited files: one warning line, not one per file.
  const post = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.js', 'b.js'));
  assert.deepEqual([post.status, post.stdout, post.stderr], [0, '', warning]);
});

test('a baseline set with `git kizu baseline set <rev>` is honoured: committed changes since it are hunks, a rejected one blocks', () => {
  const sb = sandbox({ files: { 'src/app.js': text(LINES) } });
  const first = sb.git('rev-parse', 'HEAD').trim();
  sb.write({ 'src/app.js': text(withLines({ 20: 'line 20 committed by the agent' })) });
  sb.git('commit', '-q', '-am', 'agent commit');
  assert.equal(stopOut(sb, false), null);
  expectRun(sb, ['baseline', 'set', 'HEAD~1'], { status: 0, stdout: `baseline set: refs/kizu/baseline ${first}\n` });
  kizuOk(sb, ['reject', 'src/app.js:20']);
  const reason = `git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${rejLine('src/app.js:20', first.slice(0, 12))}`;
  assert.notEqual(first.slice(0, 12), base12(sb));
  assert.deepEqual(stopOut(sb, false), blocked(reason));
  const post = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.js'));
  assert.deepEqual(JSON.parse(post.stdout).hookSpecificOutput.additionalContext, `git-kizu: a reviewer rejected a change in the file you just edited:\n${rejLine('src/app.js:20', first.slice(0, 12))}`);
  expectRun(sb, ['baseline', 'reset'], { status: 0, stdout: 'baseline reset: using HEAD\n' });
  // Against HEAD the working tree has no hunks, but the rejected change is in HEAD: the rejection stands (issue 22).
  const c = sb.git('rev-parse', 'HEAD').trim().slice(0, 12);
  assert.deepEqual(
    stopOut(sb, false),
    blocked(
      'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
        `- "src/app.js":20 → a reviewer rejected this change, and it is committed (in ${c}): ` +
        `undo it (\`git show ${c} -- src/app.js\` shows the commit; \`git revert ${c}\` undoes all of it), or tell the user that only a human reviewer can accept it`,
    ),
  );
});

test('stop: a rejected new (untracked) file is named with the baseline it is missing from, not an empty `git diff`', () => {
  const sb = repo();
  sb.write({ 'src/app.js': text(LINES), 'notes/new file.txt': 'hello\n' });
  kizuOk(sb, ['reject', 'notes/new file.txt']);
  assert.equal(sb.git('diff', base12(sb), '--', 'notes/new file.txt'), '', 'git diff shows nothing for an untracked file');
  assert.deepEqual(
    stopOut(sb, false),
    blocked(
      'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
        '- "notes/new file.txt":1 → a reviewer rejected this change without giving a reason: compare it with the baseline ' +
        `("notes/new file.txt" is a new file: the baseline ${base12(sb)} does not have it), work out what is wrong, and rework or revert it`,
    ),
  );
});

test('stop: a rejected change in a path with a space quotes the path in the git diff command', () => {
  const sb = sandbox({ files: { 'my dir/a b.js': text(LINES) } });
  sb.write({ 'my dir/a b.js': text(withLines({ 5: 'line 5 changed' })) });
  kizuOk(sb, ['reject', 'my dir/a b.js:5']);
  assert.deepEqual(
    stopOut(sb, false),
    blocked(`git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n${rejLine('my dir/a b.js:5', base12(sb), "'my dir/a b.js'")}`),
  );
  // The command as given works in a shell.
  const r = sb.run('sh', ['-c', `git diff ${base12(sb)} -- 'my dir/a b.js'`]);
  assert.match(r.stdout, /^\+line 5 changed$/m);
});

test('stop: a rejected submodule hunk and a rejected untracked nested repository point at the repository itself (git diff shows nothing for them)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const sub = sandbox({ files: { 's.txt': 's\n' } });
  sb.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'sm');
  sb.git('commit', '-q', '-m', 'submodule');
  sb.write({ 'sm/u.txt': 'untracked inside\n' });
  sb.git('init', '-q', 'nested');
  expectRun(sb, ['reject', 'sm'], { status: 0, stdout: `rejected ${hunks(sb)['sm (submodule: modified content)'][0]} sm (submodule: modified content)\n` });
  expectRun(sb, ['reject', 'nested'], { status: 0, stdout: `rejected ${hunks(sb)['nested (untracked nested repository)'][0]} nested (untracked nested repository)\n` });
  const own = (p, range) =>
    `- ${dataRange(range, p)} → a reviewer rejected this change without giving a reason: compare it with the baseline ` +
    `("${p}" is a repository of its own: \`git -C ${p} status\` and \`git -C ${p} log\` show what changed in it), work out what is wrong, and rework or revert it`;
  assert.deepEqual(
    stopOut(sb, false),
    blocked(`git-kizu: a human reviewer left 2 rejected changes. Resolve each one before you stop:\n${own('nested', 'nested (untracked nested repository)')}\n${own('sm', 'sm (submodule: modified content)')}`),
  );
});
