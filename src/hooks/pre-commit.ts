/**
 * git pre-commit handler (githooks(5): runs before the commit message is asked for; a
 * non-zero exit aborts the commit). Refuses a commit whose staged blobs (added, copied,
 * modified, renamed) hold scars, or whose staged changes hold a hunk a reviewer rejected
 * (hunks/rejections.ts stagedRejections; looked for only when a reject mark exists), and
 * every commit while `refs/kizu/marks` cannot be read (review state lost; marks/restore.ts).
 * `KIZU_SKIP=1` skips it, as does `git commit --no-verify`.
 */
import { repoInfo } from '../git/repo.js';
import { loadConfigLenient } from '../config/config.js';
import { scanStagedForCommit } from '../scars/scan.js';
import { commitRefusal, marksUnreadableRefusal, rejectedCommitRefusal, untrustedConfigMessage } from './text.js';
import { KizuError } from '../errors.js';
import { readMarks } from '../marks/read.js';

/**
 * @returns the exit code (0 allow, 1 refuse) and the lines for stderr.
 * @throws only on internal errors (the caller warns and allows the commit).
 */
export async function preCommit(cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string[] }> {
  if (env.KIZU_SKIP === '1') return { code: 0, stderr: [] };
  const { root } = await repoInfo(cwd);
  // A config mistake must not let scars through: valid keys and defaults are used. The gate
  // keys are HEAD's: during a commit the staged config is not committed yet, so the commit
  // that changes them is checked with the values it replaces (config/trust.ts).
  const { config, problem, untrusted } = await loadConfigLenient(root);
  const warning = [...(problem ? [problem] : []), ...(untrusted ? [untrustedConfigMessage(untrusted)] : [])];
  let unreadable: string[] = [];
  const [{ scars }, rejected] = await Promise.all([
    scanStagedForCommit(root, config.scan.exclude, config.scan.maxFileBytes),
    // Unreadable marks (a corrupt ref: review state lost) refuse the commit, as a rejected
    // hunk in it could not be told apart; the scars are still checked and named.
    stagedRejected(root).catch(async (e: unknown) => {
      if (!(e instanceof KizuError)) throw e;
      unreadable = marksUnreadableRefusal(await (await import('../marks/restore.js')).marksUnreadable(root, e));
      return [];
    }),
  ]);
  if (!scars.length && !rejected.length && !unreadable.length) return { code: 0, stderr: warning };
  return { code: 1, stderr: [...warning, ...unreadable, ...(scars.length ? commitRefusal(scars) : []), ...(rejected.length ? rejectedCommitRefusal(rejected) : [])] };
}

/** The rejected hunks staged for this commit; no git process unless a reject mark exists (readMarks reads the ref files). */
async function stagedRejected(root: string): Promise<import('../hunks/rejections.js').StagedRejection[]> {
  const marks = await readMarks(root);
  if (![...marks.values()].some((e) => e.state === 'rejected')) return [];
  const { stagedRejections } = await import('../hunks/rejections.js');
  return stagedRejections(root, marks);
}
