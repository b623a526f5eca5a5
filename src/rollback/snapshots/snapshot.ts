/**
 * Snapshots: the whole working tree recorded as a commit under `refs/kizu/snapshots/`,
 * without touching the user's index, HEAD, stash or files (the snapshot level of rollback).
 *
 * A snapshot commit (git-commit-tree(1), identity git-kizu) has:
 * - tree: every captured file at its path, exact bytes, git mode 100644 / 100755 / 120000
 *   (160000 for submodules), see capture.ts for what is captured;
 * - parent: HEAD at the time, if there is one (so `git diff <snap>^ <snap>` shows the
 *   uncommitted work; the parent is informational only);
 * - message: a subject line `kizu snapshot (<kind>): <message>`, a blank line, and one line
 *   `kizu-snapshot: <JSON>` with {@link SnapshotMeta}: kind, time, message, worktree, head,
 *   files, exact permission bits (defaults plus per-path exceptions, octal strings) and the
 *   skipped paths.
 * Each snapshot has its own ref `refs/kizu/snapshots/<YYYYMMDD-HHMMSS-mmm>-<oid8>` (UTC),
 * created with `git update-ref <ref> <oid> ""` (must not exist yet) and deleted with
 * `git update-ref -d <ref> <oid>` (compare-and-swap). After a new snapshot the oldest are
 * dropped beyond `snapshot.keep`, except those the undo log (../undo-log.ts) refers to; and
 * none at all when the config could not be read as written (a store opened leniently with a
 * problem, store.ts `configBroken`): its `keep` may be what is wrong, and the default 100 may
 * be smaller than the user's own. This one rule covers every caller (`rollback` at every
 * level, `undo`, the prompt hook).
 *
 * Snapshots taken from inside an agent's session (`git kizu snapshot` run by the agent; the
 * meta's `by` is `agent:<agent>`, and the subject reads `kizu snapshot (<kind>, agent:<agent>)`)
 * are counted apart: each class is kept to `snapshot.keep` on its own, and a new snapshot drops
 * only older ones of its own class. So an agent taking 101 snapshots drops its own, never the
 * ones the reviewer or the prompt hook took (issue 22, #67). The class is read from the subject
 * with the refs (one `for-each-ref`), so retention reads no commit messages.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { badRefError, missingRefObject, refFast } from '../../git/refs.js';
import { capture, type Capture, type HashProgress, type ModeDefaults, type Skipped } from './capture.js';
import { acquireLock } from '../../git/lock.js';
import { IDENT, openStore, realGit, sameWorktree, worktreeId, type SnapshotStore } from './store.js';
import { SNAPSHOT_REFS } from '../../git/layout.js';
import { REFS_ARGS, takeBegunSnapshot } from './begin.js';
import type { GitResult } from '../../git/run.js';

export interface SnapshotResult {
  /** The snapshot commit's object id. */
  id: string;
  /** Its ref, `refs/kizu/snapshots/<name>`. */
  ref: string;
  /** `<name>`: the short id users type. */
  name: string;
  /** Files left out (too large, unreadable, special files, nested repositories). */
  skipped: { path: string; reason: string }[];
  /** Entries in the snapshot tree. */
  files: number;
  /** Files read and hashed again for this snapshot (the rest came from the stat cache). */
  hashed: number;
  /** Snapshots dropped by `snapshot.keep` retention. */
  dropped: string[];
  /**
   * True if no new snapshot was written because the newest one already holds exactly this
   * working tree (only for kind 'prompt': a prompt after which nothing changed).
   */
  reused: boolean;
}

/** Why a snapshot was taken. */
export type SnapshotKind = 'manual' | 'prompt' | 'safety';

/** The metadata stored in a snapshot commit's message. */
export interface SnapshotMeta {
  v: 1;
  kind: SnapshotKind;
  /** ISO 8601 UTC time the snapshot was taken. */
  time: string;
  message: string;
  /** Absolute working-tree root it was taken in. */
  worktree: string;
  /**
   * Identity of that worktree (store.ts worktreeId), which survives moving the repository;
   * absent in snapshots written before it was recorded (then `worktree` identifies it).
   */
  worktreeId?: string;
  /** HEAD commit at the time, or null (no commits yet). */
  head: string | null;
  files: number;
  /** Permission bits of files without an exception, as octal strings ("644"). */
  defaults: { file: string; exec: string };
  /** Exact permission bits (octal strings) of files that differ from the defaults. */
  modes: Record<string, string>;
  skipped: Skipped[];
  /**
   * Config `snapshot.include` it was taken with (the ignored files it captured); absent in
   * snapshots written before it was recorded. A rollback deletes an ignored file absent from
   * the snapshot only when these patterns name it (restore.ts).
   */
  include?: string[];
  /**
   * Who took it when that was an agent's session: `agent:<agent>` (agents/session-env.ts
   * `by`); absent for the reviewer's, the prompt hook's and safety snapshots.
   */
  by?: string;
}

/** A snapshot as listed. */
export interface SnapshotInfo {
  /** Commit object id. */
  id: string;
  ref: string;
  name: string;
  /** Tree object id. */
  tree: string;
  meta: SnapshotMeta;
}

const META_PREFIX = 'kizu-snapshot: ';

/** Default time (ms) to wait for another snapshot or restore to finish. */
export const LOCK_TIMEOUT_MS = 30_000;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** `YYYYMMDD-HHMMSS-mmm` in UTC. */
function stamp(d: Date): string {
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}-${pad(d.getUTCMilliseconds(), 3)}`
  );
}

/** Converts capture modes to the metadata form (octal strings). */
export function metaModes(c: Pick<Capture, 'modes' | 'defaults'>): Pick<SnapshotMeta, 'modes' | 'defaults'> {
  const modes: Record<string, string> = {};
  for (const [p, m] of Object.entries(c.modes)) modes[p] = m.toString(8);
  return { defaults: { file: c.defaults.file.toString(8), exec: c.defaults.exec.toString(8) }, modes };
}

/** Converts metadata modes back to numbers. */
export function captureModes(m: Pick<SnapshotMeta, 'modes' | 'defaults'>): { modes: Record<string, number>; defaults: ModeDefaults } {
  const modes: Record<string, number> = {};
  for (const [p, v] of Object.entries(m.modes ?? {})) modes[p] = parseInt(v, 8);
  return { modes, defaults: { file: parseInt(m.defaults?.file ?? '644', 8), exec: parseInt(m.defaults?.exec ?? '755', 8) } };
}

function oneLine(s: string, max = 72): string {
  const l = s.replace(/\s+/g, ' ').trim();
  return l.length > max ? l.slice(0, max - 1) + '…' : l;
}

/**
 * Writes the commit and ref for a capture (caller holds the store lock). `o.drop` names
 * snapshots to delete in the same ref transaction (retention, see {@link retentionPlan}):
 * one `git update-ref --stdin` creates the new ref and deletes those, each compare-and-swap
 * against the id listed (git-update-ref(1) `create`, `delete`). If that transaction fails
 * (a name taken in the same millisecond, or a listed ref moved meanwhile), the ref is created
 * alone and the deletions are tried once more on their own; those that cannot be made are
 * left in place.
 * @returns the new snapshot, and the names of the snapshots deleted.
 * @throws KizuError (exit 2) if git fails.
 */
export async function commitSnapshot(
  s: SnapshotStore,
  c: Capture,
  o: { kind: SnapshotKind; message: string; head: string | null; drop?: { ref: string; id: string }[]; by?: string | null },
): Promise<SnapshotInfo & { dropped: string[] }> {
  const now = new Date();
  const meta: SnapshotMeta = {
    v: 1,
    kind: o.kind,
    time: now.toISOString(),
    message: o.message,
    worktree: s.root,
    worktreeId: worktreeId(s.gitDir, true) ?? undefined,
    head: o.head,
    files: c.files,
    ...metaModes(c),
    skipped: c.skipped,
    include: s.config.include,
    ...(o.by ? { by: o.by } : {}),
  };
  const msg = `kizu snapshot (${o.kind}${o.by ? `, ${o.by}` : ''}): ${oneLine(o.message) || '(no message)'}\n\n${META_PREFIX}${JSON.stringify(meta)}\n`;
  const commit = (
    await realGit(s, ['commit-tree', c.tree, ...(o.head ? ['-p', o.head] : []), '-F', '-'], { input: msg, env: IDENT })
  ).stdout
    .toString('utf8')
    .trim();
  const drop = o.drop ?? [];
  const names = (d: { ref: string }[]) => d.map((x) => x.ref.slice(SNAPSHOT_REFS.length));
  const reflog = `kizu snapshot (${o.kind})`;
  for (let ms = now.getTime(); ; ms++) {
    const name = `${stamp(new Date(ms))}-${commit.slice(0, 8)}`;
    const ref = SNAPSHOT_REFS + name;
    const info = { id: commit, ref, name, tree: c.tree, meta };
    if (ms === now.getTime() && drop.length) {
      const tx = `create ${ref} ${commit}\n` + drop.map((d) => `delete ${d.ref} ${d.id}\n`).join('');
      const r = await realGit(s, ['update-ref', '-m', reflog, '--stdin'], { input: tx, okStatus: [0, 1, 128] });
      if (r.status === 0) return { ...info, dropped: names(drop) };
    }
    const r = await realGit(s, ['update-ref', '-m', reflog, ref, commit, ''], { okStatus: [0, 1, 128] });
    if (r.status === 0) return { ...info, dropped: drop.length ? await deleteRefs(s, drop) : [] };
    if (ms - now.getTime() > 5) throw new KizuError(`could not create ${ref}: ${r.stderr.trim()}`, { hint: 'check that the repository is writable' });
  }
}

/** Deletes snapshot refs in one transaction (each only if it still names the listed id). */
async function deleteRefs(s: SnapshotStore, drop: { ref: string; id: string }[]): Promise<string[]> {
  // One transaction; a ref someone else already moved makes it fail as a whole: then skip.
  const input = drop.map((d) => `delete ${d.ref} ${d.id}\n`).join('');
  const r = await realGit(s, ['update-ref', '--stdin'], { input, okStatus: [0, 1, 128] });
  return r.status === 0 ? drop.map((d) => d.ref.slice(SNAPSHOT_REFS.length)) : [];
}

/** HEAD's commit id, or null when there is no commit yet (read from the files when it can). */
export async function headCommit(s: SnapshotStore): Promise<string | null> {
  try {
    const head = readFileSync(path.join(s.gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head)) return head;
    const m = /^ref: (refs\/\S+)$/.exec(head);
    const oid = m ? refFast(s.commonDir, m[1]) : undefined;
    if (oid === null) return null; // unborn branch
    if (oid) return oid;
  } catch {
    /* ask git */
  }
  const r = await realGit(s, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { okStatus: [0, 1, 128] });
  return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** A snapshot ref as listed by {@link REFS_ARGS}; `agent`: taken in an agent's session (its subject says so). */
interface SnapshotRef {
  ref: string;
  id: string;
  tree: string;
  agent: boolean;
}

/** The subject of a snapshot an agent took: `kizu snapshot (<kind>, agent:<agent>): ...`. */
const AGENT_SUBJECT = /^kizu snapshot \([a-z]+, agent:[a-z]+\):/;

/**
 * Parses `git for-each-ref` {@link REFS_ARGS} output (`<id> <type> <tree> <ref> <subject>`):
 * snapshots oldest first (by name).
 * @throws KizuError (exit 2) for a snapshot ref at anything but a commit (git/refs.ts badRefError).
 */
function parseRefs(out: string): SnapshotRef[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [id, type, tree, ref] = l.split(' ', 4);
      if (type !== 'commit') throw badRefError(ref, id, type);
      const subject = l.split(' ').slice(4).join(' ');
      return { ref, id, tree, agent: AGENT_SUBJECT.test(subject) };
    })
    .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

/**
 * The snapshot refs listed by {@link REFS_ARGS} (run by `git` now or begun earlier), parsed.
 * @throws KizuError (exit 2) for a snapshot ref at anything but an existing commit, or git failing.
 */
async function refsFrom(run: Promise<GitResult>): Promise<SnapshotRef[]> {
  try {
    return parseRefs((await run).stdout.toString('utf8'));
  } catch (e) {
    throw missingRefObject(e);
  }
}

/** Refs, commit ids and tree ids of all snapshots, oldest first (by name). */
async function snapshotRefs(s: SnapshotStore): Promise<SnapshotRef[]> {
  return refsFrom(realGit(s, REFS_ARGS));
}

/**
 * The snapshots `snapshot.keep` retention drops once `adding` more of class `agent` are taken:
 * the oldest of that class in `refs` (oldest first) beyond the limit, skipping those the undo
 * log refers to (protected ones count towards the limit). Snapshots of the other class are
 * neither counted nor dropped (see the module comment). Nothing when the undo log cannot be
 * read, nor when the config could not be read as written (`s.configBroken`).
 */
async function retentionPlan(s: SnapshotStore, all: SnapshotRef[], adding: number, agent: boolean): Promise<{ ref: string; id: string }[]> {
  const refs = all.filter((r) => r.agent === agent);
  if (s.configBroken || refs.length + adding <= s.config.keep) return [];
  const { protectedSnapshots } = await import('../undo-log.js');
  let keepIds: Set<string>;
  try {
    keepIds = await protectedSnapshots(s.root);
  } catch {
    return []; // an unreadable undo log: keep everything rather than drop what it needs
  }
  const drop: { ref: string; id: string }[] = [];
  let n = refs.length + adding;
  for (const r of refs) {
    if (n <= s.config.keep) break;
    if (keepIds.has(r.id)) continue;
    drop.push(r);
    n--;
  }
  return drop;
}

/**
 * Applies `snapshot.keep` retention (caller holds the store lock); never drops the newest,
 * and nothing with a broken config (see {@link retentionPlan}).
 * @returns the names dropped.
 */
export async function retain(s: SnapshotStore): Promise<string[]> {
  const refs = await snapshotRefs(s);
  const newest = refs[refs.length - 1];
  if (!newest) return [];
  const drop = await retentionPlan(s, refs.slice(0, -1), 1, newest.agent);
  return drop.length ? deleteRefs(s, drop) : [];
}

/** The newest snapshot if it holds exactly capture `c` (tree, permission bits, skipped list, worktree). */
async function sameAsNewest(s: SnapshotStore, refs: SnapshotRef[], c: Capture): Promise<{ ref: string; id: string } | null> {
  const newest = refs[refs.length - 1];
  // An agent's snapshot cannot stand for the prompt's: the agent's own snapshots may drop it.
  if (!newest || newest.agent || newest.tree !== c.tree) return null;
  const r = await realGit(s, ['cat-file', 'commit', newest.id], { okStatus: [0, 128] });
  const meta = r.status === 0 ? parseMeta(r.stdout.toString('utf8')) : null;
  if (!meta || !sameWorktree(meta, s.root, s.gitDir)) return null;
  const m = metaModes(c);
  const canon = (x: Pick<SnapshotMeta, 'modes' | 'defaults' | 'skipped'>) =>
    JSON.stringify([x.defaults.file, x.defaults.exec, Object.entries(x.modes).sort(), x.skipped.map((k) => [k.path, k.reason]).sort()]);
  // Another snapshot.include captured other ignored files: the newest cannot stand for this one.
  if (JSON.stringify(meta.include ?? null) !== JSON.stringify(s.config.include)) return null;
  return canon(meta) === canon({ ...m, skipped: c.skipped }) ? newest : null;
}

/**
 * Records the whole working tree of the repository at `root` as a snapshot commit under
 * `refs/kizu/snapshots/` (see the module comment and capture.ts), then applies
 * `snapshot.keep` retention. Never touches the user's index, HEAD, stash or files.
 * @param root the working-tree top level (a subdirectory also works; it is resolved).
 * @param opts.message free text stored with the snapshot (default ''); `kind` default
 *   'manual'; `lockTimeoutMs`: how long to wait for a concurrent snapshot/restore (default
 *   30 000 ms); `configProblem`: see store.ts openStore (an invalid config then gives a
 *   warning instead of an error); `progress`: told how many files git has hashed of those
 *   handed to it (capture.ts HashProgress; without it git is not asked to report them).
 *   `by`: `agent:<agent>` when taken from inside an agent's session (agents/session-env.ts):
 *   recorded in the meta and subject, and counted apart by retention (module comment).
 * A 'prompt' snapshot identical to the newest snapshot (same tree, permission bits and
 * skipped list, same worktree) is not written again: the newest is returned with
 * `reused: true`, so prompts that change nothing do not push older snapshots out.
 * @returns ids, skipped files, file count, how many files were hashed again.
 * @throws KizuError (exit 2) outside a repository, for an invalid config (unless
 *   `configProblem`), when the store stays locked, or when git fails.
 */
export async function takeSnapshot(
  root: string,
  opts: { message?: string; kind?: SnapshotKind; lockTimeoutMs?: number; configProblem?: (line: string) => void; progress?: HashProgress; by?: string | null } = {},
): Promise<SnapshotResult> {
  const s = await openStore(root, { configProblem: opts.configProblem });
  // Begun by the command or the hook before this code loaded (./begin.ts).
  const begun = takeBegunSnapshot(s.root, s.gitDir);
  const release = begun ? begun.release : await acquireLock(s.lockFile, 'the snapshot store', opts.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
  try {
    const refsP = begun ? refsFrom(begun.refs) : snapshotRefs(s);
    refsP.catch(() => {});
    const headP = headCommit(s);
    // Retention is planned while the capture runs (the new ref and the deletions then go in
    // one transaction).
    const dropP = refsP.then((refs) => retentionPlan(s, refs, 1, !!opts.by));
    dropP.catch(() => {});
    const c = await capture(s, [], begun, opts.progress);
    const kind = opts.kind ?? 'manual';
    const refs = await refsP;
    if (kind === 'prompt') {
      const same = await sameAsNewest(s, refs, c);
      if (same) return { id: same.id, ref: same.ref, name: same.ref.slice(SNAPSHOT_REFS.length), skipped: c.skipped, files: c.files, hashed: c.hashed, dropped: [], reused: true };
    }
    const info = await commitSnapshot(s, c, { kind, message: opts.message ?? '', head: await headP, drop: await dropP, by: opts.by });
    return { id: info.id, ref: info.ref, name: info.name, skipped: c.skipped, files: c.files, hashed: c.hashed, dropped: info.dropped, reused: false };
  } finally {
    release();
  }
}

/** Parses the `kizu-snapshot:` line of a commit message; null if absent or invalid. */
export function parseMeta(message: string): SnapshotMeta | null {
  const i = message.indexOf('\n' + META_PREFIX);
  if (i < 0) return null;
  const end = message.indexOf('\n', i + 1);
  try {
    const m = JSON.parse(message.slice(i + 1 + META_PREFIX.length, end < 0 ? undefined : end)) as SnapshotMeta;
    return m && m.v === 1 && typeof m.time === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** Listing, reading and dropping snapshots use no config: a mistake in it must not block them. */
function ignoreConfig(): void {}

/**
 * Every snapshot, newest first.
 * @throws KizuError (exit 2) for a snapshot ref at anything but an existing commit (git/refs.ts badRefError), or if git fails.
 */
export async function listSnapshots(root: string): Promise<SnapshotInfo[]> {
  const s = await openStore(root, { configProblem: ignoreConfig });
  return listIn(s);
}

async function listIn(s: SnapshotStore): Promise<SnapshotInfo[]> {
  let out: string;
  try {
    out = (await realGit(s, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)%00%(objecttype)%00%(contents)%00', SNAPSHOT_REFS])).stdout.toString('utf8');
  } catch (e) {
    throw missingRefObject(e);
  }
  const parts = out.split('\0');
  const list: SnapshotInfo[] = [];
  for (let i = 0; i + 4 < parts.length; i += 5) {
    const ref = parts[i].replace(/^\n/, '');
    if (parts[i + 3] !== 'commit') throw badRefError(ref, parts[i + 1], parts[i + 3]);
    const meta = parseMeta(parts[i + 4]);
    if (!meta) continue;
    list.push({ id: parts[i + 1], ref, name: ref.slice(SNAPSHOT_REFS.length), tree: parts[i + 2], meta });
  }
  return list.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/**
 * Resolves a snapshot given as its name (`<YYYYMMDD-HHMMSS-mmm>-<oid8>`), its full ref, or
 * a commit id prefix (at least 4 hex digits) of a listed snapshot; a full commit id of a
 * snapshot commit whose ref was dropped is accepted too (undo records use commit ids).
 * @throws KizuError (exit 1) if nothing or more than one snapshot matches; exit 2 for a
 *   snapshot ref at anything but an existing commit (git/refs.ts badRefError).
 */
export async function readSnapshot(root: string, spec: string): Promise<SnapshotInfo> {
  return readIn(await openStore(root, { configProblem: ignoreConfig }), spec);
}

/** {@link readSnapshot} for an open store. */
export async function readIn(s: SnapshotStore, spec: string): Promise<SnapshotInfo> {
  const hint = 'list snapshots with git kizu snapshot list';
  const name = spec.startsWith(SNAPSHOT_REFS) ? spec.slice(SNAPSHOT_REFS.length) : spec;
  const list = await listIn(s);
  const byName = list.find((x) => x.name === name);
  if (byName) return byName;
  if (/^[0-9a-f]{4,64}$/i.test(spec)) {
    const hits = list.filter((x) => x.id.startsWith(spec.toLowerCase()));
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) {
      throw new KizuError(`${spec} is ambiguous: ${hits.map((h) => h.name).join(', ')}`, { hint: 'give more digits or the snapshot name', exitCode: EXIT.FOUND });
    }
    if (spec.length === s.oidLen * 2) {
      const r = await realGit(s, ['cat-file', 'commit', spec], { okStatus: [0, 128] });
      if (r.status === 0) {
        const body = r.stdout.toString('utf8');
        const meta = parseMeta(body.slice(body.indexOf('\n\n') + 1));
        const tree = /^tree ([0-9a-f]+)/.exec(body)?.[1];
        if (meta && tree) return { id: spec.toLowerCase(), ref: '', name: spec.slice(0, 12), tree, meta };
      }
    }
  }
  throw new KizuError(`no snapshot "${spec}"`, { hint, exitCode: EXIT.FOUND });
}

/**
 * Deletes a snapshot's ref (compare-and-swap on its commit id). Its objects stay until git
 * gc prunes them.
 * @param opts.force also drop a snapshot the undo log refers to (undo can restore it only until git gc removes its objects, which nothing else keeps).
 * @throws KizuError: exit 1 for an unknown snapshot or (without force) one the undo log
 *   needs; exit 2 if git fails.
 */
export async function dropSnapshot(root: string, spec: string, opts: { force?: boolean } = {}): Promise<SnapshotInfo> {
  const s = await openStore(root, { configProblem: ignoreConfig });
  const snap = await readIn(s, spec);
  if (!snap.ref) throw new KizuError(`no snapshot "${spec}" (its ref is already gone)`, { exitCode: EXIT.FOUND });
  if (!opts.force) {
    const { protectedSnapshots, readRollbacks } = await import('../undo-log.js');
    if ((await protectedSnapshots(s.root)).has(snap.id)) {
      const isRecord = (await readRollbacks(s.root)).some((r) => r.safetySnapshot === snap.id);
      throw new KizuError(isRecord ? `snapshot ${snap.name} is the safety snapshot of a rollback that git kizu undo can still reverse` : `snapshot ${snap.name} is the safety snapshot a recent git kizu undo took (its redo point)`, {
        hint: `pass --force to drop it anyway (undo can restore it only until git gc removes its objects, which nothing else keeps)`,
        exitCode: EXIT.FOUND,
      });
    }
  }
  await realGit(s, ['update-ref', '-d', snap.ref, snap.id]);
  return snap;
}
