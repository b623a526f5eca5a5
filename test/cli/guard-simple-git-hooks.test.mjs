// The pre-commit guard with simple-git-hooks 2.x, the real tool (test/tools): kizu appends
// `&& { <guard>; }` to the configured pre-commit command (package.json "simple-git-hooks" or
// .simple-git-hooks.json) or creates the key, and brings the hook simple-git-hooks generated
// in line as the tool itself would; the tool's install run again keeps the guard; teardown
// gives back the configuration's exact bytes and the hook the tool writes without the guard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { ok } from '../helpers/expect.mjs';
import { commitScar, commitStaged, filesUnder, mode } from '../helpers/install.mjs';
import { sghPrelude, simpleGitHooks } from '../helpers/tools.mjs';

const PKG = '{\n  "name": "x",\n  "simple-git-hooks": {\n    "pre-commit": "echo sgh-ran >> .git/sgh-ran"\n  }\n}\n';
const runSgh = (sb) => ok(sb.run(simpleGitHooks(), []), 'simple-git-hooks');
const WATCHED = ['package.json', '.simple-git-hooks.json', '.git/hooks/', '.git/config'];
const guardOf = (sb) => JSON.parse(sb.kizu(['status', '--json']).stdout).hooks.guard;

test('simple-git-hooks first, then init: the command gets `&& { guard; }`, the generated hook follows; the tool again; scar refused, clean passes; teardown restores every byte', () => {
  const sb = sandbox({ files: { 'package.json': PKG } });
  runSgh(sb);
  const before = filesUnder(sb.dir, WATCHED);
  assert.equal(guardOf(sb).state, 'missing');

  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stdout.includes('updated package.json (added the git-kizu guard for simple-git-hooks (package.json "simple-git-hooks"))\n'), r.stdout);
  assert.ok(r.stdout.includes('updated .git/hooks/pre-commit (as `npx simple-git-hooks` writes it from the new configuration)\n'), r.stdout);
  const cmd = JSON.parse(sb.read('package.json'))['simple-git-hooks']['pre-commit'];
  assert.match(cmd, /^echo sgh-ran >> \.git\/sgh-ran && \{ kizu_guard="\$\(git rev-parse --git-common-dir\)\/kizu\/git-kizu"; .*; fi; \}$/);
  assert.ok(!cmd.includes(sb.base), 'no machine path');
  assert.equal(sb.read('package.json').split('\n').length, PKG.split('\n').length, 'one line changed');
  assert.equal(sb.read('.git/hooks/pre-commit'), sghPrelude() + cmd);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.kizu-chained')));

  const hookAfterInit = sb.read('.git/hooks/pre-commit');
  runSgh(sb);
  assert.equal(sb.read('.git/hooks/pre-commit'), hookAfterInit, 'the tool writes the same hook');
  assert.equal(mode(sb.path('.git/hooks/pre-commit')), 0o755);
  assert.deepEqual(guardOf(sb), { state: 'installed', via: 'simple-git-hooks', file: sb.path('package.json') });
  const refused = commitScar(sb);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^ {2}"scarred\.js":2 {2}\[ask\] {2}x$/m);
  sb.git('reset', '-q');
  ok(commitStaged(sb, 'clean.js', 'const a = 1;\n'), 'clean commit');
  assert.equal(sb.read('.git/sgh-ran'), 'sgh-ran\nsgh-ran\n', 'the existing command ran first, both times');

  const t = ok(sb.kizu(['teardown']), 'teardown');
  assert.ok(t.stdout.includes('updated package.json (removed the git-kizu guard)\n'), t.stdout);
  assert.ok(t.stdout.includes('updated .git/hooks/pre-commit (as simple-git-hooks writes it from the configuration)\n'), t.stdout);
  assert.deepEqual(filesUnder(sb.dir, WATCHED), before);
});

test('init first, then the tool\'s first install: the guard runs at once (the hook written as the tool writes it); teardown leaves what the tool writes without it', () => {
  const sb = sandbox({ files: { 'package.json': PKG } });
  const pkg = sb.read('package.json');
  ok(sb.kizu(['init']), 'init');
  assert.equal(commitScar(sb).status, 1, 'refused before the tool ran');
  sb.git('reset', '-q');
  runSgh(sb);
  assert.equal(commitScar(sb).status, 1, 'refused after the tool ran');
  sb.git('reset', '-q');
  ok(sb.kizu(['teardown']), 'teardown');
  assert.equal(sb.read('package.json'), pkg);
  assert.equal(sb.read('.git/hooks/pre-commit'), sghPrelude() + 'echo sgh-ran >> .git/sgh-ran');
  runSgh(sb);
  assert.equal(sb.read('.git/hooks/pre-commit'), sghPrelude() + 'echo sgh-ran >> .git/sgh-ran');
});

test('only the dependency in package.json (tab-indented, CRLF): init creates the "simple-git-hooks" key; teardown removes it byte for byte and the hook with it', () => {
  const pkg = '{\r\n\t"name": "x",\r\n\t"devDependencies": {\r\n\t\t"simple-git-hooks": "2.14.0"\r\n\t}\r\n}';
  const sb = sandbox({ files: { 'package.json': pkg } });
  ok(sb.kizu(['init']), 'init');
  const text = sb.read('package.json');
  assert.ok(text.startsWith(pkg.slice(0, -3) + ',\r\n\t"simple-git-hooks": {\r\n\t\t"pre-commit": "kizu_guard='), JSON.stringify(text));
  assert.ok(text.endsWith('; fi"\r\n\t}\r\n}'), JSON.stringify(text.slice(-30)));
  runSgh(sb);
  assert.equal(commitScar(sb).status, 1);
  sb.git('reset', '-q');
  ok(sb.kizu(['teardown']), 'teardown');
  assert.equal(sb.read('package.json'), pkg);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit')), 'the tool writes no pre-commit hook without the key');
});

test('.simple-git-hooks.json is edited; a JavaScript config is printed, not edited; --scope local prints and edits nothing', () => {
  const json = '{ "pre-commit": "true" }\n';
  const sb = sandbox({ files: { '.simple-git-hooks.json': json, 'package.json': '{"name":"x"}\n' } });
  ok(sb.kizu(['init']), 'init');
  assert.match(sb.read('.simple-git-hooks.json'), /^\{ "pre-commit": "true && \{ kizu_guard=.*; fi; \}" \}\n$/);
  ok(sb.kizu(['teardown']), 'teardown');
  assert.equal(sb.read('.simple-git-hooks.json'), json);

  const local = ok(sb.kizu(['init', '--scope', 'local']), 'init --scope local');
  assert.ok(local.stderr.includes('which is shared with your team; add this yourself, or run `git kizu init` (project scope) to install it for the team:'), local.stderr);
  assert.ok(local.stdout.includes('\n&& { kizu_guard='), local.stdout);
  assert.equal(sb.read('.simple-git-hooks.json'), json);
  assert.deepEqual(guardOf(sb), { state: 'missing', why: 'simple-git-hooks (.simple-git-hooks.json) does not run the git-kizu guard', fix: 'git kizu init' });
  ok(sb.kizu(['teardown', '--scope', 'local']), 'teardown local');

  const js = sandbox({ files: { '.simple-git-hooks.cjs': 'module.exports = { "pre-commit": "true" };\n' } });
  const r = ok(js.kizu(['init']), 'init js');
  assert.ok(r.stderr.includes('did not edit .simple-git-hooks.cjs: .simple-git-hooks.cjs is JavaScript, which git-kizu does not edit; add the guard to its pre-commit command:'), r.stderr);
  assert.ok(r.stdout.includes('\n"pre-commit": "kizu_guard='), r.stdout);
  assert.equal(js.read('.simple-git-hooks.cjs'), 'module.exports = { "pre-commit": "true" };\n');
  assert.ok(!existsSync(js.path('.git/hooks/pre-commit')));
});

test('a command that would swallow an appended one (trailing `;`, a `#` comment) is printed; invalid .simple-git-hooks.json: exit 2, nothing written', () => {
  const sb = sandbox({ files: { 'package.json': '{"simple-git-hooks": {"pre-commit": "lint # all"}}\n' } });
  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stderr.includes('did not edit package.json: the pre-commit command in package.json cannot safely be extended; append this to it:'), r.stderr);
  assert.equal(sb.read('package.json'), '{"simple-git-hooks": {"pre-commit": "lint # all"}}\n');

  const bad = sandbox({ files: { '.simple-git-hooks.json': '{"pre-commit": "true",}\n' } });
  const b = bad.kizu(['init']);
  assert.equal(b.status, 2);
  assert.match(b.stderr, /^git-kizu: error: cannot add the pre-commit guard to \.simple-git-hooks\.json: it is not valid JSON \(PropertyNameExpected at offset 22\)\n/);
  assert.ok(!existsSync(bad.path('.claude')));
  assert.ok(!existsSync(bad.path('.git/kizu')));
  assert.equal(readFileSync(bad.path('.simple-git-hooks.json'), 'utf8'), '{"pre-commit": "true",}\n');
});

test('an old git-kizu hook a manager kept as pre-commit.old / pre-commit.legacy is removed by init; a hand-written chained hook is kept with a warning', () => {
  const plain = sandbox();
  ok(plain.kizu(['init']), 'init in a plain repo');
  const ours = plain.read('.git/hooks/pre-commit');
  const sb = sandbox({ files: { 'package.json': PKG } });
  runSgh(sb);
  writeFileSync(sb.path('.git/hooks/pre-commit.old'), ours, { mode: 0o755 });
  writeFileSync(sb.path('.git/hooks/pre-commit.legacy'), ours, { mode: 0o755 });
  writeFileSync(sb.path('.git/hooks/pre-commit.kizu-chained'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stdout.includes("removed .git/hooks/pre-commit.old (git-kizu's old hook, kept there by a hook manager)\n"), r.stdout);
  assert.ok(r.stdout.includes("removed .git/hooks/pre-commit.legacy (git-kizu's old hook, kept there by a hook manager)\n"), r.stdout);
  assert.ok(r.stderr.includes('kept .git/hooks/pre-commit.kizu-chained: a hook of yours that git-kizu\'s old hook ran first;'), r.stderr);
  assert.ok(!existsSync(sb.path('.git/hooks/pre-commit.old')) && !existsSync(sb.path('.git/hooks/pre-commit.legacy')));
  assert.equal(sb.read('.git/hooks/pre-commit.kizu-chained'), '#!/bin/sh\necho mine\n');
});

test('a package.json that is a symbolic link is not written through: init prints the JSON fragment to add to its pre-commit command, and exits 0', () => {
  const sb = sandbox({ files: { 'shared/package.json': PKG } });
  sb.run('ln', ['-s', 'shared/package.json', sb.path('package.json')]);
  runSgh(sb);
  const r = ok(sb.kizu(['init']), 'init');
  assert.ok(r.stderr.includes(`did not edit package.json: ${sb.path('package.json')} is a symbolic link, which git-kizu does not write through:`), r.stderr);
  const { SGH_SUFFIX } = JSON.parse(
    sb.runModule(`import { SGH_SUFFIX } from ${JSON.stringify(new URL('../../src/install/managers/simple-git-hooks.ts', import.meta.url).href)}; console.log(JSON.stringify({ SGH_SUFFIX }));`).stdout,
  );
  // The fragment as it goes inside the JSON string (quotes escaped), not the shell lines.
  assert.ok(r.stdout.includes(`${JSON.stringify(SGH_SUFFIX).slice(1, -1).trim()}\n`), r.stdout);
  assert.equal(sb.read('shared/package.json'), PKG);
});
