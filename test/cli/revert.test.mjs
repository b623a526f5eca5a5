// `git kizu revert` (plain, with a scar, with --queue) and `git kizu revert --restore`
// through the real bin in real temp repos: exact bytes after, modes, exact output, exit
// codes, and the saved copy in refs/kizu/reverts reproducing the pre-revert bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, chmodSync, unlinkSync, existsSync, mkdtempSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { err, expectRun } from '../helpers/expect.mjs';
import { bytes, countedLines, text } from '../helpers/files.mjs';
import { hunksJson, savedLines } from '../helpers/hunks.mjs';
import { trashHead } from '../helpers/refs.mjs';

const lines30 = countedLines(30);
const mode = (sb, rel) => statSync(sb.path(rel)).mode & 0o777;
/** The two lines revert prints about the saved copy of `rel`, as one text. */
const savedText = (sb, rel) => text(savedLines(sb, rel));

/**
 * Runs the printed `git cat-file -p <blob> > <path> && chmod <bits> <path>` line in a shell,
 * aimed at a scratch file, and returns the bytes it writes (the bits are checked against `bits`).
 */
function catFileRoute(sb, stdout, bits = 0o644) {
  const m = /\(or: git cat-file -p ([0-9a-f]+) > (\S+) && chmod ([0-7]+) \2\)/.exec(stdout);
  assert.ok(m, stdout);
  const out = path.join(mkdtempSync(path.join(sb.base, 'cat-')), 'f'); // removed with the sandbox
  const r = sb.run('sh', ['-c', `git cat-file -p ${m[1]} > "$1" && chmod ${m[3]} "$1"`, 'sh', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(statSync(out).mode & 0o7777, bits, 'the printed chmod gives the saved bits');
  return readFileSync(out);
}

/** Runs a successful revert/restore and checks stdout: `first` lines, then the saved-copy lines for `rel`. */
function expectSaved(sb, args, first, rel, { stderr = '', cwd } = {}) {
  const r = sb.kizu(args, cwd ? { cwd } : {});
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: first + savedText(sb, rel), stderr }, `git kizu ${args.join(' ')}`);
  return r;
}

const restoreId = (stdout) => /git kizu revert --restore ([0-9a-f]{12})/.exec(stdout)[1];

test('revert: one hunk of a modified file goes back byte-exactly, the other hunk and the mode stay; the saved copy restores', () => {
  const sb = sandbox({ files: { 'run.sh': text(lines30) } });
  chmodSync(sb.path('run.sh'), 0o755);
  sb.git('commit', '-q', '-am', 'exec');
  const mod = lines30.slice();
  mod[4] = 'L5';
  mod.splice(20, 1, 'L21a', 'L21b');
  sb.write({ 'run.sh': text(mod) });
  const before = bytes(sb, 'run.sh');
  const [h1, h2] = hunksJson(sb);
  assert.deepEqual([h1.range, h2.range], ['run.sh:5', 'run.sh:21-22']);
  const r = expectSaved(sb, ['revert', h2.shortId], `reverted ${h2.shortId}  run.sh:21-22\n`, 'run.sh');
  const want = lines30.slice();
  want[4] = 'L5';
  assert.equal(sb.read('run.sh'), text(want));
  assert.equal(mode(sb, 'run.sh'), 0o755);
  // The other hunk is untouched: same id, same place.
  assert.deepEqual(hunksJson(sb), [h1]);
  // The printed cat-file line reproduces the pre-revert bytes, and so does --restore.
  assert.deepEqual(catFileRoute(sb, r.stdout, 0o755), before);
  const id = restoreId(r.stdout);
  const rr = sb.kizu(['revert', '--restore', id]);
  assert.equal(rr.status, 0, rr.stderr);
  assert.equal(rr.stdout, `restored run.sh from ${id}\n` + savedText(sb, 'run.sh'));
  assert.deepEqual(bytes(sb, 'run.sh'), before);
  assert.equal(mode(sb, 'run.sh'), 0o755);
  expectRun(sb, ['revert', '--restore', id], { status: 0, stdout: 'unchanged: run.sh already holds the saved content\n' });
  // The restore saved what it replaced: restoring that entry undoes the restore.
  expectSaved(sb, ['revert', '--restore', restoreId(rr.stdout)], `restored run.sh from ${restoreId(rr.stdout)}\n`, 'run.sh');
  assert.equal(sb.read('run.sh'), text(want));
  assert.equal(sb.git('log', '--format=%s', 'refs/kizu/reverts'), 'kizu trash: run.sh\nkizu trash: run.sh\nkizu trash: run.sh\n');
});

test('revert by path:line (relative to the current directory), also a pure deletion at the line where it was', () => {
  const sb = sandbox({ files: { 'src/a.txt': text(lines30) } });
  const mod = lines30.filter((l) => l !== 'l10' && l !== 'l11');
  mod[24] = 'X';
  sb.write({ 'src/a.txt': text(mod) });
  const [del, chg] = hunksJson(sb);
  assert.deepEqual([del.range, chg.range], ['src/a.txt:10 (deleted lines)', 'src/a.txt:25']);
  const r = sb.kizu(['revert', 'a.txt:10'], { cwd: sb.path('src') });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0], `reverted ${del.shortId}  src/a.txt:10 (deleted lines)`);
  const want = lines30.slice();
  want[26] = 'X';
  assert.equal(sb.read('src/a.txt'), text(want));
  // A context line of the remaining hunk names it too.
  const r2 = sb.kizu(['revert', 'src/a.txt:25']);
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(r2.stdout.split('\n')[0], `reverted ${chg.shortId}  src/a.txt:27`);
  assert.equal(sb.read('src/a.txt'), text(lines30));
  assert.deepEqual(hunksJson(sb), []);
});

test('revert: an added file is removed, a deleted file comes back with its mode, an untracked file is removed; each restorable', () => {
  const sb = sandbox({ files: { 'tool.sh': '#!/bin/sh\necho hi\n', 'keep.txt': 'k\n' } });
  const first = sb.git('rev-parse', 'HEAD').trim();
  chmodSync(sb.path('tool.sh'), 0o755);
  sb.git('commit', '-q', '-am', 'exec');
  sb.write({ 'added.txt': 'a1\na2\n' });
  sb.git('add', 'added.txt');
  sb.git('commit', '-q', '-m', 'add');
  expectRun(sb, ['baseline', 'set', first], { status: 0, stdout: `baseline set: refs/kizu/baseline ${first}\n` });
  // Against `first`: added.txt is added, tool.sh modified (mode only: a mode hunk, left alone here).
  unlinkSync(sb.path('keep.txt'));
  sb.write({ 'new/u.txt': 'u1\r\nu2' });
  chmodSync(sb.path('new/u.txt'), 0o600);
  const hs = hunksJson(sb);
  assert.deepEqual(
    hs.map((h) => [h.path, h.kind, h.range]),
    [
      ['added.txt', 'added', 'added.txt:1-2'],
      ['keep.txt', 'deleted', 'keep.txt (deleted file)'],
      ['new/u.txt', 'untracked', 'new/u.txt:1-2'],
      ['tool.sh', 'mode', 'tool.sh (mode 100644 → 100755)'],
    ],
  );
  // added
  const ra = expectSaved(sb, ['revert', hs[0].shortId], `reverted ${hs[0].shortId}  added.txt:1-2\n`, 'added.txt', {
    stderr: 'git-kizu: warning: added.txt is still in the index; git rm --cached -- added.txt removes it there\n',
  });
  assert.equal(existsSync(sb.path('added.txt')), false);
  // deleted (baseline mode 100644 here; see the next test for 100755)
  const rd = sb.kizu(['revert', hs[1].shortId]);
  assert.equal(rd.status, 0, rd.stderr);
  const cd = trashHead(sb).slice(0, 12);
  assert.equal(rd.stdout, `reverted ${hs[1].shortId}  keep.txt (deleted file)\nkeep.txt did not exist before the revert; git kizu revert --restore ${cd} removes it again\n`);
  assert.equal(sb.read('keep.txt'), 'k\n');
  assert.equal(mode(sb, 'keep.txt'), 0o644);
  // untracked
  const ru = expectSaved(sb, ['revert', 'new/u.txt:2'], `reverted ${hs[2].shortId}  new/u.txt:1-2\n`, 'new/u.txt');
  assert.equal(existsSync(sb.path('new/u.txt')), false);
  assert.deepEqual(hunksJson(sb), [hs[3]]);
  // Restore each.
  assert.equal(sb.kizu(['revert', '--restore', restoreId(ru.stdout)]).status, 0);
  assert.deepEqual(bytes(sb, 'new/u.txt'), Buffer.from('u1\r\nu2'));
  assert.equal(mode(sb, 'new/u.txt'), 0o600);
  assert.equal(sb.kizu(['revert', '--restore', restoreId(ra.stdout)]).status, 0);
  assert.equal(sb.read('added.txt'), 'a1\na2\n');
  assert.equal(sb.kizu(['revert', '--restore', cd]).status, 0);
  assert.equal(existsSync(sb.path('keep.txt')), false);
  assert.deepEqual(
    hunksJson(sb).map((h) => h.id),
    hs.map((h) => h.id),
  );
});

test('revert: a deleted executable comes back as 0755 with exact bytes; a staged added file is removed from the working tree and the index', () => {
  const sb = sandbox({ files: { 'bin/run': '#!/bin/sh\r\necho "é"\r\n' } });
  chmodSync(sb.path('bin/run'), 0o755);
  sb.git('commit', '-q', '-am', 'exec');
  sb.git('rm', '-q', 'bin/run');
  sb.write({ 'staged.txt': 's\n' });
  sb.git('add', 'staged.txt');
  const [st, del] = [...hunksJson(sb)].sort((a, b) => (a.path < b.path ? 1 : -1));
  assert.equal(del.kind, 'deleted');
  const r = sb.kizu(['revert', del.shortId]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(bytes(sb, 'bin/run'), Buffer.from('#!/bin/sh\r\necho "é"\r\n'));
  assert.equal(mode(sb, 'bin/run'), 0o755);
  assert.equal(st.kind, 'added');
  const r2 = sb.kizu(['revert', st.shortId]);
  assert.equal(r2.status, 0);
  assert.equal(r2.stderr, '');
  assert.equal(r2.stdout.split('\n')[1], 'removed staged.txt from the index: the staged addition is undone');
  assert.equal(existsSync(sb.path('staged.txt')), false);
  assert.equal(sb.git('status', '--porcelain'), '');
});

test('revert: CRLF files, files without a final newline (both directions), non-UTF-8 bytes, binary files: exact bytes', () => {
  const crlf = 'a\r\nb\r\nc\r\n';
  const sb = sandbox({
    files: { 'w.txt': crlf, 'n1.txt': 'a\nb', 'n2.txt': 'a\nb\n', 'l1.txt': Buffer.from('x\n\xff\xfe y\nz\n', 'latin1'), 'img.bin': Buffer.from('P\0Q') },
  });
  sb.write({ 'w.txt': 'a\r\nB\r\nc\r\n', 'n1.txt': 'a\nb\nc\n', 'n2.txt': 'a\nB', 'l1.txt': Buffer.from('x\n\xff\xfd y\nz\n', 'latin1'), 'img.bin': Buffer.from('P\0R\0') });
  const hs = hunksJson(sb);
  assert.deepEqual(
    hs.map((h) => h.range),
    ['img.bin (binary)', 'l1.txt:2', 'n1.txt:2-3', 'n2.txt:2', 'w.txt:2'],
  );
  for (const h of hs) {
    const r = sb.kizu(['revert', h.id]);
    assert.equal(r.status, 0, r.stderr);
  }
  assert.deepEqual(bytes(sb, 'w.txt'), Buffer.from(crlf));
  assert.deepEqual(bytes(sb, 'n1.txt'), Buffer.from('a\nb'));
  assert.deepEqual(bytes(sb, 'n2.txt'), Buffer.from('a\nb\n'));
  assert.deepEqual(bytes(sb, 'l1.txt'), Buffer.from('x\n\xff\xfe y\nz\n', 'latin1'));
  assert.deepEqual(bytes(sb, 'img.bin'), Buffer.from('P\0Q'));
  assert.deepEqual(hunksJson(sb), []);
});

test('revert: refused (exit 1, nothing written) when the file changed after listing; edits elsewhere keep the id valid', () => {
  const sb = sandbox({ files: { 'a.txt': text(lines30) } });
  const mod = lines30.slice();
  mod[14] = 'L15';
  sb.write({ 'a.txt': text(mod) });
  const [h] = hunksJson(sb);
  // Changed inside the hunk (a context line): the id no longer exists.
  const inside = mod.slice();
  inside[13] = 'l14 edited';
  sb.write({ 'a.txt': text(inside) });
  const [now] = hunksJson(sb);
  const before = bytes(sb, 'a.txt');
  expectRun(sb, ['revert', h.shortId], {
    status: 1,
    stderr: err(`no hunk matches "${h.shortId}" (the file may have changed since it was listed)`, `current hunks (git kizu hunks lists them all):\n  ${now.shortId}  a.txt:14-15`),
  });
  assert.deepEqual(bytes(sb, 'a.txt'), before);
  assert.equal(trashHead(sb), '');
  // Changed far above: the id still resolves and the revert applies at the new place.
  sb.write({ 'a.txt': text(['new first', ...mod]) });
  const r = sb.kizu(['revert', h.shortId]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0], `reverted ${h.shortId}  a.txt:16`);
  assert.equal(sb.read('a.txt'), text(['new first', ...lines30]));
});

test('revert: paths with spaces, quotes, tabs and non-ASCII characters', () => {
  const odd = 'dir x/é "q"\tz.txt';
  const sb = sandbox({ files: { [odd]: 'a\nb\n' } });
  sb.write({ [odd]: 'a\nB\n', 'ü n"t.txt': 'new\n' });
  const hs = hunksJson(sb);
  assert.deepEqual(
    hs.map((h) => [h.path, h.kind, h.range]),
    [
      [odd, 'modified', `${odd}:2`],
      ['ü n"t.txt', 'untracked', 'ü n"t.txt:1'],
    ],
  );
  const r = sb.kizu(['revert', `${odd}:2`]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read(odd), 'a\nb\n');
  assert.deepEqual(catFileRoute(sb, r.stdout.replace(/> <path>.*\)/, '> x && chmod 644 x)')), Buffer.from('a\nB\n'));
  // The raw tab never reaches the terminal: the path is named in git's quoted form.
  assert.ok(r.stdout.includes(` > <path> && chmod 644 <path>, <path> being "${realpathSync(sb.dir)}/dir x/\\303\\251 \\"q\\"\\tz.txt")\n`), r.stdout);
  assert.equal(sb.kizu(['revert', '--restore', restoreId(r.stdout)]).status, 0);
  assert.equal(sb.read(odd), 'a\nB\n');
  assert.equal(sb.kizu(['revert', hs[1].shortId]).status, 0);
  assert.equal(existsSync(sb.path('ü n"t.txt')), false);
});

test('revert: unknown, ambiguous and missing hunk specs', () => {
  const sb = sandbox({ files: { 'a.txt': text(lines30) } });
  expectRun(sb, ['revert', 'abcd'], {
    status: 1,
    stderr: err('no hunk matches "abcd": the working tree has no changes against the baseline', 'git kizu hunks lists the changes; git kizu baseline shows what they are compared with'),
  });
  const mod = lines30.slice();
  mod[2] = 'L3';
  mod[24] = 'L25';
  sb.write({ 'a.txt': text(mod) });
  const [h1, h2] = hunksJson(sb);
  const list = `  ${h1.shortId}  a.txt:3\n  ${h2.shortId}  a.txt:25`;
  expectRun(sb, ['revert', 'a.txt'], { status: 1, stderr: err('"a.txt" matches 2 hunks', `name one by a longer id or by path:line:\n${list}`) });
  expectRun(sb, ['revert', 'a.txt:15'], { status: 1, stderr: err('no hunk matches "a.txt:15" (the file may have changed since it was listed)', `current hunks in a.txt (git kizu hunks lists them all):\n${list}`) });
  expectRun(sb, ['revert', 'nope.txt:1'], { status: 1, stderr: err('no hunk matches "nope.txt:1" (the file may have changed since it was listed)', `current hunks (git kizu hunks lists them all):\n${list}`) });
  expectRun(sb, ['revert'], { status: 2, stderr: err('missing <hunk>', 'name a hunk by id or path:line; git kizu hunks lists them') });
  expectRun(sb, ['revert', h1.shortId, '--queue'], { status: 2, stderr: err('--queue needs a reason (-m)', `e.g. git kizu revert ${h1.shortId} -m "<why>" --queue`) });
  expectRun(sb, ['revert', h1.shortId, '-m', ' '], { status: 2, stderr: err('the reason is empty', 'give a reason with -m "<text>"') });
  expectRun(sb, ['revert', '--restore', 'deadbeef'], {
    status: 1,
    stderr: err('no saved revert deadbeef: it may have been dropped by git kizu gc (retention.reverts), or never existed', 'list the saved reverts that are kept, by the ids revert printed, with git kizu revert --list'),
  });
  expectRun(sb, ['revert', '--restore', sb.git('rev-parse', 'HEAD').trim().slice(0, 12)], {
    status: 1,
    stderr: err(`no saved revert ${sb.git('rev-parse', 'HEAD').trim().slice(0, 12)}: it may have been dropped by git kizu gc (retention.reverts), or never existed`, 'list the saved reverts that are kept, by the ids revert printed, with git kizu revert --list'),
  });
  assert.deepEqual(bytes(sb, 'a.txt'), Buffer.from(text(mod)));
});

test('revert -m: the revert and a scar above the reverted spot in one write (kinds, a removed-lines hunk, CRLF)', () => {
  const src = ['function f() {', '  const a = 1;', '  const b = 2;', '  return a + b;', '}', '', 'export { f };'];
  const sb = sandbox({ files: { 'src/f.ts': text(src), 'w.py': 'x = 1\r\ny = 2\r\nz = 3\r\n' } });
  const mod = src.slice();
  mod[2] = '  const b = 20;';
  sb.write({ 'src/f.ts': text(mod), 'w.py': 'x = 1\r\nz = 3\r\n' });
  const [ts, py] = hunksJson(sb);
  assert.deepEqual([ts.path, py.path], ['src/f.ts', 'w.py']);
  const r = sb.kizu(['revert', ts.shortId, '-m', 'keep b at 2']);
  assert.equal(r.status, 0, r.stderr);
  const want = src.slice();
  want.splice(2, 0, '  // @kizu[reject]: reverted: keep b at 2');
  assert.equal(sb.read('src/f.ts'), text(want));
  assert.equal(r.stdout, `reverted ${ts.shortId}  src/f.ts:3\nscarred src/f.ts:3  // @kizu[reject]: reverted: keep b at 2\n` + savedText(sb, 'src/f.ts'));
  // The saved copy is the pre-revert file (no scar, the agent's change).
  assert.deepEqual(catFileRoute(sb, r.stdout), Buffer.from(text(mod)));
  // A removed line restored in a CRLF file, ask kind: the scar takes CRLF.
  const r2 = sb.kizu(['revert', py.shortId, '-m', 'y is needed', '--kind', 'ask']);
  assert.equal(r2.status, 0, r2.stderr);
  assert.deepEqual(bytes(sb, 'w.py'), Buffer.from('x = 1\r\n# @kizu[ask]: reverted: y is needed\r\ny = 2\r\nz = 3\r\n'));
  assert.equal(r2.stdout.split('\n')[1], 'scarred w.py:2  # @kizu[ask]: reverted: y is needed');
  // The scar is recorded like any other: scar --undo removes it.
  expectRun(sb, ['scar', '--undo'], { status: 0, stdout: 'removed scar w.py:2  # @kizu[ask]: reverted: y is needed\n' });
  assert.deepEqual(bytes(sb, 'w.py'), Buffer.from('x = 1\r\ny = 2\r\nz = 3\r\n'));
});

test('revert -m is atomic: when the scar cannot be written nothing changes (exit 2, hint --queue); --queue reverts and files the reason', () => {
  const sb = sandbox({ files: { 'data.json': '{\n  "a": 1,\n  "b": 2\n}\n' } });
  sb.write({ 'data.json': '{\n  "a": 1,\n  "b": 3\n}\n', 'notes.txt': 'n\n' });
  const [h, u] = hunksJson(sb);
  const before = bytes(sb, 'data.json');
  expectRun(sb, ['revert', h.shortId, '-m', 'b stays 2'], {
    status: 2,
    stderr: err(
      'cannot write the scar, so nothing was reverted: data.json: this file type has no comment syntax, so a scar cannot be written into it',
      `revert and file the reason in the review queue instead: git kizu revert ${h.shortId} -m 'b stays 2' --queue`,
    ),
  });
  assert.deepEqual(bytes(sb, 'data.json'), before);
  assert.equal(trashHead(sb), '', 'nothing saved either');
  // A whole-file revert (untracked) cannot hold a scar.
  expectRun(sb, ['revert', u.shortId, '-m', 'no notes'], {
    status: 2,
    stderr: err(`reverting notes.txt:1 removes notes.txt, so there is no file left to hold a scar; nothing was reverted`, `revert and file the reason in the review queue instead: git kizu revert ${u.shortId} -m 'no notes' --queue`),
  });
  assert.equal(sb.read('notes.txt'), 'n\n');
  // --queue: reverted, and the reason filed as a queue item anchored at the spot.
  const r = sb.kizu(['revert', h.shortId, '-m', 'b stays 2', '--queue']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('data.json'), '{\n  "a": 1,\n  "b": 2\n}\n');
  const q = JSON.parse(sb.kizu(['queue', 'list', '--json']).stdout);
  assert.equal(q.length, 1);
  assert.deepEqual({ ...q[0], id: 'ID', queueLine: 0 }, { id: 'ID', checked: false, kind: 'reject', path: 'data.json', line: 3, text: 'reverted: b stays 2', queueLine: 0 });
  assert.equal(r.stdout, `reverted ${h.shortId}  data.json:3\nqueued ${q[0].id}  data.json:3  (reject) reverted: b stays 2\n` + savedText(sb, 'data.json'));
  // --queue for a removed file: no anchor, the path goes into the text.
  const r2 = sb.kizu(['revert', u.shortId, '-m', 'no notes', '--queue', '--kind', 'free']);
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(existsSync(sb.path('notes.txt')), false);
  const q2 = JSON.parse(sb.kizu(['queue', 'list', '--json']).stdout);
  assert.deepEqual([q2[1].kind, q2[1].path, q2[1].text], ['free', null, 'reverted: no notes (notes.txt removed)']);
});

test('revert: refuses (exit 2, nothing written) a file git converts on read (core.autocrlf)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\nb\nc\n' } });
  sb.git('config', 'core.autocrlf', 'true');
  sb.write({ 'a.txt': 'a\r\nB\r\nc\r\n' });
  const [h] = hunksJson(sb);
  const base = sb.git('rev-parse', 'HEAD').trim();
  expectRun(sb, ['revert', h.shortId], {
    status: 2,
    stderr: err(
      'a.txt: git converts this file when reading it (core.autocrlf, .gitattributes text/eol or a clean filter), so its hunks cannot be reverted byte-exactly',
      `restore the whole file with git restore --source=${base} -- a.txt, or edit it by hand`,
    ),
  });
  assert.deepEqual(bytes(sb, 'a.txt'), Buffer.from('a\r\nB\r\nc\r\n'));
});

test('from a subdirectory: a path:line copied from `hunks` (root-relative) works as well as one relative to the directory; the printed cat-file line restores the right file', () => {
  const sb = sandbox({ files: { 'src/a.txt': text(lines30), 'src/b.txt': text(lines30) } });
  sb.write({ 'src/a.txt': text(lines30.map((l) => (l === 'l5' ? 'FIVE' : l))), 'src/b.txt': text(lines30.map((l) => (l === 'l20' ? 'TWENTY' : l))) });
  const sub = sb.path('src');
  const [ha, hb] = hunksJson(sb);
  expectRun(sb, ['tap', 'src/a.txt:5'], { status: 0, stdout: `tapped ${ha.shortId} ${ha.range}\n`, cwd: sub });
  expectRun(sb, ['tap', 'b.txt:20'], { status: 0, stdout: `tapped ${hb.shortId} ${hb.range}\n`, cwd: sub });
  const r = sb.kizu(['revert', 'src/a.txt:5'], { cwd: sub });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(sb.read('src/a.txt'), text(lines30));
  const m = /\(or: (git cat-file -p [0-9a-f]+ > \S+ && chmod [0-7]+ \S+)\)/.exec(r.stdout);
  assert.ok(m, r.stdout);
  const run = sb.run('sh', ['-c', m[1]], { cwd: sub });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(sb.read('src/a.txt'), text(lines30.map((l) => (l === 'l5' ? 'FIVE' : l))));
});

test('revert --list: the saved reverts kept, newest first, by the ids revert printed (a deleted file reverted: no file)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
  expectRun(sb, ['revert', '--list'], { status: 0, stdout: 'no saved reverts\n' });
  sb.write({ 'a.txt': 'A\n' });
  unlinkSync(sb.path('b.txt'));
  const [ha, hb] = hunksJson(sb);
  const run = (args) => {
    const r = sb.kizu(args);
    assert.equal(r.status, 0, r.stderr);
    return restoreId(r.stdout);
  };
  const id1 = run(['revert', ha.shortId]);
  const id2 = run(['revert', hb.shortId]);
  const reason = (id) => /^kizu-reason: (.*)$/m.exec(sb.git('log', '-1', '--format=%B', id))[1];
  assert.match(reason(id1), /^revert [0-9a-f]{40}$/);
  expectRun(sb, ['revert', '--list'], { status: 0, stdout: `${id2}  b.txt (no file)  ${reason(id2)}\n${id1}  a.txt  ${reason(id1)}\n` });
  const id3 = run(['revert', '--restore', id1]);
  expectRun(sb, ['revert', '--list'], {
    status: 0,
    stdout: `${id3}  a.txt  restore ${sb.git('rev-parse', id1).trim()}\n${id2}  b.txt (no file)  ${reason(id2)}\n${id1}  a.txt  ${reason(id1)}\n`,
  });
  expectRun(sb, ['revert', '--list', '--restore', id1], { status: 2, stderr: err('--list takes no other argument', 'run git kizu revert --list alone') });
});

test('revert --help shows --queue and --kind going with -m (--queue without -m is refused)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  expectRun(sb, ['revert', '-h'], {
    status: 0,
    stdout:
      'Usage: git kizu revert <hunk> [-m <reason> [--kind <kind>] [--queue]] | --restore <trash-id> | --list\n' +
      '\n' +
      'put one hunk back to the baseline (what it discards is saved in\n' +
      'refs/kizu/reverts)\n' +
      '\n' +
      'Arguments:\n' +
      '  hunk                    hunk id prefix or <path>:<line> (see git kizu hunks)\n' +
      '\n' +
      'Options:\n' +
      '  -m, --message <reason>  also write a scar "reverted: <reason>" above the\n' +
      '                          reverted spot, in the same write\n' +
      '  -k, --kind <kind>       with -m: kind of that scar or queue item (default\n' +
      '                          reject) (choices: "ask", "reject", "free")\n' +
      '  --queue                 with -m: file the reason in the review queue instead\n' +
      '                          of a scar\n' +
      '  --restore <trash-id>    put back what a revert saved (the id it printed)\n' +
      '  --list                  list the saved reverts that are kept, newest first, by\n' +
      '                          the ids revert printed\n' +
      '  -h, --help              display help for command\n',
  });
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes('| `git kizu revert <hunk> [-m <reason> [--kind ...] [--queue]]` |'));
  sb.write({ 'a.txt': 'changed\n' });
  expectRun(sb, ['revert', 'a.txt:1', '--queue'], { status: 2, stderr: err('--queue needs a reason (-m)', 'e.g. git kizu revert a.txt:1 -m "<why>" --queue') });
  assert.equal(sb.read('a.txt'), 'changed\n');
});
