// The marks store (refs/kizu/marks) through its API in child processes (src/marks/read.ts),
// and marks as `git kizu marks list --json` prints them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { src } from './sandbox.mjs';

/** The ref marks are stored in. */
export const REF = 'refs/kizu/marks';
/** An ISO-8601 time with milliseconds, as marks record it. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A made-up full hex hunk id. */
export const hid = (name) => createHash('sha1').update(name).digest('hex');

/** Script prelude: the store API as M, root = cwd, out(v) prints v as a JSON line, KizuError → stderr + its exit code. */
export function script(body) {
  return `import * as M from ${JSON.stringify(src('marks/read.ts'))};
const root = process.cwd();
const out = (v) => process.stdout.write(JSON.stringify(v) + '\\n');
try {
${body}
} catch (e) {
  if (e && e.name === 'KizuError') { process.stderr.write('error: ' + e.message + '\\nhint: ' + e.hint + '\\n'); process.exit(e.exitCode); }
  throw e;
}`;
}

/** Runs a store script synchronously in opts.cwd (default the sandbox repo); returns {status, stdout, stderr}. */
export function store(sb, body, opts = {}) {
  return sb.runModule(script(body), opts);
}

/** setMarks(root, updates) in a child process; asserts success. */
export function setMarks(sb, updates, opts = {}) {
  const r = store(sb, `await M.setMarks(root, ${JSON.stringify(updates)});`, opts);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: '', stderr: '' });
}

/** readMarks(root) as a plain object (sorted keys); asserts success. */
export function readMarks(sb, opts = {}) {
  const r = store(sb, `const m = await M.readMarks(root); out(Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1))));`, opts);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout);
}

/** A mark update for the made-up hunk `name`. */
export const upd = (name, state, file = 'src/a.ts', range = `${file}:1-2`) => ({ id: hid(name), state, path: file, range });

/** Number of commits on the marks ref (in `cwd`). */
export const count = (sb, cwd) => Number(sb.git('rev-list', '--count', REF, { cwd }).trim());

/** The hint git-kizu gives for a corrupt marks ref `ref`. */
export const corruptHint = (ref) =>
  `earlier values are in \`git reflog ${ref}\`; restore one with \`git update-ref ${ref} <commit>\`, or drop every mark with \`git update-ref -d ${ref}\``;

/** Builds a commit whose tree holds `name` (default marks.json) = text; returns its id. */
export function commitWithMarks(sb, text, name = 'marks.json', cwd = sb.dir) {
  const blob = sb.git('hash-object', '-w', '--stdin', { input: text, cwd }).trim();
  const tree = sb.git('mktree', { input: `100644 blob ${blob}\t${name}\n`, cwd }).trim();
  return sb.git('commit-tree', tree, '-m', 'hand-made', { cwd }).trim();
}

/** `git kizu marks list --json` parsed; asserts exit 0 and that every time is ISO_MS, then replaces it with '<time>'. */
export function marksList(sb) {
  const r = sb.kizu(['marks', 'list', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const m = JSON.parse(r.stdout);
  for (const e of Object.values(m)) {
    assert.match(e.time, ISO_MS);
    e.time = '<time>';
  }
  return m;
}
