/**
 * `git kizu journal [--session <id>] [--json]`: lists the edit journal (refs/kizu/journal,
 * src/rollback/journal/journal.ts), oldest first in the order the edits happened (readJournal).
 */
import { EXIT, KizuError } from '../errors.js';
import type { Reporter } from '../output.js';
import { printable } from '../printable.js';
import { gitDirFast, repoInfo } from '../git/repo.js';
import { quoteCStyle } from '../git/quote.js';
import { pathQuoter } from '../git/path-quoter.js';
import { sameWorktree } from '../rollback/snapshots/store.js';
import { readJournal, shortIds, type JournalEntry } from '../rollback/journal/journal.js';
import { counts, entryLine, rolledBackBy } from '../rollback/journal/patch-rollback.js';

export interface JournalCommandInput {
  cwd: string;
  /** Only entries of this Claude Code session (a prefix of `session_id` is enough). */
  session?: string;
  json: boolean;
  reporter: Reporter;
}

/**
 * Prints the journal. Text (paths quoted as git quotes them): one line per entry, `<short id>  <time UTC>  <tool> <path>  +a -r`
 * (`(+N more)` after the path of a multi-file entry, whose other files follow as
 * `    also <path>  +a -r`), then `  rolled back by <short>` / `  undoes <short>, ...` where
 * that applies, `  session <first 8 characters>` when the entry has one, and
 * `  worktree <path>` for an entry made in another worktree (the journal is shared by all
 * worktrees; rollback patch rolls an entry back only in its own). `--json`: an array of
 * `{id, shortId, time, tool, session, toolUseId, files: [{path, before, after, added,
 * removed, mode?, beforeUnknown?}], rollbackOf: [ids], rolledBackBy: id | null,
 * worktree: path | null, otherWorktree: boolean}` (worktree null: recorded before entries
 * named theirs).
 * @returns 0 (also for an empty journal, which is said on stdout; `[]` with --json).
 * @throws KizuError (exit 2) outside a git working tree, for an empty --session value, or a
 *   corrupt journal.
 */
export async function journalCommand(i: JournalCommandInput): Promise<number> {
  const { root } = await repoInfo(i.cwd);
  if (i.session !== undefined && !i.session) throw new KizuError('--session needs a session id', { hint: 'see the session ids in git kizu journal --json' });
  const all = await readJournal(root);
  const short = shortIds(all);
  const undone = rolledBackBy(all);
  const shown: JournalEntry[] = i.session === undefined ? all : all.filter((e) => e.session !== null && e.session.startsWith(i.session!));
  const gitDir = gitDirFast(root);
  const elsewhere = (e: JournalEntry): boolean => !!e.worktree && !!gitDir && !sameWorktree({ worktree: e.worktree, worktreeId: e.worktreeId }, root, gitDir);
  if (i.json) {
    const out = shown.map((e) => ({
      id: e.id,
      shortId: short.get(e.id),
      time: e.time,
      tool: e.tool,
      session: e.session,
      toolUseId: e.toolUseId,
      files: e.files,
      rollbackOf: e.rollbackOf ?? [],
      rolledBackBy: undone.get(e.id)?.id ?? null,
      worktree: e.worktree ?? null,
      otherWorktree: elsewhere(e),
    }));
    i.reporter.log(JSON.stringify(out, null, 2));
    return EXIT.OK;
  }
  if (!shown.length) {
    i.reporter.log(
      i.session === undefined
        ? 'no journal entries (the journal hook installed by `git kizu init` records the agent\'s edits; `git kizu patch apply` records its patches)'
        : `no journal entries for session ${i.session}`,
    );
    return EXIT.OK;
  }
  const q = pathQuoter(root);
  for (const e of shown) {
    // The tool name and session come from the agent's hook payload: escaped, one line.
    let line = printable(entryLine(e, short, q));
    const by = undone.get(e.id);
    if (by) line += `  rolled back by ${short.get(by.id)}`;
    if (e.rollbackOf?.length) line += `  undoes ${e.rollbackOf.map((id) => short.get(id) ?? id.slice(0, 8)).join(', ')}`;
    if (e.session) line += `  session ${printable(e.session.slice(0, 8))}`;
    if (elsewhere(e)) line += `  worktree ${quoteCStyle(e.worktree!)}`;
    i.reporter.log(line);
    for (const f of e.files.slice(1)) i.reporter.log(`    also ${q(f.path)}  ${counts(f)}`);
  }
  return EXIT.OK;
}
