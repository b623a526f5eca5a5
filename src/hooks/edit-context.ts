/**
 * PostToolUse handler: after Write/Edit/NotebookEdit, tells the agent about scars in the
 * file(s) it just edited. Reads only those files (no git process is started).
 * Output (Claude Code hooks reference, "PostToolUse decision control"):
 * `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"..."}}`.
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { findRootFast, gitDirFast, commonDirFast, refFast } from '../git/repo.js';
import { QUEUE_FILE } from '../queue/paths.js';
import type { QueueItem } from '../queue/item.js';
import type { HunkReview } from './hunk-review.js';
import { loadConfigLenient, type KizuConfig } from '../config/config.js';
import { scanBuffer, type Scar } from '../scars/parse.js';
import { editedPaths, type HookPayload } from '../agents/claude/payload.js';
import { editContext, queueNotRead } from './text.js';

/**
 * @returns the JSON object to print, or null to print nothing.
 * @throws only on internal errors (the caller turns them into exit 0 + one stderr line).
 */
export async function postToolUse(p: HookPayload, env: NodeJS.ProcessEnv, warnLine: (line: string) => void = () => {}): Promise<object | null> {
  // Each file is checked on its own; a repository-wide problem (corrupt marks ref, unreadable
  // queue) would otherwise be reported once per edited file. One line per distinct problem.
  const warned = new Set<string>();
  const warn = (line: string) => {
    if (!warned.has(line)) (warned.add(line), warnLine(line));
  };
  const base = typeof p.cwd === 'string' && p.cwd ? p.cwd : env.CLAUDE_PROJECT_DIR || process.cwd();
  const files = editedPaths(p);
  if (!files.length) return null;
  const found: Scar[] = [];
  const queued: QueueItem[] = [];
  const reviews: HunkReview[] = [];
  const configs = new Map<string, KizuConfig>();
  for (const f of files) {
    const abs = path.resolve(base, f);
    const root = findRootFast(path.dirname(abs));
    if (!root) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel.startsWith('..') || rel === '.git' || rel.startsWith('.git/')) continue;
    queued.push(...(await queueItemsFor(root, rel, warn)));
    // Rejected hunks need refs/kizu/marks: without it (the common case) load nothing more.
    const common = commonDirFast(root);
    if (!common || refFast(common, 'refs/kizu/marks') !== null) {
      const review = await (await import('./hunk-review.js')).hunkReviewOrNone(root, false, warn, [rel]);
      if (review.rejected.length) reviews.push(review);
    }
    let cfg = configs.get(root);
    if (!cfg) {
      // A config mistake must not hide scars from the agent: valid keys and defaults are used.
      const { config, problem } = await loadConfigLenient(root);
      if (problem) warn(problem);
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
    found.push(...scanBuffer(rel, await readFile(abs)));
  }
  if (!found.length && !queued.length && !reviews.length) return null;
  return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: editContext(found, queued, reviews) } };
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
