// src/output.ts colours: picocolors is loaded only when colours can be on, and the formatters
// behave exactly like picocolors' own in every environment (env, argv, terminal or pipe).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, TS, src } from '../helpers/sandbox.mjs';

const PICO = path.join(ROOT, 'node_modules', 'picocolors', 'picocolors.js');

// Prints ours and picocolors' answers; picocolors is required only after ours was built.
const code = `const { createRequire } = await import('node:module');
const req = createRequire(${JSON.stringify(PICO)});
const { pc } = await import(${JSON.stringify(src('output.ts'))});
const loadedBefore = Object.keys(req.cache).some((k) => k.includes('picocolors'));
const theirs = req(${JSON.stringify(PICO)});
const sample = (c) => Object.keys(c).filter((k) => k !== 'createColors').sort().map((k) => [k, typeof c[k] === 'function' ? c[k]('a\\x1b[39mb') : c[k]]);
process.stdout.write(JSON.stringify({ ours: sample(pc), theirs: sample(theirs), supported: pc.isColorSupported, loadedBefore }) + '\\n');`;

const dir = mkdtempSync(path.join(tmpdir(), 'kizu-test-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const script = path.join(dir, 'probe.mjs');
writeFileSync(script, code);

function probe(env, args = []) {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME ?? '/' };
  const r = spawnSync(process.execPath, [...TS, script, ...args], { env: { ...base, ...env }, encoding: 'utf8' });
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
}

test('colours: same formatters as picocolors for NO_COLOR, FORCE_COLOR, CI, TERM=dumb, --color, --no-color; picocolors loaded only when on', () => {
  const cases = [
    [{}, [], false],
    [{ NO_COLOR: '1' }, [], false],
    [{ FORCE_COLOR: '1' }, [], true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, [], false],
    [{ FORCE_COLOR: '0' }, [], true],
    [{ CI: '1' }, [], true],
    [{ CI: '1', TERM: 'dumb' }, [], true],
    [{}, ['--color'], true],
    [{ FORCE_COLOR: '1' }, ['--no-color'], false],
  ];
  for (const [env, args, on] of cases) {
    const p = probe(env, args);
    const what = JSON.stringify({ env, args });
    assert.deepEqual(p.ours, p.theirs, what);
    assert.equal(p.supported, on, what);
    assert.equal(p.loadedBefore, on, what);
  }
});

test('colours: a terminal on stdout turns them on unless TERM=dumb (run under script(1))', { skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1)' }, () => {
  for (const [term, on] of [
    ['xterm', true],
    ['dumb', false],
  ]) {
    const r = spawnSync('script', ['-qec', `'${process.execPath}' ${TS.join(' ')} '${script}'`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME ?? '/', TERM: term },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const p = JSON.parse(r.stdout.trim().split('\n').pop());
    assert.deepEqual(p.ours, p.theirs, term);
    assert.equal(p.supported, on, term);
  }
});
