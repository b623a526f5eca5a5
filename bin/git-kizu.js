#!/usr/bin/env node
// Tiny entry: hook handlers take a fast path that loads no CLI framework.
let cwdGone = false;
try {
  process.cwd();
} catch {
  cwdGone = true; // the directory was deleted or moved away (uv_cwd: ENOENT)
}
// Hooks, help and the version work without a current directory.
if (cwdGone && !['hook', 'help', '--help', '-h', '--version', '-V', undefined].includes(process.argv[2])) {
  process.stderr.write('git-kizu: the current directory no longer exists (it was deleted or moved)\nhint: cd into your repository and run the command again\n');
  process.exitCode = 2;
} else if (process.argv[2] === 'hook') {
  // The hooks that run on every prompt, edit and stop come from one bundled file each, like
  // `snapshot` below (package.json "bundle"); the others load their modules from dist/.
  const bundled = ['user-prompt-submit', 'post-tool-use', 'stop'].includes(process.argv[3]);
  const entry = bundled ? `../dist/bundle/hook-${process.argv[3]}.js` : '../dist/hooks/cli.js';
  const { runHookCli } = await import(entry);
  await runHookCli(process.argv.slice(3));
} else if (process.argv[2] === 'snapshot' && (await import('../dist/bundle/snapshot.js')).snapshotFast(process.argv.slice(3))) {
  // `git kizu snapshot [-m <msg>] [--json]` without the CLI framework (src/commands/snapshot.ts),
  // from one bundled file (package.json "build": esbuild; one module loads faster than the
  // fifteen it is made of; rarely used code stays in dist/ and loads on demand).
  await (await import('../dist/bundle/snapshot.js')).snapshotFastRun(process.argv.slice(3));
} else if (['hunks', 'tap', 'reject', 'untap'].includes(process.argv[2]) && (await (await import('../dist/commands/fast.js')).runFast(process.argv.slice(2)))) {
  // `git kizu hunks|tap|reject|untap` in their plain forms, without the CLI framework (src/commands/fast.ts).
} else {
  const { main } = await import('../dist/cli.js');
  await main(process.argv);
}
