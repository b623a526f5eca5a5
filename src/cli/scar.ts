/** `git kizu scar <path>:<line> [--kind] [-m]` and `git kizu scar --undo`. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { printable } from '../printable.js';
import { repoContext } from './context.js';
import { pathArg, unquotePathArg } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { git } from '../git/run.js';
import type { KizuConfig } from '../config/config.js';
import { KINDS } from '../scars/format.js';
import { parseLocation, addScar, undoLastScar } from '../scars/insert.js';

export interface ScarCommandInput {
  cwd: string;
  /** `<path>:<line>` (required unless undo). */
  target?: string;
  /** ask | reject | free (default ask). */
  kind?: string;
  /** Body; required for free, overrides the canned body otherwise. */
  message?: string;
  undo?: boolean;
  /**
   * When the caller read the file the line is counted in (ms since the epoch; default: when
   * this process started). Scars and rewrites recorded in the file after it move the line
   * (scars/insert.ts addScar); a process that writes more than once (`git kizu review`)
   * passes the time it listed the hunk, so its own earlier writes do not move the line again.
   */
  seenAt?: number;
  /**
   * Who writes it: null for the reviewer; `agent:<name>` inside an agent's session
   * (agents/session-env.ts `by`, from the entry): the scar is then recorded as the agent's and
   * shown to agents as quoted data, never as the reviewer's (provenance/ledger.ts).
   */
  by: string | null;
  reporter: Reporter;
}

/**
 * Writes one scar (or undoes the last one) and reports it: `scarred <path>:<line>  <scar>`,
 * `unchanged: <path>:<line> already holds this scar`, or `removed scar <path>:<line>  <scar>`.
 * Warns (stderr) when the scar is written where `git kizu scan` will not report it: the
 * file is ignored by git, matches `scan.exclude`, or is larger than `scan.maxFileBytes`.
 * @returns exit code 0.
 * @throws KizuError: exit 2 for bad input (unknown kind, free without -m, empty body, a
 *   file name without `:<line>`, target refusals from addScar); exit 1 when --undo is
 *   refused.
 */
export async function scarCommand(i: ScarCommandInput): Promise<number> {
  if (i.undo) {
    if (i.target) throw new KizuError('--undo takes no <path>:<line>', { hint: 'run git kizu scar --undo alone' });
    const ctx = await repoContext(i.cwd);
    const r = await undoLastScar(ctx.root, ctx.gitDir);
    i.reporter.log(`removed scar ${pathQuoter(ctx.root)(r.rel)}:${r.line}  ${printable(r.text.trim())}`);
    return EXIT.OK;
  }
  if (!i.target) throw new KizuError('missing <path>:<line>', { hint: 'e.g. git kizu scar src/app.ts:42 --kind ask' });
  const kind = i.kind ?? 'ask';
  if (!(KINDS as readonly string[]).includes(kind)) {
    throw new KizuError(`unknown scar kind "${kind}"`, { hint: `use one of: ${KINDS.join(', ')}` });
  }
  const named = (p: string) => existsSync(path.resolve(i.cwd, p));
  const { file, line } = parseLocation(i.target);
  // `a:3` where no `a` exists but a file named `a:3` does: the line is what is missing.
  const whole = unquotePathArg(i.target);
  if (!named(file) && named(whole)) {
    const q = pathQuoter(i.cwd);
    throw new KizuError(`${q(whole)}: names a file, but no line (${q(file)} does not exist)`, { hint: `add the line after the name: git kizu scar ${pathArg(whole, ':<line>')}` });
  }
  const ctx = await repoContext(i.cwd);
  let body: string;
  if (i.message !== undefined) body = i.message;
  else if (kind === 'free') throw new KizuError('a free scar needs a body', { hint: 'add -m "<what the agent should do>"' });
  else body = ctx.config.scar.bodies[kind as 'ask' | 'reject'];
  if (body.replace(/\s+/g, '') === '') throw new KizuError('the scar body is empty', { hint: 'give a body with -m "<text>"' });
  const r = await addScar(ctx.gitDir, { root: ctx.root, cwd: i.cwd, file, line: line!, kind, body, syntaxOverrides: ctx.config.scar.syntax, seenAt: i.seenAt, by: i.by });
  if (r.warning) i.reporter.warn(r.warning);
  const q = pathQuoter(ctx.root);
  const unseen = await unseenReason(ctx.root, r.realRel, ctx.config);
  if (unseen) i.reporter.warn(`${q(r.realRel)}: git kizu scan will not report this scar (${unseen})`);
  if (r.noop) {
    i.reporter.log(`unchanged: ${q(r.rel)}:${r.scarLine} already holds this scar`);
    return EXIT.OK;
  }
  i.reporter.log(`scarred ${q(r.rel)}:${r.scarLine}  ${printable(r.text.trim())}`);
  return EXIT.OK;
}

/**
 * Why `git kizu scan` would not read root-relative `rel`, or null if it would: ignored by
 * git (`git check-ignore`, tracked files are never ignored) or matching `scan.exclude`. (A file
 * over `scan.maxFileBytes` is still searched, by the line rule: scars/scan.ts.)
 */
async function unseenReason(root: string, rel: string, config: KizuConfig): Promise<string | null> {
  const ign = await git(['check-ignore', '-q', '--', rel], { cwd: root, okStatus: [0, 1, 128] });
  if (ign.status === 0) return 'the file is ignored by git';
  if (config.scan.exclude.length) {
    const picomatch = (await import('picomatch')).default;
    if (picomatch(config.scan.exclude, { dot: true })(rel)) return 'the file matches scan.exclude';
  }
  return null;
}
