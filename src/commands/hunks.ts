/** `git kizu hunks [--json] [paths...]`: the working tree's hunks against the baseline. */
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { pc } from '../output.js';
import { repoInfo } from '../git.js';
import { listHunks, shortId, hunkRange, type Hunk } from '../hunks/index.js';
import { readMarks, markOf } from '../marks/index.js';

/** Review mark of a hunk; 'unreviewed' unless a mark lookup says otherwise. */
export type MarkOf = (h: Hunk) => string | Promise<string>;

/** JSON shape of one hunk in `git kizu hunks --json`. */
export interface HunkJson {
  /** Full content id (40 hex). */
  id: string;
  /** First 8 hex digits of id. */
  shortId: string;
  /** Repo-root-relative path. */
  path: string;
  kind: Hunk['kind'];
  /** {@link hunkRange}, e.g. `src/a.ts:10-14`. */
  range: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  added: number;
  removed: number;
  /** Review mark: unreviewed, tapped or rejected. */
  mark: string;
}

/** The JSON object of one hunk (`mark` given). */
export function hunkJson(h: Hunk, mark: string): HunkJson {
  return {
    id: h.id,
    shortId: shortId(h),
    path: h.path,
    kind: h.kind,
    range: hunkRange(h),
    oldStart: h.oldStart,
    oldCount: h.oldCount,
    newStart: h.newStart,
    newCount: h.newCount,
    added: h.added,
    removed: h.removed,
    mark,
  };
}

/**
 * Converts user paths (relative to `cwd`, or absolute) to repo-root-relative '/'-separated
 * paths ('' for the root itself).
 * @throws KizuError (exit 2) for a path outside the repository.
 */
export function toRootPaths(root: string, cwd: string, paths: string[]): string[] {
  const realRoot = realpathSync(root);
  let realCwd = cwd;
  try {
    realCwd = realpathSync(cwd);
  } catch {
    /* keep as given */
  }
  return paths.map((p) => {
    const rel = path.relative(realRoot, path.resolve(realCwd, p));
    if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
      throw new KizuError(`${p}: path is outside the repository ${realRoot}`, { hint: 'name paths inside the working tree' });
    }
    return rel.split(path.sep).join('/');
  });
}

export interface HunksCommandInput {
  cwd: string;
  json: boolean;
  /** Limit to these paths (relative to cwd). */
  paths: string[];
  reporter: Reporter;
  /** Review-mark lookup; default: the marks in refs/kizu/marks. */
  markOf?: MarkOf;
}

/**
 * Lists hunks, one per line: `<shortId>  <range>  +<added> -<removed>  <kind>` (plus
 * `  [<mark>]` when the mark is not 'unreviewed'), or with `json` a JSON array of
 * {@link HunkJson}. With no changes prints `no changes against <rev> <oid>` (text mode) or `[]`.
 * @returns 0.
 * @throws KizuError (exit 2) outside a repository, without a baseline commit, or for a path
 *   outside the repository.
 */
export async function hunksCommand(i: HunksCommandInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const rootPaths = toRootPaths(root, i.cwd, i.paths).filter((p) => p !== '');
  const wantAll = i.paths.length > 0 && rootPaths.length < i.paths.length; // the root itself was named
  const { baseline, hunks } = await listHunks(root, { paths: wantAll ? [] : rootPaths });
  let lookup = i.markOf;
  if (!lookup) {
    const stored = await readMarks(root);
    lookup = (h) => markOf(stored, h.id);
  }
  const marks = await Promise.all(hunks.map((h) => lookup!(h)));
  if (i.json) {
    i.reporter.log(JSON.stringify(hunks.map((h, k) => hunkJson(h, marks[k]))));
    return EXIT.OK;
  }
  if (!hunks.length) {
    i.reporter.log(`no changes against ${baseline.rev} ${baseline.oid}`);
    return EXIT.OK;
  }
  for (const [k, h] of hunks.entries()) {
    const mark = marks[k] !== 'unreviewed' ? `  [${marks[k]}]` : '';
    i.reporter.log(`${pc.bold(shortId(h))}  ${hunkRange(h)}  ${pc.green(`+${h.added}`)} ${pc.red(`-${h.removed}`)}  ${h.kind}${mark}`);
  }
  return EXIT.OK;
}
