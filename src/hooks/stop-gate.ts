/**
 * Stop / SubagentStop handler: blocks the agent's stop while scars remain in the default
 * scan scope (changed vs HEAD, staged, untracked-not-ignored).
 * Output (Claude Code hooks reference, "Stop/SubagentStop decision control"):
 * `{"decision":"block","reason":"..."}` to keep the agent working, `{"systemMessage":"..."}`
 * to let it stop while telling the user what is left, or nothing.
 *
 * Bounded retries: the handler keeps blocking while the unresolved set changes (progress).
 * After `stop.maxBlocks` consecutive blocks with the same unresolved set in one session it
 * allows the stop. A stop with `stop_hook_active: false` starts a new count (a new turn).
 * State: `<git-dir>/kizu/stop/<session_id>.json` = `{"key": <sha1 of the set>, "streak": n}`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findRootFast, gitDirFast } from '../git/repo.js';
import { stopStateFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';
import { loadConfigLenient } from '../config/config.js';
import { scanRepo } from '../scars/scan.js';
import type { HookPayload } from '../agents/claude/payload.js';
import { scarLines, itemLines, PROTOCOL } from './text.js';
import { hunkReviewOrNone } from './hunk-review.js';
import type { QueueItem } from '../queue/item.js';
import { QUEUE_FILE } from '../queue/paths.js';

interface StopState {
  key: string;
  streak: number;
}

function stateFile(gitDir: string, session: string): string {
  return stopStateFile(gitDir, session);
}

function readState(file: string): StopState | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as StopState;
    return typeof v.key === 'string' && Number.isInteger(v.streak) ? v : null;
  } catch {
    return null;
  }
}

function writeState(file: string, s: StopState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  replaceFileSync(file, JSON.stringify(s) + '\n');
}

/**
 * @returns the JSON object to print, or null to print nothing (allow the stop silently).
 * @throws only on internal errors (the caller turns them into exit 0 + one stderr line).
 */
export async function stop(p: HookPayload, env: NodeJS.ProcessEnv, warn: (line: string) => void = () => {}): Promise<object | null> {
  const base = typeof p.cwd === 'string' && p.cwd ? p.cwd : env.CLAUDE_PROJECT_DIR || process.cwd();
  const root = findRootFast(base);
  if (!root) throw new Error(`not inside a git repository: ${base}`);
  // A config mistake must not switch the gate off: the valid keys and defaults are used, and
  // the user is told (systemMessage) at every stop until it is fixed.
  const { config, problem } = await loadConfigLenient(root);
  if (problem) warn(problem);
  // Problems the user must see (the agent is not told): a config mistake, an unreadable
  // review queue. Shown as a systemMessage at every stop until fixed.
  const problems = problem ? [problem] : [];
  const note = (o: Record<string, unknown> | null): object | null =>
    problems.length ? { ...(o ?? {}), systemMessage: [...(o?.systemMessage ? [o.systemMessage] : []), ...problems].join('\n') } : o;
  const isSubagent = p.hook_event_name === 'SubagentStop' || typeof p.agent_id === 'string';
  if (isSubagent && !config.stop.subagents) return note(null);
  const gitDir = gitDirFast(root) ?? path.join(root, '.git');
  const session = typeof p.session_id === 'string' ? p.session_id : 'unknown';
  const file = stateFile(gitDir, isSubagent ? `${session}-${p.agent_id ?? 'subagent'}` : session);

  const [{ scars }, items, review] = await Promise.all([
    scanRepo({ root, mode: 'default', exclude: config.scan.exclude, maxFileBytes: config.scan.maxFileBytes }),
    openQueueItems(root, gitDir, (line) => (warn(line), problems.push(line))),
    hunkReviewOrNone(root, config.stop.requireReview, warn),
  ]);
  const { rejected, unreviewed } = review;
  if (!scars.length && !items.length && !rejected.length && !unreviewed.length) {
    rmSync(file, { force: true });
    return note(null);
  }
  const key = createHash('sha1')
    .update(
      [
        ...scars.map((s) => `s\0${s.path}\0${s.kind}\0${s.body}`),
        ...items.map((i) => `q\0${i.id}`),
        ...rejected.map((h) => `r\0${h.id}`),
        ...unreviewed.map((h) => `u\0${h.id}`),
      ]
        .sort()
        .join('\n'),
    )
    .digest('hex');
  const prev = p.stop_hook_active === true ? readState(file) : null;
  const streak = prev && prev.key === key ? prev.streak + 1 : 1;
  const max = config.stop.maxBlocks;
  const parts: [number, string][] = [
    [scars.length, 'scar'],
    [items.length, 'queue item'],
    [rejected.length, 'rejected hunk'],
    [unreviewed.length, 'unreviewed hunk'],
  ];
  const left = joinAnd(parts.filter(([n]) => n).map(([n, w]) => count(n, w)));
  const listing = [
    scars.length ? scarLines(scars) : '',
    items.length ? itemLines(items) : '',
    review.rejectedText,
    review.unreviewedText,
  ]
    .filter(Boolean)
    .join('\n');
  if (streak > max) {
    rmSync(file, { force: true });
    return note({
      systemMessage:
        `git-kizu: allowing the stop after ${max} block${max === 1 ? '' : 's'} without progress; ` +
        `${left} still unresolved:\n${listing}\n` +
        (scars.length
          ? 'Run `git kizu scan` to see them; the git pre-commit hook refuses them if staged.'
          : items.length
            ? 'Run `git kizu queue list` to see them.'
            : 'Run `git kizu hunks` to see them.'),
    });
  }
  writeState(file, { key, streak });
  const n = scars.length;
  const what: string[] = [];
  if (n) what.push(`${n} scar${n === 1 ? '' : 's'} that ${n === 1 ? 'is' : 'are'} still unresolved`);
  if (items.length) what.push(`${count(items.length, 'open item')} in ${QUEUE_FILE}`);
  if (rejected.length) what.push(count(rejected.length, 'rejected change'));
  if (unreviewed.length) what.push(`${count(unreviewed.length, 'change')} not reviewed yet`);
  const head =
    !n && items.length && !rejected.length && !unreviewed.length
      ? `git-kizu: a human reviewer queued ${count(items.length, 'open item')} in ${QUEUE_FILE}`
      : `git-kizu: a human reviewer left ${joinAnd(what)}`;
  const total = scars.length + items.length + rejected.length + unreviewed.length;
  return note({
    decision: 'block',
    reason:
      `${head}. Resolve ${total === 1 ? 'it' : 'each one'} before you stop:\n${listing}` +
      (n ? `\n${PROTOCOL}` : '') +
      (streak > 1 ? `\n(Block ${streak} of ${max} without progress; after that the stop is allowed and the user is told.)` : ''),
  });
}

function joinAnd(xs: string[]): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/** Unchecked queue items; a queue that cannot be read is reported and treated as empty. */
async function openQueueItems(root: string, gitDir: string, warn: (line: string) => void): Promise<QueueItem[]> {
  try {
    const { readQueue } = await import('../queue/read.js');
    return (await readQueue(root, gitDir)).items.filter((i) => !i.checked);
  } catch (e) {
    warn(`git-kizu: review queue not read: ${(e as Error).message.split('\n')[0]}`);
    return [];
  }
}
