// Config a gate can trust (issue 22): the keys that can weaken review (src/config/gate-keys.ts)
// take effect only from the committed config (HEAD). A working-tree config (untracked, ignored,
// modified, staged) that changes them is not applied for them and is named, with the fix, by
// the Stop hook's message to the user, the pre-commit guard, status and doctor; a committed
// config that weakens review is named by init, doctor and status. Real repositories, the real bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox, src } from '../helpers/sandbox.mjs';
import { stopPayload } from '../helpers/hooks.mjs';
import { commitConfig } from '../helpers/config.mjs';

const SCAR = '// @kizu[ask]: why this?\n';
const BLOCK_START = 'git-kizu: a human reviewer left 1 scar that is still unresolved.';

/** A repository with a committed a.js, then a scar added to it (uncommitted). */
function scarred(files = {}) {
  const sb = sandbox({ files: { 'a.js': 'x\n', ...files } });
  sb.write({ 'a.js': `${SCAR}x\n` });
  return sb;
}

const notApplied = (what, keys, fix, used = 'the defaults are used: nothing is committed') =>
  `git-kizu: ${what}, so its ${keys.includes(',') ? 'changes' : 'change'} to ${keys} ${keys.includes(',') ? 'are' : 'is'} not applied (${used}); commit it to apply it: ${fix}`;

test('exclude "**" in an ignored, uncommitted .kizurc.json no longer silences the Stop hook, the guard, scan --all and status; each names it with the fix', () => {
  const sb = scarred();
  sb.write({ '.kizurc.json': '{"scan": {"exclude": ["**"]}, "review": {"keys": {"skip": "n"}}}\n' });
  appendFileSync(sb.path('.git/info/exclude'), '.kizurc.json\n');
  const msg = notApplied('.kizurc.json is ignored by git and not committed', 'scan.exclude, review.keys', 'git add -f -- .kizurc.json && git commit');

  const stop = JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout);
  assert.equal(stop.decision, 'block');
  assert.ok(stop.reason.startsWith(BLOCK_START), stop.reason);
  assert.equal(stop.systemMessage, msg);

  const scan = sb.kizu(['scan', '--all']);
  assert.deepEqual([scan.status, scan.stdout, scan.stderr], [1, 'a.js:1  [ask]  why this?\n', '']);

  const status = sb.kizu(['status']);
  assert.equal(status.status, 1);
  const lines = status.stdout.split('\n');
  assert.deepEqual(lines.slice(2, 4), ['scars     1', '  a.js:1  [ask]  why this?']);
  assert.ok(lines.includes(`config    ${msg.slice('git-kizu: '.length)}`), status.stdout);

  const doctor = sb.kizu(['doctor']);
  assert.ok(doctor.stdout.includes(`fix  config: ${msg.slice('git-kizu: '.length).replace('; commit it to apply it', '; fix: commit it to apply it')}\n`), doctor.stdout);

  sb.git('add', 'a.js');
  const guard = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(guard.status, 1);
  assert.deepEqual(guard.stderr.split('\n').slice(0, 3), [msg, 'git-kizu: commit refused: 1 unresolved scar is staged:', '  "a.js":1  [ask]  why this?']);
});

test('the same through a modified package.json "kizu" key and an untracked .kizurc.yaml; a key that cannot weaken review still applies', () => {
  const pkg = scarred({ 'package.json': '{"name": "x"}\n' });
  pkg.write({ 'package.json': JSON.stringify({ name: 'x', kizu: { scan: { maxFileBytes: 1 }, stop: { maxBlocks: 1 } } }) });
  const scan = pkg.kizu(['scan', '--all']);
  assert.deepEqual([scan.status, scan.stdout, scan.stderr], [1, 'a.js:1  [ask]  why this?\n', '']);
  const stop = JSON.parse(hook(pkg, 'stop', stopPayload(pkg, false)).stdout);
  assert.equal(stop.systemMessage, notApplied('package.json differs from the committed one (HEAD)', 'stop.maxBlocks, scan.maxFileBytes', 'git add -- package.json && git commit'));
  // maxBlocks 1 is not applied: the second stop without progress is still blocked (default 3).
  assert.equal(JSON.parse(hook(pkg, 'stop', stopPayload(pkg, true)).stdout).decision, 'block');

  const yaml = scarred();
  yaml.write({ '.kizurc.yaml': 'scan:\n  exclude: ["*.js"]\nscar:\n  syntax:\n    js: "/* */"\n' });
  const y = yaml.kizu(['scan', '--all']);
  assert.deepEqual([y.status, y.stdout, y.stderr], [1, 'a.js:1  [ask]  why this?\n', '']);
  assert.ok(yaml.kizu(['status']).stdout.includes(`config    ${notApplied('.kizurc.yaml is not committed', 'scan.exclude', 'git add -- .kizurc.yaml && git commit').slice(10)}\n`));
  // scar.syntax is not a gate key: it applies from the working tree.
  yaml.write({ 'b.js': 'y\n' });
  const scar = yaml.kizu(['scar', 'b.js:1']);
  assert.deepEqual([scar.status, scar.stdout], [0, 'scarred b.js:1  /* @kizu[ask]: explain this change */\n']);
});

test('a committed config applies (after the commit); the commit that weakens it is itself checked by the guard with the config it replaces', () => {
  const sb = scarred();
  sb.write({ '.kizurc.json': '{"scan": {"exclude": ["a.js"]}}\n' });
  sb.git('add', '.kizurc.json', 'a.js');
  // Staged, not committed: HEAD's (no) exclusion holds for the commit that brings it.
  const guard = sb.run(process.execPath, [BIN, 'hook', 'pre-commit']);
  assert.equal(guard.status, 1);
  assert.deepEqual(guard.stderr.split('\n').slice(0, 2), [
    notApplied('.kizurc.json is not committed', 'scan.exclude', 'git add -- .kizurc.json && git commit'),
    'git-kizu: commit refused: 1 unresolved scar is staged:',
  ]);
  sb.git('reset', '-q', 'a.js');
  sb.git('commit', '-q', '-m', 'exclude a.js');
  const scan = sb.kizu(['scan', '--all']);
  assert.deepEqual([scan.status, scan.stdout, scan.stderr], [0, '', '']);
  assert.equal(hook(sb, 'stop', stopPayload(sb, false)).stdout, '');
});

test('a committed config that weakens review is named by init, doctor and status (a finding, not a refusal)', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  commitConfig(sb, { '.kizurc.json': '{"scan": {"exclude": ["**"]}, "stop": {"maxBlocks": 1}}\n' });
  const finding =
    'the committed .kizurc.json weakens review: stop.maxBlocks 1 (default 3): the agent may stop sooner over unresolved review; scan.exclude ["**"]: scars in matching files never block the agent or a commit';
  const fix = 'if that is not wanted, change .kizurc.json and commit it';
  const init = sb.kizu(['init', '--agent', 'claude']);
  assert.equal(init.status, 0, init.stderr);
  assert.ok(init.stdout.endsWith(`note: ${finding}; ${fix}\n`), init.stdout);
  const status = sb.kizu(['status']);
  assert.equal(status.status, 0);
  assert.ok(status.stdout.includes(`\nconfig    ${finding}; ${fix}\n`), status.stdout);
  const doctor = sb.kizu(['doctor', '--json']);
  const checks = JSON.parse(doctor.stdout).checks.filter((c) => c.name === 'config');
  assert.deepEqual(checks, [
    { name: 'config', ok: true, detail: 'valid (or none: the defaults)' },
    { name: 'config', ok: true, detail: `${finding} (${fix})` },
  ]);
});

test('every config key is classified: gate or not (src/config/gate-keys.ts)', async () => {
  const { CONFIG_KEYS } = await import(src('config/gate-keys.ts'));
  const { defaultConfig } = await import(src('config/config.ts'));
  const units = new Set(['scar.bodies', 'scar.syntax', 'review.keys', ...CONFIG_KEYS.filter((k) => k.key.startsWith('retention.') && k.key !== 'retention.auto').map((k) => k.key)]);
  const leaves = [];
  const walk = (o, prefix) => {
    for (const [k, v] of Object.entries(o)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (key === 'filepath') continue;
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && !units.has(key)) walk(v, key);
      else leaves.push(key);
    }
  };
  walk(defaultConfig(), '');
  assert.deepEqual(CONFIG_KEYS.map((k) => k.key).sort(), leaves.sort());
  assert.deepEqual(CONFIG_KEYS.filter((k) => !k.gate).map((k) => k.key), ['stop.maxFiles', 'scar.syntax']);
});

test('a committed config deleted from the working tree is named by status and doctor (the hooks then use the defaults)', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n', '.kizurc.json': '{"stop": {"requireReview": true}}\n' } });
  sb.git('rm', '-q', '.kizurc.json');
  const line =
    'the committed .kizurc.json is missing from the working tree, so its stop.requireReview is not applied (the defaults are used); restore it: git checkout HEAD -- .kizurc.json, or commit its removal: git rm -- .kizurc.json && git commit';
  assert.ok(sb.kizu(['status']).stdout.includes(`\nconfig    ${line}\n`));
  const [detail, fix] = line.split('; ');
  assert.deepEqual(JSON.parse(sb.kizu(['doctor', '--json']).stdout).checks.filter((c) => c.name === 'config'), [{ name: 'config', ok: false, detail, fix }]);
});

test('review.keys is a gate key: a swap of tap and reject is refused, committed or not; a committed remap is named by status and doctor (#71, #83)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const swap = '{"review":{"keys":{"tap":"!","reject":" "}}}\n';
  const problems =
    `git-kizu: error: invalid config in ${path.join(realpathSync(sb.dir), '.kizurc.json')}:\n` +
    '  - "review.keys.tap" may not be "!", the default key of reject: a reviewer pressing it would tap instead (pick a key no action has by default)\n' +
    '  - "review.keys.reject" may not be " ", the default key of tap: a reviewer pressing it would reject instead (pick a key no action has by default)\n' +
    'hint: fix the listed keys (see README "Config")\n';
  sb.write({ '.kizurc.json': swap });
  for (const args of [['status'], ['scan']]) {
    const r = sb.kizu(args);
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', problems], args.join(' '));
  }
  commitConfig(sb, { '.kizurc.json': swap });
  const r = sb.kizu(['status']);
  assert.deepEqual([r.status, r.stderr], [2, problems]);

  commitConfig(sb, { '.kizurc.json': '{"review":{"keys":{"skip":"n"}}}\n' });
  const named = 'the committed .kizurc.json weakens review: review.keys {"skip":"n"}: a key in git kizu review does another action than its default';
  assert.ok(sb.kizu(['status']).stdout.includes(`config    ${named}; if that is not wanted, change .kizurc.json and commit it\n`));
  assert.ok(sb.kizu(['doctor']).stdout.includes(`ok   config: ${named} (if that is not wanted, change .kizurc.json and commit it)\n`));
});
