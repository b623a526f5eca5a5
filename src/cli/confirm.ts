/**
 * The confirmation gate shared by every command that changes files by a plan (`rollback
 * snapshot`, `rollback branch`, `rollback patch`, `undo`, `patch apply`, `task land --remove`
 * when ignored files would go without a copy): whether a human can
 * be asked, and the question itself (`<question> [y/N]` on stderr, the answer read from stdin).
 * Without a terminal and without `--yes` each command refuses (exit 1), nothing written, and
 * its hint names both ways on: `--dry-run` to see the plan again, `--yes` to carry it out.
 */
import { createInterface } from 'node:readline';

/**
 * Asks `question [y/N]` on stderr and reads one line from stdin.
 * @returns true for y / yes (any case); false for anything else, or stdin closing.
 */
export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(`${question} [y/N] `, resolve);
      rl.once('close', () => resolve(''));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/** True if the process can ask a human (stdin and stderr are terminals). */
export function canAsk(): boolean {
  return !!process.stdin.isTTY && !!process.stderr.isTTY;
}
