// Every writer of scars takes the scars lock: `git kizu revert -m` (which writes a scar with
// the revert) and `git kizu scar` run at the same time on one file both land, and both scars
// are recorded for `scar --undo`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';

const ROUNDS = 4;
const lines = Array.from({ length: 40 }, (_, i) => `v${i + 1} = ${i + 1}\n`);

test('revert -m and scar at the same time on one file: the revert, its scar and the other scar all land and are recorded', async () => {
  const files = {};
  for (let k = 0; k < ROUNDS; k++) files[`r${k}.py`] = lines.join('');
  const sb = sandbox({ files });
  for (let k = 0; k < ROUNDS; k++) writeFileSync(sb.path(`r${k}.py`), lines.map((l, i) => (i === 29 ? 'v30 = 300\n' : l)).join(''));
  const hunks = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  for (let k = 0; k < ROUNDS; k++) {
    const file = `r${k}.py`;
    const h = hunks.find((x) => x.path === file);
    const [rev, scar] = await Promise.all([sb.kizuAsync(['revert', h.shortId, '-m', `keep v30 in ${k}`]), sb.kizuAsync(['scar', `${file}:3`, '-k', 'free', '-m', `note ${k}`])]);
    assert.equal(rev.status, 0, `revert, round ${k}: ${rev.stderr}`);
    assert.equal(scar.status, 0, `scar, round ${k}: ${scar.stderr}`);
    const want = [...lines];
    want.splice(29, 0, '# @kizu[reject]: reverted: keep v30 in ' + k + '\n');
    want.splice(2, 0, `# @kizu[free]: note ${k}\n`);
    assert.equal(sb.read(file), want.join(''), `round ${k}`);
  }
  const records = JSON.parse(sb.read('.git/kizu/scars.json'));
  assert.deepEqual(records.map((r) => r.text).sort(), Array.from({ length: ROUNDS }, (_, k) => [`# @kizu[free]: note ${k}`, `# @kizu[reject]: reverted: keep v30 in ${k}`]).flat().sort());
});

test('ten scar processes started at once on one file: each scar lands directly above the line its command named', async () => {
  const src = Array.from({ length: 25 }, (_, i) => `v${i + 1} = ${i + 1}\n`);
  const sb = sandbox({ files: { 'a.py': src.join('') } });
  const targets = [2, 3, 5, 8, 9, 13, 17, 20, 25, 26];
  const runs = await Promise.all(targets.map((n) => sb.kizuAsync(['scar', `a.py:${n}`, '-k', 'free', '-m', `at ${n}`])));
  runs.forEach((r, k) => assert.equal(r.status, 0, `scar a.py:${targets[k]}: ${r.stderr}`));
  const want = [];
  for (let n = 1; n <= src.length + 1; n++) {
    if (targets.includes(n)) want.push(`# @kizu[free]: at ${n}\n`);
    if (n <= src.length) want.push(src[n - 1]);
  }
  assert.equal(sb.read('a.py'), want.join(''));
  // Each run reports the line its scar has in the file after its own write.
  for (const [k, r] of runs.entries()) assert.match(r.stdout, new RegExp(`^scarred a\\.py:\\d+  # @kizu\\[free\\]: at ${targets[k]}\\n$`));
  const records = JSON.parse(sb.read('.git/kizu/scars.json'));
  assert.deepEqual(records.map((r) => r.text).sort(), targets.map((n) => `# @kizu[free]: at ${n}`).sort());
});

test('scar and unscar processes started at once on one file: each removes or writes at the line its command named', async () => {
  const seen = Array.from({ length: 24 }, (_, i) => `v${i + 1} = ${i + 1}\n`);
  const old = [5, 12, 20];
  for (const n of old) seen[n - 1] = `# @kizu[ask]: old ${n}\n`;
  const sb = sandbox({ files: { 'a.py': seen.join('') } });
  const added = [2, 6, 11, 13, 19, 24, 25];
  const runs = await Promise.all([
    ...old.map((n) => sb.kizuAsync(['unscar', `a.py:${n}`])),
    ...added.map((n) => sb.kizuAsync(['scar', `a.py:${n}`, '-k', 'free', '-m', `at ${n}`])),
  ]);
  runs.forEach((r, k) => assert.equal(r.status, 0, `run ${k}: ${r.stderr}`));
  const want = [];
  for (let n = 1; n <= seen.length + 1; n++) {
    if (added.includes(n)) want.push(`# @kizu[free]: at ${n}\n`);
    if (n <= seen.length && !old.includes(n)) want.push(seen[n - 1]);
  }
  assert.equal(sb.read('a.py'), want.join(''));
});
