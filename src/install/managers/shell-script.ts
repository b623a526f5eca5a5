/**
 * Adding the guard to a shell script a hook manager runs (husky's `.husky/pre-commit`, a
 * `pre-commit` in a committed `core.hooksPath` directory): one insertion at the end of the
 * file, `# <GUARD_COMMENT>` and {@link GUARD_COMMAND} on lines of their own, ended by LF even
 * in a file with CRLF line endings (sh reads `fi\r` as a word, not the `fi` that closes the
 * guard's `if`: a CRLF guard line would break every commit); a file without a final newline
 * gets one at the start of the insertion, so removing the insertion gives back the exact bytes.
 */
import { GUARD_COMMAND, GUARD_COMMENT } from './guard-line.js';
import type { AddPlan } from './types.js';

/** The guard's two lines (comment and command), each ended by LF. */
export function guardLines(): string {
  return `# ${GUARD_COMMENT}\n${GUARD_COMMAND}\n`;
}

/** True if `text` holds {@link GUARD_COMMAND}. */
export function hasGuard(text: string): boolean {
  return text.includes(GUARD_COMMAND);
}

/**
 * Plans appending the guard to the sh script `text` (null: absent, then the file is
 * `created` exactly). A script whose last command is `exit` or `exec` would never reach a
 * line after it: that one is printed instead (`print`), as is a script run by another
 * interpreter (`#!` naming something other than a POSIX-like shell).
 */
export function planShellAppend(text: string | null, created: string, file: string): AddPlan {
  if (text === null) return { kind: 'insert', insertion: { offset: 0, text: created } };
  if (hasGuard(text)) return { kind: 'present' };
  const snippet = guardLines();
  const first = text.split(/\r?\n/, 1)[0];
  if (first.startsWith('#!') && !/\b(sh|bash|dash|ksh|zsh)\b/.test(first)) {
    return { kind: 'print', snippet, why: `${file} is not a shell script (${first}), so git-kizu does not edit it; run this command from it` };
  }
  const commands = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const last = commands[commands.length - 1];
  if (last !== undefined && /^(exit|exec)\b/.test(last)) {
    return { kind: 'print', snippet, why: `${file} ends with \`${last}\`, so a line added after it would never run; add these lines before it` };
  }
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  return { kind: 'insert', insertion: { offset: text.length, text: lead + guardLines() } };
}
