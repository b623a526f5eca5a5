/**
 * Long output through the user's pager, by git's rules (git(1) "core.pager", git-var(1)
 * GIT_PAGER, git's pager.c setup_pager): only when stdout is a terminal; the command is
 * GIT_PAGER, else core.pager (the user's or the system's, not the repository's own), else
 * PAGER, else git's default `less`,
 * run by the shell; `cat` or an empty command means no pager; LESS=FRX and LV=-c are set for
 * it when unset (so `less` quits on one screen and keeps colours). While it runs, what the
 * console Reporter logs goes to its stdin (src/output.ts redirectOutput); stderr stays on
 * the terminal. src/cli/program.ts decides which commands page (never a hook, `--json`,
 * `--no-pager`, a question on the terminal).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { gitText } from './git/run.js';
import { redirectOutput, type Reporter } from './output.js';

/** Config scopes whose `core.pager` counts: the user's and the system's, and `git -c` on the command line. */
const TRUSTED_SCOPES = new Set(['system', 'global', 'command']);

/**
 * The pager command for `cwd`, by git's order (git-var(1) GIT_PAGER: GIT_PAGER, else
 * core.pager, else PAGER, else `less`) with one difference: `core.pager` counts only from the
 * user's and the system's config and `git -c`, never from the repository's own config
 * (`.git/config`, its includes, `config.worktree`), which the agent under review can write: a
 * pager set there could filter what the reviewer reads (`grep -v rejected`). Read with
 * `git config --show-scope --get-all core.pager` (git ≥ 2.26); the last trusted value wins.
 * @returns the command, or null for none (`cat` or empty).
 */
export async function pagerCommand(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  let cmd = env.GIT_PAGER;
  if (cmd === undefined) {
    let lines = '';
    try {
      lines = await gitText(['config', '--show-scope', '--get-all', 'core.pager'], { cwd });
    } catch {
      /* unset (exit 1) */
    }
    for (const line of lines.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0 && TRUSTED_SCOPES.has(line.slice(0, tab))) cmd = line.slice(tab + 1);
    }
  }
  cmd ??= env.PAGER ?? 'less';
  return cmd === '' || cmd === 'cat' ? null : cmd;
}

/** A running pager (see {@link startPager}). */
export interface Pager {
  /**
   * Closes the pager's stdin, sends the Reporter's output back to stdout and waits for the
   * pager to exit (the user reads, then quits it).
   * @returns a warning when the pager could not run (exit 126/127 or a spawn error), so the
   *   output was lost; else null. A pager quitting early (the user pressed q) is no error.
   */
  finish(): Promise<string | null>;
}

/**
 * Starts `command` (a shell command line, as git runs it) with its stdin a pipe and stdout and
 * stderr the terminal, and sends the console Reporter's lines to it. Writes after the pager
 * quit are dropped (EPIPE), so the command still runs to its end. While it runs, SIGINT (the
 * user's Ctrl-C reaches both) waits for the pager to exit and then ends git-kizu with 130,
 * as git does, so that the terminal is left to the shell in order.
 */
export function startPager(command: string, env: NodeJS.ProcessEnv = process.env): Pager {
  const penv: NodeJS.ProcessEnv = { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c', GIT_PAGER_IN_USE: 'true' };
  const child: ChildProcess = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: penv });
  const stdin = child.stdin!;
  stdin.on('error', () => {}); // EPIPE: the pager quit before reading everything
  let spawnError: Error | null = null;
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (e) => {
      spawnError = e;
      resolve(null);
    });
    child.on('close', (code) => resolve(code));
  });
  redirectOutput({ write: (s: string) => (stdin.writable ? stdin.write(s) : false) });
  const onInt = () => {
    redirectOutput(null);
    stdin.end();
    void exited.then(() => process.exit(130));
  };
  process.on('SIGINT', onInt);
  return {
    async finish() {
      redirectOutput(null);
      stdin.end();
      const code = await exited;
      process.off('SIGINT', onInt);
      if (spawnError) return `could not run the pager "${command}": ${(spawnError as Error).message}`;
      if (code === 126 || code === 127) return `the pager "${command}" could not run (exit ${code}), so the output was lost`;
      return null;
    },
  };
}

/** Hint that goes with the warning of {@link Pager.finish}. */
export const PAGER_HINT = 'fix GIT_PAGER, core.pager or PAGER, or run with --no-pager';

/** Finishes `p` and reports a failed pager through `reporter` (a warning). */
export async function endPager(p: Pager, reporter: Reporter): Promise<void> {
  const w = await p.finish();
  if (w) reporter.warn(`${w} (${PAGER_HINT})`);
}
