// The review queue (.claude/review-queue.md) through the real bin in real temp git repos:
// `git kizu queue add|list|done|reopen|rm|clear` on a file the tool made, from a
// subdirectory, with odd text, concurrently, with locks, and refusing bad input. Expected
// file bytes are built from the previous bytes with exactly one splice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { err } from '../helpers/expect.mjs';
import { PROTOCOL } from '../helpers/hooks.mjs';
import { FIRST, J, Q, TEMPLATE, add, queueJson, queueOk, refused, replaceOnce, repo, stop } from '../helpers/queue.mjs';

test('tool-made file: add/list/done/reopen/rm/clear, exact bytes after each step', () => {
  const sb = repo();
  queueOk(sb, ['list'], `no review queue yet (${Q}); add one with git kizu queue add "<text>"\n`);
  queueOk(sb, ['list', '--json'], '[]\n');
  const a = add(sb, 'first', 'thing');
  const la = `- [ ] first thing <!-- kizu:${a} -->\n`;
  let want = TEMPLATE + la;
  assert.equal(sb.read(Q), want);
  const b = add(sb, '--kind', 'ask', '--at', 'src/app.ts:2', 'why this?');
  const lb = `- [ ] (ask) \`src/app.ts:2\` why this? <!-- kizu:${b} -->\n`;
  want += lb;
  assert.equal(sb.read(Q), want);
  const c = add(sb, 'undo the rename', '-k', 'reject');
  const lc = `- [ ] (reject) undo the rename <!-- kizu:${c} -->\n`;
  want += lc;
  assert.equal(sb.read(Q), want);
  assert.equal(new Set([a, b, c]).size, 3);

  queueOk(sb, ['list'], `[ ] ${a}  first thing\n[ ] ${b}  src/app.ts:2  (ask)  why this?\n[ ] ${c}  (reject)  undo the rename\n`);
  queueOk(sb, ['done', a], `done: [${a}] first thing\n`);
  want = replaceOnce(want, `- [ ] first thing`, `- [x] first thing`);
  assert.equal(sb.read(Q), want);
  queueOk(sb, ['done', a], `done: [${a}] first thing\n`); // already done: no change
  assert.equal(sb.read(Q), want);
  queueOk(sb, ['list'], `[ ] ${b}  src/app.ts:2  (ask)  why this?\n[ ] ${c}  (reject)  undo the rename\n`);
  queueOk(sb, ['list', '--all'], `[x] ${a}  first thing\n[ ] ${b}  src/app.ts:2  (ask)  why this?\n[ ] ${c}  (reject)  undo the rename\n`);
  queueOk(
    sb,
    ['list', '--json'],
    JSON.stringify([J(b, false, 'ask', 'src/app.ts', 2, 'why this?', FIRST + 1), J(c, false, 'reject', null, null, 'undo the rename', FIRST + 2)]) + '\n',
  );
  queueOk(
    sb,
    ['list', '--all', '--json'],
    JSON.stringify([
      J(a, true, null, null, null, 'first thing', FIRST),
      J(b, false, 'ask', 'src/app.ts', 2, 'why this?', FIRST + 1),
      J(c, false, 'reject', null, null, 'undo the rename', FIRST + 2),
    ]) + '\n',
  );
  queueOk(sb, ['reopen', a], `reopened: [${a}] first thing\n`);
  want = replaceOnce(want, `- [x] first thing`, `- [ ] first thing`);
  assert.equal(sb.read(Q), want);
  queueOk(sb, ['done', c, a, c], `done: [${c}] (reject) undo the rename\ndone: [${a}] first thing\n`);
  want = replaceOnce(replaceOnce(want, `- [ ] first thing`, `- [x] first thing`), `- [ ] (reject)`, `- [x] (reject)`);
  assert.equal(sb.read(Q), want);
  queueOk(sb, ['clear', '--done'], 'removed 2 done items\n');
  assert.equal(sb.read(Q), TEMPLATE + lb);
  queueOk(sb, ['clear', '--done'], 'no done items to remove\n');
  queueOk(sb, ['rm', b], `removed: [${b}] src/app.ts:2 (ask) why this?\n`);
  assert.equal(sb.read(Q), TEMPLATE);
  queueOk(sb, ['list'], `no open items in ${Q}\n`);
  queueOk(sb, ['list', '--all'], `no items in ${Q}\n`);
  queueOk(sb, ['list', '--json'], '[]\n');
  // The file is not a scar source and not left locked.
  assert.equal(existsSync(sb.path('.git/kizu/queue.lock')), false);
});

test('commands work from a subdirectory: --at is relative to the cwd, the queue is at the repository root', () => {
  const sb = repo();
  const r = sb.kizu(['queue', 'add', '--at', 'app.ts:2', 'from below'], { cwd: sb.path('src') });
  assert.equal(r.status, 0, r.stderr);
  const id = r.stdout.trim();
  assert.equal(sb.read(Q), TEMPLATE + `- [ ] \`src/app.ts:2\` from below <!-- kizu:${id} -->\n`);
  assert.equal(existsSync(sb.path('src/.claude')), false);
  const l = sb.kizu(['queue', 'list'], { cwd: sb.path('src') });
  assert.deepEqual([l.status, l.stdout, l.stderr], [0, `[ ] ${id}  src/app.ts:2  from below\n`, '']);
});

test('queue add: weird text is stored on one line and reads back exactly', () => {
  const sb = repo();
  const long = 'x'.repeat(5000);
  const cases = [
    [['--', '-starts with a dash', '--and', 'more'], '-starts with a dash --and more', '-starts with a dash --and more'],
    [['pipes | and `code` and emoji 😀 and \\ slash'], 'pipes | and `code` and emoji 😀 and \\ slash', 'pipes | and `code` and emoji 😀 and \\ slash'],
    [['html <!-- kizu:zzzz --> and <!--open and close--> and --!> end'], 'html < !-- kizu:zzzz -- > and < !--open and close-- > and --! > end', null],
    [['multi\nline\r\ntext\twith\u00a0\u00a0odd   spaces'], 'multi line text with odd spaces', null],
    [['(free) lunch is over'], '\\(free) lunch is over', '(free) lunch is over'],
    [['`src/app.ts:99`'], '\\`src/app.ts:99`', '`src/app.ts:99`'],
    [['-k', 'ask', '`src/app.ts:1` is it?'], '(ask) \\`src/app.ts:1` is it?', '`src/app.ts:1` is it?'],
    [['--at', 'src/app.ts:1', '(ask) not a kind here'], '`src/app.ts:1` (ask) not a kind here', '(ask) not a kind here'],
    [[long], long, long],
  ];
  let want = TEMPLATE;
  const listed = [];
  for (const [args, written, shown] of cases) {
    const id = add(sb, ...args);
    want += `- [ ] ${written} <!-- kizu:${id} -->\n`;
    assert.equal(sb.read(Q), want, args.join(' '));
    listed.push([id, shown ?? written]);
  }
  assert.deepEqual(
    queueJson(sb).map((i) => [i.id, i.text]),
    listed,
  );
  const items = queueJson(sb);
  assert.deepEqual(
    items.map((i) => [i.kind, i.path, i.line]),
    [[null, null, null], [null, null, null], [null, null, null], [null, null, null], [null, null, null], [null, null, null], ['ask', null, null], [null, 'src/app.ts', 1], [null, null, null]],
  );
});

test('queue add: an --at path that cannot be an anchor is refused', () => {
  const sb = repo({ 'a`b.ts': 'x\n', 'sp  ace.ts': 'x\n' });
  refused(sb, ['add', '--at', 'a`b.ts:1', 'hi'], 2, err('--at a`b.ts: this path cannot be written as an item anchor (`path:line`)', 'name the place in the item text instead'));
  refused(sb, ['add', '--at', 'sp  ace.ts:1', 'hi'], 2, err('--at sp  ace.ts: this path cannot be written as an item anchor (`path:line`)', 'name the place in the item text instead'));
});

test('queue add: a file whose end would swallow the new line (unclosed fence, HTML comment) is refused', () => {
  const sb = repo();
  const fence = '# Notes\n\n- [ ] a\n\n```\n- [ ] b\n';
  sb.write({ [Q]: fence });
  refused(
    sb,
    ['add', 'c'],
    2,
    err('refusing to add the item: line 5 opens a fenced code block that is never closed, so the new line 7 would be part of it', `nothing was written; fix ${Q} by hand around that line, then retry`),
  );
  sb.write({ [Q]: '- [ ] a\n<!-- a comment\n' });
  refused(
    sb,
    ['add', 'c'],
    2,
    err('refusing to add the item: line 2 opens an HTML block or comment that is never closed, so the new line 4 would be part of it', `nothing was written; fix ${Q} by hand around that line, then retry`),
  );
});

test('8 concurrent queue add processes all land, each once, in a file that parses', async () => {
  const sb = repo();
  const runs = Array.from({ length: 8 }, (_, i) => sb.kizuAsync(['queue', 'add', `item ${i}`]).then((r) => ({ code: r.status, out: r.stdout, errs: r.stderr, i })));
  const results = await Promise.all(runs);
  for (const r of results) {
    assert.equal(r.code, 0, r.errs);
    assert.equal(r.errs, '');
    assert.match(r.out, /^[0-9a-z]{4}\n$/);
  }
  const items = queueJson(sb);
  assert.equal(items.length, 8);
  assert.deepEqual(
    items.map((x) => x.id).sort(),
    results.map((r) => r.out.trim()).sort(),
  );
  for (const r of results) assert.equal(items.find((x) => x.id === r.out.trim()).text, `item ${r.i}`);
  const body = sb.read(Q);
  assert.ok(body.startsWith(TEMPLATE));
  assert.deepEqual(
    body.slice(TEMPLATE.length).split('\n').sort(),
    ['', ...results.map((r) => `- [ ] item ${r.i} <!-- kizu:${r.out.trim()} -->`).sort()],
  );
  assert.equal(existsSync(sb.path('.git/kizu/queue.lock')), false);
});

test('a lock left by a process that is gone (Ctrl-C) is taken over at once', () => {
  const sb = repo();
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  mkdirSync(sb.path('.git/kizu'), { recursive: true });
  writeFileSync(sb.path('.git/kizu/queue.lock'), `${dead} ${hostname()}\n`);
  const t0 = Date.now();
  add(sb, 'after a crash');
  assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
  assert.equal(existsSync(sb.path('.git/kizu/queue.lock')), false);
});

test('a lock held by a live process is respected: exit 2 after the wait, nothing written', () => {
  const sb = repo();
  mkdirSync(sb.path('.git/kizu'), { recursive: true });
  const lock = sb.path('.git/kizu/queue.lock');
  writeFileSync(lock, `${process.pid} ${hostname()}\n`);
  refused(sb, ['add', 'blocked'], 2, err(`the review queue is locked by another git kizu process (${lock})`, `wait and retry; if no git kizu is running, delete ${lock}`));
  assert.equal(readFileSync(lock, 'utf8'), `${process.pid} ${hostname()}\n`);
});

test('unknown ids → exit 1 listing the ids; nothing written', () => {
  const sb = repo();
  const a = add(sb, 'first');
  const b = add(sb, 'second');
  queueOk(sb, ['done', b], `done: [${b}] second\n`);
  const hint = `the ids in ${Q} are:\n  ${a} [ ] first\n  ${b} [x] second`;
  for (const cmd of ['done', 'reopen', 'rm']) {
    refused(sb, [cmd, 'nope'], 1, err('no queue item with id nope', hint));
    refused(sb, [cmd, a, 'nope', 'zz'], 1, err('no queue item with id nope, zz', hint));
  }
  const fresh = repo();
  refused(fresh, ['done', 'x'], 1, err(`no review queue yet (${Q})`, 'add items with git kizu queue add'));
  refused(fresh, ['rm', 'x'], 1, err(`no review queue yet (${Q})`, 'add items with git kizu queue add'));
});

test('usage errors → exit 2, no queue file created', () => {
  const sb = repo();
  sb.write({ [path.join('..', 'outside.txt')]: 'x\n' });
  refused(sb, ['add', '--kind', 'bogus', 'x'], 2, "git-kizu: error: option '-k, --kind <kind>' argument 'bogus' is invalid. Allowed choices are ask, reject, free.\n(run with --help for usage)\n");
  refused(sb, ['add', ''], 2, err('the item text is empty', 'e.g. git kizu queue add "also add a test for the empty case"'));
  refused(sb, ['add', ' \n\t '], 2, err('the item text is empty', 'e.g. git kizu queue add "also add a test for the empty case"'));
  refused(sb, ['add', '--at', 'src/app.ts:4', 'x'], 2, err('src/app.ts:4: line is beyond the end of the file (it has 3 lines)', 'use a line from 1 to 3'));
  refused(sb, ['add', '--at', 'src/app.ts:0', 'x'], 2, /^git-kizu: error: line must be a positive integer \(1-based\), got 0 in "src\/app\.ts:0"\n/);
  refused(sb, ['add', '--at', 'src/missing.ts:1', 'x'], 2, /^git-kizu: error: .*src\/missing\.ts.*\n/);
  refused(sb, ['add', '--at', '../outside.txt:1', 'x'], 2, /^git-kizu: error: .*outside.*\n/);
  refused(sb, ['add', '--at', 'src/app.ts', 'x'], 2, /^git-kizu: error: expected <path>:<line>, got "src\/app\.ts"\n/);
  refused(sb, ['clear'], 2, err('queue clear needs --done (it removes checked items only)', 'run git kizu queue clear --done; remove open items one by one with git kizu queue rm <id>'));
  refused(sb, ['done'], 2, /^git-kizu: error: missing required argument 'id'\n/);
});

test('a queue file that is not UTF-8: commands refuse (exit 2, unchanged); hook stop exits 0 with one stderr line and still blocks on scars', () => {
  const sb = repo();
  const bad = Buffer.concat([Buffer.from('# Q\n\n- [ ] caf'), Buffer.from([0xe9]), Buffer.from(' item\n')]);
  sb.write({ [Q]: bad });
  const msg = err(`${Q} is not valid UTF-8`, 'save the file as UTF-8, or move it aside and let git kizu queue add create a new one');
  for (const args of [['list'], ['list', '--json'], ['add', 'x'], ['done', 'x'], ['reopen', 'x'], ['rm', 'x'], ['clear', '--done']]) refused(sb, args, 2, msg);
  const warn = `git-kizu: review queue not read: ${Q} is not valid UTF-8\n`;
  // The user is shown the problem (systemMessage); the agent is not blocked by it.
  assert.deepEqual(stop(sb, false, warn), { systemMessage: warn.trim() });
  sb.write({ 'src/app.ts': 'one\n// @kizu[ask]: why two?\ntwo\nthree\n' });
  assert.deepEqual(stop(sb, false, warn), {
    decision: 'block',
    reason:
      'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n' +
      '- "src/app.ts":2 [ask] why two? → answer the question in your reply, then delete the scar line\n' +
      PROTOCOL,
    systemMessage: warn.trim(),
  });
});

test('a queue path that is a directory → commands exit 2 naming it; hooks exit 0 with one stderr line', () => {
  const sb = repo();
  mkdirSync(sb.path(Q), { recursive: true });
  const msg = err(`${Q} cannot be read (EISDIR)`, `make ${Q} a readable regular file, or move it aside`);
  refused(sb, ['list'], 2, msg);
  refused(sb, ['add', 'x'], 2, msg);
  assert.deepEqual(stop(sb, false, `git-kizu: review queue not read: ${Q} cannot be read (EISDIR)\n`), { systemMessage: `git-kizu: review queue not read: ${Q} cannot be read (EISDIR)` });
});

test('a lock or queue file that cannot be created → exit 2 naming it (no internal error), nothing written', () => {
  const sb = repo();
  writeFileSync(sb.path('.git/kizu'), 'not a directory\n');
  const lockDir = sb.path('.git/kizu');
  // The working-tree write lock is taken first (the queue file is a working-tree file).
  refused(sb, ['add', 'x'], 2, err(`cannot take the working-tree write lock ${path.join(lockDir, 'scars.lock')} (EEXIST)`, `make ${lockDir} a writable directory`));
  const sb2 = repo();
  symlinkSync(path.join(sb2.base, 'missing', 'dir'), sb2.path('.claude'));
  const r = sb2.kizu(['queue', 'add', 'x']);
  const to = JSON.stringify(path.join(sb2.base, 'missing', 'dir'));
  assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', linkRefusal('.claude', to)]);
  assert.equal(existsSync(path.join(sb2.base, 'missing')), false);
});

/** The refusal of a review queue reached through a symbolic link at `rel` pointing to `to` (JSON-quoted). */
function linkRefusal(rel, to) {
  return err(
    `${rel} is a symbolic link (to ${to}): git-kizu reads and writes the review queue ${Q} only as a regular file in the working tree`,
    `remove the link (rm ${rel}) and restore the queue from git (git checkout -- ${Q}) or from a snapshot (git kizu snapshot list)`,
  );
}

test('a queue file or .claude folder that is a symbolic link to a place outside the working tree is neither read nor written through', () => {
  // An agent replaced the queue with a link to a file outside the repository that it can edit unseen.
  const sb = repo();
  const outside = path.join(sb.base, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'q.md'), '- [ ] human: add tests <!-- kizu:ab12 -->\n');
  mkdirSync(sb.path('.claude'));
  symlinkSync(path.join(outside, 'q.md'), sb.path(Q));
  const msg = linkRefusal(Q, JSON.stringify(path.join(outside, 'q.md')));
  refused(sb, ['add', 'x'], 2, msg);
  refused(sb, ['list'], 2, msg);
  refused(sb, ['done', 'ab12'], 2, msg);
  assert.equal(readFileSync(path.join(outside, 'q.md'), 'utf8'), '- [ ] human: add tests <!-- kizu:ab12 -->\n');
  // The folder itself linked out: the same.
  const sb2 = repo();
  writeFileSync(path.join(outside, 'review-queue.md'), '- [ ] human: two <!-- kizu:cd34 -->\n');
  symlinkSync(outside, sb2.path('.claude'));
  refused(sb2, ['add', 'x'], 2, linkRefusal('.claude', JSON.stringify(outside)));
  assert.equal(readFileSync(path.join(outside, 'review-queue.md'), 'utf8'), '- [ ] human: two <!-- kizu:cd34 -->\n');
});
