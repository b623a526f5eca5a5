/**
 * `user-prompt-submit` handler: takes a snapshot (kind 'prompt',
 * src/rollback/snapshots/snapshot.ts) of the working tree before the agent handles the
 * prompt, so every turn can be rolled back.
 *
 * It answers nothing (Claude Code hooks reference, "UserPromptSubmit": with exit code 0 a
 * hook's stdout is added to the model's context, so nothing may be printed there). It never
 * blocks the prompt: the caller turns any error into exit 0 plus one stderr line. A
 * concurrent snapshot is waited for at most {@link LOCK_WAIT_MS}. A prompt after which
 * nothing changed reuses the newest snapshot instead of writing a new one. After the snapshot
 * it starts retention (`git-kizu gc --auto`) in the background at most once an hour
 * (storage/auto.ts), without waiting for it.
 */
import { commonDirFast, findRootFast } from '../git/repo.js';
import { autoGcMayBeDue, startAutoGc } from '../storage/auto.js';
import { abandonBegunSnapshot, beginSnapshot } from '../rollback/snapshots/begin.js';
import type { PromptInput } from './contract.js';

/** Longest wait (ms) for another snapshot or restore to finish before giving up. */
export const LOCK_WAIT_MS = 5000;

/**
 * Takes the prompt snapshot. The snapshot message is the prompt's first non-blank line
 * (at most 200 characters).
 * @param warn called with a config problem, for stderr.
 * @returns the snapshot name; null outside a git repository (nothing to snapshot).
 * @throws KizuError from takeSnapshot (busy store, git
 *   failure).
 */
export async function userPromptSubmit(input: PromptInput, warn: (line: string) => void = () => {}): Promise<string | null> {
  const root = findRootFast(input.cwd);
  // Outside a repository there is nothing to snapshot (user-scope hooks and the plugin run in every folder).
  if (!root) return null;
  const first = input.prompt.split('\n').find((l) => l.trim()) ?? '';
  // Lock the store and start git (rollback/snapshots/begin.ts, a small module loaded with
  // this one) while the snapshot code loads.
  const snapshotCode = import('../rollback/snapshots/snapshot.js');
  snapshotCode.catch(() => {}); // awaited below; no unhandled rejection meanwhile
  const begun = await beginSnapshot(root);
  try {
    const { takeSnapshot } = await snapshotCode;
    const r = await takeSnapshot(begun ?? root, { kind: 'prompt', message: first.trim().slice(0, 200), lockTimeoutMs: LOCK_WAIT_MS, configProblem: warn });
    // Retention in the background, at most once an hour, never waited for (storage/auto.ts).
    const common = commonDirFast(root);
    if (common && autoGcMayBeDue(common)) await startAutoGc(root, common);
    return r.name;
  } finally {
    abandonBegunSnapshot();
  }
}
