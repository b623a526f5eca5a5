// Scars: the canned bodies, and scarring one line of a fresh repo (through the bin, or with
// the command the bin runs called in this process).
import assert from 'node:assert/strict';
import { sandbox, src, withEnv } from './sandbox.mjs';
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

/**
 * `git kizu scar <target> [extra]` run in this process: scarCommand (src/cli/scar.ts, what the
 * bin's `scar` runs) in the repo directory with exactly the sandbox's environment (withEnv), no node process and
 * grammar load per scar. `extra`: `-m|--message <body>`, `-k|--kind <kind>`. Resolves
 * {status, stdout, stderr} as the bin prints them without colour: the log lines, warnings as
 * `git-kizu: warning: <line>`, a KizuError as `git-kizu: error: <message>` and `hint: <hint>`
 * with its exit code (anything else is thrown). test/cli/scar-in-process.test.mjs checks it
 * prints what the bin prints.
 */
export async function kizuScar(sb, target, extra = []) {
  const { scarCommand } = await import(src('cli/scar.ts'));
  const { KizuError } = await import(src('errors.ts'));
  const o = { kind: 'ask' };
  for (let k = 0; k < extra.length; k += 2) {
    const [flag, value] = [extra[k], extra[k + 1]];
    if (flag === '-m' || flag === '--message') o.message = value;
    else if (flag === '-k' || flag === '--kind') o.kind = value;
    else throw new Error(`kizuScar: unknown option ${flag}`);
  }
  let stdout = '';
  let stderr = '';
  const reporter = { log: (l) => (stdout += `${l}\n`), warn: (l) => (stderr += `git-kizu: warning: ${l}\n`) };
  try {
    const status = await withEnv(sb.env, () => scarCommand({ cwd: sb.dir, target, kind: o.kind, message: o.message, undo: false, by: null, reporter }));
    return { status, stdout, stderr };
  } catch (e) {
    if (!(e instanceof KizuError)) throw e;
    return { status: e.exitCode, stdout, stderr: stderr + `git-kizu: error: ${e.message}\n` + (e.hint ? `hint: ${e.hint}\n` : '') };
  }
}

/** As scarOnce, with the scar written in this process (kizuScar): resolves { r, text, sb }. */
export async function scarOnceHere(files, target, extra = []) {
  const sb = sandbox({ files });
  const r = await kizuScar(sb, target, extra);
  const rel = target.replace(/:\d+$/, '');
  return { r, text: sb.read(rel), sb };
}

/** Runs a refused command (exit `status`, no stdout, exactly `stderr`) and checks that file `rel` (when given) is unchanged. */
export function expectRefused(sb, args, rel, { status = 2, stderr }) {
  const before = rel ? bytes(sb, rel) : null;
  expectRun(sb, args, { status, stdout: '', stderr });
  if (rel) assert.deepEqual(bytes(sb, rel), before, `${rel} must be untouched`);
}
