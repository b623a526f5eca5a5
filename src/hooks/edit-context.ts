/**
 * `post-tool-use` handler: after the agent edited files, tells it (as context) about the
 * scars in them, the open review queue items about them and their hunks a reviewer
 * rejected. Reads only those files (no git process is started unless a hunk of them is
 * marked rejected).
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { findRootFast, gitDirFast, commonDirFast } from '../git/repo.js';
import { refFast } from '../git/refs.js';
import { MARKS_REF } from '../git/layout.js';
import { QUEUE_FILE } from '../queue/paths.js';
import type { QueueItem } from '../queue/item.js';
import type { HunkReview } from './hunk-review.js';
import { loadConfigLenient, type KizuConfig } from '../config/config.js';
import { scanBuffer, type Scar } from '../scars/parse.js';
import { NO_ANSWER, type EditInput, type HookAnswer } from './contract.js';
import { editContext, queueNotRead, untrustedConfigMessage, type FoundRemarks } from './text.js';

/**
 * @param warnLine called with each distinct problem met on the way (config, queue, marks),
 *   once each, for stderr.
 * @returns context for the agent, or no answer when there is nothing to say.
 * @throws only on internal errors (the caller turns them into exit 0 + one stderr line).
 */
export async function postToolUse(input: EditInput, warnLine: (line: string) => void = () => {}): Promise<HookAnswer> {
  // Each file is checked on its own; a repository-wide problem (corrupt marks ref, unreadable
  // queue) would otherwise be reported once per edited file. One line per distinct problem.
  const warned = new Set<string>();
  const warn = (line: string) => {
    if (!warned.has(line)) (warned.add(line), warnLine(line));
  };
  const files = input.paths;
  if (!files.length) return NO_ANSWER;
  const found: Scar[] = [];
  const queued: QueueItem[] = [];
  const reviews: HunkReview[] = [];
  const configs = new Map<string, KizuConfig>();
  // What was found, per repository (each has its own ledger of what git kizu wrote).
  const perRoot = new Map<string, { scars: Scar[]; items: QueueItem[] }>();
  const of = (root: string) => perRoot.get(root) ?? (perRoot.set(root, { scars: [], items: [] }), perRoot.get(root)!);
  for (const f of files) {
    const abs = path.resolve(input.cwd, f);
    const root = findRootFast(path.dirname(abs));
    if (!root) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel.startsWith('..') || rel === '.git' || rel.startsWith('.git/')) continue;
    const items = await queueItemsFor(root, rel, warn);
    queued.push(...items);
    of(root).items.push(...items);
    // Rejected hunks need refs/kizu/marks: without it (the common case) load nothing more.
    const common = commonDirFast(root);
    if (!common || refFast(common, MARKS_REF) !== null) {
      const review = await (await import('./hunk-review.js')).hunkReviewOrNone(root, false, warn, [rel]);
      if (review.rejected.length || review.laundered.length) reviews.push(review);
    }
    let cfg = configs.get(root);
    if (!cfg) {
      // A config mistake must not hide scars from the agent: valid keys and defaults are used.
      const { config, problem, untrusted } = await loadConfigLenient(root);
      if (problem) warn(problem);
      if (untrusted) warn(untrustedConfigMessage(untrusted));
      configs.set(root, (cfg = config));
    }
    if (cfg.scan.exclude.length && (await import('picomatch')).default(cfg.scan.exclude, { dot: true })(rel)) continue;
    let st;
    try {
      st = await lstat(abs);
    } catch {
      continue; // deleted
    }
    if (!st.isFile() || st.size > cfg.scan.maxFileBytes) continue;
    const scars = await scanBuffer(rel, await readFile(abs));
    found.push(...scars);
    of(root).scars.push(...scars);
  }
  if (!found.length && !queued.length && !reviews.length) return NO_ANSWER;
  // The reviewer's scars and items (written through git kizu here) are handed over as orders,
  // the others as quoted data with their origin (each repository's own ledger).
  const mine: { scars: Scar[]; items: QueueItem[] } = { scars: [], items: [] };
  const others: FoundRemarks = { scars: [], items: [] };
  const { splitByOrigin } = await import('../provenance/classify.js');
  for (const [root, part] of perRoot) {
    const s = await splitByOrigin(root, gitDirFast(root) ?? path.join(root, '.git'), part.scars, part.items, QUEUE_FILE);
    mine.scars.push(...s.scars);
    mine.items.push(...s.items);
    others.scars.push(...s.found.scars);
    others.items.push(...s.found.items);
  }
  return { kind: 'context', context: editContext(mine.scars, mine.items, reviews, others) };
}

/**
 * Open queue items anchored at `rel`. The queue file is only parsed (or its cache read) if
 * its text mentions `rel` at all, so edits to other files cost one small read.
 */
async function queueItemsFor(root: string, rel: string, warn: (line: string) => void): Promise<QueueItem[]> {
  let text: string;
  try {
    text = readFileSync(path.join(root, QUEUE_FILE), 'utf8');
  } catch {
    return [];
  }
  if (!text.includes(`\`${rel}:`)) return [];
  try {
    const { itemsOf } = await import('../queue/read.js');
    const items = await itemsOf(text, gitDirFast(root) ?? path.join(root, '.git'));
    return items.filter((i) => !i.checked && i.anchor?.path === rel);
  } catch (e) {
    warn(queueNotRead(e));
    return [];
  }
}
