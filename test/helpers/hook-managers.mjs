// The hook managers the integration tests run for real, and applying a manager adapter's
// plan (src/install/managers/) to a config file the way init and teardown do.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Absolute path of hook manager `name` (test/helpers/tools.mjs `tool`). */
export { tool as toolBin, preCommitBin } from './tools.mjs';

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
