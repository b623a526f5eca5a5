/**
 * Reading and writing git objects in this process with isomorphic-git (loaded on first use),
 * for the commits git-kizu keeps under its own refs (marks, journal): the loader, the `fs`
 * client handed to it, the shared object cache, the deflate workaround, and the identity
 * commits are written with. Refs are moved with git itself (./refs.ts casUpdateRef):
 * isomorphic-git has no compare-and-swap and writes no reflog.
 */
import * as nodeFs from 'node:fs';
import { userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { git } from './run.js';
import { replaceFileSync } from '../files.js';

// Loaded on first use only (it takes tens of milliseconds). The CommonJS build loads in about
// half the time of the ESM build on Node 20 (measured: 34 ms vs 65 ms).
let igitModule: typeof import('isomorphic-git') | undefined;
/**
 * isomorphic-git (its CommonJS build), loaded on first call.
 * @returns the module.
 */
export function igit(): typeof import('isomorphic-git') {
  return (igitModule ??= createRequire(import.meta.url)('isomorphic-git') as typeof import('isomorphic-git'));
}

let deflateTested = false;
/**
 * Runs `write` (an isomorphic-git write) so that isomorphic-git deflates with pako, its bundled
 * deflate (zlib format, as git reads it). Left alone, its one-time `testCompressionStream`
 * finds `CompressionStream` on Node 20 and then deflates through `Response`, which loads
 * undici and the web streams (about 20 ms measured, on every tap). For the first write only,
 * `CompressionStream` is hidden while that test runs; the global is then put back exactly as
 * it was (nothing else in this process uses it).
 * @returns what `write` returns; throws what it throws.
 */
export async function withPakoDeflate<T>(write: () => Promise<T>): Promise<T> {
  const d = deflateTested ? undefined : Object.getOwnPropertyDescriptor(globalThis, 'CompressionStream');
  deflateTested = true;
  if (!d) return write();
  Object.defineProperty(globalThis, 'CompressionStream', { value: undefined, configurable: true, writable: true });
  try {
    return await write();
  } finally {
    Object.defineProperty(globalThis, 'CompressionStream', d);
  }
}

const fsp = nodeFs.promises;
/**
 * The `fs` client handed to isomorphic-git (its FsClient contract: a `promises` object with
 * readFile, writeFile, mkdir, rmdir, unlink, stat, lstat, readdir, readlink, symlink, rm):
 * node:fs's promise API, except that `writeFile` writes atomically (files.ts
 * replaceFileSync: a temp file in the same directory renamed into place). isomorphic-git
 * writes loose objects with a plain writeFile after an existence check, so without this a
 * reader in another process (or a crash mid-write) could leave a half-written object that is
 * never rewritten.
 */
export const objectFs = {
  promises: {
    readFile: fsp.readFile,
    writeFile: async (file: string, data: Uint8Array | string): Promise<void> => replaceFileSync(file, data),
    mkdir: fsp.mkdir,
    rmdir: fsp.rmdir,
    rm: fsp.rm,
    unlink: fsp.unlink,
    stat: fsp.stat,
    lstat: fsp.lstat,
    readdir: fsp.readdir,
    readlink: fsp.readlink,
    symlink: fsp.symlink,
  },
};

/** The isomorphic-git object cache (its `cache` argument), one per process: objects are immutable, so sharing it is safe. */
export const objectCache = {};

/** A git identity for commits written with isomorphic-git (its author/committer shape). */
export interface Ident {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** isomorphic-git convention: minutes, positive west of UTC (Date#getTimezoneOffset). */
  timezoneOffset: number;
}

/**
 * The committer identity (`git var GIT_COMMITTER_IDENT`, which honours GIT_COMMITTER_* and
 * user.name/user.email, git-var(1)); falls back to user.name/user.email or the OS user name
 * with an empty email when git has none, so writing never fails for want of an identity.
 * @returns the identity, its time now.
 * @throws KizuError (exit 2) if git cannot be run.
 */
export async function identity(root: string): Promise<Ident> {
  const r = await git(['var', 'GIT_COMMITTER_IDENT'], { cwd: root, okStatus: [0, 128] });
  const m = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(r.stdout.toString('utf8').trim());
  if (r.status === 0 && m) {
    const off = (m[4] === '-' ? -1 : 1) * (Number(m[5]) * 60 + Number(m[6]));
    return { name: m[1], email: m[2], timestamp: Number(m[3]), timezoneOffset: off === 0 ? 0 : -off };
  }
  const cfg = async (k: string): Promise<string> =>
    (await git(['config', '--get', k], { cwd: root, okStatus: [0, 1] })).stdout.toString('utf8').trim();
  let os = 'unknown';
  try {
    os = userInfo().username || os;
  } catch {
    /* no passwd entry */
  }
  const d = new Date();
  return { name: (await cfg('user.name')) || os, email: await cfg('user.email'), timestamp: Math.floor(d.getTime() / 1000), timezoneOffset: d.getTimezoneOffset() };
}
