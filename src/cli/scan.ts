/** `git kizu scan [--all | --staged] [--json] [paths...]`. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { git, splitZ } from '../git/run.js';
import { KizuError, EXIT } from '../errors.js';
import type { Reporter } from '../output.js';
import { pc } from '../output.js';
import { printable } from '../printable.js';
import { shownOrigin, splitByOrigin } from '../provenance/classify.js';
import { repoContext } from './context.js';
import { quoteCStyle, unquotePathArg } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { scanRepo, type ScanMode } from '../scars/scan.js';
import { readQueue } from '../queue/read.js';
import { QUEUE_FILE } from '../queue/paths.js';
import type { QueueItem } from '../queue/item.js';

export interface ScanCommandInput {
  cwd: string;
  mode: ScanMode;
  json: boolean;
  /** Paths relative to cwd (files or directories) limiting the scan. */
  paths: string[];
  /**
   * Say where each scar and item came from: `origin` in JSON (null for one written through
   * git kizu here, else provenance/origin.ts's label), `(found: <origin>)` in text.
   */
  origin?: boolean;
  reporter: Reporter;
}

/**
 * Prints scars as `path:line  [kind]  body` (paths quoted as git quotes them) grouped by file (sorted by path, then line), then
 * open review-queue items (`[id]  path:line  (kind)  text`, not with `staged`); or with `json`
 * one JSON array: scars as `{path, line, kind, body}`, then queue items as
 * `{path, line, kind, body, queue}` (`queue` = the item id; `path`, `line`, `kind` may be
 * null). Skipped files go to stderr.
 * `paths` are relative to `cwd`, matched literally (no globs or pathspec magic).
 * @returns 0 if no scars and no open items, 1 if some; 2 (after listing the scars, with a
 *   warning) when the review queue file cannot be read.
 * @throws KizuError (exit 2) outside a repo, for paths outside it or naming nothing in the
 *   working tree or the index, or on git failure.
 */
export async function scanCommand(i: ScanCommandInput): Promise<number> {
  const ctx = await repoContext(i.cwd);
  const given = i.paths.map(unquotePathArg);
  const paths = given.map((p) => {
    const rel = path.relative(ctx.root, path.resolve(i.cwd, p));
    if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) throw new KizuError(`${quoteCStyle(p)}: path is outside the repository ${quoteCStyle(ctx.root)}`, { hint: 'name paths inside the working tree' });
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  });
  // A path that names nothing (a typo) would otherwise scan nothing and exit 0.
  const missing = paths.filter((p) => !existsSync(path.join(ctx.root, p)));
  if (missing.length) {
    const known = new Set(
      splitZ((await git(['ls-files', '-z', '--full-name', '--', ...missing], { cwd: ctx.root, env: { GIT_LITERAL_PATHSPECS: '1' } })).stdout),
    );
    const unknown = missing.filter((p) => ![...known].some((k) => k === p || k.startsWith(p + '/')));
    if (unknown.length) {
      const named = unknown.map((p) => given[paths.indexOf(p)]);
      throw new KizuError(`no such path in the working tree or the index: ${named.map((p) => quoteCStyle(p)).join(', ')}`, { hint: 'paths are relative to the current directory' });
    }
  }
  const res = await scanRepo({ root: ctx.root, mode: i.mode, paths, exclude: ctx.config.scan.exclude, maxFileBytes: ctx.config.scan.maxFileBytes });
  const q = pathQuoter(ctx.root);
  for (const s of res.skipped) i.reporter.warn(`skipped ${q(s.path)}: ${s.reason}`);
  // Changes git does not show (assume-unchanged, skip-worktree: scanned anyway; names not valid UTF-8: not readable).
  if (res.hidden.length || res.unreadable.length || res.rules.length) {
    const { hiddenFindingLines } = await import('../hunks/hidden-lines.js');
    for (const l of hiddenFindingLines({ changes: res.hidden, unreadable: res.unreadable, rules: res.rules }, q)) i.reporter.warn(l);
  }
  // Open review-queue items are part of the review state too (not for --staged: the index
  // holds no queue). With paths, only items anchored inside them.
  let items: QueueItem[] = [];
  // An unreadable queue must not hide the scars: they are listed, the problem is reported
  // last and the exit code is 2 (as grep does with a file it cannot read).
  let queueError: KizuError | null = null;
  if (i.mode !== 'staged') {
    const inside = (p: string) => !paths.length || paths.some((q) => q === '.' || p === q || p.startsWith(q + '/'));
    try {
      items = (await readQueue(ctx.root, ctx.gitDir)).items.filter((x) => !x.checked && (paths.length ? !!x.anchor && inside(x.anchor.path) : true));
    } catch (e) {
      if (!(e instanceof KizuError)) throw e;
      queueError = e;
    }
  }
  // Origins (--origin): the agent's /kizu command reads them to tell its reviewer's remarks from found ones.
  const found = i.origin ? (await splitByOrigin(ctx.root, ctx.gitDir, res.scars, items, QUEUE_FILE)).found : null;
  const scarOrigin = new Map(found?.scars.map((s) => [`${s.path}\0${s.line}`, s.origin]));
  const itemOrigin = new Map(found?.items.map((x) => [x.id, x.origin]));
  const so = (s: { path: string; line: number }) => scarOrigin.get(`${s.path}\0${s.line}`) ?? null;
  const io = (x: QueueItem) => itemOrigin.get(x.id) ?? null;
  const from = (o: string | null) => (o ? `  ${pc.yellow(`(${printable(shownOrigin(o))})`)}` : '');
  if (i.json) {
    i.reporter.log(
      JSON.stringify([
        ...res.scars.map((s) => ({ path: s.path, line: s.line, kind: s.kind, body: s.body, ...(found ? { origin: so(s) } : {}) })),
        ...items.map((x) => ({ path: x.anchor?.path ?? null, line: x.anchor?.line ?? null, kind: x.kind, body: x.text, queue: x.id, ...(found ? { origin: io(x) } : {}) })),
      ]),
    );
  } else {
    let last = '';
    for (const s of res.scars) {
      if (last && s.path !== last) i.reporter.log('');
      last = s.path;
      i.reporter.log(`${pc.bold(`${q(s.path)}:${s.line}`)}  ${pc.cyan(`[${s.kind}]`)}  ${printable(s.body)}${from(so(s))}`);
    }
    if (items.length) {
      if (res.scars.length) i.reporter.log('');
      i.reporter.log(pc.bold(`queue (${QUEUE_FILE}):`));
      for (const x of items) i.reporter.log(`${pc.bold(`[${printable(x.id)}]`)}${x.anchor ? `  ${q(x.anchor.path)}:${x.anchor.line}` : ''}${x.kind ? `  ${pc.cyan(`(${x.kind})`)}` : ''}  ${printable(x.text)}${from(io(x))}`);
    }
  }
  if (queueError) {
    i.reporter.warn(`review queue not read: ${printable(queueError.message)}${queueError.hint ? ` (${printable(queueError.hint)})` : ''}`);
    return EXIT.ERROR;
  }
  return res.scars.length || items.length ? EXIT.FOUND : EXIT.OK;
}
