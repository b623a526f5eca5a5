// The confirmation gate of `git kizu patch apply` and `git kizu rollback patch`, through the
// real bin in real repositories: without a terminal and without --yes they print the preview,
// refuse (exit 1, naming --yes and --dry-run) and write nothing, journal and snapshots
// included; --yes applies; --json prints the plan and the result; on a terminal they ask
// (tmux), "n" changes nothing and "y" goes ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun, err, ok } from '../helpers/expect.mjs';
import { tree } from '../helpers/files.mjs';
import { journalTip } from '../helpers/refs.mjs';
import { TEN, agentEdit, entries } from '../helpers/journal.mjs';
import { snapshots } from '../helpers/snapshots.mjs';
import { promptTerminal } from '../helpers/terminal.mjs';

const PATCH = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n';
const PREVIEW =
  'would patch a.txt: 1 hunk, +1 -1\n' +
  '  hunk 1 @@ -1,2 +1,2 @@\n' +
  '    before, lines 1-2:\n' +
  '      1  one\n' +
  '      2  two\n' +
  '    after, lines 1-2:\n' +
  '      1  one\n' +
  '      2  TWO\n';

/** A repository with a.txt and the patch in p.diff next to it (outside the working tree). */
function patchRepo() {
  const sb = sandbox({ files: { 'a.txt': 'one\ntwo\n' } });
  const file = path.join(sb.base, 'p.diff');
  writeFileSync(file, PATCH);
  writeFileSync(path.join(sb.base, 'p0.diff'), PATCH.replace(/[ab]\//g, ''));
  return { sb, file };
}

test('patch apply without a terminal and without --yes: the preview, exit 1 naming --yes and --dry-run; nothing written, nothing journaled', () => {
  const { sb, file } = patchRepo();
  const before = tree(sb.dir);
  expectRun(sb, ['patch', 'apply', file], {
    status: 1,
    stdout: PREVIEW,
    stderr: err('not applying the patch without confirmation: no terminal to ask on', `check the preview above (git kizu patch apply ${file} --dry-run shows it again), then run git kizu patch apply ${file} --yes`),
  });
  expectRun(sb, ['patch', 'apply', '-p1', '-'], {
    input: PATCH,
    status: 1,
    stdout: PREVIEW,
    stderr: err(
      'not applying the patch without confirmation: no terminal to ask on',
      'check the preview above (git kizu patch apply - --dry-run shows it again), then run git kizu patch apply - --yes with the patch on stdin again',
    ),
  });
  // -p other than 1 is kept in the hint; --json prints the plan as JSON.
  expectRun(sb, ['patch', 'apply', '--json', '-p0', file.replace('p.diff', 'p0.diff')], {
    status: 1,
    stdout: JSON.stringify({ dryRun: false, applied: false, files: [{ path: 'a.txt', kind: 'modify', hunks: 1, added: 1, removed: 1 }], entry: null }, null, 2) + '\n',
    stderr: err(
      'not applying the patch without confirmation: no terminal to ask on',
      `check the preview above (git kizu patch apply ${file.replace('p.diff', 'p0.diff')} -p0 --dry-run shows it again), then run git kizu patch apply ${file.replace('p.diff', 'p0.diff')} -p0 --yes`,
    ),
  });
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(journalTip(sb), '');
});

test('patch apply --yes applies without asking; --json prints the plan (--dry-run) and the result', () => {
  const { sb, file } = patchRepo();
  const dry = JSON.parse(ok(sb.kizu(['patch', 'apply', '--dry-run', '--json', file])).stdout);
  assert.deepEqual(dry, { dryRun: true, applied: false, files: [{ path: 'a.txt', kind: 'modify', hunks: 1, added: 1, removed: 1 }], entry: null });
  assert.equal(journalTip(sb), '');
  const r = ok(sb.kizu(['patch', 'apply', '--yes', '--json', file]));
  const e = entries(sb);
  assert.equal(e.length, 1);
  assert.deepEqual(JSON.parse(r.stdout), { ...dry, dryRun: false, applied: true, entry: e[0].shortId });
  assert.equal(r.stderr, '');
  assert.equal(sb.read('a.txt'), 'one\nTWO\n');
});

test('patch apply on a terminal shows the preview and asks: "n" writes nothing, "y" applies', async (t) => {
  const { sb, file } = patchRepo();
  const no = promptTerminal(t, sb, ['patch', 'apply', file]);
  await no.waitFor('Apply the patch to 1 file? [y/N]');
  no.answer('n');
  const noScreen = await no.done();
  assert.deepEqual(noScreen, [...PREVIEW.trimEnd().split('\n'), 'Apply the patch to 1 file? [y/N] n', 'cancelled: nothing was changed', 'EXIT=0']);
  assert.equal(sb.read('a.txt'), 'one\ntwo\n');
  assert.equal(journalTip(sb), '');

  const yes = promptTerminal(t, sb, ['patch', 'apply', file]);
  await yes.waitFor('[y/N]');
  yes.answer('y');
  const yesScreen = await yes.done();
  const id = entries(sb)[0].shortId;
  assert.deepEqual(yesScreen.slice(-3), ['patched a.txt (+1 -1)', `journal entry ${id}; undo with: git kizu rollback patch ${id}`, 'EXIT=0']);
  assert.equal(sb.read('a.txt'), 'one\nTWO\n');
});

test('patch apply: a file changed while the question waits is not overwritten (exit 1, nothing written)', async (t) => {
  const { sb, file } = patchRepo();
  const p = promptTerminal(t, sb, ['patch', 'apply', file]);
  await p.waitFor('[y/N]');
  writeFileSync(sb.path('a.txt'), 'one\ntwo\nhuman\n');
  p.answer('y');
  const screen = await p.done();
  assert.deepEqual(screen.slice(-3), ['git-kizu: error: a.txt changed while git-kizu was writing (it no longer holds what was checked); nothing changed', 'hint: run the command again', 'EXIT=1']);
  assert.equal(sb.read('a.txt'), 'one\ntwo\nhuman\n');
  assert.equal(journalTip(sb), '');
});

test('rollback patch without a terminal and without --yes: the plan, exit 1 naming --yes and --dry-run; nothing written, no entry, no snapshot', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  const before = tree(sb.dir);
  const tip = journalTip(sb);
  for (const cascade of [[], ['--cascade']]) {
    const again = `git kizu rollback patch ${e.shortId}${cascade.length ? ' --cascade' : ''}`;
    expectRun(sb, ['rollback', 'patch', e.shortId, ...cascade], {
      status: 1,
      stdout: `would roll back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\n`,
      stderr: err('not rolling back without confirmation: no terminal to ask on', `check the plan above (${again} --dry-run shows it again), then run ${again} --yes`),
    });
  }
  assert.deepEqual(tree(sb.dir), before);
  assert.equal(journalTip(sb), tip);
  assert.equal(snapshots(sb).length, 0);
  assert.equal(sb.kizu(['undo', '--yes']).status, 1, 'nothing recorded for undo');
});

test('rollback patch --json: the plan with --dry-run, the result with --yes', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  const step = { entry: e.shortId, tool: 'Edit', path: 'f.txt', how: 'restored', hunks: 0 };
  const dry = JSON.parse(ok(sb.kizu(['rollback', 'patch', '--dry-run', '--json', e.shortId])).stdout);
  assert.deepEqual(dry, { dryRun: true, applied: false, steps: [step], entry: null, safetySnapshot: null });
  const r = ok(sb.kizu(['rollback', 'patch', '--yes', '--json', e.shortId]));
  assert.equal(r.stderr, '');
  const rb = entries(sb).at(-1);
  assert.deepEqual(JSON.parse(r.stdout), { dryRun: false, applied: true, steps: [step], entry: rb.shortId, safetySnapshot: snapshots(sb)[0].name });
  assert.equal(sb.read('f.txt'), TEN);
});

test('rollback patch on a terminal shows the plan and asks: "n" writes nothing, "y" rolls back', async (t) => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  const tip = journalTip(sb);
  const no = promptTerminal(t, sb, ['rollback', 'patch', e.shortId]);
  await no.waitFor('Roll back 1 file? [y/N]');
  no.answer('n');
  assert.deepEqual(await no.done(), [
    `would roll back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`,
    'Roll back 1 file? [y/N] n',
    'cancelled: nothing was changed',
    'EXIT=0',
  ]);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'L5\n'));
  assert.equal(journalTip(sb), tip);
  assert.equal(snapshots(sb).length, 0);

  const yes = promptTerminal(t, sb, ['rollback', 'patch', e.shortId]);
  await yes.waitFor('[y/N]');
  yes.answer('y');
  const screen = await yes.done();
  const rb = entries(sb).at(-1);
  assert.deepEqual(screen.slice(-4), [
    `rolled back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`,
    `journal entry ${rb.shortId} records this rollback; git kizu rollback patch ${rb.shortId} re-applies it`,
    `safety snapshot ${snapshots(sb)[0].name} was taken first; git kizu undo reverses this rollback`,
    'EXIT=0',
  ]);
  assert.equal(sb.read('f.txt'), TEN);
});
