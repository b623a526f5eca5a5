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

