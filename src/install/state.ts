/**
 * Install records: what `git kizu init` created for one scope, so that `teardown` removes
 * exactly that and leaves everything that existed before init alone.
 *
 * Location: `<git-dir>/kizu/install-<scope>.json` for project/local scope (this worktree's
 * git dir), `~/.claude/kizu/install-user.json` for user scope (see targets.ts). Format
 * (version 1, JSON, 2-space indent):
 * ```json
 * {"version": 1, "scope": "project",
 *  "files": {"<abs path>": {"created": true, "sha256": "<hex of the content init wrote>"}},
 *  "dirs": ["<abs dir init created>", ...],
 *  "settings": {"file": "<abs>", "createdFile": false, "createdHooksKey": true,
 *               "createdEvents": ["Stop"], "addedEvents": ["Stop", "SubagentStop", "PostToolUse"]},
 *  "preCommit": {"hook": "<abs>", "chained": "<abs>" | null, "created": true} | null,
 *  "guard": [{"manager": "husky", "file": "<abs>", "offset": 120, "text": "<inserted>", "createdFile": false}],
 *  "links": {"<abs path>": {"target": "<the link's text>", "sha256": "<hex of what it led to>" | null}},
 *  "exclude": [{"file": "<abs exclude file>", "offset": 42, "text": "/.claude/settings.local.json\n", "createdFile": false}],
 *  "agents": {"codex": {"files": {"<abs path>": {"created": true, "owned": false, "sha256": "<hex>"}}}},
 *  "claude": "settings" | "plugin" | "none",
 *  "noPreCommit": true}
 * ```
 * `guard` (absent in records of earlier versions: read as []) lists each insertion init made
 * in a hook manager's configuration (install/managers/), so teardown takes out exactly those
 * bytes. `links` (the symbolic links init replaced) and `exclude` (the lines a local install
 * added to git's exclude file) are likewise absent in older records. `noPreCommit` is there
 * only while the scope's last init ran with `--no-pre-commit` (its fix keeps the flag).
 * Re-running init merges into an existing record: a "created" fact is never forgotten.
 * Without a record, teardown falls back to recognising git-kizu's files by name and marker.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { installRecordFile, userInstallRecordFile } from '../git/layout.js';
import path from 'node:path';
import { writeFileAtomic } from '../files.js';
import type { ManagerId } from './managers/types.js';
import type { RecordedInsertion } from './insertion.js';

/** One file init wrote. */
export interface FileRecord {
  /** True if the file did not exist before the first init (teardown may delete it). */
  created: boolean;
  /** sha256 (hex) of the bytes init last wrote or found identical. */
  sha256: string;
}

/** What init did to the settings file. */
export interface SettingsRecord {
  file: string;
  createdFile: boolean;
  createdHooksKey: boolean;
  /** Event arrays init created. */
  createdEvents: string[];
  /** Events where init added our group (it was not there before). */
  addedEvents: string[];
}

/** What init did in the git hooks directory. */
export interface PreCommitRecord {
  /** Absolute path of our pre-commit hook. */
  hook: string;
  /** Where the user's previous hook was moved, or null if there was none. */
  chained: string | null;
  /** True if this scope's init installed the hook (false: it was already ours). */
  created: boolean;
}

/** One insertion of the pre-commit guard into a hook manager's file. */
export interface GuardInsertionRecord extends RecordedInsertion {
  manager: ManagerId;
  /** The effective git hooks directory when init ran (for managers that copy their configuration into a generated hook). */
  hooksDir?: string;
}

/**
 * A symbolic link init found where it writes a file: init replaced the link itself by a
 * regular file (it never writes through a link), and teardown puts the link back.
 */
export interface LinkRecord {
  /** The link's text (readlink(2)), restored exactly. */
  target: string;
  /** sha256 (hex) of the bytes read through the link before init, or null if it led to nothing. */
  sha256: string | null;
}

/**
 * One line init appended to git's exclude file (`<common-dir>/info/exclude`, local scope):
 * `text` is a newline first if the file did not end in one, then the pattern line.
 */
export type ExcludeRecord = RecordedInsertion;

/** A whole install record (version 1). */
export interface InstallRecord {
  version: 1;
  scope: string;
  files: Record<string, FileRecord>;
  dirs: string[];
  settings: SettingsRecord | null;
  preCommit: PreCommitRecord | null;
  /** Guard insertions in hook managers' files (absent in older records). */
  guard?: GuardInsertionRecord[];
  /** Links init replaced (absent in earlier versions' records). */
  links?: Record<string, LinkRecord>;
  /** Lines init added to git's exclude file, in the order added (absent in earlier versions' records). */
  exclude?: ExcludeRecord[];
  /** The files init wrote for agents other than Claude Code, by agent (install/agents.ts; absent in earlier versions' records). */
  agents?: Partial<Record<string, AgentRecord>>;
  /** How Claude Code's hooks were installed: absent or 'settings' (this record's `settings`), 'plugin' (init only printed the plugin commands), 'none' (Claude Code was not among the agents). */
  claude?: 'settings' | 'plugin' | 'none';
  /** True when the last init of this scope ran with `--no-pre-commit` (its fix keeps the flag; absent otherwise). */
  noPreCommit?: true;
}

/** What init wrote for one agent other than Claude Code. */
export interface AgentRecord {
  /**
   * Each file: `created` as in {@link FileRecord}; `owned` true when the whole file is
   * git-kizu's (else only its entries in it are); `before`: for a shared file in the working
   * tree that existed before the first init, its text then (teardown writes it back while
   * the file is as init left it).
   */
  files: Record<string, FileRecord & { owned: boolean; before?: string }>;
}

/**
 * Reads a record.
 * @returns the record, or null if the file is missing or unreadable/invalid (an invalid
 *   record is treated as absent: teardown then decides from file contents).
 */
export function readRecord(file: string): InstallRecord | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as InstallRecord;
    if (v?.version !== 1 || typeof v.files !== 'object' || !Array.isArray(v.dirs)) return null;
    return v;
  } catch {
    return null;
  }
}

/**
 * The install records that apply to a repository, in the order project, local (in `gitDir`,
 * this worktree's git dir), user (under `home`); records that are missing or invalid
 * ({@link readRecord}) are left out.
 */
export function installRecords(gitDir: string, home: string): ['project' | 'local' | 'user', InstallRecord][] {
  const out: ['project' | 'local' | 'user', InstallRecord][] = [];
  for (const scope of ['project', 'local'] as const) {
    const rec = readRecord(installRecordFile(gitDir, scope));
    if (rec) out.push([scope, rec]);
  }
  const user = readRecord(userInstallRecordFile(home));
  if (user) out.push(['user', user]);
  return out;
}

/**
 * Writes a record atomically, creating its directory.
 * @throws the fs error (EACCES, ...).
 */
export async function writeRecord(file: string, rec: InstallRecord): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(rec, null, 2) + '\n');
}

/** Deletes a record file (its directory is removed with the other directories init created). Never throws. */
export function deleteRecord(file: string): void {
  rmSync(file, { force: true });
}

/**
 * The install records of every worktree of the clone whose common git dir is `commonDir`
 * (`<git-dir>/kizu/install-project.json` and `install-local.json` for the main worktree's git
 * dir, which is `commonDir`, and for each `<commonDir>/worktrees/<name>`): the records that
 * may still run the clone's launcher. Only existing files are returned.
 */
export function cloneRecordFiles(commonDir: string): string[] {
  const gitDirs = [commonDir];
  try {
    for (const e of readdirSync(path.join(commonDir, 'worktrees'), { withFileTypes: true })) {
      if (e.isDirectory()) gitDirs.push(path.join(commonDir, 'worktrees', e.name));
    }
  } catch {
    /* no linked worktrees */
  }
  return gitDirs.flatMap((d) => (['project', 'local'] as const).map((s) => installRecordFile(d, s))).filter((f) => existsSync(f));
}

/**
 * True if an install record of the clone whose common git dir is `commonDir` (any worktree's
 * `install-project.json` / `install-local.json`) says init installed the pre-commit guard
 * (git-kizu's own hook, or an insertion in a hook manager's file). Never throws.
 */
export function guardInstalledHere(commonDir: string): boolean {
  return cloneRecordFiles(commonDir).some((f) => {
    const rec = readRecord(f);
    return !!rec && (rec.preCommit !== null || (rec.guard?.length ?? 0) > 0);
  });
}
