// lefthook 2 (test/tools) with the guard git-kizu's lefthook adapter adds to its config
// (src/install/managers/lefthook.ts), through real commits: a staged scar is refused and a
// clean commit passes, before and after `lefthook install` runs again; lefthook-local.yml for
// a local-only install; no git-kizu reachable lets the commit through with one stderr line;
// taking the insertion out gives the config back byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { pathWithoutKizu, sandbox, src } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { commitStaged } from '../helpers/install.mjs';
import { applyPlan, managerOutput, revertPlan, toolBin } from '../helpers/hook-managers.mjs';

const { lefthook } = await import(src('install/managers/lefthook.ts'));
const { GUARD_COMMAND } = await import(src('install/managers/guard-line.ts'));
const LEFTHOOK = toolBin('lefthook');
const REFUSED = 'git-kizu: commit refused: 1 unresolved scar is staged:\n';
const SKIPPED =
  'git-kizu: review-scar check skipped: git-kizu is not installed for this clone (npm install -g git-kizu, then: git kizu init)';

/** A sandbox repo holding `files` (committed) and git-kizu's launcher (`init --no-pre-commit`). */
function repo(files) {
  const sb = sandbox({ files });
  ok(sb.kizu(['init', '--no-pre-commit']), 'init');
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));
  return sb;
}

const install = (sb) => ok(sb.run(LEFTHOOK, ['install']), 'lefthook install');

/** Asserts that committing a scarred file is refused (nothing committed) and a clean one passes. */
function guarded(sb, n) {
  const refused = commitStaged(sb, `scar${n}.js`, '// @kizu[ask]: explain\n');
  assert.equal(refused.status, 1, refused.stdout + refused.stderr);
  const out = managerOutput(refused);
  assert.ok(out.includes(REFUSED) && out.includes(`  "scar${n}.js":1  [ask]  explain\n`), out);
  sb.git('rm', '-q', '--cached', `scar${n}.js`);
  rmSync(sb.path(`scar${n}.js`));
  const before = sb.git('rev-parse', 'HEAD');
  ok(commitStaged(sb, `clean${n}.txt`, 'clean\n'), 'clean commit');
  assert.notEqual(sb.git('rev-parse', 'HEAD'), before);
}

const COMMANDS = 'pre-commit:\n  parallel: true\n  commands:\n    lint:\n      run: echo lint\npre-push:\n  commands:\n    test:\n      run: echo test\n';

test('init, the command in lefthook.yml, lefthook install: scar refused, clean commit passes; again after a second install; taken out: byte-identical', () => {
  const sb = repo({ 'lefthook.yml': COMMANDS });
  const ins = applyPlan(lefthook, sb.path('lefthook.yml'));
  install(sb);
  assert.match(sb.read('.git/hooks/pre-commit'), /call_lefthook run "pre-commit"/);
  guarded(sb, 1);
  install(sb);
  guarded(sb, 2);
  assert.equal(lefthook.plan(sb.read('lefthook.yml'), { file: sb.path('lefthook.yml') }).kind, 'present');
  revertPlan(sb.path('lefthook.yml'), ins);
  assert.equal(sb.read('lefthook.yml'), COMMANDS);
});

test('lefthook installed first, then init and the job in a CRLF jobs config without a final newline: guarded without reinstalling', () => {
  const config = 'pre-commit:\r\n  jobs:\r\n    - name: lint\r\n      run: echo lint';
  const sb = sandbox({ files: { 'lefthook.yml': config } });
  install(sb);
  ok(sb.kizu(['init', '--no-pre-commit']), 'init');
  const ins = applyPlan(lefthook, sb.path('lefthook.yml'));
  assert.ok(ins.text.startsWith('\r\n    # git-kizu: '), JSON.stringify(ins.text));
  assert.ok(!ins.text.replaceAll('\r\n', '').includes('\n'), 'only CRLF line breaks');
  guarded(sb, 1);
  install(sb);
  guarded(sb, 2);
  revertPlan(sb.path('lefthook.yml'), ins);
  assert.equal(sb.read('lefthook.yml'), config);
});

test('local-only install: the command goes into a new lefthook-local.yml, lefthook merges it; lefthook.yml untouched', () => {
  const sb = repo({ 'lefthook.yml': COMMANDS });
  const d = lefthook.detect({ root: sb.dir, hooksPath: null, local: true });
  assert.deepEqual(d, { id: 'lefthook', file: sb.path('lefthook-local.yml'), label: 'lefthook (lefthook-local.yml)', reinstall: 'npx lefthook install', local: true });
  const ins = applyPlan(lefthook, d.file, d);
  assert.equal(ins.offset, 0);
  install(sb);
  guarded(sb, 1);
  assert.equal(sb.read('lefthook.yml'), COMMANDS);
  assert.equal(sb.git('status', '--porcelain', '--', 'lefthook.yml'), '');
  assert.equal(sb.read('lefthook-local.yml'), ins.text);
});

test('no git-kizu reachable (launcher gone, not on PATH): the commit goes through with one stderr line', () => {
  const sb = repo({ 'lefthook.yml': COMMANDS });
  applyPlan(lefthook, sb.path('lefthook.yml'));
  install(sb);
  rmSync(sb.path('.git/kizu/git-kizu'));
  const env = { PATH: pathWithoutKizu() }; // also where the tester installed git-kizu (npm link)
  assert.notEqual(sb.run('sh', ['-c', 'command -v git-kizu'], { env }).status, 0, 'git-kizu must not be on PATH');
  const r = commitStaged(sb, 'scar.js', '// @kizu[ask]: explain\n', { env });
  ok(r, 'commit');
  // lefthook frames each command's output (`┃  git-kizu ❯`, `✓ git-kizu`); git-kizu's own lines start with `git-kizu:`.
  assert.deepEqual(managerOutput(r).split('\n').filter((l) => l.startsWith('git-kizu:')), [SKIPPED]);
  assert.equal(readFileSync(sb.path('scar.js'), 'utf8'), '// @kizu[ask]: explain\n');
  assert.equal(sb.git('log', '-1', '--format=%s').trim(), 'add scar.js');
});

test('lefthook itself reads the inserted command as the guard command, in every indentation and list style', () => {
  const sb = sandbox();
  const shapes = [
    COMMANDS,
    'pre-commit:\r\n   commands:\r\n      lint:\r\n         run: eslint',
    'pre-push:\n    commands:\n        t:\n            run: npm test\n',
    'pre-commit:\n  jobs:\n  -   name: lint\n      run: eslint\n',
    'pre-commit:\n  jobs:\n    - run: |+\n        eslint\n\n\npre-push:\n  piped: true\n',
    '# only a comment',
  ];
  for (const text of shapes) {
    sb.write({ 'lefthook.yml': text });
    applyPlan(lefthook, sb.path('lefthook.yml'));
    ok(sb.run(LEFTHOOK, ['validate']), `lefthook validate: ${text}`);
    const hook = JSON.parse(ok(sb.run(LEFTHOOK, ['dump', '--format', 'json'])).stdout)['pre-commit'];
    const run = hook.commands?.['git-kizu']?.run ?? hook.jobs?.find((j) => j.name === 'git-kizu')?.run;
    assert.equal(run, GUARD_COMMAND, text);
  }
});
