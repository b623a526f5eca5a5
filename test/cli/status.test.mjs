// `git kizu status` and the review queue in `git kizu scan`, through the real bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { exits, ok } from '../helpers/expect.mjs';

test('status on a clean repository: exit 0, exact text', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n' } });
  const head = sb.git('rev-parse', 'HEAD').trim();
  const r = ok(sb.kizu(['status']));
  assert.equal(
    r.stdout,
    `baseline  HEAD ${head.slice(0, 12)}\n` +
      'hunks     0: 0 unreviewed, 0 tapped, 0 rejected\n' +
      'scars     0\n' +
      'queue     0 open, 0 done (.claude/review-queue.md)\n' +
      'hooks     Claude Code: not installed (git kizu init); pre-commit: missing: no pre-commit hook runs git-kizu; run `git kizu init`\n' +
      'install   no hook file changed since git kizu init, no setting switches hooks off\n' +
      'storage   0 journal entries, 0 snapshots, 0 saved reverts, 0 discarded tasks, 0 marks, 0 undo records\n' +
      'nothing blocks the agent\n',
  );
});

test('status --json: hunks by mark, scars, queue items, hooks; exit 1 while something blocks', () => {
  const sb = sandbox({ files: { 'a.js': 'a\nb\nc\n', 'b.js': 'x\n' } });
  ok(sb.kizu(['init']));
  sb.git('add', '-A');
  sb.git('commit', '-q', '-m', 'hooks');
  sb.write({ 'a.js': 'a\nB\nc\n', 'n.txt': 'new\n', 'b.js': '// @kizu[ask]: explain this change\nx\n' });
  const hunks = JSON.parse(ok(sb.kizu(['hunks', '--json'])).stdout);
  assert.deepEqual(
    hunks.map((h) => h.range),
    ['a.js:2', 'b.js:1', 'n.txt:1'],
  );
  ok(sb.kizu(['tap', 'a.js:2']));
  ok(sb.kizu(['reject', 'n.txt:1']));
  const id = ok(sb.kizu(['queue', 'add', '--at', 'a.js:2', '--kind', 'ask', 'why B?'])).stdout.trim();
  ok(sb.kizu(['queue', 'done', ok(sb.kizu(['queue', 'add', 'already done'])).stdout.trim()]));
  const r = exits(sb.kizu(['status', '--json']), 1);
  const s = JSON.parse(r.stdout);
  const head = sb.git('rev-parse', 'HEAD').trim();
  assert.deepEqual(s.baseline, { rev: 'HEAD', oid: head, fromRef: false, outsideHead: false });
  assert.deepEqual(
    { total: s.hunks.total, unreviewed: s.hunks.unreviewed, tapped: s.hunks.tapped, rejected: s.hunks.rejected },
    { total: 3, unreviewed: 1, tapped: 1, rejected: 1 },
  );
  assert.deepEqual(
    s.hunks.list.map((h) => [h.range, h.mark]),
    [
      ['a.js:2', 'tapped'],
      ['b.js:1', 'unreviewed'],
      ['n.txt:1', 'rejected'],
    ],
  );
  // The scar was typed into the file (origin: where it came from); the item was written through git kizu (origin null).
  assert.deepEqual(s.scars, [{ path: 'b.js', line: 1, kind: 'ask', body: 'explain this change', origin: 'in the working tree, not written through git kizu here' }]);
  assert.deepEqual(s.queue, { open: [{ id, checked: false, kind: 'ask', path: 'a.js', line: 2, text: 'why B?', queueLine: s.queue.open[0].queueLine, origin: null }], done: 1 });
  const { agents, ...claudeAndGuard } = s.hooks;
  // No other agent's hooks are installed, in either scope (each agent's states: test/unit/agent-*.test.mjs).
  assert.deepEqual(
    agents.map((a) => [a.agent, a.scope, a.installed]),
    ['codex', 'gemini', 'copilot', 'cursor'].flatMap((a) => [[a, 'project', 'missing'], [a, 'user', 'missing']]),
  );
  assert.deepEqual(claudeAndGuard, {
    project: true,
    local: false,
    user: false,
    plugin: false,
    claudeFix: null,
    claudeNoStop: [],
    preCommit: true,
    guard: { state: 'installed', via: 'hooks-dir', file: path.join(sb.dir, '.git', 'hooks', 'pre-commit') },
  });
  // The marks' bytes on disk: objects refs/kizu/marks reaches that no branch or HEAD does.
  const marksBytes = Number(sb.git('rev-list', '--objects', '--disk-usage', 'refs/kizu/marks', '--not', '--branches', 'HEAD').trim());
  assert.deepEqual(
    s.storage.kinds.map((k) => [k.kind, k.entries, k.bytes, k.drop]),
    [
      ['journal', 0, 0, 0],
      ['snapshots', 0, 0, 0],
      ['reverts', 0, 0, 0],
      ['trash', 0, 0, 0],
      ['marks', 2, marksBytes, 0],
      ['undo', 0, 0, 0],
    ],
  );
  const text = exits(sb.kizu(['status']), 1).stdout;
  assert.equal(
    text,
    `baseline  HEAD ${head.slice(0, 12)}\n` +
      'hunks     3: 1 unreviewed, 1 tapped, 1 rejected\n' +
      `  rejected  ${hunks[2].shortId}  n.txt:1\n` +
      'scars     1\n' +
      '  b.js:1  [ask]  explain this change  (found: in the working tree, not written through git kizu here)\n' +
      'queue     1 open, 1 done (.claude/review-queue.md)\n' +
      `  [${id}] a.js:2 (ask) why B?\n` +
      'hooks     Claude Code: installed (project); pre-commit: installed (git hook, .git/hooks/pre-commit)\n' +
      'install   no hook file changed since git kizu init, no setting switches hooks off\n' +
      `storage   0 journal entries, 0 snapshots, 0 saved reverts, 0 discarded tasks, 2 marks (${marksBytes} B), 0 undo records\n` +
      "not done: the agent's Stop hook blocks until these are resolved\n",
  );
});

test('the review queue file is never a hunk', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n' } });
  ok(sb.kizu(['queue', 'add', 'note']));
  assert.equal(ok(sb.kizu(['hunks', '--json'])).stdout, '[]\n');
});

test('scan lists open queue items after scars (text and --json); --staged and path filters leave them out', () => {
  const sb = sandbox({ files: { 'a.js': 'a\n', 'lib/b.js': 'b\n' } });
  sb.write({ 'a.js': '// @kizu[free]: rename\na\n' });
  const q1 = ok(sb.kizu(['queue', 'add', 'also add a test'])).stdout.trim();
  const q2 = ok(sb.kizu(['queue', 'add', '--at', 'lib/b.js:1', '--kind', 'reject', 'not this'])).stdout.trim();
  const done = ok(sb.kizu(['queue', 'add', 'finished'])).stdout.trim();
  ok(sb.kizu(['queue', 'done', done]));
  assert.equal(
    exits(sb.kizu(['scan']), 1).stdout,
    'a.js:1  [free]  rename\n\nqueue (.claude/review-queue.md):\n' + `[${q1}]  also add a test\n` + `[${q2}]  lib/b.js:1  (reject)  not this\n`,
  );
  assert.deepEqual(JSON.parse(exits(sb.kizu(['scan', '--json']), 1).stdout), [
    { path: 'a.js', line: 1, kind: 'free', body: 'rename' },
    { path: null, line: null, kind: null, body: 'also add a test', queue: q1 },
    { path: 'lib/b.js', line: 1, kind: 'reject', body: 'not this', queue: q2 },
  ]);
  assert.deepEqual(JSON.parse(exits(sb.kizu(['scan', '--json', 'lib']), 1).stdout), [{ path: 'lib/b.js', line: 1, kind: 'reject', body: 'not this', queue: q2 }]);
  sb.git('add', 'a.js');
  assert.deepEqual(JSON.parse(exits(sb.kizu(['scan', '--staged', '--json']), 1).stdout), [{ path: 'a.js', line: 1, kind: 'free', body: 'rename' }]);
  ok(sb.kizu(['queue', 'done', q1, q2]));
  sb.write({ 'a.js': 'a\n' });
  assert.equal(ok(sb.kizu(['scan', '--json'])).stdout, '[]\n');
});

test('status in a repository with no commits yet: no baseline, scars and queue still listed', () => {
  const sb = sandbox({ commit: false });
  sb.write({ 'a.py': '# @kizu[ask]: explain this change\nx = 1\n' });
  const r = sb.kizu(['status']);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stdout,
    'baseline  none (no commits yet)\n' +
      'hunks     0: 0 unreviewed, 0 tapped, 0 rejected\n' +
      'scars     1\n' +
      '  a.py:1  [ask]  explain this change  (found: in the working tree, not written through git kizu here)\n' +
      'queue     0 open, 0 done (.claude/review-queue.md)\n' +
      'hooks     Claude Code: not installed (git kizu init); pre-commit: missing: no pre-commit hook runs git-kizu; run `git kizu init`\n' +
      'install   no hook file changed since git kizu init, no setting switches hooks off\n' +
      'storage   0 journal entries, 0 snapshots, 0 saved reverts, 0 discarded tasks, 0 marks, 0 undo records\n' +
      "not done: these must be resolved, but no agent's Stop hook is installed here (git kizu init installs it)\n",
  );
});
