/**
 * A plain `core.hooksPath` directory committed to the repository (e.g. `.githooks`, set with
 * `git config core.hooksPath .githooks` by every teammate): its `pre-commit` is a shared
 * file, so kizu adds the same two lines there on every machine (no path of this machine),
 * or creates `pre-commit` (`#!/bin/sh` + the lines, mode 0755). A `core.hooksPath`
 * directory that git does not track is treated like `.git/hooks` (install/git-hook.ts).
 * husky's directories (`.husky`, `.husky/_`) belong to husky.ts. No local-only configuration.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { guardLines, hasGuard, planShellAppend } from './shell-script.js';
import type { Detected, DetectInput, HookManager } from './types.js';

/** The committed `core.hooksPath` directory integration. */
export const hooksPath: HookManager = {
  id: 'hooks-path',
  detect(i: DetectInput): Detected | null {
    if (!i.hooksPath || !i.hooksPathTracked) return null;
    const dir = path.resolve(i.root, i.hooksPath);
    const rel = path.relative(i.root, dir).split(path.sep).join('/');
    if (rel === '.husky' || rel === '.husky/_') return null;
    const file = path.join(dir, 'pre-commit');
    const shown = rel && !rel.startsWith('..') ? `${rel}/pre-commit` : file;
    const afterEdit = `next: commit ${shown} (the hooks directory is shared: every clone whose core.hooksPath names it runs the guard; the lines hold no path of this machine)`;
    return { id: 'hooks-path', file, label: `core.hooksPath (${shown})`, createMode: 0o755, ownsHooksPath: true, afterEdit };
  },
  plan(text, d) {
    return planShellAppend(text, `#!/bin/sh\n${guardLines()}`, d.label);
  },
  has: hasGuard,
  hookProblem(_i, d) {
    try {
      accessSync(d.file, constants.X_OK);
      return null;
    } catch {
      return { why: `${d.file} is not executable, so git does not run it`, fix: `chmod +x ${JSON.stringify(d.file)}` };
    }
  },
};
