/**
 * `git kizu status [--json]`: everything that stands between the agent and "done" in one
 * view: the baseline, hunks by review state, scars, open queue items, whether the
 * hooks are installed, and what git-kizu stores (storage/retention.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { EXIT, KizuError } from '../errors.js';
import { pc, type Reporter } from '../output.js';
import { repoContext } from './context.js';
import { pathQuoter } from '../git/path-quoter.js';
import { listHunks, hunkRange, shortId } from '../hunks/listing.js';
import { hiddenFindingLines, mergeHidden, type HiddenFindings } from '../hunks/hidden.js';
import { BASELINE_REF } from '../git/layout.js';
import { hasHead } from '../git/run.js';
import { commonDirFast, findRootFast } from '../git/repo.js';
import { refFast } from '../git/refs.js';
import { readMarks, markOf, isAgentBy } from '../marks/read.js';
import { scanRepo, type Scar, type Unchecked } from '../scars/scan.js';
import { readQueue } from '../queue/read.js';
import { QUEUE_FILE } from '../queue/paths.js';
import { describeItem } from '../queue/item.js';
import { hunkJson, type HunkJson } from './hunks.js';
import { itemJson } from './queue.js';
import { claudeScopes } from '../install/doctor.js';
import { hasKizuHooks } from '../agents/hooks-json.js';
import { AGENT_LABELS } from '../agents/registry.js';
import { agentStates, type AgentScopeState } from '../install/agents.js';
import { pluginEnabled } from '../agents/claude/plugin.js';
import { guardStatus, type GuardStatus } from '../install/guard.js';
import { claudeFix, guardFix, recordedInstall } from '../install/fix-commands.js';
import { storageUsage, type KindPlan } from '../storage/retention.js';
import { count } from '../words.js';
import { printable } from '../printable.js';
import { shownOrigin, splitByOrigin } from '../provenance/classify.js';
import { formatBytes, KIND_NOUN } from './gc.js';
import { configFindings, type ConfigFinding } from '../config/findings.js';
import { launderedJson, launderedLine, type LaunderedJson } from './laundered.js';
import { findingLine, repoIntegrity, type IntegrityFinding } from '../install/integrity.js';
import { vanishedItems } from '../queue/record.js';
import { lostState } from '../hooks/lost-state.js';
import { uncheckedState, type LostState } from '../hooks/text.js';
import { stopScanBound } from '../hooks/stop-gate.js';
import { baselineOutsideHead, baselineMovedText, BASELINE_MOVED_FIX } from '../hunks/baseline.js';

/** JSON shape printed by `git kizu status --json`. */
export interface StatusJson {
  /** `outsideHead`: refs/kizu/baseline names a commit outside HEAD's history (it was moved: hunks/baseline.ts baselineOutsideHead). */
  baseline: { rev: string; oid: string; fromRef: boolean; outsideHead: boolean };
  /**
   * `byAgent`: the hunks whose stored mark an agent set (`by: agent:<name>`; its tap counts as unreviewed), with that mark.
   * `laundered`: rejections that outlived their hunk (committed, or edited instead of reverted).
   */
  hunks: { total: number; unreviewed: number; tapped: number; rejected: number; list: HunkJson[]; byAgent: { id: string; state: string; by: string }[]; laundered: LaunderedJson[] };
  /**
   * `origin`: null for a scar written through git kizu on this machine outside an agent's
   * session (the reviewer's, as the hooks tell the agent), else where it came from (`in HEAD
   * since <sha>`, `in the working tree, not written through git kizu here`:
   * provenance/origin.ts; `written through git kizu here by an agent, in a Claude Code session`:
   * provenance/classify.ts).
   */
  scars: (Scar & { origin: string | null })[];
  /** `error`: why the queue file could not be read (then `open` is empty and `done` 0). `origin` as for scars. */
  queue: { open: (ReturnType<typeof itemJson> & { origin: string | null })[]; done: number; error?: string };
  /**
   * Per scope: whether that settings file registers our hooks (null: file unreadable/invalid);
   * `preCommit`: whether the pre-commit guard runs on `git commit` (= `guard.state === 'installed'`);
   * `guard`: where it runs from, or why not and the command that restores it (install/guard.ts).
   */
  hooks: {
    project: boolean | null;
    local: boolean | null;
    user: boolean | null;
    /** The git-kizu plugin is enabled in `~/.claude/settings.json` (`enabledPlugins`). */
    plugin: boolean;
    /**
     * When no Claude Code settings file nor the plugin runs our hooks: the command that installs
     * them as the install record says (install/fix-commands.ts `claudeFix`: the `claude plugin`
     * commands for `init --via plugin`); null when nothing is missing or Claude Code was left out.
     */
    claudeFix: string | null;
    /** Claude Code settings scopes that run git-kizu's hooks but have no Stop entry (install/doctor.ts `claudeScopes`, as doctor reads them). */
    claudeNoStop: ('project' | 'local' | 'user')[];
    /** The other agents, each scope: installed (all / some / none of git-kizu's hooks), trusted, the file, the fix (install/agents.ts). */
    agents: AgentScopeState[];
    preCommit: boolean;
    guard: GuardStatus;
  };
  /**
   * What git-kizu stores (refs/kizu/* and the undo log), per kind: entries, bytes on disk held
   * only by that kind, and what `git kizu gc` would drop (storage/retention.ts KindPlan);
   * `error`: why it could not be read (then `kinds` is empty).
   */
  storage: { kinds: KindPlan[]; error?: string };
  /** Config findings (config/findings.ts): a working config whose gate keys are not applied, a committed one that weakens review. */
  config: ConfigFinding[];
  /**
   * Changes git does not show (hunks/hidden.ts): assume-unchanged or skip-worktree files that
   * differ from the index (their hunks and scars are counted above), and changed or untracked
   * files whose name is not valid UTF-8, quoted (not counted above: the Stop hook holds on them).
   */
  hidden: HiddenFindings;
  /**
   * Where the install differs from what `git kizu init` writes now, or a setting switches
   * hooks off (install/integrity.ts): each with the file, what, the fix, and what it weakens
   * (`stop`: an agent's Stop hook may not run; `guard`: the pre-commit guard may not run).
   */
  integrity: IntegrityFinding[];
  /**
   * Review state the agent's actions took away (hooks/text.ts LostState): review queue items
   * written through git kizu that the queue file no longer holds, unreadable marks. Each blocks
   * the Stop hook; `fix` restores it.
   */
  lost: LostState[];
  /**
   * Changed or untracked files the scan did not read, bounded as the Stop hook's scan is
   * (`stop.maxFiles`, its byte and time budget: scars/scan.ts ScanBound): how many, why, where,
   * and the sentence the hook blocks with (`what`, `fix`); null when every file was read.
   */
  unchecked: (Unchecked & LostState) | null;
  /** Changed files that could not be read, so their scars are not known (scars/scan.ts `skipped`); they hold the stop. */
  unscanned: { path: string; reason: string }[];
}

/**
 * Gathers the review state of the repository containing `cwd`.
 * @throws KizuError (exit 2) outside a repository, without a baseline commit, or when git fails
 *   (a corrupt marks ref is reported in `lost`) (an unreadable queue file is reported in `queue.error`).
 */
export async function gatherStatus(cwd: string, home = process.env.HOME || os.homedir(), env: NodeJS.ProcessEnv = process.env): Promise<StatusJson> {
  const ctx = await repoContext(cwd);
  let marksLost: import('../marks/restore.js').MarksUnreadable | undefined;
  const [{ baseline, hunks, ...listed }, marks, scan, queue, guard, storage, agents, config, integrity] = await Promise.all([
    // A repository with no commits yet has no baseline: no hunks to review, the rest applies.
    hasHead(ctx.root).then((head) =>
      head || refFast(commonDirFast(ctx.root) ?? ctx.gitDir, BASELINE_REF)
        ? listHunks(ctx.root)
        : { baseline: { rev: 'none (no commits yet)', oid: '', fromRef: false }, hunks: [], hidden: [], unreadable: [], rules: [] },
    ),
    // Unreadable marks (a corrupt ref) are review state lost: a finding with its fix, not a crash.
    readMarks(ctx.root).catch(async (e: unknown) => {
      if (!(e instanceof KizuError)) throw e;
      marksLost = await (await import('../marks/restore.js')).marksUnreadable(ctx.root, e);
      return new Map<string, import('../marks/read.js').MarkEntry>();
    }),
    // Bounded as the Stop hook's scan is, so that status says what the hook would do.
    scanRepo({ root: ctx.root, mode: 'default', exclude: ctx.config.scan.exclude, maxFileBytes: ctx.config.scan.maxFileBytes, bound: stopScanBound(ctx.config.stop.maxFiles) }),
    // An unreadable queue must not hide the rest: it is reported in the result.
    readQueue(ctx.root, ctx.gitDir).catch((e: unknown) => {
      if (!(e instanceof KizuError)) throw e;
      return { items: [], error: `${e.message}${e.hint ? ` (${e.hint})` : ''}`, why: e.message };
    }),
    guardStatus(ctx.root),
    // An unreadable undo log or a bad refs/kizu ref must not hide the rest either.
    storageUsage(ctx.root, ctx.config).then(
      (kinds) => ({ kinds }),
      (e: unknown) => {
        if (!(e instanceof KizuError)) throw e;
        return { kinds: [], error: e.message };
      },
    ),
    agentStates(ctx.root, home, env),
    configFindings(ctx.root),
    repoIntegrity(ctx.root, home, env),
  ]);
  const list = hunks.map((h) => hunkJson(h, markOf(marks, h.id)));
  const [laundered, outsideHead] = await Promise.all([
    baseline.oid ? launderedJson(ctx.root, marks, { baseline, hunks }) : [],
    baselineOutsideHead(ctx.root, baseline),
  ]);
  // Fixes re-run the install that was made (scope, agents, plugin), never adding hooks that run twice.
  const inst = recordedInstall(ctx.gitDir, home);
  const plugin = pluginEnabled(home);
  // The same reading as doctor's (install/doctor.ts claudeScopes): they cannot disagree.
  const cs = claudeScopes(ctx.root, home);
  const settingsOf = (k: 'project' | 'local' | 'user') => (cs.unreadable.some((u) => u.scope === k) ? null : cs.installed.includes(k));
  const settings = { project: settingsOf('project'), local: settingsOf('local'), user: settingsOf('user') };
  const claudeHooks = plugin || Object.values(settings).some((v) => v !== false);
  const othersInstalled = agents.some((a) => a.installed !== 'missing');
  const by = (m: string) => list.filter((h) => h.mark === m).length;
  const open = queue.items.filter((i) => !i.checked);
  const origin = await splitByOrigin(ctx.root, ctx.gitDir, scan.scars, open, QUEUE_FILE);
  const foundScar = new Map(origin.found.scars.map((s) => [`${s.path}\0${s.line}`, s.origin]));
  const foundItem = new Map(origin.found.items.map((x) => [x.id, x.origin]));
  // An unreadable queue holds none of the reviewer's recorded items as far as review can tell: all count as lost.
  const vanished = vanishedItems(ctx.gitDir, 'error' in queue ? [] : queue.items.map((x) => x.id));
  const lost = await lostState(ctx.root, vanished, { marksUnreadable: marksLost }, 'why' in queue ? queue.why : null);
  return {
    baseline: { ...baseline, outsideHead },
    hunks: {
      total: list.length,
      unreviewed: by('unreviewed'),
      tapped: by('tapped'),
      rejected: by('rejected'),
      list,
      byAgent: hunks.flatMap((h) => {
        const e = marks.get(h.id);
        return e && e.state !== 'none' && isAgentBy(e.by) ? [{ id: h.id, state: e.state, by: e.by }] : [];
      }),
      laundered,
    },
    scars: scan.scars.map((s) => ({ ...s, origin: foundScar.get(`${s.path}\0${s.line}`) ?? null })),
    queue: {
      open: open.map((x) => ({ ...itemJson(x), origin: foundItem.get(x.id) ?? null })),
      done: queue.items.filter((i) => i.checked).length,
      ...('error' in queue ? { error: queue.error } : {}),
    },
    hooks: {
      ...settings,
      plugin,
      claudeFix: claudeHooks ? null : claudeFix(inst, othersInstalled, true),
      claudeNoStop: cs.noStop,
      agents,
      preCommit: guard.state === 'installed',
      guard: guard.state === 'missing' && guard.fix === 'git kizu init' ? { ...guard, fix: guardFix(inst, plugin) } : guard,
    },
    storage,
    config,
    hidden: mergeHidden(listed, scan),
    integrity,
    unscanned: scan.skipped,
    lost,
    unchecked: scan.unchecked ? { ...scan.unchecked, ...uncheckedState(scan.unchecked, ctx.config.stop.maxFiles) } : null,
  };
}

/** The storage line of status text: `refs/kizu: 12 journal entries (4.1 KiB), 3 snapshots (1.2 MiB), ...; git kizu gc would drop 2`. */
function storageText(st: StatusJson['storage']): string {
  if (st.error) return `${pc.red('not read')}: ${st.error}`;
  const parts = st.kinds.map((k) => `${count(k.entries, ...KIND_NOUN[k.kind])}${k.kind !== 'undo' && k.entries ? ` (${formatBytes(k.bytes)})` : ''}`);
  const drop = st.kinds.reduce((n, k) => n + k.drop, 0);
  return `${parts.join(', ')}${drop ? `; git kizu gc would drop ${drop}` : ''}`;
}

/**
 * The other agents in status text, those with any of git-kizu's hooks in a scope:
 * `; Codex CLI: installed (project), not trusted: <fix>`; '' when none has any.
 */
function agentsText(states: AgentScopeState[]): string {
  let out = '';
  for (const st of states) {
    if (st.installed === 'missing') continue;
    const what = st.installed === 'partial' ? `${pc.yellow('partly installed')} (${st.scope})` : `installed (${st.scope})`;
    const trust = st.trust === 'untrusted' ? `, ${pc.red('not trusted')}${st.fix ? `: ${st.fix}` : ''}` : st.installed === 'partial' && st.fix ? `: ${st.fix}` : st.trust === 'unknown' && st.fix ? ` (${st.fix})` : '';
    out += `; ${AGENT_LABELS[st.agent]}: ${what}${trust}`;
  }
  return out;
}

/** The guard in status text: `installed (husky, .husky/pre-commit)` or `missing: <why>; run \`<fix>\``. */
function guardText(g: GuardStatus, root: string | null): string {
  if (g.state === 'missing') return `${pc.red('missing')}: ${g.why}; run \`${g.fix}\``;
  const rel = root ? path.relative(root, g.file) : '';
  const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : g.file;
  return `installed (${g.via === 'hooks-dir' ? 'git hook' : g.via}, ${shown})`;
}

export interface StatusCommandInput {
  cwd: string;
  json: boolean;
  reporter: Reporter;
}

/**
 * Prints the status (text with paths quoted as git quotes them, or {@link StatusJson} with `json`).
 * @returns 0 when nothing blocks the agent (no scars, open items or rejected hunks, rejections
 *   that outlived their hunk included) and the baseline is in HEAD's history, else 1;
 *   2 when the review queue file could not be read (the rest is still shown).
 * @throws KizuError as {@link gatherStatus}.
 */
export async function statusCommand(i: StatusCommandInput): Promise<number> {
  const s = await gatherStatus(i.cwd);
  const blocking = s.scars.length + s.queue.open.length + s.hunks.rejected + s.hunks.laundered.length + s.hidden.unreadable.length + s.lost.length + (s.unchecked ? 1 : 0) + (s.baseline.outsideHead ? 1 : 0) + s.unscanned.length + s.hidden.rules.filter((r) => r.path.endsWith('/')).length;
  const code = s.queue.error ? EXIT.ERROR : blocking ? EXIT.FOUND : EXIT.OK;
  if (i.json) {
    i.reporter.log(JSON.stringify(s));
    return code;
  }
  const log = (l: string) => i.reporter.log(l);
  const q = pathQuoter(i.cwd);
  log(`${pc.bold('baseline')}  ${s.baseline.rev}${s.baseline.oid ? ' ' + s.baseline.oid.slice(0, 12) : ''}${s.baseline.fromRef ? ' (git kizu baseline reset: back to HEAD)' : ''}`);
  if (s.baseline.outsideHead) log(`  ${pc.red('moved')}  ${baselineMovedText(s.baseline.oid)}; fix: ${BASELINE_MOVED_FIX}`);
  log(`${pc.bold('hunks')}     ${s.hunks.total}: ${s.hunks.unreviewed} unreviewed, ${s.hunks.tapped} tapped, ${s.hunks.rejected} rejected`);
  const agentMark = new Map(s.hunks.byAgent.map((a) => [a.id, a]));
  for (const h of s.hunks.list.filter((x) => x.mark === 'rejected')) {
    const a = agentMark.get(h.id);
    log(`  ${pc.red('rejected')}  ${h.shortId}  ${q(h.path)}${h.range.slice(h.path.length)}${a ? `  (by ${a.by})` : ''}`);
  }
  for (const l of s.hunks.laundered) log(`  ${pc.red('rejected')}  ${launderedLine(l, q)}`);
  for (const a of s.hunks.byAgent.filter((x) => x.state === 'tapped')) {
    const h = s.hunks.list.find((x) => x.id === a.id)!;
    log(`  ${pc.yellow('tapped by')} ${a.by}, not review  ${h.shortId}  ${q(h.path)}${h.range.slice(h.path.length)}`);
  }
  log(`${pc.bold('scars')}     ${s.scars.length}`);
  if (s.unchecked) log(`  ${pc.red('not checked')}: ${s.unchecked.what}; ${s.unchecked.fix}`);
  const from = (o: string | null) => (o ? `  ${pc.yellow(`(${printable(shownOrigin(o))})`)}` : '');
  for (const x of s.scars) log(`  ${q(x.path)}:${x.line}  [${x.kind}]  ${printable(x.body)}${from(x.origin)}`);
  if (s.queue.error) log(`${pc.bold('queue')}     ${pc.red('not read')}: ${printable(s.queue.error)}`);
  else log(`${pc.bold('queue')}     ${s.queue.open.length} open, ${s.queue.done} done (${QUEUE_FILE})`);
  for (const o of s.queue.open) {
    log(`  ${printable(describeItem({ id: o.id, kind: o.kind, anchor: o.path ? { path: q(o.path), line: o.line ?? 0 } : null, text: o.text } as Parameters<typeof describeItem>[0]))}${from(o.origin)}`);
  }
  const scopes = [...(['project', 'local', 'user'] as const).filter((k) => s.hooks[k]).map((k) => (s.hooks.claudeNoStop.includes(k) ? `${k}, without the Stop entry` : k)), ...(s.hooks.plugin ? ['plugin'] : [])];
  const bad = (['project', 'local', 'user'] as const).filter((k) => s.hooks[k] === null);
  log(
    `${pc.bold('hooks')}     Claude Code: ${scopes.length ? `installed (${scopes.join(', ')})` : `not installed${s.hooks.claudeFix ? ` (${s.hooks.claudeFix})` : ''}`}` +
      `${bad.length ? `; unreadable settings: ${bad.join(', ')}` : ''}${agentsText(s.hooks.agents)}; pre-commit: ${guardText(s.hooks.guard, findRootFast(i.cwd))}`,
  );
  const changed = s.integrity.filter((f) => !f.level);
  log(`${pc.bold('install')}   ${changed.length ? `${pc.red(`${changed.length} changed`)} since git kizu init (review may be switched off):` : 'no hook file changed since git kizu init, no setting switches hooks off'}`);
  for (const f of changed) log(`  ${findingLine(f, findRootFast(i.cwd))}`);
  // Settings that can weaken review but may be the user's own, then notes.
  for (const f of s.integrity.filter((x) => x.level === 'warn')) log(`  ${pc.yellow('warning:')} ${findingLine(f, findRootFast(i.cwd))}`);
  for (const f of s.integrity.filter((x) => x.level === 'info')) log(`  note: ${findingLine(f, findRootFast(i.cwd))}`);
  log(`${pc.bold('storage')}   ${storageText(s.storage)}`);
  for (const f of s.config) log(`${pc.bold('config')}    ${f.actionable ? pc.yellow(f.detail) : f.detail}; ${f.fix}`);
  for (const l of hiddenFindingLines(s.hidden, q)) log(pc.yellow(l));
  for (const l of s.lost) log(`${pc.bold('lost')}      ${pc.red(l.what)}; restore: ${printable(l.fix)}`);
  for (const f of s.unscanned) log(pc.yellow(`not read: ${q(f.path)}: ${printable(f.reason)}; its review remarks are not known (the stop is held until it can be read)`));
  // The last line says what holds the agent: only true if an agent's Stop hook is installed and runs.
  // Claude Code's settings with git-kizu's hooks but no Stop entry in any of them (and no plugin): doctor says the same.
  const claudeScopesOn = (['project', 'local', 'user'] as const).filter((k) => s.hooks[k]);
  const claudeNoStop = !s.hooks.plugin && claudeScopesOn.length > 0 && claudeScopesOn.every((k) => s.hooks.claudeNoStop.includes(k));
  const stopOff = claudeNoStop || s.integrity.some((f) => f.weakens === 'stop' && f.level !== 'info');
  const hooked = (['project', 'local', 'user'] as const).some((k) => s.hooks[k] !== false) || s.hooks.plugin || s.hooks.agents.some((a) => a.installed !== 'missing');
  log(
    !blocking
      ? pc.green('nothing blocks the agent')
      : !hooked
        ? `${pc.yellow('not done:')} these must be resolved, but no agent's Stop hook is installed here (git kizu init installs it)`
        : stopOff
          ? `${pc.yellow('not done:')} these must be resolved, but the agent's Stop hook may not run (see ${claudeNoStop && !s.integrity.some((f) => f.weakens === 'stop' && f.level !== 'info') ? 'hooks' : 'install'} above): it may stop without resolving them`
          : `${pc.yellow('not done:')} the agent's Stop hook blocks until these are resolved`,
  );
  return code;
}

export { hunkRange, shortId };
