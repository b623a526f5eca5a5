// src/output.ts colours: the one decision (git's --color/--no-color, NO_COLOR, a terminal,
// git's color.kizu/color.ui), the first guess from argv, and picocolors loaded only when on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, TS, src } from '../helpers/sandbox.mjs';

const { decideColor, earlyColor, parseColorWhen } = await import(src('output.ts'));

test('parseColorWhen: always/never/auto and git\'s boolean words; a bare --color is always; anything else null', () => {
  const cases = [
    [true, 'always'],
    [undefined, 'always'],
    [false, 'never'],
    ['always', 'always'],
    ['NEVER', 'never'],
    ['auto', 'auto'],
    ['yes', 'always'],
    ['on', 'always'],
    ['1', 'always'],
    ['true', 'always'],
    ['no', 'never'],
    ['off', 'never'],
    ['0', 'never'],
    ['false', 'never'],
    ['sometimes', null],
    ['', null],
  ];
  for (const [v, want] of cases) assert.equal(parseColorWhen(v), want, JSON.stringify(v));
});

test('decideColor: flag, then NO_COLOR, then the terminal, then git\'s answer (asked only on a terminal without flag or NO_COLOR)', async () => {
  const cases = [
    // when, env, isTTY, git's answer, expected, git asked
    ['always', { NO_COLOR: '1' }, false, false, true, false],
    ['never', {}, true, true, false, false],
    ['auto', {}, true, false, true, false],
    ['auto', { TERM: 'dumb' }, true, true, false, false],
    ['auto', {}, false, true, false, false],
    ['auto', { NO_COLOR: '1' }, true, true, true, false],
    [undefined, { NO_COLOR: '1' }, true, true, false, false],
    [undefined, { NO_COLOR: '' }, true, true, true, true],
    [undefined, {}, false, true, false, false],
    [undefined, {}, true, true, true, true],
    [undefined, {}, true, false, false, true],
  ];
  for (const [when, env, isTTY, answer, want, asks] of cases) {
    let asked = 0;
    const got = await decideColor({ when, env, isTTY, gitColor: () => (asked++, answer) });
    const what = JSON.stringify({ when, env, isTTY, answer });
    assert.equal(got, want, what);
    assert.equal(asked, asks ? 1 : 0, what);
  }
  assert.equal(await decideColor({ env: { TERM: 'dumb' }, isTTY: true }), false);
  assert.equal(await decideColor({ env: {}, isTTY: true }), true);
});

test('earlyColor: the last colour flag before --, NO_COLOR and the terminal; no config', () => {
  assert.equal(earlyColor(['node', 'kizu', '--no-color', '--color'], {}, false), true);
  assert.equal(earlyColor(['node', 'kizu', '--color=always', '--no-color'], {}, true), false);
  assert.equal(earlyColor(['node', 'kizu', '--color=auto'], { NO_COLOR: '1' }, true), true);
  assert.equal(earlyColor(['node', 'kizu', 'x', '--', '--color'], {}, false), false);
  assert.equal(earlyColor(['node', 'kizu'], { NO_COLOR: '1' }, true), false);
  assert.equal(earlyColor(['node', 'kizu'], { TERM: 'dumb' }, true), false);
  assert.equal(earlyColor(['node', 'kizu'], {}, true), true);
});

// Prints our formatters next to picocolors' createColors(on); picocolors is required only after
// ours were built, so `loadedBefore` says whether output.ts loaded it.
const PICO = path.join(ROOT, 'node_modules', 'picocolors', 'picocolors.js');
const code = `const { createRequire } = await import('node:module');
const req = createRequire(${JSON.stringify(PICO)});
const { pc, setColors } = await import(${JSON.stringify(src('output.ts'))});
const loadedBefore = Object.keys(req.cache).some((k) => k.includes('picocolors'));
const sample = (c) => Object.keys(c).filter((k) => k !== 'createColors' && k !== 'isColorSupported').sort().map((k) => [k, c[k]('a\\x1b[39mb')]);
const early = { ours: sample(pc), on: pc.isColorSupported, theirs: sample(req(${JSON.stringify(PICO)}).createColors(pc.isColorSupported)) };
setColors(!pc.isColorSupported, false);
const flipped = { ours: sample(pc), on: pc.isColorSupported, theirs: sample(req(${JSON.stringify(PICO)}).createColors(pc.isColorSupported)) };
process.stdout.write(JSON.stringify({ early, flipped, loadedBefore }) + '\\n');`;
const dir = mkdtempSync(path.join(tmpdir(), 'kizu-test-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const script = path.join(dir, 'probe.mjs');
writeFileSync(script, code);

test('colours: the formatters are picocolors\' for the decision, before and after setColors; picocolors is loaded only when on', () => {
  for (const [env, args, on] of [
    [{}, [], false],
    [{}, ['--color'], true],
    [{ NO_COLOR: '1' }, ['--color=always'], true],
    [{}, ['--color=always', '--no-color'], false],
  ]) {
    const r = spawnSync(process.execPath, [...TS, script, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME ?? '/', ...env }, encoding: 'utf8' });
    assert.equal(r.stderr, '');
    const p = JSON.parse(r.stdout);
    const what = JSON.stringify({ env, args });
    assert.equal(p.early.on, on, what);
    assert.equal(p.loadedBefore, on, what);
    assert.deepEqual(p.early.ours, p.early.theirs, what);
    assert.equal(p.flipped.on, !on, what);
    assert.deepEqual(p.flipped.ours, p.flipped.theirs, what);
  }
});
