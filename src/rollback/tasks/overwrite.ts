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
 * The ignored files and directories (as `git ls-files -o -i --exclude-standard`; a nested
 * repository as `dir/`) of worktree `wt` that moving it to any of `commits` (their trees)
 * would overwrite or delete: an ignored path that is a path of such a tree, lies under one
 * of its files (`d/x` when the tree has a file `d`), or is a file where the tree has a
 * directory. Sorted, '/'-separated, relative to the worktree root.
 * @param wt the worktree's root.
 * @param commits commit ids or revisions whose trees the worktree would get (a merge: the
 *   side being merged in; the paths of HEAD are tracked, never ignored files).
 * @throws on git failures (exit 2).
 */
export async function ignoredInTheWay(wt: string, commits: string[]): Promise<string[]> {
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
  const hit: string[] = [];
  for (const entry of ig.stdout.toString('utf8').split('\0')) {
    if (!entry) continue;
    const p = entry.replace(/\/$/, '');
    let clash = files.has(p) || dirs.has(p);
    for (let i = p.indexOf('/'); !clash && i !== -1; i = p.indexOf('/', i + 1)) clash = files.has(p.slice(0, i));
    if (clash) hit.push(entry);
  }
  return hit.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The refusal for ignored files `paths` of worktree `wt` that `what` (e.g. `landing task
 * "x" in main`) would overwrite: exit 1, naming the files (the first 10) and how to go on.
 * `again` is the command to run once they are moved aside.
 */
export function refuseOverwrite(wt: string, paths: string[], what: string, again: string): KizuError {
  const shown = paths.slice(0, 10).map((p) => quoteCStyle(p)).join(', ') + (paths.length > 10 ? `, ... (${paths.length} in all)` : '');
  const first = paths[0].replace(/\/$/, '');
  const one = paths.length === 1;
  return new KizuError(
    `${what} would overwrite ${one ? 'an ignored file' : `${paths.length} ignored files`} in ${quoteCStyle(wt)}: ${shown} ` +
      `(git replaces an ignored file with the tracked file of the same path, keeping no copy); nothing was changed`,
    {
      hint: `move ${one ? 'it' : 'them'} aside first (e.g. mv ${shellPath(first)} ${shellPath(first + '.mine')}), then run ${again} again; compare and put your copy back afterwards`,
      exitCode: EXIT.FOUND,
    },
  );
}
