// Review queue files written by hand (BOM, CRLF, headings, prose, nested lists, *, +, [X],
// 1., loose and lazy items, fences, quotes, no final newline) through `git kizu queue ...`:
// what is listed, and that each edit changes only the touched item, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { err } from '../helpers/expect.mjs';
import { J, Q, add, hid, line, queueJson, queueOk, refused, replaceOnce, repo, splice, stop } from '../helpers/queue.mjs';

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
  assert.deepEqual(queueJson(sb), [
    J(ids.star, false, null, null, null, 'star item', 7),
    J(ids.plus, true, null, null, null, 'plus item done', 8),
    J(ids.ord, false, null, null, null, 'ordered one', 10),
    J(ids.child, false, null, null, null, 'nested child', 13),
    J(ids.grand, true, null, null, null, 'grandchild', 14),
    J(ids.la, false, null, null, null, 'loose a', 16),
    J(ids.lb, false, null, null, null, 'loose b with lazy continuation text', 18),
    J(ids.quoted, false, null, null, null, 'quoted item', 25),
  ]);
  queueOk(
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
    queueOk(sb, args, stdout);
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
  queueOk(sb, ['list'], `[ ] ${hid('loose a')}  loose a\n[ ] ${id}  new one\n`);
  queueOk(sb, ['rm', id], `removed: [${id}] new one\n`);
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
  queueOk(sb, ['clear', '--done'], 'removed 1 done item\n');
  assert.equal(sb.read(Q), 'Notes\r\r- [ ] keep me\r- [ ] keep me too\r');
  const crId = add(sb, 'added');
  assert.equal(sb.read(Q), `Notes\r\r- [ ] keep me\r- [ ] keep me too\r- [ ] added <!-- kizu:${crId} -->\r`);
  queueOk(sb, ['done', hid('keep me')], `done: [${hid('keep me')}] keep me\n`);
  assert.equal(sb.read(Q), `Notes\r\r- [x] keep me\r- [ ] keep me too\r- [ ] added <!-- kizu:${crId} -->\r`);
  // `[<tab>]` is an unchecked GFM box (micromark accepts any whitespace): listed, tickable.
  const tab = '- [\t] tabbed\n-\t[ ] tab after marker\n\t- [ ] tab-indented\n';
  sb.write({ [Q]: tab });
  assert.deepEqual(queueJson(sb), [
    J(hid('tabbed'), false, null, null, null, 'tabbed', 1),
    J(hid('tab after marker'), false, null, null, null, 'tab after marker', 2),
    J(hid('tab-indented'), false, null, null, null, 'tab-indented', 3),
  ]);
  queueOk(sb, ['done', hid('tabbed'), hid('tab-indented')], `done: [${hid('tabbed')}] tabbed\ndone: [${hid('tab-indented')}] tab-indented\n`);
  assert.equal(sb.read(Q), '- [x] tabbed\n-\t[ ] tab after marker\n\t- [x] tab-indented\n');
  // A line ending between the brackets is an unchecked box too (CRLF counts as one character).
  sb.write({ [Q]: '- [\r\n] crlf box\r\n- [\n] lf box\n' });
  queueOk(sb, ['list'], `[ ] ${hid('crlf box')}  crlf box\n[ ] ${hid('lf box')}  lf box\n`);
  queueOk(sb, ['done', hid('lf box'), hid('crlf box')], `done: [${hid('lf box')}] lf box\ndone: [${hid('crlf box')}] crlf box\n`);
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
    queueJson(sb).map((i) => [i.id, i.text]),
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
  queueOk(sb, ['done', 'abcd-2', `${d}-2`, `${hid('same')}-2`], `done: [abcd-2] copy of other\ndone: [${d}-2] foo\ndone: [${hid('same')}-2] same\n`);
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
  queueOk(sb, ['reopen', hid('inner')], `reopened: [${hid('inner')}] inner\n`);
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
  queueOk(sb, ['rm', hid('b')], `removed: [${hid('b')}] b\n`);
  assert.equal(sb.read(Q), 'Some text\n1. [x] a\n');
});

test('hand-written: clear --done keeps a done item that holds open items', () => {
  const sb = repo();
  sb.write({ [Q]: '- [x] parent\n  - [ ] open child\n  - [x] done child\n- [x] alone\n' });
  queueOk(sb, ['clear', '--done'], `removed 2 done items\nkept done item ${hid('parent')} (line 1): it holds open items; tick or remove them first\n`);
  assert.equal(sb.read(Q), '- [x] parent\n  - [ ] open child\n');
});

test('hand-written: rm of an item holding open nested items is refused, naming them; named too, or ticked, they go along', () => {
  const sb = repo();
  const text = '- [x] parent done\n  - [ ] child open\n  - [x] child done\n    - [ ] grandchild open\n- [ ] next\n';
  sb.write({ [Q]: text });
  const [p, c, d, g] = [hid('parent done'), hid('child open'), hid('child done'), hid('grandchild open')];
  refused(
    sb,
    ['rm', p],
    2,
    err(`item ${p} (line 1) holds 2 open items nested in it: [${c}] child open; [${g}] grandchild open`, `nothing was removed; tick them first (git kizu queue done ${c} ${g}), or remove them too (git kizu queue rm ${p} ${c} ${g})`),
  );
  refused(sb, ['rm', p, c], 2, err(`item ${p} (line 1) holds 1 open item nested in it: [${g}] grandchild open`, `nothing was removed; tick it first (git kizu queue done ${g}), or remove it too (git kizu queue rm ${p} ${g})`));
  // queue done of the parent ticks only the parent: the open items nested in it stay open.
  queueOk(sb, ['reopen', p], `reopened: [${p}] parent done\n`);
  queueOk(sb, ['done', p], `done: [${p}] parent done\n`);
  assert.equal(sb.read(Q), text);
  queueOk(sb, ['done', g], `done: [${g}] grandchild open\n`);
  queueOk(sb, ['rm', p, c], `removed: [${p}] parent done\nremoved: [${c}] child open\nremoved: [${d}] child done\nremoved: [${hid('grandchild open')}] grandchild open\n`);
  assert.equal(sb.read(Q), '- [ ] next\n');
});

test('hand-written: escapes, text that is only an anchor, anchors and kinds', () => {
  const sb = repo();
  sb.write({ [Q]: '- [ ] \\(ask) is literal\n- [ ] `src/app.ts:3`\n- [ ] (reject) `src/app.ts:1` \\`x.ts:1` stays text <!-- kizu:r1 -->\n' });
  queueOk(sb, ['list'], `[ ] ${hid('\\(ask) is literal')}  (ask) is literal\n[ ] ${hid('`src/app.ts:3`')}  src/app.ts:3  (no text)\n[ ] r1  src/app.ts:1  (reject)  \\\`x.ts:1\` stays text\n`);
  const r = stop(sb, false);
  assert.equal(
    r.reason,
    `git-kizu: a human reviewer queued 3 open items in ${Q}. Resolve each one before you stop:\n` +
      [line(hid('\\(ask) is literal'), '(ask) is literal'), line(hid('`src/app.ts:3`'), '"src/app.ts":3 (no text)'), line('r1', '"src/app.ts":1 (reject) \\`x.ts:1` stays text', 'undo that change')].join('\n'),
  );
});

test('hand-written: an anchor outside the repository (../, absolute) is text, not a place; queue add --at refuses one', () => {
  const sb = repo();
  writeFileSync(path.join(sb.base, 'outside.txt'), 'x\n');
  const raw = ['`../outside.txt:1` up', '`src/../../outside.txt:1` through', '`/etc/passwd:1` absolute', '`C:/x.ts:1` drive', '`..\\outside.txt:1` backslash'];
  sb.write({ [Q]: raw.map((r) => `- [ ] ${r}\n`).join('') + '- [ ] `src/app.ts:2` inside\n' });
  assert.deepEqual(queueJson(sb), [...raw.map((r, k) => J(hid(r), false, null, null, null, r, k + 1)), J(hid('`src/app.ts:2` inside'), false, null, 'src/app.ts', 2, 'inside', 6)]);
  assert.equal(
    stop(sb, false).reason,
    `git-kizu: a human reviewer queued 6 open items in ${Q}. Resolve each one before you stop:\n` + [...raw.map((r) => line(hid(r), r)), line(hid('`src/app.ts:2` inside'), '"src/app.ts":2 inside')].join('\n'),
  );
  refused(sb, ['add', '--at', '../outside.txt:1', 'x'], 2, err(`../outside.txt: path is outside the repository ${sb.dir}`, 'name a file inside the working tree'));
  // Such text added by queue add is written as it is (no escape needed) and reads back as text.
  const id = add(sb, '`../outside.txt:1` added');
  assert.ok(sb.read(Q).endsWith(`- [ ] \`../outside.txt:1\` added <!-- kizu:${id} -->\n`));
  assert.deepEqual(queueJson(sb).at(-1), J(id, false, null, null, null, '`../outside.txt:1` added', 7));
});

test('hand-written: control characters (terminal escapes) print as visible \\xNN (C1 as \\uXXXX), in list, done output and the unknown-id hint', () => {
  const sb = repo();
  const raw = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u009b text';
  sb.write({ [Q]: `- [ ] ${raw}\n` });
  const id = hid(raw);
  const shown = '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\u009b text';
  queueOk(sb, ['list'], `[ ] ${id}  ${shown}\n`);
  assert.deepEqual(queueJson(sb), [J(id, false, null, null, null, raw, 1)]); // JSON keeps the text (escaped by JSON itself)
  refused(sb, ['done', 'nope'], 1, err('no queue item with id nope', `the ids in ${Q} are:\n  ${id} [ ] ${shown}`));
  queueOk(sb, ['done', id], `done: [${id}] ${shown}\n`);
  assert.equal(sb.read(Q), `- [x] ${raw}\n`);
});
