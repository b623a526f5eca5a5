/**
 * The hook managers git-kizu integrates with, and what is common to them: recognising the
 * git hooks they generate, choosing one when several are detected, and applying / removing
 * the one recorded insertion each change is.
 *
 * To add a manager: write its module (a {@link HookManager}) and add it to {@link MANAGERS};
 * the order is the tie-break when several are detected and none is clearly in charge.
 */
import { lstatSync, readFileSync, rmSync, statSync } from 'node:fs';
import { replaceFileSync } from '../../files.js';
import { locateInsertion } from '../insertion.js';
import { husky } from './husky.js';
import { lefthook } from './lefthook.js';
import { preCommitFramework } from './pre-commit-framework.js';
import { simpleGitHooks } from './simple-git-hooks.js';
import { hooksPath } from './hooks-path.js';
import type { Detected, DetectInput, HookManager, Insertion, ManagerId } from './types.js';

/** Every manager git-kizu integrates with, in tie-break order. */
export const MANAGERS: HookManager[] = [husky, lefthook, preCommitFramework, simpleGitHooks, hooksPath];

import { generatedBy } from './generated.js';
export { generatedBy };

/** A detected manager and what it found. */
export interface Chosen {
  manager: HookManager;
  detected: Detected;
}

/**
 * The managers detected in the repository (`i`), and the one the guard goes to: the one
 * whose generated hook is the `pre-commit` git runs now (`hookText`), else the one owning
 * `core.hooksPath`, else the first in {@link MANAGERS} order. A manager whose `detect`
 * throws counts as not detected.
 * @returns null when none is detected.
 */
export function chooseManager(i: DetectInput, hookText: string | null, managers: HookManager[] = MANAGERS): Chosen | null {
  const found: Chosen[] = [];
  for (const manager of managers) {
    let detected: Detected | null = null;
    try {
      detected = manager.detect(i);
    } catch {
      /* not detected */
    }
    if (detected) found.push({ manager, detected });
  }
  const gen = hookText !== null ? generatedBy(hookText) : null;
  return found.find((c) => c.detected.id === gen) ?? found.find((c) => c.detected.ownsHooksPath) ?? found[0] ?? null;
}

/** The manager with this id, if git-kizu has it. */
export function managerById(id: ManagerId, managers: HookManager[] = MANAGERS): HookManager | undefined {
  return managers.find((m) => m.id === id);
}

/** A file as a manager's configuration is read: its text, null when absent; `link` when a symbolic link is there (never edited). */
export type ConfigRead = { kind: 'text'; text: string | null; mode: number | null } | { kind: 'link' } | { kind: 'binary' };

/**
 * Reads `file` without following a symbolic link at it.
 * @returns its UTF-8 text and mode, `{kind:'link'}` for a symlink, `{kind:'binary'}` when the
 *   bytes are not UTF-8 (a rewrite would change them), text null when absent.
 * @throws fs errors other than ENOENT/ENOTDIR (EACCES, EISDIR...).
 */
export function readConfig(file: string): ConfigRead {
  try {
    if (lstatSync(file).isSymbolicLink()) return { kind: 'link' };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'text', text: null, mode: null };
    throw e;
  }
  const raw = readFileSync(file);
  const text = raw.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(raw)) return { kind: 'binary' };
  return { kind: 'text', text, mode: statSync(file).mode & 0o7777 };
}

/**
 * Writes `text` with `ins` inserted to `file` atomically, replacing (never following) what is
 * at `file`, with the file's mode kept (`createMode` for a new file, default 0644).
 * @returns the new text.
 * @throws fs errors (the directory must exist).
 */
export function applyInsertion(file: string, text: string | null, mode: number | null, ins: Insertion, createMode = 0o644): string {
  const base = text ?? '';
  const next = base.slice(0, ins.offset) + ins.text + base.slice(ins.offset);
  replaceFileSync(file, next, { mode: mode ?? createMode });
  return next;
}

/** Outcome of {@link removeInsertion}. */
export type Removal =
  /** The inserted text was taken out (at its offset, or its single occurrence). */
  | { kind: 'removed'; before: string; after: string }
  /** The file init created held only the insertion: deleted. */
  | { kind: 'deleted'; before: string }
  /** The file is gone. */
  | { kind: 'absent' }
  /** The inserted text is not there, or more than once away from its offset: nothing changed. */
  | { kind: 'not-found' | 'ambiguous' | 'link' | 'binary' };

/**
 * Takes the recorded insertion `ins` out of `file`: at `ins.offset` if the text is still
 * there, else its single occurrence; a file init created (`createdFile`) that then is empty
 * (it held exactly what init wrote) is deleted. Writes replace, never follow, a link.
 * @throws fs errors.
 */
export function removeInsertion(file: string, ins: Insertion, createdFile: boolean): Removal {
  const r = readConfig(file);
  if (r.kind !== 'text') return { kind: r.kind };
  if (r.text === null) return { kind: 'absent' };
  const text = r.text;
  const at = locateInsertion(text, ins);
  if (typeof at !== 'number') return { kind: at };
  const after = text.slice(0, at) + text.slice(at + ins.text.length);
  if (createdFile && after === '') {
    rmSync(file, { force: true });
    return { kind: 'deleted', before: text };
  }
  replaceFileSync(file, after, { mode: r.mode ?? 0o644 });
  return { kind: 'removed', before: text, after };
}
