/**
 * The one way in (bin/git-kizu.js loads this). `git-kizu hook <event>` goes to the hook
 * handlers without loading the CLI framework (hooks run on every edit and stop); everything
 * else goes to the commander program. This is the one place that prints errors and sets the
 * exit code: commands and hook handlers return codes or throw.
 */
import { EXIT, KizuError } from './errors.js';
import { printableLines } from './printable.js';

/**
 * Prints an error in the standard form (`git-kizu: error: <message>` and `hint: <hint>` for a
 * KizuError; the stack and a request to report it for anything else) on stderr.
 * @returns the exit code for it: the KizuError's, else 2.
 */
export async function reportError(e: unknown): Promise<number> {
  // Loaded here, not up front: output.ts sets up process.stdout and process.stderr (streams a
  // hook never uses; hooks write with writeSync).
  const { pcErr: pc } = await import('./output.js');
  if (e instanceof KizuError) {
    process.stderr.write(`${pc.red('git-kizu: error:')} ${printableLines(e.message)}\n`);
    if (e.hint) process.stderr.write(`${pc.dim('hint:')} ${printableLines(e.hint)}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  process.stderr.write(`${pc.red('git-kizu: internal error:')} ${printableLines(err?.stack ?? String(e))}\n`);
  process.stderr.write(`${pc.dim('hint:')} this is a bug in git-kizu; please report it with the command you ran\n`);
  return EXIT.ERROR;
}

/** True when the process's current directory was deleted or moved away (uv_cwd: ENOENT). */
function cwdGone(): boolean {
  try {
    process.cwd();
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs git-kizu for `argv` (process.argv) and sets process.exitCode. Never throws.
 */
export async function main(argv: string[]): Promise<void> {
  const first = argv[2];
  // Hooks, help and the version work without a current directory.
  if (cwdGone() && !['hook', 'help', '--help', '-h', '--version', '-V', undefined].includes(first)) {
    process.stderr.write('git-kizu: the current directory no longer exists (it was deleted or moved)\nhint: cd into your repository and run the command again\n');
    process.exitCode = EXIT.ERROR;
    return;
  }
  try {
    // `hook` with no event or with --help goes to commander: the usage error (exit 2) or the help.
    const hookHelp = first === 'hook' && (argv.length < 4 || argv.slice(3).some((a) => a === '--help' || a === '-h'));
    if (first === 'hook' && !hookHelp) {
      const { runHook } = await import('./hooks/run.js');
      process.exitCode = await runHook(argv[3], argv.slice(4));
      return;
    }
    // A closed pipe (`git kizu status | head`) ends the output quietly, never the command.
    (await import('./output.js')).guardClosedPipes();
    const { runCli } = await import('./cli/program.js');
    process.exitCode = await runCli(argv);
  } catch (e) {
    process.exitCode = await reportError(e);
  }
}
