// Rejections that outlive their hunk (issue 22, "laundered rejections"), through the real bin
// and real commits: the pre-commit guard refuses a staged rejected hunk (`git commit -am`); a
// rejected change committed anyway (--no-verify) still holds the Stop hook and is named with
// its commit by `status` and `hunks`; a rejected hunk edited instead of reverted still holds,
// named, until a reviewer taps the edit; a reverted one (in the working tree, or by
// `git revert`) is resolved; a tapped hunk committed is no finding; the reviewer withdraws a
// committed rejection by the mark's id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hook, sandbox, src } from '../helpers/sandbox.mjs';
import { expectRun, ok } from '../helpers/expect.mjs';
import { text } from '../helpers/files.mjs';
import { editPayload, stopPayload } from '../helpers/hooks.mjs';
import { hunksJson } from '../helpers/hunks.mjs';

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const withLines = (repl) => LINES.map((l, i) => repl[i + 1] ?? l);

/** A repo with a.txt (30 lines) committed, then line 10 changed and rejected; returns the sandbox and the rejected hunk's id. */
function rejected() {
  const sb = sandbox({ files: { 'a.txt': text(LINES) } });
  sb.write({ 'a.txt': text(withLines({ 10: 'line 10 by the agent' })) });
  const [h] = hunksJson(sb);
  ok(sb.kizu(['reject', 'a.txt:10']), 'reject');
  return { sb, id: h.id };
}

/** The stop hook's answer (parsed), null when it says nothing. */
function stop(sb, session = 's1') {
  const r = hook(sb, 'stop', stopPayload(sb, false, session));
  assert.deepEqual([r.status, r.stderr], [0, ''], `stop hook: ${r.stderr}`);
  return r.stdout === '' ? null : JSON.parse(r.stdout);
}

const sha = (sb, rev = 'HEAD') => sb.git('rev-parse', rev).trim();

test('pre-commit guard (plain hooks dir): `git commit -am` of a rejected hunk is refused, naming the hunk and the fix; after a revert the commit goes through', () => {
  const { sb, id } = rejected();
  ok(sb.kizu(['init', '--agent', 'claude']), 'init');
  const before = sha(sb);
  const r = sb.run('git', ['commit', '-q', '-am', 'launder']);
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr,
    'git-kizu: commit refused: a change a reviewer rejected is staged:\n' +
      `  "a.txt":10  (hunk ${id.slice(0, 8)})\n` +
      `Revert it (git kizu revert ${id.slice(0, 8)}, which reverts it in the index too; or unstage it: git restore --staged -- <path>), ` +
      'or ask the human reviewer to look at it again: they can tap it to accept it, or untap it.\n',
  );
  assert.equal(sha(sb), before);
  // Staged by hand and committed by path: refused the same way.
  sb.git('add', 'a.txt');
  assert.equal(sb.run('git', ['commit', '-q', '-m', 'again']).status, 1);
  ok(sb.kizu(['revert', id.slice(0, 8)]), 'revert');
  sb.write({ 'b.txt': 'b\n' });
  sb.git('add', 'b.txt');
  ok(sb.run('git', ['commit', '-q', '-m', 'other']), 'commit after the revert');
  // A path with a terminal escape is named escaped, as git quotes paths.
  const odd = 'e\x1b[31m.txt';
  sb.write({ [odd]: text(LINES) });
  sb.git('add', '--', odd);
  ok(sb.run('git', ['commit', '-q', '-m', 'odd']), 'commit odd');
  sb.write({ [odd]: text(withLines({ 3: 'three' })) });
  const oh = hunksJson(sb).find((h) => h.path === odd);
  ok(sb.kizu(['reject', oh.id.slice(0, 8)]), 'reject odd');
  const refused = sb.run('git', ['commit', '-q', '-am', 'launder odd']);
  assert.equal(refused.status, 1);
  assert.equal(refused.stderr.split('\n')[1], `  "e\\u001b[31m.txt":3  (hunk ${oh.id.slice(0, 8)})`);
});

test('a rejected change committed with --no-verify: the Stop hook still holds, status and hunks name the commit; untap by the mark id withdraws it', () => {
  const { sb, id } = rejected();
  sb.git('commit', '-q', '--no-verify', '-am', 'launder');
  const c = sha(sb);
  const id8 = id.slice(0, 8);
  assert.deepEqual(stop(sb), {
    decision: 'block',
    reason:
      'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
      `- "a.txt":10 → a reviewer rejected this change, and it is committed (in ${c.slice(0, 12)}): ` +
      `undo it (\`git show ${c.slice(0, 12)} -- a.txt\` shows the commit; \`git revert ${c.slice(0, 12)}\` undoes all of it), ` +
      'or tell the user that only a human reviewer can accept it',
  });
  const fix = `undo it (git revert ${c.slice(0, 7)} undoes that whole commit), or accept it: git kizu tap ${id8} (git kizu untap ${id8} withdraws the rejection)`;
  const st = sb.kizu(['status']);
  assert.equal(st.status, 1);
  assert.ok(st.stdout.includes(`\n  rejected  ${id8}  a.txt:10  rejected change committed in ${c.slice(0, 7)}: ${fix}\n`), st.stdout);
  const j = JSON.parse(sb.kizu(['status', '--json']).stdout);
  assert.deepEqual(j.hunks.laundered, [{ id, path: 'a.txt', range: 'a.txt:10', how: 'committed', commit: c, edits: [], words: `rejected change committed in ${c.slice(0, 7)}`, fix }]);
  expectRun(sb, ['hunks'], { status: 0, stdout: `no changes against HEAD ${c}\nrejected  ${id8}  a.txt:10  rejected change committed in ${c.slice(0, 7)}: ${fix}\n` });
  // The reviewer withdraws the rejection by the mark's id: nothing holds any more.
  expectRun(sb, ['untap', id8], { status: 0, stdout: `untapped ${id8} a.txt:10 (rejected change committed)\n` });
  assert.equal(stop(sb, 's2'), null);
  assert.equal(sb.kizu(['status']).status, 0);
});

test('a rejected hunk edited instead of reverted: the Stop hook holds and names it; status names it; tapping the edit resolves it', () => {
  const { sb, id } = rejected();
  sb.write({ 'a.txt': text(withLines({ 10: 'line 10 by the agent, reworded' })) });
  const [e] = hunksJson(sb);
  assert.notEqual(e.id, id);
  const base = sha(sb).slice(0, 12);
  assert.deepEqual(stop(sb), {
    decision: 'block',
    reason:
      'git-kizu: a human reviewer left 1 rejected change. Resolve it before you stop:\n' +
      `- "a.txt":10 → a reviewer rejected this change; it was edited instead of reverted (now ${e.shortId} "a.txt":10), and nobody reviewed the edit: ` +
      `revert it to the baseline (\`git diff ${base} -- a.txt\`), or tell the user the rework waits for review (\`git kizu review\`)`,
  });
  // Right after the edit, the agent is told too (PostToolUse).
  const post = hook(sb, 'post-tool-use', editPayload(sb, 'a.txt'));
  assert.deepEqual(
    JSON.parse(post.stdout).hookSpecificOutput.additionalContext,
    'git-kizu: a reviewer rejected a change in the file you just edited:\n' +
      `- "a.txt":10 → a reviewer rejected this change; it was edited instead of reverted (now ${e.shortId} "a.txt":10), and nobody reviewed the edit: ` +
      `revert it to the baseline (\`git diff ${base} -- a.txt\`), or tell the user the rework waits for review (\`git kizu review\`)`,
  );
  const st = sb.kizu(['status']);
  assert.equal(st.status, 1);
  assert.ok(
    st.stdout.includes(
      `\n  rejected  ${id.slice(0, 8)}  a.txt:10  rejected, edited since: review the rework: git kizu tap ${e.shortId} (or reject it), or revert it: git kizu revert ${e.shortId}\n`,
    ),
    st.stdout,
  );
  ok(sb.kizu(['tap', e.shortId]), 'tap');
  assert.equal(stop(sb, 's2'), null);
  assert.equal(sb.kizu(['status']).status, 0);
});

test('a rejected hunk reverted (in the working tree, or committed and then undone by git revert) is resolved: no finding', () => {
  const { sb } = rejected();
  sb.git('checkout', '--', 'a.txt');
  assert.equal(stop(sb), null);
  const st = sb.kizu(['status', '--json']);
  assert.equal(st.status, 0);
  assert.deepEqual(JSON.parse(st.stdout).hunks.laundered, []);

  const two = rejected().sb;
  two.git('commit', '-q', '--no-verify', '-am', 'launder');
  assert.equal(stop(two)?.decision, 'block');
  two.git('revert', '--no-edit', 'HEAD');
  assert.equal(stop(two, 's2'), null);
  assert.equal(two.kizu(['status']).status, 0);
});

test('a tapped hunk committed is no finding; a commit of other lines leaves the rejected hunk a plain rejection', () => {
  const sb = sandbox({ files: { 'a.txt': text(LINES) } });
  sb.write({ 'a.txt': text(withLines({ 10: 'ten', 25: 'twenty-five' })) });
  ok(sb.kizu(['tap', 'a.txt:10']), 'tap');
  ok(sb.kizu(['reject', 'a.txt:25']), 'reject');
  // Commit only line 10 (tapped): the rejected hunk stays in the working tree, listed and rejected as before.
  sb.write({ 'a.txt': text(withLines({ 10: 'ten' })) });
  sb.git('commit', '-q', '-am', 'tapped one');
  sb.write({ 'a.txt': text(withLines({ 10: 'ten', 25: 'twenty-five' })) });
  const j = JSON.parse(sb.kizu(['status', '--json']).stdout);
  assert.deepEqual([j.hunks.rejected, j.hunks.laundered], [1, []]);
  sb.git('checkout', '--', 'a.txt');
  assert.equal(stop(sb), null);
  assert.equal(sb.kizu(['status']).status, 0);
});

test('review lists a rejection whose hunk was committed first (and again with the hunks not tapped at the end)', () => {
  const { sb, id } = rejected();
  sb.git('commit', '-q', '--no-verify', '-am', 'launder');
  const c = sha(sb).slice(0, 7);
  sb.write({ 'b.txt': 'new\n' });
  // The loop is terminal-free (src/cli/review/loop.ts): driven here with one quit key.
  const r = sb.runModule(`import { runReview } from ${JSON.stringify(src('cli/review/loop.ts'))};
const keys = { tap: ' ', reject: '!', ask: 'a', rejectScar: 'r', free: 'c', revert: 'x', revertScar: 'X', skip: 's', quit: 'q', help: '?' };
let out = '';
await runReview({ root: process.cwd(), gitDir: process.cwd() + '/.git', paths: [], all: false, keys,
  io: { readKey: async () => 'q', readLine: async () => null, write: (s) => { out += s; }, writeErr: (s) => { out += s; } } });
process.stdout.write(out);`);
  assert.equal(r.stderr, '');
  const line = `rejected  ${id.slice(0, 8)}  a.txt:10  rejected change committed in ${c}: undo it (git revert ${c} undoes that whole commit), or accept it: git kizu tap ${id.slice(0, 8)} (git kizu untap ${id.slice(0, 8)} withdraws the rejection)`;
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], line);
  assert.equal(lines.filter((l) => l === line).length, 2, r.stdout);
});
