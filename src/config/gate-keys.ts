/**
 * Which config keys can weaken review: the one table of every key of {@link KizuConfig}, each
 * either a GATE key or not (issue 22, "Config a gate can trust").
 *
 * The agent under review can write every file of the repository, so a config file it wrote
 * (untracked, ignored, modified, staged) must not be able to switch review off. A gate key is
 * one whose value can let the agent past a gate (the Stop hook, the pre-commit guard, `scan`,
 * `status`), hide a change, a scar or a remark from the reviewer, put words in the reviewer's
 * remarks, or drop what review and rollback rely on (snapshots, the journal, saved reverts,
 * marks), or decide what the reviewer's keypress in `git kizu review` does (`review.keys`).
 * A gate key takes effect only from the committed config, as in HEAD (./trust.ts);
 * a working-tree value that differs is not applied and is named to the user. The other keys
 * (how a scar is written where the writer checks that the scanner finds it) take effect from
 * the working tree as before.
 *
 * Each entry names a key path at the granularity its value is compared and copied (an
 * object value such as `retention.journal` is one unit, so its own consistency rules, e.g.
 * minEntries <= maxEntries, hold after the copy), and for a gate key:
 * - `why`: what a changed value can do, for the README and the findings;
 * - `weakens(value, default)`: a short description when the value is weaker than git-kizu's
 *   default (for the finding on a committed config: init, doctor, status), else null.
 * test/unit/gate-keys.test.mjs checks that every key of defaultConfig() is in the table.
 */
import type { KizuConfig, RetentionBudget } from './config.js';

/** One row of {@link CONFIG_KEYS}. */
export interface KeyRule {
  /** Key path, e.g. `scan.exclude`, `retention.journal` (an object unit). */
  key: string;
  /** True when a changed value can weaken review (see the module comment). */
  gate: boolean;
  /** What the key does to review (gate keys: how it can weaken it). */
  why: string;
  /** Gate keys: a description of how `value` is weaker than `def` (the default), or null when it is not. */
  weakens?: (value: unknown, def: unknown) => string | null;
}

const lower = (unit: string) => (v: unknown, d: unknown) => (typeof v === 'number' && typeof d === 'number' && v < d ? `${v} (default ${d}): ${unit}` : null);
/** A value as JSON with C1 controls and bidi/line-separator characters escaped too (JSON escapes only C0): it reaches the terminal in status, doctor and init. */
const show = (v: unknown) => JSON.stringify(v).replace(/[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A retention budget is weaker when any of its numbers is lower than the default's. */
function budgetWeakens(v: unknown, d: unknown): string | null {
  const a = v as Partial<RetentionBudget> & Record<string, number>;
  const b = d as Partial<RetentionBudget> & Record<string, number>;
  const lowered = Object.keys(b).filter((k) => typeof a[k] === 'number' && a[k] < b[k]);
  return lowered.length ? `${lowered.map((k) => `${k} ${a[k]} (default ${b[k]})`).join(', ')}: review history dropped sooner` : null;
}

/** Every key of the config, gate or not (module comment). Order: as in README "Config". */
export const CONFIG_KEYS: readonly KeyRule[] = [
  { key: 'stop.maxBlocks', gate: true, why: 'a lower bound lets the agent stop sooner over unresolved review', weakens: lower('the agent may stop sooner over unresolved review') },
  { key: 'stop.subagents', gate: true, why: 'false lets subagents stop over unresolved review', weakens: () => null },
  { key: 'stop.maxFiles', gate: false, why: 'how many changed and untracked files the Stop hook reads for scars; past it (or past its deadline) it blocks naming the files it did not read, so no value lets the agent through' },
  { key: 'stop.requireReview', gate: true, why: 'false lets the agent stop with hunks nobody reviewed', weakens: () => null },
  {
    key: 'scan.exclude',
    gate: true,
    why: 'excluded files are never scanned: their scars do not block the Stop hook or the pre-commit guard',
    weakens: (v) => (Array.isArray(v) && v.length ? `${show(v)}: scars in matching files never block the agent or a commit` : null),
  },
  { key: 'scan.maxFileBytes', gate: true, why: 'larger files are not scanned for scars', weakens: lower('scars in larger files never block') },
  { key: 'scar.bodies', gate: true, why: "the text of the reviewer's canned scars (an agent's text would speak as the reviewer)", weakens: () => null },
  { key: 'scar.syntax', gate: false, why: 'how a scar is written; the writer refuses a form the scanner would not find, so no scar is hidden' },
  {
    key: 'review.keys',
    gate: true,
    why: "which keypress in git kizu review taps, rejects or reverts a hunk (the reviewer's act)",
    weakens: (v, d) => {
      const a = v as Record<string, string>;
      const b = d as Record<string, string>;
      const moved = Object.keys(b).filter((k) => a[k] !== b[k]);
      return moved.length ? `${show(Object.fromEntries(moved.map((k) => [k, a[k]])))}: a key in git kizu review does another action than its default` : null;
    },
  },
  { key: 'snapshot.include', gate: true, why: 'ignored files left out of snapshots cannot be rolled back', weakens: () => null },
  { key: 'snapshot.maxFileBytes', gate: true, why: 'larger files are left out of snapshots and cannot be rolled back', weakens: lower('larger files are left out of snapshots') },
  { key: 'snapshot.keep', gate: true, why: 'fewer snapshots are kept for rollback', weakens: lower('fewer snapshots are kept for rollback') },
  { key: 'retention.auto', gate: true, why: 'whether the prompt hook drops old review history in the background', weakens: () => null },
  { key: 'retention.journal', gate: true, why: 'how long the edit journal (what the agent changed) is kept', weakens: budgetWeakens },
  { key: 'retention.snapshots', gate: true, why: 'how long snapshots are kept', weakens: budgetWeakens },
  { key: 'retention.reverts', gate: true, why: 'how long reverted hunks are kept', weakens: budgetWeakens },
  { key: 'retention.trash', gate: true, why: 'how long discarded tasks are kept', weakens: budgetWeakens },
  { key: 'retention.undo', gate: true, why: 'how long undo records are kept', weakens: budgetWeakens },
  { key: 'retention.marks', gate: true, why: 'how long untapped marks are remembered', weakens: (v, d) => lower('untapped marks are forgotten sooner')((v as { tombstoneDays: number }).tombstoneDays, (d as { tombstoneDays: number }).tombstoneDays) },
];

/** The gate keys of {@link CONFIG_KEYS}. */
export const GATE_KEYS: readonly KeyRule[] = CONFIG_KEYS.filter((k) => k.gate);

/** The value at `key` (dotted path) of a config. */
export function keyValue(cfg: KizuConfig, key: string): unknown {
  let v: unknown = cfg;
  for (const part of key.split('.')) v = (v as Record<string, unknown>)[part];
  return v;
}

/** Sets the value at `key` (dotted path) of `cfg` to a deep copy of `value`. */
export function setKeyValue(cfg: KizuConfig, key: string, value: unknown): void {
  const parts = key.split('.');
  let o = cfg as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) o = o[part] as Record<string, unknown>;
  o[parts[parts.length - 1]] = structuredClone(value);
}

/** True when `a` and `b` hold the same value at `key`. */
export function sameAt(a: KizuConfig, b: KizuConfig, key: string): boolean {
  return JSON.stringify(keyValue(a, key)) === JSON.stringify(keyValue(b, key));
}
