/**
 * UserPromptSubmit handler: takes a snapshot (kind 'prompt', src/rollback/snapshot.ts) of
 * the working tree before Claude Code handles the prompt, so every turn can be rolled back.
 *
 * Claude Code hooks reference, "UserPromptSubmit": runs when the user submits a prompt,
 * before Claude processes it; input adds `prompt` to the common fields (`session_id`,
 * `transcript_path`, `cwd`, `hook_event_name`); with exit code 0 its stdout is added to the
 * model's context, so this handler prints NOTHING on stdout. It never blocks the prompt: the
 * caller turns any error into exit 0 plus one stderr line. A concurrent snapshot is waited
 * for at most {@link LOCK_WAIT_MS}. A prompt after which nothing changed reuses the newest
 * snapshot instead of writing a new one.
 */
import { findRootFast } from '../git/repo.js';
import { PayloadError, type HookPayload } from '../agents/claude/payload.js';
import { notInRepository } from './text.js';

/** Longest wait (ms) for another snapshot or restore to finish before giving up. */
export const LOCK_WAIT_MS = 5000;

/**
 * Takes the prompt snapshot for payload `p`. The snapshot message is the prompt's first
 * line (at most 200 characters).
 * @returns the snapshot name.
 * @throws PayloadError if `prompt` is present but not a string; Error outside a git
 *   repository; KizuError from takeSnapshot (busy store, git failure).
 */
export async function userPromptSubmit(p: HookPayload & { prompt?: unknown }, env: NodeJS.ProcessEnv, warn: (line: string) => void = () => {}): Promise<string> {
  if (p.prompt !== undefined && typeof p.prompt !== 'string') {
    throw new PayloadError(`hook payload field "prompt" should be a string, got ${JSON.stringify(p.prompt).slice(0, 80)}`);
  }
  const base = typeof p.cwd === 'string' && p.cwd ? p.cwd : env.CLAUDE_PROJECT_DIR || process.cwd();
  const root = findRootFast(base);
  if (!root) throw new Error(notInRepository(base));
  const first = (p.prompt ?? '').split('\n').find((l) => l.trim()) ?? '';
  // Lock the store and start git before the snapshot code loads (rollback/early.ts).
  const { startSnapshotEarly, abandonEarlySnapshot } = await import('../rollback/snapshots/begin.js');
  const early = await startSnapshotEarly(root);
  try {
    const { takeSnapshot } = await import('../rollback/snapshots/snapshot.js');
    const r = await takeSnapshot(early ?? root, { kind: 'prompt', message: first.trim().slice(0, 200), lockTimeoutMs: LOCK_WAIT_MS, configProblem: warn });
    return r.name;
  } finally {
    abandonEarlySnapshot();
  }
}
