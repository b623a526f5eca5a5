// Sandbox repos with the hooks of another agent (Codex CLI, Copilot CLI) installed by that
// agent's install module (src/agents/<agent>/install.ts `installer.planInstall`), written the
// way init writes a plan: each file whole, new scripts 0755.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, src } from './sandbox.mjs';

/** The runner script for `agent` as init renders it (templates/hooks/kizu-hook.sh). */
export function runnerText(agent) {
  return readFileSync(path.join(ROOT, 'templates', 'hooks', 'kizu-hook.sh'), 'utf8')
    .replaceAll('{{INIT}}', `git kizu init --agent ${agent}`)
    .replaceAll('{{TEARDOWN}}', `git kizu teardown --agent ${agent}`);
}

/** The install context of `agent` for sandbox `sb` (registry.ts AgentInstallContext). */
export function installContext(sb, agent, { scope = 'project', env = {} } = {}) {
  return {
    scope,
    root: sb.dir,
    home: sb.home,
    env: { ...sb.env, ...env },
    runner: runnerText(agent),
    initCmd: `git kizu init --agent ${agent}`,
    teardownCmd: `git kizu teardown --agent ${agent}`,
  };
}

/** Loads `agent`'s installer (src/agents/<agent>/install.ts). */
export async function installerOf(agent) {
  return (await import(src(`agents/${agent}/install.ts`))).installer;
}

/** Writes a plan's files (directories created; `mode` for new files). */
export function writePlan(plan) {
  for (const w of plan.writes) {
    mkdirSync(path.dirname(w.file), { recursive: true });
    writeFileSync(w.file, w.text, w.mode ? { mode: w.mode } : {});
  }
}

/** Installs `agent`'s hooks in sandbox `sb` with its planInstall; returns the plan. */
export async function installAgentHooks(sb, agent, opts = {}) {
  const plan = (await installerOf(agent)).planInstall(installContext(sb, agent, opts));
  assert.ok(plan.writes.length > 0);
  writePlan(plan);
  return plan;
}
