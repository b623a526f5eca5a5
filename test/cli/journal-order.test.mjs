// The journal hook runs asynchronously (Claude Code registers it with "async": true), so two
// quick edits of a file can be recorded in either order, at the same time, or both after the
// second edit: the real hook bin fed the payloads in every order (one after the other, and
// two hook processes at once), then `git kizu journal`, `rollback patch a b` and
// `rollback patch --cascade a`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox, spawnAsync } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { TEN, blob, common, entries, noMs, quiet, overlapRefusal } from '../helpers/journal.mjs';

/**
 * Does what Claude Code's Edit does to `rel` (the file is written now) and returns the
 * PostToolUse payload it would send, without running the hook.
 */
function edit(sb, rel, oldS, newS, id) {
  const abs = sb.path(rel);
  const original = readFileSync(abs, 'utf8');
  writeFileSync(abs, original.replace(oldS, () => newS));
  return {
    ...common(sb, 'sess-1'),
    tool_name: 'Edit',
    tool_input: { file_path: abs, old_string: oldS, new_string: newS, replace_all: false },
    tool_response: { filePath: abs, oldString: oldS, newString: newS, originalFile: original, structuredPatch: [], userModified: false, replaceAll: false },
    tool_use_id: id,
  };
}

/** Claude Code's Write of `content` to `rel` (created when absent), as {@link edit}. */
function write(sb, rel, content, id) {
  const abs = sb.path(rel);
  const original = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  writeFileSync(abs, content);
  return {
    ...common(sb, 'sess-1'),
    tool_name: 'Write',
    tool_input: { file_path: abs, content },
    tool_response: { type: original === null ? 'create' : 'update', filePath: abs, content, structuredPatch: [], originalFile: original },
    tool_use_id: id,
  };
}

/** Runs the journal hook on each payload at the same time (separate processes). */
async function together(sb, payloads) {
  const runs = payloads.map((p, k) => {
    const file = path.join(sb.base, `payload-${p.tool_use_id}-${k}.json`);
    writeFileSync(file, JSON.stringify(p));
    return spawnAsync('sh', ['-c', 'exec "$0" "$1" hook journal < "$2"', process.execPath, BIN, file], { cwd: sb.dir, env: sb.env });
  });
  for (const r of await Promise.all(runs)) assert.deepEqual(r, { status: 0, stdout: '', stderr: '' });
}

/**
 * Two hook processes at once, the first one's payload held back (its stdin left open) until
 * the second one has recorded its edit: the second edit is recorded first for certain.
 */
async function heldBack(sb, first, second) {
  const slow = spawn(process.execPath, [BIN, 'hook', 'journal'], { cwd: sb.dir, env: sb.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  slow.stdout.on('data', (b) => (out += b));
  slow.stderr.on('data', (b) => (out += b));
  const done = new Promise((resolve) => slow.on('close', resolve));
  await together(sb, [second]);
  assert.match(sb.git('log', '-1', '--format=%B', 'refs/kizu/journal'), new RegExp(`"toolUseId":"${second.tool_use_id}"`));
  slow.stdin.end(JSON.stringify(first));
  assert.deepEqual({ status: await done, out }, { status: 0, out: '' });
}

/** The journal's entries by tool call id. */
function byUse(sb) {
  return Object.fromEntries(entries(sb).map((e) => [e.toolUseId, e]));
}

const SNAP = /^safety snapshot (\S+) was taken first; git kizu undo reverses this rollback$/;

/** `rollback patch --yes <args>` succeeds with `lines`, then the journal and snapshot lines. */
function rollbackOk(sb, args, lines) {
  const r = sb.kizu(['rollback', 'patch', '--yes', ...args]);
  assert.deepEqual({ status: r.status, stderr: r.stderr }, { status: 0, stderr: '' }, r.stderr);
  const out = r.stdout.split('\n');
  assert.equal(out.pop(), '');
  assert.deepEqual(out.slice(0, -2), lines);
  const rb = entries(sb).at(-1);
  assert.equal(out.at(-2), `journal entry ${rb.shortId} records this rollback; git kizu rollback patch ${rb.shortId} re-applies it`);
  assert.match(out.at(-1), SNAP);
}

/**
 * Two overlapping Edits of f.txt (l5 → L5, then L5 → LL5), each recorded by `record(sb, a, b)`
 * in some order: the journal lists them as edited and rolling them back works, both named
 * (`rollback patch a b`, either way round) and by `--cascade a`.
 */
async function checkTwoEdits(record) {
  const now = TEN.replace('l5\n', 'LL5\n');
  const setup = async () => {
    const sb = sandbox({ files: { 'f.txt': TEN } });
    const pa = edit(sb, 'f.txt', 'l5\n', 'L5\n', 'a');
    const pb = edit(sb, 'f.txt', 'L5\n', 'LL5\n', 'b');
    await record(sb, pa, pb);
    return { sb, ...byUse(sb) };
  };
  const { sb, a, b } = await setup();
  assert.equal(sb.read('f.txt'), now);
  // Each entry is its own edit, not what the file held when its hook ran.
  assert.deepEqual(
    [a.files, b.files],
    [
      [{ path: 'f.txt', before: blob(sb, TEN), after: blob(sb, TEN.replace('l5\n', 'L5\n')), added: 1, removed: 1, mode: 0o644 }],
      [{ path: 'f.txt', before: blob(sb, TEN.replace('l5\n', 'L5\n')), after: blob(sb, now), added: 1, removed: 1, mode: 0o644 }],
    ],
  );
  expectRun(sb, ['journal'], {
    status: 0,
    stdout: `${a.shortId}  ${noMs(a.time)}  Edit f.txt  +1 -1  session sess-1\n${b.shortId}  ${noMs(b.time)}  Edit f.txt  +1 -1  session sess-1\n`,
  });
  assert.deepEqual(
    entries(sb).map((e) => e.toolUseId),
    ['a', 'b'],
  );
  const both = (a, b) => [`rolled back ${b.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`, `rolled back ${a.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`];
  for (const ids of [[a.shortId, b.shortId], [b.shortId, a.shortId]]) {
    expectRun(sb, ['rollback', 'patch', '--dry-run', ...ids], {
      status: 0,
      stdout: both(a, b).map((l) => l.replace('rolled back', 'would roll back')).join('\n') + '\ndry run: 1 file would change; nothing written\n',
    });
  }
  // The first alone: the second is named as the overlapping later entry (it is in the journal).
  expectRun(sb, ['rollback', 'patch', '--yes', a.shortId], {
    status: 1,
    stderr: overlapRefusal(a, b),
  });
  rollbackOk(sb, [a.shortId, b.shortId], both(a, b));
  assert.equal(sb.read('f.txt'), TEN);
  const again = await setup();
  rollbackOk(again.sb, ['--cascade', again.a.shortId], both(again.a, again.b));
  assert.equal(again.sb.read('f.txt'), TEN);
}

test('journal order: two quick edits whose hooks ran in the opposite order are listed and rolled back as edited (rollback patch a b, --cascade a)', async () => {
  // Both hooks run after the second edit, the second one first.
  await checkTwoEdits((sb, a, b) => {
    quiet(hook(sb, 'journal', b));
    quiet(hook(sb, 'journal', a));
    // The chain holds them in recording order: the first edit's entry is the tip.
    assert.match(sb.git('log', '-1', '--format=%B', 'refs/kizu/journal'), /"toolUseId":"a"/);
  });
});

test('journal order: the same two edits recorded in edit order, and by two hook processes at once (the first one held back, or both free)', async () => {
  await checkTwoEdits((sb, a, b) => {
    quiet(hook(sb, 'journal', a));
    quiet(hook(sb, 'journal', b));
  });
  // The first edit's hook still running when the second one's has recorded.
  await checkTwoEdits((sb, a, b) => heldBack(sb, a, b));
  // Both at once, started in either order: whichever records first, the result is the same.
  for (let round = 0; round < 2; round++) await checkTwoEdits((sb, a, b) => together(sb, round ? [b, a] : [a, b]));
});

test('journal order: a created file edited twice, recorded in each of the six orders, is listed as edited and rolled back to absent', () => {
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const setup = (order) => {
    const sb = sandbox({ files: { 'keep.txt': 'k\n' } });
    const ps = [write(sb, 'g.txt', 'one\ntwo\nthree\n', 'w'), edit(sb, 'g.txt', 'two', 'TWO', 'e1'), edit(sb, 'g.txt', 'TWO', '2', 'e2')];
    for (const k of order) quiet(hook(sb, 'journal', ps[k]));
    return sb;
  };
  const lines = ([w, e1, e2]) => [
    `rolled back ${e2.shortId} (Edit): restored g.txt (unchanged since, put back exactly)`,
    `rolled back ${e1.shortId} (Edit): restored g.txt (unchanged since, put back exactly)`,
    `rolled back ${w.shortId} (Write): deleted g.txt (it created the file, unchanged since)`,
  ];
  for (const order of orders) {
    const sb = setup(order);
    const all = entries(sb);
    assert.deepEqual(
      all.map((e) => e.toolUseId),
      ['w', 'e1', 'e2'],
      `recorded in order ${order}`,
    );
    const [w, e1, e2] = all;
    rollbackOk(sb, [e1.shortId, w.shortId, e2.shortId], lines(all));
    assert.equal(existsSync(sb.path('g.txt')), false, `recorded in order ${order}`);
    const again = setup(order);
    rollbackOk(again, ['--cascade', entries(again)[0].shortId], lines(entries(again)));
    assert.equal(existsSync(again.path('g.txt')), false, `recorded in order ${order}`);
  }
});

test('journal order: a CRLF file edited again before the first hook ran keeps CRLF in both entries; rollback patch a b restores it', () => {
  const sb = sandbox({ files: { 'w.txt': 'x\r\ny\r\nz\r\n' } });
  const abs = sb.path('w.txt');
  // Claude Code hands the hook LF text for a CRLF file and writes CRLF back.
  const payload = (id, orig, oldS, newS) => ({
    ...common(sb, 'sess-1'),
    tool_name: 'Edit',
    tool_input: { file_path: abs, old_string: oldS, new_string: newS, replace_all: false },
    tool_response: { filePath: abs, oldString: oldS, newString: newS, originalFile: orig, structuredPatch: [], userModified: false, replaceAll: false },
    tool_use_id: id,
  });
  writeFileSync(abs, 'x\r\nY\r\nz\r\n');
  writeFileSync(abs, 'x\r\nYY\r\nz\r\n');
  quiet(hook(sb, 'journal', payload('a', 'x\ny\nz\n', 'y', 'Y')));
  quiet(hook(sb, 'journal', payload('b', 'x\nY\nz\n', 'Y', 'YY')));
  const { a, b } = byUse(sb);
  assert.deepEqual(
    [a.files[0].before, a.files[0].after, b.files[0].before, b.files[0].after],
    [blob(sb, 'x\r\ny\r\nz\r\n'), blob(sb, 'x\r\nY\r\nz\r\n'), blob(sb, 'x\r\nY\r\nz\r\n'), blob(sb, 'x\r\nYY\r\nz\r\n')],
  );
  rollbackOk(sb, [a.shortId, b.shortId], [
    `rolled back ${b.shortId} (Edit): restored w.txt (unchanged since, put back exactly)`,
    `rolled back ${a.shortId} (Edit): restored w.txt (unchanged since, put back exactly)`,
  ]);
  assert.equal(sb.read('w.txt'), 'x\r\ny\r\nz\r\n');
});

test('rollback patch: a later entry rolled back and then re-applied (rollback of the rollback) is named as overlapping, not "not in the journal"; --cascade undoes it', () => {
  const setup = () => {
    const sb = sandbox({ files: { 'f.txt': TEN } });
    const a = edit(sb, 'f.txt', 'l5\n', 'L5\n', 'a');
    quiet(hook(sb, 'journal', a));
    const b = edit(sb, 'f.txt', 'L5\n', 'LL5\n', 'b');
    quiet(hook(sb, 'journal', b));
    const eb = byUse(sb).b;
    assert.equal(sb.kizu(['rollback', 'patch', '--yes', eb.shortId]).status, 0);
    assert.equal(sb.kizu(['rollback', 'patch', '--yes', entries(sb).at(-1).shortId]).status, 0);
    assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'LL5\n'));
    return sb;
  };
  const sb = setup();
  const [a, b, r1, r2] = entries(sb);
  expectRun(sb, ['journal'], {
    status: 0,
    stdout:
      `${a.shortId}  ${noMs(a.time)}  Edit f.txt  +1 -1  session sess-1\n` +
      `${b.shortId}  ${noMs(b.time)}  Edit f.txt  +1 -1  rolled back by ${r1.shortId}  session sess-1\n` +
      `${r1.shortId}  ${noMs(r1.time)}  rollback f.txt  +1 -1  rolled back by ${r2.shortId}  undoes ${b.shortId}\n` +
      `${r2.shortId}  ${noMs(r2.time)}  rollback f.txt  +1 -1  undoes ${r1.shortId}\n`,
  });
  expectRun(sb, ['rollback', 'patch', '--yes', a.shortId], {
    status: 1,
    stderr: overlapRefusal(a, b),
  });
  const both = [`rolled back ${b.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`, `rolled back ${a.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`];
  rollbackOk(sb, ['--cascade', a.shortId], both);
  assert.equal(sb.read('f.txt'), TEN);
  const again = setup();
  const [a2, b2] = entries(again);
  rollbackOk(again, [b2.shortId, a2.shortId], [
    `rolled back ${b2.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`,
    `rolled back ${a2.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`,
  ]);
  assert.equal(again.read('f.txt'), TEN);
});

test('hook journal: an Edit whose old_string is not in originalFile as sent (Claude Code matched curly quotes) records what structuredPatch says it wrote, not the file as a later edit left it', () => {
  const orig = TEN.replace('l2', 'say “hi”');
  const first = TEN.replace('l2', 'say “bye”');
  const sb = sandbox({ files: { 'q.txt': orig } });
  const abs = sb.path('q.txt');
  writeFileSync(abs, first);
  const a = {
    ...common(sb, 'sess-1'),
    tool_name: 'Edit',
    tool_input: { file_path: abs, old_string: 'say "hi"', new_string: 'say "bye"', replace_all: false },
    tool_response: {
      filePath: abs,
      oldString: 'say "hi"',
      newString: 'say "bye"',
      originalFile: orig,
      structuredPatch: [{ oldStart: 1, oldLines: 5, newStart: 1, newLines: 5, lines: [' l1', '-say “hi”', '+say “bye”', ' l3', ' l4', ' l5'] }],
      userModified: false,
      replaceAll: false,
    },
    tool_use_id: 'a',
  };
  // The next edit lands before the first one's hook runs; then both hooks run, the second first.
  const b = edit(sb, 'q.txt', 'l9', 'L9', 'b');
  quiet(hook(sb, 'journal', b));
  quiet(hook(sb, 'journal', a));
  const { a: ea, b: eb } = byUse(sb);
  assert.deepEqual(
    [ea.files[0].before, ea.files[0].after, eb.files[0].before, eb.files[0].after],
    [blob(sb, orig), blob(sb, first), blob(sb, first), blob(sb, first.replace('l9', 'L9'))],
  );
  assert.deepEqual(
    entries(sb).map((e) => e.toolUseId),
    ['a', 'b'],
  );
  // The first alone: the second edit (another line) is kept.
  rollbackOk(sb, [ea.shortId], [`rolled back ${ea.shortId} (Edit): reversed 1 hunk in q.txt (later edits kept)`]);
  assert.equal(sb.read('q.txt'), orig.replace('l9', 'L9'));
});
