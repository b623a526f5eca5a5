/**
 * Where snapshots live and how git is run on the private snapshot index.
 *
 * Storage layout (see also snapshot.ts and ../undo-log.ts):
 * - `refs/kizu/snapshots/<YYYYMMDD-HHMMSS-mmm>-<oid8>`: one ref per snapshot (UTC time, so
 *   names sort by age), pointing at the snapshot commit.
 * - `<git-dir>/kizu/snapshot/index`: the private index (gitformat-index(5)); git's stat cache
 *   in it is what makes the next snapshot re-read only files whose stat data changed.
 * - `<git-dir>/kizu/snapshot/state.json`: the exact permission bits of the files in that
 *   index, keyed to its checksum (see capture.ts).
 * - `<git-dir>/kizu/snapshot/shadow/`: a stand-in common git dir (`config`, `info/attributes`,
 *   empty `refs/`) used only for the commands that read and write the private index.
 * - `<git-dir>/kizu/snapshot/lock`: held while a snapshot is taken or restored.
 * `<git-dir>` is this worktree's git dir (each worktree has its own working tree and so its
 * own private index); refs and objects are shared by all worktrees.
 *
 * Why a shadow common dir: snapshots must hold the exact bytes of each file, but
 * `git update-index --add` runs the clean filters (core.autocrlf, `text`/`eol`, `filter`
 * such as LFS, `ident`, `working-tree-encoding`). `$GIT_DIR/info/attributes` has the highest
 * attribute precedence (gitattributes(5)) and git reads it from the common dir, so with
 * GIT_COMMON_DIR pointing at the shadow dir, whose `info/attributes` is
 * `* -text -filter -ident -working-tree-encoding`, every file is stored as is. Its `config`
 * includes the repository's own config and then overrides what must not vary
 * (core.autocrlf=false, core.fileMode=true, core.symlinks=true, no split index, fsmonitor
 * or untracked cache); the repository format (core.repositoryformatversion and
 * `extensions.*`, which git reads without following includes) is copied. Objects go to the
 * repository's object directory (GIT_OBJECT_DIRECTORY); GIT_DIR stays the real git dir.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync, linkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { git } from '../../git/run.js';
import { findRepo } from '../../git/repo.js';
import { loadConfig, loadConfigLenient, type KizuConfig } from '../../config/config.js';
import { realEnv, shadowEnv as shadowEnvOf } from './begin.js';
import { snapshotPaths, worktreeIdFile } from '../../git/layout.js';
import { replaceFileSync } from '../../files.js';

export { realEnv };

/** Identity of the commits git-kizu writes. */
export const IDENT = {
  GIT_AUTHOR_NAME: 'git-kizu',
  GIT_AUTHOR_EMAIL: 'git-kizu@localhost',
  GIT_COMMITTER_NAME: 'git-kizu',
  GIT_COMMITTER_EMAIL: 'git-kizu@localhost',
};

/** Everything the snapshot code needs to know about one working tree. */
export interface SnapshotStore {
  /** Absolute working-tree top level. */
  root: string;
  /** This worktree's git dir (absolute). */
  gitDir: string;
  /** The common git dir (absolute; equals gitDir outside linked worktrees). */
  commonDir: string;
  /** `<gitDir>/kizu/snapshot`. */
  dir: string;
  indexFile: string;
  stateFile: string;
  shadowDir: string;
  lockFile: string;
  /** The repository's object hash (extensions.objectFormat). */
  hashAlgo: 'sha1' | 'sha256';
  /** Object id length in bytes (20 or 32). */
  oidLen: number;
  config: KizuConfig['snapshot'];
  /**
   * True when the config could not be used as written (opened with `configProblem`, which was
   * told why): `config` then holds its valid keys and the defaults for the rest, and
   * snapshot.ts retention drops nothing (its `keep` may be what is wrong).
   */
  configBroken: boolean;
}

/**
 * Opens the snapshot store of the working tree at (or containing) `root`. Cheap: no git
 * process unless `root` is not a working-tree top level.
 * @param opts.configProblem when given, an invalid config does not throw: its valid keys and
 *   the defaults are used (config/config.ts loadConfigLenient) and this is called with a
 *   one-line warning. For the hook and the read-only commands.
 * @throws KizuError (exit 2) outside a git working tree, or for an invalid config (unless
 *   `opts.configProblem`).
 */
export async function openStore(root: string, opts: { configProblem?: (line: string) => void } = {}): Promise<SnapshotStore> {
  // From the files when that is certain (git/repo.ts findRepo; a working tree apart from its git
  // dir, core.worktree, is refused there).
  const { root: top, gitDir, commonDir } = await findRepo(path.resolve(root));
  let config: KizuConfig;
  let configBroken = false;
  if (opts.configProblem) {
    const r = await loadConfigLenient(top);
    if (r.problem) {
      configBroken = true;
      opts.configProblem(r.problem);
    }
    config = r.config;
  } else config = await loadConfig(top);
  const fmt = readFormat(commonDir);
  const hashAlgo = fmt.ext.objectformat === 'sha256' ? 'sha256' : 'sha1';
  return {
    root: top,
    gitDir,
    commonDir,
    ...snapshotPaths(gitDir),
    hashAlgo,
    oidLen: hashAlgo === 'sha256' ? 32 : 20,
    config: config.snapshot,
    configBroken,
  };
}

/** The repository format keys of `<commonDir>/config` (lower-cased names). */
function readFormat(commonDir: string): { version: string; ext: Record<string, string> } {
  let text = '';
  try {
    text = readFileSync(path.join(commonDir, 'config'), 'utf8');
  } catch {
    /* no config: defaults */
  }
  let section = '';
  let version = '0';
  const ext: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+/, '');
    const sec = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (sec) {
      section = sec[1].toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv) continue;
    let value = (kv[2] ?? 'true').replace(/\s+[#;].*$/, '').trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1);
    const key = kv[1].toLowerCase();
    if (section === 'core' && key === 'repositoryformatversion') version = value;
    if (section === 'extensions') ext[key] = value.toLowerCase();
  }
  return { version, ext };
}

function configQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Creates or refreshes the shadow common dir (see the module comment); it is rewritten
 * whenever the repository's config file is newer than it.
 * @throws fs errors (EACCES, ...).
 */
export function ensureShadow(s: SnapshotStore): void {
  const real = path.join(s.commonDir, 'config');
  const shadowConfig = path.join(s.shadowDir, 'config');
  try {
    if (statSync(shadowConfig).mtimeMs >= statSync(real).mtimeMs) return;
  } catch {
    /* missing: create */
  }
  mkdirSync(path.join(s.shadowDir, 'info'), { recursive: true });
  mkdirSync(path.join(s.shadowDir, 'refs'), { recursive: true });
  writeFileSync(path.join(s.shadowDir, 'info', 'attributes'), '* -text -filter -ident -working-tree-encoding\n');
  const fmt = readFormat(s.commonDir);
  const text =
    '# Generated by git-kizu for its private snapshot index (see src/rollback/snapshots/store.ts); do not edit.\n' +
    `[include]\n\tpath = ${configQuote(real)}\n` +
    '[core]\n' +
    `\trepositoryformatversion = ${/^\d+$/.test(fmt.version) ? fmt.version : '0'}\n` +
    '\tbare = false\n\tautocrlf = false\n\tsafecrlf = false\n\tfileMode = true\n\tsymlinks = true\n' +
    '\tsplitIndex = false\n\tfsmonitor = false\n\tuntrackedCache = false\n\tsparseCheckout = false\n' +
    '[index]\n\tsparse = false\n\tskipHash = false\n' +
    (Object.keys(fmt.ext).length
      ? '[extensions]\n' + Object.entries(fmt.ext).map(([k, v]) => `\t${k} = ${configQuote(v)}\n`).join('')
      : '');
  replaceFileSync(shadowConfig, text);
}

/** Environment for git commands on the private index (see the module comment). */
export function shadowEnv(s: SnapshotStore): NodeJS.ProcessEnv {
  return shadowEnvOf(s);
}

/**
 * The identity of the worktree whose git dir is `gitDir`, as recorded in its snapshots
 * (SnapshotMeta.worktreeId): a random token kept in `<gitDir>/kizu/worktree-id`. It lives in
 * the git dir, so it moves with the repository (a renamed or moved directory, `git worktree
 * move`) and dies with the worktree (`git worktree remove` or prune): a later worktree at
 * the same path, or under the same name, gets a new one. Paths alone cannot tell those
 * cases apart.
 * @param create make one if there is none yet (only when writing a snapshot).
 * @returns the token, or null if there is none (and `create` is false).
 * @throws fs errors other than a missing file (EACCES, ...) when `create` is set.
 */
export function worktreeId(gitDir: string, create = false): string | null {
  const file = worktreeIdFile(gitDir);
  try {
    const v = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-z-]{8,64}$/.test(v)) return v;
  } catch {
    /* none yet */
  }
  if (!create) return null;
  const id = `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, id + '\n');
  try {
    linkSync(tmp, file); // first writer wins
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
  rmSync(tmp, { force: true });
  return worktreeId(gitDir) ?? id;
}

/**
 * Gives the worktree whose git dir is `gitDir` the identity `id` (see {@link worktreeId}):
 * for a worktree `git kizu undo` recreates after `rollback branch` removed it, so that it is
 * the same worktree to the snapshots and rollbacks made in it before.
 * @throws fs errors (EACCES, ...).
 */
export function setWorktreeId(gitDir: string, id: string): void {
  const file = worktreeIdFile(gitDir);
  mkdirSync(path.dirname(file), { recursive: true });
  replaceFileSync(file, id + '\n');
}

/**
 * True if a snapshot with metadata `meta` was taken in the worktree with top level `root`
 * and git dir `gitDir`: by its worktree identity when it has one ({@link worktreeId}), else
 * (snapshots from before identities were recorded) by its path.
 */
export function sameWorktree(meta: { worktree: string; worktreeId?: string }, root: string, gitDir: string): boolean {
  if (meta.worktreeId) return meta.worktreeId === worktreeId(gitDir);
  return meta.worktree === root;
}

/** Runs git in the user's repository at `s.root` (see {@link realEnv}). */
export function realGit(s: SnapshotStore, args: string[], opts: { input?: Buffer | string; okStatus?: number[]; env?: NodeJS.ProcessEnv } = {}) {
  return git(args, { cwd: s.root, input: opts.input, okStatus: opts.okStatus, env: { ...realEnv(s), ...opts.env } });
}
