/**
 * A working-tree config whose gate keys were not applied (./trust.ts), and its words: in a
 * module of its own that imports nothing heavy, for the hooks' messages (hooks/text.ts).
 */
import { shellQuote } from '../words.js';

/** A working-tree config whose gate keys were not applied. */
export interface UntrustedConfig {
  /** The working tree's config file (root-relative), or null when the search found none (emptied or without a `kizu` key). */
  file: string | null;
  /** The committed config file (root-relative), or null when HEAD holds none (the defaults apply). */
  committed: string | null;
  /** How the working file stands against HEAD. */
  state: 'untracked' | 'ignored' | 'modified' | 'missing';
  /** The gate keys whose working value differs and was not applied. */
  keys: string[];
}

/** `git add <file> && git commit` (with `-f` for an ignored file), the file quoted for a POSIX shell when it needs it. */
export function commitFix(u: UntrustedConfig): string {
  const file = u.file ?? u.committed ?? '.kizurc.json';
  return `git add ${u.state === 'ignored' ? '-f ' : u.state === 'missing' ? '-A ' : ''}-- ${shellQuote(file)} && git commit`;
}

/** `.kizurc.json is not committed` and the like. */
export function untrustedWhat(u: UntrustedConfig): string {
  const file = u.file ?? u.committed ?? 'the config';
  if (u.state === 'ignored') return `${file} is ignored by git and not committed`;
  if (u.state === 'untracked') return `${file} is not committed`;
  if (u.state === 'modified') return `${file} differs from the committed one (HEAD)`;
  return `the working tree's ${file} is not the committed one (unreadable, emptied or without a config)`;
}
