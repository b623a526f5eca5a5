/**
 * Locating the repository from the file system alone, without starting git: used on hook
 * hot paths where a process spawn would dominate the cost.
 */
import { existsSync, statSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Finds the working-tree top level without spawning git, by walking up from `start` to the
 * first directory holding a `.git` entry (directory or gitfile). Used on hook hot paths.
 * @returns the absolute directory, or null if none is found.
 */
export function findRootFast(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The git dir for a working-tree root without spawning git: `<root>/.git` if a directory,
 * else the `gitdir:` target of a `.git` file (linked worktrees, submodules).
 * @returns absolute path, or null if `.git` is neither.
 */
export function gitDirFast(root: string): string | null {
  const dotgit = path.join(root, '.git');
  try {
    const st = statSync(dotgit);
    if (st.isDirectory()) return dotgit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotgit, 'utf8'));
    return m ? path.resolve(root, m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The common git dir for a working-tree root without spawning git: the `.git` dir, or for a
 * linked worktree the target of its `commondir` file (gitrepository-layout(5)).
 * @returns absolute path, or null if `<root>/.git` is neither a directory nor a gitfile.
 */
export function commonDirFast(root: string): string | null {
  const gd = gitDirFast(root);
  if (!gd) return null;
  try {
    return path.resolve(gd, readFileSync(path.join(gd, 'commondir'), 'utf8').trim());
  } catch {
    return gd;
  }
}

/**
 * Reads a ref's value from the files backend without spawning git: the loose file
 * `<common>/<ref>`, else its line in `<common>/packed-refs` (gitrepository-layout(5)).
 * @returns the object id; null if the ref exists in neither; undefined if it cannot tell
 *   (reftable backend, a symbolic ref, an unreadable file): ask git then.
 */
export function refFast(common: string, ref: string): string | null | undefined {
  if (existsSync(path.join(common, 'reftable'))) return undefined;
  try {
    const s = readFileSync(path.join(common, ref), 'utf8').trim();
    return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(s) ? s : undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') return undefined;
  }
  let packed: string;
  try {
    packed = readFileSync(path.join(common, 'packed-refs'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  for (const line of packed.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp > 0 && line[0] !== '#' && line[0] !== '^' && line.slice(sp + 1).trimEnd() === ref) return line.slice(0, sp);
  }
  return null;
}
