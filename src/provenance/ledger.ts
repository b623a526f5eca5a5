/**
 * The ledger of what git kizu wrote on this machine: one line per scar or queue item that
 * `git kizu scar`, `review`, `revert -m` (scars/insert.ts) and `queue add` (queue/edit.ts)
 * wrote, holding the SHA-256 of its key ({@link scarKey}, {@link itemKey}), in
 * `<git-dir>/kizu/written` (git/layout.ts {@link writtenLedgerFile}). The hooks hand the
 * agent a scar or item as the reviewer's only when its key is in the ledger; any other
 * (committed, checked out, pulled, typed into a file) is quoted to it as data with its
 * origin (provenance/origin.ts).
 *
 * Trust: the agent can edit this file. Forging it only changes how a remark is labelled to
 * the agent itself (text it wrote becomes "the reviewer's" to itself); it never lets the agent
 * through: the Stop gate and the pre-commit guard block on every scar and item whatever its
 * origin, and never read this file. Emptying it labels the reviewer's remarks as found data,
 * which is the safe direction.
 *
 * Kept free of git and child_process imports: the PostToolUse hook loads it.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writtenLedgerFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';

/** Past this many bytes the ledger keeps only its newest {@link KEEP} lines (about 650 KB). */
const MAX_BYTES = 1 << 20;
const KEEP = 10_000;

/** The key of a scar: its root-relative path, kind and body (as scars/parse.ts reads them back). */
export function scarKey(rel: string, kind: string, body: string): string {
  return `scar\0${rel}\0${kind}\0${body}`;
}

/**
 * The key of a queue item: its kind, anchor and text (as queue/item.ts parses them). Not its
 * id: the id says which item, not who wrote what it says.
 */
export function itemKey(i: { kind: string | null; anchor: { path: string; line: number } | null; text: string }): string {
  return `queue\0${i.kind ?? ''}\0${i.anchor ? `${i.anchor.path}:${i.anchor.line}` : ''}\0${i.text}`;
}

function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Appends `keys` to the ledger of `gitDir` (one `O_APPEND` write, never through a symbolic
 * link: `O_NOFOLLOW` where the platform has it, else an lstat first). Past {@link MAX_BYTES}
 * the file is rewritten (atomically) with its newest {@link KEEP} lines. A failure is
 * swallowed: the remark was written; it is only labelled as found data to the agent then.
 */
export function recordWritten(gitDir: string, keys: string[]): void {
  if (!keys.length) return;
  const file = writtenLedgerFile(gitDir);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const st = lstatOrNull(file);
    if (st && !st.isFile()) return;
    const nofollow = constants.O_NOFOLLOW ?? 0;
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | nofollow, 0o644);
    try {
      writeSync(fd, keys.map((k) => digest(k) + '\n').join(''));
    } finally {
      closeSync(fd);
    }
    if ((st?.size ?? 0) > MAX_BYTES) replaceFileSync(file, readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-KEEP).join('\n') + '\n');
  } catch {
    /* labelled as found data, never a failure of the command */
  }
}

function lstatOrNull(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

/** What the ledger of one git dir holds: {@link Ledger.has} tells whether a key was written through git kizu here. */
export interface Ledger {
  has(key: string): boolean;
}

/**
 * Reads the ledger of `gitDir` (a missing, unreadable or linked file is an empty ledger: every
 * remark is then labelled as found).
 */
export function readWritten(gitDir: string): Ledger {
  let hashes = new Set<string>();
  try {
    const file = writtenLedgerFile(gitDir);
    if (lstatSync(file).isFile()) hashes = new Set(readFileSync(file, 'utf8').split('\n'));
  } catch {
    /* empty */
  }
  return { has: (key) => hashes.has(digest(key)) };
}
