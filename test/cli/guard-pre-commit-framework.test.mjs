// The pre-commit framework (pre-commit on PATH) with the `repo: local` hook git-kizu's adapter
// adds to .pre-commit-config.yaml (src/install/managers/pre-commit-framework.ts), and with
// git-kizu's own repository referenced by its .pre-commit-hooks.yaml, through real commits:
// a staged scar is refused and a clean commit passes, also after `pre-commit install` runs
// again; nothing of git-kizu's is left in .git/hooks for pre-commit to move to .legacy; no
// git-kizu reachable lets the commit through with one line; the insertion taken out gives the
// config back byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, pathWithoutKizu, sandbox, src } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { commitStaged } from '../helpers/install.mjs';
import { applyPlan, managerOutput, preCommitBin, revertPlan } from '../helpers/hook-managers.mjs';

const { preCommitFramework, PRE_COMMIT_ENTRY } = await import(src('install/managers/pre-commit-framework.ts'));
const { yamlData } = await import(src('install/managers/yaml-edit.ts'));
const PRE_COMMIT = preCommitBin();
const REFUSED = 'git-kizu: commit refused: 1 unresolved scar is staged:\n';
const SKIPPED =
  'git-kizu: review-scar check skipped: git-kizu is not installed for this clone (npm install -g git-kizu, then: git kizu init)';
const CONFIG = 'repos:\n-   repo: local\n    hooks:\n    -   id: hello\n        name: hello\n        entry: echo hello\n        language: system\n';

/** A sandbox repo with `config` committed as .pre-commit-config.yaml and git-kizu's launcher (`init --no-pre-commit`). */
function repo(config = CONFIG) {
  const sb = sandbox({ files: { '.pre-commit-config.yaml': config } });
  ok(sb.kizu(['init', '--no-pre-commit']), 'init');
  return sb;
}

const install = (sb) => ok(sb.run(PRE_COMMIT, ['install']), 'pre-commit install');

/** Applies the adapter's insertion and stages the config (pre-commit refuses to run while its config is unstaged). */
function addGuard(sb) {
  const ins = applyPlan(preCommitFramework, sb.path('.pre-commit-config.yaml'));
  sb.git('add', '.pre-commit-config.yaml');
  return ins;
}

/** Asserts that committing a scarred file is refused (nothing committed) and a clean one passes. */
function guarded(sb, n) {
  const before = sb.git('rev-parse', 'HEAD');
  const refused = commitStaged(sb, `scar${n}.js`, '// @kizu[ask]: explain\n');
  assert.equal(refused.status, 1, refused.stdout + refused.stderr);
  const out = managerOutput(refused);
  assert.ok(out.includes(REFUSED) && out.includes(`  "scar${n}.js":1  [ask]  explain\n`), out);
  assert.equal(sb.git('rev-parse', 'HEAD'), before);
  sb.git('rm', '-q', '--cached', `scar${n}.js`);
  rmSync(sb.path(`scar${n}.js`));
  ok(commitStaged(sb, `clean${n}.txt`, 'clean\n'), 'clean commit');
  assert.notEqual(sb.git('rev-parse', 'HEAD'), before);
}

test('init, the repo: local hook, pre-commit install: scar refused, clean passes; again after a second install; no .legacy; taken out: byte-identical', () => {
  const sb = repo();
  const ins = addGuard(sb);
  install(sb);
  assert.match(sb.read('.git/hooks/pre-commit'), /pre-commit/);
  guarded(sb, 1);
  install(sb);
  guarded(sb, 2);
  // The fault: `pre-commit install` moved kizu's .git/hooks/pre-commit to pre-commit.legacy
  // and every commit failed. With the guard in the config there is no such file to move.
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.legacy')));
  assert.equal(preCommitFramework.plan(sb.read('.pre-commit-config.yaml'), { file: sb.path('.pre-commit-config.yaml') }).kind, 'present');
  revertPlan(sb.path('.pre-commit-config.yaml'), ins);
  assert.equal(sb.read('.pre-commit-config.yaml'), CONFIG);
});

test('pre-commit installed first (the order of the issue), then init and the hook: no .legacy, every commit works, the scar is refused', () => {
  const sb = sandbox({ files: { '.pre-commit-config.yaml': CONFIG } });
  install(sb);
  const hook = sb.read('.git/hooks/pre-commit');
  ok(sb.kizu(['init', '--no-pre-commit']), 'init');
  addGuard(sb);
  assert.equal(sb.read('.git/hooks/pre-commit'), hook, 'init --no-pre-commit leaves the framework hook alone');
  guarded(sb, 1);
  install(sb);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.legacy')));
  guarded(sb, 2);
});

test('pre-commit refuses every commit while its edited config is unstaged: init has to say `git add .pre-commit-config.yaml`', () => {
  const sb = repo();
  applyPlan(preCommitFramework, sb.path('.pre-commit-config.yaml'));
  install(sb);
  const r = commitStaged(sb, 'clean.txt', 'clean\n');
  assert.equal(r.status, 1);
  assert.match(managerOutput(r), /Your pre-commit configuration is unstaged/);
  sb.git('add', '.pre-commit-config.yaml');
  guarded(sb, 1);
});

test('no git-kizu reachable (launcher gone, not on PATH): the commit goes through; its one line shows with pre-commit run --verbose', () => {
  const sb = repo();
  addGuard(sb);
  install(sb);
  rmSync(sb.path('.git/kizu/git-kizu'));
  const env = { PATH: pathWithoutKizu() }; // also where the tester installed git-kizu (npm link)
  assert.notEqual(sb.run('sh', ['-c', 'command -v git-kizu'], { env }).status, 0, 'git-kizu must not be on PATH');
  const r = ok(commitStaged(sb, 'scar.js', '// @kizu[ask]: explain\n', { env }), 'commit');
  // pre-commit shows a passing hook's output only with --verbose (or `verbose: true`, which would add lines to every commit).
  assert.match(managerOutput(r), /^git-kizu review scars\.+Passed$/m);
  assert.equal(sb.git('log', '-1', '--format=%s').trim(), 'add scar.js');
  const v = ok(sb.run(PRE_COMMIT, ['run', '--verbose', 'git-kizu'], { env }), 'pre-commit run --verbose');
  assert.deepEqual(managerOutput(v).split('\n').filter((l) => l.startsWith('git-kizu:')), [SKIPPED]);
});

test('.pre-commit-hooks.yaml: a valid manifest whose git-kizu hook is the repo: local one; a repository referencing it is guarded', () => {
  const manifest = path.join(ROOT, '.pre-commit-hooks.yaml');
  const sb = repo();
  ok(sb.run(PRE_COMMIT, ['validate-manifest', manifest]), 'validate-manifest');
  const hooks = yamlData(readFileSync(manifest, 'utf8'));
  assert.deepEqual(hooks.map((h) => h.id), ['git-kizu']);
  const { description, ...hook } = hooks[0];
  assert.equal(typeof description, 'string');
  assert.deepEqual(hook, {
    id: 'git-kizu',
    name: 'git-kizu review scars',
    entry: PRE_COMMIT_ENTRY,
    language: 'system',
    pass_filenames: false,
    always_run: true,
  });
  const ins = addGuard(sb);
  assert.deepEqual(yamlData(sb.read('.pre-commit-config.yaml')).repos[1], { repo: 'local', hooks: [hook] });
  revertPlan(sb.path('.pre-commit-config.yaml'), ins);

  // git-kizu's repository, as a team references it by URL (here a local clone: no network).
  const kizuRepo = path.join(sb.base, 'git-kizu-repo');
  mkdirSync(kizuRepo);
  writeFileSync(path.join(kizuRepo, '.pre-commit-hooks.yaml'), readFileSync(manifest));
  sb.git('init', '-q', { cwd: kizuRepo });
  sb.git('add', '.pre-commit-hooks.yaml', { cwd: kizuRepo });
  sb.git('commit', '-q', '-m', 'manifest', { cwd: kizuRepo });
  const rev = sb.git('rev-parse', 'HEAD', { cwd: kizuRepo }).trim();
  const config = `repos:\n-   repo: ${kizuRepo}\n    rev: ${rev}\n    hooks:\n    -   id: git-kizu\n`;
  writeFileSync(sb.path('.pre-commit-config.yaml'), config);
  assert.equal(preCommitFramework.has(config), true);
  assert.equal(preCommitFramework.plan(config, { file: sb.path('.pre-commit-config.yaml') }).kind, 'present');
  sb.git('add', '.pre-commit-config.yaml');
  install(sb);
  guarded(sb, 1);
});

test('pre-commit validate-config accepts the config after the insertion, in every list style', () => {
  const sb = sandbox();
  const shapes = [
    CONFIG,
    'repos:\r\n  - repo: local\r\n    hooks:\r\n      - id: a\r\n        name: a\r\n        entry: a\r\n        language: system',
    'fail_fast: true\nrepos:\n   -  repo: meta\n      hooks:\n      -  id: identity\n',
    'repos:\n',
    '# no repos yet\n',
  ];
  for (const text of shapes) {
    sb.write({ '.pre-commit-config.yaml': text });
    applyPlan(preCommitFramework, sb.path('.pre-commit-config.yaml'));
    ok(sb.run(PRE_COMMIT, ['validate-config', '.pre-commit-config.yaml']), `validate-config: ${text}`);
  }
});

test('git-kizu init first, then pre-commit install: the framework keeps git-kizu\'s hook as pre-commit.legacy and runs it first; status and doctor say the guard runs from there; init keeps it until the guard is in the config', () => {
  const sb = sandbox();
  ok(sb.kizu(['init']), 'init');
  const ours = sb.read('.git/hooks/pre-commit');
  const legacy = sb.path('.git/hooks/pre-commit.legacy');
  const statusLine = () => sb.kizu(['status']).stdout.split('\n').find((l) => l.startsWith('hooks'));
  const doctorLine = () => sb.kizu(['doctor']).stdout.split('\n').find((l) => l.includes('pre-commit guard'));
  const viaLegacy = () => {
    assert.deepEqual(JSON.parse(sb.kizu(['status', '--json']).stdout).hooks.guard, { state: 'installed', via: 'pre-commit', file: legacy });
    assert.equal(statusLine(), 'hooks     Claude Code: installed (project); pre-commit: installed (pre-commit, .git/hooks/pre-commit.legacy)');
    assert.equal(doctorLine(), `ok   pre-commit guard: runs from ${legacy} (pre-commit)`);
  };

  // No config yet: the framework's hook runs the legacy hook, then fails for the missing config.
  install(sb);
  assert.equal(sb.read('.git/hooks/pre-commit.legacy'), ours);
  viaLegacy();
  const kept = ok(sb.kizu(['init']), 'init without a config');
  assert.ok(
    kept.stdout.includes(
      "kept .git/hooks/pre-commit.legacy (git-kizu's old hook, which the pre-commit framework runs first: the guard runs from there until it is in the framework's configuration)\n",
    ),
    kept.stdout,
  );
  assert.equal(sb.read('.git/hooks/pre-commit.legacy'), ours);
  viaLegacy();

  // With a config that does not run git-kizu: every commit runs the legacy hook first.
  sb.write({ '.pre-commit-config.yaml': CONFIG });
  sb.git('add', '.pre-commit-config.yaml');
  sb.git('commit', '-q', '-m', 'config');
  viaLegacy();
  guarded(sb, 1);

  // init puts the guard into the config: the legacy copy goes.
  const r = ok(sb.kizu(['init']), 'init with the config');
  assert.ok(r.stdout.includes("removed .git/hooks/pre-commit.legacy (git-kizu's old hook, kept there by a hook manager)\n"), r.stdout);
  assert.ok(!existsSync(legacy));
  sb.git('add', '.pre-commit-config.yaml');
  assert.deepEqual(JSON.parse(sb.kizu(['status', '--json']).stdout).hooks.guard, { state: 'installed', via: 'pre-commit', file: sb.path('.pre-commit-config.yaml') });
  guarded(sb, 2);
});
