/**
 * The marks format: what `refs/kizu/marks` holds, how it is parsed, serialized and merged.
 * Pure functions only (no git, no isomorphic-git), so every caller can load this cheaply.
 *
 * Storage (format version 1):
 * - `refs/kizu/marks` points at a commit. Each commit's tree holds exactly one entry we read,
 *   `marks.json` (a blob, mode 100644); other tree entries are ignored.
 * - `marks.json` is UTF-8 JSON, 2-space indented, keys sorted, ending in a newline:
 *   `{"version": 1, "marks": {"<hunk id>": {"state": "tapped"|"rejected"|"none",
 *   "time": "<ISO-8601 UTC with ms, e.g. 2025-01-02T03:04:05.678Z>", "by": "<user.email or
 *   name>", "path": "<repo-relative path>", "range": "<path:start-end>"[, "base": "<commit>",
 *   "old": "<start>,<count>"|"file"|"mode"]}}}`
 * - `base` and `old` (optional; written with a reject since issue 22): the baseline commit the
 *   hunk was listed against when it was rejected, and where it sat in that commit's version
 *   of the file (git's `@@ -start,count`, context included; `file` for a hunk without lines
 *   that stands for the whole file, `mode` for a change of the executable bit). They let a
 *   rejection outlive its hunk: marks/rejections.ts tells a rejected change that was
 *   committed or edited from one that was reverted. Marks without them (older builds, taps)
 *   keep the plain meaning: a mark counts while its hunk is listed. A build that does not
 *   know the fields reads the mark and drops them when it rewrites it.
 * - `state: "none"` is the tombstone written by untap: it is kept (never deleted) so that a
 *   merge with an older tap cannot bring the mark back.
 * - Each commit holds the full state; history is kept for the reflog/audit only. A merge
 *   commit has parents [local, remote] and the per-key merge of both trees ({@link mergeMarks}).
 */
import { KizuError } from '../errors.js';
import { MARKS_REF } from '../git/layout.js';
/** The tree entry holding the marks. */
export const MARKS_FILE = 'marks.json';
/** The format version this build reads and writes. */
export const FORMAT_VERSION = 1;

/** A review mark on a hunk. */
export type MarkState = 'tapped' | 'rejected';

/** One stored mark. `state: 'none'` is an untap tombstone. */
export interface MarkEntry {
  state: MarkState | 'none';
  /** ISO-8601 UTC timestamp with milliseconds (`Date.prototype.toISOString()` form). */
  time: string;
  /** Who set it: git user.email, else user.name. */
  by: string;
  /** Repo-relative path of the hunk when it was marked. */
  path: string;
  /** `path:start-end` of the hunk when it was marked (hunks module `hunkRange`). */
  range: string;
  /** The baseline commit (full hex) the hunk was listed against when it was rejected (absent in older marks and taps). */
  base?: string;
  /** Where the hunk sat in `base`'s version of the file: `<start>,<count>` (git's `@@ -start,count`), `file` or `mode` (see the format above). */
  old?: string;
}

/** A valid `old` value of a mark: `<start>,<count>`, `file` or `mode`. */
export const OLD_RE = /^(?:\d{1,9},\d{1,9}|file|mode)$/;
/** A valid `base` value: a full SHA-1 or SHA-256 object id. */
export const BASE_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Hunk id → entry. */
export type Marks = Map<string, MarkEntry>;

const STATES = ['none', 'tapped', 'rejected'] as const;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Hint shared by all "corrupt ref" errors. */
export function corruptHint(ref: string): string {
  return `earlier values are in \`git reflog ${ref}\`; restore one with \`git update-ref ${ref} <commit>\`, or drop every mark with \`git update-ref -d ${ref}\``;
}

/** A KizuError (exit 2) saying `ref` is corrupt because of `why`. */
export function corrupt(ref: string, why: string): KizuError {
  return new KizuError(`${ref} is corrupt: ${why}`, { hint: corruptHint(ref) });
}

/** True for a timestamp in the exact `toISOString()` form (so string order is time order). */
export function isIsoMs(s: unknown): s is string {
  return typeof s === 'string' && ISO_MS.test(s) && !Number.isNaN(Date.parse(s));
}

/**
 * Parses the bytes of `marks.json` (format above).
 * @param bytes the blob content.
 * @param ref the ref it was read from (named in errors).
 * @returns hunk id → entry, tombstones included.
 * @throws KizuError (exit 2) `<ref> is corrupt: ...` for invalid UTF-8/JSON or a malformed
 *   entry, or `<ref> has marks format version N ...` for an unknown version.
 */
export function parseMarksJson(bytes: Uint8Array, ref: string): Marks {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw corrupt(ref, `${MARKS_FILE} is not valid UTF-8`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw corrupt(ref, `${MARKS_FILE} is not valid JSON (${(e as Error).message})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw corrupt(ref, `${MARKS_FILE} is not a JSON object`);
  const o = doc as Record<string, unknown>;
  if (o.version !== FORMAT_VERSION) {
    if (typeof o.version === 'number' && Number.isInteger(o.version)) {
      throw new KizuError(`${ref} has marks format version ${o.version}; this git-kizu reads version ${FORMAT_VERSION}`, {
        hint: o.version > FORMAT_VERSION ? 'upgrade git-kizu to a version that reads this format (pull and run npm ci && npm link in its clone); nothing was changed' : corruptHint(ref),
      });
    }
    throw corrupt(ref, `${MARKS_FILE} has no integer "version"`);
  }
  const m = o.marks;
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw corrupt(ref, `${MARKS_FILE} has no "marks" object`);
  const out: Marks = new Map();
  for (const [id, v] of Object.entries(m as Record<string, unknown>)) {
    const e = v as Record<string, unknown> | null;
    if (
      !id ||
      !e ||
      typeof e !== 'object' ||
      !(STATES as readonly unknown[]).includes(e.state) ||
      !isIsoMs(e.time) ||
      typeof e.by !== 'string' ||
      typeof e.path !== 'string' ||
      typeof e.range !== 'string' ||
      (e.base !== undefined && (typeof e.base !== 'string' || !BASE_RE.test(e.base))) ||
      (e.old !== undefined && (typeof e.old !== 'string' || !OLD_RE.test(e.old)))
    ) {
      throw corrupt(ref, `${MARKS_FILE} has a malformed entry for "${id}"`);
    }
    out.set(id, entryOf(e as unknown as MarkEntry));
  }
  return out;
}

/**
 * Serializes marks to the canonical `marks.json` text (sorted ids, fixed field order, 2-space
 * indent, trailing newline): equal maps give byte-identical blobs (and equal blob ids).
 */
export function serializeMarks(marks: Marks): string {
  const sorted: Record<string, MarkEntry> = {};
  for (const id of [...marks.keys()].sort()) {
    sorted[id] = entryOf(marks.get(id)!);
  }
  return JSON.stringify({ version: FORMAT_VERSION, marks: sorted }, null, 2) + '\n';
}

/** The prefix of a `by` that names an agent, not a person: `agent:<name>` (a mark set inside an agent's session, agents/session-env.ts). */
export const AGENT_BY_PREFIX = 'agent:';

/** True if a mark's `by` names an agent ({@link AGENT_BY_PREFIX}) rather than a person. */
export function isAgentBy(by: string): boolean {
  return by.startsWith(AGENT_BY_PREFIX);
}

/** The entry's fields in their fixed order (`base` and `old` only when set). */
function entryOf(e: MarkEntry): MarkEntry {
  const out: MarkEntry = { state: e.state, time: e.time, by: e.by, path: e.path, range: e.range };
  if (e.base !== undefined) out.base = e.base;
  if (e.old !== undefined) out.old = e.old;
  return out;
}

const RANK: Record<MarkEntry['state'], number> = { none: 0, tapped: 1, rejected: 2 };

/**
 * Last-writer-wins choice between two entries for the same hunk id: the later `time` wins;
 * on equal times `rejected` > `tapped` > `none` (the more cautious state), then the larger
 * `by`, `path`, `range`, `base`, `old` (plain string order; an absent field as ''). Commutative: `newerEntry(a, b)` and
 * `newerEntry(b, a)` return equal entries.
 */
export function newerEntry(a: MarkEntry, b: MarkEntry): MarkEntry {
  const keys: [string | number, string | number][] = [
    [a.time, b.time],
    [RANK[a.state], RANK[b.state]],
    [a.by, b.by],
    [a.path, b.path],
    [a.range, b.range],
    [a.base ?? '', b.base ?? ''],
    [a.old ?? '', b.old ?? ''],
  ];
  for (const [x, y] of keys) {
    if (x > y) return a;
    if (x < y) return b;
  }
  return a;
}

/**
 * Merges two mark maps: union of ids; for an id in both, {@link newerEntry}. Tombstones are
 * ordinary entries, so a newer untap beats an older tap and vice versa. Commutative,
 * associative and idempotent (a CRDT last-writer-wins map), so any pull/push order converges.
 */
export function mergeMarks(a: Marks, b: Marks): Marks {
  const out: Marks = new Map(a);
  for (const [id, e] of b) {
    const mine = out.get(id);
    out.set(id, mine ? newerEntry(mine, e) : e);
  }
  return out;
}
