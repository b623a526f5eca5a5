/**
 * Where Codex CLI reads hook registrations, and git-kizu's entries in them (driven by
 * install/agents.ts through registry.ts `AgentInstaller`). Measured with Codex CLI 0.171.0:
 * - hook files: `<repo>/.codex/hooks.json` (project scope) and `$CODEX_HOME/hooks.json` (user
 *   scope; CODEX_HOME defaults to ~/.codex), the grouped shape of agents/hooks-json.ts with
 *   timeouts in seconds;
 * - Codex runs a command with `$SHELL -lc <command>` in the session's working directory (a
 *   subdirectory when codex was started there), so the project command finds the runner
 *   from the repository's top level: `"$(git rev-parse --show-toplevel)"/.codex/hooks/kizu-hook.sh <event> codex`;
 * - trust: Codex skips a hook it has not been told to trust, silently under `codex exec`. A
 *   hook is trusted by an entry in `$CODEX_HOME/config.toml`:
 *   `[hooks.state."<abs hooks file>:<snake_case event>:<group index>:<handler index>"]`
 *   `trusted_hash = "sha256:<hex>"`, the SHA-256 of the compact, key-sorted JSON of
 *   `{"event_name","matcher"?,"hooks":[{"type","command","timeout","async"}]}` (checked
 *   against `codex app-server` `hooks/list`, which reports each hook's key, `currentHash` and
 *   `trustStatus`). init writes these entries (one block between marker comments, appended,
 *   so teardown takes out exactly those bytes); project hooks also need the project trusted
 *   (`[projects."<repo>"] trust_level = "trusted"`), which init only tells the user to do;
 * - the journal hook runs synchronously (`async` false): Codex waits for it, so it reads the
 *   file exactly as the patch left it, which the journal needs to reverse the patch.
 */
import { readConfigText } from '../config-text.js';
import { existsSync, realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { KizuError } from '../../errors.js';
import { shellQuote } from '../../words.js';
import type { AgentEvent } from '../../hooks/contract.js';
import { mergeKizuHooks, removeKizuHooks, type KizuEntry } from '../hooks-json.js';
import type { AgentHookState, AgentInstallContext, AgentInstallPlan, AgentInstaller, AgentRemovePlan } from '../registry.js';

/** The hooks git-kizu registers: Codex event, git-kizu hook, matcher. */
const HOOKS: { event: string; hook: AgentEvent; matcher?: string }[] = [
  { event: 'PostToolUse', hook: 'post-tool-use', matcher: 'apply_patch' },
  { event: 'PostToolUse', hook: 'journal', matcher: 'apply_patch' },
  { event: 'Stop', hook: 'stop' },
  { event: 'SubagentStop', hook: 'stop' },
  { event: 'UserPromptSubmit', hook: 'user-prompt-submit' },
  // The pre-tool gate: Codex names its shell tool `Bash` in hooks; `apply_patch` is its edit tool.
  { event: 'PreToolUse', hook: 'pre-tool-use', matcher: 'Bash|apply_patch' },
];

/** Codex's snake_case name of each event (the trust key's second part). */
const SNAKE: Record<string, string> = { PostToolUse: 'post_tool_use', Stop: 'stop', SubagentStop: 'subagent_stop', UserPromptSubmit: 'user_prompt_submit', PreToolUse: 'pre_tool_use' };

/** Seconds Codex gives each hook. */
const TIMEOUT = 30;

/** Where one scope's files are. */
interface Where {
  codexHome: string;
  hooksFile: string;
  runnerFile: string;
  configFile: string;
  /** The command running the runner for `hook`. */
  command(hook: AgentEvent): string;
}

/**
 * The files of `ctx`'s scope.
 * @throws KizuError (exit 2) for project scope without a repository.
 */
function where(ctx: AgentInstallContext): Where {
  const codexHome = ctx.env.CODEX_HOME || path.join(ctx.home, '.codex');
  const configFile = path.join(codexHome, 'config.toml');
  if (ctx.scope === 'user') {
    const runnerFile = path.join(codexHome, 'hooks', 'kizu-hook.sh');
    return { codexHome, configFile, hooksFile: path.join(codexHome, 'hooks.json'), runnerFile, command: (h) => `${shellQuote(runnerFile)} ${h} codex` };
  }
  if (!ctx.root) throw new KizuError('Codex project hooks need a repository', { hint: `run ${ctx.initCmd} inside a git repository, or use --scope user` });
  return {
    codexHome,
    configFile,
    hooksFile: path.join(ctx.root, '.codex', 'hooks.json'),
    runnerFile: path.join(ctx.root, '.codex', 'hooks', 'kizu-hook.sh'),
    command: (h) => `"$(git rev-parse --show-toplevel)"/.codex/hooks/kizu-hook.sh ${h} codex`,
  };
}

/** The entries to merge into hooks.json. */
function entries(w: Where): KizuEntry[] {
  return HOOKS.map(({ event, hook, matcher }) => ({
    event,
    hook,
    group: { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command' as const, command: w.command(hook), timeout: TIMEOUT }] },
  }));
}

/** JSON with object keys sorted, no blanks (what Codex hashes). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The trust hash Codex 0.171.0 computes for one command handler: `sha256:` and the hex
 * SHA-256 of the canonical JSON of `{event_name, matcher?, hooks: [{type, command, timeout, async}]}`.
 * @param event Codex's snake_case event name (`post_tool_use`, `stop`, ...).
 */
export function codexHookHash(event: string, matcher: string | undefined, command: string, timeout: number, async = false): string {
  const v = { event_name: event, ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, timeout, async }] };
  return 'sha256:' + createHash('sha256').update(canonical(v)).digest('hex');
}

/**
 * The trust key and hash of each of git-kizu's handlers in hooks.json text `text` (by the
 * group and handler index where each is now), in {@link HOOKS} order; a handler not found is left out.
 */
/**
 * `p` with every symbolic link in it resolved, as Codex names a hooks file in its trust keys
 * (it canonicalises the path: a `~/.codex` that links into a dotfiles repository gives keys
 * under the link's target). Parts that do not exist yet are appended to the nearest
 * existing ancestor's real path.
 */
export function physicalPath(p: string): string {
  let dir = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return path.resolve(p);
      rest.unshift(path.basename(dir));
      dir = up;
    }
  }
}

export function kizuTrustEntries(hooksFile: string, text: string, w: Pick<Where, 'command'>): { key: string; hash: string }[] {
  let doc: { hooks?: Record<string, unknown> };
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const out: { key: string; hash: string }[] = [];
  for (const { event, hook } of HOOKS) {
    const groups = doc.hooks?.[event];
    if (!Array.isArray(groups)) continue;
    const cmd = w.command(hook);
    found: for (let gi = 0; gi < groups.length; gi++) {
      const g = groups[gi] as { matcher?: unknown; hooks?: unknown };
      if (!g || !Array.isArray(g.hooks)) continue;
      for (let hi = 0; hi < g.hooks.length; hi++) {
        const h = g.hooks[hi] as { type?: unknown; command?: unknown; timeout?: unknown; async?: unknown };
        if (h?.command !== cmd) continue;
        const matcher = typeof g.matcher === 'string' ? g.matcher : undefined;
        const timeout = typeof h.timeout === 'number' ? h.timeout : 600;
        out.push({ key: `${physicalPath(hooksFile)}:${SNAKE[event]}:${gi}:${hi}`, hash: codexHookHash(SNAKE[event], matcher, cmd, timeout, h.async === true) });
        break found;
      }
    }
  }
  return out;
}

const BLOCK_START = (hooksFile: string) => `# git-kizu: trust for its Codex hooks in ${hooksFile} (git kizu init --agent codex; removed by git kizu teardown --agent codex)`;
const BLOCK_END = (hooksFile: string) => `# end of git-kizu's Codex hook trust for ${hooksFile}`;

/** `[hooks.state."<key>"]`: the TOML table header of a trust key (a JSON string is a TOML basic string). */
const stateHeader = (key: string) => `[hooks.state.${JSON.stringify(key)}]`;

/**
 * config.toml text without git-kizu's trust block for `hooksFile` (and the newline before it):
 * its marker comments and its `[hooks.state."<hooksFile>:..."]` tables; any other line inside
 * the block (a table Codex or the user added there) stays, in its place.
 * @returns the text, unchanged when there is no block; null when the block's end marker is
 *   gone (its extent is unknown, so it is left alone).
 */
export function withoutTrustBlock(text: string, hooksFile: string): string | null {
  const head = BLOCK_START(hooksFile) + '\n';
  let at = text.indexOf(head);
  while (at > 0 && text[at - 1] !== '\n') at = text.indexOf(head, at + 1);
  if (at === -1) return text;
  const start = at > 0 ? at - 1 : 0; // the newline written before the block
  const endLine = BLOCK_END(hooksFile) + '\n';
  const end = text.indexOf(endLine, at);
  if (end === -1) return null;
  // Only git-kizu's own lines go: its trust tables for this hooks file (header and hash).
  // Lines others put inside the block stay where they are: Codex itself appends a table
  // there (`codex exec --trust` writes [projects."<repo>"] after the last table).
  const kept: string[] = [];
  let ours = false;
  for (const l of text.slice(at + head.length, end).split(/(?<=\n)/)) {
    const h = /^\[hooks\.state\.("(?:[^"\\]|\\.)*")\]\n$/.exec(l);
    if (h) {
      const key = JSON.parse(h[1]) as string;
      ours = key.startsWith(`${hooksFile}:`) || key.startsWith(`${physicalPath(hooksFile)}:`);
      if (ours) continue;
    } else if (/^\s*\[/.test(l)) ours = false;
    else if (ours && /^trusted_hash = "sha256:[0-9a-f]{64}"\n$/.test(l)) continue;
    else ours = false;
    kept.push(l);
  }
  const keep = kept.join('');
  return text.slice(0, start) + (keep.trim() ? `\n${keep}` : '') + text.slice(end + endLine.length);
}

/**
 * config.toml text with git-kizu's trust block for `hooksFile` holding `trust` (replacing an
 * earlier block; entries whose table the user's own text already has are left out, as a
 * second table of one name is not TOML).
 * @throws KizuError (exit 2) when an earlier block's end marker is gone.
 */
export function withTrustBlock(file: string, text: string, hooksFile: string, trust: { key: string; hash: string }[]): string {
  const base = withoutTrustBlock(text, hooksFile);
  if (base === null) {
    throw new KizuError(`${file}: git-kizu's block of Codex hook trust for ${hooksFile} has lost its end line "${BLOCK_END(hooksFile)}"`, {
      hint: `remove the lines from "${BLOCK_START(hooksFile)}" to "${BLOCK_END(hooksFile)}", then run the command again (nothing was changed)`,
    });
  }
  const mine = trust.filter((t) => !base.includes(stateHeader(t.key)));
  if (!mine.length) return base;
  const body = mine.map((t) => `${stateHeader(t.key)}\ntrusted_hash = ${JSON.stringify(t.hash)}\n`).join('');
  return `${base}\n${BLOCK_START(hooksFile)}\n${body}${BLOCK_END(hooksFile)}\n`;
}

/** The `trusted_hash` of each `[hooks.state."<key>"]` table in config.toml text (a reading of the simple form Codex writes). */
export function trustedHashes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let table: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const h = /^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*")\s*\]\s*(?:#.*)?$/.exec(line);
    if (h) {
      table = JSON.parse(h[1]) as string;
      continue;
    }
    if (/^\s*\[/.test(line)) table = null;
    const v = /^\s*trusted_hash\s*=\s*"([^"]*)"/.exec(line);
    if (v && table !== null) out.set(table, v[1]);
  }
  return out;
}

/** True if config.toml text trusts project `root` (`[projects."<root>"]` with `trust_level = "trusted"`). */
export function projectTrusted(text: string, root: string): boolean {
  let inTable = false;
  for (const line of text.split(/\r?\n/)) {
    const h = /^\s*\[\s*projects\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]/.exec(line);
    if (h) {
      const name = h[1].startsWith("'") ? h[1].slice(1, -1) : (JSON.parse(h[1]) as string);
      inTable = name === root;
      continue;
    }
    if (/^\s*\[/.test(line)) inTable = false;
    if (inTable && /^\s*trust_level\s*=\s*"trusted"/.test(line)) return true;
  }
  return false;
}

/** The lines telling the user to trust project `root` in `configFile`. */
function projectTrustStep(root: string, configFile: string): string[] {
  return [
    `Codex runs project hooks only in a trusted project: add to ${configFile}:`,
    `  [projects.${JSON.stringify(root)}]`,
    `  trust_level = "trusted"`,
    `(or start codex in ${root} once and choose to trust it, or run \`codex exec --trust\` there).`,
  ];
}

/** See the module comment. */
export const installer: AgentInstaller = {
  detect(ctx) {
    if (ctx.scope === 'user') return existsSync(ctx.env.CODEX_HOME || path.join(ctx.home, '.codex'));
    return ctx.root !== null && existsSync(path.join(ctx.root, '.codex'));
  },

  planInstall(ctx): AgentInstallPlan {
    const w = where(ctx);
    const merged = mergeKizuHooks(w.hooksFile, readConfigText(w.hooksFile), entries(w));
    const trust = kizuTrustEntries(w.hooksFile, merged.text, w);
    const config = readConfigText(w.configFile);
    const newConfig = withTrustBlock(w.configFile, config ?? '', w.hooksFile, trust);
    const notes = [`Codex will run git-kizu's hooks from ${w.hooksFile}; their trust entries (hash of each command) are in ${w.configFile}.`];
    if (ctx.scope === 'project' && !projectTrusted(newConfig, ctx.root!)) notes.push(...projectTrustStep(ctx.root!, w.configFile));
    return {
      writes: [
        { file: w.runnerFile, text: ctx.runner, mode: 0o755, owned: true },
        { file: w.hooksFile, text: merged.text, owned: false },
        { file: w.configFile, text: newConfig, owned: false },
      ],
      notes,
    };
  },

  planRemove(ctx): AgentRemovePlan {
    const w = where(ctx);
    const writes: AgentRemovePlan['writes'] = [];
    const notes: string[] = [];
    const hooks = readConfigText(w.hooksFile);
    if (hooks !== null) {
      const r = removeKizuHooks(w.hooksFile, hooks, { events: null, dropEvents: 'emptied', dropHooksKey: 'emptied' });
      if (r.changed) writes.push({ file: w.hooksFile, text: r.empty ? null : r.text, empty: '{}\n' });
    }
    const config = readConfigText(w.configFile);
    if (config !== null) {
      const t = withoutTrustBlock(config, w.hooksFile);
      if (t === null) notes.push(`${w.configFile}: git-kizu's block of Codex hook trust for ${w.hooksFile} has lost its end line; it was left as is (remove its [hooks.state] tables yourself).`);
      else if (t !== config) writes.push({ file: w.configFile, text: t === '' ? null : t, empty: '' });
    }
    return { writes, deletes: existsSync(w.runnerFile) ? [w.runnerFile] : [], notes };
  },

  state(ctx): AgentHookState {
    let w: Where;
    try {
      w = where(ctx);
    } catch {
      return { installed: 'missing', trust: 'unknown', file: path.join(ctx.root ?? ctx.home, '.codex', 'hooks.json'), fix: ctx.initCmd };
    }
    let hooks: string | null;
    let config: string | null;
    try {
      hooks = readConfigText(w.hooksFile);
      config = readConfigText(w.configFile);
    } catch {
      return { installed: 'missing', trust: 'unknown', file: w.hooksFile, fix: `make ${w.hooksFile} and ${w.configFile} readable, then run ${ctx.initCmd}` };
    }
    const trust = hooks === null ? [] : kizuTrustEntries(w.hooksFile, hooks, w);
    const runner = existsSync(w.runnerFile);
    const installed = trust.length === HOOKS.length && runner ? 'installed' : trust.length || runner ? 'partial' : 'missing';
    if (installed === 'missing') return { installed, trust: 'unknown', file: w.hooksFile, fix: ctx.initCmd };
    const hashes = trustedHashes(config ?? '');
    const hooksTrusted = trust.length > 0 && trust.every((t) => hashes.get(t.key) === t.hash);
    const projectOk = ctx.scope === 'user' || projectTrusted(config ?? '', ctx.root!);
    let fix: string | null = null;
    if (installed === 'partial' || !hooksTrusted) fix = ctx.initCmd;
    else if (!projectOk) fix = `add [projects.${JSON.stringify(ctx.root)}] trust_level = "trusted" to ${w.configFile} (or run \`codex exec --trust\` in ${ctx.root} once)`;
    return { installed, trust: hooksTrusted && projectOk ? 'trusted' : 'untrusted', file: w.hooksFile, fix };
  },
};
