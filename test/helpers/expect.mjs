// Assertions on what a command run returned ({status, stdout, stderr} from sb.run / sb.kizu),
// and the exact text git-kizu prints for an error.
import assert from 'node:assert/strict';

/** Asserts exit status 0 (the message names `what` and shows stdout and stderr); returns `r`. */
export function ok(r, what = 'command') {
  assert.equal(r.status, 0, `${what} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Asserts exit status `status` (the message names `what` and shows stdout and stderr); returns `r`. */
export function exits(r, status, what = 'command') {
  assert.equal(r.status, status, `${what} exited ${r.status}, not ${status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Runs `git kizu <args>` (opts as for sb.kizu); asserts exit 0 and empty stderr; returns stdout. */
export function kizuOk(sb, args, opts = {}) {
  const r = sb.kizu(args, opts);
  assert.equal(r.status, 0, `git kizu ${args.join(' ')}: ${r.stderr}`);
  assert.equal(r.stderr, '', `git kizu ${args.join(' ')}`);
  return r.stdout;
}

/**
 * Runs `git kizu <args>` (in `cwd`, with `input` on stdin, when given) and asserts its exact
 * exit status, stdout and stderr (both default ''); returns the run.
 */
export function expectRun(sb, args, { status, stdout = '', stderr = '', cwd, input } = {}) {
  const opts = {};
  if (cwd) opts.cwd = cwd;
  if (input !== undefined) opts.input = input;
  const r = sb.kizu(args, opts);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status, stdout, stderr }, `git kizu ${args.join(' ')}`);
  return r;
}

/** The stderr of a git-kizu error: `git-kizu: error: <msg>` and, when given, `hint: <hint>`. */
export const err = (msg, hint) => `git-kizu: error: ${msg}\n` + (hint ? `hint: ${hint}\n` : '');

/**
 * The message JSON.parse gives for `text` on the running Node (V8's words differ between Node
 * lines: Node 26 adds the line and column), so a test pins the product's wrapping of it exactly.
 * @throws when `text` parses.
 */
export function jsonError(text) {
  try {
    JSON.parse(text);
  } catch (e) {
    return e.message;
  }
  throw new Error(`${text} parsed`);
}
