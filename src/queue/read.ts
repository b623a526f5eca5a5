/**
 * Reading the queue file, with parse results cached in `<git-dir>/kizu/queue-cache.json`
 * keyed by a SHA-1 of the file text, so hooks parse a hand-edited file once, not on every
 * stop. Kept free of writers and locks: the Stop and PostToolUse hooks load only this.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { QUEUE_FILE } from './paths.js';
import type { QueueItem } from './item.js';

const CACHE_VERSION = 1;

export interface QueueState {
  /** Absolute path of the queue file. */
  file: string;
  /** Whether the file exists. */
  exists: boolean;
  /** The file's text ('' if missing). */
  text: string;
  items: QueueItem[];
}

function cachePath(gitDir: string): string {
  return path.join(gitDir, 'kizu', 'queue-cache.json');
}

function sha1(s: string | Buffer): string {
  return createHash('sha1').update(s).digest('hex');
}

/**
 * Reads and parses the queue of the repository at `root` (cache first).
 * @throws KizuError (exit 2) if the file is not valid UTF-8 or an item cannot be located.
 */
export async function readQueue(root: string, gitDir: string): Promise<QueueState> {
  const file = path.join(root, QUEUE_FILE);
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file, exists: false, text: '', items: [] };
    throw e;
  }
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) {
    throw new KizuError(`${QUEUE_FILE} is not valid UTF-8`, { hint: 'save the file as UTF-8, or move it aside and let git kizu queue add create a new one' });
  }
  return { file, exists: true, text, items: await itemsOf(text, gitDir) };
}

/** Items of `text`, from the cache when its hash matches, else parsed (and cached). */
export async function itemsOf(text: string, gitDir: string): Promise<QueueItem[]> {
  // Cheap answer for a queue with no task items at all (no parser needed).
  if (!/\[[ xX]\]/.test(text)) return [];
  const hash = sha1(text);
  const cp = cachePath(gitDir);
  try {
    const c = JSON.parse(readFileSync(cp, 'utf8')) as { v: number; hash: string; items: QueueItem[] };
    if (c.v === CACHE_VERSION && c.hash === hash && Array.isArray(c.items)) return c.items;
  } catch {
    /* no cache */
  }
  const { parseQueue } = await import('./parse.js');
  const items = await parseQueue(text);
  try {
    mkdirSync(path.dirname(cp), { recursive: true });
    const tmp = `${cp}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: CACHE_VERSION, hash, items }));
    renameSync(tmp, cp);
  } catch {
    /* the cache is only an optimisation */
  }
  return items;
}

