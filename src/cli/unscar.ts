/** `git kizu unscar <path>[:<line>]` and `git kizu unscar --all`. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { printable } from '../printable.js';
import { repoContext } from './context.js';
import { unquotePathArg } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { parseLocation, unscarFiles } from '../scars/insert.js';
import { scanRepo } from '../scars/scan.js';

export interface UnscarCommandInput {
  cwd: string;
  /** `<path>` or `<path>:<line>`. */
  target?: string;
  /** Remove every scar in tracked and untracked (not ignored) files, honouring scan.exclude. */
  all?: boolean;
  reporter: Reporter;
}

/**
 * Removes scars and reports each removed line (`removed <path>:<line>  <scar>`). A target
 * `a:3` is line 3 of `a`, or the file `a:3` when no `a` exists. With `all`, files the scan
 * skips (over `scan.maxFileBytes`) are reported on stderr.
 * @returns 0 (also when there was nothing to remove, which is reported).
 * @throws KizuError: exit 2 for bad input or file refusals; exit 1 when `path:line` names no scar.
 */
export async function unscarCommand(i: UnscarCommandInput): Promise<number> {
  if (i.all && i.target) throw new KizuError('--all takes no path', { hint: 'use either git kizu unscar --all or git kizu unscar <path>[:<line>]' });
  if (!i.all && !i.target) throw new KizuError('missing <path>[:<line>] or --all', { hint: 'e.g. git kizu unscar src/app.ts:41' });
  const ctx = await repoContext(i.cwd);
  const q = pathQuoter(ctx.root);
  let jobs: { file: string; line: number | null; cwd: string }[];
  if (i.all) {
    const res = await scanRepo({ root: ctx.root, mode: 'all', exclude: ctx.config.scan.exclude, maxFileBytes: ctx.config.scan.maxFileBytes });
    for (const s of res.skipped) i.reporter.warn(`skipped ${q(s.path)}: ${s.reason}`);
    jobs = [...new Set(res.scars.map((s) => s.path))].map((p) => ({ file: p, line: null, cwd: ctx.root }));
  } else {
    let { file, line } = parseLocation(i.target!, { lineOptional: true });
    // A file named like `a:3` (and no file `a`): the whole argument is the path.
    const whole = unquotePathArg(i.target!);
    if (line !== null && !existsSync(path.resolve(i.cwd, file)) && existsSync(path.resolve(i.cwd, whole))) {
      file = whole;
      line = null;
    }
    jobs = [{ file, line, cwd: i.cwd }];
  }
  let total = 0;
  await unscarFiles(ctx.root, ctx.gitDir, jobs, (r) => {
    for (const x of r.removed) i.reporter.log(`removed ${q(r.rel)}:${x.line}  ${printable(x.text.trim())}`);
    total += r.removed.length;
  });
  if (total === 0) i.reporter.log(i.all ? 'no scars found' : `no scars in ${path.normalize(i.target!)}`);
  return EXIT.OK;
}
