// `git kizu teardown` after the install record is lost (`rm .git/kizu/install-project.json`):
// it still finds the guard init put in the hook manager's file (the insertion init would make
// on the file without it: src/install/managers/find-insertion.ts) and takes out exactly it,
// with the real tools' hooks in place; a guard edited since is left alone with a warning
// naming the file. And the user-scope teardown removes the clone launcher a user-scope guard ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { filesUnder } from '../helpers/install.mjs';
import { husky, lefthook, preCommitBin, simpleGitHooks } from '../helpers/tools.mjs';

const WATCHED = ['.husky/', 'package.json', 'lefthook.yml', 'lefthook-local.yml', '.pre-commit-config.yaml', '.git/hooks/', '.git/config', '.git/info/', '.claude/'];
/** The files (not directories: without a record teardown cannot know which it created) under {@link WATCHED}. */
const watched = (sb, prefixes = WATCHED) => Object.fromEntries(Object.entries(filesUnder(sb.dir, prefixes)).filter(([, v]) => !v.dir));
const loseRecord = (sb, scope = 'project') => rmSync(sb.path(`.git/kizu/install-${scope}.json`));

/** init, lose the record, teardown: every watched file as before init; returns teardown's run. */
function roundTrip(sb, { scope = 'project', removed }) {
  const before = watched(sb);
  const args = scope === 'project' ? [] : ['--scope', scope];
  ok(sb.kizu(['init', ...args]), 'init');
  assert.notDeepEqual(watched(sb), before);
  loseRecord(sb, scope);
  const t = ok(sb.kizu(['teardown', ...args]), 'teardown');
  assert.equal(t.stderr, '');
  for (const line of removed) assert.ok(t.stdout.includes(line + '\n'), t.stdout);
  assert.deepEqual(watched(sb), before);
  assert.ok(!existsSync(sb.path('.git/kizu/git-kizu')), 'the launcher goes too');
  return t;
}

test('husky: the two lines at the end of .husky/pre-commit go, byte for byte', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x"\n}\n', '.husky/pre-commit': 'npm test\n' } });
  ok(sb.run(husky(), []), 'husky');
  roundTrip(sb, { removed: ['updated .husky/pre-commit (removed the git-kizu guard)'] });
});

test('husky, a .husky/pre-commit without a final line break: the guard goes, the line break it started with stays (both texts rebuild the file)', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x"\n}\n', '.husky/pre-commit': 'npm test' } });
  ok(sb.run(husky(), []), 'husky');
  const before = watched(sb);
  ok(sb.kizu(['init']), 'init');
  loseRecord(sb);
  ok(sb.kizu(['teardown']), 'teardown');
  // Both texts rebuild the file init wrote; teardown keeps the final line break it cannot tell apart.
  assert.equal(sb.read('.husky/pre-commit'), 'npm test\n');
  assert.deepEqual({ ...watched(sb), '.husky/pre-commit': before['.husky/pre-commit'] }, before);
});

test('lefthook: the command entry goes from lefthook.yml', () => {
  const sb = sandbox({ files: { 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: echo lint\n' } });
  ok(sb.run(lefthook(), ['install']), 'lefthook install');
  roundTrip(sb, { removed: ['updated lefthook.yml (removed the git-kizu guard)'] });
});

test('lefthook --scope local: lefthook-local.yml, which init created, is deleted', () => {
  const sb = sandbox({ files: { 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: echo lint\n' } });
  ok(sb.run(lefthook(), ['install']), 'lefthook install');
  const before = watched(sb, ['lefthook.yml', '.git/hooks/']);
  ok(sb.kizu(['init', '--scope', 'local']), 'init');
  assert.ok(existsSync(sb.path('lefthook-local.yml')));
  loseRecord(sb, 'local');
  const t = ok(sb.kizu(['teardown', '--scope', 'local']), 'teardown');
  assert.ok(t.stdout.includes('removed lefthook-local.yml\n'), t.stdout);
  assert.ok(!existsSync(sb.path('lefthook-local.yml')));
  assert.deepEqual(watched(sb, ['lefthook.yml', '.git/hooks/']), before);
});

test('simple-git-hooks: the `&& { guard; }` goes from package.json and the generated hook is what the tool writes without it', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x",\n  "simple-git-hooks": {\n    "pre-commit": "echo sgh"\n  }\n}\n' } });
  ok(sb.run(simpleGitHooks(), []), 'simple-git-hooks');
  roundTrip(sb, {
    removed: ['updated package.json (removed the git-kizu guard)', 'updated .git/hooks/pre-commit (as simple-git-hooks writes it from the configuration)'],
  });
});

test('simple-git-hooks: the "pre-commit" key init added goes', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x",\n  "simple-git-hooks": {\n    "pre-push": "echo push"\n  }\n}\n' } });
  ok(sb.run(simpleGitHooks(), []), 'simple-git-hooks');
  roundTrip(sb, { removed: ['updated package.json (removed the git-kizu guard)'] });
});

test('the pre-commit framework: the repo: local entry goes from .pre-commit-config.yaml', () => {
  const config = 'repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: "true"\n    language: system\n';
  const sb = sandbox({ files: { '.pre-commit-config.yaml': config } });
  ok(sb.run(preCommitBin(), ['install']), 'pre-commit install');
  roundTrip(sb, { removed: ['updated .pre-commit-config.yaml (removed the git-kizu guard)'] });
});

test('a guard edited since init is left alone with a warning naming the file; exit 0', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x"\n}\n', '.husky/pre-commit': 'npm test\n' } });
  ok(sb.run(husky(), []), 'husky');
  ok(sb.kizu(['init']), 'init');
  loseRecord(sb);
  const edited = sb.read('.husky/pre-commit').replace('# git-kizu: refuse', '# git-kizu (kept on purpose): refuse');
  writeFileSync(sb.path('.husky/pre-commit'), edited);
  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.equal(
    t.stderr,
    'git-kizu: warning: left .husky/pre-commit alone: it runs the git-kizu guard, but not as git kizu init adds it (edited since?), and the install record is gone; remove the git-kizu guard lines yourself\n',
  );
  assert.equal(sb.read('.husky/pre-commit'), edited);
});

test('a guard another scope\'s record lists stays (the --scope local record is lost, project\'s is not)', () => {
  const sb = sandbox({ files: { 'package.json': '{\n  "name": "x"\n}\n', '.husky/pre-commit': 'npm test\n' } });
  ok(sb.run(husky(), []), 'husky');
  ok(sb.kizu(['init']), 'init');
  const guarded = sb.read('.husky/pre-commit');
  ok(sb.kizu(['init', '--scope', 'local']), 'init local');
  loseRecord(sb, 'local');
  const t = ok(sb.kizu(['teardown', '--scope', 'local']), 'teardown');
  assert.equal(t.stderr, '');
  assert.ok(t.stdout.includes('kept the git-kizu guard in .husky/pre-commit (still used by the --scope project install)\n'), t.stdout);
  assert.equal(sb.read('.husky/pre-commit'), guarded);
});

test('teardown --scope user removes the clone launcher the user-scope guard ran (no install of the clone left)', () => {
  const sb = sandbox();
  ok(sb.kizu(['init', '--scope', 'user', '--pre-commit']), 'init');
  assert.ok(existsSync(sb.path('.git/kizu/git-kizu')));
  ok(sb.kizu(['teardown', '--scope', 'user']), 'teardown');
  assert.ok(!existsSync(sb.path('.git/kizu/git-kizu')), 'the clone launcher is gone');
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')));
  assert.ok(!existsSync(sb.path('.git/kizu/install-user.json')));

  // A project install of the clone still runs it: it stays.
  ok(sb.kizu(['init']), 'init project');
  ok(sb.kizu(['init', '--scope', 'user', '--pre-commit']), 'init user');
  ok(sb.kizu(['teardown', '--scope', 'user']), 'teardown user');
  assert.ok(existsSync(sb.path('.git/kizu/git-kizu')), 'still used by the project install');
  ok(sb.kizu(['teardown']), 'teardown project');
  assert.ok(!existsSync(sb.path('.git/kizu/git-kizu')));
});
