/**
 * Ignored files a checkout would overwrite. git treats ignored files as expendable: `git
 * switch`, `git checkout` and `git merge` replace or delete an ignored file (such as `.env`)
 * that is in the way of a tracked path of the commit they move to, without a word
 * (git-checkout(1) `--overwrite-ignore`, the default). Every checkout, switch and merge that
 * kizu runs (task start, task land, rollback branch, undo of rollback branch) checks first
 * with {@link ignoredInTheWay} and refuses before anything changes ({@link refuseOverwrite}),
 * and passes `--no-overwrite-ignore` to git as well, so that git itself refuses what the
 * check might miss.
 */
import { KizuError, EXIT } from '../../errors.js';
import { quoteCStyle, shellPath } from '../../git/quote.js';
import { git } from '../../git/run.js';

/**
 * One thing in the way of a switch or merge: an ignored file or directory of the worktree
 * and the tracked path of the commit moved to that git puts in its place.
 */
export interface InTheWay {
  /** The ignored file, or the ignored directory (ending in '/'), to move aside: the outermost one. */
  path: string;
  /** What the commit tracks there: `file` at `path` (without its '/'), or a `directory` holding files. */
  tracked: 'file' | 'directory';
}

/**
 * What of worktree `wt` moving it to any of `commits` (their trees) would overwrite or
 * delete, from its ignored paths (`git ls-files -o -i --exclude-standard`; a nested
 * repository as `dir/`): an ignored path that is a file path of such a tree (that file), a
 * directory holding an ignored path where the tree has a file (the outermost such directory,
 * `d/` when the tree has a file `d` and `d/x` is ignored: moving `d/x` aside would leave `d/`
 * in the way), or an ignored file where the tree has a directory (that file). Sorted by path,
 * '/'-separated, relative to the worktree root, each once.
 * @param wt the worktree's root.
 * @param commits commit ids or revisions whose trees the worktree would get (a merge: the
 *   side being merged in; the paths of HEAD are tracked, never ignored files).
 * @throws on git failures (exit 2).
 */
export async function ignoredInTheWay(wt: string, commits: string[]): Promise<InTheWay[]> {
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const c of commits) {
    const t = await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', c], { cwd: wt });
    for (const p of t.stdout.toString('utf8').split('\0')) {
      if (!p) continue;
      files.add(p);
      for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) dirs.add(p.slice(0, i));
    }
  }
  if (!files.size) return [];
  const ig = await git(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--full-name'], { cwd: wt });
  const hit = new Map<string, InTheWay>();
  for (const entry of ig.stdout.toString('utf8').split('\0')) {
    if (!entry) continue;
    const p = entry.replace(/\/$/, '');
    let under: string | null = null;
    for (let i = p.indexOf('/'); under === null && i !== -1; i = p.indexOf('/', i + 1)) if (files.has(p.slice(0, i))) under = p.slice(0, i);
    let w: InTheWay | null = null;
    if (under !== null) w = { path: `${under}/`, tracked: 'file' };
    else if (files.has(p)) w = { path: entry, tracked: 'file' };
    else if (dirs.has(p)) w = { path: entry, tracked: 'directory' };
    if (w) hit.set(w.path, w);
  }
  return [...hit.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What git does to `w`, in words: `git replaces the ignored directory d/ with the tracked file d`. */
function replaced(w: InTheWay): string {
  const bare = w.path.replace(/\/$/, '');
  const ignored = w.path.endsWith('/') ? `the ignored directory ${quoteCStyle(bare)}/` : `the ignored file ${quoteCStyle(bare)}`;
  if (w.tracked === 'directory') return `git replaces ${ignored} with the tracked directory ${quoteCStyle(bare)}/ and the files in it`;
  if (w.path.endsWith('/')) return `git replaces ${ignored} with the tracked file ${quoteCStyle(bare)}`;
  return 'git replaces an ignored file with the tracked file of the same path';
}

/**
 * The refusal for the things `paths` (from {@link ignoredInTheWay}) of worktree `wt` that
 * `what` (e.g. `landing task "x" in main`) would overwrite: exit 1, naming them (the first 10),
 * what git would do to them and how to go on: move the first aside (`mv cache cache.mine`
 * for an ignored directory `cache/`, so that nothing of it stays in the way). `again` is the
 * command to run once they are moved aside.
 */
export function refuseOverwrite(wt: string, paths: InTheWay[], what: string, again: string): KizuError {
  const shown = paths.slice(0, 10).map((w) => quoteCStyle(w.path)).join(', ') + (paths.length > 10 ? `, ... (${paths.length} in all)` : '');
  const first = paths[0].path.replace(/\/$/, '');
  const one = paths.length === 1;
  const anyDir = paths.some((w) => w.path.endsWith('/'));
  const noun = one ? (anyDir ? 'an ignored directory' : 'an ignored file') : `${paths.length} ignored ${anyDir ? 'files and directories' : 'files'}`;
  // One sentence per kind of replacement present, in the order of the list.
  const why = [...new Set(paths.map((w) => (one ? replaced(w) : kind(w))))].join('; ');
  return new KizuError(`${what} would overwrite ${noun} in ${quoteCStyle(wt)}: ${shown} (${why}, keeping no copy); nothing was changed`, {
    hint: `move ${one ? 'it' : 'them'} aside first (e.g. mv ${shellPath(first)} ${shellPath(first + '.mine')}), then run ${again} again; compare and put your copy back afterwards`,
    exitCode: EXIT.FOUND,
  });
}

/** What git does to things like `w`, for a list of several. */
function kind(w: InTheWay): string {
  if (w.tracked === 'directory') return 'git replaces an ignored file with the tracked directory of its name';
  if (w.path.endsWith('/')) return 'git replaces an ignored directory with the tracked file of its name';
  return 'git replaces an ignored file with the tracked file of the same path';
}
