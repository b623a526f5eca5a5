/**
 * Config a gate can trust (issue 22): the gate keys of ./gate-keys.ts take their values only
 * from the committed config, the one HEAD's tree holds at the same search places
 * (./search.ts SEARCH_PLACES, read from HEAD through git, never from the working tree), or
 * the defaults when HEAD holds none. A working-tree config (untracked, ignored, modified,
 * staged, emptied) whose gate keys differ is applied for its other keys only, and the
 * difference is returned so that the hooks, `status` and `doctor` name it with the fix
 * (commit it). There is no user config outside the repository: the committed config and the
 * defaults are the trusted sources (README "Config").
 *
 * Cost: called only when a config file may exist in the working tree (config.ts
 * mayHaveConfig). One `git ls-tree` of HEAD at the search places; the working files' blob
 * ids are hashed in process; when each place up to the one the search found holds the same
 * blob as in HEAD, the working config is the committed one and nothing more runs. Otherwise
 * one `git cat-file --batch` reads HEAD's config files.
 *
 * In the pre-commit guard HEAD is still the commit before the one being made, so a commit
 * that weakens the config is itself checked with the config it replaces.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { git, splitZ } from '../git/run.js';
import type { KizuConfig } from './config.js';
import { GATE_KEYS, keyValue, sameAt, setKeyValue } from './gate-keys.js';
import { SEARCH_PLACES, parseConfigText } from './search.js';
import type { UntrustedConfig } from './untrusted.js';

export type { UntrustedConfig };

/**
 * HEAD's tree as committed, not as `git replace` (refs/replace/*, which the agent can write
 * unseen) would show it (git(1) GIT_NO_REPLACE_OBJECTS).
 */
const NO_REPLACE = { GIT_NO_REPLACE_OBJECTS: '1' };

/** The validation of config.ts (passed in, so that this module does not import it back): a raw value and its file → the config, invalid keys at their defaults. */
export type CheckConfig = (raw: unknown, filepath: string | null) => KizuConfig;

/** What HEAD's tree holds at the search places: place → blob id (regular files only; symbolic links are not followed and count as absent). */
export async function headPlaces(root: string): Promise<{ ids: Map<string, string>; ok: boolean }> {
  const r = await git(['ls-tree', '-z', '--full-tree', 'HEAD', '--', ...SEARCH_PLACES], { cwd: root, okStatus: [0, 128], env: NO_REPLACE });
  const ids = new Map<string, string>();
  if (r.status !== 0) return { ids, ok: false }; // no commits yet: no committed config
  for (const rec of splitZ(r.stdout)) {
    const m = /^(\d+) blob ([0-9a-f]+)\t([^]*)$/.exec(rec);
    if (m && (m[1] === '100644' || m[1] === '100755')) ids.set(m[3], m[2]);
  }
  return { ids, ok: true };
}

/** The git blob id of a working file's bytes (sha1 or sha256 as `len` says: 40 or 64 hex), or null when it cannot be read. */
function workingBlobId(root: string, place: string, len: number): string | null {
  let buf: Buffer;
  try {
    buf = readFileSync(path.join(root, place));
  } catch {
    return null;
  }
  return createHash(len === 64 ? 'sha256' : 'sha1')
    .update(`blob ${buf.length}\0`)
    .update(buf)
    .digest('hex');
}

/** HEAD's config, searched as the working tree's is: its file and raw value, or null. A code file or a parse error gives the defaults (null value, file named). */
async function headConfig(root: string, ids: Map<string, string>): Promise<{ file: string; value: unknown } | null> {
  const places = SEARCH_PLACES.filter((p) => ids.has(p));
  if (!places.length) return null;
  const r = await git(['cat-file', '--batch'], { cwd: root, input: places.map((p) => `${ids.get(p)}\n`).join(''), env: NO_REPLACE });
  const buf = r.stdout;
  let pos = 0;
  const contents = new Map<string, string>();
  for (const p of places) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) break;
    const m = /^[0-9a-f]+ blob (\d+)$/.exec(buf.toString('utf8', pos, nl));
    pos = nl + 1;
    if (!m) continue;
    const size = Number(m[1]);
    contents.set(p, buf.toString('utf8', pos, pos + size));
    pos += size + 1;
  }
  for (const p of places) {
    const text = contents.get(p);
    if (text === undefined) continue;
    try {
      const value = parseConfigText(p, path.join(root, p), text);
      if (value !== null) return { file: p, value };
    } catch {
      return { file: p, value: null }; // what the working tree would refuse too: the defaults
    }
  }
  return null;
}

/**
 * The committed config (HEAD) merged over the defaults, its invalid keys at their defaults.
 * @returns the config and the committed file (null: none, the defaults).
 */
export async function committedConfig(root: string, ids: Map<string, string>, check: CheckConfig): Promise<{ config: KizuConfig; file: string | null }> {
  const found = await headConfig(root, ids);
  if (!found) return { config: check(null, null), file: null };
  return { config: check(found.value, path.join(root, found.file)), file: found.file };
}

/**
 * Applies the trusted values of the gate keys to the working tree's config.
 * @param working the working tree's config as validated (defaults where it has none).
 * @param workingFile the absolute path of the working config file, or null when the search found none.
 * @returns the config to use (working keys, gate keys from HEAD when they differ) and what
 *   was not applied (null when the working config's gate keys are the committed ones).
 * @throws KizuError (exit 2) when git fails.
 */
export async function applyTrusted(root: string, working: KizuConfig, workingFile: string | null, check: CheckConfig): Promise<{ config: KizuConfig; untrusted: UntrustedConfig | null }> {
  const { ids, ok } = await headPlaces(root);
  const rel = workingFile ? path.relative(root, workingFile).split(path.sep).join('/') : null;
  const upTo = rel !== null && SEARCH_PLACES.includes(rel as (typeof SEARCH_PLACES)[number]) ? SEARCH_PLACES.indexOf(rel as (typeof SEARCH_PLACES)[number]) : SEARCH_PLACES.length - 1;
  const len = ids.size ? [...ids.values()][0].length : 40;
  let same = ok;
  for (const p of SEARCH_PLACES.slice(0, upTo + 1)) {
    // A place absent from HEAD that the working search passed over (empty, no `kizu` key) is no difference.
    if (!same || (!ids.has(p) && p !== rel)) continue;
    if (workingBlobId(root, p, len) !== (ids.get(p) ?? null)) same = false;
  }
  if (same) return { config: working, untrusted: null };
  const committed = await committedConfig(root, ids, check);
  const keys = GATE_KEYS.filter((k) => !sameAt(working, committed.config, k.key)).map((k) => k.key);
  if (!keys.length) return { config: working, untrusted: null };
  const config: KizuConfig = { ...structuredClone(working), filepath: working.filepath };
  for (const k of GATE_KEYS) setKeyValue(config, k.key, keyValue(committed.config, k.key));
  let state: UntrustedConfig['state'] = 'missing';
  if (rel !== null) {
    if (ids.has(rel)) state = 'modified';
    else {
      // Not in HEAD: ignored (a tracked file never is: `git add` without -f), else untracked or staged.
      const ig = await git(['check-ignore', '-q', '--', rel], { cwd: root, okStatus: [0, 1] }); // rel is one of SEARCH_PLACES: no pathspec magic
      state = ig.status === 0 ? 'ignored' : 'untracked';
    }
  }
  return { config, untrusted: { file: rel, committed: committed.file, state, keys } };
}

