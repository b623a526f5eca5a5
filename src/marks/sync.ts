/**
 * Sharing marks through an ordinary git remote.
 *
 * - The remote holds its marks at the same ref, `refs/kizu/marks`.
 * - `pull` fetches it with the refspec `+refs/kizu/marks:refs/kizu/remotes/<remote>/marks`
 *   (git-fetch(1); a forced update: it is a cache of the remote's value) and merges it into
 *   the local `refs/kizu/marks` ({@link mergeInto}).
 * - `push` does the same fetch + merge, then `git push --force-with-lease=refs/kizu/marks:<seen>
 *   <remote> <local>:refs/kizu/marks` (git-push(1)): a compare-and-swap on the remote, retried
 *   from the fetch if someone pushed in between.
 *
 * Merge rules: if the remote tip is already in local history, nothing happens; if local is in
 * the remote's history, local fast-forwards; otherwise a merge commit with parents
 * [local, remote] whose marks are the per-id last-writer-wins union (format.ts mergeMarks),
 * except that a local person's reject is kept over a mark dated in the future or set by an
 * agent ({@link mergeKeepingRejects}; then a merge commit even where a fast-forward was
 * possible). So a repeated pull creates no commit, and pushes and pulls converge except
 * where a local reject was kept that way.
 */
import { git } from '../git/run.js';
import { KizuError } from '../errors.js';
import { mergeMarks, isAgentBy, type Marks } from './format.js';
import { MARKS_REF, remoteMarksRef } from '../git/layout.js';
import { loadMarks, writeMarksCommit, tooMuchContention, assertSha1 } from './commits.js';
import { backoff, casUpdateRef, resolveRef, MAX_ATTEMPTS } from '../git/refs.js';
import { identity } from '../git/objects.js';
import { commonDir, type Repo } from '../git/repo.js';

/** What a merge did to the local ref. */
export type MergeAction = 'up-to-date' | 'fast-forward' | 'merged';

/**
 * The remote-tracking ref for `remote`: `refs/kizu/remotes/<remote>/marks`. A remote given
 * as a URL or path (not a valid ref component) is reduced to `[A-Za-z0-9._-]`, `_` elsewhere.
 */
export function trackingRef(remote: string): string {
  const ok = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(remote) && !remote.includes('..') && !remote.endsWith('.lock') && !remote.endsWith('.');
  const name = ok ? remote : remote.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/\.\.+/g, '_').replace(/^[._]+|[._]+$/g, '') || 'remote';
  return remoteMarksRef(name);
}

/** `fatal:`/`error:` lines of git's stderr, joined. */
function gitMessage(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => /^(fatal|error):/.test(l));
  return (lines.length ? lines : stderr.split('\n').map((l) => l.trim()).filter(Boolean)).join('; ') || '(no message)';
}

function remoteError(remote: string, stderr: string, status: number | null): KizuError {
  return new KizuError(`cannot reach remote "${remote}" (git exit ${status}): ${gitMessage(stderr)}`, {
    hint: 'check the name with `git remote -v` (add one with `git remote add <name> <url>`), or pass a URL or path',
  });
}

/**
 * The remote's `refs/kizu/marks` value (`git ls-remote <remote> refs/kizu/marks`, exact name).
 * @returns the object id, or null if the remote has no marks.
 * @throws KizuError (exit 2) with git's message for an unknown/unreachable remote.
 */
export async function remoteMarksOid(root: string, remote: string): Promise<string | null> {
  const r = await git(['ls-remote', remote, MARKS_REF], { cwd: root, okStatus: [0, 1, 2, 128] });
  if (r.status !== 0) throw remoteError(remote, r.stderr, r.status);
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [oid, name] = line.split('\t');
    if (name === MARKS_REF) return oid;
  }
  return null;
}

/**
 * Fetches the remote's marks into {@link trackingRef} (`git fetch --no-tags <remote>
 * +refs/kizu/marks:refs/kizu/remotes/<remote>/marks`).
 * @returns the fetched commit id (the tracking ref's value after the fetch).
 * @throws KizuError (exit 2) with git's message if the fetch fails.
 */
export async function fetchMarks(root: string, remote: string): Promise<string> {
  const tracking = trackingRef(remote);
  const r = await git(['fetch', '--no-tags', '--no-write-fetch-head', '-q', remote, `+${MARKS_REF}:${tracking}`], { cwd: root, okStatus: [0, 1, 128] });
  if (r.status !== 0) throw remoteError(remote, r.stderr, r.status);
  const oid = await resolveRef(root, tracking);
  if (!oid) throw new KizuError(`fetching ${MARKS_REF} from "${remote}" did not create ${tracking}`, { hint: `run \`git fetch ${remote} ${MARKS_REF}\` to see what git does` });
  return oid;
}

/** Hint for corrupt marks on a remote: nothing local changed; how to repair the remote. */
function remoteHint(remote: string): string {
  return `your ${MARKS_REF} was not changed; the remote's marks are fetched into ${trackingRef(remote)} for inspection; whoever can push there can replace them with \`git push ${remote} +<good commit>:${MARKS_REF}\` (or delete them with \`git push ${remote} :${MARKS_REF}\`)`;
}

async function isAncestor(root: string, a: string, b: string): Promise<boolean> {
  const r = await git(['merge-base', '--is-ancestor', a, b], { cwd: root, okStatus: [0, 1] });
  return r.status === 0;
}

/**
 * Merges commit `theirs` (read through `theirsRef`, e.g. a tracking ref) into the local
 * `refs/kizu/marks`, by CAS with retries (see the module doc for the rules). Both sides are
 * loaded and validated before the local ref moves, so a corrupt remote never reaches it.
 * @param repo the top level (git runs there) and the common git dir (objects, refs), found once by the caller.
 * @param label how to name `theirs` in errors, e.g. `origin's refs/kizu/marks`.
 * @returns what happened and the local tip afterwards.
 * @throws KizuError (exit 2) if either side is corrupt or of an unknown version (nothing
 *   changed), or on persistent contention.
 */
export async function mergeInto(
  repo: Pick<Repo, 'root' | 'commonDir'>,
  theirs: string,
  theirsRef: string,
  label: string,
  hint?: string,
  opts: { now?: number } = {},
): Promise<{ action: MergeAction; oid: string; kept: string[]; replaced: string[] }> {
  const { root, commonDir: gitdir } = repo;
  for (let attempt = 1; ; attempt++) {
    const local = await resolveRef(root, MARKS_REF, gitdir);
    if (local === theirs) return { action: 'up-to-date', oid: local, kept: [], replaced: [] };
    const theirMarks = await loadMarks(gitdir, theirs, { ref: theirsRef, label, hint }, { cache: false });
    if (local && (await isAncestor(root, theirs, local))) return { action: 'up-to-date', oid: local, kept: [], replaced: [] };
    let next: string;
    let action: MergeAction;
    let kept: string[] = [];
    let replaced: string[] = [];
    if (!local) {
      next = theirs;
      action = 'fast-forward';
    } else {
      const mine = await loadMarks(gitdir, local, { ref: MARKS_REF }, { cache: false });
      const m = mergeKeepingRejects(mine, theirMarks, opts.now ?? Date.now());
      ({ kept, replaced } = m);
      // A fast-forward would take the remote's marks as they are: only when no local reject is kept.
      if (!kept.length && (await isAncestor(root, local, theirs))) {
        next = theirs;
        action = 'fast-forward';
      } else {
        const who = await identity(root);
        const body = kept.length ? `\n\nkept local rejects over marks dated in the future or set by an agent:\n${kept.join('\n')}` : '';
        next = await writeMarksCommit(gitdir, m.marks, [local, theirs], `kizu: merge ${label}${body}`, who);
        action = 'merged';
      }
    }
    const msg = action === 'merged' ? `kizu: merge ${label}` : `kizu: fast-forward to ${label}`;
    if (await casUpdateRef(root, MARKS_REF, next, local, msg)) return { action, oid: next, kept, replaced };
    if (attempt >= MAX_ATTEMPTS) throw tooMuchContention(MARKS_REF);
    await backoff(attempt);
  }
}

/**
 * Merges the marks of elsewhere (`theirs`) into the local ones (`mine`) by format.ts
 * mergeMarks (last writer wins), except that a local reject set by a person (`by` not
 * `agent:...`) is kept when the entry that would replace it is dated after `now` (a clock
 * ahead, or a date forged to win every merge) or was set by an agent (`by: agent:<name>`).
 * Not commutative on purpose: the local reviewer's rejects are protected from the remote's
 * marks, not the other way round (README "Hunks, marks and revert", "Sharing marks").
 * @param now milliseconds since the epoch (Date.now()).
 * @returns the merged marks; `kept`: the ids whose local reject was kept; `replaced`: the ids
 *   whose local reject a newer mark from elsewhere replaced (reported, never silent).
 */
export function mergeKeepingRejects(mine: Marks, theirs: Marks, now: number): { marks: Marks; kept: string[]; replaced: string[] } {
  const marks = mergeMarks(mine, theirs);
  const kept: string[] = [];
  const replaced: string[] = [];
  for (const [id, e] of mine) {
    if (e.state !== 'rejected' || isAgentBy(e.by) || marks.get(id) === e) continue;
    const t = theirs.get(id);
    if (!t) continue;
    if (Date.parse(t.time) > now || isAgentBy(t.by)) {
      marks.set(id, e);
      kept.push(id);
    } else if (t.state !== 'rejected') replaced.push(id);
  }
  return { marks, kept: kept.sort(), replaced: replaced.sort() };
}

/** Result of {@link pullMarks}. `remoteOid` null: the remote has no marks (nothing changed). */
export interface PullResult {
  remoteOid: string | null;
  action: MergeAction;
  /** Hunk ids whose local reject was kept over a future-dated or agent's mark ({@link mergeKeepingRejects}). */
  kept: string[];
  /** Hunk ids whose local reject a newer mark from the remote replaced. */
  replaced: string[];
  /** Local tip afterwards (null if there are still no marks). */
  oid: string | null;
}

/**
 * `git kizu marks pull [<remote>]`: fetch the remote's `refs/kizu/marks` into
 * `refs/kizu/remotes/<remote>/marks` and merge it into the local `refs/kizu/marks`.
 * Idempotent: pulling again without remote changes creates no commit.
 * @throws KizuError (exit 2): unknown/unreachable remote (git's message), corrupt marks on
 *   either side (local ref unchanged).
 */
export async function pullMarks(root: string, remote: string): Promise<PullResult> {
  const repo = { root, commonDir: await commonDir(root) };
  assertSha1(repo.commonDir);
  const seen = await remoteMarksOid(root, remote);
  if (!seen) return { remoteOid: null, action: 'up-to-date', oid: await resolveRef(root, MARKS_REF, repo.commonDir), kept: [], replaced: [] };
  const theirs = await fetchMarks(root, remote);
  const r = await mergeInto(repo, theirs, trackingRef(remote), `${remote}'s ${MARKS_REF}`, remoteHint(remote));
  return { remoteOid: theirs, ...r };
}

/** Result of {@link pushMarks}. */
export interface PushResult {
  /** What merging the remote's marks first did (up-to-date if the remote had none). */
  merge: MergeAction;
  /** As {@link PullResult}'s, for the merge before the push. */
  kept: string[];
  replaced: string[];
  /** 'pushed': the remote moved to `oid`; 'up-to-date': it already had it; 'nothing': no marks anywhere. */
  push: 'pushed' | 'up-to-date' | 'nothing';
  oid: string | null;
}

/**
 * `git kizu marks push [<remote>]`: fetch + merge the remote's marks (as {@link pullMarks}),
 * then push the local tip to the remote's `refs/kizu/marks` with
 * `--force-with-lease=refs/kizu/marks:<fetched id or empty>` (a CAS: rejected if the remote
 * moved since the fetch, and then retried from the fetch, at most MAX_ATTEMPTS times).
 * The local marks are validated before pushing, so a corrupt local ref is never published.
 * @throws KizuError (exit 2): unknown/unreachable remote, push rejected for another reason
 *   (git's message), corrupt marks on either side, persistent contention.
 */
export async function pushMarks(root: string, remote: string): Promise<PushResult> {
  const repo = { root, commonDir: await commonDir(root) };
  const gitdir = repo.commonDir;
  assertSha1(gitdir);
  const tracking = trackingRef(remote);
  for (let attempt = 1; ; attempt++) {
    const seen = await remoteMarksOid(root, remote);
    let theirs: string | null = null;
    let merge: MergeAction = 'up-to-date';
    let kept: string[] = [];
    let replaced: string[] = [];
    if (seen) {
      theirs = await fetchMarks(root, remote);
      ({ action: merge, kept, replaced } = await mergeInto(repo, theirs, tracking, `${remote}'s ${MARKS_REF}`, remoteHint(remote)));
    }
    const local = await resolveRef(root, MARKS_REF, gitdir);
    if (!local) return { merge, push: 'nothing', oid: null, kept, replaced };
    if (local === theirs) return { merge, push: 'up-to-date', oid: local, kept, replaced };
    await loadMarks(gitdir, local, { ref: MARKS_REF }, { cache: false });
    const r = await git(['push', '--porcelain', `--force-with-lease=${MARKS_REF}:${theirs ?? ''}`, remote, `${local}:${MARKS_REF}`], {
      cwd: root,
      okStatus: [0, 1, 128],
    });
    if (r.status === 0) {
      await git(['update-ref', '-m', `kizu: pushed to ${remote}`, tracking, local], { cwd: root, okStatus: [0, 128] });
      return { merge, push: 'pushed', oid: local, kept, replaced };
    }
    const out = r.stdout.toString('utf8');
    const lostRace = /\[rejected\]|stale info|fetch first|non-fast-forward|cannot lock ref/i.test(out + r.stderr);
    if (!lostRace || r.status === 128) {
      throw new KizuError(`pushing ${MARKS_REF} to "${remote}" failed (git exit ${r.status}): ${gitMessage(r.stderr + '\n' + out.split('\n').filter((l) => l.startsWith('!')).map((l) => `error: ${l}`).join('\n'))}`, {
        hint: `run \`git push ${remote} ${MARKS_REF}:${MARKS_REF}\` to see what git says (a pre-push or server hook may refuse the ref)`,
      });
    }
    if (attempt >= MAX_ATTEMPTS) throw tooMuchContention(`${remote}'s ${MARKS_REF}`);
    await backoff(attempt);
  }
}
