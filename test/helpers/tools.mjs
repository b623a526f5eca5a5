// The hook managers' real command-line tools the integration tests drive (test/tools, installed
// by `npm run test:tools`; the pre-commit framework is `pre-commit` on PATH, from .ci/run).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './sandbox.mjs';

const BIN_DIR = path.join(ROOT, 'test', 'tools', 'node_modules', '.bin');

/**
 * The absolute path of test tool `name` (`husky`, `lefthook`, `simple-git-hooks`). A missing
 * tool fails the test (never a skip) with the command that installs it.
 */
export function tool(name) {
  const p = path.join(BIN_DIR, name);
  assert.ok(existsSync(p), `${p} is missing: run \`npm run test:tools\``);
  return p;
}

/** husky 9's bin. */
export const husky = () => tool('husky');
/** lefthook's bin. */
export const lefthook = () => tool('lefthook');
/** simple-git-hooks' bin. */
export const simpleGitHooks = () => tool('simple-git-hooks');

/**
 * Absolute path of the pre-commit framework's `pre-commit` on PATH (.ci/run installs it from
 * Debian). Fails the test (never a skip) when it is not installed.
 */
export function preCommitBin() {
  const r = spawnSync('sh', ['-c', 'command -v pre-commit'], { encoding: 'utf8' });
  assert.equal(r.status, 0, 'the pre-commit framework is not on PATH: install it (apt-get install pre-commit; .ci/run does)');
  return r.stdout.trim();
}

/** The prelude simple-git-hooks 2.x writes before the configured command (from its own source). */
export function sghPrelude() {
  const src = readFileSync(path.join(ROOT, 'test', 'tools', 'node_modules', 'simple-git-hooks', 'simple-git-hooks.js'), 'utf8');
  const m = /const PREPEND_SCRIPT =\n`([^`]*)`/.exec(src);
  assert.ok(m, 'PREPEND_SCRIPT not found in simple-git-hooks.js');
  return m[1];
}
