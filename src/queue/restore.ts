/**
 * Where review queue items that vanished from the queue file (./record.ts) can be found
 * again, as the one command that brings the file back. Loaded only when items vanished
 * (it starts git).
 */
import { git } from '../git/run.js';
import { QUEUE_FILE } from './paths.js';

/** How many stash entries are looked in. */
const STASHES = 10;

/**
 * The command that restores the queue file holding `ids`: `git checkout stash@{n} --
 * .claude/review-queue.md` (or `stash@{n}^3` for a stash of untracked files) when a stash
 * entry's file holds every one of them (by their `<!-- kizu:ID -->` comment), `git checkout
 * HEAD -- .claude/review-queue.md` when HEAD's does; else null.
 * Never throws (a git failure: null).
 */
export async function queueRestoreCommand(root: string, ids: string[]): Promise<string | null> {
  try {
    const r = await git(['log', '-g', '--format=%gd', `-n${STASHES}`, 'refs/stash', '--'], { cwd: root, okStatus: [0, 128] });
    const stashes = r.status === 0 ? r.stdout.toString('utf8').split('\n').filter((l) => /^stash@\{\d+\}$/.test(l)) : [];
    const revs = [...stashes.flatMap((s) => [s, `${s}^3`]), 'HEAD'];
    const input = revs.map((rev) => `${rev}:${QUEUE_FILE}\n`).join('');
    const out = (await git(['cat-file', '--batch'], { cwd: root, input, okStatus: [0, 128] })).stdout;
    let pos = 0;
    for (const rev of revs) {
      const nl = out.indexOf(10, pos);
      if (nl < 0) break;
      const header = out.subarray(pos, nl).toString('utf8');
      pos = nl + 1;
      const m = / blob (\d+)$/.exec(header);
      if (!m) continue;
      const size = Number(m[1]);
      const text = out.subarray(pos, pos + size).toString('utf8');
      pos += size + 1;
      if (ids.every((id) => text.includes(`kizu:${id} -->`))) return `git checkout ${rev} -- ${QUEUE_FILE}`;
    }
    return null;
  } catch {
    return null;
  }
}
