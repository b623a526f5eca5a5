// Tasks (`git kizu task ...`, `git kizu rollback branch`): where their worktrees go, commits
// made in them, and the whole state of a worktree to compare before and after a command.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tree } from './files.mjs';
import { rev } from './refs.mjs';

/** Repo root as git reports it (realpath). */
export const rootOf = (sb) => realpathSync(sb.dir);
/** The default sibling worktree of task `name`. */
export const sibling = (sb, name) => path.join(path.dirname(rootOf(sb)), `repo-${name.replace(/\//g, '-')}`);

/** The ref HEAD is a symbolic ref to (in `cwd`), or '' when detached. */
export const sym = (sb, cwd) => sb.git('symbolic-ref', '-q', 'HEAD', { allowFail: true, cwd }).trim();
/** Every ref with its object id, one per line. */
export const refs = (sb) => sb.git('for-each-ref', '--format=%(objectname) %(refname)');
/** Writes `files` (relative path → content) in worktree `cwd`, commits everything with `msg`; returns the new HEAD. */
export const commit = (sb, cwd, msg, files) => {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(cwd, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  sb.git('add', '-A', { cwd });
  sb.git('commit', '-q', '-m', msg, { cwd });
  return rev(sb, 'HEAD', cwd);
};

/** HEAD, branch, index entries, status, files and refs of a worktree. */
export function state(sb, cwd = sb.dir) {
  return {
    head: rev(sb, 'HEAD', cwd),
    sym: sym(sb, cwd),
    index: sb.git('ls-files', '-s', '-z', { cwd }),
    staged: sb.git('diff', '--cached', '--binary', { cwd }),
    status: sb.git('status', '--porcelain=v1', '-z', '--untracked-files=all', { cwd }),
    files: tree(cwd),
    refs: refs(sb),
    worktrees: sb.git('worktree', 'list', '--porcelain'),
  };
}

/** The record commit of a task: tree, parents (the base), and message (creation time as <t>). */
export function record(sb, name) {
  const c = rev(sb, `refs/kizu/tasks/${name}`);
  const body = sb.git('cat-file', 'commit', c);
  return {
    tree: sb.git('rev-parse', `${c}^{tree}`).trim(),
    parents: [...body.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]),
    message: body.slice(body.indexOf('\n\n') + 2).replace(/^kizu-created: .*$/m, 'kizu-created: <t>'),
  };
}
