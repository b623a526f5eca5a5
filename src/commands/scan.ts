/** `git kizu scan [--all | --staged] [--json] [paths...]`. */
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { pc } from '../output.js';
import { repoContext } from '../context.js';
import { scanRepo, type ScanMode } from '../scars/scan.js';

export interface ScanCommandInput {
  cwd: string;
  mode: ScanMode;
  json: boolean;
  /** Paths relative to cwd (files or directories) limiting the scan. */
  paths: string[];
  reporter: Reporter;
}

/**
 * Prints scars as `path:line  [kind]  body` grouped by file (sorted by path, then line), or
 * with `json` a JSON array of `{path, line, kind, body}`. Skipped files go to stderr.
 * @returns 0 if no scars, 1 if some.
 * @throws KizuError (exit 2) outside a repo, for paths outside it, or on git failure.
 */
export async function scanCommand(i: ScanCommandInput): Promise<number> {
  const ctx = await repoContext(i.cwd);
  const paths = i.paths.map((p) => {
    const rel = path.relative(ctx.root, path.resolve(i.cwd, p));
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new KizuError(`${p}: path is outside the repository ${ctx.root}`, { hint: 'name paths inside the working tree' });
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  });
  const res = await scanRepo({ root: ctx.root, mode: i.mode, paths, exclude: ctx.config.scan.exclude, maxFileBytes: ctx.config.scan.maxFileBytes });
  for (const s of res.skipped) i.reporter.warn(`skipped ${s.path}: ${s.reason}`);
  if (i.json) {
    i.reporter.log(JSON.stringify(res.scars.map((s) => ({ path: s.path, line: s.line, kind: s.kind, body: s.body }))));
  } else {
    let last = '';
    for (const s of res.scars) {
      if (last && s.path !== last) i.reporter.log('');
      last = s.path;
      i.reporter.log(`${pc.bold(`${s.path}:${s.line}`)}  ${pc.cyan(`[${s.kind}]`)}  ${s.body}`);
    }
  }
  return res.scars.length ? EXIT.FOUND : EXIT.OK;
}
