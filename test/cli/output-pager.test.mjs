// Long output through git's pager rules (src/pager.ts, the PAGED set in src/cli/program.ts):
// on a terminal (script(1)) the pager that `git var GIT_PAGER` names reads the output, with
// LESS=FRX and LV=-c unless set; --no-pager, a pipe, --json, `cat` and commands that print
// little do without it; a pager that quits early or cannot run costs no exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { kizuOk } from '../helpers/expect.mjs';
import { scriptRun } from '../helpers/terminal.mjs';

/** A repository with one hunk and a pager script that records its env and input in `<base>/<name>.out`. */
function repo() {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.write({ 'a.txt': 'a\nb\n' });
  const pager = path.join(sb.base, 'rec-pager');
  writeFileSync(pager, '#!/bin/sh\n{ echo "LESS=$LESS LV=$LV IN_USE=$GIT_PAGER_IN_USE"; cat; } > "$1"\n');
  chmodSync(pager, 0o755);
  const rec = (name) => `${pager} ${path.join(sb.base, `${name}.out`)}`;
  const got = (name) => {
    const f = path.join(sb.base, `${name}.out`);
    return existsSync(f) ? readFileSync(f, 'utf8') : null;
  };
  return { sb, rec, got };
}
const HUNK = /^[0-9a-f]{8}  a\.txt:2  \+1 -0  modified$/;
const run = (sb, argv, env = {}) => scriptRun(sb, argv, { env: { NO_COLOR: '1', ...env } });

test('pager: a listing on a terminal goes to GIT_PAGER with LESS=FRX and LV=-c; a LESS of the user\'s is kept', () => {
  const { sb, rec, got } = repo();
  const r = run(sb, ['hunks'], { GIT_PAGER: rec('one') });
  assert.equal(r.status, 0);
  assert.equal(r.out, '');
  const [env, line, end] = got('one').split('\n');
  assert.equal(env, 'LESS=FRX LV=-c IN_USE=true');
  assert.match(line, HUNK);
  assert.equal(end, '');
  assert.equal(run(sb, ['hunks'], { GIT_PAGER: rec('two'), LESS: 'R', LV: '-x' }).status, 0);
  assert.equal(got('two').split('\n')[0], 'LESS=R LV=-x IN_USE=true');
  // scan keeps its exit code (1: scars found) when paged.
  sb.write({ 'b.py': '# @kizu[ask]: why\n' });
  const scan = run(sb, ['scan'], { GIT_PAGER: rec('scan') });
  assert.equal(scan.status, 1);
  assert.equal(got('scan').split('\n')[1], 'b.py:1  [ask]  why');
});

test('pager: git\'s order decides: the user\'s core.pager over PAGER, PAGER alone, GIT_PAGER over core.pager', () => {
  const { sb, rec, got } = repo();
  sb.git('config', '--global', 'core.pager', rec('core'));
  assert.equal(run(sb, ['status'], { GIT_PAGER: undefined, PAGER: rec('pager') }).status, 0);
  assert.match(got('core'), /^LESS=FRX LV=-c IN_USE=true\nbaseline  HEAD /);
  assert.equal(got('pager'), null);
  sb.git('config', '--global', '--unset', 'core.pager');
  run(sb, ['journal'], { GIT_PAGER: undefined, PAGER: rec('pager') });
  assert.match(got('pager'), /\nno journal entries /);
  sb.git('config', '--global', 'core.pager', rec('core2'));
  run(sb, ['hunks'], { GIT_PAGER: rec('git-pager') });
  assert.match(got('git-pager').split('\n')[1], HUNK);
  assert.equal(got('core2'), null);
});

test('pager: core.pager from the repository\'s own config (which the agent can write: a filter could hide lines from the reviewer) is not used, nor through an include', () => {
  const { sb, rec, got } = repo();
  sb.git('config', 'core.pager', rec('local'));
  writeFileSync(sb.path('inc.cfg'), `[core]\n\tpager = ${rec('included')}\n`);
  run(sb, ['status'], { GIT_PAGER: undefined, PAGER: rec('pager') });
  assert.equal(got('local'), null);
  assert.match(got('pager'), /^LESS=FRX LV=-c IN_USE=true\nbaseline  HEAD /);
  sb.git('config', '--unset', 'core.pager');
  sb.git('config', 'include.path', sb.path('inc.cfg'));
  run(sb, ['hunks'], { GIT_PAGER: undefined, PAGER: rec('pager2') });
  assert.equal(got('included'), null);
  assert.match(got('pager2').split('\n')[1], HUNK);
});

test('pager: none with --no-pager, through a pipe, with --json, for GIT_PAGER=cat or empty, and for a command that prints one line', () => {
  const { sb, rec, got } = repo();
  const direct = (r, what) => {
    assert.equal(r.status, 0, what);
    assert.match(r.out.replace(/\r\n$/, ''), HUNK, what);
  };
  direct(run(sb, ['--no-pager', 'hunks'], { GIT_PAGER: rec('a') }), '--no-pager');
  direct(run(sb, ['hunks', '--no-pager'], { GIT_PAGER: rec('a') }), '--no-pager after the command');
  direct(run(sb, ['hunks'], { GIT_PAGER: 'cat' }), 'cat');
  direct(run(sb, ['hunks'], { GIT_PAGER: '' }), 'empty');
  assert.match(kizuOk(sb, ['hunks'], { env: { GIT_PAGER: rec('a') } }), /^[0-9a-f]{8}  a\.txt:2/);
  const json = run(sb, ['hunks', '--json'], { GIT_PAGER: rec('a') });
  assert.equal(JSON.parse(json.out)[0].path, 'a.txt');
  assert.match(run(sb, ['baseline'], { GIT_PAGER: rec('a') }).out, /^baseline: HEAD [0-9a-f]{40}\r\n$/);
  assert.equal(got('a'), null);
});

test('pager: one that quits without reading a long listing, or cannot run, leaves the command its exit code', () => {
  const { sb } = repo();
  // About 200 KB of hunk lines: more than a pipe holds, so writes fail once the pager is gone.
  const files = {};
  for (let k = 0; k < 3000; k++) files[`dir/file-with-a-long-name-${k}.txt`] = `${k}\n`;
  sb.write(files);
  const quit = run(sb, ['hunks'], { GIT_PAGER: 'true' });
  assert.deepEqual([quit.status, quit.out], [0, '']);
  const missing = run(sb, ['hunks'], { GIT_PAGER: 'no-such-pager-kizu' });
  assert.equal(missing.status, 0);
  assert.match(missing.out, /no-such-pager-kizu: (\d+: )?not found\r\n/);
  assert.match(missing.out, /git-kizu: warning: the pager "no-such-pager-kizu" could not run \(exit 127\), so the output was lost \(fix GIT_PAGER, core\.pager or PAGER, or run with --no-pager\)\r\n$/);
});
