/**
 * Saved reverts: what `git kizu revert` (and `revert --restore`) discards is saved first, as
 * a commit on `refs/kizu/reverts` (the "trash id" users pass to `revert --restore`). Each commit's tree holds the one saved file at its path
 * (mode 100644, 100755 or 120000), or is empty when the file did not exist; its message
 * records the path (JSON), the type, the exact mode bits and why it was saved. When the
 * path's index entry was changed too (a revert of a staged change), the message also holds
 * `kizu-index: <mode> <blob>` (the stage-0 entry as it was, or `none`), and the tree holds
 * that blob next to the file as `<name>.kizu-index`, which keeps it reachable (the file
 * itself sorts first, so a reader taking the tree's first entry still gets the file). Commits chain
 * (each has the previous saved revert as parent), so `git log refs/kizu/reverts` lists them
 * and they stay reachable (not garbage-collected). The ref is moved with
 * `git update-ref <ref> <new> <old>` (compare-and-swap; retried when another process
 * moved it first). Retention (storage/retention.ts, `git kizu gc`) cuts the oldest off by
 * writing the kept commits again, each with a `kizu-id: <its first commit id>` line, by which
 * `revert --restore` still finds it.
 */
import { KizuError, EXIT } from '../errors.js';
import { git } from '../git/run.js';
import { REVERTS_REF } from '../git/layout.js';
import { resolveKizuRef } from '../git/refs.js';
import { quoteCStyle } from '../git/quote.js';
import { pathProblem, unsafePathError } from '../git/verify-path.js';


const IDENT = {
  GIT_AUTHOR_NAME: 'git-kizu',
  GIT_AUTHOR_EMAIL: 'git-kizu@localhost',
  GIT_COMMITTER_NAME: 'git-kizu',
  GIT_COMMITTER_EMAIL: 'git-kizu@localhost',
};

/** What was at a path before git kizu changed it. */
export interface SavedFile {
  /** Repo-root-relative path, '/'-separated. */
  path: string;
  /** 'file' (regular file), 'symlink' (content = link target) or 'absent' (no file). */
  type: 'file' | 'symlink' | 'absent';
  /** The bytes (file content or link target); null when absent. */
  content: Buffer | null;
  /** Permission bits (e.g. 0o644) of a regular file; null otherwise. */
  mode: number | null;
  /**
   * The path's stage-0 index entry as it was (git mode and blob id), null for no entry;
   * undefined when the index was not part of what was saved (then a restore leaves it alone).
   */
  index?: IndexEntry | null;
}

/** A stage-0 index entry: git mode (`100644`, `100755`, `120000`) and blob id. */
export interface IndexEntry {
  mode: string;
  oid: string;
}

/** A saved revert: the saved file plus where it is stored. */
export interface SavedRevert extends SavedFile {
  /** Its commit on refs/kizu/reverts: the id it was saved with (a commit that retention wrote again keeps that id in its `kizu-id:` line). */
  commit: string;
  /** The blob holding the content; null when absent. */
  blob: string | null;
  /** Why it was saved (e.g. `revert <hunk id>`). */
  reason: string;
}

async function out(args: string[], root: string, input?: Buffer | string): Promise<string> {
  return (await git(args, { cwd: root, input, env: IDENT })).stdout.toString('utf8').trim();
}

/** Builds the tree holding `blob` at `path` (nested trees, one `git mktree` per level). */
async function treeFor(root: string, path: string, mode: string | null, blob: string | null, index?: IndexEntry | null): Promise<string> {
  const parts = path.split('/');
  const name = parts.pop()!;
  let entry = mode && blob ? `${mode} blob ${blob}\t${name}\0` : '';
  if (index) entry += `${index.mode} blob ${index.oid}\t${name}.kizu-index\0`;
  let tree = await out(['mktree', '-z'], root, entry);
  while (parts.length) {
    entry = `040000 tree ${tree}\t${parts.pop()}\0`;
    tree = await out(['mktree', '-z'], root, entry);
  }
  return tree;
}

/**
 * Saves `f` as a new commit on refs/kizu/reverts (with `f.index` when it is not undefined:
 * see the module comment).
 * @param reason recorded in the commit message (one line).
 * @returns the entry with its commit and blob ids.
 * @throws KizuError (exit 2) if refs/kizu/reverts points at anything but an existing commit
 *   (git/refs.ts checkRefObject; it is left as it is), or git cannot write the objects or the ref (after 5 attempts
 *   when other processes keep moving it).
 */
export async function saveRevert(root: string, f: SavedFile, reason: string): Promise<SavedRevert> {
  let blob: string | null = null;
  let tree: string;
  if ((f.type === 'absent' || f.content === null) && !f.index) tree = await out(['mktree', '-z'], root, '');
  else if (f.type === 'absent' || f.content === null) tree = await treeFor(root, f.path, null, null, f.index);
  else {
    blob = await out(['hash-object', '-w', '--no-filters', '--stdin'], root, f.content);
    const gitMode = f.type === 'symlink' ? '120000' : (f.mode ?? 0o644) & 0o100 ? '100755' : '100644';
    tree = await treeFor(root, f.path, gitMode, blob, f.index);
  }
  const type = f.content === null ? 'absent' : f.type;
  const msg =
    `kizu trash: ${f.path.replace(/[\r\n]/g, ' ')}\n\n` +
    `kizu-path: ${JSON.stringify(f.path)}\n` +
    `kizu-type: ${type}\n` +
    `kizu-mode: ${f.mode === null || type !== 'file' ? 'none' : '0' + (f.mode & 0o7777).toString(8)}\n` +
    `kizu-reason: ${reason.replace(/[\r\n]/g, ' ')}\n` +
    (f.index === undefined ? '' : `kizu-index: ${f.index ? `${f.index.mode} ${f.index.oid}` : 'none'}\n`);
  for (let attempt = 0; attempt < 5; attempt++) {
    const parent = (await resolveKizuRef(root, REVERTS_REF)) ?? '';
    const commit = await out(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], root, msg);
    const upd = await git(['update-ref', '-m', `kizu trash: ${reason.replace(/[\r\n]/g, ' ')}`, REVERTS_REF, commit, parent], {
      cwd: root,
      okStatus: [0, 1, 128],
    });
    if (upd.status === 0) return { ...f, type, commit, blob, reason };
  }
  throw new KizuError(`could not update ${REVERTS_REF}: other processes kept changing it`, { hint: 'retry the command' });
}

/**
 * Reads a saved revert.
 * @param spec a commit id (or prefix) on refs/kizu/reverts, as printed by revert.
 * @throws KizuError (exit 1: `no saved revert <spec>: ...`) if `spec` is not a commit of the chain of
 *   saved reverts (never saved, or dropped by retention); exit 2
 *   if refs/kizu/reverts points at anything but an existing commit (git/refs.ts checkRefObject),
 *   or if the entry names a path git-kizu must not write (git/verify-path.ts pathProblem:
 *   outside the working tree, in `.git`, ...).
 */
export async function readSavedRevert(root: string, spec: string): Promise<SavedRevert> {
  const notFound = () =>
    new KizuError(`no saved revert ${quoteCStyle(spec)}: it may have been dropped by git kizu gc (retention.reverts), or never existed`, {
      hint: 'list the saved reverts that are kept, by the ids revert printed, with git kizu revert --list',
      exitCode: EXIT.FOUND,
    });
  if (!/^[0-9a-fA-F]{4,64}$/.test(spec)) throw notFound();
  const tip = await resolveKizuRef(root, REVERTS_REF);
  if (!tip) throw notFound();
  const r = await git(['rev-parse', '--verify', '-q', `${spec}^{commit}`], { cwd: root, okStatus: [0, 1, 128] });
  let commit = r.status === 0 ? r.stdout.toString('utf8').trim() : null;
  if (commit) {
    const anc = await git(['merge-base', '--is-ancestor', commit, tip], { cwd: root, okStatus: [0, 1, 128] });
    if (anc.status !== 0) commit = null;
  }
  if (!commit) {
    // An entry that retention wrote again (storage/retention.ts) is found by its first id.
    const g = await git(['log', '--format=%H', `--grep=^kizu-id: ${spec.toLowerCase()}`, tip], { cwd: root });
    const hits = g.stdout.toString('utf8').split('\n').filter(Boolean);
    if (hits.length !== 1) throw notFound();
    commit = hits[0];
  }
  const body = (await git(['cat-file', 'commit', commit], { cwd: root })).stdout.toString('utf8');
  const msg = body.slice(body.indexOf('\n\n') + 2);
  const field = (k: string) => new RegExp(`^kizu-${k}: (.*)$`, 'm').exec(msg)?.[1];
  const p = field('path');
  const type = field('type') as SavedRevert['type'] | undefined;
  if (!msg.startsWith('kizu trash: ') || p === undefined || !type) throw notFound();
  const path = JSON.parse(p) as unknown;
  // A path git-kizu must not write (git/verify-path.ts): refused before anything reads the file.
  const unsafe = typeof path === 'string' ? pathProblem(path, { symlink: type === 'symlink' }) : 'it is not a string';
  if (unsafe) {
    throw unsafePathError(`saved revert ${spec} (${REVERTS_REF})`, String(path), unsafe, `git kizu revert never saves such a path, so this entry was made or changed by something else: see it with git show ${commit}`);
  }
  if (type !== 'file' && type !== 'symlink' && type !== 'absent') throw notFound();
  const modeText = field('mode') ?? 'none';
  const mode = modeText === 'none' ? null : parseInt(modeText, 8);
  let blob: string | null = null;
  let content: Buffer | null = null;
  if (type !== 'absent') {
    const ls = await git(['ls-tree', '-z', '-r', '--full-tree', commit], { cwd: root });
    // The file at its path (an entry saved before index entries were recorded: the one entry).
    const entries = ls.stdout.toString('utf8').split('\0').map((e) => /^\d+ blob ([0-9a-f]+)\t([\s\S]*)$/.exec(e));
    const m = entries.find((e) => e && e[2] === path) ?? entries[0];
    if (!m) throw notFound();
    blob = m[1];
    content = (await git(['cat-file', 'blob', blob], { cwd: root })).stdout;
  }
  const indexText = field('index');
  const im = indexText === undefined ? null : /^(\d{6}) ([0-9a-f]{40,64})$/.exec(indexText);
  const index: IndexEntry | null | undefined = indexText === undefined ? undefined : im ? { mode: im[1], oid: im[2] } : indexText === 'none' ? null : undefined;
  // Named by its first id where retention wrote it again, as it was printed when saved.
  const first = field('id');
  return { path: path as string, type, content, mode, ...(index === undefined ? {} : { index }), commit: first && /^[0-9a-f]{40}$/.test(first) ? first : commit, blob, reason: field('reason') ?? '' };
}

/** One saved revert as {@link listSavedReverts} gives it. */
export interface SavedRevertEntry {
  /** The id revert printed for it (`--restore` takes it): its `kizu-id:` where retention wrote it again, else its commit id. 40 or 64 hex digits. */
  id: string;
  /** Repo-root-relative path, '/'-separated. */
  path: string;
  /** 'file', 'symlink' or 'absent' (there was no file). */
  type: SavedRevert['type'];
  /** Why it was saved (e.g. `revert <commit>`, `restore <id>`). */
  reason: string;
}

/**
 * The saved reverts that refs/kizu/reverts still holds, newest first, each by the id revert
 * printed when it saved it (what `revert --restore` takes), also after `git kizu gc` wrote
 * the chain again. Empty when there are none.
 * @throws KizuError exit 2 if refs/kizu/reverts points at anything but an existing commit.
 */
export async function listSavedReverts(root: string): Promise<SavedRevertEntry[]> {
  const tip = await resolveKizuRef(root, REVERTS_REF);
  if (!tip) return [];
  const out = (await git(['log', '-z', '--format=%H%n%B', tip], { cwd: root })).stdout.toString('utf8');
  const list: SavedRevertEntry[] = [];
  for (const rec of out.split('\0')) {
    const nl = rec.indexOf('\n');
    if (nl < 0) continue;
    const commit = rec.slice(0, nl);
    const msg = rec.slice(nl + 1);
    const field = (k: string) => new RegExp(`^kizu-${k}: (.*)$`, 'm').exec(msg)?.[1];
    const p = field('path');
    const type = field('type') as SavedRevert['type'] | undefined;
    if (!msg.startsWith('kizu trash: ') || p === undefined || !type) continue;
    const first = field('id');
    list.push({ id: first && /^[0-9a-f]{40,64}$/.test(first) ? first : commit, path: JSON.parse(p) as string, type, reason: field('reason') ?? '' });
  }
  return list;
}
