/** `git kizu scar <path>:<line> [--kind] [-m]` and `git kizu scar --undo`. */
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { repoContext } from '../context.js';
import { KINDS } from '../scars/format.js';
import { parseLocation, writeScar, recordScar, undoLastScar } from '../scars/insert.js';

export interface ScarCommandInput {
  cwd: string;
  /** `<path>:<line>` (required unless undo). */
  target?: string;
  /** ask | reject | free (default ask). */
  kind?: string;
  /** Body; required for free, overrides the canned body otherwise. */
  message?: string;
  undo?: boolean;
  reporter: Reporter;
}

/**
 * Writes one scar (or undoes the last one) and reports it.
 * @returns exit code 0.
 * @throws KizuError: exit 2 for bad input (unknown kind, free without -m, empty body,
 *   target refusals from writeScar); exit 1 when --undo is refused.
 */
export async function scarCommand(i: ScarCommandInput): Promise<number> {
  if (i.undo) {
    if (i.target) throw new KizuError('--undo takes no <path>:<line>', { hint: 'run git kizu scar --undo alone' });
    const ctx = await repoContext(i.cwd);
    const r = await undoLastScar(ctx.root, ctx.gitDir);
    i.reporter.log(`removed scar ${r.rel}:${r.line}  ${r.text.trim()}`);
    return EXIT.OK;
  }
  if (!i.target) throw new KizuError('missing <path>:<line>', { hint: 'e.g. git kizu scar src/app.ts:42 --kind ask' });
  const kind = i.kind ?? 'ask';
  if (!(KINDS as readonly string[]).includes(kind)) {
    throw new KizuError(`unknown scar kind "${kind}"`, { hint: `use one of: ${KINDS.join(', ')}` });
  }
  const { file, line } = parseLocation(i.target);
  const ctx = await repoContext(i.cwd);
  let body: string;
  if (i.message !== undefined) body = i.message;
  else if (kind === 'free') throw new KizuError('a free scar needs a body', { hint: 'add -m "<what the agent should do>"' });
  else body = ctx.config.scar.bodies[kind as 'ask' | 'reject'];
  if (body.replace(/\s+/g, '') === '') throw new KizuError('the scar body is empty', { hint: 'give a body with -m "<text>"' });
  const r = await writeScar({ root: ctx.root, cwd: i.cwd, file, line: line!, kind, body, syntaxOverrides: ctx.config.scar.syntax });
  if (r.warning) i.reporter.warn(r.warning);
  if (r.noop) {
    i.reporter.log(`unchanged: ${r.rel}:${r.scarLine} already holds this scar`);
    return EXIT.OK;
  }
  await recordScar(ctx.gitDir, { rel: r.rel, line: r.scarLine, text: r.text, time: new Date().toISOString() });
  i.reporter.log(`scarred ${r.rel}:${r.scarLine}  ${r.text.trim()}`);
  return EXIT.OK;
}
