/**
 * What to say when `refs/kizu/marks` cannot be read (it points at something that is not a
 * marks commit: `git update-ref refs/kizu/marks HEAD`, a deleted object, a forged tree): the
 * reason and the one command that restores the marks. Loaded only then (it starts git).
 */
import { git } from '../git/run.js';
import { MARKS_REF } from '../git/layout.js';
import { commonDir } from '../git/repo.js';
import { KizuError } from '../errors.js';

/** Unreadable review marks: `why` (the store's error, one line) and `fix` (one command). */
export interface MarksUnreadable {
  why: string;
  fix: string;
}

/** How many reflog entries of the marks ref are tried for a readable value. */
const REFLOG_TRIED = 20;

/**
 * Describes unreadable marks. The fix is `git update-ref refs/kizu/marks <oid>` with the
 * newest value in the ref's reflog (git kizu writes one: git/refs.ts casUpdateRef
 * `--create-reflog`) that reads as marks, else `git update-ref -d refs/kizu/marks` (which
 * drops every mark: said so).
 * @param e what readMarks threw.
 * @returns never throws (a git failure: the reflog hint of format.ts corruptHint).
 */
export async function marksUnreadable(root: string, e: unknown): Promise<MarksUnreadable> {
  const why = (e instanceof Error ? e.message : String(e)).split('\n')[0].trim();
  try {
    const common = await commonDir(root);
    const r = await git(['log', '-g', '--format=%H', `-n${REFLOG_TRIED}`, MARKS_REF, '--'], { cwd: root, okStatus: [0, 128] });
    const oids = [...new Set(r.status === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [])];
    const { loadMarks } = await import('./commits.js');
    for (const oid of oids) {
      try {
        await loadMarks(common, oid, { ref: MARKS_REF }, { cache: false });
        return { why, fix: `git update-ref ${MARKS_REF} ${oid}` };
      } catch {
        /* not a marks commit either: try the one before */
      }
    }
    return { why, fix: `git update-ref -d ${MARKS_REF} (no earlier readable value in its reflog: this drops every mark)` };
  } catch {
    return { why, fix: e instanceof KizuError && e.hint ? e.hint : `git reflog ${MARKS_REF}, then git update-ref ${MARKS_REF} <commit>` };
  }
}
