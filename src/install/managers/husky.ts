/**
 * husky 9 (https://typicode.github.io/husky/): `husky` (run by the `prepare` script on every
 * `npm install`) sets `core.hooksPath` to `.husky/_` and writes there one stub per git hook,
 * which runs the user's `.husky/<hook>` with `sh -e` (and exits 0 when that file is absent).
 * So kizu's guard goes into `.husky/pre-commit`, the file husky never rewrites: two lines at
 * its end (the file created if absent). husky 4-8 (`core.hooksPath` `.husky`, the file is the
 * git hook itself) take the same lines.
 *
 * Detected when `core.hooksPath` is `.husky/_` or `.husky` (husky owns it), or a `.husky/`
 * directory exists (a clone where `npx husky` has not run yet). husky has no local-only
 * configuration.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { guardLines, hasGuard, planShellAppend } from './shell-script.js';
import type { Detected, DetectInput, HookManager } from './types.js';

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The `core.hooksPath` value normalised for comparison (`./.husky/_/` → `.husky/_`), relative to `root` when inside it. */
function normHooksPath(root: string, v: string): string {
  const rel = path.relative(root, path.resolve(root, v));
  return rel.split(path.sep).join('/');
}

/** The husky integration. */
export const husky: HookManager = {
  id: 'husky',
  detect(i: DetectInput): Detected | null {
    const hp = i.hooksPath ? normHooksPath(i.root, i.hooksPath) : null;
    const owns = hp === '.husky/_' || hp === '.husky';
    if (!owns && !isDir(path.join(i.root, '.husky'))) return null;
    return {
      id: 'husky',
      file: path.join(i.root, '.husky', 'pre-commit'),
      label: 'husky (.husky/pre-commit)',
      createMode: 0o644,
      reinstall: 'npx husky',
      ownsHooksPath: owns,
    };
  },
  plan(text, d) {
    return planShellAppend(text, guardLines(), path.relative(path.dirname(path.dirname(d.file)), d.file));
  },
  has: hasGuard,
  hookProblem(i) {
    const hp = i.hooksPath ? normHooksPath(i.root, i.hooksPath) : null;
    if (hp === '.husky') return null; // husky 4-8: .husky/pre-commit is the git hook
    if (hp !== '.husky/_' || !isFileAt(path.join(i.root, '.husky', '_', 'pre-commit'))) {
      return { why: "husky's git hooks are not installed in this clone (core.hooksPath is not .husky/_)", fix: 'npx husky' };
    }
    return null;
  },
};

function isFileAt(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
