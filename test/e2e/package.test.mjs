// End-to-end: the package as users get it. The built tree (dist/ is built by `npm test`
// before any test runs; this test never rebuilds it, other tests run at the same time) is
// packed with `npm pack`, the tarball is installed globally into a temp prefix without
// devDependencies (`npm install -g --prefix <tmp> --omit=dev`, dependencies from the npm
// registry), and the installed `git-kizu` is run from a sandbox repository: as
// `<prefix>/bin/git-kizu` and as `git kizu` (git finds it on PATH), `demo`, the Stop hook
// with a real Claude Code payload, `git kizu --help` and `git help kizu` (git runs `man
// git-kizu`; man-db finds the page npm linked into <prefix>/share/man from <prefix>/bin on
// PATH), and `git kizu completion bash` with git's own bash completion. Catches what the tests of the source tree cannot: a file
// left out of package.json "files", a module imported at run time from a devDependency or not
// declared at all, a bin that only works beside src/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { sandbox, ROOT, BIN } from '../helpers/sandbox.mjs';
import { bashComplete } from '../helpers/completion.mjs';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/**
 * The environment npm runs in: this process's (the user's npm config, registry, CA file and
 * cache stay as they are), minus what `npm test` sets that would point npm at this checkout
 * or another prefix.
 */
function npmEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^npm_config_(prefix|global_prefix|local_prefix)$/i.test(k) || k === 'NODE_PATH') delete env[k];
  return env;
}

/** Runs npm; asserts exit 0; returns {stdout, stderr}. */
function npmRun(args, cwd) {
  const r = spawnSync('npm', args, { cwd, env: npmEnv(), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `npm ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r;
}
const npm = (args, cwd) => npmRun(args, cwd).stdout;

const STOP = (sb, session) => ({
  session_id: session,
  transcript_path: path.join(sb.base, 'transcript.jsonl'),
  cwd: sb.dir,
  hook_event_name: 'Stop',
  stop_hook_active: false,
});

test('npm pack + npm install -g --omit=dev: the installed git-kizu runs --version, demo, the Stop hook, git kizu --help (its man page) and bash completion', { timeout: 600_000 }, () => {
  const sb = sandbox({ files: { 'src/app.js': 'export const a = 1;\nexport const b = 2;\n' } });
  const work = path.join(sb.base, 'package');
  const prefix = path.join(work, 'prefix');
  mkdirSync(work);

  // 1. The tarball: exactly the built package, nothing of the source tree or the tests.
  const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT));
  const tarball = path.join(work, packed.filename);
  assert.equal(packed.filename, `git-kizu-${pkg.version}.tgz`);
  const files = packed.files.map((f) => f.path).sort();
  for (const f of ['package.json', 'README.md', 'LICENSE', 'man/git-kizu.1', 'bin/git-kizu.js', 'dist/main.js', 'templates/review-queue.md', '.claude/commands/kizu.md']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  assert.ok(files.some((f) => f.startsWith('templates/hooks/')), 'templates/hooks/ is in the tarball');
  assert.deepEqual(
    files.filter((f) => !/^(bin|dist|templates|\.claude\/commands|\.claude-plugin|plugin)\//.test(f) && !['package.json', 'README.md', 'LICENSE', 'man/git-kizu.1'].includes(f)),
    [],
    'nothing outside bin/, dist/, templates/, .claude/commands/, the Claude Code plugin and its marketplace, package.json, README.md, LICENSE and the man page',
  );
  assert.deepEqual(
    files.filter((f) => /^(\.claude-plugin|plugin)\//.test(f)),
    ['.claude-plugin/marketplace.json', 'plugin/.claude-plugin/plugin.json', 'plugin/commands/kizu.md', 'plugin/hooks/hooks.json', 'plugin/hooks/kizu-plugin-hook.sh'],
    'the plugin and its one-plugin marketplace (init --via plugin names the installed package as the marketplace)',
  );
  assert.deepEqual(
    files.filter((f) => /^(src|test|bench|\.ci|node_modules)\//.test(f) || /\.ts$/.test(f) || /^tsconfig/.test(f)),
    [],
    'no sources, tests, bench, CI scripts or dependencies',
  );
  // Node's module compile cache, which the bin keeps in dist/.compile-cache (Node >= 22.1), is
  // this machine's: made by the tests that ran the bin, never shipped.
  assert.deepEqual(files.filter((f) => f.startsWith('dist/.compile-cache/')), [], 'no compile cache');
  // The build is flat: every built module sits in dist/ itself.
  assert.deepEqual(
    files.filter((f) => f.startsWith('dist/') && (f.split('/').length !== 2 || !f.endsWith('.js'))),
    [],
  );

  // Nothing runs at install (npm 11 warns about install scripts, `prepare` included, of a
  // package not in allowScripts): the build happens before packing (prepack).
  assert.deepEqual(Object.keys(pkg.scripts).filter((k) => /^(pre|post)?(install|prepare)$/.test(k)), [], 'no install-time scripts');

  // 2. Install it as a user would, without devDependencies.
  const install = npmRun(['install', '-g', '--prefix', prefix, '--omit=dev', '--no-audit', '--no-fund', tarball], work);
  assert.deepEqual(`${install.stdout}${install.stderr}`.split('\n').filter((l) => /install-scripts|allowScripts|npm warn/i.test(l)), [], 'npm warns about nothing');
  const installed = path.join(prefix, 'lib', 'node_modules', 'git-kizu');
  const bin = path.join(prefix, 'bin', 'git-kizu');
  assert.ok(existsSync(bin), `${bin} exists`);
  // The installed package is a valid Claude Code marketplace and plugin (what `init --via plugin` tells users to add).
  for (const dir of [installed, path.join(installed, 'plugin')]) {
    const v = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'claude'), ['plugin', 'validate', dir], { encoding: 'utf8', env: { ...sb.env, DISABLE_AUTOUPDATER: '1' }, timeout: 60_000 });
    assert.equal(v.status, 0, `claude plugin validate ${dir}:\n${v.stdout}${v.stderr}`);
    assert.match(v.stdout, /✔ Validation passed\n?$/);
  }
  assert.deepEqual(
    Object.keys(pkg.devDependencies).filter((d) => existsSync(path.join(installed, 'node_modules', d))),
    [],
    'no devDependency is installed',
  );
  // Every package the built code loads (esbuild leaves packages external: static `from "x"`,
  // dynamic `import("x")`, `createRequire(...)("x")`) is a declared dependency, installed beside it.
  const loaded = new Set();
  const PACKAGE = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:\/[\w./-]+)?$/;
  for (const f of readdirSync(path.join(installed, 'dist'))) {
    const text = readFileSync(path.join(installed, 'dist', f), 'utf8');
    // `from "x"` only in an import or export statement (a message may say `from "env"`).
    for (const re of [/^\s*(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"/gm, /\bimport\s*\(\s*"([^"]+)"\s*\)/g, /\bcreateRequire\([^()]*\)\(\s*"([^"]+)"\s*\)/g, /^import\s*"([^"]+)"/gm]) {
      for (const m of text.matchAll(re)) {
        const name = PACKAGE.exec(m[1])?.[1];
        if (name && !builtinModules.includes(name)) loaded.add(name);
      }
    }
  }
  assert.ok(loaded.has('commander') && loaded.has('isomorphic-git'), `found what dist/ loads: ${[...loaded].join(', ')}`);
  assert.deepEqual([...loaded].filter((n) => !(n in pkg.dependencies)), [], 'dist/ loads only declared dependencies');
  assert.deepEqual([...loaded].filter((n) => !existsSync(path.join(installed, 'node_modules', n, 'package.json'))), [], 'each is installed with the package');

  // 3. Run it from a sandbox repository, with the prefix's bin (and not this checkout's) on PATH.
  const env = { ...sb.env, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}` };
  const run = (cmd, args, opts = {}) => sb.run(cmd, args, { ...opts, env: { ...env, ...(opts.env ?? {}) } });
  assert.equal(run('sh', ['-c', 'command -v git-kizu']).stdout, `${bin}\n`);

  const direct = run(bin, ['--version']);
  assert.deepEqual([direct.status, direct.stdout, direct.stderr], [0, `${pkg.version}\n`, '']);
  const viaGit = run('git', ['kizu', '--version']);
  assert.deepEqual([viaGit.status, viaGit.stdout, viaGit.stderr], [0, `${pkg.version}\n`, '']);

  // demo: the installed package prints exactly what the built tree prints (temp paths aside).
  const tmp = path.join(sb.base, 'tmp');
  mkdirSync(tmp);
  const demo = run('git', ['kizu', 'demo'], { env: { TMPDIR: tmp } });
  assert.equal(demo.status, 0, demo.stderr);
  assert.equal(demo.stderr, '');
  assert.deepEqual(readdirSync(tmp), [], 'demo removed its temp repo');
  const fromTree = sb.run(process.execPath, [BIN, 'demo'], { env: { TMPDIR: tmp } });
  assert.equal(fromTree.status, 0, fromTree.stderr);
  const norm = (s) => s.replace(/\/kizu-demo-[A-Za-z0-9]+\//g, '/kizu-demo-XXXXXX/');
  assert.equal(norm(demo.stdout), norm(fromTree.stdout));
  assert.ok(demo.stdout.startsWith(`git-kizu demo in ${tmp}/kizu-demo-`), demo.stdout.slice(0, 200));
  assert.ok(demo.stdout.endsWith('Next: run `git kizu init` in your own repository (see README, Quickstart).\n'), demo.stdout.slice(-200));

  // Stop hook, real payload: a changed file without scars lets the agent stop silently...
  writeFileSync(path.join(sb.base, 'transcript.jsonl'), '');
  sb.write({ 'src/app.js': 'export const a = 1;\nexport const b = 20;\n' });
  const allowed = run('git', ['kizu', 'hook', 'stop'], { input: JSON.stringify(STOP(sb, 'package-test')) });
  assert.deepEqual([allowed.status, allowed.stdout, allowed.stderr], [0, '', '']);

  // ...and a scar in a changed file blocks it, naming the scar and the protocol.
  const scar = run('git', ['kizu', 'scar', 'src/app.js:2']);
  assert.equal(scar.status, 0, scar.stderr);
  assert.equal(sb.read('src/app.js'), 'export const a = 1;\n// @kizu[ask]: explain this change\nexport const b = 20;\n');
  const blocked = run('git', ['kizu', 'hook', 'stop'], { input: JSON.stringify(STOP(sb, 'package-test')) });
  assert.equal(blocked.status, 0);
  assert.equal(blocked.stderr, '');
  assert.equal(
    blocked.stdout,
    JSON.stringify({
      decision: 'block',
      reason:
        'git-kizu: a human reviewer left 1 scar that is still unresolved. Resolve it before you stop:\n' +
        '- "src/app.js":2 [ask] explain this change → answer the question in your reply, then delete the scar line\n' +
        'Protocol: ask → answer the question in your reply, then delete the scar line; ' +
        'reject → undo that change, then delete the scar line; ' +
        'free → do what it says, then delete the scar line. ' +
        'Delete a scar line by editing the file or with `git kizu unscar <path>:<line>`.',
    }) + '\n',
  );

  // The installed package parses with its grammars: a line inside a template literal moves
  // the scar above the statement.
  sb.write({ 'src/t.ts': 'export const t = `a\nb`;\n' });
  const moved = run('git', ['kizu', 'scar', 'src/t.ts:2']);
  assert.deepEqual(
    [moved.status, moved.stdout, moved.stderr],
    [0, 'scarred src/t.ts:1  // @kizu[ask]: explain this change\n', 'git-kizu: warning: src/t.ts:2 is inside a template string (from line 1), where a comment would change the TypeScript code; the scar went above line 1 instead\n'],
  );

  // git's help: `git kizu --help` (git turns it into `git help kizu`, then `man git-kizu`) and
  // `git help kizu` show the installed page; `git-kizu --help` is commander's help.
  const manEnv = { MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' }; // and no MANPATH: man-db derives it from PATH
  for (const args of [['kizu', '--help'], ['help', 'kizu']]) {
    const help = run('git', args, { env: manEnv });
    assert.equal(help.status, 0, `git ${args.join(' ')}: ${help.stderr}`);
    assert.match(help.stdout, /^GIT-KIZU\(1\) +git-kizu manual +GIT-KIZU\(1\)\n/, `git ${args.join(' ')}`);
    assert.match(help.stdout, /\nNAME\n +git-kizu +- +git-native +review/);
    for (const heading of ['SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'EXIT CODES', 'CONFIG']) assert.match(help.stdout, new RegExp(`\n${heading}\n`), heading);
  }
  const commanderHelp = run(bin, ['--help']);
  assert.equal(commanderHelp.status, 0, commanderHelp.stderr);
  assert.match(commanderHelp.stdout, /^Usage: git kizu \[options\] \[command\]\n/);

  // Completion: the installed git-kizu's bash script, with git's own completion.
  assert.match(run('git', ['kizu', 'completion', 'bash']).stdout, /^_git_kizu\(\) \{$/m);
  assert.deepEqual(bashComplete(sb, [['git', 'kizu', 'ta'], ['git', 'kizu', 'snapshot', '']], { env }), [['tap ', 'task '], ['list ', 'show ', 'drop ']]);
});
