/**
 * Where commands send human-readable lines. Commands never write to process.stdout
 * directly; they take a Reporter so that tests and the demo can capture output.
 */
import { createRequire } from 'node:module';

/** The picocolors formatters (picocolors' `Colors`). */
export type Colors = Omit<typeof import('picocolors'), 'createColors'>;

/**
 * picocolors' own test for colour support, word for word (picocolors.js 1.1.1, evaluated
 * when it loads): off with NO_COLOR or --no-color; else on with FORCE_COLOR, --color,
 * Windows, a terminal on stdout (TERM not dumb), or CI.
 */
export function colorSupported(p: NodeJS.Process = process): boolean {
  const argv = p.argv || [];
  const env = p.env || {};
  return !(!!env.NO_COLOR || argv.includes('--no-color')) && (!!env.FORCE_COLOR || argv.includes('--color') || p.platform === 'win32' || (!!(p.stdout || {}).isTTY && env.TERM !== 'dumb') || !!env.CI);
}

const FORMATS = ['reset', 'bold', 'dim', 'italic', 'underline', 'inverse', 'hidden', 'strikethrough', 'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray'] as const;
const BG = ['bgBlack', 'bgRed', 'bgGreen', 'bgYellow', 'bgBlue', 'bgMagenta', 'bgCyan', 'bgWhite'] as const;
const BRIGHT = [...FORMATS.slice(8, 16).map((c) => `${c}Bright`), ...BG.map((c) => `${c}Bright`)];

/**
 * Colour formatters: picocolors itself when colours can be on ({@link colorSupported}), else
 * what picocolors gives then (`createColors(false)`: every formatter is `String`) without
 * loading the package (loading it costs several milliseconds on every command).
 */
const pc: Colors = colorSupported()
  ? (createRequire(import.meta.url)('picocolors') as Colors)
  : (Object.fromEntries([['isColorSupported', false], ...[...FORMATS, ...BG, ...BRIGHT].map((k) => [k, String])]) as Colors);

export interface Reporter {
  /** A normal output line (stdout). */
  log(line: string): void;
  /** A warning line (stderr), prefixed "git-kizu: warning: ". */
  warn(line: string): void;
}

/** Reporter writing to the process streams. */
export const consoleReporter: Reporter = {
  log: (line) => process.stdout.write(line + '\n'),
  warn: (line) => process.stderr.write(`${pc.yellow('git-kizu: warning:')} ${line}\n`),
};

/** Reporter that collects lines in memory (for the demo and tests). */
export function memoryReporter(): Reporter & { lines: string[]; warnings: string[] } {
  const lines: string[] = [];
  const warnings: string[] = [];
  return { lines, warnings, log: (l) => lines.push(l), warn: (l) => warnings.push(l) };
}

export { pc };

let pipesGuarded = false;

/**
 * Makes a closed stdout or stderr (`git kizu rollback snapshot ... | head -1`) end the output
 * quietly instead of ending the process: the command goes on to the end with its output
 * dropped, so that nothing is left half done (a rollback without its undo record, an init
 * without its settings). Only the output is lost; the exit code is the command's own.
 * Other stream errors are thrown as before. Installs once per process.
 */
export function guardClosedPipes(): void {
  if (pipesGuarded) return;
  pipesGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
      throw e;
    });
  }
}
