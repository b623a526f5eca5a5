/**
 * The fast path of bin/git-kizu.js for the commands run most often: `hunks [--json]
 * [paths...]` and `tap|reject|untap [--all] [hunks...]` run without loading the CLI framework
 * (commander), exactly as src/cli.ts would run them. Any other form (help, other options,
 * `--`) is left to the full CLI.
 */
import { startEarly } from '../hunks/start.js';

/**
 * The modules each fast command goes on to load (its import graph, builtins included).
 * Node's ESM loader reads a graph one import level at a time, each file an asynchronous read;
 * asking for all of them at once lets it read them in parallel (measured: about 8 ms less on
 * the bench machine). An entry missing here costs only that time.
 */
export const FAST_GRAPH: Record<'hunks' | 'marks', string[]> = {
  hunks: ['./hunks.js', '../output.js', '../hunks/index.js', '../queue/paths.js', '../marks/index.js', '../marks/format.js', 'node:crypto'],
  marks: ['./marks.js', './hunks.js', '../output.js', '../hunks/index.js', '../queue/paths.js', '../marks/index.js', '../marks/format.js', '../marks/store.js', 'node:crypto'],
};

/** A command line the fast path runs. */
export type FastArgs =
  | { cmd: 'hunks'; json: boolean; paths: string[] }
  | { cmd: 'tap' | 'reject' | 'untap'; all: boolean; specs: string[] };

/**
 * Parses `args` (process.argv after the script) if it is a plain form of a fast command:
 * its one flag (`--json` for hunks, `--all` for the marking commands), anywhere, and
 * operands that do not start with '-'.
 * @returns the parsed command, or null for anything else (the full CLI handles it).
 */
export function fastArgs(args: string[]): FastArgs | null {
  const [cmd, ...rest] = args;
  const flag = cmd === 'hunks' ? '--json' : cmd === 'tap' || cmd === 'reject' || cmd === 'untap' ? '--all' : null;
  if (!flag) return null;
  let on = false;
  const operands: string[] = [];
  for (const a of rest) {
    if (a === flag) on = true;
    else if (a.startsWith('-')) return null;
    else operands.push(a);
  }
  if (cmd === 'hunks') return { cmd, json: on, paths: operands };
  return { cmd: cmd as 'tap' | 'reject' | 'untap', all: on, specs: operands };
}

/**
 * Runs the command if {@link fastArgs} accepts `args`, like src/cli.ts main does: output
 * through the console reporter, a closed pipe ends output quietly, errors printed by the CLI's
 * reportError, process.exitCode set. The git processes of the hunk listing start before the
 * command's modules load (hunks/start.ts startEarly), and those modules load in parallel
 * ({@link FAST_GRAPH}).
 * @returns false (having done nothing) if `args` is not a fast form.
 */
export async function runFast(args: string[]): Promise<boolean> {
  const o = fastArgs(args);
  if (!o) return false;
  (await import('../output.js')).guardClosedPipes();
  const cwd = process.cwd();
  // A whole-tree listing follows (hunks without paths; a marking command whose arguments pass
  // its usage check): start its git processes now, while the command loads.
  if (o.cmd === 'hunks' ? !o.paths.length : o.all !== o.specs.length > 0) startEarly(cwd);
  Promise.all(FAST_GRAPH[o.cmd === 'hunks' ? 'hunks' : 'marks'].map((m) => import(m))).catch(() => {}); // awaited through the imports below
  try {
    const { consoleReporter: reporter } = await import('../output.js');
    if (o.cmd === 'hunks') {
      const { hunksCommand } = await import('./hunks.js');
      process.exitCode = await hunksCommand({ cwd, json: o.json, paths: o.paths, reporter });
    } else {
      const { markCommand } = await import('./marks.js');
      process.exitCode = await markCommand({ cwd, verb: o.cmd, specs: o.specs, all: o.all, reporter });
    }
  } catch (e) {
    const { reportError } = await import('../cli.js');
    process.exitCode = reportError(e);
  }
  return true;
}
