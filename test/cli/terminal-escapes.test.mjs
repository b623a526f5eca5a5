// Terminal injection (issue 22): text from the repository (file names, scar bodies, queue
// items, snapshot messages) reaches the human's terminal with its escape sequences (ESC,
// CSI, OSC 8 links, OSC 52 clipboard writes), other controls and bidi overrides escaped by
// the one escape, src/printable.ts; only our own colours pass. JSON stays JSON with the same value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { terminalLine, printable } from '../../src/printable.ts';

const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07'; // writes "rm -rf ~" to the clipboard
const NAME = 'e\x1b[2Jv\u202eil.js'; // clears the screen; the bidi override reverses what follows

function hostile() {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': `const a = 1;\n// @kizu[ask]: copy ${OSC52} this \u2066now\n`, [NAME]: 'y\n' });
  return sb;
}

const assertInert = (out) => assert.doesNotMatch(out, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, JSON.stringify(out));

test('status and scan: a scar body with OSC 52 and a bidi isolate is shown escaped', () => {
  const sb = hostile();
  const st = sb.kizu(['status']);
  assertInert(st.stdout);
  assert.ok(st.stdout.includes('  a.js:2  [ask]  copy \\x1b]52;c;cm0gLXJmIH4=\\x07 this \\u2066now  (found: in the working tree, not written through git kizu here)\n'), st.stdout);
  const scan = sb.kizu(['scan']);
  assert.equal(scan.stdout, 'a.js:2  [ask]  copy \\x1b]52;c;cm0gLXJmIH4=\\x07 this \\u2066now\n');
  // JSON: the same value, valid JSON.
  const json = JSON.parse(sb.kizu(['scan', '--json']).stdout);
  assert.equal(json[0].body, `copy ${OSC52} this \u2066now`);
  // Colours on: our SGR stays, the body's escapes do not.
  const colour = sb.kizu(['scan', '--color=always']);
  assert.equal(colour.stdout, '\x1b[1ma.js:2\x1b[22m  \x1b[36m[ask]\x1b[39m  copy \\x1b]52;c;cm0gLXJmIH4=\\x07 this \\u2066now\n');
});

test('hunks and status: a file name with ESC and a bidi override, core.quotePath false', () => {
  const sb = hostile();
  sb.git('config', 'core.quotePath', 'false');
  const h = sb.kizu(['hunks']);
  assertInert(h.stdout);
  assert.match(h.stdout, /^[0-9a-f]{8} {2}"e\\033\[2Jv\\u202eil\.js":1 {2}\+1 -0 {2}untracked$/m);
  const json = JSON.parse(sb.kizu(['hunks', '--json']).stdout);
  assert.deepEqual(json.map((x) => x.path).sort(), ['a.js', NAME]);
});

test('snapshot list and show: a message with an OSC 8 link and a bidi override is shown escaped', () => {
  const sb = hostile();
  const msg = 'fix \x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\ \u202eend';
  const made = sb.kizu(['snapshot', '-m', msg]);
  assert.equal(made.status, 0, made.stderr);
  const name = /^snapshot (\S+):/.exec(made.stdout)[1];
  const list = sb.kizu(['snapshot', 'list']).stdout;
  assertInert(list);
  assert.equal(list, `${name}  manual  2 files  fix \\x1b]8;;https://evil.example\\x1b\\docs\\x1b]8;;\\x1b\\ \\u202eend\n`);
  const show = sb.kizu(['snapshot', 'show', name]).stdout;
  assertInert(show);
  assert.ok(show.includes('message:  fix \\x1b]8;;https://evil.example\\x1b\\docs\\x1b]8;;\\x1b\\ \\u202eend\n'), show);
  assert.equal(JSON.parse(sb.kizu(['snapshot', 'list', '--json']).stdout)[0].message, msg);
});

test('the one escape: C0 as \\xNN (tab kept), DEL, C1 and bidi as \\uXXXX; idempotent; only SGR passes the Reporter, and only with colours', () => {
  assert.equal(printable('a\tb\nc\rd\x1b[2J\x7f\x9b\u202e\u2067\u200f\u061c\u2028'), 'a\tb\\x0ac\\x0dd\\x1b[2J\\u007f\\u009b\\u202e\\u2067\\u200f\\u061c\\u2028');
  assert.equal(printable(printable('x\x1b\u202e')), printable('x\x1b\u202e'));
  assert.equal(terminalLine('\x1b[31mred\x1b[39m \x1b]0;t\x07\nnext', true), '\x1b[31mred\x1b[39m \\x1b]0;t\\x07\nnext');
  assert.equal(terminalLine('\x1b[31mred\x1b[39m', false), '\\x1b[31mred\\x1b[39m');
  // A JSON line stays JSON with the same value.
  const v = { s: 'a\u202eb\x9bc\x7f' };
  assert.deepEqual(JSON.parse(terminalLine(JSON.stringify(v), false)), v);
});

test('the pre-commit refusal on the human\'s terminal: a staged scar body is escaped', async () => {
  const { BIN } = await import('../helpers/sandbox.mjs');
  const sb = hostile();
  sb.git('add', 'a.js');
  const r = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(r.status, 1);
  assertInert(r.stderr);
  assert.ok(r.stderr.includes('  "a.js":2  [ask]  copy \\x1b]52;c;cm0gLXJmIH4=\\x07 this \\u2066now\n'), r.stderr);
});
