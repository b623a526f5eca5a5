// The review queue (.claude/review-queue.md) through the real bin in real temp git repos:
// `git kizu queue add|list|done|reopen|rm|clear`, the Stop and PostToolUse hooks, and the
// parse cache. Expected file bytes are built from the previous bytes with exactly one splice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, symlinkSync, lstatSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sandbox, hook, spawn, ROOT } from './helpers.mjs';

const Q = '.claude/review-queue.md';
const TEMPLATE = readFileSync(path.join(ROOT, 'templates', 'review-queue.md'), 'utf8');
/** 1-based line of the first item appended to a new queue file. */
const FIRST = TEMPLATE.split('\n').length;
const PROTOCOL =
  'Protocol: ask → answer the question in your reply, then delete the scar line; reject → undo that change, then delete the scar line; free → do what it says, then delete the scar line. Delete a scar line by editing the file or with `git kizu unscar <path>:<line>`.';

/** The derived id of a hand-written item: `h` + 5 hex of SHA-1 of its whitespace-collapsed raw text. */
const hid = (raw) => 'h' + createHash('sha1').update(raw.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 5);
const err = (msg, hint) => `git-kizu: error: ${msg}\n` + (hint ? `hint: ${hint}\n` : '');
const splice = (s, at, del, ins = '') => s.slice(0, at) + ins + s.slice(at + del);
/** `s` with the first occurrence of `from` replaced by `to` (asserting it occurs once). */
function replaceOnce(s, from, to) {
  assert.equal(s.split(from).length, 2, `expected exactly one ${JSON.stringify(from)}`);
  return s.replace(from, () => to);
}

function repo(files = {}) {
  return sandbox({ files: { 'src/app.ts': 'one\ntwo\nthree\n', ...files } });
}

/** `git kizu queue add <args>`: asserts success and one id on stdout, returns the id. */
function add(sb, ...args) {
  const r = sb.kizu(['queue', 'add', ...args]);
  assert.equal(r.stderr, '', `queue add ${args.join(' ')}`);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^[0-9a-z]{4}\n$/);
  return r.stdout.trim();
}

/** Runs `git kizu queue <args>` and asserts the exact result. */
function ok(sb, args, stdout) {
  const r = sb.kizu(['queue', ...args]);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout, stderr: '' }, `queue ${args.join(' ')}`);
}

/** Runs `git kizu queue <args>`, asserts the exit code and stderr and that the queue file is unchanged. */
function refused(sb, args, status, stderr) {
  const isFile = existsSync(sb.path(Q)) && lstatSync(sb.path(Q)).isFile();
  const before = isFile ? sb.read(Q, 'buffer') : null;
  const r = sb.kizu(['queue', ...args]);
  assert.equal(r.stdout, '', `queue ${args.join(' ')}`);
  if (stderr instanceof RegExp) assert.match(r.stderr, stderr);
  else assert.equal(r.stderr, stderr, `queue ${args.join(' ')}`);
  assert.equal(r.status, status, `queue ${args.join(' ')}`);
  if (before !== null) assert.deepEqual(sb.read(Q, 'buffer'), before, 'queue file unchanged');
  else if (!existsSync(sb.path(Q))) assert.equal(existsSync(sb.path('.claude')), false, 'no queue file created');
}

const json = (sb, ...extra) => {
  const r = sb.kizu(['queue', 'list', '--all', '--json', ...extra]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
};
const J = (id, checked, kind, p, line, text, queueLine) => ({ id, checked, kind, path: p, line, text, queueLine });
const stopPayload = (sb, active, session = 'q-sess') => ({ session_id: session, cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: active });
const editPayload = (sb, file) => ({ session_id: 'q-sess', cwd: sb.dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(sb.dir, file) } });
const line = (id, desc, verb = 'do what it says') => `- [${id}] ${desc} → ${verb}, then run \`git kizu queue done ${id}\``;

/** Runs the Stop hook; asserts exit 0 and no stderr; returns the parsed stdout (null if empty). */
function stop(sb, active, stderr = '') {
  const r = hook(sb, 'stop', stopPayload(sb, active));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, stderr);
  return r.stdout === '' ? null : JSON.parse(r.stdout);
}

// ---------------------------------------------------------------------------------------
// 1. A queue file made by the tool

test('tool-made file: add/list/done/reopen/rm/clear, exact bytes after each step', () => {
  const sb = repo();
  ok(sb, ['list'], `no review queue yet (${Q}); add one with git kizu queue add "<text>"\n`);
  ok(sb, ['list', '--json'], '[]\n');
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

  ok(sb, ['list'], `[ ] ${a}  first thing\n[ ] ${b}  src/app.ts:2  (ask)  why this?\n[ ] ${c}  (reject)  undo the rename\n`);
  ok(sb, ['done', a], `done: [${a}] first thing\n`);
  want = replaceOnce(want, `- [ ] first thing`, `- [x] first thing`);
  assert.equal(sb.read(Q), want);
  ok(sb, ['done', a], `done: [${a}] first thing\n`); // already done: no change
  assert.equal(sb.read(Q), want);
  ok(sb, ['list'], `[ ] ${b}  src/app.ts:2  (ask)  why this?\n[ ] ${c}  (reject)  undo the rename\n`);
  ok(sb, ['list', '--all'], `[x] ${a}  first thing\n[ ] ${b}  src/app.ts:2  (ask)  why this?\n[ ] ${c}  (reject)  undo the rename\n`);
  ok(
    sb,
    ['list', '--json'],
    JSON.stringify([J(b, false, 'ask', 'src/app.ts', 2, 'why this?', FIRST + 1), J(c, false, 'reject', null, null, 'undo the rename', FIRST + 2)]) + '\n',
  );
  ok(
    sb,
    ['list', '--all', '--json'],
    JSON.stringify([
      J(a, true, null, null, null, 'first thing', FIRST),
      J(b, false, 'ask', 'src/app.ts', 2, 'why this?', FIRST + 1),
      J(c, false, 'reject', null, null, 'undo the rename', FIRST + 2),
    ]) + '\n',
  );
  ok(sb, ['reopen', a], `reopened: [${a}] first thing\n`);
  want = replaceOnce(want, `- [x] first thing`, `- [ ] first thing`);
  assert.equal(sb.read(Q), want);
  ok(sb, ['done', c, a, c], `done: [${c}] (reject) undo the rename\ndone: [${a}] first thing\n`);
  want = replaceOnce(replaceOnce(want, `- [ ] first thing`, `- [x] first thing`), `- [ ] (reject)`, `- [x] (reject)`);
  assert.equal(sb.read(Q), want);
  ok(sb, ['clear', '--done'], 'removed 2 done items\n');
  assert.equal(sb.read(Q), TEMPLATE + lb);
  ok(sb, ['clear', '--done'], 'no done items to remove\n');
  ok(sb, ['rm', b], `removed: [${b}] src/app.ts:2 (ask) why this?\n`);
  assert.equal(sb.read(Q), TEMPLATE);
  ok(sb, ['list'], `no open items in ${Q}\n`);
  ok(sb, ['list', '--all'], `no items in ${Q}\n`);
  ok(sb, ['list', '--json'], '[]\n');
  // The file is not a scar source and not left locked.
  assert.equal(existsSync(sb.path('.git/kizu/queue.lock')), false);
});

// ---------------------------------------------------------------------------------------
// 2. Hand-written files

const HAND =
  '\uFEFF# Review notes\r\n' +
  '\r\n' +
  'Some prose with a [link](https://example.com) and `code`.\r\n' +
  '\r\n' +
  '## Open\r\n' +
  '\r\n' +
  '* [ ] star item\r\n' +
  '+ [X] plus item done\r\n' +
  '\r\n' +
  '1. [ ] ordered one\r\n' +
  '\r\n' +
  '- parent note\r\n' +
  '  - [ ] nested child\r\n' +
  '    - [x] grandchild\r\n' +
  '\r\n' +
  '- [ ] loose a\r\n' +
  '\r\n' +
  '- [ ] loose b with\r\n' +
  'lazy continuation text\r\n' +
  '\r\n' +
  '```md\r\n' +
  '- [ ] not an item (in a fence)\r\n' +
  '```\r\n' +
  '\r\n' +
  '> - [ ] quoted item\r\n' +
  '\r\n' +
  'Closing prose without a final newline';

test('hand-written file (BOM, CRLF, headings, prose, nested, *, +, [X], 1., loose, lazy, fence, quote, no final newline): list', () => {
  const sb = repo();
  sb.write({ [Q]: HAND });
  const ids = {
    star: hid('star item'),
    plus: hid('plus item done'),
    ord: hid('ordered one'),
    child: hid('nested child'),
    grand: hid('grandchild'),
    la: hid('loose a'),
    lb: hid('loose b with lazy continuation text'),
    quoted: hid('quoted item'),
  };
  assert.deepEqual(json(sb), [
    J(ids.star, false, null, null, null, 'star item', 7),
    J(ids.plus, true, null, null, null, 'plus item done', 8),
    J(ids.ord, false, null, null, null, 'ordered one', 10),
    J(ids.child, false, null, null, null, 'nested child', 13),
    J(ids.grand, true, null, null, null, 'grandchild', 14),
    J(ids.la, false, null, null, null, 'loose a', 16),
    J(ids.lb, false, null, null, null, 'loose b with lazy continuation text', 18),
    J(ids.quoted, false, null, null, null, 'quoted item', 25),
  ]);
  ok(
    sb,
    ['list'],
    [
      `[ ] ${ids.star}  star item`,
      `[ ] ${ids.ord}  ordered one`,
      `[ ] ${ids.child}  nested child`,
      `[ ] ${ids.la}  loose a`,
      `[ ] ${ids.lb}  loose b with lazy continuation text`,
      `[ ] ${ids.quoted}  quoted item`,
      '',
    ].join('\n'),
  );
  assert.equal(sb.read(Q), HAND, 'listing writes nothing');
});

test('hand-written file: each edit changes only the touched item; everything else stays byte-identical', () => {
  const sb = repo();
  sb.write({ [Q]: HAND });
  let want = HAND;
  const step = (args, stdout, next) => {
    ok(sb, args, stdout);
    want = next(want);
    assert.equal(sb.read(Q), want, args.join(' '));
  };
  const box = (s, item) => s.indexOf(item) + item.indexOf('[') + 1;
  step(['done', hid('star item')], `done: [${hid('star item')}] star item\n`, (s) => splice(s, box(s, '* [ ] star item'), 1, 'x'));
  step(['reopen', hid('plus item done')], `reopened: [${hid('plus item done')}] plus item done\n`, (s) => splice(s, box(s, '+ [X] plus'), 1, ' '));
  step(['done', hid('plus item done')], `done: [${hid('plus item done')}] plus item done\n`, (s) => splice(s, box(s, '+ [ ] plus'), 1, 'x'));
  step(['done', hid('ordered one'), hid('quoted item')], `done: [${hid('ordered one')}] ordered one\ndone: [${hid('quoted item')}] quoted item\n`, (s) =>
    splice(splice(s, box(s, '1. [ ] ordered'), 1, 'x'), box(s, '> - [ ] quoted') , 1, 'x'),
  );
  // rm of a nested item takes its own nested item along, and says so.
  step(['rm', hid('nested child')], `removed: [${hid('nested child')}] nested child\nremoved: [${hid('grandchild')}] grandchild\n`, (s) =>
    replaceOnce(s, '  - [ ] nested child\r\n    - [x] grandchild\r\n', ''),
  );
  // A multi-line (lazy continuation) item goes whole.
  step(['rm', hid('loose b with lazy continuation text')], `removed: [${hid('loose b with lazy continuation text')}] loose b with lazy continuation text\n`, (s) =>
    replaceOnce(s, '- [ ] loose b with\r\nlazy continuation text\r\n', ''),
  );
  step(['clear', '--done'], 'removed 4 done items\n', (s) =>
    replaceOnce(replaceOnce(replaceOnce(replaceOnce(s, '* [x] star item\r\n', ''), '+ [x] plus item done\r\n', ''), '1. [x] ordered one\r\n', ''), '> - [x] quoted item\r\n', ''),
  );
  // Appending to a CRLF file without a final newline: CRLF, a blank line after prose, still no final newline.
  const r = sb.kizu(['queue', 'add', 'new one']);
  assert.equal(r.status, 0, r.stderr);
  const id = r.stdout.trim();
  want += `\r\n\r\n- [ ] new one <!-- kizu:${id} -->`;
  assert.equal(sb.read(Q), want);
  assert.ok(want.startsWith('\uFEFF# Review notes\r\n'));
  assert.ok(!/[^\r]\n/.test(want), 'only CRLF line endings');
  ok(sb, ['list'], `[ ] ${hid('loose a')}  loose a\n[ ] ${id}  new one\n`);
  ok(sb, ['rm', id], `removed: [${id}] new one\n`);
  assert.equal(sb.read(Q), want.slice(0, want.lastIndexOf('\r\n')), 'removing the last line keeps "no final newline"');
  // The fenced pseudo-item is untouched through all of this.
  assert.ok(sb.read(Q).includes('```md\r\n- [ ] not an item (in a fence)\r\n```\r\n'));
});

test('hand-written LF file: add after a list needs no blank line; tab and CR-only files; [\\t] box', () => {
  const sb = repo();
  const lf = '# Notes\n\nIntro.\n\n- [ ] a\n  - [X] b\n';
  sb.write({ [Q]: lf });
  const id = add(sb, 'c');
  assert.equal(sb.read(Q), lf + `- [ ] c <!-- kizu:${id} -->\n`);
  // A file with old-Mac CR line endings: removing an item removes just its line.
  const cr = 'Notes\r\r- [ ] keep me\r- [x] drop me\r- [ ] keep me too\r';
  sb.write({ [Q]: cr });
  ok(sb, ['clear', '--done'], 'removed 1 done item\n');
  assert.equal(sb.read(Q), 'Notes\r\r- [ ] keep me\r- [ ] keep me too\r');
  const crId = add(sb, 'added');
  assert.equal(sb.read(Q), `Notes\r\r- [ ] keep me\r- [ ] keep me too\r- [ ] added <!-- kizu:${crId} -->\r`);
  ok(sb, ['done', hid('keep me')], `done: [${hid('keep me')}] keep me\n`);
  assert.equal(sb.read(Q), `Notes\r\r- [x] keep me\r- [ ] keep me too\r- [ ] added <!-- kizu:${crId} -->\r`);
  // `[<tab>]` is an unchecked GFM box (micromark accepts any whitespace): listed, tickable.
  const tab = '- [\t] tabbed\n-\t[ ] tab after marker\n\t- [ ] tab-indented\n';
  sb.write({ [Q]: tab });
  assert.deepEqual(json(sb), [
    J(hid('tabbed'), false, null, null, null, 'tabbed', 1),
    J(hid('tab after marker'), false, null, null, null, 'tab after marker', 2),
    J(hid('tab-indented'), false, null, null, null, 'tab-indented', 3),
  ]);
  ok(sb, ['done', hid('tabbed'), hid('tab-indented')], `done: [${hid('tabbed')}] tabbed\ndone: [${hid('tab-indented')}] tab-indented\n`);
  assert.equal(sb.read(Q), '- [x] tabbed\n-\t[ ] tab after marker\n\t- [x] tab-indented\n');
  // A line ending between the brackets is an unchecked box too (CRLF counts as one character).
  sb.write({ [Q]: '- [\r\n] crlf box\r\n- [\n] lf box\n' });
  ok(sb, ['list'], `[ ] ${hid('crlf box')}  crlf box\n[ ] ${hid('lf box')}  lf box\n`);
  ok(sb, ['done', hid('lf box'), hid('crlf box')], `done: [${hid('lf box')}] lf box\ndone: [${hid('crlf box')}] crlf box\n`);
  assert.equal(sb.read(Q), '- [x] crlf box\r\n- [x] lf box\n');
});

test('hand-written items: ids are unique (duplicates, copied id comments, an id equal to a derived id); bad id comments are text', () => {
  const sb = repo();
  const d = hid('foo');
  const text =
    '- [ ] same\n' +
    '- [ ] same\n' +
    '- [ ] other <!-- kizu:abcd -->\n' +
    '- [ ] copy of other <!-- kizu:abcd -->\n' +
    '- [ ] foo\n' +
    `- [ ] bar <!-- kizu:${d} -->\n` +
    '- [ ] x <!-- kizu:-rf -->\n';
  sb.write({ [Q]: text });
  assert.deepEqual(
    json(sb).map((i) => [i.id, i.text]),
    [
      [hid('same'), 'same'],
      [`${hid('same')}-2`, 'same'],
      ['abcd', 'other'],
      ['abcd-2', 'copy of other'],
      [`${d}-2`, 'foo'],
      [d, 'bar'],
      [hid('x <!-- kizu:-rf -->'), 'x <!-- kizu:-rf -->'],
    ],
  );
  // Every listed id is usable; each ticks its own item.
  ok(sb, ['done', 'abcd-2', `${d}-2`, `${hid('same')}-2`], `done: [abcd-2] copy of other\ndone: [${d}-2] foo\ndone: [${hid('same')}-2] same\n`);
  assert.equal(
    sb.read(Q),
    '- [ ] same\n- [x] same\n- [ ] other <!-- kizu:abcd -->\n- [x] copy of other <!-- kizu:abcd -->\n- [x] foo\n' + `- [ ] bar <!-- kizu:${d} -->\n` + '- [ ] x <!-- kizu:-rf -->\n',
  );
  // The stop reason names each open item by a distinct id that `queue done` accepts.
  const r = stop(sb, false);
  assert.equal(
    r.reason,
    `git-kizu: a human reviewer queued 4 open items in ${Q}. Resolve each one before you stop:\n` +
      [line(hid('same'), 'same'), line('abcd', 'other'), line(d, 'bar'), line(hid('x <!-- kizu:-rf -->'), 'x <!-- kizu:-rf -->')].join('\n'),
  );
  // A new item never takes an id already in the file.
  const n = add(sb, 'n');
  assert.ok(![hid('same'), 'abcd', d].includes(n));
});

test('hand-written: item that shares its line with an outer list marker is ticked but not removed (text would be lost)', () => {
  const sb = repo();
  const text = '1. - [x] inner\n\n   more of the outer item\n- [ ] fine\n';
  sb.write({ [Q]: text });
  refused(
    sb,
    ['rm', hid('inner')],
    2,
    err(`review queue line 1: item ${hid('inner')} shares its line with other text, which removing the item's lines would lose`, 'put the item on a line of its own by hand, or tick it instead (git kizu queue done)'),
  );
  refused(sb, ['clear', '--done'], 2, /^git-kizu: error: review queue line 1: item h[0-9a-f]{5} shares its line with other text/);
  ok(sb, ['reopen', hid('inner')], `reopened: [${hid('inner')}] inner\n`);
  assert.equal(sb.read(Q), '1. - [ ] inner\n\n   more of the outer item\n- [ ] fine\n');
});

test('hand-written: a removal that would turn another item into plain text is refused (1. after a paragraph)', () => {
  const sb = repo();
  // An ordered list may interrupt a paragraph only when it starts at 1: without "1." the
  // "2." line would become part of the paragraph and stop being an item.
  sb.write({ [Q]: 'Some text\n1. [x] a\n2. [ ] b\n' });
  const hint = `nothing was written; fix ${Q} by hand around that line, then retry`;
  refused(sb, ['rm', hid('a')], 2, err('refusing to remove the item: after the edit, the items near line 2 would read differently', hint));
  refused(sb, ['clear', '--done'], 2, err('refusing to remove the done items: after the edit, the items near line 2 would read differently', hint));
  ok(sb, ['rm', hid('b')], `removed: [${hid('b')}] b\n`);
  assert.equal(sb.read(Q), 'Some text\n1. [x] a\n');
});

test('hand-written: clear --done keeps a done item that holds open items', () => {
  const sb = repo();
  sb.write({ [Q]: '- [x] parent\n  - [ ] open child\n  - [x] done child\n- [x] alone\n' });
  ok(sb, ['clear', '--done'], `removed 2 done items\nkept done item ${hid('parent')} (line 1): it holds open items; tick or remove them first\n`);
  assert.equal(sb.read(Q), '- [x] parent\n  - [ ] open child\n');
});

test('hand-written: escapes, text that is only an anchor, anchors and kinds', () => {
  const sb = repo();
  sb.write({ [Q]: '- [ ] \\(ask) is literal\n- [ ] `src/app.ts:3`\n- [ ] (reject) `src/app.ts:1` \\`x.ts:1` stays text <!-- kizu:r1 -->\n' });
  ok(sb, ['list'], `[ ] ${hid('\\(ask) is literal')}  (ask) is literal\n[ ] ${hid('`src/app.ts:3`')}  src/app.ts:3  (no text)\n[ ] r1  src/app.ts:1  (reject)  \\\`x.ts:1\` stays text\n`);
  const r = stop(sb, false);
  assert.equal(
    r.reason,
    `git-kizu: a human reviewer queued 3 open items in ${Q}. Resolve each one before you stop:\n` +
      [line(hid('\\(ask) is literal'), '(ask) is literal'), line(hid('`src/app.ts:3`'), 'src/app.ts:3 (no text)'), line('r1', 'src/app.ts:1 (reject) \\`x.ts:1` stays text', 'undo that change')].join('\n'),
  );
});

test('hand-written: control characters (terminal escapes) print as visible \\xNN, in list, done output and the unknown-id hint', () => {
  const sb = repo();
  const raw = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u009b text';
  sb.write({ [Q]: `- [ ] ${raw}\n` });
  const id = hid(raw);
  const shown = '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\x9b text';
  ok(sb, ['list'], `[ ] ${id}  ${shown}\n`);
  assert.deepEqual(json(sb), [J(id, false, null, null, null, raw, 1)]); // JSON keeps the text (escaped by JSON itself)
  refused(sb, ['done', 'nope'], 1, err('no queue item with id nope', `the ids in ${Q} are:\n  ${id} [ ] ${shown}`));
  ok(sb, ['done', id], `done: [${id}] ${shown}\n`);
  assert.equal(sb.read(Q), `- [x] ${raw}\n`);
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

// ---------------------------------------------------------------------------------------
// Hostile text through `queue add`

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
    json(sb).map((i) => [i.id, i.text]),
    listed,
  );
  const items = json(sb);
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

// ---------------------------------------------------------------------------------------
// 3. Concurrency

test('8 concurrent queue add processes all land, each once, in a file that parses', async () => {
  const sb = repo();
  const runs = Array.from({ length: 8 }, (_, i) =>
    new Promise((resolve, reject) => {
      const p = spawn('git', ['kizu', 'queue', 'add', `item ${i}`], { cwd: sb.dir, env: sb.env });
      let out = '';
      let errs = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (errs += d));
      p.on('error', reject);
      p.on('close', (code) => resolve({ code, out, errs, i }));
    }),
  );
  const results = await Promise.all(runs);
  for (const r of results) {
    assert.equal(r.code, 0, r.errs);
    assert.equal(r.errs, '');
    assert.match(r.out, /^[0-9a-z]{4}\n$/);
  }
  const items = json(sb);
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

// ---------------------------------------------------------------------------------------
// 4. Bad input

test('unknown ids → exit 1 listing the ids; nothing written', () => {
  const sb = repo();
  const a = add(sb, 'first');
  const b = add(sb, 'second');
  ok(sb, ['done', b], `done: [${b}] second\n`);
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
      '- src/app.ts:2 [ask] why two? → answer the question in your reply, then delete the scar line\n' +
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
  refused(sb, ['add', 'x'], 2, err(`cannot take the review queue lock ${path.join(lockDir, 'queue.lock')} (EEXIST)`, `make ${lockDir} a writable directory`));
  const sb2 = repo();
  symlinkSync(path.join(sb2.base, 'missing', 'dir'), sb2.path('.claude'));
  const r = sb2.kizu(['queue', 'add', 'x']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', err(`cannot write ${Q} (ENOENT)`, 'make .claude a writable directory')]);
  assert.equal(existsSync(path.join(sb2.base, 'missing')), false);
});

// ---------------------------------------------------------------------------------------
// 5. Hooks

test('stop: open items block with the exact reason; checked items never block', () => {
  const sb = repo();
  const a = add(sb, 'add a test for the empty case');
  const b = add(sb, '--kind', 'ask', '--at', 'src/app.ts:2', 'why this library?');
  const c = add(sb, '--kind', 'reject', 'the rename');
  assert.deepEqual(stop(sb, false), {
    decision: 'block',
    reason:
      `git-kizu: a human reviewer queued 3 open items in ${Q}. Resolve each one before you stop:\n` +
      [line(a, 'add a test for the empty case'), line(b, 'src/app.ts:2 (ask) why this library?', 'answer it in your reply'), line(c, '(reject) the rename', 'undo that change')].join('\n'),
  });
  ok(sb, ['done', a, c], `done: [${a}] add a test for the empty case\ndone: [${c}] (reject) the rename\n`);
  assert.deepEqual(stop(sb, true), {
    decision: 'block',
    reason: `git-kizu: a human reviewer queued 1 open item in ${Q}. Resolve it before you stop:\n` + line(b, 'src/app.ts:2 (ask) why this library?', 'answer it in your reply'),
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
      '- src/app.ts:2 [free] inline this → do what it says, then delete the scar line\n' +
      line(a, 'src/app.ts:1 rename this') +
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
  ok(sb, ['done', c], `done: [${c}] src/app.ts:2 done already\n`);
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.deepEqual(JSON.parse(r.stdout), {
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      additionalContext:
        `git-kizu: 2 open review items in ${Q} are about the file you just edited:\n` +
        line(a, 'src/app.ts:1 (ask) why one?', 'answer it in your reply') +
        '\n' +
        line(b, 'src/app.ts:3 split three'),
    },
  });
  // With a scar in the same file: both parts.
  sb.write({ 'src/app.ts': 'one\n// @kizu[ask]: two?\ntwo\nthree\n' });
  const both = JSON.parse(hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts')).stdout).hookSpecificOutput.additionalContext;
  assert.equal(
    both,
    'git-kizu: the file you just edited holds 1 review scar left by a human reviewer:\n' +
      '- src/app.ts:2 [ask] two? → answer the question in your reply, then delete the scar line\n' +
      PROTOCOL +
      ' Resolve it before you finish your turn.\n\n' +
      `git-kizu: 2 open review items in ${Q} are about the file you just edited:\n` +
      line(a, 'src/app.ts:1 (ask) why one?', 'answer it in your reply') +
      '\n' +
      line(b, 'src/app.ts:3 split three'),
  );
  // A file no open item is about: nothing.
  ok(sb, ['done', a, b], `done: [${a}] src/app.ts:1 (ask) why one?\ndone: [${b}] src/app.ts:3 split three\n`);
  sb.write({ 'src/app.ts': 'one\ntwo\nthree\n' });
  const none = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.deepEqual([none.status, none.stdout, none.stderr], [0, '', '']);
});

test('hooks read hand-written files with a BOM and [\\t] boxes', () => {
  const sb = repo();
  sb.write({ [Q]: '\uFEFF- [ ] `src/app.ts:2` first\n- [\t] second\n' });
  assert.deepEqual(stop(sb, false), {
    decision: 'block',
    reason: `git-kizu: a human reviewer queued 2 open items in ${Q}. Resolve each one before you stop:\n` + line(hid('`src/app.ts:2` first'), 'src/app.ts:2 first') + '\n' + line(hid('second'), 'second'),
  });
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/app.ts'));
  assert.equal(r.stderr, '');
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, `git-kizu: 1 open review item in ${Q} is about the file you just edited:\n` + line(hid('`src/app.ts:2` first'), 'src/app.ts:2 first'));
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
  assert.deepEqual([before.status, before.stdout, before.stderr], [2, '', err(`${Q} cannot be read (ELOOP)`, `make ${Q} a readable regular file, or move it aside`)]);
  assert.deepEqual(stop(sb, false, `git-kizu: review queue not read: ${Q} cannot be read (ELOOP)\n`), { systemMessage: `git-kizu: review queue not read: ${Q} cannot be read (ELOOP)` });
});

// ---------------------------------------------------------------------------------------
// 6. The parse cache

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
  ok(sb, ['list'], `[ ] ${a}  first\n`);
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
  ok(sb, ['done', a], `done: [${a}] first\n`);
  assert.equal(sb.read(Q), replaceOnce(before, `- [ ] first <!-- kizu:${a} -->`, `- [x] first <!-- kizu:${a} -->`));
  writeFileSync(cacheFile(sb), JSON.stringify({ ...forged, hash: sha1(sb.read(Q)) }));
  ok(sb, ['rm', b], `removed: [${b}] second\n`);
  assert.equal(sb.read(Q), TEMPLATE + `- [x] first <!-- kizu:${a} -->\n`);
});
