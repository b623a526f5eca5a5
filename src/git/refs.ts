/**
 * Reading and moving refs: from the ref files when they can tell ({@link refFast},
 * {@link headFast}: no process spawn), else with git; moves only by compare-and-swap
 * (`git update-ref <ref> <new> <old>`, git-update-ref(1)), retried by callers with
 * {@link backoff} up to {@link MAX_ATTEMPTS} times. git-kizu's own refs are checked to point
 * at an existing commit before they are read or written onto ({@link checkRefObject}).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { commonDirFast, discoveryOverridden, headOf } from './repo.js';
import { BASELINE_REF } from './layout.js';

/**
 * Reads a ref's value from the files backend without spawning git: the loose file
 * `<common>/<ref>`, else its line in `<common>/packed-refs` (gitrepository-layout(5)).
 * @returns the object id; null if the ref exists in neither; undefined if it cannot tell
 *   (reftable backend, a symbolic ref, an unreadable file): ask git then.
 */
export function refFast(common: string, ref: string): string | null | undefined {
  if (existsSync(path.join(common, 'reftable'))) return undefined;
  try {
    const s = readFileSync(path.join(common, ref), 'utf8').trim();
    return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(s) ? s : undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') return undefined;
  }
  let packed: string;
  try {
    packed = readFileSync(path.join(common, 'packed-refs'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  for (const line of packed.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp > 0 && line[0] !== '#' && line[0] !== '^' && line.slice(sp + 1).trimEnd() === ref) return line.slice(0, sp);
  }
  return null;
}

/**
 * Resolves the full ref name `ref` (loose, packed and reftable refs alike): from the ref files
 * ({@link refFast}) when they can tell, else with `git rev-parse -q --verify`. The ref files
 * are not read when a git environment variable changes discovery or ref lookup.
 * @param root the working-tree top level.
 * @param commonDir the common git dir when the caller has found it (Repo.commonDir); found
 *   from `root` otherwise.
 * @returns the object id it points at (any object type), or null if the ref does not exist.
 * @throws KizuError (exit 2) if git fails otherwise.
 */
export async function resolveRef(root: string, ref: string, commonDir?: string): Promise<string | null> {
  const common = discoveryOverridden() ? null : (commonDir ?? commonDirFast(root));
  const known = common ? refFast(common, ref) : undefined;
  if (known !== undefined) return known;
  const { git } = await import('./run.js'); // loaded only when git must be asked (see refFast)
  const r = await git(['rev-parse', '-q', '--verify', ref], { cwd: root, okStatus: [0, 1] });
  return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
}

/**
 * An existing ref that keeps `ref` from being created: git stores refs as paths, so
 * `refs/heads/a` and `refs/heads/a/b` cannot both exist (git-check-ref-format(1); `git
 * update-ref` fails with "cannot lock ref"). Asks `git for-each-ref` for refs under
 * `<ref>/` and for each leading part of `ref` that is a ref itself.
 * @param root the working-tree top level.
 * @param ref a full ref name, e.g. `refs/heads/kizu/a/b`.
 * @returns the full name of one clashing ref (the shortest), or null when there is none.
 * @throws KizuError (exit 2) if git fails.
 */
export async function refPathClash(root: string, ref: string): Promise<string | null> {
  const parts = ref.split('/');
  // refs/heads/x/y: its leading parts refs/heads/x (never refs or refs/heads themselves).
  const leading = parts.slice(2, -1).map((_, i) => parts.slice(0, 3 + i).join('/'));
  const { git } = await import('./run.js');
  // A literal pattern matches the ref itself and every ref below it (git-for-each-ref(1)).
  const r = await git(['for-each-ref', '--format=%(refname)', ref, ...leading], { cwd: root });
  const clash = r.stdout
    .toString('utf8')
    .split('\n')
    .filter((n) => n.startsWith(`${ref}/`) || leading.includes(n));
  return clash.sort((a, b) => a.length - b.length)[0] ?? null;
}

/**
 * The commit HEAD points at, from the files alone: `<gitDir>/HEAD` is an object id (detached)
 * or `ref: refs/heads/<branch>`, read with {@link refFast} in `common` (gitrepository-layout(5)).
 * Whether the object exists and is a commit is not checked (git keeps HEAD on commits; the
 * next git command that uses the id fails otherwise).
 * @returns the object id; undefined if it cannot tell: an unborn branch, a symbolic ref or a
 *   ref outside refs/heads/, the reftable backend, an unreadable or odd HEAD. Ask git then.
 */
export function headFast(gitDir: string, common: string): string | undefined {
  const h = headOf(gitDir);
  if (!h) return undefined;
  if ('oid' in h) return existsSync(path.join(common, 'reftable')) ? undefined : h.oid;
  if (!h.ref.startsWith('refs/heads/')) return undefined;
  return refFast(common, h.ref) ?? undefined;
}

/**
 * Compare-and-swap: `git update-ref --create-reflog -m <msg> <ref> <new> <old>` (git-update-ref(1):
 * the update happens only if the ref currently holds `<old>`; an empty `<old>` means "must not
 * exist"). Writes a reflog entry (isomorphic-git's writeRef has neither CAS nor reflog).
 * @param oldOid the value the caller read, or null for "the ref must not exist yet".
 * @returns true if the ref was moved; false if another writer won the race (the ref no longer
 *   holds `oldOid`, or its lock was held).
 * @throws KizuError (exit 2) for any other failure.
 */
export async function casUpdateRef(root: string, ref: string, newOid: string, oldOid: string | null, msg: string): Promise<boolean> {
  const { git } = await import('./run.js');
  const r = await git(['update-ref', '--create-reflog', '-m', msg, ref, newOid, oldOid ?? ''], { cwd: root, okStatus: [0, 1, 128] });
  if (r.status === 0) return true;
  if (/cannot lock ref|Unable to create '.*\.lock'/i.test(r.stderr)) return false;
  throw new KizuError(`git update-ref ${ref} failed (exit ${r.status}): ${r.stderr.trim() || '(no message)'}`, {
    hint: `check that ${ref} can be written (permissions, disk space) in ${root}`,
  });
}

/** Attempts per compare-and-swap loop before giving up. */
export const MAX_ATTEMPTS = 30;

/**
 * Waits a small random time after the `attempt`-th lost race of a compare-and-swap loop.
 * @returns after 1..min(200, 10·2^attempt) ms.
 */
export function backoff(attempt: number): Promise<void> {
  const cap = Math.min(200, 10 * 2 ** Math.min(attempt, 5));
  return new Promise((r) => setTimeout(r, 1 + Math.floor(Math.random() * cap)));
}

/**
 * Checks that `oid`, the value of git-kizu's ref `ref`, is a commit that exists (`git cat-file
 * -t`, git-cat-file(1)). The refs/kizu/* refs git-kizu reads one by one go through here (or
 * {@link resolveKizuRef}), those it lists with `git for-each-ref` through {@link badRefError}
 * and {@link missingRefObject}, so that a ref moved onto the wrong object or
 * onto an object that is gone is an error naming the ref, what it points at, and the fix, not
 * an empty listing or a write that replaces what was there.
 * @param fix the hint's way out where a git-kizu command does it (`git kizu baseline reset`);
 *   default: save the ref under `refs/kizu-corrupt/` (a wrong object) and delete it.
 * @throws KizuError (exit 2): `<ref> points at a <type> (<oid>), not a commit`, hint: save it
 *   under another ref and delete it; or `<ref> points at a missing object <oid>`, hint: delete it.
 */
export async function checkRefObject(root: string, ref: string, oid: string, fix?: string): Promise<void> {
  const { git } = await import('./run.js');
  const r = await git(['cat-file', '-t', oid], { cwd: root, okStatus: [0, 1, 128] });
  const type = r.status === 0 ? r.stdout.toString('utf8').trim() : null;
  if (type === 'commit') return;
  throw badRefError(ref, oid, type, fix);
}

/**
 * The error for git-kizu's ref `ref` pointing at an object of type `type` other than a commit,
 * or (type null) at an object that is missing (see {@link checkRefObject}).
 * @param fix the hint, where a git-kizu command is the way out; default: save the ref under
 *   `refs/kizu-corrupt/` (a wrong object) and delete it.
 * @returns a KizuError (exit 2) naming the ref, the object and the fix.
 */
export function badRefError(ref: string, oid: string, type: string | null, fix?: string): KizuError {
  if (type === null) {
    return new KizuError(`${ref} points at a missing object ${oid}; git-kizu reads and writes nothing through it`, {
      hint: fix ?? `the object is gone (see \`git fsck\`); delete the ref with \`git update-ref -d ${ref}\``,
    });
  }
  const aside = `refs/kizu-corrupt/${ref.replace(/^refs\/kizu\//, '')}`;
  return new KizuError(`${ref} points at a ${type} (${oid}), not a commit; git-kizu reads and writes nothing through it`, {
    hint: fix ?? `save it with \`git update-ref ${aside} ${oid}\`, then delete it with \`git update-ref -d ${ref}\``,
  });
}

/**
 * Turns git's failure to list refs because one points at a missing object (`git for-each-ref`
 * with an object field: "fatal: missing object <oid> for <ref>") into {@link badRefError}.
 * @returns that error, or `e` itself for any other failure (for `throw missingRefObject(e)`).
 */
export function missingRefObject(e: unknown): unknown {
  const m = e instanceof Error ? /missing object ([0-9a-f]{40,64}) for (refs\/kizu\/\S+)/.exec(e.message) : null;
  return m ? badRefError(m[2], m[1], null) : e;
}

/**
 * {@link resolveRef} for one of git-kizu's own refs (refs/kizu/*), checked with
 * {@link checkRefObject} when it exists (one `git cat-file` process).
 * @returns the commit id, or null if the ref does not exist.
 * @throws KizuError (exit 2) if the ref points at something other than an existing commit
 *   (see checkRefObject), or git fails.
 */
export async function resolveKizuRef(root: string, ref: string, commonDir?: string): Promise<string | null> {
  const oid = await resolveRef(root, ref, commonDir);
  if (oid) await checkRefObject(root, ref, oid);
  return oid;
}

/**
 * What review is measured against, for scan's default scope and the ignore rules it trusts: the
 * commit in refs/kizu/baseline when it is set (so a scar committed since the baseline, past the
 * guard, stays in scope), else `HEAD`. Read from the ref files ({@link refFast}) without a git
 * process when they tell; a baseline ref that is not a commit gives `HEAD`.
 * @returns an object id or `HEAD`.
 * @throws KizuError when git cannot run.
 */
export async function baselineOrHead(root: string): Promise<string> {
  const common = discoveryOverridden() ? null : commonDirFast(root);
  const known = common ? refFast(common, BASELINE_REF) : undefined;
  if (known === null) return 'HEAD';
  if (known) return known;
  const { git } = await import('./run.js'); // loaded only when git must be asked (see refFast)
  const r = await git(['rev-parse', '--verify', '-q', `${BASELINE_REF}^{commit}`], { cwd: root, okStatus: [0, 1, 128] });
  return r.status === 0 ? r.stdout.toString('utf8').trim() : 'HEAD';
}
