// Acceptance 1 of the hook-manager integration for lefthook and the pre-commit framework,
// through `git kizu init` / `teardown` and the real tools (the adapters alone are tested in
// test/cli/guard-lefthook.test.mjs and guard-pre-commit-framework.test.mjs): init → the
// manager's own install again → a staged scar is refused and a clean commit passes → teardown
// → the manager's files and the git hooks byte-identical to before init; in both orders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { NEXT, commitScar, commitStaged, filesUnder } from '../helpers/install.mjs';
import { lefthook, preCommitBin } from '../helpers/tools.mjs';
import { managerOutput } from '../helpers/hook-managers.mjs';

const LEFTHOOK_YML = 'pre-commit:\n  commands:\n    lint:\n      run: echo lint-ran\n';
const PRE_COMMIT_YAML =
  'repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n    entry: "true"\n    language: system\n    pass_filenames: false\n';
const statusLine = (sb) => sb.kizu(['status']).stdout.split('\n').find((l) => l.startsWith('hooks'));

for (const order of ['manager first', 'init first']) {
  test(`lefthook, ${order}: the guard in lefthook.yml survives lefthook install; scar refused, clean commit passes; teardown restores every byte`, () => {
    const sb = sandbox({ files: { 'lefthook.yml': LEFTHOOK_YML } });
    const install = () => ok(sb.run(lefthook(), ['install']), 'lefthook install');
    if (order === 'manager first') install();
    const before = filesUnder(sb.dir, ['lefthook.yml', '.git/hooks/', '.git/config']);

    const r = ok(sb.kizu(['init']), 'init');
    assert.ok(r.stdout.includes('updated lefthook.yml (added the git-kizu guard for lefthook (lefthook.yml))\n'), r.stdout);
    assert.ok(!sb.read('lefthook.yml').includes(sb.base), 'no machine path in the shared config');
    if (order === 'init first') {
      assert.ok(r.stderr.includes("the guard is in lefthook.yml, but lefthook's git hooks are not installed in this clone"), r.stderr);
      assert.match(statusLine(sb), /pre-commit: missing: .*; run `npx lefthook install`$/);
    }
    install();
    install(); // npm install runs it again: still guarded
    assert.match(statusLine(sb), /pre-commit: installed \(lefthook, lefthook\.yml\)$/);
    const refused = commitScar(sb);
    assert.equal(refused.status, 1);
    assert.match(managerOutput(refused), /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
    sb.git('reset', '-q');
    const clean = ok(commitStaged(sb, 'clean.js', 'const a = 1;\n'), 'clean commit');
    assert.match(managerOutput(clean), /lint-ran/);

    const t = ok(sb.kizu(['teardown']), 'teardown');
    assert.ok(t.stdout.includes('updated lefthook.yml (removed the git-kizu guard)\n'), t.stdout);
    if (order === 'manager first') assert.deepEqual(filesUnder(sb.dir, ['lefthook.yml', '.git/hooks/', '.git/config']), before);
    else assert.equal(sb.read('lefthook.yml'), LEFTHOOK_YML);
  });

  test(`pre-commit framework, ${order}: a repo: local hook; pre-commit install again; scar refused, clean commit passes; teardown restores every byte`, () => {
    const sb = sandbox({ files: { '.pre-commit-config.yaml': PRE_COMMIT_YAML } });
    const env = { env: { PRE_COMMIT_HOME: `${sb.base}/pre-commit-cache` } };
    const install = () => ok(sb.run(preCommitBin(), ['install'], env), 'pre-commit install');
    if (order === 'manager first') install();
    const before = filesUnder(sb.dir, ['.pre-commit-config.yaml', '.git/hooks/', '.git/config']);

    const r = ok(sb.kizu(['init']), 'init');
    assert.ok(r.stdout.includes('updated .pre-commit-config.yaml (added the git-kizu guard for pre-commit (.pre-commit-config.yaml))\n'), r.stdout);
    assert.ok(r.stdout.includes('next: git add .pre-commit-config.yaml (the pre-commit framework runs no hook while its configuration has unstaged changes)\n'), r.stdout);
    assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.legacy')));
    install();
    install();
    assert.match(statusLine(sb), /pre-commit: installed \(pre-commit, \.pre-commit-config\.yaml\)$/);
    sb.git('add', '.pre-commit-config.yaml');
    const refused = commitScar(sb, 'scarred.js', env);
    assert.equal(refused.status, 1, managerOutput(refused));
    assert.match(managerOutput(refused), /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
    sb.git('reset', '-q', 'scarred.js');
    ok(commitStaged(sb, 'clean.js', 'const a = 1;\n', env), 'clean commit');
    assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.legacy')), 'pre-commit never moved a kizu hook aside');

    const t = ok(sb.kizu(['teardown']), 'teardown');
    assert.ok(t.stdout.includes('updated .pre-commit-config.yaml (removed the git-kizu guard)\n'), t.stdout);
    assert.equal(sb.read('.pre-commit-config.yaml'), PRE_COMMIT_YAML);
    if (order === 'manager first') {
      assert.deepEqual(filesUnder(sb.dir, ['.pre-commit-config.yaml', '.git/hooks/', '.git/config']), before);
    }
  });
}

test('pre-commit framework with `default_stages: [pre-push]`: init prints the entry with `stages: [pre-commit]`, as it says to; added as printed, it refuses a scarred commit', () => {
  const config = `default_stages: [pre-push]\n${PRE_COMMIT_YAML}`;
  const sb = sandbox({ files: { '.pre-commit-config.yaml': config } });
  const env = { env: { PRE_COMMIT_HOME: `${sb.base}/pre-commit-cache` } };
  const r = ok(sb.kizu(['init']), 'init');
  const entry =
    '  # git-kizu: refuse commits whose staged files hold review scars (added by git kizu init; git kizu teardown removes it)\n' +
    '  - repo: local\n' +
    '    hooks:\n' +
    '      - id: git-kizu\n' +
    '        name: git-kizu review scars\n' +
    '        entry: >-\n' +
    '          sh -c \'kizu_guard="$(git rev-parse --git-common-dir)/kizu/git-kizu";\n' +
    '          if [ -x "$kizu_guard" ]; then "$kizu_guard" hook pre-commit || exit $?;\n' +
    '          elif command -v git-kizu >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then git-kizu hook pre-commit || exit $?;\n' +
    '          else echo "git-kizu: review-scar check skipped: git-kizu is not installed for this clone (npm install -g git-kizu, then: git kizu init)" >&2;\n' +
    "          fi'\n" +
    '        language: system\n' +
    '        pass_filenames: false\n' +
    '        always_run: true\n' +
    '        stages: [pre-commit]\n';
  assert.equal(
    r.stdout,
    'created .claude/hooks/kizu-hook.sh\ncreated .claude/commands/kizu.md\n' +
      `repos:\n${entry}\n` +
      'created .claude/settings.json (added hooks: Stop, SubagentStop, PostToolUse, UserPromptSubmit, PreToolUse)\n' +
      `${NEXT}\n`,
  );
  assert.equal(
    r.stderr,
    'git-kizu: warning: did not edit .pre-commit-config.yaml: .pre-commit-config.yaml: `default_stages` leaves out the commit stage, so the guard would not run on git commit: give the git-kizu hook `stages: [pre-commit]` (`[commit]` before pre-commit 3.2):\n',
  );
  assert.equal(sb.read('.pre-commit-config.yaml'), config);
  assert.equal(
    statusLine(sb),
    'hooks     Claude Code: installed (project); pre-commit: missing: pre-commit (.pre-commit-config.yaml) does not run the git-kizu guard, and git-kizu does not edit it (.pre-commit-config.yaml: `default_stages` leaves out the commit stage, so the guard would not run on git commit: give the git-kizu hook `stages: [pre-commit]` (`[commit]` before pre-commit 3.2)); `git kizu init` prints the lines to add by hand; run `git kizu init --agent claude`',
  );

  // The entry as printed, added to the file's `repos:` (the indentation of its list items);
  // before pre-commit 3.2 the stages are named `push` and `commit`, as the warning says.
  const [major, minor] = /(\d+)\.(\d+)/.exec(ok(sb.run(preCommitBin(), ['--version']), 'pre-commit --version').stdout).slice(1).map(Number);
  const old = major < 3 || (major === 3 && minor < 2);
  const added = entry.replace(/^ {2}/gm, '');
  sb.write({
    '.pre-commit-config.yaml': old ? config.replace('[pre-push]', '[push]') + added.replace('stages: [pre-commit]', 'stages: [commit]') : config + added,
  });
  sb.git('add', '.pre-commit-config.yaml');
  ok(sb.run(preCommitBin(), ['install'], env), 'pre-commit install');
  assert.match(statusLine(sb), /pre-commit: installed \(pre-commit, \.pre-commit-config\.yaml\)$/);
  const refused = commitScar(sb, 'scarred.js', env);
  assert.equal(refused.status, 1, managerOutput(refused));
  assert.match(managerOutput(refused), /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
});
