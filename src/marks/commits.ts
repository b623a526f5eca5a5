/**
 * The marks store: reads and writes the objects behind `refs/kizu/marks` (blob `marks.json`
 * → tree → commit, see ./format.ts) with isomorphic-git (git/objects.ts) and moves the ref
 * with compare-and-swap `git update-ref` (git/refs.ts casUpdateRef).
 *
 * Cheap readers go through ./read.ts, which only loads this module when the ref exists.
 */
import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import path from 'node:path';
import { commonDir } from '../git/repo.js';
import { replaceFileSync } from '../files.js';
import { backoff, casUpdateRef, resolveRef, MAX_ATTEMPTS } from '../git/refs.js';
import { igit, identity, objectCache as cache, objectFs, withPakoDeflate, type Ident } from '../git/objects.js';
import { KizuError } from '../errors.js';
import { MARKS_REF, marksCacheFile as marksCache } from '../git/layout.js';
import {
  MARKS_FILE,
  corrupt,
  parseMarksJson,
  serializeMarks,
  isIsoMs,
  isAgentBy,
  BASE_RE,
  OLD_RE,
  type Marks,
  type MarkEntry,
  type MarkState,
} from './format.js';

/** Where a marks commit came from, for error messages. */
export interface MarksSource {
  /** The ref it was read through (used in the hint's commands). */
  ref: string;
  /** How to name it in the message (default: `ref`). */
  label?: string;
  /** Hint for a corrupt/unknown-version error (default: format.ts corruptHint(ref)). */
  hint?: string;
}

/**
 * Loads the marks stored in commit `oid` (isomorphic-git `readCommit`, `readTree`, `readBlob`
 * on the common git dir; loose and packed objects), or from the one-entry cache of the commit
 * read or written last (`<gitdir>/kizu/marks-cache.json`, proven against the commit id:
 * {@link readMarksCache}) unless
 * `opts.cache` is false (writers read through isomorphic-git, so that they refuse to build on a
 * damaged commit).
 * @param gitdir absolute common git dir.
 * @returns hunk id → entry, tombstones included.
 * @throws KizuError (exit 2) naming the ref if `oid` is missing or not a commit, the tree has
 *   no `marks.json` blob, or the JSON is invalid / of an unknown format version.
 */
export async function loadMarks(gitdir: string, oid: string, src: MarksSource, opts: { cache?: boolean } = {}): Promise<Marks> {
  const label = src.label ?? src.ref;
  const relabel = (e: KizuError): KizuError =>
    label === src.ref && !src.hint ? e : new KizuError(e.message.replace(src.ref, label), { hint: src.hint ?? e.hint });
  const fail = (why: string): KizuError => relabel(corrupt(src.ref, why));
  const cached = opts.cache !== false ? readMarksCache(gitdir, oid) : undefined;
  const blob = cached ?? (await marksBlobIgit(gitdir, oid, fail));
  if (!cached) await writeMarksCache(gitdir, oid, blob);
  try {
    return parseMarksJson(blob, src.ref);
  } catch (e) {
    throw e instanceof KizuError ? relabel(e) : e;
  }
}

/**
 * `<common git dir>/kizu/marks-cache.json`: `{"v": 2, "oid": <commit>, "commit": <its raw
 * text>, "tree": <its tree's raw bytes, base64>, "json": <its marks.json text>}` for the
 * commit read or written last. It spares the hooks and `hunks` loading isomorphic-git (tens of
 * milliseconds) to read marks that have not changed since, and it proves itself: the agent can
 * write this file, so an entry is used only if the commit text hashes to `oid`, the tree bytes
 * to the commit's tree, and the marks.json text to that tree's `marks.json` blob (git's object
 * ids, SHA-1 of `<type> <size>\0<content>`, gitformat-loose(5) / git-hash-object(1)). A
 * forged entry is ignored: slower, never another answer.
 */
function marksCacheFile(gitdir: string): string {
  return marksCache(gitdir);
}

/** Git's object id of `content` as an object of `type` (SHA-1, hex). */
function objectId(type: 'commit' | 'tree' | 'blob', content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** The id of the `marks.json` blob in raw tree `tree` (entries `<mode> <name>\0<20-byte id>`), or null. */
function marksBlobIn(tree: Buffer): string | null {
  let i = 0;
  while (i < tree.length) {
    const sp = tree.indexOf(0x20, i);
    const nul = tree.indexOf(0, sp + 1);
    if (sp < 0 || nul < 0 || nul + 21 > tree.length) return null;
    const mode = tree.toString('latin1', i, sp);
    const name = tree.toString('utf8', sp + 1, nul);
    if (name === MARKS_FILE) return mode === '100644' || mode === '100755' ? tree.toString('hex', nul + 1, nul + 21) : null;
    i = nul + 21;
  }
  return null;
}

/** The cached marks.json bytes of commit `oid`, or undefined (no cache, another oid, unreadable, or not proven against `oid`). */
export function readMarksCache(gitdir: string, oid: string): Uint8Array | undefined {
  try {
    const c = JSON.parse(nodeFs.readFileSync(marksCacheFile(gitdir), 'utf8')) as { v?: unknown; oid?: unknown; commit?: unknown; tree?: unknown; json?: unknown };
    if (c.v !== 2 || c.oid !== oid || typeof c.commit !== 'string' || typeof c.tree !== 'string' || typeof c.json !== 'string') return undefined;
    const commit = Buffer.from(c.commit, 'utf8');
    if (objectId('commit', commit) !== oid) return undefined;
    const treeOid = /^tree ([0-9a-f]{40})\n/.exec(c.commit)?.[1];
    const tree = Buffer.from(c.tree, 'base64');
    if (!treeOid || objectId('tree', tree) !== treeOid) return undefined;
    const json = Buffer.from(c.json, 'utf8');
    return marksBlobIn(tree) === objectId('blob', json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records `blob` as the marks.json of commit `oid`, with the commit's and its tree's raw
 * content read back through isomorphic-git (atomic; best effort: a failure is ignored).
 */
async function writeMarksCache(gitdir: string, oid: string, blob: Uint8Array): Promise<void> {
  const file = marksCacheFile(gitdir);
  try {
    if (readMarksCache(gitdir, oid)) return;
    const text = Buffer.from(blob).toString('utf8');
    const ig = igit();
    const commit = Buffer.from((await ig.readObject({ fs: objectFs, gitdir, oid, format: 'content', cache })).object as Uint8Array);
    const treeOid = /^tree ([0-9a-f]{40})\n/.exec(commit.toString('utf8'))?.[1];
    if (!treeOid) return;
    const tree = Buffer.from((await ig.readObject({ fs: objectFs, gitdir, oid: treeOid, format: 'content', cache })).object as Uint8Array);
    nodeFs.mkdirSync(path.dirname(file), { recursive: true });
    replaceFileSync(file, JSON.stringify({ v: 2, oid, commit: commit.toString('utf8'), tree: tree.toString('base64'), json: text }));
  } catch {
    /* a cache only */
  }
}

/** The marks.json bytes of commit `oid` read with isomorphic-git (loose and packed objects). */
async function marksBlobIgit(gitdir: string, oid: string, fail: (why: string) => KizuError): Promise<Uint8Array> {
  let treeOid: string;
  try {
    treeOid = (await igit().readCommit({ fs: objectFs, gitdir, oid, cache })).commit.tree;
  } catch (e) {
    const err = e as { code?: string; data?: { actual?: string } };
    if (err.code === 'ObjectTypeError') throw fail(`${oid} is a ${err.data?.actual ?? 'non-commit object'}, not a commit`);
    if (err.code === 'NotFoundError') throw fail(`commit ${oid} is missing from the object store`);
    throw fail(`cannot read commit ${oid} (${(e as Error).message})`);
  }
  let entry;
  try {
    entry = (await igit().readTree({ fs: objectFs, gitdir, oid: treeOid, cache })).tree.find((t) => t.path === MARKS_FILE);
  } catch (e) {
    throw fail(`cannot read tree ${treeOid} of commit ${oid} (${(e as Error).message})`);
  }
  if (!entry || entry.type !== 'blob') throw fail(`commit ${oid} has no ${MARKS_FILE} file`);
  try {
    return (await igit().readBlob({ fs: objectFs, gitdir, oid: entry.oid, cache })).blob;
  } catch (e) {
    throw fail(`cannot read ${MARKS_FILE} blob ${entry.oid} (${(e as Error).message})`);
  }
}

/** The `by` value of a mark: the email, else the name. */
export function byOf(id: Ident): string {
  return id.email || id.name;
}

/**
 * Writes `marks.json`, a one-entry tree (`100644 marks.json`) and a commit with `who` as
 * author and committer (isomorphic-git `writeBlob`, `writeTree`, `writeCommit`; loose objects
 * in the common git dir).
 * @param parents parent commit ids: [] for the first commit, [old] for an update,
 *   [local, remote] for a merge.
 * @returns the new commit id. The ref is not moved (see {@link casUpdateRef}).
 * @throws the file system error if an object cannot be written.
 */
export async function writeMarksCommit(gitdir: string, marks: Marks, parents: string[], message: string, who: Ident): Promise<string> {
  const ig = igit();
  const json = new TextEncoder().encode(serializeMarks(marks));
  const blob = await withPakoDeflate(() => ig.writeBlob({ fs: objectFs, gitdir, blob: json }));
  const tree = await ig.writeTree({ fs: objectFs, gitdir, tree: [{ mode: '100644', path: MARKS_FILE, oid: blob, type: 'blob' }] });
  const person = { name: who.name, email: who.email, timestamp: who.timestamp, timezoneOffset: who.timezoneOffset };
  const commit = await ig.writeCommit({ fs: objectFs, gitdir, commit: { message: message.endsWith('\n') ? message : message + '\n', tree, parent: parents, author: person, committer: person } });
  await writeMarksCache(gitdir, commit, json);
  return commit;
}

/**
 * Refuses repositories whose objects are not SHA-1 (`extensions.objectFormat = sha256` in
 * `<gitdir>/config`; gitrepository-layout(5)): isomorphic-git writes SHA-1 objects only, and
 * they would be invalid there.
 * @throws KizuError (exit 2) for a SHA-256 repository, before anything is written.
 */
export function assertSha1(gitdir: string): void {
  let text = '';
  try {
    text = nodeFs.readFileSync(path.join(gitdir, 'config'), 'utf8');
  } catch {
    return;
  }
  if (/^\s*objectformat\s*=\s*"?sha256"?\s*$/im.test(text)) {
    throw new KizuError('review marks are not available in a SHA-256 repository: isomorphic-git, which writes them, supports SHA-1 objects only', {
      hint: 'use scars (git kizu scar) or the review queue (git kizu queue add) to review here; snapshots and rollback work in SHA-256 repositories',
    });
  }
}

/** The error thrown when a CAS loop keeps losing. */
export function tooMuchContention(ref: string): KizuError {
  return new KizuError(`could not update ${ref}: it changed under us ${MAX_ATTEMPTS} times in a row`, {
    hint: 'another process is writing marks continuously; try again',
  });
}

/** A mark change for {@link setMarks}. */
export interface MarkUpdate {
  /** Full hex hunk id (hunks module `Hunk.id`). */
  id: string;
  /** New state; 'none' writes an untap tombstone. */
  state: MarkState | 'none';
  /** Repo-relative path of the hunk. */
  path: string;
  /** `path:start-end` (hunks module `hunkRange`). */
  range: string;
  /** With a reject: the baseline commit the hunk was listed against (format.ts `base`). */
  base?: string;
  /** With a reject: where the hunk sat in `base`'s version of the file (format.ts `old`). */
  old?: string;
}

const STATES = new Set(['tapped', 'rejected', 'none']);

/**
 * Applies `updates` on top of the current marks and moves `refs/kizu/marks` by CAS, re-reading
 * and re-applying on a lost race (at most {@link MAX_ATTEMPTS} tries, random backoff), so
 * concurrent writers lose nothing. Each entry gets `time` = now, but at least 1 ms after the
 * entry it replaces (so an update always beats what it overwrote, even with a clock going
 * backwards) and `by` = user.email (else name). One commit per call, parent = the old tip.
 * @param opts.who the identity to write with, if the caller started {@link identity} early
 *   (default: asked for here, while the current marks are read).
 * @param opts.by the entries' `by` instead of the identity's email: `agent:<name>` for a mark
 *   set inside an agent's session (agents/session-env.ts); the commit's author stays `who`.
 *   Such an update of a hunk a person rejected is left out (the reject stays the person's).
 * @returns the new commit id; for an empty `updates` nothing is written and the current tip
 *   (or null if there are no marks) is returned.
 * @throws KizuError (exit 2): an id that is not lowercase hex or a bad state (nothing written);
 *   a corrupt or unknown-version ref (nothing written, ref unchanged); persistent contention.
 */
export async function setMarks(root: string, updates: MarkUpdate[], opts: { who?: Promise<Ident>; by?: string } = {}): Promise<string | null> {
  for (const u of updates) {
    if (!/^[0-9a-f]+$/.test(u.id)) throw new KizuError(`not a hunk id: "${u.id}"`, { hint: 'hunk ids are lowercase hex (see git kizu hunks)' });
    if (!STATES.has(u.state)) throw new KizuError(`not a mark state: "${u.state}"`, { hint: 'use tapped, rejected or none' });
    if (u.base !== undefined && !BASE_RE.test(u.base)) throw new KizuError(`not a commit id: "${u.base}"`, { hint: 'a mark\'s base is the full hex id of the baseline commit' });
    if (u.old !== undefined && !OLD_RE.test(u.old)) throw new KizuError(`not a hunk place: "${u.old}"`, { hint: 'use <start>,<count>, file or mode' });
  }
  if (!updates.length) return resolveRef(root, MARKS_REF);
  const whoP = opts.who ?? identity(root);
  whoP.catch(() => {}); // awaited below, after the common dir (whose error comes first)
  const gitdir = await commonDir(root);
  assertSha1(gitdir);
  const verb = { tapped: 'tap', rejected: 'reject', none: 'untap' } as const;
  const counts = new Map<string, number>();
  for (const u of updates) counts.set(verb[u.state], (counts.get(verb[u.state]) ?? 0) + 1);
  const subject = `kizu: ${[...counts].map(([v, n]) => `${v} ${n}`).join(', ')}`;
  const body = updates.map((u) => `${verb[u.state]} ${u.id} ${u.range}`).join('\n');
  for (let attempt = 1; ; attempt++) {
    const old = await resolveRef(root, MARKS_REF, gitdir);
    const cur = old ? await loadMarks(gitdir, old, { ref: MARKS_REF }, { cache: false }) : new Map<string, MarkEntry>();
    const who = await whoP;
    const now = Date.now();
    for (const u of updates) {
      const prev = cur.get(u.id);
      // An agent's mark never takes a person's reject over (it would become the agent's).
      if (opts.by && isAgentBy(opts.by) && prev?.state === 'rejected' && !isAgentBy(prev.by)) continue;
      const t = prev && isIsoMs(prev.time) ? Math.max(now, Date.parse(prev.time) + 1) : now;
      const e: MarkEntry = { state: u.state, time: new Date(t).toISOString(), by: opts.by ?? byOf(who), path: u.path, range: u.range };
      if (u.base !== undefined) e.base = u.base;
      if (u.old !== undefined) e.old = u.old;
      cur.set(u.id, e);
    }
    const oid = await writeMarksCommit(gitdir, cur, old ? [old] : [], `${subject}\n\n${body}`, who);
    if (await casUpdateRef(root, MARKS_REF, oid, old, subject)) return oid;
    if (attempt >= MAX_ATTEMPTS) throw tooMuchContention(MARKS_REF);
    await backoff(attempt);
  }
}
