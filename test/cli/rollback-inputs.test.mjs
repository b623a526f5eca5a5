// Every rollback command and `git kizu undo` check their inputs before the first file
// changes: a broken undo log (.git/kizu/rollbacks.json) stops them with an error naming the
// file and how to move it aside, nothing written (no file, no snapshot, no trash ref, no
// journal entry); a broken config (.kizurc.json, which an agent can write) never locks
// anyone out of rollback and undo: one warning line names the file and the problem, and the
// defaults stand in for what is invalid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun, ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { journalTip } from '../helpers/refs.mjs';
import { TEN, agentEdit } from '../helpers/journal.mjs';
import { commitConfig } from '../helpers/config.mjs';

/** Every ref with its object id. */
const refs = (sb) => sb.git('for-each-ref', '--format=%(objectname) %(refname)');

/** A repository with a snapshot, a journal entry and a task with a linked worktree. */
function repo() {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'f.txt': TEN } });
  const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout).name;
  const wt = path.join(sb.base, 'wt');
  ok(sb.kizu(['task', 'start', 'feat', '--worktree', wt]), 'task start');
  writeFileSync(path.join(wt, 'u.txt'), 'task file\n');
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  writeFileSync(sb.path('a.txt'), 'agent\n');
  return { sb, snap, wt, e };
}

test('a corrupt undo log: rollback snapshot, rollback patch, rollback branch and undo refuse before anything changes (exit 2, the file named with the fix)', () => {
  for (const [content, why] of [
    ['{"version": 1, "records": [', 'is not valid JSON (Unexpected end of JSON input)'],
    ['{"version": 1, "records": [{"level": "snapshot"}]}', 'has an invalid record 1: time must be an ISO date string, got undefined'],
    ['[]', 'has an unknown format (expected {"version": 1, "records": [...]})'],
  ]) {
    const { sb, snap, wt, e } = repo();
    const log = path.join(realpathSync(sb.dir), '.git/kizu/rollbacks.json');
    writeFileSync(log, content);
    const before = { main: tree(sb.dir), wt: tree(wt), refs: refs(sb), journal: journalTip(sb) };
    const stderr = err(
      `the undo log ${log} ${why}`,
      `nothing was changed; move it aside (mv ${log} ${log}.broken) and run the command again. ` +
        'The rollbacks it recorded then cannot be undone with git kizu undo; their safety snapshots stay in git kizu snapshot list until snapshot.keep retention drops them',
    );
    expectRun(sb, ['rollback', 'snapshot', snap, '--yes'], { status: 2, stdout: '', stderr });
    expectRun(sb, ['rollback', 'patch', e.shortId, '--yes'], { status: 2, stdout: '', stderr });
    expectRun(sb, ['rollback', 'branch', 'feat', '--yes'], { status: 2, stdout: '', stderr });
    expectRun(sb, ['undo', '--yes'], { status: 2, stdout: '', stderr });
    assert.deepEqual({ main: tree(sb.dir), wt: tree(wt), refs: refs(sb), journal: journalTip(sb) }, before);
    assert.equal(readFileSync(log, 'utf8'), content, 'the log is never rewritten');
    // The fix it names works.
    sb.run('mv', [log, `${log}.broken`]);
    ok(sb.kizu(['rollback', 'snapshot', snap, '--yes']));
    assert.equal(sb.read('a.txt'), 'a\n');
  }
});

const CONFIGS = [
  ['{"snapshot": {', (f) => `could not read config: ${f} is not valid JSON: expected a closing brace } (the file ends too early) at line 1, column 15; the defaults are used until it is fixed (see README "Config")`],
  ['{"snapshot": {"keep": 0, "maxFileBytes": "big"}, "stop": 3}', (f) => `invalid config in ${f}: "stop" must be an object; "snapshot.maxFileBytes" must be a positive integer (bytes), got "big"; "snapshot.keep" must be an integer >= 1, got 0; its valid keys and the defaults for the rest are used until it is fixed (see README "Config")`],
];

test('a broken config (not JSON, or invalid values) never blocks rollback snapshot or undo: one warning line, the rollback and its undo done exactly', () => {
  for (const [config, problem] of CONFIGS) {
    const sb = sandbox({ files: { 'a.txt': 'a\n', '.kizurc.json': '{}' } });
    const snap = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout).name;
    writeFileSync(sb.path('.kizurc.json'), config);
    writeFileSync(sb.path('a.txt'), 'agent\n');
    const agent = tree(sb.dir);
    const warning = `git-kizu: warning: ${problem(path.join(realpathSync(sb.dir), '.kizurc.json'))}\n`;
    // The config is part of the working tree: the rollback puts back the snapshot's ({}).
    const r = sb.kizu(['rollback', 'snapshot', snap, '--yes']);
    assert.deepEqual({ status: r.status, stderr: r.stderr }, { status: 0, stderr: warning }, r.stdout);
    assert.match(r.stdout, /\nrolled back 2 paths to snapshot \S+\nsafety snapshot: \S+ \(undo with: git kizu undo\)\n$/);
    assert.equal(sb.read('a.txt'), 'a\n');
    // The agent breaks the config again; undo still works, and puts the agent's state back.
    writeFileSync(sb.path('.kizurc.json'), config);
    const dry = sb.kizu(['undo', '--dry-run']);
    assert.deepEqual({ status: dry.status, stderr: dry.stderr }, { status: 0, stderr: warning });
    const u = sb.kizu(['undo', '--yes']);
    assert.deepEqual({ status: u.status, stderr: u.stderr }, { status: 0, stderr: warning }, u.stdout);
    assert.deepEqual(tree(sb.dir), agent);
  }
});

test('a broken config never blocks rollback patch or rollback branch: one warning line each, and undo reverses them', () => {
  for (const [config, problem] of CONFIGS) {
    const { sb, wt, e } = repo();
    writeFileSync(sb.path('.kizurc.json'), config);
    const warning = `git-kizu: warning: ${problem(path.join(realpathSync(sb.dir), '.kizurc.json'))}\n`;
    const wtBefore = tree(wt);
    const p = sb.kizu(['rollback', 'patch', e.shortId, '--yes']);
    assert.deepEqual({ status: p.status, stderr: p.stderr }, { status: 0, stderr: warning }, p.stdout);
    assert.equal(sb.read('f.txt'), TEN);
    const b = sb.kizu(['rollback', 'branch', 'feat', '--yes']);
    assert.deepEqual({ status: b.status, stderr: b.stderr }, { status: 0, stderr: warning }, b.stdout);
    assert.equal(sb.git('branch', '--list', 'kizu/feat'), '');
    const u = sb.kizu(['undo', '--yes']);
    assert.deepEqual({ status: u.status, stderr: u.stderr }, { status: 0, stderr: warning }, u.stdout);
    assert.deepEqual(tree(wt), wtBefore);
    const u2 = sb.kizu(['undo', '--yes']);
    assert.deepEqual({ status: u2.status, stderr: u2.stderr }, { status: 0, stderr: warning }, u2.stdout);
    assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
  }
});

test('while the config is broken, rollback snapshot and undo drop no snapshot by snapshot.keep (its own value may be what is wrong)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', '.kizurc.json': '{"snapshot": {"keep": 2}}' } });
  const first = JSON.parse(ok(sb.kizu(['snapshot', '--json'])).stdout).name;
  writeFileSync(sb.path('a.txt'), 'b\n');
  ok(sb.kizu(['snapshot']));
  // keep is still valid; another key is not.
  const broken = '{"snapshot": {"keep": 2, "maxFileBytes": "x"}}';
  writeFileSync(sb.path('.kizurc.json'), broken);
  writeFileSync(sb.path('a.txt'), 'c\n');
  const names = () => JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout).map((s) => s.name);
  assert.equal(names().length, 2);
  const r = sb.kizu(['rollback', 'snapshot', first, '--yes']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.equal(names().length, 3, 'the oldest snapshot is not dropped');
  assert.ok(names().includes(first));
  writeFileSync(sb.path('.kizurc.json'), broken);
  ok(sb.kizu(['undo', '--yes']));
  assert.equal(names().length, 4);
  assert.equal(sb.read('a.txt'), 'c\n');
});

test('while the config is broken, the safety snapshots of rollback patch and rollback branch, and the prompt hook, drop no snapshot by snapshot.keep either', () => {
  const { sb, e } = repo();
  commitConfig(sb, { '.kizurc.json': '{"snapshot": {"keep": 2}}' });
  ok(sb.kizu(['snapshot']));
  const names = () => JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout).map((s) => s.name).reverse();
  const before = names();
  assert.equal(before.length, 2);
  // keep is still valid; another key is not.
  writeFileSync(sb.path('.kizurc.json'), '{"snapshot": {"keep": 2, "maxFileBytes": "x"}}');
  ok(sb.kizu(['rollback', 'patch', e.shortId, '--yes']), 'rollback patch');
  assert.deepEqual(names().slice(0, 2), before, 'rollback patch dropped none');
  assert.equal(names().length, 3);
  ok(sb.kizu(['rollback', 'branch', 'feat', '--yes']), 'rollback branch');
  assert.deepEqual(names().slice(0, 2), before, 'rollback branch dropped none');
  assert.equal(names().length, 4);
  writeFileSync(sb.path('a.txt'), 'prompt\n');
  const h = hook(sb, 'user-prompt-submit', { session_id: 's', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  assert.equal(h.status, 0, h.stderr);
  assert.deepEqual(names().slice(0, 2), before, 'the prompt hook dropped none');
  assert.equal(names().length, 5);
  // With the config readable again, retention applies: all but the two safety snapshots the
  // undo log protects and the new one go.
  const all = names();
  writeFileSync(sb.path('.kizurc.json'), '{"snapshot": {"keep": 2}}');
  writeFileSync(sb.path('a.txt'), 'prompt 2\n');
  assert.equal(hook(sb, 'user-prompt-submit', { session_id: 's', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: 'go on' }).status, 0);
  assert.deepEqual(names().slice(0, 2), all.slice(2, 4));
  assert.equal(names().length, 3);
});
