/**
 * Reading and moving refs: from the ref files when they can tell ({@link refFast},
 * {@link headFast}: no process spawn), else with git; moves only by compare-and-swap
 * (`git update-ref <ref> <new> <old>`, git-update-ref(1)), retried by callers with
 * {@link backoff} up to {@link MAX_ATTEMPTS} times.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { commonDirFast, discoveryOverridden, headOf } from './repo.js';

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
