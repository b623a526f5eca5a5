// Paths in text output quoted as git quotes them (src/git/quote.ts): the same string as
// `git ls-files` prints for a name with a tab, a newline, a quote, a backslash or UTF-8, with
// core.quotePath true (the default) and false; --json keeps the raw path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { kizuOk } from '../helpers/expect.mjs';
import { agentWrite } from '../helpers/journal.mjs';

const TAB = 'tab\there.py';
const NL = 'new\nline.py';
const QB = 'q"uo\\te.py';
const UTF = 'été.py';

/** git's own line for `name` in `git ls-files` (with `-c` settings). */
const lsFiles = (sb, name, ...c) => sb.git(...c, 'ls-files', '--', `:(literal)${name}`).replace(/\n$/, '');

function repo() {
  const sb = sandbox({ files: { 'a.py': 'a = 1\n' } });
  for (const n of [TAB, NL, QB, UTF]) sb.write({ [n]: 'x = 1\n' });
  sb.git('add', '-A');
  return sb;
}

test('quoting: hunks, scar, scan and status print each path as git ls-files does; hunks --json keeps it raw', () => {
  const sb = repo();
  const q = Object.fromEntries([TAB, NL, QB, UTF].map((n) => [n, lsFiles(sb, n)]));
  assert.deepEqual(Object.values(q), ['"tab\\there.py"', '"new\\nline.py"', '"q\\"uo\\\\te.py"', '"\\303\\251t\\303\\251.py"']);
  const hunks = kizuOk(sb, ['hunks']).split('\n').filter(Boolean);
  const ranges = hunks.map((l) => l.split('  ')[1]);
  assert.deepEqual(ranges.sort(), [TAB, NL, QB, UTF].map((n) => `${q[n]}:1`).sort());
  assert.deepEqual(JSON.parse(kizuOk(sb, ['hunks', '--json'])).map((h) => h.path).sort(), [TAB, NL, QB, UTF].sort());
  assert.equal(kizuOk(sb, ['scar', `${TAB}:1`]), `scarred ${q[TAB]}:1  # @kizu[ask]: explain this change\n`);
  assert.equal(kizuOk(sb, ['scar', `${UTF}:1`]), `scarred ${q[UTF]}:1  # @kizu[ask]: explain this change\n`);
  const scan = sb.kizu(['scan']);
  assert.equal(scan.status, 1);
  assert.equal(scan.stdout, `${q[TAB]}:1  [ask]  explain this change\n\n${q[UTF]}:1  [ask]  explain this change\n`);
  const status = sb.kizu(['status']).stdout.split('\n');
  assert.ok(status.includes(`  ${q[TAB]}:1  [ask]  explain this change`), status.join('\n'));
  assert.ok(status.includes(`  ${q[UTF]}:1  [ask]  explain this change`), status.join('\n'));
  assert.equal(kizuOk(sb, ['unscar', UTF]), `removed ${q[UTF]}:1  # @kizu[ask]: explain this change\n`);
});

test('quoting: with core.quotePath false, UTF-8 is printed as is (as git does) but a tab is still escaped', () => {
  const sb = repo();
  sb.git('config', 'core.quotePath', 'false');
  assert.equal(lsFiles(sb, UTF), UTF);
  const hunks = kizuOk(sb, ['hunks']).split('\n').filter(Boolean).map((l) => l.split('  ')[1]);
  assert.ok(hunks.includes(`${UTF}:1`), hunks.join('\n'));
  assert.ok(hunks.includes(`${lsFiles(sb, TAB)}:1`), hunks.join('\n'));
  // `git -c` reaches git-kizu too (GIT_CONFIG_PARAMETERS).
  const again = sb.git('-c', 'core.quotePath=true', 'kizu', 'hunks').split('\n').filter(Boolean).map((l) => l.split('  ')[1]);
  assert.ok(again.includes(`${lsFiles(sb, UTF, '-c', 'core.quotePath=true')}:1`), again.join('\n'));
});

test('quoting: tap, marks list, revert and journal lines quote the path', () => {
  const sb = sandbox({ files: { [TAB]: 'x = 1\n' } });
  sb.write({ [TAB]: 'x = 2\n' });
  const q = lsFiles(sb, TAB);
  const [h] = JSON.parse(kizuOk(sb, ['hunks', '--json']));
  assert.equal(kizuOk(sb, ['tap', h.shortId]), `tapped ${h.shortId} ${q}:1\n`);
  assert.match(kizuOk(sb, ['marks', 'list']), new RegExp(`^tapped ${h.id} ${q.replace(/[\\"]/g, (c) => `\\${c}`)}:1  `));
  const rev = kizuOk(sb, ['revert', h.shortId]).split('\n');
  assert.equal(rev[0], `reverted ${h.shortId}  ${q}:1`);
  assert.match(rev[1], new RegExp(`^saved the previous ${q.replace(/[\\"]/g, (c) => `\\${c}`)} in refs/kizu/reverts; `));
  const e = agentWrite(sb, UTF, 'y = 1\n');
  const line = kizuOk(sb, ['journal']).split('\n')[0];
  assert.match(line, /^[0-9a-f]{4,}  \S+  Write "\\303\\251t\\303\\251\.py"  \+1 -0/);
  assert.equal(JSON.parse(kizuOk(sb, ['journal', '--json']))[0].files[0].path, e.files[0].path);
});
