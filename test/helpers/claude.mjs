// Sandbox repos for the end-to-end tests with the real Claude Code client: hooks installed by
// the real `git kizu init`, and the environment claude runs in (see fake-anthropic.mjs).
import assert from 'node:assert/strict';
import { accessSync, constants, mkdirSync } from 'node:fs';
import path from 'node:path';
import { BIN, sandbox } from './sandbox.mjs';
import { CLAUDE_BIN, claudeEnv, dropJournalHook } from './fake-anthropic.mjs';
import { commitConfig } from './config.mjs';

/** claude's arguments in the review tests: edits accepted, `git kizu ...` allowed through Bash. */
export const CLAUDE_ARGS = ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(git kizu:*)'];

/** Throws when the pinned client is missing: no skip, every e2e test fails then, saying why. */
export function requireClaude() {
  accessSync(CLAUDE_BIN, constants.X_OK);
}

/**
 * `git kizu init` in the sandbox repo, asserting it succeeded; unless `journal`, the async
 * journal hook is taken out of .claude/settings.json again (dropJournalHook; only
 * test/e2e/journal.test.mjs and test/e2e/rollback.test.mjs keep it).
 */
export function initHooks(sb, { journal = false } = {}) {
  const init = sb.kizu(['init']);
  assert.equal(init.status, 0, `git kizu init failed:\n${init.stdout}\n${init.stderr}`);
  if (!journal) {
    dropJournalHook(sb);
    // The prompt hook tells the user once that the journal entry is gone (install/integrity.ts):
    // told here, so the client's runs stay silent about this harness's own change.
    const told = sb.run(process.execPath, [BIN, 'hook', 'user-prompt-submit'], {
      input: JSON.stringify({ session_id: 'harness', transcript_path: '/dev/null', cwd: sb.dir, hook_event_name: 'UserPromptSubmit', prompt: '' }),
    });
    assert.equal(told.status, 0, told.stderr);
  }
}

/**
 * A sandbox repo holding `files` (committed), `config` as .kizurc.json (when given) and the
 * hooks (initHooks with `journal`); throws first when the client is missing. Returns the sandbox.
 */
export function claudeRepo({ files, config, journal = false } = {}) {
  requireClaude();
  const sb = sandbox({ files });
  if (config) commitConfig(sb, { '.kizurc.json': JSON.stringify(config) });
  initHooks(sb, { journal });
  return sb;
}

/**
 * The env claude runs in from the sandbox: claudeEnv() with its temp files (sockets, notes)
 * in a directory inside the sandbox, removed with it. The fake's URL is set per run.
 */
export function claudeSandboxEnv(sb) {
  const tmp = path.join(sb.base, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return claudeEnv(sb.env, 'http://127.0.0.1:9', { TMPDIR: tmp, CLAUDE_CODE_TMPDIR: tmp });
}

/**
 * The command of the one hook of `event` in .claude/settings.json whose command matches
 * `pattern` (default: the kizu Stop command, `kizu-hook.sh stop`); asserts there is exactly one.
 */
export function hookCommand(sb, event = 'Stop', pattern = /kizu-hook\.sh stop$/) {
  const hooks = JSON.parse(sb.read('.claude/settings.json')).hooks ?? {};
  const cmds = (hooks[event] ?? []).flatMap((m) => (m.hooks ?? []).map((h) => h.command)).filter((c) => pattern.test(c));
  assert.equal(cmds.length, 1, `exactly one kizu ${event} hook expected, got ${JSON.stringify(hooks[event])}`);
  return cmds[0];
}
