/**
 * Which agents `git kizu init` / `teardown` / `status` work on, and the part of init and
 * teardown that is the same for every agent other than Claude Code (whose settings install
 * is install.ts itself): each agent's install module (src/agents/<agent>/install.ts, an
 * `AgentInstaller` of src/agents/registry.ts) says what to write; this module checks it
 * (phase 1: nothing written yet), writes it (atomically, never through a symbolic link,
 * mode kept) and records it in the scope's install record (state.ts `agents`), and on
 * teardown takes out exactly that.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError } from '../errors.js';
import { AGENTS, isAgent, loadInstaller, type AgentHookState, type AgentInstallContext, type AgentInstaller, type AgentInstallPlan, type AgentName, type AgentRemovePlan } from '../agents/registry.js';
import type { Reporter } from '../output.js';
import type { InstallRecord } from './state.js';
import { sha256 } from './digest.js';
import { noteLink, removeOrRestoreLink, writeNotThroughLink, writeOrRestoreLink } from './links.js';
import { recordedBinPath, renderHookScript, SCRIPT_MARKER } from './scripts.js';
import { HOOK_SCRIPT, type InstallTargets, type Scope } from './targets.js';

/** An agent other than Claude Code (installed by its own module). */
export type OtherAgent = Exclude<AgentName, 'claude'>;

/** How Claude Code gets git-kizu's hooks: its settings file (init writes them) or the plugin (init prints the commands). */
export type ClaudeVia = 'settings' | 'plugin';

/**
 * Parses `--agent` (a comma-separated list of {@link AGENTS}, each once).
 * @throws KizuError (exit 2) for an empty or unknown name.
 */
export function parseAgentList(text: string): AgentName[] {
  const names = text.split(',').map((s) => s.trim().toLowerCase());
  const out: AgentName[] = [];
  for (const n of names) {
    if (!isAgent(n)) {
      throw new KizuError(`unknown agent "${n}" in --agent ${text}`, { hint: `name one or more of ${AGENTS.join(', ')}, separated by commas (e.g. --agent claude,codex)` });
    }
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** The context an agent's install module gets for `t` (scope local is refused before). */
export function agentContext(t: InstallTargets, agent: OtherAgent, env: NodeJS.ProcessEnv): AgentInstallContext {
  const suffix = t.scope === 'user' ? ' --scope user' : '';
  const initCmd = `git kizu init --agent ${agent}${suffix}`;
  const teardownCmd = `git kizu teardown --agent ${agent}${suffix}`;
  return {
    scope: t.scope === 'user' ? 'user' : 'project',
    root: t.repo?.root ?? null,
    home: t.home,
    env,
    runner: renderHookScript('kizu-hook.sh', { bin: recordedBinPath(), initCmd, teardownCmd }),
    initCmd,
    teardownCmd,
  };
}

/**
 * The agents init installs when `--agent` is not given: Claude Code if `<root>/.claude` or
 * `~/.claude` exists, and each other agent whose configuration folder exists (its
 * installer's `detect`); Claude Code alone when none does. With `--scope local` (a Claude
 * Code settings scope only) it is Claude Code alone.
 */
export async function defaultAgents(t: InstallTargets, env: NodeJS.ProcessEnv): Promise<AgentName[]> {
  if (t.scope === 'local') return ['claude'];
  const out: AgentName[] = [];
  if ((t.repo && existsSync(path.join(t.repo.root, '.claude'))) || existsSync(path.join(t.home, '.claude'))) out.push('claude');
  for (const a of AGENTS) {
    if (a === 'claude') continue;
    const inst = await loadInstaller(a);
    const ctx = agentContext(t, a, env);
    // The repository's folder or the home directory's: an agent used on this machine is reviewed here too.
    if (inst.detect(ctx) || (ctx.scope === 'project' && inst.detect({ ...ctx, scope: 'user' }))) out.push(a);
  }
  return out.length ? out : ['claude'];
}

/**
 * Refuses agents that have no such scope.
 * @throws KizuError (exit 2) for an agent other than claude with `--scope local`.
 */
export function checkScope(agents: AgentName[], scope: Scope): void {
  const others = agents.filter((a) => a !== 'claude');
  if (scope === 'local' && others.length) {
    throw new KizuError(`--scope local is Claude Code's settings.local.json; ${others.join(', ')} ${others.length > 1 ? 'have' : 'has'} no local scope`, {
      hint: `use --scope project (the repository's files) or --scope user (your home directory's) for ${others.join(', ')}`,
    });
  }
}

/** One agent's checked plan. */
export interface PlannedAgent {
  agent: OtherAgent;
  installer: AgentInstaller;
  ctx: AgentInstallContext;
  plan: AgentInstallPlan;
}

/**
 * Phase 1 of init for the agents: loads each installer and plans its writes, checking that
 * each target can be written (no directory or non-file there, no parent that is a file).
 * @throws KizuError (exit 2) from an installer (unreadable or invalid configuration) or for
 *   a target that is not a regular file; nothing has been written then.
 */
export async function planAgents(t: InstallTargets, agents: OtherAgent[], env: NodeJS.ProcessEnv, rec: InstallRecord | null): Promise<PlannedAgent[]> {
  const out: PlannedAgent[] = [];
  for (const agent of agents) {
    const installer = await loadInstaller(agent);
    const ctx = agentContext(t, agent, env);
    const plan = installer.planInstall(ctx);
    for (const w of plan.writes) {
      assertRegularOrAbsent(w.file);
      if (w.owned) assertOursOrAbsent(w.file, w.text, rec?.agents?.[agent]?.files[w.file], ctx.initCmd);
    }
    out.push({ agent, installer, ctx, plan });
  }
  return out;
}

/**
 * A file git-kizu owns whole (a runner, `.github/hooks/kizu.json`) may be written only where
 * there is none, or where the one there is git-kizu's: the same text, the generated header
 * of a runner, a file this scope's init created and nobody changed since, or hook settings
 * that run only git-kizu's runner.
 * @throws KizuError (exit 2) for a file of the user's at that path; nothing has been written.
 */
function assertOursOrAbsent(file: string, text: string, fr: { created: boolean; sha256: string } | undefined, initCmd: string): void {
  let cur: string;
  try {
    cur = readFileSync(file, 'utf8');
  } catch {
    return; // absent (a link to nothing is replaced, never written through)
  }
  if (cur === text || cur.includes(SCRIPT_MARKER) || (fr?.created && fr.sha256 === sha256(cur)) || runsOnlyOurRunner(cur)) return;
  throw new KizuError(`${file} exists and is not git-kizu's: ${initCmd.replace(/^git kizu init/, 'init')} would overwrite it`, {
    hint: `move it away (or merge what it does into another file), then run \`${initCmd}\` again (nothing was written)`,
  });
}

/** True for JSON hook settings whose every command runs git-kizu's runner (`kizu-hook.sh`): an earlier git-kizu's file. */
function runsOnlyOurRunner(text: string): boolean {
  const commands: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'command' || k === 'bash') && typeof x === 'string') commands.push(x);
        else walk(x);
      }
    }
  };
  try {
    walk(JSON.parse(text));
  } catch {
    return false;
  }
  return commands.length > 0 && commands.every((c) => c.includes(HOOK_SCRIPT));
}

/** @throws KizuError (exit 2) when something other than a regular file or a symbolic link is at `file`, or a parent is not a directory. */
function assertRegularOrAbsent(file: string): void {
  for (let d = path.dirname(file); d !== path.dirname(d); d = path.dirname(d)) {
    try {
      if (!lstatSync(d).isDirectory() && !lstatSync(d).isSymbolicLink()) {
        throw new KizuError(`cannot write ${file}: ${d} is not a directory`, { hint: `move ${d} away, then run the command again` });
      }
      break;
    } catch (e) {
      if (e instanceof KizuError) throw e;
    }
  }
  try {
    const st = lstatSync(file);
    if (!st.isFile() && !st.isSymbolicLink()) throw new KizuError(`cannot write ${file}: it is not a regular file`, { hint: `move it away, then run the command again` });
  } catch (e) {
    if (e instanceof KizuError) throw e;
  }
}

/** True if `file` is inside directory `dir`. */
function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Creates `dir` and its missing parents; @returns the directories created, outermost first. */
type Mkdirs = (dir: string) => string[];

/**
 * Phase 2 of init for one agent: writes the planned files (unchanged ones are left alone),
 * records each in `rec.agents[agent]`, and reports each file and the agent's notes.
 */
export async function applyAgent(p: PlannedAgent, rec: InstallRecord, r: Reporter, show: (file: string) => string, mkdirs: Mkdirs, addDirs: (ds: string[]) => void): Promise<void> {
  const agents = (rec.agents ??= {});
  const mine = (agents[p.agent] ??= { files: {} });
  for (const w of p.plan.writes) {
    let before: string | null = null;
    try {
      before = readFileSync(w.file, 'utf8');
    } catch {
      before = null;
    }
    const prev = mine.files[w.file];
    // A shared file in the working tree as it was before the first init: teardown puts these
    // exact bytes back while the file is as init left it (removing entries alone would drop an
    // empty "hooks" or event array that was there, and the layout around them).
    const keepBefore = prev ? prev.before : !w.owned && before !== null && p.ctx.root !== null && isInside(p.ctx.root, w.file) ? before : undefined;
    mine.files[w.file] = { created: (prev?.created ?? false) || before === null, owned: w.owned, sha256: sha256(w.text), ...(keepBefore !== undefined ? { before: keepBefore } : {}) };
    if (before === w.text) {
      r.log(`unchanged ${show(w.file)}`);
      continue;
    }
    addDirs(mkdirs(path.dirname(w.file)));
    noteLink(rec, w.file);
    await writeNotThroughLink(w.file, w.text, w.mode);
    r.log(`${before === null ? 'created' : 'updated'} ${show(w.file)}`);
  }
  for (const n of p.plan.notes) r.log(n);
}

/** One agent's checked removal. */
export interface PlannedRemoval {
  agent: OtherAgent;
  plan: AgentRemovePlan;
}

/**
 * Phase 1 of teardown for the agents: what each removes.
 * @throws KizuError (exit 2) from an installer (an unreadable or invalid configuration).
 */
export async function planAgentRemovals(t: InstallTargets, agents: OtherAgent[], env: NodeJS.ProcessEnv): Promise<PlannedRemoval[]> {
  const out: PlannedRemoval[] = [];
  for (const agent of agents) out.push({ agent, plan: (await loadInstaller(agent)).planRemove(agentContext(t, agent, env)) });
  return out;
}

/**
 * The agents teardown removes when `--agent` is not given: those the install record lists,
 * and those whose hooks are registered for this scope without a record.
 */
export async function installedAgents(t: InstallTargets, rec: InstallRecord | null, env: NodeJS.ProcessEnv): Promise<OtherAgent[]> {
  const out: OtherAgent[] = [];
  for (const a of AGENTS) {
    if (a === 'claude') continue;
    if (rec?.agents?.[a] || (t.scope !== 'local' && (await loadInstaller(a)).state(agentContext(t, a, env)).installed !== 'missing')) out.push(a);
  }
  return out;
}

/**
 * Phase 2 of teardown for one agent: takes git-kizu's entries out of shared files (deleting
 * a file init created once nothing else is left in it), deletes git-kizu's own files init
 * created and nobody changed since (a changed one is kept, with a warning), and drops the
 * agent from `rec`. @returns how many files it touched.
 */
export async function removeAgent(p: PlannedRemoval, rec: InstallRecord | null, r: Reporter, show: (file: string) => string): Promise<number> {
  const files = rec?.agents?.[p.agent]?.files ?? {};
  let did = 0;
  for (const w of p.plan.writes) {
    const fr = files[w.file];
    const created = fr?.created ?? false;
    let cur: string | null = null;
    try {
      cur = readFileSync(w.file, 'utf8');
    } catch {
      cur = null;
    }
    if (fr?.before !== undefined && cur !== null && sha256(cur) === fr.sha256) {
      // Unchanged since init wrote it: the bytes from before init, exactly.
      const a = await writeOrRestoreLink(rec, w.file, fr.before);
      r.log(a === 'restored' ? `restored ${show(w.file)}` : `updated ${show(w.file)} (removed the git-kizu hooks)`);
      did++;
      continue;
    }
    if (w.text === null && created) {
      const a = removeOrRestoreLink(rec, w.file);
      r.log(`${a} ${show(w.file)}`);
    } else {
      const a = await writeOrRestoreLink(rec, w.file, w.text ?? w.empty);
      r.log(a === 'restored' ? `restored ${show(w.file)}` : `updated ${show(w.file)} (removed the git-kizu hooks)`);
    }
    did++;
  }
  for (const file of p.plan.deletes) {
    if (!existsSync(file)) continue;
    const fr = files[file];
    let cur: string | null = null;
    try {
      cur = readFileSync(file, 'utf8');
    } catch {
      cur = null;
    }
    if (fr && !fr.created) {
      r.log(`kept ${show(file)} (it existed before init)`);
      continue;
    }
    if (!fr && cur !== null && !cur.includes(SCRIPT_MARKER) && !runsOnlyOurRunner(cur)) {
      // No record of init writing it (the record is lost): only what is recognisably git-kizu's goes.
      r.warn(`kept ${show(file)}: it is not git-kizu's (no generated header, and no install record says init wrote it)`);
      continue;
    }
    if (fr && cur !== null && sha256(cur) !== fr.sha256) {
      r.warn(`kept ${show(file)}: it was modified after \`git kizu init\`; delete it yourself if you no longer want it`);
      continue;
    }
    const a = removeOrRestoreLink(rec, file);
    r.log(`${a} ${show(file)}`);
    did++;
  }
  for (const n of p.plan.notes) r.log(n);
  if (rec?.agents) delete rec.agents[p.agent];
  return did;
}

/** One agent's hooks in one scope, for status and doctor. */
export interface AgentScopeState extends AgentHookState {
  agent: OtherAgent;
  scope: 'project' | 'user';
}

/**
 * Whether each agent other than Claude Code has git-kizu's hooks, in the repository at
 * `root` (project scope) and in `home` (user scope), and whether it will run them. From
 * files only; never throws for one agent's unreadable file (its state says so).
 * @returns every agent × scope, in {@link AGENTS} order, project first.
 */
export async function agentStates(root: string | null, home: string, env: NodeJS.ProcessEnv): Promise<AgentScopeState[]> {
  const out: AgentScopeState[] = [];
  for (const agent of AGENTS) {
    if (agent === 'claude') continue;
    const installer = await loadInstaller(agent);
    for (const scope of root ? (['project', 'user'] as const) : (['user'] as const)) {
      const initCmd = `git kizu init --agent ${agent}${scope === 'user' ? ' --scope user' : ''}`;
      const ctx: AgentInstallContext = { scope, root, home, env, runner: '', initCmd, teardownCmd: initCmd.replace('init', 'teardown') };
      out.push({ agent, scope, ...installer.state(ctx) });
    }
  }
  return out;
}
