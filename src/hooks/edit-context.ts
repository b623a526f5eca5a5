/**
 * PostToolUse handler: after Write/Edit/NotebookEdit, tells the agent about scars in the
 * file(s) it just edited. Reads only those files (no git process is started).
 * Output (Claude Code hooks reference, "PostToolUse decision control"):
 * `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"..."}}`.
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { findRootFast, gitDirFast, commonDirFast } from '../git/repo.js';
import { refFast } from '../git/refs.js';
import { MARKS_REF } from '../git/layout.js';
import { QUEUE_FILE } from '../queue/paths.js';
import type { QueueItem } from '../queue/item.js';
import { loadConfigLenient, type KizuConfig } from '../config/config.js';
import { scanBuffer, type Scar } from '../scars/parse.js';
import { editedPaths, type HookPayload } from '../agents/claude/payload.js';
import { scarLines, itemLines, PROTOCOL } from './text.js';

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
  const rejected: string[] = [];
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
    if (!common || refFast(common, MARKS_REF) !== null) {
      const review = await (await import('./hunk-review.js')).hunkReviewOrNone(root, false, warn, [rel]);
      if (review.rejectedText) rejected.push(review.rejectedText);
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
  if (!found.length && !queued.length && !rejected.length) return null;
  const parts: string[] = [];
  const n = found.length;
  if (n) {
    parts.push(
      `git-kizu: the file you just edited holds ${n} review scar${n === 1 ? '' : 's'} left by a human reviewer:\n` +
        `${scarLines(found)}\n${PROTOCOL} Resolve ${n === 1 ? 'it' : 'them'} before you finish your turn.`,
    );
  }
  if (queued.length) {
    const m = queued.length;
    parts.push(
      `git-kizu: ${m} open review item${m === 1 ? '' : 's'} in ${QUEUE_FILE} ${m === 1 ? 'is' : 'are'} about the file you just edited:\n` +
        `${itemLines(queued)}`,
    );
  }
  if (rejected.length) {
    parts.push(`git-kizu: a reviewer rejected ${rejected.length === 1 && !rejected[0].includes('\n') ? 'a change' : 'changes'} in the file you just edited:\n${rejected.join('\n')}`);
  }
  return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: parts.join('\n\n') } };
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
    warn(`git-kizu: review queue not read: ${(e as Error).message.split('\n')[0]}`);
    return [];
  }
}
