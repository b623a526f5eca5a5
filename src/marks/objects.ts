/**
 * Loose git objects, read and written directly (gitrepository-layout(5) `objects/[0-9a-f]{2}`;
 * the object format of git-hash-object(1)): the bytes `<type> <size>\0<content>`,
 * zlib-deflated, in `objects/<first 2 hex>/<other 38 hex>` of their SHA-1. The marks store
 * uses this for its own small objects so that marking a hunk does not load isomorphic-git;
 * what is not a plain loose object (packed after git gc, damaged) is left to isomorphic-git.
 */
import { readFileSync, existsSync, writeFileSync, renameSync, mkdirSync, rmSync } from 'node:fs';
import { randomBytes, hash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import path from 'node:path';

/** The four git object types. */
export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

const TYPES = new Set(['blob', 'tree', 'commit', 'tag']);

function objectPath(gitdir: string, oid: string): string {
  return path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
}

/**
 * Reads loose object `oid` from `<gitdir>/objects`.
 * @returns its type and content; undefined if there is no such loose file (it may be packed)
 *   or the file is not a well-formed object whose SHA-1 is `oid`.
 */
export function readLooseObject(gitdir: string, oid: string): { type: ObjectType; body: Buffer } | undefined {
  if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
  let raw: Buffer;
  try {
    raw = inflateSync(readFileSync(objectPath(gitdir, oid)));
  } catch {
    return undefined;
  }
  const nul = raw.indexOf(0);
  const m = nul > 0 ? /^(blob|tree|commit|tag) (0|[1-9]\d*)$/.exec(raw.toString('latin1', 0, nul)) : null;
  if (!m || Number(m[2]) !== raw.length - nul - 1 || hash('sha1', raw) !== oid) return undefined;
  return { type: m[1] as ObjectType, body: raw.subarray(nul + 1) };
}

/**
 * Writes `body` as a loose object of `type` unless that object is already there (as git and
 * isomorphic-git do): deflated into a temp file in the same directory, then renamed into
 * place, so no reader ever sees a partial object. Synchronous file calls: the objects are
 * small, and each asynchronous call would be a round trip through libuv's thread pool.
 * @returns the object id (SHA-1 hex).
 * @throws the file system error if the object cannot be written.
 */
export function writeLooseObject(gitdir: string, type: ObjectType, body: Uint8Array): string {
  if (!TYPES.has(type)) throw new TypeError(`not a git object type: ${type}`);
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`, 'latin1'), body]);
  const oid = hash('sha1', raw);
  const file = objectPath(gitdir, oid);
  if (existsSync(file)) return oid;
  const data = deflateSync(raw);
  const tmp = `${file}.kizu-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    try {
      writeFileSync(tmp, data);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(tmp, data);
    }
    renameSync(tmp, file);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* keep the first error */
    }
    throw e;
  }
  return oid;
}

/** One tree entry as git stores it. */
export interface TreeEntry {
  /** Octal mode without a leading zero, as stored ('100644', '40000', ...). */
  mode: string;
  name: string;
  /** Hex object id. */
  oid: string;
}

/**
 * Parses the content of a tree object (`<mode> <name>\0<20-byte id>`...).
 * @returns the entries in stored order, or undefined for malformed content.
 */
export function parseTree(body: Buffer): TreeEntry[] | undefined {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < body.length) {
    const sp = body.indexOf(0x20, i);
    const nul = body.indexOf(0, i);
    if (sp < 0 || nul < 0 || sp > nul || nul + 21 > body.length) return undefined;
    out.push({ mode: body.toString('latin1', i, sp), name: body.toString('utf8', sp + 1, nul), oid: body.toString('hex', nul + 1, nul + 21) });
    i = nul + 21;
  }
  return out;
}

/** isomorphic-git's `-0`-preserving timezone format (GitCommit formatTimezoneOffset). */
function formatTimezoneOffset(minutes: number): string {
  const negated = minutes === 0 ? minutes : -minutes;
  const sign = Math.sign(negated) || (Object.is(negated, -0) ? -1 : 1);
  minutes = Math.abs(minutes);
  const hours = Math.floor(minutes / 60);
  minutes -= hours * 60;
  return (sign === -1 ? '-' : '+') + String(hours).padStart(2, '0') + String(minutes).padStart(2, '0');
}

/** A commit author or committer, in isomorphic-git's convention. */
export interface Person {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes, positive west of UTC (Date#getTimezoneOffset); -0 means `-0000`. */
  timezoneOffset: number;
}

/**
 * The text of a commit object exactly as isomorphic-git's writeCommit renders it (GitCommit
 * render): `tree`, `parent`s, `author`, `committer` headers, a blank line, then the message
 * with CRs removed, leading newlines dropped and exactly one trailing newline.
 */
export function renderCommit(c: { tree: string; parents: string[]; author: Person; committer: Person; message: string }): string {
  const person = (p: Person) => `${p.name} <${p.email}> ${p.timestamp} ${formatTimezoneOffset(p.timezoneOffset)}`;
  let s = `tree ${c.tree}\n`;
  for (const p of c.parents) s += `parent ${p}\n`;
  s += `author ${person(c.author)}\ncommitter ${person(c.committer)}\n`;
  const message = c.message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '') + '\n';
  return `${s}\n${message}`;
}
