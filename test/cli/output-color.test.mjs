// Colour by git's rules (src/output.ts decideColor), through the real bin on a pseudo-terminal
// (script(1)) and through pipes: --color[=<when>], --no-color, NO_COLOR, color.ui and
// color.kizu, and the diffs git produces for `snapshot show`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { kizuOk } from '../helpers/expect.mjs';
import { scriptRun } from '../helpers/terminal.mjs';

const ESC = '\x1b[';
// No pager here (its own tests are in output-pager.test.mjs), colour on unless a case says.
const TERM_ENV = { NO_COLOR: undefined, GIT_PAGER: 'cat' };

function repo() {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.write({ 'a.txt': 'a\nb\n' });
  return sb;
}
const BOLD_LINE = /^\x1b\[1m[0-9a-f]{8}\x1b\[22m  a\.txt:2  \x1b\[32m\+1\x1b\[39m \x1b\[31m-0\x1b\[39m  modified\r\n$/;
const PLAIN_LINE = /^[0-9a-f]{8}  a\.txt:2  \+1 -0  modified\r\n$/;

test('colour on a terminal: on by default; off with NO_COLOR, --no-color, --color=never, color.ui=never, color.kizu=false; --color=always wins over them', () => {
  const sb = repo();
  const run = (argv, env = {}) => scriptRun(sb, argv, { env: { ...TERM_ENV, ...env } });
  const on = (r, what) => (assert.equal(r.status, 0, what), assert.match(r.out, BOLD_LINE, what));
  const off = (r, what) => (assert.equal(r.status, 0, what), assert.match(r.out, PLAIN_LINE, what));
  on(run(['hunks']), 'default');
  off(run(['hunks'], { NO_COLOR: '1' }), 'NO_COLOR');
  on(run(['hunks'], { NO_COLOR: '' }), 'empty NO_COLOR');
  off(run(['--no-color', 'hunks']), '--no-color');
  off(run(['hunks', '--no-color']), '--no-color after the command');
  off(run(['hunks', '--color=never']), '--color=never');
  on(run(['--color=auto', 'hunks'], { NO_COLOR: '1' }), '--color=auto is the terminal test');
  off(run(['hunks'], { TERM: 'dumb' }), 'TERM=dumb');
  sb.git('config', 'color.ui', 'never');
  off(run(['hunks']), 'color.ui=never');
  on(run(['hunks', '--color=always']), '--color=always over color.ui=never');
  on(run(['hunks', '--color']), 'bare --color over color.ui=never');
  sb.git('config', 'color.kizu', 'auto');
  on(run(['hunks']), 'color.kizu=auto over color.ui=never');
  sb.git('config', 'color.ui', 'auto');
  sb.git('config', 'color.kizu', 'false');
  off(run(['hunks']), 'color.kizu=false');
  sb.git('config', '--unset', 'color.kizu');
  // `git -c color.ui=never kizu ...` hands the setting over in GIT_CONFIG_PARAMETERS.
  off(run(['hunks'], { GIT_CONFIG_PARAMETERS: "'color.ui'='never'" }), 'git -c color.ui=never');
});

test('colour through a pipe: off by default and with --color=auto; --color and --color=always turn it on; a bare --color does not swallow the command', () => {
  const sb = repo();
  const env = { NO_COLOR: undefined };
  assert.match(kizuOk(sb, ['hunks'], { env }), /^[0-9a-f]{8}  a\.txt:2  \+1 -0  modified\n$/);
  assert.match(kizuOk(sb, ['--color=auto', 'hunks'], { env }), /^[0-9a-f]{8}  a/);
  assert.match(kizuOk(sb, ['--color', 'hunks'], { env }), /^\x1b\[1m[0-9a-f]{8}\x1b\[22m  a\.txt:2  \x1b\[32m\+1/);
  assert.match(kizuOk(sb, ['hunks', '--color=always']), /^\x1b\[1m/);
  assert.match(kizuOk(sb, ['hunks', '--color=yes']), /^\x1b\[1m/);
  const bad = sb.kizu(['--color=sometimes', 'hunks']);
  assert.deepEqual([bad.status, bad.stdout, bad.stderr], [2, '', 'git-kizu: error: --color takes always, never or auto, got "sometimes"\nhint: e.g. git kizu --color=never status\n']);
});

test('colour of git\'s own diff: snapshot show on a terminal colours it only when ours is on (NO_COLOR, --no-color, color.ui=never turn it off)', () => {
  const sb = repo();
  const snap = JSON.parse(kizuOk(sb, ['snapshot', '--json'])).name;
  sb.write({ 'a.txt': 'a\nb\nc\n' });
  const run = (argv, env = {}) => scriptRun(sb, ['snapshot', 'show', snap, ...argv], { env: { ...TERM_ENV, ...env } });
  const added = '+c\r\n';
  const coloured = `${ESC}32m+${ESC}m${ESC}32mc${ESC}m\r\n`;
  const def = run([]);
  assert.equal(def.status, 0);
  assert.ok(def.out.includes(coloured), JSON.stringify(def.out));
  for (const [what, r] of [
    ['NO_COLOR', run([], { NO_COLOR: '1' })],
    ['--no-color', run(['--no-color'])],
    ['--color=never', run(['--color=never'])],
  ]) {
    assert.equal(r.status, 0, what);
    assert.ok(r.out.includes(`\r\n${added}`) && !r.out.includes(ESC), `${what}: ${JSON.stringify(r.out)}`);
  }
  sb.git('config', 'color.ui', 'never');
  const cfg = run([]);
  assert.ok(cfg.out.includes(`\r\n${added}`) && !cfg.out.includes(ESC), JSON.stringify(cfg.out));
  // Through a pipe with --color=always, git's diff is coloured too.
  assert.ok(kizuOk(sb, ['snapshot', 'show', snap, '--color=always']).includes(`${ESC}32m+${ESC}m${ESC}32mc${ESC}m\n`));
});
