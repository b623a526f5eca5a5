/**
 * Where commands send human-readable lines. Commands never write to process.stdout
 * directly; they take a Reporter so that tests and the demo can capture output.
 */
import pc from 'picocolors';

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
