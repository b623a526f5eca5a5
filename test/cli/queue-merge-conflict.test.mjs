// A review queue with git merge conflict markers (two branches each `queue add`, then a
// merge that conflicts) is a queue that cannot be read: commands refuse it (exit 2, nothing
// written, the message names the fix); the Stop and PostToolUse hooks report it on one
// stderr line and read no items from it, never the markers as item text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hook } from '../helpers/sandbox.mjs';
import { err } from '../helpers/expect.mjs';
import { editPayload } from '../helpers/hooks.mjs';
import { Q, TEMPLATE, FIRST, add, queueJson, refused, repo, stop } from '../helpers/queue.mjs';

const HINT = `resolve the merge conflict in ${Q} (git mergetool, or edit and git add)`;
const conflict = (line) => `${Q} has an unresolved git merge conflict (a conflict marker at line ${line})`;

/** A repo whose queue holds a real merge conflict: main and `other` each added an item after `base`. */
function conflicted(style = 'merge') {
  const sb = repo();
  sb.git('config', 'merge.conflictStyle', style);
  const base = add(sb, 'item one');
  sb.git('add', Q);
  sb.git('commit', '-q', '-m', 'queue');
  sb.git('switch', '-q', '-c', 'other');
  const theirs = add(sb, '--at', 'src/app.ts:2', 'item two');
  sb.git('commit', '-q', '-am', 'theirs');
  sb.git('switch', '-q', 'main');
  const ours = add(sb, 'item three');
  sb.git('commit', '-q', '-am', 'ours');
  const m = sb.run('git', ['merge', 'other']);
  assert.equal(m.status, 1, m.stdout + m.stderr);
  return { sb, base, theirs, ours };
}

test('a queue with merge conflict markers: every queue command refuses (exit 2, file unchanged), naming the fix', () => {
  const { sb, base, theirs, ours } = conflicted();
  const text = sb.read(Q);
  assert.equal(
    text,
    TEMPLATE +
      `- [ ] item one <!-- kizu:${base} -->\n` +
      `<<<<<<< HEAD\n- [ ] item three <!-- kizu:${ours} -->\n=======\n- [ ] \`src/app.ts:2\` item two <!-- kizu:${theirs} -->\n>>>>>>> other\n`,
  );
  const msg = err(conflict(FIRST + 1), HINT);
  for (const args of [['list'], ['list', '--all', '--json'], ['add', 'x'], ['done', base], ['reopen', base], ['rm', base], ['clear', '--done']]) refused(sb, args, 2, msg);
  const scan = sb.kizu(['scan']);
  assert.deepEqual([scan.status, scan.stdout, scan.stderr], [2, '', `git-kizu: warning: review queue not read: ${conflict(FIRST + 1)} (${HINT})\n`]);
  const st = sb.kizu(['status', '--json']);
  assert.equal(st.status, 2, st.stderr);
  assert.deepEqual(JSON.parse(st.stdout).queue, { open: [], done: 0, error: `${conflict(FIRST + 1)} (${HINT})` });
  assert.equal(sb.read(Q), text);
  // Resolved (both items kept) and added: readable again.
  sb.write({ [Q]: TEMPLATE + `- [ ] item one <!-- kizu:${base} -->\n- [ ] item three <!-- kizu:${ours} -->\n- [ ] \`src/app.ts:2\` item two <!-- kizu:${theirs} -->\n` });
  sb.git('add', Q);
  assert.deepEqual(queueJson(sb).map((x) => x.id), [base, ours, theirs]);
});

test('a queue with merge conflict markers: the Stop hook reports it on one line, reads no item and holds the stop on the reviewer\'s items it cannot check; PostToolUse warns', () => {
  const { sb, base, theirs, ours } = conflicted();
  const warn = `git-kizu: review queue not read: ${conflict(FIRST + 1)}`;
  const what = `${Q} cannot be read (${conflict(FIRST + 1)}), so 3 review queue items written through git kizu cannot be checked: ${base} "item one"; ${theirs} "item two"; ${ours} "item three"`;
  const fix = `make ${Q} a readable regular file again (resolve its merge conflict, or remove what stands in its place and restore it: git checkout -- ${Q}, or git kizu snapshot list)`;
  assert.deepEqual(stop(sb, false, warn + '\n'), {
    decision: 'block',
    reason: `git-kizu: review state is missing, so the review cannot be checked: ${what}. Put it back (${fix}); if that is refused to you, stop and tell the human in your answer what happened.`,
    systemMessage: `${warn}\ngit-kizu: review state lost: ${what}; restore: ${fix}`,
  });
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', warn + '\n']);
});

test('diff3 markers (|||||||) count; markers in a fenced code block, a lone ======= (Setext underline) or markers not at the line start do not', () => {
  const { sb } = conflicted('diff3');
  assert.match(sb.read(Q), /\n\|\|\|\|\|\|\| /);
  refused(sb, ['list'], 2, err(conflict(FIRST + 1), HINT));
  // Only the base section's marker left: still a conflict, named at its line.
  sb.write({ [Q]: '# Q\n\n- [ ] a\n||||||| base\n- [ ] b\n' });
  refused(sb, ['list'], 2, err(conflict(4), HINT));
  sb.write({ [Q]: '# Q\n\n- [ ] a\n>>>>>>>\n' });
  refused(sb, ['add', 'x'], 2, err(conflict(4), HINT));
  const fine = 'Review queue\n=======\n\n- [ ] a\n\n```\n<<<<<<< HEAD\n=======\n>>>>>>> other\n```\n\n- [ ] b <<<<<<< HEAD\n- [ ] c >>>>>>> other\n';
  sb.write({ [Q]: fine });
  assert.deepEqual(queueJson(sb).map((x) => x.text), ['a', 'b <<<<<<< HEAD', 'c >>>>>>> other']);
});
