/**
 * The ledger of what git kizu wrote on this machine: one line per scar or queue item that
 * `git kizu scar`, `review`, `revert -m` (scars/insert.ts) and `queue add` (queue/edit.ts)
 * wrote, holding the SHA-256 of its key ({@link scarKey}, {@link itemKey}), in
 * `<git-dir>/kizu/written` (git/layout.ts {@link writtenLedgerFile}). A line is the hash
 * alone when the reviewer wrote the remark, and the hash, one space and the agent
 * (`<hash> agent:claude`, agents/session-env.ts `by`) when the command ran inside an
 * agent's session. The hooks hand the agent a scar or item as the reviewer's only when its
 * hash stands alone in the ledger; one an agent wrote, and any other (committed, checked
 * out, pulled, typed into a file), is quoted to it as data with its origin
 * (provenance/origin.ts, classify.ts). A git-kizu that predates the agent's lines reads
 * them as found: the safe direction.
 *
 * Trust: the agent can edit this file. `git kizu scar`/`queue add` run from its session
 * record its remarks as its own (the session variables are a label: README "Threat model"
 * says what is not promised). Forging the file by hand only changes how a remark is labelled
 * (text the agent wrote becomes "the reviewer's" to itself); it never lets the agent
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

/** How an agent is written in the ledger and in marks (`agent:claude`, `agent:other`). */
const AGENT_BY = /^agent:[a-z][a-z0-9_-]{0,31}$/;

/**
 * Who wrote a remark through git kizu: null for the reviewer (no agent's session), else the
 * agent whose session the command ran in, as agents/session-env.ts writes it (`agent:<name>`).
 * Commands pass it down from the entry (src/cli/program.ts); capabilities never read the
 * environment for it.
 */
export type WrittenBy = string | null;

/**
 * Appends `keys` to the ledger of `gitDir` (one `O_APPEND` write, never through a symbolic
 * link: `O_NOFOLLOW` where the platform has it, else an lstat first), as the reviewer's when
 * `by` is null, else as the agent's (a `by` that is not `agent:<name>` is written
 * `agent:other`: never the reviewer's). Past {@link MAX_BYTES} the file is rewritten
 * (atomically) with its newest {@link KEEP} lines. A failure is swallowed: the remark was
 * written; it is only labelled as found data to the agent then.
 */
export function recordWritten(gitDir: string, keys: string[], by: WrittenBy): void {
  if (!keys.length) return;
  const tail = by == null ? '' : ` ${AGENT_BY.test(by) ? by : 'agent:other'}`;
  const file = writtenLedgerFile(gitDir);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const st = lstatOrNull(file);
    if (st && !st.isFile()) return;
    const nofollow = constants.O_NOFOLLOW ?? 0;
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | nofollow, 0o644);
    try {
      writeSync(fd, keys.map((k) => digest(k) + tail + '\n').join(''));
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

/** What the ledger of one git dir holds. */
export interface Ledger {
  /** True when the reviewer wrote `key` through git kizu here (a line of its hash alone). */
  has(key: string): boolean;
  /**
   * The agent (`agent:<name>`) that wrote `key` through git kizu from its session here, when
   * the reviewer never wrote the same key (the reviewer's own words stay the reviewer's);
   * else null. The newest such line names the agent.
   */
  agentOf(key: string): string | null;
}

/**
 * Reads the ledger of `gitDir` (a missing, unreadable or linked file is an empty ledger: every
 * remark is then labelled as found). A line that is neither a hash alone nor a hash and an
 * `agent:<name>` counts for nobody.
 */
export function readWritten(gitDir: string): Ledger {
  const reviewer = new Set<string>();
  const agents = new Map<string, string>();
  try {
    const file = writtenLedgerFile(gitDir);
    if (lstatSync(file).isFile()) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const sp = line.indexOf(' ');
        if (sp < 0) reviewer.add(line);
        else if (AGENT_BY.test(line.slice(sp + 1))) agents.set(line.slice(0, sp), line.slice(sp + 1));
      }
    }
  } catch {
    /* empty */
  }
  return {
    has: (key) => reviewer.has(digest(key)),
    agentOf: (key) => {
      const d = digest(key);
      return reviewer.has(d) ? null : (agents.get(d) ?? null);
    },
  };
}
