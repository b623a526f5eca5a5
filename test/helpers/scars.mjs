// Scars: the canned bodies, and scarring one line of a fresh repo.
import assert from 'node:assert/strict';
import { sandbox } from './sandbox.mjs';
import { expectRun } from './expect.mjs';
import { bytes } from './files.mjs';

/** The canned ask scar body (`git kizu scar` without -k or -m). */
export const ASK = '@kizu[ask]: explain this change';
/** The canned reject scar body (`git kizu scar -k reject`). */
export const REJECT = '@kizu[reject]: revert this change';

/** Scars `target` (path:line) in a fresh repo holding `files`; returns the run, the file text after, and the sandbox. */
export function scarOnce(files, target, extra = []) {
  const sb = sandbox({ files });
  const r = sb.kizu(['scar', target, ...extra]);
  const rel = target.replace(/:\d+$/, '');
  return { r, text: sb.read(rel), sb };
}

/** Runs a refused command (exit `status`, no stdout, exactly `stderr`) and checks that file `rel` (when given) is unchanged. */
export function expectRefused(sb, args, rel, { status = 2, stderr }) {
  const before = rel ? bytes(sb, rel) : null;
  expectRun(sb, args, { status, stdout: '', stderr });
  if (rel) assert.deepEqual(bytes(sb, rel), before, `${rel} must be untouched`);
}
