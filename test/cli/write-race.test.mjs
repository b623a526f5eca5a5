// Commands that rewrite one working-tree file, run at the same time through the real bin
// (issue 13: "never lose a human's edit"): `patch apply` against another `patch apply`,
// against `scar`, against `revert`, and `rollback patch` against `scar`, in both start orders.
// Every command that exits 0 has its change in the final file; every other one exits 1 with
// a message saying why and wrote nothing. They all hold one working-tree write lock
// (git/lock.ts withWorkTreeLock) and check under it that the file still holds what they read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';

const ROUNDS = 4;
const BASE = Array.from({ length: 100 }, (_, k) => `${k + 1}\n`);
const SCAR = '# @kizu[free]: s\n';
const MISMATCH_HINT = 'hint: the file differs from what the patch expects; regenerate the patch against the current file (nothing was written)\n';
const changed = (file) => `git-kizu: error: ${file} changed while git-kizu was writing (it no longer holds what was checked); nothing changed\nhint: run the command again\n`;
/** What `patch apply` of the one-line patch at `n` says when a scar above it moved the line. */
const moved = (file, n) =>
  `git-kizu: error: ${file}: hunk 1 (@@ -${n} +${n} @@) does not apply: line ${n} differs\n  expected: "${n}\\n"\n  actual:   "${n - 1}\\n"\n` + MISMATCH_HINT;

/** A command of a race: its argv, what it does to the lines when it succeeds, and the refusals it may give. */
function patch(sb, file, n) {
  const p = path.join(sb.base, `${file}.${n}.patch`);
  writeFileSync(p, `--- a/${file}\n+++ b/${file}\n@@ -${n} +${n} @@\n-${n}\n+P${n}\n`);
  return {
    name: `patch apply line ${n}`,
    args: ['patch', 'apply', p, '--yes'],
    stdout: /^patched \S+ \(\+1 -1\)\njournal entry [0-9a-f]+; undo with: git kizu rollback patch [0-9a-f]+\n$/,
    apply: (lines) => (lines[n - 1] = `P${n}\n`),
    refusals: [changed(file), moved(file, n)],
  };
}
function scar(file) {
  return {
    name: 'scar line 10',
    args: ['scar', `${file}:10`, '-k', 'free', '-m', 's'],
    stdout: new RegExp(`^scarred ${file.replace('.', '\\.')}:10  # @kizu\\[free\\]: s\\n$`),
    apply: (lines) => lines.splice(9, 0, SCAR),
    refusals: [],
  };
}

/**
 * Starts `cmds` at once (in this order) on `file`, which holds `start` (an array of lines);
 * asserts each exit 0 shows in the final file and each other exit is a refusal it may give.
 * @returns how many commands were refused.
 */
async function race(sb, file, start, cmds, round) {
  const runs = await Promise.all(cmds.map((c) => sb.kizuAsync(c.args)));
  const want = [...start];
  // In-place changes first (by line number in `start`), then insertions.
  const order = cmds.map((c, k) => [c, runs[k]]).sort(([a], [b]) => (a.name.startsWith('scar') ? 1 : 0) - (b.name.startsWith('scar') ? 1 : 0));
  let refused = 0;
  for (const [c, r] of order) {
    const what = `${c.name}, round ${round}, order ${cmds.map((x) => x.name).join(' + ')}`;
    if (r.status === 0) {
      assert.match(r.stdout, c.stdout, what);
      c.apply(want);
    } else {
      refused++;
      assert.equal(r.status, 1, `${what}: ${r.stderr}`);
      assert.ok(c.refusals.includes(r.stderr), `${what}: unexpected refusal ${JSON.stringify(r.stderr)}`);
      assert.equal(r.stdout, '', what);
    }
  }
  assert.equal(sb.read(file), want.join(''), `final ${file}, round ${round}, order ${cmds.map((x) => x.name).join(' + ')}`);
  return refused;
}

const files = (prefix, n) => Object.fromEntries(Array.from({ length: n }, (_, k) => [`${prefix}${k}.py`, BASE.join('')]));

test('two patch apply runs on different lines of one file at once: each that exits 0 is in the file, the other refuses (exit 1)', async () => {
  const sb = sandbox({ files: files('p', 2 * ROUNDS) });
  for (let k = 0; k < 2 * ROUNDS; k++) {
    const file = `p${k}.py`;
    const [a, b] = [patch(sb, file, 80), patch(sb, file, 90)];
    const refused = await race(sb, file, BASE, k % 2 ? [b, a] : [a, b], k);
    assert.ok(refused <= 1, `round ${k}: at least one of them applies`);
  }
});

test('patch apply and scar on one file at once: the scar always lands above line 10, the patch applies or refuses', async () => {
  const sb = sandbox({ files: files('s', 2 * ROUNDS) });
  for (let k = 0; k < 2 * ROUNDS; k++) {
    const file = `s${k}.py`;
    const [p, s] = [patch(sb, file, 80), scar(file)];
    await race(sb, file, BASE, k % 2 ? [s, p] : [p, s], k);
  }
});

test('patch apply and revert of another hunk of one file at once: both changes land or the patch refuses', async () => {
  const sb = sandbox({ files: files('r', ROUNDS) });
  const edited = BASE.map((l, k) => (k === 49 ? 'X50\n' : l));
  for (let k = 0; k < ROUNDS; k++) writeFileSync(sb.path(`r${k}.py`), edited.join(''));
  for (let k = 0; k < ROUNDS; k++) {
    const file = `r${k}.py`;
    const rev = {
      name: 'revert line 50',
      args: ['revert', `${file}:50`],
      stdout: new RegExp(`^reverted [0-9a-f]+  ${file.replace('.', '\\.')}:50\\n`),
      apply: (lines) => (lines[49] = '50\n'),
      refusals: [],
    };
    const p = patch(sb, file, 80);
    await race(sb, file, edited, k % 2 ? [rev, p] : [p, rev], k);
  }
});

test('rollback patch and scar on one file at once: the scar always lands, the rollback lands or refuses', async () => {
  const sb = sandbox({ files: files('b', ROUNDS) });
  for (let k = 0; k < ROUNDS; k++) {
    const file = `b${k}.py`;
    const applied = sb.kizu(['patch', 'apply', patch(sb, file, 80).args[2], '--yes']);
    assert.equal(applied.status, 0, applied.stderr);
    const id = /journal entry ([0-9a-f]+);/.exec(applied.stdout)[1];
    const rb = {
      name: 'rollback patch of line 80',
      args: ['rollback', 'patch', id, '--yes'],
      stdout: /rolled back/,
      apply: (lines) => (lines[79] = '80\n'),
      refusals: [changed(file)],
    };
    const start = BASE.map((l, j) => (j === 79 ? 'P80\n' : l));
    await race(sb, file, start, k % 2 ? [scar(file), rb] : [rb, scar(file)], k);
  }
});

test('patch apply that adds lines above the line a scar names, at once: the scar still lands directly above that line', async () => {
  const sb = sandbox({ files: files('m', 2 * ROUNDS) });
  for (let k = 0; k < 2 * ROUNDS; k++) {
    const file = `m${k}.py`;
    const p = path.join(sb.base, `${file}.add.patch`);
    writeFileSync(p, `--- a/${file}\n+++ b/${file}\n@@ -5,0 +6,3 @@\n+a\n+b\n+c\n`);
    const cmds = [
      ['patch', 'apply', p, '--yes'],
      ['scar', `${file}:10`, '-k', 'free', '-m', 's'],
    ];
    const runs = await Promise.all((k % 2 ? [...cmds].reverse() : cmds).map((a) => sb.kizuAsync(a)));
    const [pr, sr] = k % 2 ? [runs[1], runs[0]] : runs;
    assert.equal(sr.status, 0, `scar, round ${k}: ${sr.stderr}`);
    // The patch wins, or finds the scar written between its check and the lock and refuses.
    if (pr.status !== 0) assert.deepEqual([pr.status, pr.stderr], [1, changed(file)], `patch, round ${k}`);
    const want = [...BASE];
    want.splice(9, 0, SCAR);
    if (pr.status === 0) want.splice(5, 0, 'a\n', 'b\n', 'c\n');
    assert.equal(sb.read(file), want.join(''), `round ${k}`);
  }
});
