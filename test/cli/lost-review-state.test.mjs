// Review state the agent's actions take away (issue 22, round 2): a review queue item written
// through git kizu that vanishes from the queue file (stash, rm, an edit), and review marks
// that cannot be read (refs/kizu/marks moved to a commit that is not a marks commit). Each
// blocks the Stop hook with the command that restores it, is named by status, doctor and the
// prompt hook, and (marks) makes the pre-commit guard refuse. The real bin and real git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { BIN, hook, sandbox } from '../helpers/sandbox.mjs';
import { stopPayload } from '../helpers/hooks.mjs';
import { Q, add, repo } from '../helpers/queue.mjs';
import { REF } from '../helpers/marks.mjs';

/** The Stop hook's answer (a fresh count each time: no streak file), parsed; null for no answer. */
function stop(sb) {
  rmSync(sb.path('.git/kizu/stop/sess-1.json'), { force: true });
  const r = hook(sb, 'stop', stopPayload(sb, false));
  assert.equal(r.status, 0, r.stderr);
  return r.stdout === '' ? null : JSON.parse(r.stdout);
}

/** The prompt hook's answer, parsed; null for no answer. */
function prompt(sb) {
  const r = hook(sb, 'user-prompt-submit', { session_id: 's1', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout === '' ? null : JSON.parse(r.stdout);
}

/** `git kizu status --json`: its exit code and parsed output. */
function status(sb) {
  const r = sb.kizu(['status', '--json']);
  return { code: r.status, s: JSON.parse(r.stdout), stderr: r.stderr };
}

/** The doctor's lines about review state. */
const doctorLines = (sb) => sb.kizu(['doctor']).stdout.split('\n').filter((l) => l.includes('review state'));

const gone = (id, text) =>
  `1 review queue item written through git kizu is gone from ${Q} (not open, not done: deleted, stashed or checked out away): ${id} "${text}"`;

test('a queue item stashed away (git add + git stash push -- <queue file>) blocks the stop, is named by status, doctor and the prompt hook with the command that brings it back', () => {
  const sb = repo();
  const id = add(sb, 'keep the old API');
  sb.git('add', Q);
  sb.git('stash', 'push', '-q', '--', Q);
  const what = gone(id, 'keep the old API');
  const fix = `git checkout stash@{0} -- ${Q}`;
  const a = stop(sb);
  assert.equal(a.decision, 'block');
  assert.equal(
    a.reason,
    `git-kizu: review state is missing, so the review cannot be checked: ${what}. Put it back (${fix}); if that is refused to you, stop and tell the human in your answer what happened.`,
  );
  assert.equal(a.systemMessage, `git-kizu: review state lost: ${what}; restore: ${fix}`);
  const st = status(sb);
  assert.equal(st.code, 1, st.stderr);
  assert.deepEqual(st.s.lost, [{ what, fix }]);
  assert.match(sb.kizu(['status']).stdout, /\nnot done: /);
  assert.deepEqual(doctorLines(sb), [`fix  review state: ${what}; fix: ${fix}`]);
  assert.equal(prompt(sb).systemMessage, `git-kizu: review state lost: ${what}; restore: ${fix}`);

  // The command brings it back: the item is an open item again, nothing is lost.
  sb.git(...fix.split(' ').slice(1));
  const back = stop(sb);
  assert.equal(back.decision, 'block');
  assert.ok(!back.reason.includes('review state is missing'), back.reason);
  assert.ok(back.reason.includes('keep the old API'), back.reason);
  assert.deepEqual(status(sb).s.lost, []);
});

test('a queue file deleted (rm) or an item line edited away: blocked; the reviewer\'s queue rm forgets it; done + clear --done and rm are not losses', () => {
  const sb = repo();
  const a = add(sb, 'first');
  const b = add(sb, 'second');
  // The agent edits the second item's line away.
  sb.write({ [Q]: sb.read(Q).split('\n').filter((l) => !l.includes(`kizu:${b} `)).join('\n') });
  assert.deepEqual(status(sb).s.lost.map((l) => l.what), [gone(b, 'second')]);
  rmSync(sb.path(Q));
  const what2 = `2 review queue items written through git kizu are gone from ${Q} (not open, not done: deleted, stashed or checked out away): ${a} "first"; ${b} "second"`;
  const fix2 = `restore ${Q} (git stash list; the last prompt snapshot: git kizu snapshot list), or add them again (git kizu queue add); if they were meant to go: git kizu queue rm ${a} ${b}`;
  assert.equal(stop(sb).reason, `git-kizu: review state is missing, so the review cannot be checked: ${what2}. Put it back (${fix2}); if that is refused to you, stop and tell the human in your answer what happened.`);
  // The reviewer says they were meant to go.
  const rm = sb.kizu(['queue', 'rm', a, b]);
  assert.equal(rm.status, 0, rm.stderr);
  assert.equal(rm.stdout, `forgotten (it was no longer in ${Q}): ${a} first\nforgotten (it was no longer in ${Q}): ${b} second\n`);
  assert.equal(stop(sb), null);
  assert.deepEqual(status(sb).s.lost, []);

  // Items the reviewer removed through git kizu are not losses.
  const c = add(sb, 'third');
  const d = add(sb, 'fourth');
  assert.equal(sb.kizu(['queue', 'done', c]).status, 0);
  assert.equal(sb.kizu(['queue', 'clear', '--done']).status, 0);
  assert.equal(sb.kizu(['queue', 'rm', d]).status, 0);
  assert.equal(stop(sb), null);
  assert.deepEqual(status(sb).s.lost, []);
});

test('refs/kizu/marks moved to a commit that is not a marks commit: the Stop hook blocks, the guard refuses, status reports it (no crash), doctor and the prompt hook name it, each with the restore command', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\nb\n' } });
  sb.write({ 'a.txt': 'a\nb\nc\n' });
  const id = JSON.parse(sb.kizu(['hunks', '--json']).stdout)[0].id;
  assert.equal(sb.kizu(['reject', id]).status, 0);
  const good = sb.git('rev-parse', REF).trim();
  const head = sb.git('rev-parse', 'HEAD').trim();
  sb.git('update-ref', REF, 'HEAD');
  const why = `${REF} is corrupt: commit ${head} has no marks.json file`;
  const what = `the review marks cannot be read, so every tap and reject is unknown (${why})`;
  const fix = `git update-ref ${REF} ${good}`;
  const a = stop(sb);
  assert.equal(a.decision, 'block');
  assert.equal(a.reason, `git-kizu: review state is missing, so the review cannot be checked: ${what}. Put it back (${fix}); if that is refused to you, stop and tell the human in your answer what happened.`);
  assert.equal(a.systemMessage, `git-kizu: review state lost: ${what}; restore: ${fix}`);

  const g = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.deepEqual(
    { status: g.status, stderr: g.stderr },
    { status: 1, stderr: `git-kizu: commit refused: the review marks cannot be read (${why}), so a rejected change cannot be told apart.\n  restore them: ${fix}\n` },
  );
  const st = status(sb);
  assert.equal(st.code, 1, st.stderr);
  assert.deepEqual(st.s.lost, [{ what, fix }]);
  assert.deepEqual(doctorLines(sb), [`fix  review state: ${what}; fix: ${fix}`]);
  assert.equal(prompt(sb).systemMessage, `git-kizu: review state lost: ${what}; restore: ${fix}`);

  // Restored: the reject holds again, and nothing is lost.
  sb.git(...fix.split(' ').slice(1));
  assert.match(stop(sb).reason, /reject/);
  assert.deepEqual(status(sb).s.lost, []);
  assert.equal(sb.run(process.execPath, [BIN, 'hook', 'pre-commit']).status, 0);
});

test('a queue file the agent made unreadable (a folder, a symbolic link out of the tree): the reviewer\'s recorded items count as lost, so the stop blocks and status says so', async () => {
  const { mkdirSync, symlinkSync, writeFileSync } = await import('node:fs');
  const path = (await import('node:path')).default;
  for (const make of [
    (sb) => mkdirSync(sb.path(Q)),
    (sb) => {
      writeFileSync(path.join(sb.base, 'q.md'), '');
      symlinkSync(path.join(sb.base, 'q.md'), sb.path(Q));
    },
  ]) {
    const sb = repo();
    const id = add(sb, 'add tests');
    rmSync(sb.path(Q));
    make(sb);
    const why = (sb.kizu(['queue', 'list']).stderr.split('\n')[0] ?? '').replace(/^git-kizu: error: /, '');
    const what = `${Q} cannot be read (${why}), so 1 review queue item written through git kizu cannot be checked: ${id} "add tests"`;
    const a = stop(sb);
    assert.equal(a.decision, 'block');
    assert.ok(a.reason.startsWith(`git-kizu: review state is missing, so the review cannot be checked: ${what}.`), a.reason);
    const { code, s } = status(sb);
    assert.equal(code, 2); // the queue could not be read: an error, beside what it lost
    assert.deepEqual(s.lost.map((l) => l.what), [what]);
  }
});

test('git failing on the repository (a submodule whose .git file points nowhere): the Stop hook blocks, bounded by stop.maxBlocks, and tells the user, instead of letting the agent stop unchecked', async () => {
  const { writeFileSync } = await import('node:fs');
  const sub = sandbox({ files: { 's.txt': 's\n' } });
  const sb = sandbox({ files: { 'a.js': 'a\nb\nc\n', '.kizurc.json': '{"stop":{"maxBlocks":2}}\n' } });
  sb.run('git', ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'sm']);
  sb.git('commit', '-qm', 'sm');
  writeFileSync(sb.path('sm/.git'), 'gitdir: /nonexistent\n');
  const why = 'git diff HEAD failed: fatal: not a git repository: /nonexistent';
  const once = () => {
    const r = hook(sb, 'stop', stopPayload(sb, false));
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const block = {
    decision: 'block',
    reason: `git-kizu: the review could not be checked, because git failed on this repository (${why}). Put the repository back in order (for example a submodule's .git file or a missing object), then stop again; if you cannot, stop and tell the human in your answer what happened.`,
    systemMessage: `git-kizu: the review could not be checked: git failed on this repository (${why}); run git kizu status to see it`,
  };
  assert.deepEqual(once(), block);
  assert.deepEqual(once(), block);
  assert.deepEqual(once(), { systemMessage: `git-kizu: allowing the stop after 2 blocks: the review could not be checked, because git failed on this repository (${why}); run git kizu status` });
});
