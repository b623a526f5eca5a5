// `git kizu demo` runs the main loop for real, end to end, through the real bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, lstatSync, readlinkSync, readFileSync, mkdirSync, writeFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';

test('git kizu demo runs every step to the end and cleans up its temp repo', () => {
  const sb = sandbox({ init: false });
  const tmp = sb.path('../tmp');
  sb.run('mkdir', ['-p', tmp]);
  const r = sb.kizu(['demo'], { env: { TMPDIR: tmp } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const headers = r.stdout.split('\n').filter((l) => /^\[\d\/7\]/.test(l));
  assert.deepEqual(headers, [
    '[1/7] git kizu init --agent claude: install the Claude Code hooks and the pre-commit hook',
    '[2/7] the agent edits a file',
    '[3/7] you scar the changed line: git kizu scar src/greet.js:2',
    '[4/7] the agent tries to stop: the Stop hook blocks it',
    '[5/7] the agent answers and deletes the scar line: git kizu unscar src/greet.js:2',
    '[6/7] the agent tries to stop again: allowed',
    '[7/7] a scar that gets staged is refused by the pre-commit hook',
  ]);
  assert.ok(r.stdout.includes('    > - "src/greet.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n'));
  assert.ok(r.stdout.includes('    git commit exited 1: refused\n'));
  assert.ok(r.stdout.endsWith('Next: run `git kizu init` in your own repository (see README, Quickstart).\n'));
  assert.deepEqual(readdirSync(tmp), []);
});

test('git kizu demo --keep keeps the repo and says where', () => {
  const sb = sandbox({ init: false });
  const tmp = sb.path('../tmp2');
  sb.run('mkdir', ['-p', tmp]);
  const r = sb.kizu(['demo', '--keep'], { env: { TMPDIR: tmp } });
  assert.equal(r.status, 0, r.stderr);
  const kept = readdirSync(tmp);
  assert.equal(kept.length, 1);
  assert.ok(r.stdout.endsWith(`demo repo kept at ${tmp}/${kept[0]}/repo\n`), r.stdout.slice(-200));
});

/** Every path under `dir` (relative, sorted) with its contents (files), link target or "dir". */
function tree(dir) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = path.join(rel, name);
      const p = path.join(dir, r);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.push(`${r} -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.push(`${r}/`);
        walk(r);
      } else out.push(`${r}: ${readFileSync(p, 'utf8')}`);
    }
  };
  walk('');
  return out;
}

test('git kizu demo writes nothing under HOME, whichever agents the home directory holds', () => {
  const sb = sandbox({ init: false });
  const tmp = sb.path('../tmp3');
  mkdirSync(tmp);
  const codexReal = sb.path('../codex-real');
  mkdirSync(codexReal);
  writeFileSync(path.join(codexReal, 'config.toml'), 'model = "o3"\n');
  symlinkSync(codexReal, path.join(sb.home, '.codex'));
  mkdirSync(path.join(sb.home, '.gemini'));
  writeFileSync(path.join(sb.home, '.gemini', 'settings.json'), '{}\n');
  mkdirSync(path.join(sb.home, '.copilot'));
  mkdirSync(path.join(sb.home, '.claude'));
  mkdirSync(path.join(sb.home, '.cursor'));
  const before = tree(sb.home);
  const codexBefore = tree(codexReal);
  const r = sb.kizu(['demo'], { env: { TMPDIR: tmp } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(tree(sb.home), before);
  assert.deepEqual(tree(codexReal), codexBefore);
  assert.deepEqual(codexBefore, ['config.toml: model = "o3"\n']);
  assert.deepEqual(readdirSync(tmp), []);
});
