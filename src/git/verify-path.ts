/**
 * The one check of a path that git-kizu reads back from its stored state (a snapshot's tree, a
 * removed task's tree and modes, a saved revert, the edit journal, the undo log, a patch)
 * before it writes, deletes or changes the mode of anything at that path. Everything under
 * `refs/kizu/*` and `<git-dir>/kizu/*` can be written by whoever can write the git dir (the
 * agent under review included), so a path from there is data to check, never a place to
 * write: a tree entry named `..` would put a file outside the working tree, one named `.git`
 * a hook into the git dir.
 *
 * The rule is git's own, for the paths git itself refuses to put into an index or check out
 * (git's read-cache.c `verify_path` and `verify_dotfile`, path.c `is_ntfs_dotgit` and
 * `is_ntfs_dotgitmodules` (`is_ntfs_dot_generic`), utf8.c `is_hfs_dotgit` and
 * `is_hfs_dotgitmodules` (`is_hfs_dot_generic`, `next_hfs_char`)), applied on every platform
 * as git does with `core.protectNTFS` and `core.protectHFS` both on, and a little stricter:
 *
 * - not empty, not absolute (`/...`; on Windows a drive prefix `C:` too);
 * - no empty component (`a//b`, a trailing `/`), no `.` or `..` component;
 * - no NUL and no backslash anywhere (git refuses `\` on Windows only; it is refused here
 *   everywhere, since a path read back may be used on Windows and a separator git does not
 *   see is a way around every other rule);
 * - no component that a file system takes for `.git`: `.git` in any case (verify_dotfile),
 *   its NTFS aliases (is_ntfs_dotgit: the short name `git~1`, and `.git` or `git~1` followed
 *   by any run of dots and spaces, or by `:` and an alternate data stream such as
 *   `.git::$INDEX_ALLOCATION`), and its HFS+ aliases (is_hfs_dotgit: `.git` with any of the
 *   code points HFS+ ignores inside, e.g. U+200C ZERO WIDTH NON-JOINER, U+FEFF);
 * - a symbolic link may not be named `.gitmodules` or any of its NTFS (`gitmod~1`,
 *   `gi7eba~1`, trailing dots and spaces, a stream) or HFS+ aliases (verify_path refuses those
 *   for links only: git would read the link's target as the submodule config);
 * - at most {@link MAX_PATH_DEPTH} components.
 *
 * {@link treeProblem} adds what a list of tree entries must hold together: a known git mode
 * per entry, each path once, and nothing under a path that is not a directory (a symbolic
 * link `l` and a file `l/x` in one tree would write `x` through the link).
 */
import { KizuError, EXIT } from '../errors.js';
import { quoteCStyle } from './quote.js';

/**
 * The most components a path read back may have: git's own default `core.maxTreeDepth`
 * (git-config(1), git 2.44 and later); a deeper tree is not one git would have written.
 */
export const MAX_PATH_DEPTH = 2048;

/** What {@link pathProblem} says of a path with a `..` component. */
export const LEAVES_TREE = 'a ".." component leaves the working tree';

/**
 * What makes a path worth the full check: a character a rule looks at (backslash, NUL, `:`,
 * `~`, a code point HFS+ ignores), a leading, doubled or trailing `/`, a `.` or `..`
 * component, or a component starting with `.git` (any case). A path shorter than
 * MAX_PATH_DEPTH characters cannot be too deep.
 */
const NEEDS_A_LOOK = /[\\\0:~\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]|^\/|\/\/|\/$|(?:^|\/)\.\.?(?:\/|$)|(?:^|\/)\.git/i;

/** Code points HFS+ ignores in a file name (utf8.c next_hfs_char). */
const HFS_IGNORED = new Set([0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff]);

/** True when `rest` is empty or only dots and spaces, or starts with `:` after them (NTFS: trailing dots and spaces dropped, `:` starts a stream). */
function ntfsTail(rest: string): boolean {
  for (const c of rest) {
    if (c === ':') return true;
    if (c !== '.' && c !== ' ') return false;
  }
  return true;
}

/**
 * path.c `is_ntfs_dotgit` on one component: `.git` or `git~1` (any case), then only dots and
 * spaces, or a `:`.
 */
export function isNtfsDotGit(name: string): boolean {
  const l = name.toLowerCase();
  if (l.startsWith('.git')) return ntfsTail(name.slice(4));
  if (l.startsWith('git~1')) return ntfsTail(name.slice(5));
  return false;
}

/**
 * path.c `is_ntfs_dot_generic` on one component: `.<needle>` (any case), its short name
 * (`<first 6 of needle>~1`..`~4`) or the fall-back short name (`<prefix>~<digit>...`, the
 * prefix at most 6 characters of `shortPrefix`), each followed by only dots and spaces or by
 * a `:`. git's needle for `.gitmodules` is `gitmodules` with fall-back prefix `gi7eba`.
 */
function isNtfsDotGeneric(name: string, needle: string, shortPrefix: string): boolean {
  const l = name.toLowerCase();
  if (l.startsWith('.' + needle)) return ntfsTail(name.slice(needle.length + 1));
  if (l.startsWith(needle.slice(0, 6)) && name[6] === '~' && name[7] >= '1' && name[7] <= '4') return ntfsTail(name.slice(8));
  let sawTilde = false;
  for (let i = 0; i < 8; i++) {
    const c = name[i];
    if (c === undefined) return false;
    if (sawTilde) {
      if (c < '0' || c > '9') return false;
    } else if (c === '~') {
      i++;
      if (name[i] === undefined || name[i] < '1' || name[i] > '9') return false;
      sawTilde = true;
    } else if (i >= 6) return false;
    else if (c.charCodeAt(0) > 0x7f) return false;
    else if (c.toLowerCase() !== shortPrefix[i]) return false;
  }
  return ntfsTail(name.slice(8));
}

/**
 * utf8.c `is_hfs_dot_generic` on one component: `.` + `needle` (any ASCII case) once the code
 * points HFS+ ignores are dropped, and nothing after it.
 */
function isHfsDotGeneric(name: string, needle: string): boolean {
  const cps = [...name].map((c) => c.codePointAt(0)!).filter((cp) => !HFS_IGNORED.has(cp));
  if (cps.length !== needle.length + 1 || cps[0] !== 0x2e) return false;
  for (let i = 0; i < needle.length; i++) {
    const cp = cps[i + 1];
    if (cp > 0x7f || String.fromCharCode(cp).toLowerCase() !== needle[i]) return false;
  }
  return true;
}

/**
 * True when a file system may take path component `name` for `.git`: `.git` in any case,
 * its NTFS aliases and its HFS+ aliases (see the module comment). For a path a directory
 * resolves to, as well as for paths read back.
 */
export function isDotGitComponent(name: string): boolean {
  return isNtfsDotGit(name) || isHfsDotGeneric(name, 'git');
}

/** True when `name` may be taken for `.gitmodules` (path.c is_ntfs_dotgitmodules, utf8.c is_hfs_dotgitmodules). */
function isDotGitmodulesComponent(name: string): boolean {
  return isNtfsDotGeneric(name, 'gitmodules', 'gi7eba') || isHfsDotGeneric(name, 'gitmodules');
}

/**
 * Why `p` is not a path git-kizu may write, delete or chmod inside a working tree, or null
 * when it is one (the rule of git's verify_path: see the module comment).
 * @param p a repository-relative, '/'-separated path as read back from stored state.
 * @param opts.symlink the entry at `p` is a symbolic link (then `.gitmodules` and its
 *   aliases are refused too).
 * @returns a short reason, e.g. `a ".." component leaves the working tree`.
 */
export function pathProblem(p: string, opts: { symlink?: boolean } = {}): string | null {
  // Fast path (snapshots check every file of the working tree): nothing any rule below looks at.
  if (typeof p === 'string' && p !== '' && p.length < MAX_PATH_DEPTH && !NEEDS_A_LOOK.test(p)) return null;
  if (typeof p !== 'string' || p === '') return 'the path is empty';
  if (p.includes('\0')) return 'it holds a NUL byte';
  if (p.includes('\\')) return 'it holds a backslash, which Windows reads as a directory separator';
  if (p.startsWith('/') || (process.platform === 'win32' && /^[A-Za-z]:/.test(p))) return 'it is an absolute path';
  const parts = p.split('/');
  if (parts.length > MAX_PATH_DEPTH) return `it is nested ${parts.length} directories deep (at most ${MAX_PATH_DEPTH})`;
  for (let i = 0; i < parts.length; i++) {
    const c = parts[i];
    if (c === '') return 'it has an empty component';
    if (c === '.') return 'it has a "." component';
    if (c === '..') return LEAVES_TREE;
    if (isDotGitComponent(c)) return c.toLowerCase() === '.git' ? 'it leads into a .git directory' : `${quoted(c)} is taken for .git by some file systems`;
    if (opts.symlink && i === parts.length - 1 && isDotGitmodulesComponent(c)) return 'a symbolic link named .gitmodules (or a name taken for it) is refused by git';
  }
  return null;
}

/** A component in double quotes, escaped as git quotes paths (quoteCStyle), so that trailing spaces and invisible code points show. */
function quoted(c: string): string {
  const q = quoteCStyle(c);
  return q.startsWith('"') ? q : `"${q}"`;
}

/** The git modes a tree entry may have (`git ls-tree`): directory, file, executable, symbolic link, submodule. */
const TREE_MODES = new Set(['040000', '100644', '100755', '120000', '160000']);

/**
 * The first entry of a tree listing that git-kizu must not write anything from, and why, or
 * null when every entry is safe: its path ({@link pathProblem}, symbolic links by their mode),
 * its mode (one of 040000, 100644, 100755, 120000, 160000), the same path listed twice, or a
 * path under an entry that is not a directory (a file, a symbolic link or a submodule: what is
 * under it would be written through it).
 * @param entries as `git ls-tree -r [-t] -z` lists them (mode as six octal digits).
 */
export function treeProblem(entries: Iterable<{ path: string; mode: string }>): { path: string; why: string } | null {
  const leaves = new Set<string>();
  const seen = new Set<string>();
  const all: { path: string; mode: string }[] = [];
  for (const e of entries) {
    if (!TREE_MODES.has(e.mode)) return { path: e.path, why: `it has mode ${quoteCStyle(e.mode)}, which is not a git file mode` };
    const why = pathProblem(e.path, { symlink: e.mode === '120000' });
    if (why) return { path: e.path, why };
    if (seen.has(e.path)) return { path: e.path, why: 'the tree lists it twice' };
    seen.add(e.path);
    if (e.mode !== '040000') leaves.add(e.path);
    all.push(e);
  }
  // Every directory the entries are under, each once (most share their parent).
  const dirs = new Set<string>();
  for (const e of all) {
    let d = e.path;
    for (let i = d.lastIndexOf('/'); i > 0; i = d.lastIndexOf('/')) {
      d = d.slice(0, i);
      if (dirs.has(d)) break;
      dirs.add(d);
    }
  }
  for (const e of all) {
    if (!leaves.has(e.path) || !dirs.has(e.path)) continue;
    const under = all.find((x) => x.path.startsWith(e.path + '/'))!;
    return { path: under.path, why: `it is under ${quoteCStyle(e.path)}, which the same tree holds as a file, symbolic link or submodule` };
  }
  return null;
}

/**
 * The error for stored state that names a path git-kizu refuses: exit 2, nothing written.
 * @param origin what holds the path, naming its ref or file (e.g. `snapshot X (refs/kizu/snapshots/X)`).
 * @param p the path as read back (printed escaped, quoteCStyle).
 * @param why what {@link pathProblem} or {@link treeProblem} said.
 * @param hint how to look at or remove the stored state.
 */
export function unsafePathError(origin: string, p: string, why: string, hint: string): KizuError {
  return new KizuError(`${origin} names an unsafe path ${p === '' ? '""' : quoteCStyle(p)}: ${why}; nothing was changed`, { hint, exitCode: EXIT.ERROR });
}
