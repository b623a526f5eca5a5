/**
 * `git kizu gc [--dry-run] [--json] [--auto]`: applies the retention budgets (config
 * `retention`, `snapshot.keep`; storage/retention.ts) to what git-kizu stores, then lets git
 * drop the objects nothing reaches any more. `--auto` is what the prompt hook starts in the
 * background (storage/auto.ts): nothing at all when every kind is within its budget or
 * `retention.auto` is false, else the same pruning followed by `git gc --auto`; its outcome is
 * written to `<common-dir>/kizu/gc-auto.json`.
 */
import { pc, type Reporter } from '../output.js';
import { repoContext } from './context.js';
import { commonDir } from '../git/repo.js';
import { acquireLock } from '../git/lock.js';
import { gcAutoFile, gcLockFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';
import { count } from '../words.js';
import { applyRetention, dropUnreachable, planRetention, type KindPlan, type RetentionResult, type StorageKind } from '../storage/retention.js';

export interface GcCommandInput {
  cwd: string;
  dryRun: boolean;
  json: boolean;
  auto: boolean;
  reporter: Reporter;
}

/** JSON shape printed by `git kizu gc --json`. */
export interface GcJson {
  dryRun: boolean;
  /** What each kind held before, and what retention drops (`drop`, `dropBytes`: planned). */
  kinds: KindPlan[];
  /** Entries dropped per kind (null in a dry run or when nothing was due with --auto). */
  dropped: Record<StorageKind, number> | null;
  /** Kinds left alone because they changed meanwhile (the next run plans them again). */
  skipped: { kind: StorageKind; why: string }[];
  /** The git command that dropped unreachable objects, or null when none ran. */
  objects: string | null;
}

/** How a kind's entries are counted in text. */
export const KIND_NOUN: Record<StorageKind, [string, string?]> = {
  journal: ['journal entry', 'journal entries'],
  snapshots: ['snapshot'],
  reverts: ['saved revert'],
  trash: ['discarded task'],
  marks: ['mark'],
  undo: ['undo record'],
};

/** Bytes for people: `512 B`, `3.4 KiB`, `12.0 MiB`, `1.5 GiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** One kind as a text line: `journal    120 journal entries, 48.2 KiB` (+ `: would drop 20 (8.0 KiB)`). */
export function kindLine(k: KindPlan, verb: string | null): string {
  const [one, many] = KIND_NOUN[k.kind];
  let line = `${k.kind.padEnd(10)} ${count(k.entries, one, many)}`;
  if (k.kind === 'marks' && k.tombstones) line += ` (${count(k.tombstones, 'tombstone')})`;
  if (k.kind !== 'undo' && k.entries) line += `, ${formatBytes(k.bytes)}`;
  if (verb && k.drop) {
    const what = k.kind === 'marks' ? count(k.drop, 'tombstone') : String(k.drop);
    line += `: ${verb} ${what}${k.dropBytes > 0 ? ` (${formatBytes(k.dropBytes)})` : ''}`;
  }
  return line;
}

/**
 * Runs gc (see the module comment) and prints per kind what it holds and what was (or, with
 * `dryRun`, would be) dropped, then the git command that dropped the objects.
 * @returns 0.
 * @throws KizuError (exit 2): outside a repository, an invalid config, an unreadable undo log
 *   (nothing is dropped), a refs/kizu ref at the wrong object, another gc running, or a git
 *   failure.
 */
export async function gcCommand(i: GcCommandInput): Promise<number> {
  const ctx = await repoContext(i.cwd);
  const common = await commonDir(ctx.root);
  const status = (v: Record<string, unknown>) => {
    if (i.auto) replaceFileSync(gcAutoFile(common), JSON.stringify({ time: new Date().toISOString(), pid: process.pid, ...v }) + '\n');
  };
  if (i.auto && !ctx.config.retention.auto) {
    status({ state: 'off' });
    return 0;
  }
  const release = i.dryRun ? () => {} : await acquireLock(gcLockFile(common), 'git kizu gc', i.auto ? 0 : 10_000);
  let out: GcJson;
  try {
    status({ state: 'running' });
    const plan = await planRetention(ctx.root, ctx.config);
    const due = plan.kinds.some((k) => k.drop > 0);
    let result: RetentionResult | null = null;
    let objects: string | null = null;
    if (!i.dryRun && (due || !i.auto)) {
      result = due ? await applyRetention(ctx.root, plan) : { dropped: Object.fromEntries(plan.kinds.map((k) => [k.kind, 0])) as RetentionResult['dropped'], skipped: [], rewritten: [] };
      objects = await dropUnreachable(ctx.root, result.rewritten, i.auto);
    }
    out = { dryRun: i.dryRun, kinds: plan.kinds, dropped: result?.dropped ?? null, skipped: result?.skipped ?? [], objects };
    status({ state: 'done', dropped: out.dropped, skipped: out.skipped });
  } catch (e) {
    status({ state: 'failed', error: e instanceof Error ? e.message : String(e) });
    throw e;
  } finally {
    release();
  }
  if (i.json) {
    i.reporter.log(JSON.stringify(out));
    return 0;
  }
  const verb = i.dryRun ? 'would drop' : 'drop';
  for (const k of out.kinds) {
    const skip = out.skipped.find((s) => s.kind === k.kind);
    i.reporter.log(kindLine(k, skip ? null : verb) + (skip ? `: ${pc.yellow('skipped')}, ${skip.why}` : ''));
  }
  const total = out.kinds.reduce((n, k) => n + (out.skipped.some((s) => s.kind === k.kind) ? 0 : k.drop), 0);
  if (!total) i.reporter.log('nothing to drop: every kind is within its budget');
  else i.reporter.log(`${i.dryRun ? 'would drop' : 'dropped'} ${count(total, 'entry', 'entries')}${i.dryRun ? '; run git kizu gc to drop them' : ''}`);
  if (out.objects) i.reporter.log(`objects: ran ${out.objects}`);
  return 0;
}
