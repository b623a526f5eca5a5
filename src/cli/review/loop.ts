/**
 * The `git kizu review` loop: shows each hunk and acts on one key, like `git add -p`.
 * Every action goes through the same command function as its non-interactive twin
 * (`git kizu tap|reject`, `git kizu scar`, `git kizu revert [-m] [--queue]`), so files,
 * refs, the saved reverts and the queue end up exactly as those commands leave them.
 *
 * Terminal-free: input comes from {@link ReviewIO} (an async key reader and a line reader),
 * so the loop can be driven by anything that produces keys.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { KizuError } from '../../errors.js';
import { pc, type Reporter } from '../../output.js';
import { printable } from '../../printable.js';
import { listHunks, shortId, hunkRange, hunkSpot, type Baseline, type Hunk } from '../../hunks/listing.js';
import { readMarks, markOf, markLabel, type MarkEntry } from '../../marks/read.js';
import { hiddenFindingLines } from '../../hunks/hidden-lines.js';
import { pathQuoter } from '../../git/path-quoter.js';
import { REVIEW_ACTIONS, ACTION_HELP, DEFAULT_REVIEW_KEYS, keyLabel, type ReviewAction } from '../../config/review-keys.js';
import { withWorkTreeLock } from '../../git/lock.js';
import { lineOfGitLine, toLines } from '../../scars/lines.js';
import { isQuitKey, isSpecialKey, type LineResult } from './input.js';

export interface ReviewIO {
  /** The next key: one character, or a KEY name from ./input.ts (`<enter>`, `<ctrl-c>`, ...). */
  readKey(): Promise<string>;
  /** Reads a line with echo after printing `prompt`. */
  readLine(prompt: string): Promise<LineResult>;
  /** Normal output (stdout). */
  write(s: string): void;
  /** Warnings and errors (stderr). */
  writeErr(s: string): void;
}

export interface ReviewOptions {
  /** Working-tree top level. */
  root: string;
  /** Absolute git dir of this worktree (for the working-tree write lock). */
  gitDir: string;
  /** Repo-root-relative paths to limit the review to ([] for all). */
  paths: string[];
  /** Also show hunks that were tapped when the review started. */
  all: boolean;
  /** Key per action (config `review.keys`, defaults filled in). */
  keys: Record<ReviewAction, string>;
  io: ReviewIO;
}

/** What a review session did. */
export interface ReviewSummary {
  tapped: number;
  rejected: number;
  scarred: number;
  reverted: number;
  skipped: number;
  /** How the loop ended: quit key, Ctrl-C / Ctrl-D / end of input, or no hunks left. */
  ended: 'quit' | 'interrupted' | 'done' | 'nothing';
}

/** `s` safe to print (a hunk may hold escape sequences): the one escape, src/printable.ts. */
export { printable };

/** One hunk as `git kizu hunks` prints it: `<shortId>  <range>  +a -r  <kind>[  [mark]]`. */
export function hunkListLine(h: Hunk, mark: string): string {
  const m = mark !== 'unreviewed' ? `  [${mark}]` : '';
  return `${pc.bold(shortId(h))}  ${printable(hunkRange(h))}  ${pc.green(`+${h.added}`)} ${pc.red(`-${h.removed}`)}  ${h.kind}${m}`;
}

/** The hunk as shown in the loop: a header line, the `@@` line, then the coloured body. */
export function renderHunk(h: Hunk, mark: string): string {
  const out = [`${pc.bold(shortId(h))}  ${printable(hunkRange(h))}  ${pc.green(`+${h.added}`)} ${pc.red(`-${h.removed}`)}  ${h.kind}  [${mark}]`, pc.cyan(printable(h.header))];
  for (const l of h.lines) {
    const s = printable(l.replace(/\r$/, ''));
    out.push(l[0] === '+' ? pc.green(s) : l[0] === '-' ? pc.red(s) : l[0] === '\\' ? pc.dim(s) : s);
  }
  return out.join('\n') + '\n';
}

/** The `?` help: one line per action with its key. */
export function helpText(keys: Record<ReviewAction, string>): string {
  return REVIEW_ACTIONS.map((a) => `${keyLabel(keys[a]).padEnd(5)} - ${ACTION_HELP[a]}`).join('\n') + '\n';
}

function errorText(e: KizuError): string {
  return `${pc.red('git-kizu: error:')} ${e.message}\n${e.hint ? `${pc.dim('hint:')} ${e.hint}\n` : ''}`;
}

/** True for revertCommand's refusal to write a reason scar (it names --queue as the way out). */
function scarRefused(e: KizuError): boolean {
  return e.message.includes('nothing was reverted') && (e.hint ?? '').includes('--queue');
}

type Outcome =
  /** Go to the next hunk; the files did not change. */
  | 'next'
  /** Go to the next hunk after re-listing (a file changed). */
  | 'next-relist'
  /** Re-list and show the hunk at the same position again (an action failed). */
  | 'again'
  | 'quit'
  | 'interrupted';

/**
 * Runs the review loop until every hunk (of `paths`, not tapped at the start unless `all`)
 * was shown, or the quit key, Ctrl-C, Ctrl-D or the end of input. After an action that
 * changes a file the hunks are listed again (their ids and lines moved) and the loop goes
 * on with the first hunk after the one just handled, by position (path, then line). A
 * failed action prints the error and shows the hunk at that position again. Ends with a
 * summary line and the hunks not tapped yet. Rejections whose hunk is gone while the change
 * is not (committed, or edited instead of reverted: cli/laundered.ts) are listed first and
 * again at the end, each with its fix.
 * @throws KizuError (exit 2) if the hunks cannot be listed at all (no baseline, git fails).
 */
export async function runReview(o: ReviewOptions): Promise<ReviewSummary> {
  const { root, io, keys } = o;
  const { markCommand } = await import('../marks.js');
  const { scarCommand } = await import('../scar.js');
  const { revertCommand } = await import('../revert.js');
  const reporter: Reporter = {
    log: (l) => io.write(l + '\n'),
    warn: (l) => io.writeErr(`${pc.yellow('git-kizu: warning:')} ${l}\n`),
  };
  // The scars and reasons written here are the reviewer's: `review` is refused inside an
  // agent's session (cli/reviewer-acts.ts), so no agent writes through it.
  const by = null;
  const byKey = new Map<string, ReviewAction>(REVIEW_ACTIONS.map((a) => [keys[a], a]));
  const sum: ReviewSummary = { tapped: 0, rejected: 0, scarred: 0, reverted: 0, skipped: 0, ended: 'done' };
  const startMarks = await readMarks(root);
  const eligible = (h: Hunk) => o.all || markOf(startMarks, h.id) !== 'tapped';
  let hunks: Hunk[] = [];
  let baseline: Baseline | null = null;
  let marks = new Map<string, MarkEntry>();
  // Changes git does not show (hunks/hidden.ts), named at the start and in the summary.
  let hidden: string[] = [];
  const relist = async () => {
    const listed = await listHunks(root, { paths: o.paths });
    hunks = listed.hunks;
    baseline = listed.baseline;
    hidden = hiddenFindingLines({ changes: listed.hidden, unreadable: listed.unreadable, rules: listed.rules }, pathQuoter(root));
    marks = await readMarks(root);
  };
  const writeHidden = () => {
    for (const l of hidden) io.write(`${pc.yellow(l)}\n`);
  };
  /** The rejections whose hunk is gone while the change is not (committed, or edited instead of reverted), one line each. */
  const gone = async (): Promise<string[]> => {
    if (![...marks.values()].some((e) => e.state === 'rejected')) return [];
    const { launderedJson, launderedLine } = await import('../laundered.js');
    const all = await launderedJson(root, marks, { baseline: baseline!, hunks });
    return all.filter((l) => !o.paths.length || o.paths.some((p) => l.path === p || l.path.startsWith(p + '/'))).map((l) => `${pc.red('rejected')}  ${printable(launderedLine(l, (p) => p))}`);
  };
  await relist();
  writeHidden();
  for (const l of await gone()) io.write(`${l}\n`);
  if (!hunks.some(eligible)) {
    io.write(hunks.length ? `every hunk is tapped (git kizu review --all shows them too)\n` : 'no hunks to review\n');
    sum.ended = 'nothing';
    return sum;
  }
  // Position of the last hunk handled: the loop continues with the first hunk after it.
  let cursor: { path: Buffer; line: number } | null = null;
  const after = (h: Hunk) => {
    if (!cursor) return true;
    const c = Buffer.compare(Buffer.from(h.path, 'utf8'), cursor.path);
    return c > 0 || (c === 0 && h.newStart > cursor.line);
  };
  let shown = 0;
  // The keys in force, when config remapped any: the reviewer sees what each keypress does.
  const moved = REVIEW_ACTIONS.filter((a) => keys[a] !== DEFAULT_REVIEW_KEYS[a]);
  if (moved.length) io.write(`keys from config review.keys: ${moved.map((a) => `${a} ${printable(keyLabel(keys[a]))}`).join(', ')} (${printable(keyLabel(keys.help))} lists every key)\n`);
  const prompt = `[${REVIEW_ACTIONS.map((a) => keyLabel(keys[a])).join(',')}]? `;

  /**
   * The hunk as it is now (same id, fresh line numbers), or null after a warning when its
   * file changed since it was shown (the loop then shows that place again).
   */
  const current = async (h: Hunk): Promise<Hunk | null> => {
    const now = (await listHunks(root, { paths: [h.path] })).hunks.find((x) => x.id === h.id);
    if (!now) io.writeErr(`${pc.yellow('git-kizu: warning:')} ${printable(h.path)} changed since hunk ${shortId(h)} was shown; nothing was done\n`);
    return now ?? null;
  };

  /**
   * Line `gitLine` of root-relative `rel` as git counts lines (a hunk's, `\n` only) as scar
   * counts them (a lone `\r` ends a line too; scars/lines.ts); `gitLine` itself when the
   * file cannot be read (the scar then says why).
   */
  const scarLine = async (rel: string, gitLine: number): Promise<number> => {
    try {
      return lineOfGitLine(toLines(await readFile(path.join(root, rel))), gitLine);
    } catch {
      return gitLine;
    }
  };

  /**
   * A scar above the hunk's first changed line, where it is now: the hunk is listed again
   * and the scar written under the working-tree write lock, so no other git-kizu write comes
   * in between, and the line is of the file as read now (`seenAt`), not as it was when this
   * review started: the scars and reverts this session wrote before are already counted in
   * it and must not move it again (scars/insert.ts lineSince).
   */
  const scar = (h: Hunk, kind: 'ask' | 'reject' | 'free', message?: string): Promise<Outcome> =>
    withWorkTreeLock(o.gitDir, async () => {
      const seenAt = Date.now();
      const now = await current(h);
      if (!now) return 'again';
      await scarCommand({ cwd: root, target: `${h.path}:${await scarLine(h.path, hunkSpot(now))}`, kind, message, undo: false, seenAt, by, reporter });
      sum.scarred++;
      return 'next-relist';
    });

  const revertWithReason = async (h: Hunk): Promise<Outcome | 'prompt'> => {
    if (!(await current(h))) return 'again';
    const r = await io.readLine('reason: ');
    if (r === 'quit') return 'interrupted';
    if (r === null || r.text.trim() === '') {
      io.write('cancelled: nothing reverted\n');
      return 'prompt';
    }
    try {
      await revertCommand({ cwd: root, hunk: h.id, message: r.text, by, reporter });
    } catch (e) {
      if (!(e instanceof KizuError) || !scarRefused(e)) throw e;
      io.writeErr(`${pc.red('git-kizu: error:')} ${e.message}\n`);
      io.write('Revert and file the reason in the review queue instead [y,n]? ');
      const k = await io.readKey();
      if (isQuitKey(k)) {
        io.write('\n');
        return 'interrupted';
      }
      io.write(`${isSpecialKey(k) ? '' : printable(keyLabel(k))}\n`);
      if (k !== 'y') {
        io.write('nothing reverted\n');
        return 'prompt';
      }
      await revertCommand({ cwd: root, hunk: h.id, message: r.text, queue: true, by, reporter });
    }
    sum.reverted++;
    return 'next-relist';
  };

  /** Runs one action on `h`; KizuErrors propagate to the caller. */
  const act = async (a: ReviewAction, h: Hunk): Promise<Outcome | 'prompt'> => {
    switch (a) {
      case 'help':
        io.write(helpText(keys));
        return 'prompt';
      case 'skip':
        sum.skipped++;
        return 'next';
      case 'quit':
        return 'quit';
      case 'tap':
      case 'reject':
        if (!(await current(h))) return 'again';
        await markCommand({ cwd: root, verb: a, specs: [h.id], all: false, reporter });
        sum[a === 'tap' ? 'tapped' : 'rejected']++;
        return 'next';
      case 'ask':
        return scar(h, 'ask');
      case 'rejectScar':
        return scar(h, 'reject');
      case 'free': {
        const r = await io.readLine('scar text: ');
        if (r === 'quit') return 'interrupted';
        if (r === null || r.text.trim() === '') {
          io.write('cancelled: no scar written\n');
          return 'prompt';
        }
        return scar(h, 'free', r.text);
      }
      case 'revert':
        if (!(await current(h))) return 'again';
        await revertCommand({ cwd: root, hunk: h.id, by, reporter });
        sum.reverted++;
        return 'next-relist';
      case 'revertScar':
        return revertWithReason(h);
    }
  };

  /** Prompts for `h` until an action moves on. */
  const handle = async (h: Hunk, n: number): Promise<Outcome> => {
    for (;;) {
      io.write(pc.bold(pc.blue(`(${shown + 1}/${n}) Review this hunk ${prompt}`)));
      let k = await io.readKey();
      // Enter, Esc, Backspace, arrows and other control keys do nothing here.
      while (isSpecialKey(k) && !isQuitKey(k)) k = await io.readKey();
      if (isQuitKey(k)) {
        io.write('\n');
        return 'interrupted';
      }
      io.write(`${printable(keyLabel(k))}\n`);
      const a = byKey.get(k);
      if (!a) {
        io.write(`unknown key ${JSON.stringify(k)} (${keyLabel(keys.help)} lists the keys)\n`);
        continue;
      }
      try {
        const out = await act(a, h);
        if (out !== 'prompt') return out;
      } catch (e) {
        if (!(e instanceof KizuError)) throw e;
        io.writeErr(errorText(e));
        return 'again';
      }
    }
  };

  for (;;) {
    const rest = hunks.filter((h) => eligible(h) && after(h));
    if (!rest.length) break;
    const h = rest[0];
    io.write(renderHunk(h, markLabel(marks, h.id)));
    const out = await handle(h, shown + rest.length);
    if (out === 'quit' || out === 'interrupted') {
      sum.ended = out;
      break;
    }
    if (out === 'again') {
      await relist();
      continue;
    }
    shown++;
    cursor = { path: Buffer.from(h.path, 'utf8'), line: h.newStart };
    if (out === 'next-relist') await relist();
  }

  io.write(`review: ${sum.tapped} tapped, ${sum.rejected} rejected, ${sum.scarred} scarred, ${sum.reverted} reverted, ${sum.skipped} skipped\n`);
  await relist();
  const open = hunks.filter((h) => markOf(marks, h.id) !== 'tapped');
  for (const l of await gone()) io.write(`${l}\n`);
  if (!hunks.length) io.write('no hunks left\n');
  else if (!open.length) io.write('every hunk is tapped\n');
  else {
    io.write(`not tapped (${open.length}):\n`);
    for (const h of open) io.write(`  ${hunkListLine(h, markLabel(marks, h.id))}\n`);
  }
  writeHidden();
  return sum;
}
