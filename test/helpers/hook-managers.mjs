// The hook managers the integration tests run for real, and applying a manager adapter's
// plan (src/install/managers/) to a config file the way init and teardown do.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './sandbox.mjs';

const BIN_DIR = path.join(ROOT, 'test', 'tools', 'node_modules', '.bin');

/**
 * Absolute path of hook manager `name` ('husky' | 'lefthook' | 'simple-git-hooks') installed
 * by `npm run test:tools` under test/tools/. Throws (a failing test, never a skip) when it is missing.
 */
export function toolBin(name) {
  const p = path.join(BIN_DIR, name);
  assert.ok(existsSync(p), `${p} is missing: run \`npm run test:tools\``);
  return p;
}

/**
 * Absolute path of the pre-commit framework's `pre-commit` on PATH (.ci/run installs it from
 * Debian). Throws when it is not installed.
 */
export function preCommitBin() {
  const r = spawnSync('sh', ['-c', 'command -v pre-commit'], { encoding: 'utf8' });
  assert.equal(r.status, 0, 'the pre-commit framework is not on PATH: install it (apt-get install pre-commit; .ci/run does)');
  return r.stdout.trim();
}

/**
 * What a commit run through a hook manager printed (stdout then stderr), with CRLF line ends
 * made LF: lefthook 2.1 runs commands in a pseudo-terminal, which turns their `\n` into `\r\n`.
 */
export const managerOutput = (r) => (r.stdout + r.stderr).replaceAll('\r\n', '\n');

/** `text` with a plan's insertion ({offset, text}) spliced in (`text` null: the file was absent). */
export const withInsertion = (text, ins) => (text ?? '').slice(0, ins.offset) + ins.text + (text ?? '').slice(ins.offset);

/** `text` with an insertion that {@link withInsertion} made taken out again (asserts the bytes are there). */
export function withoutInsertion(text, ins) {
  assert.equal(text.slice(ins.offset, ins.offset + ins.text.length), ins.text, 'the inserted text is no longer at its offset');
  return text.slice(0, ins.offset) + text.slice(ins.offset + ins.text.length);
}

/**
 * Runs `manager.plan` (manager: a HookManager loaded through `src()`) on the file at absolute
 * path `file` (absent: null) and writes the result; asserts the plan is an insertion and
 * returns it ({offset, text}).
 */
export function applyPlan(manager, file, detected = { id: manager.id, file, label: manager.id }) {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const plan = manager.plan(before, detected);
  assert.equal(plan.kind, 'insert', JSON.stringify(plan));
  writeFileSync(file, withInsertion(before, plan.insertion));
  return plan.insertion;
}

/** Takes an insertion made by {@link applyPlan} out of `file` again. */
export function revertPlan(file, insertion) {
  writeFileSync(file, withoutInsertion(readFileSync(file, 'utf8'), insertion));
}
