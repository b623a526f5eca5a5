/**
 * What every recorded text insertion of init has in common (a guard in a hook manager's
 * file, a line in git's exclude file): where the text went, so that teardown takes out
 * exactly those bytes, and how it finds them again after other edits moved them.
 */

/** One stretch of text init inserted into a file, as the install record keeps it. */
export interface RecordedInsertion {
  /** Absolute path of the file. */
  file: string;
  /** UTF-16 offset in the file's text where `text` was inserted. */
  offset: number;
  /** The inserted text, exactly. */
  text: string;
  /** True if init created the file (teardown deletes it when it holds nothing else). */
  createdFile: boolean;
}

/**
 * Where the inserted `ins.text` is in `text` now: at `ins.offset` if it is still there, else
 * its single occurrence anywhere.
 * @returns the UTF-16 offset, `not-found` when it is nowhere, `ambiguous` when it is away from
 *   its offset and occurs more than once (teardown then leaves the file alone).
 */
export function locateInsertion(text: string, ins: { offset: number; text: string }): number | 'not-found' | 'ambiguous' {
  if (text.startsWith(ins.text, ins.offset)) return ins.offset;
  const first = text.indexOf(ins.text);
  if (first < 0) return 'not-found';
  return text.indexOf(ins.text, first + 1) >= 0 ? 'ambiguous' : first;
}
