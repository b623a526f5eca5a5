/**
 * Rejections that outlived their hunk (hunks/rejections.ts: a rejected change committed, or
 * rejected lines edited instead of reverted) as the CLI shows them: `status` (text and JSON),
 * `hunks` and `review`.
 */
import { launderedRejections, type LaunderedRejection } from '../hunks/rejections.js';
import type { Baseline, Hunk } from '../hunks/listing.js';
import type { MarkEntry } from '../marks/format.js';
import type { PathQuote } from '../git/quote.js';

/**
 * One such rejection in `git kizu status --json` (`hunks.laundered`): the mark's hunk id, path,
 * stored range, `committed` or `edited`, the commit that holds it (or null), the ids of the
 * current hunks in its place (an edit), `words` ({@link launderedWords}) and `fix`
 * ({@link launderedFix}).
 */
export interface LaunderedJson {
  id: string;
  path: string;
  range: string;
  how: 'committed' | 'edited';
  commit: string | null;
  edits: string[];
  words: string;
  fix: string;
}

/**
 * What a rejection that outlived its hunk is, in a few words (shared by the hooks and the
 * CLI): `rejected change committed in <sha7>`, `rejected, edited since` or `rejected, edited
 * since and committed in <sha7>`.
 */
export function launderedWords(l: LaunderedRejection): string {
  const at = l.commit ? ` committed in ${l.commit.slice(0, 7)}` : '';
  return l.how === 'committed' ? `rejected change${at}` : `rejected, edited since${at ? ` and${at}` : ''}`;
}

/**
 * What resolves it, for the human (`status`, `review`): for a committed one, undoing the
 * commit's change or the reviewer accepting it (tap) or withdrawing the rejection (untap) by
 * the mark's id; for an edit, reviewing the hunks in its place, or reverting them.
 */
export function launderedFix(l: LaunderedRejection): string {
  const id = l.id.slice(0, 8);
  if (l.how === 'edited' && l.edits.length && !l.commit) {
    const ids = l.edits.map((h) => h.id.slice(0, 8)).join(' ');
    return `review the rework: git kizu tap ${ids} (or reject it), or revert it: git kizu revert ${ids}`;
  }
  const undo = l.commit ? `undo it (git revert ${l.commit.slice(0, 7)} undoes that whole commit)` : 'undo it';
  return `${undo}, or accept it: git kizu tap ${id} (git kizu untap ${id} withdraws the rejection)`;
}

/**
 * The rejections of `marks` that outlived their hunk, against the current listing, as
 * {@link LaunderedJson} (hunks/rejections.ts launderedRejections; its errors propagate).
 */
export async function launderedJson(root: string, marks: Map<string, MarkEntry>, current: { baseline: Baseline; hunks: Hunk[] }): Promise<LaunderedJson[]> {
  return (await launderedRejections(root, marks, current)).map((l) => ({
    id: l.id,
    path: l.path,
    range: l.range,
    how: l.how,
    commit: l.commit,
    edits: l.edits.map((h) => h.id),
    words: launderedWords(l),
    fix: launderedFix(l),
  }));
}

/** A stored range with its path quoted by `q` (the stored range begins with the raw path). */
export function quotedStoredRange(path: string, range: string, q: PathQuote): string {
  return range.startsWith(path) ? q(path) + range.slice(path.length) : q(range);
}

/** The text line of one: `<id8>  <range>  <words>: <fix>` (range quoted by `q`). */
export function launderedLine(l: LaunderedJson, q: PathQuote): string {
  return `${l.id.slice(0, 8)}  ${quotedStoredRange(l.path, l.range, q)}  ${l.words}: ${l.fix}`;
}
