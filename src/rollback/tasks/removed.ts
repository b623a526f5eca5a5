/**
 * Removed tasks: the copy `git kizu rollback branch` saves of a task before discarding it.
 * `refs/kizu/trash/<name>/<time>` (time `YYYYMMDDTHHMMSSZ`, UTC; `-2`, `-3`... appended when
 * that ref exists) points at a *removed-task commit*:
 *
 * - tree: the task worktree's files as they were: tracked files with their working-tree
 *   content, deletions applied, and untracked files that are not ignored (what `git add -A`
 *   would stage, built in a temporary index, so the real index is not touched), plus the
 *   ignored files config `snapshot.include` names (e.g. `.env`), and the ignored files the
 *   caller lists (`task land --remove` and `rollback branch`: {@link ignoredToSave}, every
 *   one within the budget). Without a worktree: the branch tip's tree. Other ignored files
 *   are not saved.
 * - first parent: the branch tip, so `git log <its ref>` reaches every commit of the task,
 *   merged or not.
 * - second parent (only when the index held staged changes): a commit of the index tree
 *   (parent: the tip), like git stash's index commit (git-stash(1)).
 * - message: `kizu trash: task <name>` and the fields kizu-task (JSON), kizu-tip, kizu-base,
 *   kizu-from (full ref or none), kizu-worktree (JSON path of the linked worktree, or none),
 *   kizu-checkout (JSON path of the main worktree switched away from the branch, or none),
 *   kizu-worktree-id (the linked worktree's identity, snapshots/store.ts worktreeId; absent if none),
 *   kizu-index (commit or none), kizu-time (ISO), and kizu-modes (only when files were saved
 *   from a worktree; absent in copies saved before it was recorded): the exact permission bits
 *   of the saved regular files, which git's tree modes (100644 / 100755) do not hold, as JSON
 *   `{"file": "644", "exec": "755", "modes": {"<path>": "600", ...}, "dirs"?: {"<dir>": "700"}}`
 *   (octal strings: the bits of non-executable and of executable files without an exception,
 *   then the exceptions; `dirs`: the directories whose bits are not 755).
 *
 * The ref is created with `git update-ref <ref> <new> 0000...` (only if it does not exist).
 */
import { chmod, copyFile, lstat, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { quoteCStyle, shellPath } from '../../git/quote.js';
import { git, splitZ } from '../../git/run.js';
import { KIZU_IDENT, ZERO_OID, isInside, resolve } from './records.js';
import { TASK_TRASH_PREFIX } from '../../git/layout.js';
import { resolveKizuRef } from '../../git/refs.js';
import { gitDirFast } from '../../git/repo.js';
import { worktreeId } from '../snapshots/store.js';
import { lstatInTree } from '../../files.js';
import { pathProblem, treeProblem, unsafePathError } from '../../git/verify-path.js';

/** A removed task, as read back from its removed-task commit. */
export interface RemovedTask {
  /** Its ref (`refs/kizu/trash/<name>/<time>`), or the spec it was read by. */
  ref: string;
  /** The removed-task commit. */
  commit: string;
  name: string;
  /** The branch tip when it was discarded. */
  tip: string;
  /** The task's base, if it had a record. */
  base: string | null;
  /** Full ref the task started from, if known. */
  from: string | null;
  /** The task's linked worktree, whose files were saved (null: it had none). */
  worktree: string | null;
  /** The (main) worktree that had the branch checked out and was switched away (null: none). */
  checkout: string | null;
  /** The index commit (null: nothing was staged). */
  index: string | null;
  /** The identity of the saved linked worktree (snapshots/store.ts worktreeId), null if it had none. */
  worktreeId: string | null;
  /** ISO time of the save. */
  time: string;
  /** Exact permission bits of the saved files (null: not recorded, e.g. no worktree files). */
  modes: SavedModes | null;
}

/**
 * Exact permission bits of the regular files of a removed-task commit's tree: `file` / `exec`
 * for files without an exception (git mode 100644 / 100755), `modes` per path otherwise.
 * Octal strings ("644").
 */
export interface SavedModes {
  file: string;
  exec: string;
  modes: Record<string, string>;
  /** Directories whose bits are not 755 (git creates them with the umask's), path → octal. Absent in copies saved before it was recorded. */
  dirs?: Record<string, string>;
}

/** The regular files of `tree` (`git ls-tree -r -z`): path and whether git has it executable. */
async function regularFiles(root: string, tree: string): Promise<{ path: string; exec: boolean }[]> {
  return (await treeEntries(root, tree)).files;
}

/** The regular files (path, executable) and the directories of `tree` (`git ls-tree -r -t -z`). */
async function treeEntries(root: string, tree: string): Promise<{ files: { path: string; exec: boolean }[]; dirs: string[] }> {
  const out = (await git(['ls-tree', '-r', '-t', '-z', '--full-tree', tree], { cwd: root })).stdout.toString('utf8');
  const files: { path: string; exec: boolean }[] = [];
  const dirs: string[] = [];
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const mode = rec.slice(0, rec.indexOf(' '));
    if (mode === '100644' || mode === '100755') files.push({ path: rec.slice(tab + 1), exec: mode === '100755' });
    else if (mode === '040000') dirs.push(rec.slice(tab + 1));
  }
  return { files, dirs };
}

/** Directory bits git-kizu does not record (what a directory usually has). */
const DIR_BITS = 0o755;

function mostCommon(bits: number[], fallback: number): number {
  const n = new Map<number, number>();
  for (const b of bits) n.set(b, (n.get(b) ?? 0) + 1);
  let best = fallback;
  let max = 0;
  for (const [b, k] of n) if (k > max || (k === max && b === fallback)) (best = b), (max = k);
  return best;
}

/**
 * The exact permission bits (`st_mode & 0o7777`, lstat) of the regular files of `tree` in
 * worktree `wt`; a path that is not a regular file there (gone meanwhile) is left out.
 */
async function savedModes(root: string, wt: string, tree: string): Promise<SavedModes> {
  const seen: { path: string; exec: boolean; bits: number }[] = [];
  for (const f of await regularFiles(root, tree)) {
    try {
      const st = await lstat(path.join(wt, ...f.path.split('/')));
      if (st.isFile()) seen.push({ ...f, bits: st.mode & 0o7777 });
    } catch {
      /* gone meanwhile */
    }
  }
  const file = mostCommon(seen.filter((x) => !x.exec).map((x) => x.bits), 0o644);
  const exec = mostCommon(seen.filter((x) => x.exec).map((x) => x.bits), 0o755);
  const modes: Record<string, string> = {};
  for (const x of seen) if (x.bits !== (x.exec ? exec : file)) modes[x.path] = x.bits.toString(8);
  const dirs: Record<string, string> = {};
  for (const d of (await treeEntries(root, tree)).dirs) {
    const st = await lstat(path.join(wt, ...d.split('/'))).catch(() => null);
    if (st?.isDirectory() && (st.mode & 0o7777) !== DIR_BITS) dirs[d] = (st.mode & 0o7777).toString(8);
  }
  return { file: file.toString(8), exec: exec.toString(8), modes, ...(Object.keys(dirs).length ? { dirs } : {}) };
}

/**
 * Gives the regular files of removed task `t`'s tree in worktree `wt` their saved permission
 * bits (`t.modes`; nothing when it is null). A path that is not a regular file in `wt` is
 * left alone; symlinks are never followed.
 * @returns the paths chmod could not change, with the error.
 */
export async function restoreModes(root: string, wt: string, t: Pick<RemovedTask, 'commit' | 'modes'>): Promise<{ path: string; error: string }[]> {
  const m = t.modes;
  if (!m) return [];
  const failures: { path: string; error: string }[] = [];
  for (const f of await regularFiles(root, `${t.commit}^{tree}`)) {
    const want = parseInt(m.modes[f.path] ?? (f.exec ? m.exec : m.file), 8);
    const file = path.join(wt, ...f.path.split('/'));
    try {
      // Never through a symbolic link on the way (files.ts lstatInTree).
      const st = lstatInTree(wt, f.path);
      if (st?.isFile() && (st.mode & 0o7777) !== want) await chmod(file, want);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') failures.push({ path: f.path, error: (e as Error).message });
    }
  }
  // Directories last, deepest first: a directory made unwritable must not stop the ones in it.
  for (const [d, bits] of Object.entries(m.dirs ?? {}).sort(([a], [b]) => b.length - a.length)) {
    const dir = path.join(wt, ...d.split('/'));
    try {
      const st = lstatInTree(wt, d);
      if (st?.isDirectory() && (st.mode & 0o7777) !== parseInt(bits, 8)) await chmod(dir, parseInt(bits, 8));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') failures.push({ path: d, error: (e as Error).message });
    }
  }
  return failures;
}

function parseModes(v: string | undefined): SavedModes | null {
  if (!v) return null;
  try {
    const o = JSON.parse(v) as SavedModes;
    const oct = (x: unknown) => typeof x === 'string' && /^[0-7]{1,4}$/.test(x);
    if (!o || !oct(o.file) || !oct(o.exec) || typeof o.modes !== 'object' || !o.modes || !Object.values(o.modes).every(oct)) return null;
    if (o.dirs !== undefined && (typeof o.dirs !== 'object' || !o.dirs || !Object.values(o.dirs).every(oct))) return null;
    return o;
  } catch {
    return null;
  }
}

async function text(args: string[], cwd: string, opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return (await git(args, { cwd, ...opts })).stdout.toString('utf8').trim();
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The tree of a worktree's current files (tracked content, deletions, untracked not
 * ignored except nested repositories, the ignored files `include` names ({@link includedIgnored}) and the ignored
 * files `ignored` lists by path), built with `git add -A` (and `git add -f` for those) into
 * a temporary copy of the index
 * (GIT_INDEX_FILE, git(1)); the real index is left alone.
 * @returns the tree id and the tree of the real index (null when it cannot be written,
 *   e.g. during a conflicted merge).
 * @throws KizuError (exit 2) when git fails.
 */
export async function worktreeState(wt: string, include: string[] = [], ignored: string[] = []): Promise<{ tree: string; indexTree: string | null }> {
  const tmp = await mkdtemp(path.join(tmpdir(), 'kizu-index-'));
  try {
    const index = path.join(tmp, 'index');
    const real = path.resolve(wt, await text(['rev-parse', '--git-path', 'index'], wt));
    const env = { GIT_INDEX_FILE: index };
    let copied = false;
    try {
      await copyFile(real, index);
      copied = true;
    } catch {
      /* no index yet */
    }
    // Untracked nested repositories (`dir/` in git ls-files -o) are left out: git would add a
    // gitlink at most, or fail on one without a commit; they are not in the files a switch or
    // a removal may delete without asking (linked worktrees holding one are refused: ./nested.ts).
    const nested = splitZ((await git(['ls-files', '-o', '-z', '--exclude-standard'], { cwd: wt })).stdout)
      .filter((p) => p.endsWith('/'))
      .map((p) => `:(top,exclude,literal)${p.slice(0, -1)}`);
    const add = async () => git(['add', '-A', '--', ':/', ...nested], { cwd: wt, env, okStatus: [0, 1, 128] });
    let r = copied ? await add() : null;
    if (!r || r.status !== 0) {
      await rm(index, { force: true });
      await git(['read-tree', 'HEAD'], { cwd: wt, env });
      r = await add();
      if (r.status !== 0) throw new KizuError(`could not save the files of ${quoteCStyle(wt)}: ${r.stderr.trim()}`, { hint: `run git status in ${shellPath(wt)} to see the problem` });
    }
    const kept = [...new Set([...(await includedIgnored(wt, include)), ...ignored])];
    if (kept.length) {
      await git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], { cwd: wt, env: { ...env, GIT_LITERAL_PATHSPECS: '1' }, input: kept.join('\0') + '\0' });
    }
    const tree = await text(['write-tree'], wt, { env });
    const real2 = await git(['write-tree'], { cwd: wt, okStatus: [0, 1, 128] });
    return { tree, indexTree: real2.status === 0 ? real2.stdout.toString('utf8').trim() : null };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The ignored files in worktree `wt` that config `snapshot.include` names (globs, see
 * config/config.ts): files the user asked to keep although git ignores them (e.g. `.env`).
 * `git ls-files -o -i --exclude-standard -- :(glob)<pattern>...` (git-ls-files(1)).
 * @returns repository-relative paths ([] when `include` is empty).
 * @throws KizuError (exit 2) when git fails.
 */
export async function includedIgnored(wt: string, include: string[]): Promise<string[]> {
  if (!include.length) return [];
  const r = await git(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--', ...include.map((g) => `:(glob)${g}`)], { cwd: wt });
  return r.stdout.toString('utf8').split('\0').filter((p) => p && !p.endsWith('/'));
}

/**
 * The ignored files of worktree `wt` (`git ls-files -o -i --exclude-standard`), split into
 * those to save before the worktree is removed and the rest: the ones config
 * `snapshot.include` names (`include`, globs, see {@link includedIgnored}) whatever their
 * size, then the others smallest first (ties: by path) while their sizes total at most
 * `budget` bytes (config `snapshot.maxFileBytes`). What `task land --remove` and
 * `rollback branch` save (one rule for both).
 * @returns paths relative to `wt`, sorted: `save` (regular files and symlinks) and `unsaved`
 *   (over the budget, and entries git lists as directories: nested repositories).
 * @throws KizuError (exit 2) when git fails.
 */
export async function ignoredToSave(wt: string, budget: number, include: string[] = []): Promise<{ save: string[]; unsaved: string[] }> {
  const r = await git(['ls-files', '-z', '-o', '-i', '--exclude-standard'], { cwd: wt });
  const named = new Set(await includedIgnored(wt, include));
  const sized: { p: string; size: number }[] = [];
  const save: string[] = [];
  const unsaved: string[] = [];
  for (const p of r.stdout.toString('utf8').split('\0').filter(Boolean)) {
    const st = p.endsWith('/') ? null : await lstat(path.join(wt, p)).catch(() => null);
    if (!st || !(st.isFile() || st.isSymbolicLink())) unsaved.push(p);
    else if (named.has(p)) save.push(p);
    else sized.push({ p, size: st.size });
  }
  sized.sort((a, b) => a.size - b.size || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  let total = 0;
  for (const f of sized) {
    if (total + f.size <= budget) {
      save.push(f.p);
      total += f.size;
    } else unsaved.push(f.p);
  }
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return { save: save.sort(byPath), unsaved: unsaved.sort(byPath) };
}

/** `20250102T030405Z` for a Date. */
export function refStamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/**
 * Saves a task before it is discarded (layout in the module doc).
 * @param t.files the directory holding the branch checked out, whose files are saved
 *   (null or a missing directory: only the branch tip's tree).
 * @param t.linked true when `files` is the task's own linked worktree (recorded as
 *   kizu-worktree, where restoreTask recreates it); false for the main worktree.
 * @param t.checkout the worktree that had the branch checked out and is switched away
 *   (recorded as kizu-checkout, switched back by restoreTask).
 * @param t.include config `snapshot.include`: ignored files it names are saved too.
 * @param t.ignored ignored files (paths relative to `files`, `/`-separated) saved too.
 * @param t.reason the reflog message of the new ref (default `git kizu rollback branch <name>`).
 * @returns the saved copy (ref and commit ids).
 * @throws KizuError (exit 2) when git cannot write the objects or the ref.
 */
export async function saveRemovedTask(
  root: string,
  t: { name: string; tip: string; base: string | null; from: string | null; files: string | null; linked: boolean; checkout?: string | null; include?: string[]; ignored?: string[]; reason?: string },
): Promise<RemovedTask> {
  const tipTree = await text(['rev-parse', `${t.tip}^{tree}`], root);
  let tree = tipTree;
  let index: string | null = null;
  let modes: SavedModes | null = null;
  const hasDir = t.files !== null && (await isDir(t.files));
  const worktree = hasDir && t.linked ? t.files : null;
  if (hasDir) {
    const st = await worktreeState(t.files!, t.include ?? [], t.ignored ?? []);
    tree = st.tree;
    if (worktree) modes = await savedModes(root, worktree, tree);
    if (st.indexTree && st.indexTree !== tipTree) {
      index = await text(['commit-tree', st.indexTree, '-p', t.tip, '-F', '-'], root, {
        input: `kizu trash: index of task ${t.name}\n`,
        env: KIZU_IDENT,
      });
    }
  }
  const wtGitDir = worktree ? gitDirFast(worktree) : null;
  const wtId = wtGitDir ? worktreeId(wtGitDir) : null;
  const now = new Date();
  const time = now.toISOString();
  const msg =
    `kizu trash: task ${t.name}\n\n` +
    `kizu-task: ${JSON.stringify(t.name)}\n` +
    `kizu-tip: ${t.tip}\n` +
    `kizu-base: ${t.base ?? 'none'}\n` +
    `kizu-from: ${t.from ?? 'none'}\n` +
    `kizu-worktree: ${worktree ? JSON.stringify(worktree) : 'none'}\n` +
    `kizu-checkout: ${t.checkout ? JSON.stringify(t.checkout) : 'none'}\n` +
    (wtId ? `kizu-worktree-id: ${wtId}\n` : '') +
    `kizu-index: ${index ?? 'none'}\n` +
    `kizu-time: ${time}\n` +
    (modes ? `kizu-modes: ${JSON.stringify(modes)}\n` : '');
  const commit = await text(['commit-tree', tree, '-p', t.tip, ...(index ? ['-p', index] : []), '-F', '-'], root, { input: msg, env: KIZU_IDENT });
  const stamp = refStamp(now);
  for (let n = 1; n <= 20; n++) {
    const ref = `${TASK_TRASH_PREFIX}${t.name}/${stamp}${n > 1 ? `-${n}` : ''}`;
    const r = await git(['update-ref', '-m', t.reason ?? `git kizu rollback branch ${t.name}`, ref, commit, ZERO_OID], { cwd: root, okStatus: [0, 1, 128] });
    if (r.status === 0) {
      return { ref, commit, name: t.name, tip: t.tip, base: t.base, from: t.from, worktree, checkout: t.checkout ?? null, index, worktreeId: wtId, time, modes };
    }
  }
  throw new KizuError(`could not create a ref under ${TASK_TRASH_PREFIX}${t.name}/ for the copy of task ${t.name}`, {
    hint: `check the refs there: git for-each-ref ${TASK_TRASH_PREFIX}${t.name}/`,
  });
}

/**
 * Reads a removed task.
 * @param spec its ref (`refs/kizu/trash/<name>/<time>`) or its commit id.
 * @throws KizuError (exit 1) when `spec` does not name a removed-task commit; exit 2 when
 *   `spec` is a ref under refs/kizu/trash/ that points at anything but an existing commit
 *   (git/refs.ts checkRefObject), or when the copy names a path git-kizu must not write
 *   (its tree or its kizu-modes: refuseUnsafeCopy).
 */
export async function readRemovedTask(root: string, spec: string): Promise<RemovedTask> {
  const notFound = () =>
    new KizuError(`${spec}: not a saved task`, {
      hint: `saved tasks are the refs under ${TASK_TRASH_PREFIX}; list them with git for-each-ref ${TASK_TRASH_PREFIX}`,
      exitCode: EXIT.FOUND,
    });
  if (spec === '' || spec.startsWith('-')) throw notFound();
  // One of git-kizu's trash refs at the wrong object or a missing one: say so (exit 2).
  if (spec.startsWith(TASK_TRASH_PREFIX) && (await resolveKizuRef(root, spec)) === null) throw notFound();
  const commit = await resolve(root, `${spec}^{commit}`);
  if (!commit) throw notFound();
  const body = (await git(['cat-file', 'commit', commit], { cwd: root })).stdout.toString('utf8');
  const msg = body.slice(body.indexOf('\n\n') + 2);
  const field = (k: string) => new RegExp(`^kizu-${k}: (.*)$`, 'm').exec(msg)?.[1];
  const name = field('task');
  const tip = field('tip');
  if (!msg.startsWith('kizu trash: task ') || !name || !tip) throw notFound();
  const opt = (k: string) => {
    const v = field(k);
    return v === undefined || v === 'none' ? null : v;
  };
  const wt = opt('worktree');
  const co = opt('checkout');
  const modes = parseModes(field('modes'));
  await refuseUnsafeCopy(root, spec, commit, modes);
  return {
    ref: spec,
    commit,
    name: JSON.parse(name) as string,
    tip,
    base: opt('base'),
    from: opt('from'),
    worktree: wt === null ? null : (JSON.parse(wt) as string),
    checkout: co === null ? null : (JSON.parse(co) as string),
    index: opt('index'),
    worktreeId: opt('worktree-id'),
    time: field('time') ?? '',
    modes,
  };
}

/**
 * Refuses a removed-task commit that names a path git-kizu must not write or chmod
 * (git/verify-path.ts): an entry of its tree (treeProblem: `..`, `.git` and its aliases, an
 * unknown mode, a path under a file or link of the same tree) or a path of its kizu-modes
 * (files and directories whose bits restoreModes sets).
 * @throws KizuError exit 2 naming the ref and the first such path.
 */
async function refuseUnsafeCopy(root: string, spec: string, commit: string, modes: SavedModes | null): Promise<void> {
  const out = (await git(['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: root })).stdout;
  const entries = splitZ(out).map((rec) => ({ mode: rec.slice(0, rec.indexOf(' ')), path: rec.slice(rec.indexOf('\t') + 1) }));
  let bad = treeProblem(entries);
  for (const p of [...Object.keys(modes?.modes ?? {}), ...Object.keys(modes?.dirs ?? {})]) {
    if (bad) break;
    const why = pathProblem(p);
    if (why) bad = { path: p, why: `kizu-modes: ${why}` };
  }
  if (!bad) return;
  throw unsafePathError(`saved task ${spec}${spec === commit ? '' : ` (commit ${commit.slice(0, 12)})`}`, bad.path, bad.why, `git kizu rollback branch never saves such a path, so this copy was made or changed by something else: see what it holds with git ls-tree -r ${commit}`);
}

/**
 * Refuses to recreate a removed task's worktree at `worktree` (the undo log's path) unless the
 * removed-task commit `t` was saved from that same directory: `git kizu rollback branch`
 * writes both, so a difference means one was changed outside git-kizu, and the undo log's
 * path alone would decide where files are written.
 * @throws KizuError exit 2 naming both paths; nothing was changed.
 */
export function checkSavedWorktree(t: RemovedTask, worktree: string, trashRef: string): void {
  if (t.worktree && isInside(t.worktree, worktree) && isInside(worktree, t.worktree)) return;
  throw new KizuError(`cannot bring back the worktree of task "${t.name}": the undo log names ${quoteCStyle(worktree)}, but ${trashRef} was saved from ${t.worktree ? quoteCStyle(t.worktree) : 'no worktree'}; nothing was changed`, {
    hint: `one of them was changed outside git kizu; the copy stays in ${trashRef}; by hand: git branch kizu/${t.name} ${t.tip}`,
  });
}
