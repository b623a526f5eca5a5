/**
 * Finding scars: in one buffer ({@link scanBuffer}) and across a repository scope
 * ({@link scanRepo}). File lists come from the git CLI (`diff`, `ls-files`, `grep`, `-z`);
 * contents from the working tree or, for `staged`, from the index via `git cat-file --batch`.
 */
import { closeSync, openSync, readFileSync, readSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { git, splitZ, hasHead, nonUtf8Records } from '../git/run.js';
import { quoteBytes } from '../git/quote.js';
import { hiddenChanges, type HiddenChange } from '../git/hidden-changes.js';
import { hiddenByRules, type RuleHidden } from '../git/hidden-by-rules.js';
import { baselineOrHead } from '../git/refs.js';
import { KizuError } from '../errors.js';
import { scanBuffer, scanLineRule } from './parse.js';
import type { Scar } from './parse.js';

export type { Scar };

/** A file the scan could not read, and why (`cannot read (EACCES)`): its scars are not known, so it holds the stop. */
export interface Skipped {
  path: string;
  reason: string;
}

export interface ScanResult {
  scars: Scar[];
  /** Files in the scope that could not be read (not those excluded by `scan.exclude`). */
  skipped: Skipped[];
  /**
   * Working-tree modes: files whose index entry is flagged assume-unchanged or skip-worktree
   * and that differ from it (git/hidden-changes.ts); they are scanned like changed files.
   */
  hidden: HiddenChange[];
  /**
   * Files in the scope whose name is not valid UTF-8, quoted as git quotes them
   * (`"caf\351.js"`): they cannot be read by name here, so their scars are not known.
   */
  unreadable: string[];
  /**
   * Working-tree modes: files an ignore rule not in the baseline or an attribute (`ident`, a
   * configured clean filter) hides from git (git/hidden-by-rules.ts); they are scanned like
   * changed files (an ignored directory with too many files is only named).
   */
  rules: RuleHidden[];
  /** Working-tree modes: the changed and untracked files of the scope, as git listed them. */
  scope?: string[];
  /**
   * Files in the scope the scan did not read because its {@link ScanBound} was reached (more
   * files or bytes than it allows, or its deadline passed); absent when every file was read.
   */
  unchecked?: Unchecked;
}

/**
 * A bound on the working-tree scan, so that a hook answers before its runner kills it (a
 * killed Stop hook lets the agent stop: the scope would be too big to check). The files are
 * read in the order git lists them (changed, then untracked) until one limit is reached.
 */
export interface ScanBound {
  /** Files read at most. */
  maxFiles: number;
  /** Bytes read at most (the sizes of the files read, from lstat). */
  maxBytes: number;
  /** Time (ms since the epoch, Date.now()) after which no further file is read. */
  deadline: number;
}

/** What a bounded scan left unread: how many files, why, and where most of them are. */
export interface Unchecked {
  files: number;
  /** Which limit was reached first. */
  why: 'files' | 'bytes' | 'time';
  /** The directories (first path segment + `/`, or `.` for the root) holding most of them, most first, with their counts (at most 3). */
  where: { dir: string; files: number }[];
}

/** How many files are read between two looks at the clock. */
const CLOCK_EVERY = 128;

function unchecked(rest: string[], why: Unchecked['why']): Unchecked {
  const by = new Map<string, number>();
  for (const p of rest) {
    const i = p.indexOf('/');
    const d = i < 0 ? '.' : p.slice(0, i + 1);
    by.set(d, (by.get(d) ?? 0) + 1);
  }
  const where = [...by].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map(([dir, files]) => ({ dir, files }));
  return { files: rest.length, why, where };
}

/** `default`: changed vs the baseline (refs/kizu/baseline, else HEAD) + untracked; `all`: tracked + untracked; `staged`: index blobs. */
export type ScanMode = 'default' | 'all' | 'staged';

export { scanBuffer };

export interface ScanOptions {
  /** Absolute repo root (working-tree top level). */
  root: string;
  mode: ScanMode;
  /** Root-relative paths or directories to limit to (empty: whole scope). */
  paths?: string[];
  /** picomatch globs (root-relative) to skip. */
  exclude: string[];
  /**
   * `none`: not the files git hides by a rule (the Stop hook adds them with
   * {@link scanHiddenByRules} before it lets the agent stop). Default `all`.
   */
  rules?: 'all' | 'none';
  /** Files larger than this (bytes) are not parsed: searched by the line rule alone (parse.ts scanLineRule). */
  maxFileBytes: number;
  /** Working-tree modes: stop reading at this bound (the rest is reported in `unchecked`). */
  bound?: ScanBound;
}

/**
 * Environment for git commands given user paths: pathspecs are literal (GIT_LITERAL_PATHSPECS,
 * git-scm.com/docs/git "--literal-pathspecs"), so names holding `*`, `?`, `[` or starting with
 * `:` (pathspec magic) match only themselves.
 */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };


/**
 * Lists the root-relative files of a scope (working tree modes). `paths` are root-relative
 * files or directories, matched literally. `default`: the files changed against the baseline
 * (git/refs.ts baselineOrHead: refs/kizu/baseline, else HEAD) and untracked files not ignored.
 * @returns the files; `unreadable`: names git listed that are not valid UTF-8, quoted.
 */
export async function scopeFiles(root: string, mode: 'default' | 'all', paths: string[] = []): Promise<{ files: string[]; unreadable: string[] }> {
  const spec = paths.length ? ['--', ...paths] : [];
  const untracked = git(['ls-files', '-z', '-o', '--exclude-standard', '--full-name', ...spec], { cwd: root, env: LITERAL });
  const listTracked = () => git(['ls-files', '-z', '--full-name', ...spec], { cwd: root, env: LITERAL });
  const tracked =
    mode === 'all'
      ? listTracked()
      : baselineOrHead(root).then((base) => git(['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', base, ...spec], { cwd: root, okStatus: [0, 128], env: LITERAL })).then(
          async (r) => (r.status === 0 ? r : (await hasHead(root)) ? Promise.reject(new KizuError(`git diff HEAD failed: ${r.stderr.trim()}`)) : listTracked()),
        );
  const [t, u] = await Promise.all([tracked, untracked]);
  return { files: [...new Set([...splitZ(t.stdout), ...splitZ(u.stdout)])], unreadable: unreadableNames(t.stdout, u.stdout) };
}

/** The records of git -z name listings that are not valid UTF-8, quoted, each once. */
function unreadableNames(...outs: Buffer[]): string[] {
  return [...new Set(outs.flatMap((o) => nonUtf8Records(o).map(quoteBytes)))];
}

/**
 * Scans a scope of the repository for scars. `paths` (root-relative files or directories)
 * are literal pathspecs.
 * - `default`: files changed against the baseline (refs/kizu/baseline when set, else HEAD:
 *   `git diff --name-only <baseline>`, committed since, staged and unstaged) plus untracked
 *   files not ignored (`git ls-files -o --exclude-standard`); in a repo with
 *   no commits, every file in the index plus untracked ones.
 * - `all`: candidates from `git grep -l -F --untracked '@kizu['` (tracked and untracked,
 *   not ignored), then each read and parsed.
 * - `staged`: candidates from `git grep --cached`, contents from the index blobs.
 * Files git calls binary are scanned too (by the line rule: parse.ts scanBuffer); files over
 * `maxFileBytes` are searched by the line rule alone, in pieces (parse.ts scanLineRule); files
 * that cannot be read are reported in `skipped` (they hold the stop); files matching `exclude`
 * are not read. In the
 * working-tree modes, files hidden by assume-unchanged or skip-worktree that differ from the
 * index are added to the scope (`hidden`), and so are files an ignore rule not in the baseline
 * or an attribute hides (`rules`, git/hidden-by-rules.ts); names that are not valid UTF-8 are
 * reported in `unreadable`.
 * @throws KizuError (exit 2) if a git command fails.
 */
export async function scanRepo(o: ScanOptions): Promise<ScanResult> {
  const isExcluded = o.exclude.length ? (await import('picomatch')).default(o.exclude, { dot: true }) : () => false;
  const skipped: Skipped[] = [];
  const scars: Scar[] = [];
  const spec = o.paths?.length ? ['--', ...o.paths] : [];
  let hidden: HiddenChange[] = [];
  let unreadable: string[] = [];
  let rules: RuleHidden[] = [];
  let scope: string[] = [];
  let cut: Unchecked | undefined;
  // No -I: a file git calls binary (a NUL byte, or `binary`/`-diff` in .gitattributes) is
  // searched too, or its scars would pass every check.
  if (o.mode === 'staged') {
    const r = await git(['grep', '--cached', '-l', '-z', '-F', '--full-name', '-e', '@kizu[', ...spec], { cwd: o.root, okStatus: [0, 1], env: LITERAL });
    const files = splitZ(r.stdout).filter((p) => !isExcluded(p));
    unreadable = unreadableNames(r.stdout);
    const blobs = await readIndexBlobs(o.root, files);
    for (const [p, buf] of blobs) {
      let at = 0;
      scars.push(...(buf.length > o.maxFileBytes ? scanLineRule(p, (into) => { const n = buf.copy(into, 0, at); at += n; return n; }) : await scanBuffer(p, buf)));
    }
  } else {
    // git starts first; the index is read while it runs.
    const listed =
      o.mode === 'all'
        ? git(['grep', '--untracked', '-l', '-z', '-F', '--full-name', '-e', '@kizu[', ...spec], { cwd: o.root, okStatus: [0, 1], env: LITERAL }).then((r) => ({ files: splitZ(r.stdout), unreadable: unreadableNames(r.stdout) }))
        : scopeFiles(o.root, 'default', o.paths);
    listed.catch(() => {}); // awaited below
    // Files git does not compare with the index (assume-unchanged, skip-worktree) are read
    // as they are in the working tree: git diff and git grep would show their index version.
    const hiddenP = hiddenChanges(o.root, o.paths ?? []);
    hiddenP.catch(() => {});
    // Files git hides by a rule (an ignore rule not in the baseline, ident, a clean filter) are read as they are.
    const given =
      o.mode === 'default'
        ? { touched: listed.then((l) => l.files.some((p) => p === '.gitignore' || p.endsWith('/.gitignore')), () => true), untracked: listed.then((l) => l.files, () => []) }
        : null;
    const rulesP = o.rules === 'none' ? Promise.resolve([]) : baselineOrHead(o.root).then((base) => hiddenByRules(o.root, base, given, o.paths ?? []));
    rulesP.catch(() => {});
    let files: string[];
    ({ files, unreadable } = await listed);
    hidden = (await hiddenP).changes;
    rules = await rulesP;
    scope = files;
    if (hidden.length) files = [...new Set([...files, ...hidden.filter((h) => h.change !== 'deleted').map((h) => h.path)])];
    if (rules.length) files = [...new Set([...files, ...rules.filter((r) => !r.path.endsWith('/')).map((r) => r.path)])];
    const read = await scanFiles(o.root, files.filter((p) => !isExcluded(p)), [], o.maxFileBytes, o.bound);
    scars.push(...read.scars);
    skipped.push(...read.skipped);
    if (read.unchecked) cut = read.unchecked;
  }
  scars.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { scars, skipped, hidden, unreadable, rules, scope, ...(cut ? { unchecked: cut } : {}) };
}

/**
 * The scars of working-tree files (root-relative), read synchronously (for the many small
 * files of a scope they cost far less than promise-based reads through the thread pool,
 * measured in bench/); files over `maxFileBytes` by the line rule alone, in pieces; files
 * matching `exclude` not read; files that cannot be read in `skipped`; deleted ones skipped;
 * past `bound` (files, bytes, or time) the rest is not read and returned as `unchecked`.
 */
async function scanFiles(root: string, files: string[], exclude: string[], maxFileBytes: number, bound?: ScanBound): Promise<{ scars: Scar[]; skipped: Skipped[]; unchecked?: Unchecked }> {
  const isExcluded = exclude.length ? (await import('picomatch')).default(exclude, { dot: true }) : () => false;
  const scars: Scar[] = [];
  const skipped: Skipped[] = [];
  const todo = files.filter((p) => !isExcluded(p));
  let bytes = 0;
  let cut: Unchecked | undefined;
  const results: (Scar[] | Promise<Scar[]>)[] = [];
  for (let i = 0; i < todo.length; i++) {
    // The bound (a hook's budget): past it the rest is not read, and named.
    if (bound && (i >= bound.maxFiles || bytes > bound.maxBytes || (i % CLOCK_EVERY === 0 && i > 0 && Date.now() > bound.deadline))) {
      cut = unchecked(todo.slice(i), i >= bound.maxFiles ? 'files' : bytes > bound.maxBytes ? 'bytes' : 'time');
      break;
    }
    results.push(readOne(todo[i]));
  }
  function readOne(p: string): Scar[] | Promise<Scar[]> {
    const abs = path.join(root, p);
    let st;
    try {
      st = lstatSync(abs);
    } catch (e) {
      // Deleted in the working tree: nothing to read. Anything else is a file not read.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') skipped.push({ path: p, reason: `cannot read (${code ?? (e as Error).message})` });
      return [];
    }
    if (!st.isFile()) return [];
    bytes += st.size;
    try {
      // Too large to parse: searched line by line, so padding a file does not hide its scar.
      if (st.size > maxFileBytes) return scanLargeFile(p, abs);
      return scanBuffer(p, readFileSync(abs));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') skipped.push({ path: p, reason: `cannot read (${code ?? (e as Error).message})` });
      return [];
    }
  }
  for (const r of results) scars.push(...(await r));
  return cut ? { scars, skipped, unchecked: cut } : { scars, skipped };
}

/**
 * The files git hides by a rule (git/hidden-by-rules.ts: an ignore rule not in the baseline,
 * an attribute) and their scars: what a scan with `rules: 'none'` left out. Files already in
 * `scope` (a {@link ScanResult.scope}) are not read again.
 * @throws KizuError (exit 2) if a git command fails.
 */
export async function scanHiddenByRules(o: { root: string; exclude: string[]; maxFileBytes: number; scope: string[] }): Promise<{ scars: Scar[]; skipped: Skipped[]; rules: RuleHidden[] }> {
  const touched = o.scope.some((p) => p === '.gitignore' || p.endsWith('/.gitignore'));
  const rules = await hiddenByRules(o.root, await baselineOrHead(o.root), { touched: Promise.resolve(touched), untracked: Promise.resolve(o.scope) });
  const seen = new Set(o.scope);
  const files = rules.filter((r) => !r.path.endsWith('/') && !seen.has(r.path)).map((r) => r.path);
  if (!files.length) return { scars: [], skipped: [], rules };
  const res = await scanFiles(o.root, files, o.exclude, o.maxFileBytes);
  return { ...res, rules };
}

/** The scars of the working-tree file `abs` by the line rule, read in pieces (parse.ts scanLineRule). */
function scanLargeFile(rel: string, abs: string): Scar[] {
  const fd = openSync(abs, 'r');
  try {
    return scanLineRule(rel, (into) => readSync(fd, into, 0, into.length, null));
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the index (stage 0) blobs of `files` (root-relative paths): object ids from
 * `git ls-files --stage -z`, contents from one `git cat-file --batch` call fed object ids,
 * so any path (newlines, a leading `<digit>:` that would read as a stage number) works.
 * Paths without a stage-0 blob entry (conflicted, submodules, not in the index) are left out.
 * @returns map of path → bytes.
 * @throws KizuError (exit 2) if git fails or its output cannot be parsed.
 */
export async function readIndexBlobs(root: string, files: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (!files.length) return out;
  const wanted = new Set(files);
  const ls = await git(['ls-files', '--stage', '-z', '--full-name'], { cwd: root });
  const ids: [string, string][] = [];
  for (const rec of splitZ(ls.stdout)) {
    // <mode> SP <oid> SP <stage> TAB <path>
    const m = /^(\d+) ([0-9a-f]+) (\d)\t([^]*)$/.exec(rec);
    if (m && m[3] === '0' && m[1] !== '160000' && wanted.has(m[4])) ids.push([m[4], m[2]]);
  }
  if (!ids.length) return out;
  const r = await git(['cat-file', '--batch'], { cwd: root, input: ids.map(([, oid]) => `${oid}\n`).join('') });
  const buf = r.stdout;
  let pos = 0;
  for (const [p] of ids) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) throw new KizuError('unexpected output from git cat-file --batch', { hint: 'check the repository with git fsck' });
    const header = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) continue; // "<oid> missing"
    const size = Number(m[2]);
    const content = buf.subarray(pos, pos + size);
    pos += size + 1;
    out.set(p, content);
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Scars in the staged blobs of added, copied, modified or renamed files
 * (`git diff --cached --diff-filter=ACMR`), as the pre-commit hook sees them.
 */
export async function scanStagedForCommit(root: string, exclude: string[], maxFileBytes: number): Promise<ScanResult> {
  const [changed, res] = await Promise.all([
    git(['diff', '--cached', '--name-only', '-z', '--diff-filter=ACMR', '--no-ext-diff'], { cwd: root }),
    scanRepo({ root, mode: 'staged', exclude, maxFileBytes }),
  ]);
  const set = new Set(splitZ(changed.stdout));
  return { scars: res.scars.filter((s) => set.has(s.path)), skipped: res.skipped.filter((s) => set.has(s.path)), hidden: [], unreadable: res.unreadable, rules: [] };
}
