/**
 * The baseline hunks are computed against, and starting the git processes behind a hunk
 * listing (./listing.ts listHunks): the untracked listing, the unmerged entries and, when the baseline is known
 * from the ref files, the diff. A small module, so that the `hunks`, `tap`, `reject` and
 * `untap` actions (src/cli/program.ts) can start git while the rest of the command loads
 * ({@link startEarly}); listHunks then takes over the running processes ({@link takeEarly}).
 */
import { git, type GitResult } from '../git/run.js';
import { commonDirFast, discoveryOverridden, findRootFast, gitDirFast, repoInfoFast } from '../git/repo.js';
import { headFast, refFast } from '../git/refs.js';
import { DIFF_ARGS } from '../git/diff.js';
import { BASELINE_REF } from '../git/layout.js';

/** The commit hunks are computed against. */
export interface Baseline {
  /** `HEAD` or `refs/kizu/baseline`. */
  rev: string;
  /** Full commit object id. */
  oid: string;
  /** True when refs/kizu/baseline is set. */
  fromRef: boolean;
}


/**
 * The usual baseline from the files alone: refs/kizu/baseline absent and HEAD resolved with
 * git/refs.ts headFast. Not verified to be a commit (listHunks lets its `git diff` do that).
 * @returns undefined when only git can tell (see headFast; a baseline ref; git env vars).
 */
export function baselineFast(root: string): Baseline | undefined {
  if (discoveryOverridden()) return undefined;
  const gd = gitDirFast(root);
  const common = commonDirFast(root);
  if (!gd || !common || refFast(common, BASELINE_REF) !== null) return undefined;
  const oid = headFast(gd, common);
  return oid ? { rev: 'HEAD', oid, fromRef: false } : undefined;
}

/** Git processes of one listing, running. */
export interface Started {
  /** The baseline from the ref files (baselineFast), if it could tell. */
  fast: Baseline | undefined;
  /** `git ls-files -z -o --exclude-standard -- <specs>`. */
  others: Promise<GitResult>;
  /** `git ls-files -z -u -- <specs>`: the unmerged index entries (a conflict in progress). */
  unmerged: Promise<GitResult>;
  /** The diff against `fast` (DIFF_ARGS), started only when `fast` is known. */
  diff: Promise<GitResult> | undefined;
}

/**
 * `git <DIFF_ARGS> <oid> -- <specs>` in `root`: the diff behind every hunk; with `index`,
 * `git <DIFF_ARGS> --cached <oid> -- <specs>`: the index against `oid` (the index git names in
 * GIT_INDEX_FILE, as in a pre-commit hook of `git commit -a`).
 */
export function startDiff(root: string, oid: string, specs: string[], index = false): Promise<GitResult> {
  const p = git([...DIFF_ARGS, ...(index ? ['--cached'] : []), oid, '--', ...specs], { cwd: root });
  p.catch(() => {}); // awaited by the caller; no unhandled rejection meanwhile
  return p;
}

/**
 * Starts the untracked listing and, if the baseline is known from the ref files, the diff.
 * @param specs pathspecs (`:(literal)<path>`), [] for the whole tree.
 * @param fast the result of {@link baselineFast} if the caller has it already.
 * @param index diff the index instead of the working tree (no untracked files, no unmerged
 *   entries: both listings are empty).
 */
export function startGit(root: string, specs: string[], fast: Baseline | undefined = baselineFast(root), index = false): Started {
  const none = Promise.resolve<GitResult>({ stdout: Buffer.alloc(0), stderr: '', status: 0 });
  const others = index ? none : git(['ls-files', '-z', '-o', '--exclude-standard', '--', ...specs], { cwd: root });
  others.catch(() => {}); // awaited by the caller; no unhandled rejection meanwhile
  const unmerged = index ? none : git(['ls-files', '-z', '-u', '--', ...specs], { cwd: root });
  unmerged.catch(() => {});
  return { fast, others, unmerged, diff: fast ? startDiff(root, fast.oid, specs, index) : undefined };
}

const early = new Map<string, Started>();

/**
 * Starts the git processes of a whole-tree listing for the repository containing `cwd`, for
 * a listHunks call that is sure to follow in this process (see {@link takeEarly}). Does
 * nothing unless the repository and the baseline are known from the files alone
 * (git/repo.ts repoInfoFast, {@link baselineFast}); never throws.
 */
export function startEarly(cwd: string): void {
  try {
    const info = repoInfoFast(cwd);
    const fast = info && !early.has(info.root) ? baselineFast(info.root) : undefined;
    if (info && fast) early.set(info.root, startGit(info.root, [], fast));
  } catch {
    /* the listing itself will start git and report any problem */
  }
}

/** The processes {@link startEarly} started for `root`, handed out once. */
export function takeEarly(root: string): Started | undefined {
  const s = early.get(root);
  early.delete(root);
  return s;
}

/**
 * Whether refs/kizu/baseline names a commit outside HEAD's history: one
 * `git merge-base --is-ancestor <baseline> HEAD`, only when the baseline comes from the ref
 * (`b.fromRef`). `baseline set` takes HEAD or a commit of its history in use; a baseline
 * that is not (a ref moved with `git update-ref`, a crafted commit whose branch was deleted)
 * makes `hunks` show that commit's content as what the agent removed, and `revert` would write
 * it back (issue 22, #86). A HEAD without a commit, or a git failure, says false (nothing to
 * compare with; the listing itself reports a missing object).
 * @param root the working-tree root.
 * @param b the baseline in use (./listing.ts getBaseline).
 * @returns true only when git says the baseline is not an ancestor of HEAD (exit 1).
 */
export async function baselineOutsideHead(root: string, b: Baseline): Promise<boolean> {
  if (!b.fromRef || !b.oid) return false;
  const r = await git(['merge-base', '--is-ancestor', b.oid, 'HEAD'], { cwd: root, okStatus: [0, 1, 128] });
  return r.status === 1;
}

/** The one command that puts a moved baseline right (#86). */
export const BASELINE_MOVED_FIX = 'git kizu baseline set <rev> (a commit of HEAD\'s history, e.g. HEAD), or git kizu baseline reset';

/**
 * The finding for a refs/kizu/baseline outside HEAD's history (hunks/baseline.ts
 * baselineOutsideHead), for status, doctor and the prompt hook: `the baseline 1a2b3c4d5e6f is
 * not in HEAD's history: it was moved, or HEAD was rewritten since it was set; hunks show its content as what the agent removed, and
 * revert would write it back`.
 */
export function baselineMovedText(oid: string): string {
  return `the baseline ${oid.slice(0, 12)} (refs/kizu/baseline) is not in HEAD's history: it was moved, or HEAD was rewritten since it was set (an amend, a rebase); hunks show its content as what the agent removed, and revert would write it back`;
}

/**
 * The prompt hook's note to the user about a moved baseline (#86): {@link baselineMovedText}
 * with the fix, or null. Cheap: the ref is read from the files (git/refs.ts refFast, no git
 * process); one `git merge-base --is-ancestor` runs only when refs/kizu/baseline is set (or
 * the files cannot tell). Never throws (null on any failure).
 * @param cwd the hook payload's working directory.
 */
export async function promptBaselineNotice(cwd: string): Promise<string | null> {
  try {
    const root = discoveryOverridden() ? null : findRootFast(cwd);
    const common = root ? commonDirFast(root) : null;
    if (!root || !common) return null;
    let oid = refFast(common, BASELINE_REF);
    if (oid === null) return null;
    if (oid === undefined) {
      const r = await git(['rev-parse', '-q', '--verify', `${BASELINE_REF}^{commit}`], { cwd: root, okStatus: [0, 1, 128] });
      if (r.status !== 0) return null;
      oid = r.stdout.toString('utf8').trim();
    }
    if (!(await baselineOutsideHead(root, { rev: BASELINE_REF, oid, fromRef: true }))) return null;
    return `git-kizu: ${baselineMovedText(oid)}; fix: ${BASELINE_MOVED_FIX}`;
  } catch {
    return null;
  }
}
