/** `git kizu review [--all] [paths...]`: hunk-by-hunk review in the terminal (src/review). */
import { KizuError, EXIT } from '../errors.js';
import { pc } from '../output.js';
import { repoContext } from './context.js';
import { toRootPaths } from './hunks.js';

export interface ReviewCommandInput {
  cwd: string;
  /** Limit to these paths (relative to cwd). */
  paths: string[];
  /** Also show hunks already tapped. */
  all: boolean;
  /** Defaults to process.stdin / process.stdout / process.stderr. */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * Shows each hunk (not tapped yet, unless `all`) and reads one key per hunk in raw mode:
 * tap, reject, ask / reject / free scar, revert, revert with a reason scar, skip, quit, help
 * (keys from config `review.keys`). Ctrl-C and Ctrl-D quit like the quit key. The terminal
 * mode is restored however the loop ends. Prints a summary and the hunks not tapped yet.
 * @returns 0.
 * @throws KizuError (exit 2) when stdin is not a terminal (scripts use `git kizu tap`,
 *   `reject`, `scar`, `revert`), outside a repository, for an invalid config, no baseline,
 *   or a path outside the repository.
 */
export async function reviewCommand(i: ReviewCommandInput): Promise<number> {
  const stdin = i.stdin ?? process.stdin;
  const stdout = i.stdout ?? process.stdout;
  const stderr = i.stderr ?? process.stderr;
  if (!stdin.isTTY) {
    throw new KizuError('git kizu review needs a terminal: stdin is not a TTY', {
      hint: 'in scripts, list hunks with git kizu hunks --json and act on them with git kizu tap, git kizu reject, git kizu scar or git kizu revert',
    });
  }
  const ctx = await repoContext(i.cwd);
  const named = toRootPaths(ctx.root, i.cwd, i.paths);
  const paths = named.includes('') ? [] : named;
  const { terminalInput, readLineWith } = await import('./review/input.js');
  const { runReview } = await import('./review/loop.js');
  const write = (s: string) => void stdout.write(s);
  const input = terminalInput(stdin);
  try {
    await runReview({
      root: ctx.root,
      gitDir: ctx.gitDir,
      paths,
      all: i.all,
      keys: ctx.config.review.keys,
      io: {
        readKey: input.readKey,
        readLine: (prompt) => readLineWith(input.readKey, write, pc.bold(prompt)),
        write,
        writeErr: (s) => void stderr.write(s),
      },
    });
  } finally {
    input.close();
  }
  return EXIT.OK;
}
