// The pre-commit guard with husky 9, the real tool (test/tools): kizu's two lines go into
// .husky/pre-commit (the file husky runs with `sh -e` and never rewrites), husky's own install
// run again leaves the guard working, teardown gives back the exact bytes; init before husky's
// first install and after it; an old git-kizu hook in .husky/_ (the fault where husky
// overwrote it and a leftover pre-commit.kizu-chained made init refuse) is cleaned up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { NEXT, commitScar, commitStaged, filesUnder } from '../helpers/install.mjs';
import { husky } from '../helpers/tools.mjs';


/** A repository whose package.json uses husky; `.husky/pre-commit` records that it ran. */
function huskyRepo({ userHook = 'echo husky-ran >> "$(git rev-parse --git-dir)/husky-ran"\n' } = {}) {
  const sb = sandbox({
    files: {
      'package.json': '{\n  "name": "x",\n  "scripts": {\n    "prepare": "husky"\n  }\n}\n',
      ...(userHook === null ? {} : { '.husky/pre-commit': userHook }),
    },
  });
  return sb;
}

const runHusky = (sb) => ok(sb.run(husky(), []), 'husky');
const WATCHED = ['.husky/', 'package.json', '.git/hooks/', '.git/config'];
/** The `hooks` line of `git kizu status`. */
const statusLine = (sb) => sb.kizu(['status']).stdout.split('\n').find((l) => l.startsWith('hooks'));

test('husky first, then init: the guard is two lines at the end of .husky/pre-commit; husky again; scar refused, clean commit passes; teardown restores every byte', () => {
  const sb = huskyRepo();
  runHusky(sb);
  const before = filesUnder(sb.dir, WATCHED);
  const userHook = sb.read('.husky/pre-commit');
  assert.match(statusLine(sb), /pre-commit: missing: husky \(\.husky\/pre-commit\) does not run the git-kizu guard; run `git kizu init`$/);

  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stdout.includes('updated .husky/pre-commit (added the git-kizu guard for husky (.husky/pre-commit))\n'), r.stdout);
  const text = sb.read('.husky/pre-commit');
  assert.ok(text.startsWith(userHook));
  const added = text.slice(userHook.length).split('\n');
  assert.equal(added.length, 3);
  assert.equal(added[0], '# git-kizu: refuse commits whose staged files hold review scars (added by git kizu init; git kizu teardown removes it)');
  assert.match(added[1], /^kizu_guard="\$\(git rev-parse --git-common-dir\)\/kizu\/git-kizu"; /);
  assert.ok(!text.includes(sb.base), 'no machine path');
  assert.ok(!existsSync(sb.path('.husky/_/pre-commit.kizu-chained')));

  runHusky(sb); // what `npm install` does through "prepare"
  assert.match(statusLine(sb), /pre-commit: installed \(husky, \.husky\/pre-commit\)$/);
  const refused = commitScar(sb);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
  assert.match(refused.stderr, /husky - pre-commit script failed \(code 1\)/);
  sb.git('reset', '-q');
  ok(commitStaged(sb, 'clean.js', 'const a = 1;\n'), 'clean commit');
  assert.equal(sb.read('.git/husky-ran'), 'husky-ran\nhusky-ran\n');

  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.ok(t.stdout.includes('updated .husky/pre-commit (removed the git-kizu guard)\n'), t.stdout);
  assert.deepEqual(filesUnder(sb.dir, WATCHED), before);
});

test('init first, then husky\'s first install: status says `npx husky` until it ran; a missing .husky/pre-commit is created and deleted again', () => {
  const sb = huskyRepo({ userHook: null });
  mkdirSync(sb.path('.husky'));
  const before = filesUnder(sb.dir, ['.husky/', 'package.json']);
  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stdout.includes('created .husky/pre-commit (added the git-kizu guard for husky (.husky/pre-commit))\n'), r.stdout);
  assert.ok(r.stderr.includes("the guard is in .husky/pre-commit, but husky's git hooks are not installed in this clone (core.hooksPath is not .husky/_); run `npx husky`"), r.stderr);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')), 'no hook of our own next to husky');
  const json = JSON.parse(sb.kizu(['status', '--json']).stdout);
  assert.equal(json.hooks.preCommit, false);
  assert.deepEqual(json.hooks.guard, { state: 'missing', why: "husky's git hooks are not installed in this clone (core.hooksPath is not .husky/_)", fix: 'npx husky' });

  runHusky(sb);
  const after = JSON.parse(sb.kizu(['status', '--json']).stdout).hooks;
  assert.equal(after.preCommit, true);
  assert.deepEqual(after.guard, { state: 'installed', via: 'husky', file: path.join(sb.dir, '.husky', 'pre-commit') });
  assert.equal(commitScar(sb).status, 1);
  sb.git('reset', '-q');
  ok(commitStaged(sb, 'clean.js', 'const a = 1;\n'), 'clean commit');

  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.ok(t.stdout.includes('removed .husky/pre-commit\n'), t.stdout);
  assert.deepEqual(filesUnder(sb.dir, ['.husky/', 'package.json']), { ...before, ...filesUnder(sb.dir, ['.husky/_/']) });
  assert.ok(!existsSync(sb.path('.husky/pre-commit')));
});

test('a .husky/pre-commit with CRLF line endings and no final newline gets LF guard lines (sh would read `fi\\r`): clean commits pass, scars are refused; teardown restores the exact bytes', () => {
  const sb = huskyRepo({ userHook: 'echo one\r\necho two' });
  runHusky(sb);
  ok(sb.kizu(['init']), 'init');
  const text = sb.read('.husky/pre-commit');
  assert.ok(text.startsWith('echo one\r\necho two\n# git-kizu: '), JSON.stringify(text.slice(0, 40)));
  assert.ok(text.endsWith('; fi\n'));
  assert.equal(text.split('\r\n').length, 2);
  ok(commitStaged(sb, 'clean.js', 'const a = 1;\n'), 'clean commit');
  assert.equal(commitScar(sb).status, 1);
  sb.git('reset', '-q');
  ok(sb.kizu(['teardown']), 'teardown');
  assert.equal(sb.read('.husky/pre-commit'), 'echo one\r\necho two');
});

test('husky overwrote an earlier git-kizu hook: teardown removes the leftover pre-commit.kizu-chained, init does not refuse; an old hook of ours is migrated away', () => {
  // The fault as an earlier version left it: our hook in .husky/_ chaining husky's stub, then husky wrote its stub again.
  const sb = huskyRepo();
  runHusky(sb);
  const stub = sb.read('.husky/_/pre-commit');
  const plain = sandbox();
  ok(plain.kizu(['init']), 'init in a plain repo');
  const ours = plain.read('.git/hooks/pre-commit');
  writeFileSync(sb.path('.husky/_/pre-commit.kizu-chained'), stub, { mode: 0o755 });
  const hook = sb.path('.husky/_/pre-commit');
  mkdirSync(sb.path('.git/kizu'), { recursive: true });
  const record = { version: 1, scope: 'project', files: {}, dirs: [], settings: null, preCommit: { hook, chained: `${hook}.kizu-chained`, created: true } };
  writeFileSync(sb.path('.git/kizu/install-project.json'), JSON.stringify(record));
  const before = filesUnder(sb.dir, WATCHED);
  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.ok(t.stdout.includes('removed .husky/_/pre-commit.kizu-chained (a leftover copy of a generated hook; .husky/_/pre-commit is not git-kizu\'s any more)\n'), t.stdout);
  assert.ok(!existsSync(sb.path('.husky/_/pre-commit.kizu-chained')));
  assert.equal(sb.read('.husky/_/pre-commit'), stub);

  // Our old hook still in place with the stub chained: init moves the guard to .husky/pre-commit.
  writeFileSync(hook, ours, { mode: 0o755 });
  writeFileSync(`${hook}.kizu-chained`, stub, { mode: 0o755 });
  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stdout.includes('restored .husky/_/pre-commit (the hook git-kizu had chained; the guard now runs through the hook manager)\n'), r.stdout);
  assert.equal(sb.read('.husky/_/pre-commit'), stub);
  assert.ok(!existsSync(`${hook}.kizu-chained`));
  assert.equal(commitScar(sb).status, 1);
  ok(sb.kizu(['teardown']), 'teardown 2');
  delete before['.husky/_/pre-commit.kizu-chained'];
  assert.deepEqual(filesUnder(sb.dir, WATCHED), before);
});

test('--scope local with husky: .husky/pre-commit (shared) is not edited; the lines are printed with the project-scope command; status says missing', () => {
  const sb = huskyRepo();
  runHusky(sb);
  const before = sb.read('.husky/pre-commit');
  const r = ok(sb.kizu(['init', '--scope', 'local']), 'init --scope local');
  assert.ok(
    r.stderr.includes('did not edit .husky/pre-commit: --scope local does not edit husky (.husky/pre-commit), which is shared with your team; add this yourself, or run `git kizu init` (project scope) to install it for the team:'),
    r.stderr,
  );
  assert.ok(r.stdout.includes('\n# git-kizu: refuse commits whose staged files hold review scars (added by git kizu init; git kizu teardown removes it)\nkizu_guard='), r.stdout);
  assert.equal(sb.read('.husky/pre-commit'), before);
  assert.equal(sb.git('status', '--porcelain', '--', '.husky'), '');
  assert.match(statusLine(sb), /pre-commit: missing: husky \(\.husky\/pre-commit\) does not run the git-kizu guard; run `git kizu init`$/);
});

for (const userHook of [null, '#!/bin/sh\necho user-ran >> "$(git rev-parse --git-dir)/user-ran"\n']) {
  test(`init, then \`husky init\`, then init again${userHook ? ' (a hook of yours chained in .git/hooks)' : ''}: git-kizu's hook leaves .git/hooks${userHook ? ', yours is put back as it was' : ''}; the record is true, teardown restores every byte`, () => {
    const sb = sandbox({ files: { 'package.json': '{\n  "name": "x",\n  "scripts": {\n    "test": "true"\n  }\n}\n' } });
    if (userHook) writeFileSync(sb.path('.git/hooks/pre-commit'), userHook, { mode: 0o755 });
    const hooksBefore = filesUnder(sb.dir, ['.git/hooks/']);
    ok(sb.kizu(['init']), 'init');
    assert.ok(sb.read('.git/hooks/pre-commit').includes('git-kizu-managed-pre-commit'));
    ok(sb.run(husky(), ['init']), 'husky init');
    const huskyFiles = filesUnder(sb.dir, ['.husky/', 'package.json']);

    const r = ok(sb.kizu(['init']), 'init again');
    assert.equal(
      r.stdout,
      'unchanged .claude/hooks/kizu-hook.sh\n' +
        'unchanged .claude/commands/kizu.md\n' +
        (userHook
          ? 'restored .git/hooks/pre-commit (the hook git-kizu had chained; git runs the hooks in .husky/_ now)\n'
          : "removed .git/hooks/pre-commit (git-kizu's old hook; git runs the hooks in .husky/_ now)\n") +
        'updated .husky/pre-commit (added the git-kizu guard for husky (.husky/pre-commit))\n' +
        'unchanged .claude/settings.json\n' +
        `${NEXT}\n`,
    );
    assert.equal(r.stderr, '');
    assert.deepEqual(filesUnder(sb.dir, ['.git/hooks/']), hooksBefore);
    assert.equal(JSON.parse(sb.read('.git/kizu/install-project.json')).preCommit, null);
    assert.match(statusLine(sb), /pre-commit: installed \(husky, \.husky\/pre-commit\)$/);
    const refused = commitScar(sb);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
    sb.git('reset', '-q');

    const t = ok(sb.kizu(['teardown']), 'teardown');
    assert.ok(t.stdout.includes('updated .husky/pre-commit (removed the git-kizu guard)\n'), t.stdout);
    assert.deepEqual(filesUnder(sb.dir, ['.husky/', 'package.json']), huskyFiles);
    assert.deepEqual(filesUnder(sb.dir, ['.git/hooks/']), hooksBefore);
  });
}
