// The review queue in the Stop and PostToolUse hooks (`git-kizu hook ...` through the real
// bin): open items block the stop and are named in the context of edits to their file; a
// queue file that cannot be read is reported, never fatal; the parse cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, symlinkSync } from 'node:fs';
import { hook } from '../helpers/sandbox.mjs';
import { err } from '../helpers/expect.mjs';
import { PROTOCOL, contextOutput, editPayload } from '../helpers/hooks.mjs';
import { Q, TEMPLATE, add, hid, line, queueOk, refused, replaceOnce, repo, stop } from '../helpers/queue.mjs';

test('stop: open items block with the exact reason; checked items never block', () => {
  const sb = repo();
  const a = add(sb, 'add a test for the empty case');
  const b = add(sb, '--kind', 'ask', '--at', 'src/app.ts:2', 'why this library?');
  const c = add(sb, '--kind', 'reject', 'the rename');
  assert.deepEqual(stop(sb, false), {
    decision: 'block',
    reason:
      `git-kizu: a human reviewer queued 3 open items in ${Q}. Resolve each one before you stop:\n` +
      [line(a, 'add a test for the empty case'), line(b, '"src/app.ts":2 (ask) why this library?', 'answer it in your reply'), line(c, '(reject) the rename', 'undo that change')].join('\n'),
  });
  queueOk(sb, ['done', a, c], `done: [${a}] add a test for the empty case\ndone: [${c}] (reject) the rename\n`);
  assert.deepEqual(stop(sb, true), {
    decision: 'block',
    reason: `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n` + line(b, '"src/app.ts":2 (ask) why this library?', 'answer it in your reply'),
  });
  // Ticking the box by hand resolves it too.
  sb.write({ [Q]: replaceOnce(sb.read(Q), '- [ ] (ask) `src/app.ts:2`', '- [X] (ask) `src/app.ts:2`') });
  assert.equal(stop(sb, true), null);
});

test('stop: scars and items together in one reason', () => {
  const sb = repo();
  const a = add(sb, '--at', 'src/app.ts:1', 'rename this');
  sb.write({ 'src/app.ts': 'one\n// @kizu[free]: inline this\ntwo\nthree\n' });
  assert.deepEqual(stop(sb, false), {
    decision: 'block',
    reason:
      `git-kizu: a human reviewer left 1 scar that is still unresolved and 1 open item in ${Q}. Resolve each one before you stop:\n` +
      '- "src/app.ts":2 [free] inline this → do what it says, then delete the scar line\n' +
      line(a, '"src/app.ts":1 rename this') +
      '\n' +
      PROTOCOL,
  });
});

test('stop: an item added after a block is in the next reason (progress); bounded retries apply to items', () => {
  const sb = repo();
  const a = add(sb, 'first');
  const head1 = `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n`;
  assert.deepEqual(stop(sb, false), { decision: 'block', reason: head1 + line(a, 'first') });
  assert.deepEqual(stop(sb, true), { decision: 'block', reason: head1 + line(a, 'first') + '\n(Block 2 of 3 without progress; after that the stop is allowed and the user is told.)' });
  const b = add(sb, 'second, added mid-turn');
  const head2 = `git-kizu: a human reviewer queued 2 open items in ${Q}. Resolve each one before you stop:\n`;
  const both = head2 + line(a, 'first') + '\n' + line(b, 'second, added mid-turn');
  assert.deepEqual(stop(sb, true), { decision: 'block', reason: both });
  assert.deepEqual(stop(sb, true), { decision: 'block', reason: both + '\n(Block 2 of 3 without progress; after that the stop is allowed and the user is told.)' });
  assert.deepEqual(stop(sb, true), { decision: 'block', reason: both + '\n(Block 3 of 3 without progress; after that the stop is allowed and the user is told.)' });
  assert.deepEqual(stop(sb, true), {
    systemMessage:
      'git-kizu: allowing the stop after 3 blocks without progress; 2 queue items still unresolved:\n' +
      line(a, 'first') +
      '\n' +
      line(b, 'second, added mid-turn') +
      '\nRun `git kizu queue list` to see them.',
  });
  assert.deepEqual(stop(sb, false), { decision: 'block', reason: both });
});

test('post-tool-use: open items anchored to the edited file are in additionalContext (not checked ones, not other files)', () => {
  const sb = repo({ 'src/other.ts': 'x\n' });
  const a = add(sb, '--at', 'src/app.ts:1', '--kind', 'ask', 'why one?');
  const b = add(sb, '--at', 'src/app.ts:3', 'split three');
  const c = add(sb, '--at', 'src/app.ts:2', 'done already');
  add(sb, '--at', 'src/other.ts:1', 'elsewhere');
  add(sb, 'nowhere');
  queueOk(sb, ['done', c], `done: [${c}] src/app.ts:2 done already\n`);
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.deepEqual(
    JSON.parse(r.stdout),
    contextOutput(
      `git-kizu: 2 open review items in ${Q} are about the file you just edited:\n` +
        line(a, '"src/app.ts":1 (ask) why one?', 'answer it in your reply') +
        '\n' +
        line(b, '"src/app.ts":3 split three'),
    ),
  );
  // With a scar in the same file: both parts.
  sb.write({ 'src/app.ts': 'one\n// @kizu[ask]: two?\ntwo\nthree\n' });
  const both = JSON.parse(hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts')).stdout).hookSpecificOutput.additionalContext;
  assert.equal(
    both,
    'git-kizu: the file you just edited holds 1 review scar left by a human reviewer:\n' +
      '- "src/app.ts":2 [ask] two? → answer the question in your reply, then delete the scar line\n' +
      PROTOCOL +
      ' Resolve it before you finish your turn.\n\n' +
      `git-kizu: 2 open review items in ${Q} are about the file you just edited:\n` +
      line(a, '"src/app.ts":1 (ask) why one?', 'answer it in your reply') +
      '\n' +
      line(b, '"src/app.ts":3 split three'),
  );
  // A file no open item is about: nothing.
  queueOk(sb, ['done', a, b], `done: [${a}] src/app.ts:1 (ask) why one?\ndone: [${b}] src/app.ts:3 split three\n`);
  sb.write({ 'src/app.ts': 'one\ntwo\nthree\n' });
  const none = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.deepEqual([none.status, none.stdout, none.stderr], [0, '', '']);
});

test('hooks read hand-written files with a BOM and [\\t] boxes', () => {
  const sb = repo();
  sb.write({ [Q]: '\uFEFF- [ ] `src/app.ts:2` first\n- [\t] second\n' });
  assert.deepEqual(stop(sb, false), {
    decision: 'block',
    reason: `git-kizu: a human reviewer queued 2 open items in ${Q}. Resolve each one before you stop:\n` + line(hid('`src/app.ts:2` first'), '"src/app.ts":2 first') + '\n' + line(hid('second'), 'second'),
  });
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.equal(r.stderr, '');
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, `git-kizu: 1 open review item in ${Q} is about the file you just edited:\n` + line(hid('`src/app.ts:2` first'), '"src/app.ts":2 first'));
});

test('a queue file that confuses the parser: commands refuse naming the line (exit 2, unchanged); hooks exit 0 with one stderr line', () => {
  const sb = repo();
  // GFM reads this as a task item whose checkbox follows a link reference definition.
  sb.write({ [Q]: '# Q\n\n- [ ] fine\n- [a]: https://example.com\n  [ ] after a definition\n' });
  const msg = 'review queue line 4: cannot find this task item\'s checkbox in the source';
  for (const args of [['list'], ['add', 'x'], ['done', hid('fine')], ['rm', hid('fine')], ['clear', '--done']]) {
    refused(sb, args, 2, err(msg, 'write the item as "- [ ] text" on one line, or fix that line by hand'));
  }
  assert.deepEqual(stop(sb, false, `git-kizu: review queue not read: ${msg}\n`), { systemMessage: `git-kizu: review queue not read: ${msg}` });
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']); // the queue names no `src/app.ts:` anchor: not even parsed
  sb.write({ [Q]: sb.read(Q) + '- [ ] `src/app.ts:1` x\n' });
  const r2 = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.deepEqual([r2.status, r2.stdout, r2.stderr], [0, '', `git-kizu: review queue not read: ${msg}\n`]);
});

test('a queue path that cannot be read (symlink loop) → commands exit 2 naming it; stop exits 0 with one stderr line', () => {
  const sb = repo();
  mkdirSync(sb.path('.claude'), { recursive: true });
  symlinkSync('review-queue.md', sb.path(Q));
  const before = sb.kizu(['queue', 'list']);
  const msg = `${Q} is a symbolic link (to "review-queue.md"): git-kizu reads and writes the review queue ${Q} only as a regular file in the working tree`;
  assert.deepEqual([before.status, before.stdout, before.stderr], [2, '', err(msg, `remove the link (rm ${Q}) and restore the queue from git (git checkout -- ${Q}) or from a snapshot (git kizu snapshot list)`)]);
  assert.deepEqual(stop(sb, false, `git-kizu: review queue not read: ${msg}\n`), { systemMessage: `git-kizu: review queue not read: ${msg}` });
});

const cacheFile = (sb) => sb.path('.git/kizu/queue-cache.json');

const sha1 = (s) => createHash('sha1').update(s).digest('hex');

test('cache: keyed by the file content; a hand edit is seen by the next hook run', () => {
  const sb = repo();
  const a = add(sb, 'first');
  let cache = JSON.parse(readFileSync(cacheFile(sb), 'utf8'));
  assert.equal(cache.hash, sha1(sb.read(Q)));
  assert.deepEqual(cache.items.map((i) => i.id), [a]);
  assert.equal(stop(sb, false).reason, `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n` + line(a, 'first'));
  // Hand edit: a new item and a ticked box, without the tool.
  const edited = sb.read(Q).replace('- [ ] first', '- [x] first') + '- [ ] by hand\n';
  sb.write({ [Q]: edited });
  assert.equal(stop(sb, true).reason, `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n` + line(hid('by hand'), 'by hand'));
  cache = JSON.parse(readFileSync(cacheFile(sb), 'utf8'));
  assert.equal(cache.hash, sha1(edited));
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
});

test('cache: a corrupt cache file (garbage, wrong shapes under the right hash) is ignored', () => {
  const sb = repo();
  const a = add(sb, 'first');
  const reason = `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n` + line(a, 'first');
  const good = JSON.parse(readFileSync(cacheFile(sb), 'utf8'));
  for (const bad of ['not json{', '', 'null', '[]', JSON.stringify({ ...good, items: [{ nope: 1 }] }), JSON.stringify({ ...good, items: 'x' }), JSON.stringify({ ...good, items: [{ ...good.items[0], anchor: 5 }] })]) {
    writeFileSync(cacheFile(sb), bad);
    assert.equal(stop(sb, false).reason, reason, bad);
  }
  queueOk(sb, ['list'], `[ ] ${a}  first\n`);
});

test('cache: edits parse the file afresh (a cache with the right hash but wrong offsets is not trusted)', () => {
  const sb = repo();
  const a = add(sb, 'first');
  const b = add(sb, 'second');
  const before = sb.read(Q);
  const good = JSON.parse(readFileSync(cacheFile(sb), 'utf8'));
  // Swap the two items' offsets: a stale or forged cache.
  const [x, y] = good.items;
  const forged = { ...good, items: [{ ...x, start: y.start, end: y.end, box: y.box, line: y.line }, { ...y, start: x.start, end: x.end, box: x.box, line: x.line }] };
  writeFileSync(cacheFile(sb), JSON.stringify(forged));
  queueOk(sb, ['done', a], `done: [${a}] first\n`);
  assert.equal(sb.read(Q), replaceOnce(before, `- [ ] first <!-- kizu:${a} -->`, `- [x] first <!-- kizu:${a} -->`));
  writeFileSync(cacheFile(sb), JSON.stringify({ ...forged, hash: sha1(sb.read(Q)) }));
  queueOk(sb, ['rm', b], `removed: [${b}] second\n`);
  assert.equal(sb.read(Q), TEMPLATE + `- [x] first <!-- kizu:${a} -->\n`);
});
