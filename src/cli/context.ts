/** What most commands need first: the repository and its config. */
import { repoInfo } from '../git/repo.js';
import { loadConfig, type KizuConfig } from '../config/config.js';

export interface RepoContext {
  /** Absolute working-tree top level. */
  root: string;
  /** Absolute git dir of this worktree. */
  gitDir: string;
  config: KizuConfig;
}

/**
 * Locates the repository containing `cwd` and loads its config.
 * @throws KizuError (exit 2) outside a git working tree or for an invalid config.
 */
export async function repoContext(cwd: string): Promise<RepoContext> {
  const info = await repoInfo(cwd);
  return { ...info, config: await loadConfig(info.root) };
}
