/** `git kizu baseline [set [<rev>] | reset]`: the commit hunks are computed against. */
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { git } from '../git/run.js';
import { repoInfo } from '../git/repo.js';
import { getBaseline } from '../hunks/listing.js';
import { BASELINE_REF } from '../git/layout.js';

export interface BaselineCommandInput {
  cwd: string;
  action: 'show' | 'set' | 'reset';
  /** For set: the revision (default HEAD). */
  rev?: string;
  /** For show: print {@link BaselineJson} instead of the text line. */
  json?: boolean;
  reporter: Reporter;
}

/**
 * JSON shape printed by `git kizu baseline show --json` (and `baseline --json`):
 * `{"rev": "HEAD" | "refs/kizu/baseline", "oid": <40 or 64 hex commit id>, "fromRef": <true
 * when refs/kizu/baseline is set>}` (the Baseline of src/hunks/listing.ts).
 */
export interface BaselineJson {
  rev: string;
  oid: string;
  fromRef: boolean;
}

/**
 * - show: prints `baseline: <rev> <oid>` (rev is HEAD or refs/kizu/baseline); with `json`
 *   one {@link BaselineJson} line.
 * - set: resolves `rev` (default HEAD) to a commit and writes it to refs/kizu/baseline with
 *   `git update-ref`; prints `baseline set: refs/kizu/baseline <oid>`.
 * - reset: deletes refs/kizu/baseline (`git update-ref -d`); prints
 *   `baseline reset: using HEAD` (or `no baseline was set: using HEAD`).
 * @returns 0.
 * @throws KizuError (exit 2): `rev` does not name a commit (nothing is written); show with
 *   no commit at all (unborn HEAD) and no baseline set.
 */
export async function baselineCommand(i: BaselineCommandInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  if (i.action === 'show') {
    const b = await getBaseline(root);
    const out: BaselineJson = { rev: b.rev, oid: b.oid, fromRef: b.fromRef };
    i.reporter.log(i.json ? JSON.stringify(out) : `baseline: ${b.rev} ${b.oid}`);
    return EXIT.OK;
  }
  if (i.action === 'set') {
    const rev = i.rev ?? 'HEAD';
    const r = await git(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`], { cwd: root, okStatus: [0, 1, 128] });
    if (r.status !== 0 || rev === '') {
      throw new KizuError(`"${rev}" does not name a commit`, {
        hint: rev === 'HEAD' ? 'make a first commit, or name a commit: git kizu baseline set <rev>' : 'name a commit, e.g. git kizu baseline set HEAD~1 (git log --oneline lists them)',
      });
    }
    const oid = r.stdout.toString('utf8').trim();
    await git(['update-ref', '-m', `git kizu baseline set ${rev}`, BASELINE_REF, oid], { cwd: root });
    i.reporter.log(`baseline set: ${BASELINE_REF} ${oid}`);
    return EXIT.OK;
  }
  const had = await git(['rev-parse', '--verify', '-q', BASELINE_REF], { cwd: root, okStatus: [0, 1, 128] });
  if (had.status !== 0) {
    i.reporter.log('no baseline was set: using HEAD');
    return EXIT.OK;
  }
  await git(['update-ref', '-d', BASELINE_REF], { cwd: root });
  i.reporter.log('baseline reset: using HEAD');
  return EXIT.OK;
}
