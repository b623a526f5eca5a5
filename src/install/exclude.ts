/**
 * Local scope leaves `git status` clean: the files `git kizu init --scope local` creates in
 * the working tree (`.claude/settings.local.json`, `.claude/commands/kizu.md`), and the
 * review queue `.claude/review-queue.md` that `git kizu queue add` creates, are added to
 * git's exclude file (gitignore(5): `$GIT_DIR/info/exclude`, found with
 * `git rev-parse --git-path info/exclude`; shared by the clone's worktrees) unless git already
 * ignores them or tracks them. Each is one line, `/<path from the root>` (a leading slash
 * anchors a gitignore pattern at the top of the working tree), appended and recorded
 * (state.ts `ExcludeRecord`: file, offset, inserted text), so teardown removes exactly those
 * bytes (at the recorded offset if they are still there, else their single occurrence; else
 * it warns and leaves the file) and the exclude file ends byte-identical to before init.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { git, splitZ } from '../git/run.js';
import { KizuError } from '../errors.js';
import type { ExcludeRecord } from './state.js';
import { locateInsertion } from './insertion.js';

/**
 * The exclude file git reads for the repository at `root` (absolute; it may not exist).
 * @throws KizuError (exit 2) if git fails.
 */
export async function excludeFilePath(root: string): Promise<string> {
  const r = await git(['rev-parse', '--git-path', 'info/exclude'], { cwd: root });
  return path.resolve(root, r.stdout.toString('utf8').replace(/\r?\n$/, ''));
}

/**
 * Of `rels` (paths relative to the working tree root, `/`-separated), those git neither
 * tracks (`git ls-files`) nor ignores (`git check-ignore`, any ignore source): the ones that
 * would show in `git status` as untracked.
 * @throws KizuError (exit 2) if git fails.
 */
export async function needExclude(root: string, rels: string[]): Promise<string[]> {
  if (!rels.length) return [];
  const [tracked, ignored] = await Promise.all([
    git(['ls-files', '-z', '--', ...rels.map((r) => `:(literal)${r}`)], { cwd: root }),
    git(['check-ignore', '-z', '--stdin'], { cwd: root, input: rels.map((r) => `${r}\0`).join(''), okStatus: [0, 1] }),
  ]);
  const skip = new Set([...splitZ(tracked.stdout), ...splitZ(ignored.stdout)]);
  return rels.filter((r) => !skip.has(r));
}

/** The exclude line for working-tree path `rel`. */
export function excludeLine(rel: string): string {
  return `/${rel}\n`;
}

/**
 * The text of `file` (null if absent) with a line for each of `rels` appended, and the
 * records of those insertions. A file not ending in a newline gets one before the first line.
 */
export function appendExcludeLines(file: string, before: string | null, rels: string[]): { text: string; added: ExcludeRecord[] } {
  let text = before ?? '';
  const added: ExcludeRecord[] = [];
  for (const rel of rels) {
    const ins = (text && !text.endsWith('\n') ? '\n' : '') + excludeLine(rel);
    added.push({ file, offset: text.length, text: ins, createdFile: before === null });
    text += ins;
  }
  return { text, added };
}

/**
 * Removes recorded insertions from `text` (the exclude file's content now), newest first:
 * each at its offset if its bytes are still there, else its single occurrence. The newline
 * an insertion starts with (the file had no final newline) is kept when text follows it,
 * so that no two lines are joined.
 * @returns the new text and the insertions that could not be found (or were found more than
 *   once), which are left in place.
 */
export function removeExcludeLines(text: string, recs: ExcludeRecord[]): { text: string; missing: ExcludeRecord[] } {
  let t = text;
  const missing: ExcludeRecord[] = [];
  // The newline init put before its line stays when something follows (it would join two lines).
  const cut = (at: number, r: ExcludeRecord) => {
    const end = at + r.text.length;
    const start = r.text.startsWith('\n') && end < t.length ? at + 1 : at;
    t = t.slice(0, start) + t.slice(end);
  };
  for (const r of [...recs].reverse()) {
    const at = locateInsertion(t, r);
    if (typeof at === 'number') cut(at, r);
    else missing.push(r);
  }
  return { text: t, missing };
}

/**
 * The exclude file's text, or null if it does not exist.
 * @throws KizuError (exit 2) if it cannot be read (a directory, no permission).
 */
export function readExcludeFile(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new KizuError(`cannot read ${file}: ${(e as Error).message}`, { hint: 'fix it (git reads it as the exclude file), then run the command again; nothing was changed' });
  }
}
