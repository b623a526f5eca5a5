/** `git kizu hunks [--json] [paths...]`: the working tree's hunks against the baseline. */
import path from 'node:path';
import { realpathSync, existsSync } from 'node:fs';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { pc } from '../output.js';
import { git } from '../git/run.js';
import { repoInfo } from '../git/repo.js';
import { listHunks, shortId, hunkRange, type Hunk } from '../hunks/listing.js';
import { quoteCStyle, unquotePathArg } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';

/** Review mark of a hunk; 'unreviewed' unless a mark lookup says otherwise. */
export type MarkOf = (h: Hunk) => string | Promise<string>;

/**
 * JSON shape of one hunk in `git kizu hunks --json`: the hunk's id, path, kind, ranges and
 * line counts (as in {@link Hunk}), and:
 */
export interface HunkJson extends Pick<Hunk, 'id' | 'path' | 'kind' | 'oldStart' | 'oldCount' | 'newStart' | 'newCount' | 'added' | 'removed'> {
  /** First 8 hex digits of id. */
  shortId: string;
  /** {@link hunkRange}, e.g. `src/a.ts:10-14`. */
  range: string;
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
 * paths ('' for the root itself); paths in git's quoted form are unquoted (unquotePathArg).
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
  return paths.map((given) => {
    const p = unquotePathArg(given);
    const rel = path.relative(realRoot, path.resolve(realCwd, p));
    if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
      throw new KizuError(`${quoteCStyle(p)}: path is outside the repository ${quoteCStyle(realRoot)}`, { hint: 'name paths inside the working tree' });
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
 * Lists hunks, one per line (paths quoted as git quotes them, src/git/quote.ts): `<shortId>  <range>  +<added> -<removed>  <kind>` (plus
 * `  [<mark>]` when the mark is not 'unreviewed'), or with `json` a JSON array of
 * {@link HunkJson}. With no changes prints `no changes against <rev> <oid>` (text mode) or `[]`.
 * Text mode then lists each rejection whose hunk is gone while its change is not (committed,
 * or edited instead of reverted; cli/laundered.ts): `rejected  <id8>  <range>  <words>: <fix>`.
 * The text lines go to the reporter in one `log` call (joined with '\n').
 * @returns 0.
 * @throws KizuError (exit 2) outside a repository, without a baseline commit, or for a path
 *   outside the repository.
 */
export async function hunksCommand(i: HunksCommandInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  const rootPaths = toRootPaths(root, i.cwd, i.paths).filter((p) => p !== '');
  const wantAll = i.paths.length > 0 && rootPaths.length < i.paths.length; // the root itself was named
  const listing = listHunks(root, { paths: wantAll ? [] : rootPaths });
  const marksModule = i.markOf ? null : import('../marks/read.js'); // loads while git runs
  const { baseline, hunks, hidden, unreadable, rules } = await listing;
  // A path that names nothing (a typo) would otherwise look like "no changes".
  for (const [k, p] of rootPaths.entries()) {
    if (existsSync(path.join(root, p)) || hunks.some((h) => h.path === p || h.path.startsWith(p + '/'))) continue;
    const inBase = await git(['ls-tree', '--name-only', baseline.oid, '--', p], { cwd: root, env: { GIT_LITERAL_PATHSPECS: '1' } });
    if (inBase.stdout.length === 0) {
      throw new KizuError(`no such path in the working tree or the baseline: ${quoteCStyle(unquotePathArg(i.paths.filter((x) => x !== '')[k] ?? p))}`, { hint: 'paths are relative to the current directory' });
    }
  }
  let lookup = i.markOf;
  let stored: Awaited<ReturnType<typeof import('../marks/read.js').readMarks>> | null = null;
  if (!lookup) {
    const { readMarks, markOf } = (await marksModule)!;
    const m = (stored = await readMarks(root));
    lookup = (h) => markOf(m, h.id);
  }
  const marks = await Promise.all(hunks.map((h) => lookup!(h)));
  // Changes git does not show (assume-unchanged, skip-worktree, names not valid UTF-8): named on stderr.
  if (hidden.length || unreadable.length || rules.length) {
    const { hiddenFindingLines } = await import('../hunks/hidden-lines.js');
    for (const l of hiddenFindingLines({ changes: hidden, unreadable, rules }, pathQuoter(root))) i.reporter.warn(l);
  }
  if (i.json) {
    i.reporter.log(JSON.stringify(hunks.map((h, k) => hunkJson(h, marks[k]))));
    return EXIT.OK;
  }
  // Rejections whose hunk is gone while the change is not (committed, or edited instead of reverted): listed after the hunks.
  const q = pathQuoter(root);
  const gone: string[] = [];
  if (stored && [...stored.values()].some((e) => e.state === 'rejected')) {
    const { launderedJson, launderedLine } = await import('./laundered.js');
    const files = rootPaths.length && !wantAll ? hunks.map((h) => h.path).concat(rootPaths) : null;
    for (const l of await launderedJson(root, stored, { baseline, hunks })) {
      if (!files || files.some((p) => l.path === p || l.path.startsWith(p + '/'))) gone.push(`${pc.red('rejected')}  ${launderedLine(l, q)}`);
    }
  }
  if (!hunks.length) {
    i.reporter.log([`no changes against ${baseline.rev} ${baseline.oid}`, ...gone].join('\n'));
    return EXIT.OK;
  }
  // One write for all lines (hundreds of small writes cost milliseconds).
  const rows = hunks.map((h, k) => {
    const mark = marks[k] !== 'unreviewed' ? `  [${marks[k]}]` : '';
    return `${pc.bold(shortId(h))}  ${hunkRange(h, q)}  ${pc.green(`+${h.added}`)} ${pc.red(`-${h.removed}`)}  ${h.kind}${mark}`;
  });
  i.reporter.log([...rows, ...gone].join('\n'));
  return EXIT.OK;
}

/**
 * Converts a user hunk spec's path part (relative to `cwd`) to a repo-root-relative one, so
 * `path:line` means the same file in every command run from a subdirectory. Id prefixes
 * (4+ hex digits) pass through; a spec naming a path outside the repository passes through
 * unchanged (resolution then reports it). With `hunks`: when the path, read relative to
 * `cwd`, names no file with hunks but read relative to the root does (a path copied from
 * `git kizu hunks`, which prints root-relative paths), the root-relative reading is used.
 * A path in git's quoted form (`"tab\there.js":1`, as `git kizu hunks` prints it) is
 * unquoted first (src/git/quote.ts unquotePathArg).
 */
export function normaliseHunkSpec(root: string, cwd: string, given: string, hunks?: { path: string }[]): string {
  const spec = unquotePathArg(given);
  if (/^[0-9a-fA-F]{4,}$/.test(spec)) return spec;
  const m = /^(.*):(\d+)$/s.exec(spec);
  const file = m && m[1] !== '' ? m[1] : spec;
  let rel: string;
  try {
    rel = toRootPaths(root, cwd, [file])[0];
  } catch {
    return spec;
  }
  if (hunks && !path.isAbsolute(file) && !hunks.some((h) => h.path === rel) && hunks.some((h) => h.path === file)) rel = file;
  return m && m[1] !== '' ? `${rel}:${m[2]}` : rel;
}
