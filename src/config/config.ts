/**
 * Configuration, loaded with cosmiconfig (module name `kizu`) from the repository root, as
 * data only (JSON or YAML; ./search.ts): the `kizu` key of package.json, `.kizurc` (JSON or
 * YAML), `.kizurc.{json,yaml,yml}` or `.config/kizurc{,.json,.yaml,.yml}`. A code config
 * (`.kizurc.{js,ts,cjs,mjs}`, `.config/kizurc.*` likewise, `kizu.config.*`) where one of
 * those would have been loaded is refused, never run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { isRecognisedSyntax } from '../scars/format.js';
import { DEFAULT_REVIEW_KEYS, validateReviewKeys, type ReviewAction } from './review-keys.js';
import { showValue } from '../words.js';
import type { UntrustedConfig } from './untrusted.js';

/** Effective configuration with every default filled in. */
export interface KizuConfig {
  stop: {
    /** Consecutive Stop blocks without progress before the stop is allowed (integer >= 1, default 3). */
    maxBlocks: number;
    /** Whether SubagentStop events are blocked by review state too (default false). */
    subagents: boolean;
    /** Whether hunks nobody has tapped or rejected block the stop too (default false). */
    requireReview: boolean;
    /**
     * Changed and untracked files the Stop hook (and `status`) reads for scars at most
     * (integer >= 1, default 20000); past it, or past its deadline, the rest are not read and
     * the stop is blocked naming how many (scars/scan.ts ScanBound).
     */
    maxFiles: number;
  };
  scan: {
    /** picomatch globs, relative to the repo root, of files the scan skips (default []). */
    exclude: string[];
    /** Files larger than this many bytes are skipped and reported (default 4 MiB). */
    maxFileBytes: number;
  };
  scar: {
    /** Canned bodies per kind (defaults: ask "explain this change", reject "revert this change"). */
    bodies: { ask: string; reject: string };
    /**
     * Comment syntax overrides keyed by extension (`ts` or `.ts`, stored without the dot)
     * or exact basename (`Dockerfile`): a line opener `"//"`, `"#"`, `"--"`, `"%"`, `";"`
     * (each possibly repeated), one of `"/* *\/"`, `"<!-- -->"`, `"{/* *\/}"` (opener and
     * closer separated by a space), or `"none"` to refuse scars in such files. Only
     * syntaxes the scanner recognises are accepted, so every scar written is found.
     */
    syntax: Record<string, string>;
  };
  review: {
    /**
     * Key per `git kizu review` action (one printable character each, no two alike):
     * tap " ", reject "!", ask "a", rejectScar "r", free "c", revert "x", revertScar "X",
     * skip "s", quit "q", help "?" (see src/config/review-keys.ts).
     */
    keys: Record<ReviewAction, string>;
  };
  snapshot: {
    /**
     * Paths to record in snapshots even when git ignores them (e.g. `.env`): git pathspecs
     * with glob magic (gitglossary(7) "pathspec", `:(glob)`), relative to the repository
     * root: `*` stays within a directory, `**` crosses directories (default []).
     */
    include: string[];
    /** Files larger than this many bytes are left out of snapshots and listed (default 50 MiB). */
    maxFileBytes: number;
    /** Snapshots kept; the oldest are dropped after a new one is taken (integer >= 1, default 100). */
    keep: number;
  };
  /**
   * Retention budgets of what git-kizu stores under `refs/kizu/*` and the undo log, applied by
   * `git kizu gc` (and `gc --auto`, which the prompt hook starts in the background). An entry
   * is dropped when it is older than `maxAgeDays`, beyond `maxEntries`, or (oldest first)
   * while the kind holds more than `maxBytes`; never one of the newest `minEntries`, nor what
   * the undo log still needs (src/storage/retention.ts). The snapshots' count budget is
   * `snapshot.keep`.
   */
  retention: RetentionConfig;
  /** Absolute path of the file the config came from, or null for defaults. */
  filepath: string | null;
}

/** The budget of one kind of stored entries (see {@link KizuConfig.retention}). */
export interface RetentionBudget {
  /** The newest this many entries are never dropped (integer >= 1). */
  minEntries: number;
  /** At most this many entries are kept (integer >= minEntries). */
  maxEntries: number;
  /** Entries older than this many days are dropped (number > 0). */
  maxAgeDays: number;
  /** Entries are dropped, oldest first, while the kind holds more bytes on disk than this (integer >= 1). */
  maxBytes: number;
}

/** `retention` keys with their defaults filled in. */
export interface RetentionConfig {
  /** Whether the prompt hook starts `git kizu gc --auto` in the background (at most once an hour; default true). */
  auto: boolean;
  /** refs/kizu/journal (default: 200 / 5000 / 14 days / 512 MiB). */
  journal: RetentionBudget;
  /** refs/kizu/snapshots/* (default: 10 / `snapshot.keep` / 14 days / 2 GiB); `maxEntries` is `snapshot.keep`. */
  snapshots: RetentionBudget;
  /** refs/kizu/reverts, what `git kizu revert` saved (default: 50 / 1000 / 30 days / 256 MiB). */
  reverts: RetentionBudget;
  /** refs/kizu/trash/*, discarded tasks (default: 5 / 50 / 30 days / 1 GiB). */
  trash: RetentionBudget;
  /** The undo log's records (default: 20 / 100 / 30 days; `maxBytes` unused). */
  undo: RetentionBudget;
  /** Marks set back to none (tombstones) older than this many days are removed from refs/kizu/marks (default 30). */
  marks: { tombstoneDays: number };
}

const MiB = 1024 * 1024;

/** The retention defaults: they keep a normal week of work (see README "Config"). */
export function defaultRetention(keep = 100): RetentionConfig {
  return {
    auto: true,
    journal: { minEntries: 200, maxEntries: 5000, maxAgeDays: 14, maxBytes: 512 * MiB },
    snapshots: { minEntries: 10, maxEntries: keep, maxAgeDays: 14, maxBytes: 2048 * MiB },
    reverts: { minEntries: 50, maxEntries: 1000, maxAgeDays: 30, maxBytes: 256 * MiB },
    trash: { minEntries: 5, maxEntries: 50, maxAgeDays: 30, maxBytes: 1024 * MiB },
    undo: { minEntries: 20, maxEntries: 100, maxAgeDays: 30, maxBytes: Number.MAX_SAFE_INTEGER },
    marks: { tombstoneDays: 30 },
  };
}

const BUDGET_KEYS: Record<string, string[]> = {
  journal: ['minEntries', 'maxEntries', 'maxAgeDays', 'maxBytes'],
  snapshots: ['minEntries', 'maxAgeDays', 'maxBytes'],
  reverts: ['minEntries', 'maxEntries', 'maxAgeDays', 'maxBytes'],
  trash: ['minEntries', 'maxEntries', 'maxAgeDays', 'maxBytes'],
  undo: ['minEntries', 'maxEntries', 'maxAgeDays'],
  marks: ['tombstoneDays'],
};

/** Validates `retention` (already known to be an object) into `cfg.retention`, pushing what is wrong to `problems`. */
function checkRetention(r: Record<string, unknown>, cfg: KizuConfig, problems: string[]): void {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (const [k, v] of Object.entries(r)) {
    if (k === 'auto') {
      if (typeof v === 'boolean') cfg.retention.auto = v;
      else problems.push(`"retention.auto" must be true or false, got ${showValue(v)}`);
      continue;
    }
    if (!Object.hasOwn(BUDGET_KEYS, k)) {
      problems.push(`unknown key "retention.${k}" (known: retention.auto, ${Object.keys(BUDGET_KEYS).map((x) => `retention.${x}`).join(', ')})`);
      continue;
    }
    if (!isObj(v)) {
      problems.push(`"retention.${k}" must be an object`);
      continue;
    }
    for (const [sub, x] of Object.entries(v)) {
      const name = `retention.${k}.${sub}`;
      if (!BUDGET_KEYS[k].includes(sub)) {
        const also = k === 'snapshots' && sub === 'maxEntries' ? ' (the number of snapshots kept is "snapshot.keep")' : '';
        problems.push(`unknown key "${name}"${also} (known: ${BUDGET_KEYS[k].map((s) => `retention.${k}.${s}`).join(', ')})`);
        continue;
      }
      const days = sub === 'maxAgeDays' || sub === 'tombstoneDays';
      const ok = typeof x === 'number' && Number.isFinite(x) && (days ? x > 0 : Number.isInteger(x) && x >= 1);
      if (!ok) {
        problems.push(`"${name}" must be ${days ? 'a number of days > 0' : sub === 'maxBytes' ? 'a positive integer (bytes)' : 'an integer >= 1'}, got ${showValue(x)}`);
        continue;
      }
      if (k === 'marks') cfg.retention.marks.tombstoneDays = x;
      else (cfg.retention[k as 'journal'] as unknown as Record<string, number>)[sub] = x;
    }
  }
  for (const k of ['journal', 'reverts', 'trash', 'undo', 'snapshots'] as const) {
    const b = cfg.retention[k];
    if (b.minEntries > b.maxEntries) {
      const max = k === 'snapshots' ? 'snapshot.keep' : `retention.${k}.maxEntries`;
      problems.push(`"retention.${k}.minEntries" (${b.minEntries}) must not exceed "${max}" (${b.maxEntries})`);
      b.minEntries = b.maxEntries;
    }
  }
}

/** The defaults used when no config file exists. */
export function defaultConfig(): KizuConfig {
  return {
    stop: { maxBlocks: 3, subagents: false, requireReview: false, maxFiles: 20_000 },
    scan: { exclude: [], maxFileBytes: 4 * 1024 * 1024 },
    scar: { bodies: { ask: 'explain this change', reject: 'revert this change' }, syntax: {} },
    review: { keys: { ...DEFAULT_REVIEW_KEYS } },
    snapshot: { include: [], maxFileBytes: 50 * 1024 * 1024, keep: 100 },
    retention: defaultRetention(),
    filepath: null,
  };
}

const CONFIG_NAME = /^(\.kizurc(\..*)?|kizu\.config\..*)$/;

/** Cheap check (one readdir, maybe one read of package.json) for any config source. */
function mayHaveConfig(root: string): boolean {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return false;
  }
  if (names.some((n) => CONFIG_NAME.test(n))) return true;
  if (names.includes('.config')) {
    try {
      if (readdirSync(path.join(root, '.config')).some((n) => n.startsWith('kizurc'))) return true;
    } catch {
      /* not a directory */
    }
  }
  if (names.includes('package.json')) {
    try {
      return /"kizu"\s*:/.test(readFileSync(path.join(root, 'package.json'), 'utf8'));
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * True if `v` is a valid `scar.syntax` value: `"none"`, or an opener and optional closer
 * separated by one space that the scanner recognises (see isRecognisedSyntax), so that
 * scars written with it are found by `git kizu scan` and the hooks.
 */
function validSyntaxValue(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (v === 'none') return true;
  const parts = v.split(' ');
  if (parts.length > 2 || parts.some((p) => p === '')) return false;
  return isRecognisedSyntax({ open: parts[0], close: parts[1] ?? '' });
}

const SYNTAX_HELP =
  '"none", a line-comment opener ("//", "#", "--", "%", ";", or one of them repeated, e.g. "///"; or "REM") or one of "/* */", "<!-- -->", "{/* */}", "(* *)"';

/**
 * Validates a raw config object and merges it over the defaults.
 * @param raw the parsed config value (any JSON-like value).
 * @param filepath where it came from, for messages.
 * @throws KizuError (exit 2) listing every problem found, one per line.
 */
export function validateConfig(raw: unknown, filepath: string | null): KizuConfig {
  const { cfg, problems } = checkConfig(raw, filepath);
  if (problems.length) {
    throw new KizuError(`invalid config${filepath ? ` in ${filepath}` : ''}:\n  - ${problems.join('\n  - ')}`, {
      hint: 'fix the listed keys (see README "Config")',
    });
  }
  return cfg;
}

/**
 * The valid part of a raw config merged over the defaults, and what is wrong with the rest
 * (one message per problem; nothing thrown).
 */
export function checkConfig(raw: unknown, filepath: string | null): { cfg: KizuConfig; problems: string[] } {
  const cfg = defaultConfig();
  cfg.filepath = filepath;
  const problems: string[] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const known: Record<string, string[]> = {
    stop: ['maxBlocks', 'subagents', 'requireReview', 'maxFiles'],
    scan: ['exclude', 'maxFileBytes'],
    scar: ['bodies', 'syntax'],
    review: ['keys'],
    snapshot: ['include', 'maxFileBytes', 'keep'],
    retention: ['auto', ...Object.keys(BUDGET_KEYS)],
  };
  if (raw === null || raw === undefined) return { cfg, problems };
  if (!isObj(raw)) {
    problems.push(`the config must be an object with keys ${Object.keys(known).join(', ')}`);
  } else {
    for (const [k, v] of Object.entries(raw)) {
      if (!Object.hasOwn(known, k)) {
        problems.push(`unknown key "${k}" (known: ${Object.keys(known).join(', ')})`);
        continue;
      }
      if (!isObj(v)) {
        problems.push(`"${k}" must be an object`);
        continue;
      }
      if (k === 'retention') continue; // checked by checkRetention, one level deeper
      for (const sub of Object.keys(v)) {
        if (!known[k].includes(sub)) problems.push(`unknown key "${k}.${sub}" (known: ${known[k].map((s) => `${k}.${s}`).join(', ')})`);
      }
    }
    const stop = isObj(raw.stop) ? raw.stop : {};
    const scan = isObj(raw.scan) ? raw.scan : {};
    const scar = isObj(raw.scar) ? raw.scar : {};
    const review = isObj(raw.review) ? raw.review : {};
    const snapshot = isObj(raw.snapshot) ? raw.snapshot : {};
    if (stop.maxBlocks !== undefined) {
      if (typeof stop.maxBlocks === 'number' && Number.isInteger(stop.maxBlocks) && stop.maxBlocks >= 1) cfg.stop.maxBlocks = stop.maxBlocks;
      else problems.push(`"stop.maxBlocks" must be an integer >= 1, got ${showValue(stop.maxBlocks)}`);
    }
    if (stop.maxFiles !== undefined) {
      if (typeof stop.maxFiles === 'number' && Number.isInteger(stop.maxFiles) && stop.maxFiles >= 1) cfg.stop.maxFiles = stop.maxFiles;
      else problems.push(`"stop.maxFiles" must be an integer >= 1, got ${showValue(stop.maxFiles)}`);
    }
    if (stop.subagents !== undefined) {
      if (typeof stop.subagents === 'boolean') cfg.stop.subagents = stop.subagents;
      else problems.push(`"stop.subagents" must be true or false, got ${showValue(stop.subagents)}`);
    }
    if (stop.requireReview !== undefined) {
      if (typeof stop.requireReview === 'boolean') cfg.stop.requireReview = stop.requireReview;
      else problems.push(`"stop.requireReview" must be true or false, got ${showValue(stop.requireReview)}`);
    }
    if (scan.exclude !== undefined) {
      if (Array.isArray(scan.exclude) && scan.exclude.every((g) => typeof g === 'string' && g.length > 0)) cfg.scan.exclude = scan.exclude as string[];
      else problems.push(`"scan.exclude" must be an array of non-empty glob strings, got ${showValue(scan.exclude)}`);
    }
    if (scan.maxFileBytes !== undefined) {
      if (typeof scan.maxFileBytes === 'number' && Number.isInteger(scan.maxFileBytes) && scan.maxFileBytes > 0) cfg.scan.maxFileBytes = scan.maxFileBytes;
      else problems.push(`"scan.maxFileBytes" must be a positive integer (bytes), got ${showValue(scan.maxFileBytes)}`);
    }
    if (scar.bodies !== undefined) {
      if (!isObj(scar.bodies)) problems.push('"scar.bodies" must be an object like {"ask": "...", "reject": "..."}');
      else {
        for (const [k, v] of Object.entries(scar.bodies)) {
          if (k !== 'ask' && k !== 'reject') problems.push(`unknown key "scar.bodies.${k}" (known: scar.bodies.ask, scar.bodies.reject)`);
          else if (typeof v !== 'string' || v.trim() === '') problems.push(`"scar.bodies.${k}" must be a non-empty string`);
          else cfg.scar.bodies[k] = v;
        }
      }
    }
    if (scar.syntax !== undefined) {
      if (!isObj(scar.syntax)) problems.push('"scar.syntax" must be an object like {"ts": "//", "tpl": "<!-- -->"}');
      else {
        for (const [k, v] of Object.entries(scar.syntax)) {
          if (!validSyntaxValue(v)) {
            problems.push(`"scar.syntax.${k}" must be ${SYNTAX_HELP}, got ${showValue(v)}`);
          } else cfg.scar.syntax[k.replace(/^\./, '')] = v as string;
        }
      }
    }
    if (review.keys !== undefined) cfg.review.keys = validateReviewKeys(review.keys, problems);
    if (snapshot.include !== undefined) {
      if (Array.isArray(snapshot.include) && snapshot.include.every((g) => typeof g === 'string' && g.length > 0 && !g.startsWith(':') && !g.includes('\0'))) {
        cfg.snapshot.include = snapshot.include as string[];
      } else problems.push(`"snapshot.include" must be an array of non-empty glob strings relative to the repository root (no leading ":"), got ${showValue(snapshot.include)}`);
    }
    if (snapshot.maxFileBytes !== undefined) {
      if (typeof snapshot.maxFileBytes === 'number' && Number.isInteger(snapshot.maxFileBytes) && snapshot.maxFileBytes > 0) cfg.snapshot.maxFileBytes = snapshot.maxFileBytes;
      else problems.push(`"snapshot.maxFileBytes" must be a positive integer (bytes), got ${showValue(snapshot.maxFileBytes)}`);
    }
    if (snapshot.keep !== undefined) {
      if (typeof snapshot.keep === 'number' && Number.isInteger(snapshot.keep) && snapshot.keep >= 1) cfg.snapshot.keep = snapshot.keep;
      else problems.push(`"snapshot.keep" must be an integer >= 1, got ${showValue(snapshot.keep)}`);
    }
    cfg.retention.snapshots.maxEntries = cfg.snapshot.keep;
    // A snapshot.keep below the default minimum lowers it (snapshot.keep came first and wins).
    if (cfg.retention.snapshots.minEntries > cfg.snapshot.keep) cfg.retention.snapshots.minEntries = cfg.snapshot.keep;
    if (isObj(raw.retention)) checkRetention(raw.retention, cfg, problems);
  }
  return { cfg, problems };
}

/**
 * The raw config of the repository at `root` (only `root` itself is searched), or null when
 * there is none. Called only when {@link mayHaveConfig} (so a repository without a config
 * never loads cosmiconfig: hook hot path). Reads JSON and YAML only (./search.ts says why and how).
 * @throws KizuError (exit 2) if a config file is code, cannot be read or cannot be parsed;
 *   the message names the file.
 */
async function searchConfig(root: string): Promise<{ config: unknown; filepath: string | null } | null> {
  const { searchConfigFile } = await import('./search.js');
  return searchConfigFile(root);
}

/**
 * The gate keys (./gate-keys.ts) of `cfg` set to their committed values (./trust.ts) when the
 * working config's differ; `found` is what the working-tree search found (null: none).
 */
async function trusted(root: string, cfg: KizuConfig, found: { filepath: string | null } | null): Promise<{ config: KizuConfig; untrusted: UntrustedConfig | null }> {
  const { applyTrusted } = await import('./trust.js');
  return applyTrusted(root, cfg, found?.filepath ?? null, (raw, file) => checkConfig(raw, file).cfg);
}

/**
 * Loads the config for the repository at `root` (only `root` itself is searched). Its gate
 * keys (./gate-keys.ts: exclusions, size limits, bounds, retention...) take the committed
 * values (HEAD) when the working tree's differ (./trust.ts; `configFindings` in
 * ./findings.ts names the difference). Skips loading cosmiconfig and running git entirely
 * when no config source exists (hook hot path).
 * @throws KizuError (exit 2) if a config file cannot be parsed or is invalid, or git fails.
 */
export async function loadConfig(root: string): Promise<KizuConfig> {
  if (!mayHaveConfig(root)) return defaultConfig();
  const found = await searchConfig(root);
  const cfg = found ? validateConfig(found.config, found.filepath) : defaultConfig();
  return (await trusted(root, cfg, found)).config;
}

/** What {@link loadConfigLenient} returns. */
export interface LenientConfig {
  config: KizuConfig;
  /** A one-line description of what was ignored as invalid (null if nothing). */
  problem: string | null;
  /** The working config whose gate keys were not applied (the committed values were), or null. */
  untrusted: UntrustedConfig | null;
}

/**
 * {@link loadConfig} for the hooks and read-only commands, which must not stop working over a
 * config mistake (a Stop hook that gave up on an invalid config would let the agent stop
 * over unresolved scars; a UserPromptSubmit hook would take no snapshot): the valid keys of
 * the config are used and every invalid one keeps its default; a config that cannot be read
 * or parsed at all gives the defaults. The gate keys are the committed ones, as in
 * {@link loadConfig}; a git failure there leaves the working values and is the `problem`.
 * Never throws.
 */
export async function loadConfigLenient(root: string): Promise<LenientConfig> {
  const lenient = (why: string, used: string) => `git-kizu: warning: ${why}; ${used} until it is fixed (see README "Config")`;
  if (!mayHaveConfig(root)) return { config: defaultConfig(), problem: null, untrusted: null };
  let found;
  let problem: string | null = null;
  let cfg: KizuConfig;
  try {
    found = await searchConfig(root);
  } catch (e) {
    // One line: a parse error's first two lines say it all (the rest is a code frame); what
    // already says it could not read or did not read the config gets no second prefix.
    const first = String((e as Error)?.message ?? e).split('\n').filter((l) => l.trim()).slice(0, 2).join(' ');
    const why = first.startsWith('could not read config') || / is not read: /.test(first) ? first : `could not read config: ${first}`;
    found = null;
    problem = lenient(why, 'the defaults are used');
  }
  if (found) {
    const checked = checkConfig(found.config, found.filepath);
    cfg = checked.cfg;
    if (checked.problems.length) {
      const why = `invalid config${found.filepath ? ` in ${found.filepath}` : ''}: ${checked.problems.join('; ')}`;
      problem = lenient(why, 'its valid keys and the defaults for the rest are used');
    }
  } else cfg = defaultConfig();
  try {
    const t = await trusted(root, cfg, found);
    return { config: t.config, problem, untrusted: t.untrusted };
  } catch (e) {
    // Neither the committed values nor whether the working ones are committed is known: the
    // gate keys take the defaults (never the working file's, which the agent may have written).
    const why = `the committed config could not be read: ${String((e as Error)?.message ?? e).split('\n')[0]}`;
    const { GATE_KEYS, keyValue, setKeyValue } = await import('./gate-keys.js');
    const def = defaultConfig();
    for (const k of GATE_KEYS) setKeyValue(cfg, k.key, keyValue(def, k.key));
    return { config: cfg, problem: problem ? `${problem}; ${why}` : lenient(why, 'the defaults are used for the keys that can weaken review'), untrusted: null };
  }
}
