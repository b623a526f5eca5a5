/**
 * Writing and removing scars in working-tree files. Every write is a byte splice of one
 * line, written atomically with the file's mode kept.
 *
 * Every write of scars (into a file, and into the record `<git-dir>/kizu/scars.json` that
 * `git kizu scar --undo` reads) holds the scars lock `<git-dir>/kizu/scars.lock`, so that
 * concurrent writers (`scar`, `unscar`, `revert -m`) never lose each other's scars or records.
 * It is the one working-tree write lock (git/lock.ts withWorkTreeLock): `patch apply`,
 * `rollback patch` and `revert` hold it for their writes too, so none of them can overwrite a
 * scar written meanwhile, nor a scar overwrite theirs.
 */
import { lstat, readFile, realpath, stat, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import { pathArg, quoteArg, quoteCStyle, unquotePathArg } from '../git/quote.js';
import { plural } from '../words.js';
import { writeFileAtomic } from '../files.js';
import { scarsRecordFile } from '../git/layout.js';
import { recordWritten, scarKey, type WrittenBy } from '../provenance/ledger.js';
import { formatScar, parseScarLine, type CommentSyntax } from './format.js';
import { chooseSyntax } from './syntax.js';
import { languageOf } from '../syntax/languages.js';
import { scanBuffer } from './parse.js';
import { toLines, lineCount, lineText, eolFor, insertLine, removeLine, indentOf, isBlank, isBinary, lineOfGitLine, type LineFile } from './lines.js';
import { withWorkTreeLock } from '../git/lock.js';
import { isDotGitComponent } from '../git/verify-path.js';

/** Runs `fn` holding the scars lock `<git-dir>/kizu/scars.lock`: the one working-tree write lock (see withWorkTreeLock). */
function withScarsLock<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  return withWorkTreeLock(gitDir, fn);
}

/** A validated working-tree file inside the repository. */
export interface FileTarget {
  /** Absolute path as named (may be a symlink inside the repo). */
  abs: string;
  /** Path relative to the repo root, `/`-separated (for messages and records). */
  rel: string;
  /** The real file that is read and written (symlink resolved). */
  real: string;
}

/**
 * Splits `<path>:<line>` into its parts at the last `:` followed only by digits (so
 * `a:3:5` is line 5 of the file `a:3`). `line` is 1-based. A path in git's quoted form
 * (`"tab\there.js":3`, as git-kizu prints it) is unquoted first (src/git/quote.ts
 * unquotePathArg).
 * @param opts.lineOptional if true, a spec without a `:<digits>` suffix is a bare path
 *   (`line: null`) instead of an error.
 * @throws KizuError (exit 2) if there is no `:<line>` suffix (unless lineOptional), the path
 *   before it is empty, or the line is 0, negative, or larger than 2^53-1.
 */
export function parseLocation(given: string, opts: { lineOptional?: boolean } = {}): { file: string; line: number | null } {
  const spec = unquotePathArg(given);
  const m = /^(.*):(-?\d+)$/s.exec(spec);
  if (!m) {
    if (opts.lineOptional && spec !== '') return { file: spec, line: null };
    throw new KizuError(`expected <path>:<line>, got ${quoteArg(given)}`, { hint: 'name the line, e.g. git kizu scar src/app.ts:42' });
  }
  if (m[1] === '') throw new KizuError(`expected <path>:<line>, got ${quoteArg(given)} (the path is missing)`, { hint: 'name the file before the line, e.g. src/app.ts:42' });
  const line = Number(m[2]);
  if (line >= 1 && !Number.isSafeInteger(line)) {
    throw new KizuError(`line ${m[2]} in ${quoteArg(given)} is too large (the largest line number is ${Number.MAX_SAFE_INTEGER})`, { hint: 'name a line that exists in the file' });
  }
  if (!Number.isSafeInteger(line) || line < 1) {
    throw new KizuError(`line must be a positive integer (1-based), got ${m[2]} in ${quoteArg(given)}`, { hint: 'lines are numbered from 1' });
  }
  return { file: m[1], line };
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel);
}

/** True if root-relative `rel` (`/`-separated) is, or is inside, a `.git` directory at any depth (or a name taken for it: git/verify-path.ts). */
function inGitDir(rel: string): boolean {
  return rel.split('/').some(isDotGitComponent);
}

/**
 * Resolves `file` (relative to `cwd`, or absolute) to a regular text file inside the repo.
 * The parent directory is resolved through symlinks; a symlinked file is followed, and its
 * target must also be inside the repository.
 * @returns `abs` (as named, parent resolved), `rel` (root-relative, `/`-separated) and
 *   `real` (the file that is read and written).
 * @throws KizuError (exit 2): path outside the repo; inside a `.git` directory (at any
 *   depth, also through a symlink); missing file; directory (the repo root included);
 *   symlink pointing outside the repo or to a missing file; not a regular file.
 */
export async function resolveFile(root: string, cwd: string, file: string): Promise<FileTarget> {
  const realRoot = await realpath(root);
  const abs0 = path.resolve(cwd, file);
  // Resolve the parent directory (cwd may be reached through a symlink) but not the file.
  let abs = abs0;
  try {
    abs = path.join(await realpath(path.dirname(abs0)), path.basename(abs0));
  } catch {
    /* parent missing: reported below */
  }
  if (abs === realRoot) throw new KizuError(`${quoteCStyle(file)}: is a directory (the repository root)`, { hint: 'name a file and a line, e.g. src/app.ts:1' });
  if (!inside(realRoot, abs)) {
    throw new KizuError(`${quoteCStyle(file)}: path is outside the repository ${quoteCStyle(realRoot)}`, { hint: 'name a file inside the working tree' });
  }
  const rel = path.relative(realRoot, abs).split(path.sep).join('/');
  if (inGitDir(rel)) {
    throw new KizuError(`${quoteCStyle(file)}: refusing to write inside the .git directory`, { hint: 'name a file in the working tree' });
  }
  let st;
  try {
    st = await lstat(abs);
  } catch {
    throw new KizuError(`${quoteCStyle(rel)}: no such file`, { hint: 'check the path (it is relative to the current directory)' });
  }
  let real = abs;
  if (st.isSymbolicLink()) {
    try {
      real = await realpath(abs);
    } catch {
      throw new KizuError(`${quoteCStyle(rel)}: symlink points to a missing file`, { hint: 'scar the file the link should point to' });
    }
    if (!inside(realRoot, real)) {
      throw new KizuError(`${quoteCStyle(rel)}: symlink points outside the repository (${quoteCStyle(real)})`, { hint: 'scar a file inside the working tree' });
    }
    if (inGitDir(path.relative(realRoot, real).split(path.sep).join('/'))) {
      throw new KizuError(`${quoteCStyle(rel)}: symlink points inside the .git directory (${quoteCStyle(real)})`, { hint: 'scar a file in the working tree' });
    }
    st = await stat(real);
  }
  if (st.isDirectory()) throw new KizuError(`${quoteCStyle(rel)}: is a directory`, { hint: `name a file and a line, e.g. ${pathArg(`${rel}/index.ts`, ':1')}` });
  if (!st.isFile()) throw new KizuError(`${quoteCStyle(rel)}: not a regular file`, { hint: 'scars go into text files' });
  return { abs, rel, real };
}

/** Reads a target file's bytes and refuses binary content (`line` is used in the hint). */
async function readText(t: FileTarget, line?: number | null): Promise<LineFile> {
  return textLines(t.rel, await readFile(t.real), line);
}

/** `buf` as lines; refuses binary content (`rel` and `line` are used in the message and hint). */
function textLines(rel: string, buf: Buffer, line?: number | null): LineFile {
  if (isBinary(buf)) {
    throw new KizuError(`${quoteCStyle(rel)}: binary file (NUL byte in the first 8 KiB); scars go into text files`, {
      hint: `queue the remark instead: git kizu queue add --at ${pathArg(rel, `:${line ?? '<line>'}`)} "<text>"`,
    });
  }
  return toLines(buf);
}

export interface WriteScarInput {
  root: string;
  cwd: string;
  /** File path as given by the user (relative to cwd). */
  file: string;
  /**
   * Target line, 1-based, in the file as it was at `seenAt`; lineCount+1 means "after the
   * last line". Lines end at `\r\n`, `\n` or a lone `\r` (lines.ts toLines).
   */
  line: number;
  kind: string;
  /** The body (already chosen: canned or user-supplied). */
  body: string;
  /** `scar.syntax` overrides from config. */
  syntaxOverrides: Record<string, string>;
  /**
   * When the user saw the file (ms since the epoch; default: when this process started).
   * Scars recorded in this file after it (by concurrent `scar` or `revert -m` runs) moved
   * the lines below them; `line` is moved past them before the scar is written.
   */
  seenAt?: number;
  /**
   * Who writes it (provenance/ledger.ts): null for the reviewer, `agent:<name>` when the
   * command runs inside an agent's session; the ledger records the scar as theirs.
   */
  by: WrittenBy;
}

export interface WriteScarResult {
  rel: string;
  /** 1-based line number of the scar line after the write. */
  scarLine: number;
  /** The scar line as written (indent included, no line ending). */
  text: string;
  /** True if the same scar already stood directly above the target (nothing written). */
  noop: boolean;
  /** Root-relative path of the file actually written (differs from `rel` for a symlink). */
  realRel: string;
  warning?: string;
}

/**
 * Inserts a scar above `line` of `file` ({@link writeScar}) and records it for `git kizu
 * scar --undo` (unless nothing was written), holding the scars lock throughout.
 * Concurrent runs: `line` names a line of the file as the user saw it (`seenAt`); under the
 * lock, every scar recorded in the same file after `seenAt` that landed at or above the
 * target moves it down one line ({@link lineSince}), so each scar lands directly above the
 * line its command named, however the runs interleave.
 * @throws KizuError as writeScar; (exit 2) when the scars lock cannot be taken.
 */
export async function addScar(gitDir: string, i: WriteScarInput): Promise<WriteScarResult> {
  const seenAt = i.seenAt ?? performance.timeOrigin;
  return withScarsLock(gitDir, async () => {
    const w = await writeScar(i, (realRel) => lineSince(readRecords(gitDir), realRel, i.line, seenAt));
    if (!w.noop) await recordScar(gitDir, { rel: w.rel, realRel: w.realRel, line: w.scarLine, text: w.text, time: new Date().toISOString() }, i.by);
    // The same scar already there (typed in, or pulled): writing it through git kizu makes it
    // the writer's (the reviewer's, or the agent's from its session: never the reviewer's then).
    else ledgerScar(gitDir, w.rel, w.realRel, w.text, i.by);
    return w;
  });
}

/**
 * Line `line` of root-relative file `realRel` as it was at `seenAt` (ms since the epoch),
 * moved past the scar lines written into and removed from that file since, in the order of
 * the record: a scar written at or above the line moves it down by one, a scar line removed
 * above it moves it up by one, and a rewrite by another command ({@link recordRewrite}) below
 * the line moves it by the lines it added less those it removed.
 * @throws KizuError (exit 1) when a rewrite recorded since replaced the line itself (among
 *   lines whose count changed): where it is now cannot be told.
 */
export function lineSince(records: ScarRecord[], realRel: string, line: number, seenAt: number): number {
  let n = line;
  for (const r of records) {
    if ((r.realRel ?? r.rel) !== realRel || !(Date.parse(r.time) > seenAt)) continue;
    if (r.rewrite) {
      if (n >= r.line + r.rewrite.removed) n += r.rewrite.added - r.rewrite.removed;
      else if (n >= r.line) {
        throw new KizuError(`${quoteCStyle(r.rel)}:${line}: another git kizu command (patch apply, rollback patch or revert) rewrote ${r.rewrite.removed === 1 ? `line ${r.line}` : `lines ${r.line}-${r.line + r.rewrite.removed - 1}`} of ${quoteCStyle(r.rel)} since this command started, and this line was among them; nothing was written`, {
          hint: 'look at the file as it is now and run the command again with the line where it is',
          exitCode: EXIT.FOUND,
        });
      }
    } else if (r.removed) {
      if (r.line < n) n--;
    } else if (r.line <= n) n++;
  }
  return n;
}

/**
 * Runs `write`, which puts a scar into a file by its own means (`git kizu revert -m` writes
 * the revert and its scar, computed with {@link scarIntoBuffer}, in one atomic write), under
 * the scars lock, and records the scar it reports for `git kizu scar --undo` and in the
 * ledger as written by `by` (null: the reviewer; `agent:<name>` from an agent's session).
 * Everything `write` reads of the file must be read inside it.
 * @returns what `write` returns as `result`.
 * @throws whatever `write` throws (nothing is recorded then); KizuError (exit 2) when the
 *   scars lock cannot be taken.
 */
export async function withScarWrite<T>(gitDir: string, by: WrittenBy, write: () => Promise<{ result: T; scar: ScarRecord | null }>): Promise<T> {
  return withScarsLock(gitDir, async () => {
    const { result, scar } = await write();
    if (scar) await recordScar(gitDir, scar, by);
    return result;
  });
}

/**
 * Inserts a scar above `line` of `file` (1-based; lineCount+1 appends). Indent is copied
 * from the target line; for a blank target from the next non-blank line, else the previous
 * one. The scar takes the target line's ending (CRLF or LF); a BOM stays first; a missing
 * final newline stays missing; every other byte is kept; written atomically with the mode
 * kept (a symlink's target is written, the link kept). Syntax per {@link chooseSyntax}.
 * Idempotent: if the same scar (kind and body) stands directly above the target, or is the
 * target line itself, nothing is written (`noop`).
 * @throws KizuError (exit 2) for every refusal of {@link resolveFile}, binary files, a line
 *   beyond end+1, and every refusal of {@link chooseSyntax} (no comment syntax, inside a
 *   string/template, code fence, continued line or block comment).
 */
async function writeScar(i: WriteScarInput, lineNow: (realRel: string) => number = () => i.line): Promise<WriteScarResult> {
  const t = await resolveFile(i.root, i.cwd, i.file);
  const realRel = path.relative(await realpath(i.root), t.real).split(path.sep).join('/');
  const e = await scarIntoBuffer({ rel: t.rel, buf: await readFile(t.real), line: lineNow(realRel), kind: i.kind, body: i.body, syntaxOverrides: i.syntaxOverrides });
  if (!e.noop) await writeFileAtomic(t.real, e.buf);
  return { rel: t.rel, realRel, scarLine: e.scarLine, text: e.text, noop: e.noop, warning: e.warning };
}

export interface ScarIntoBufferInput {
  /** Root-relative path (chooses the comment syntax; used in messages). */
  rel: string;
  /** The file's current bytes. */
  buf: Buffer;
  /**
   * Target line, 1-based; lineCount+1 means "after the last line". Lines end at `\r\n`,
   * `\n` or a lone `\r` (lines.ts toLines), unless `gitLines`.
   */
  line: number;
  /** True when `line` counts lines as git does (`\n` only, e.g. from a hunk header). */
  gitLines?: boolean;
  kind: string;
  /** The body (already chosen). */
  body: string;
  /** `scar.syntax` overrides from config. */
  syntaxOverrides: Record<string, string>;
}

export interface ScarEdit {
  /** The new file bytes (`buf` itself when `noop`). */
  buf: Buffer;
  /** 1-based line number of the scar line in the new bytes. */
  scarLine: number;
  /** The scar line (indent included, no line ending). */
  text: string;
  /** True if the same scar already stood directly above the target (nothing changed). */
  noop: boolean;
  warning?: string;
}

/**
 * The pure part of {@link writeScar}: computes the bytes of `buf` with a scar inserted above
 * `line`, without touching any file. Same rules (indent, line ending, BOM, final newline,
 * syntax choice, idempotence) and same refusals as writeScar, with `rel` in the messages.
 * @throws KizuError (exit 2) for binary content, a line beyond end+1, and every refusal of
 *   {@link chooseSyntax}.
 */
export async function scarIntoBuffer(i: ScarIntoBufferInput): Promise<ScarEdit> {
  const t = { rel: i.rel };
  const f = textLines(i.rel, i.buf, i.line);
  if (i.gitLines) i = { ...i, line: lineOfGitLine(f, i.line) };
  const count = lineCount(f);
  if (i.line > count + 1) {
    throw new KizuError(`${quoteCStyle(t.rel)}:${i.line}: line is beyond the end of the file (it has ${count} ${plural(count, 'line')})`, {
      hint: `use a line from 1 to ${count + 1}`,
    });
  }
  // Indent: the target line's; for a blank target the next non-blank line's, else the previous one's.
  const from = (n: number) => (n >= 1 && n <= count && !isBlank(f, n) ? indentOf(f, n) : null);
  const closerIndent = languageOf(i.rel)?.indentAboveCloser === true;
  const indentFor = (line: number): string => {
    if (closerIndent && line <= count && /^[ \t]*[}\]]/.test(lineText(f, line))) {
      for (let n = line - 1; n >= 1; n--) if (!isBlank(f, n)) return indentOf(f, n);
    }
    if (line <= count && !isBlank(f, line)) return indentOf(f, line);
    let found: string | null = null;
    for (let n = line + 1; n <= count && found === null; n++) found = from(n);
    for (let n = line - 1; n >= 1 && found === null; n--) found = from(n);
    return found ?? '';
  };
  const bomText = f.buf.subarray(0, f.bomLen).length ? 1 : 0;
  const render = (lineIndex: number, s: CommentSyntax) => {
    const line = lineIndex + 1;
    const scar = indentFor(line) + formatScar(i.kind, i.body, s);
    const out = insertLine(f, line, scar, eolFor(f, line));
    const text = out.toString('utf8').slice(bomText);
    const lineStart = line <= count ? f.starts[line - 1] : -1;
    const at = lineStart >= 0 ? Buffer.from(out.subarray(f.bomLen, lineStart)).toString('utf8').length : text.lastIndexOf(scar);
    const open = at + scar.length - scar.trimStart().length;
    return { text, open, end: at + scar.length };
  };
  const choice = await chooseSyntax(t.rel, f.buf.toString('utf8').slice(bomText), i.line - 1, i.syntaxOverrides, render);
  const line = choice.lineIndex + 1;
  const text = indentFor(line) + formatScar(i.kind, i.body, choice.syntax);
  // Idempotent: the same scar directly above the target, or the target line itself being
  // that scar (the same command run twice names the line the first run inserted).
  const want = parseScarLine(text);
  for (const n of want ? [line - 1, line, ...(line !== i.line ? [i.line - 1, i.line] : [])] : []) {
    if (n < 1 || n > count) continue;
    const have = parseScarLine(lineText(f, n));
    if (have && have.kind === want!.kind && have.body === want!.body) {
      return { buf: f.buf, scarLine: n, text: lineText(f, n).replace(/\r$/, ''), noop: true, warning: choice.warning };
    }
  }
  const scarLine = line <= count || count === 0 || f.finalNewline ? line : count + 1;
  return { buf: insertLine(f, line, text, eolFor(f, line)), scarLine, text, noop: false, warning: choice.warning };
}

/**
 * Removes scars from files ({@link removeScars} for each target in turn) holding the scars
 * lock throughout, calling `each` with what was removed from each file as soon as it is
 * written.
 * @param targets files (relative to their `cwd`) and lines, or `line: null` for every scar
 *   in the file. A line names the line as the file was at `seenAt` (ms since the epoch;
 *   default: when this process started): it is moved past the scar lines written and
 *   removed since ({@link lineSince}).
 * @returns the removals, one per target.
 * @throws KizuError as removeScars (the targets before the failing one are done); (exit 2)
 *   when the scars lock cannot be taken.
 */
export async function unscarFiles(
  root: string,
  gitDir: string,
  targets: { cwd: string; file: string; line: number | null }[],
  each: (r: { rel: string; removed: { line: number; text: string }[] }) => void = () => {},
  seenAt: number = performance.timeOrigin,
): Promise<{ rel: string; removed: { line: number; text: string }[] }[]> {
  return withScarsLock(gitDir, async () => {
    const out = [];
    for (const t of targets) {
      const { realRel, ...r } = await removeScars(root, t.cwd, t.file, t.line, (realRel, line) => lineSince(readRecords(gitDir), realRel, line, seenAt));
      // Removed bottom-up, so each line number is still right when the one before it is applied.
      if (r.removed.length) {
        const time = new Date().toISOString();
        await recordScars(gitDir, [...r.removed].reverse().map((x) => ({ rel: r.rel, realRel, line: x.line, text: x.text, time, removed: true })));
      }
      each(r);
      out.push(r);
    }
    return out;
  });
}

/**
 * Removes scar lines from one file: the scar at `line` (the scar's own line, or the line it
 * stands above), or every scar in the file when `line` is null. What counts as a scar is
 * exactly what {@link scanBuffer} reports (so markers in Markdown code fences stay).
 * @returns the removed scars' original line numbers (1-based) and texts (no line ending).
 * @throws KizuError (exit 1) if `line` names no scar; (exit 2) for resolveFile refusals
 *   and a line beyond the end of the file.
 */
async function removeScars(
  root: string,
  cwd: string,
  file: string,
  given: number | null,
  lineNow: (realRel: string, line: number) => number,
): Promise<{ rel: string; realRel: string; removed: { line: number; text: string }[] }> {
  const t = await resolveFile(root, cwd, file);
  const realRel = path.relative(await realpath(root), t.real).split(path.sep).join('/');
  const line = given === null ? null : lineNow(realRel, given);
  // A file git calls binary may hold scars too (scanBuffer finds them): removing a line keeps every other byte.
  const f = toLines(await readFile(t.real));
  const count = lineCount(f);
  const scarLines = new Set((await scanBuffer(t.rel, f.buf)).map((s) => s.line));
  let targets: number[] = [];
  if (line === null) {
    targets = [...scarLines].sort((a, b) => a - b);
  } else {
    if (line > count) throw new KizuError(`${quoteCStyle(t.rel)}:${line}: line is beyond the end of the file (it has ${count} ${plural(count, 'line')})`, { hint: 'use git kizu scan to list scars with their lines' });
    if (scarLines.has(line)) targets = [line];
    else if (scarLines.has(line - 1)) targets = [line - 1];
    else {
      throw new KizuError(`${quoteCStyle(t.rel)}:${line}: no scar on this line or directly above it`, {
        hint: 'use git kizu scan to list scars with their lines',
        exitCode: EXIT.FOUND,
      });
    }
  }
  if (!targets.length) return { rel: t.rel, realRel, removed: [] };
  let buf = f.buf;
  const removed = targets.map((n) => ({ line: n, text: lineText(f, n).replace(/\r$/, '') }));
  for (const n of [...targets].reverse()) buf = removeLine(toLines(buf), n);
  await writeFileAtomic(t.real, buf);
  return { rel: t.rel, realRel, removed };
}

/**
 * One entry of the scar record `<gitDir>/kizu/scars.json`: a scar line written (by `scar` or
 * `revert -m`; what `scar --undo` removes, newest first), or one removed (`removed`: by
 * `unscar` or `scar --undo`). Concurrent `scar` runs read it to move their line past the
 * lines written and removed meanwhile ({@link lineSince}).
 */
export interface ScarRecord {
  /** The path as named (root-relative). */
  rel: string;
  /** The file written (root-relative, symlink resolved); absent in records written before it was kept. */
  realRel?: string;
  /** The scar's 1-based line right after it was written, or right before it was removed. */
  line: number;
  text: string;
  /** ISO time of the write. */
  time: string;
  /** True: this entry is a removal. */
  removed?: boolean;
  /** True: a written scar that `scar --undo` removed or gave up on (it is not undone again). */
  undone?: boolean;
  /**
   * Not a scar: another command (patch apply, rollback patch, revert) rewrote the file,
   * replacing `removed` lines from `line` on with `added` lines (`text` is empty). Kept about
   * a minute, for the `scar`/`unscar` runs started before it ({@link lineSince}).
   */
  rewrite?: { removed: number; added: number };
}

const RECORD_MAX = 200;

const recordFile = scarsRecordFile;

function readRecords(gitDir: string): ScarRecord[] {
  try {
    const v = JSON.parse(readFileSync(recordFile(gitDir), 'utf8'));
    return Array.isArray(v) ? (v as ScarRecord[]) : [];
  } catch {
    return [];
  }
}

/** Appends entries to `<gitDir>/kizu/scars.json` (newest last, capped at 200); the caller holds the scars lock. */
async function recordScars(gitDir: string, rs: ScarRecord[], list = readRecords(gitDir)): Promise<void> {
  list.push(...rs);
  await mkdir(path.dirname(recordFile(gitDir)), { recursive: true });
  await writeFileAtomic(recordFile(gitDir), JSON.stringify(list.slice(-RECORD_MAX), null, 2) + '\n');
}

/**
 * Appends a written scar to the record (see recordScars), and to the ledger of what git kizu
 * wrote here as `by`'s (provenance/ledger.ts: the hooks hand the agent this scar as the
 * reviewer's only when `by` is null).
 */
async function recordScar(gitDir: string, r: ScarRecord, by: WrittenBy): Promise<void> {
  await recordScars(gitDir, [r]);
  ledgerScar(gitDir, r.rel, r.realRel ?? r.rel, r.text, by);
}

/** Records the scar line `text` of `rel` (and `realRel`) in the ledger of what git kizu wrote (provenance/ledger.ts), as `by`'s. */
function ledgerScar(gitDir: string, rel: string, realRel: string, text: string, by: WrittenBy): void {
  const p = parseScarLine(text);
  if (p) recordWritten(gitDir, [...new Set([rel, realRel])].map((r) => scarKey(r, p.kind, p.body)), by);
}

/** Index of the newest written scar that is not undone yet, or -1. */
function lastUndoable(list: ScarRecord[], before = list.length): number {
  for (let k = before - 1; k >= 0; k--) if (!list[k].removed && !list[k].undone && !list[k].rewrite) return k;
  return -1;
}

/**
 * Removes the most recently recorded scar, only if its line is still exactly as written:
 * at its recorded line, or else as the only line in the file with exactly that text. Holds
 * the scars lock throughout. The removal is recorded; the scar's entry is marked undone.
 * @returns the record that was undone.
 * @throws KizuError (exit 1) if nothing is recorded, the file is gone, or the line changed;
 *   (exit 2) when the scars lock cannot be taken.
 */
export async function undoLastScar(root: string, gitDir: string): Promise<ScarRecord> {
  return withScarsLock(gitDir, () => undoLast(root, gitDir));
}

async function undoLast(root: string, gitDir: string): Promise<ScarRecord> {
  const list = readRecords(gitDir);
  const k = lastUndoable(list);
  const last = k >= 0 ? list[k] : undefined;
  if (!last) throw new KizuError('no scar to undo: none was written with git kizu scar in this repository', { hint: 'use git kizu unscar <path>:<line> to remove a scar', exitCode: EXIT.FOUND });
  // A record that can no longer be undone is dropped as the refusal is reported, so it
  // does not block `--undo` for the scars written before it.
  const dropStale = async () => {
    list[k] = { ...last, undone: true };
    await writeFileAtomic(recordFile(gitDir), JSON.stringify(list, null, 2) + '\n');
  };
  const next = lastUndoable(list, k) >= 0 ? ' Run git kizu scar --undo again to undo the scar written before it.' : '';
  let t: FileTarget;
  try {
    t = await resolveFile(root, root, last.rel);
  } catch {
    await dropStale();
    throw new KizuError(`cannot undo the last scar: ${quoteCStyle(last.rel)} no longer exists`, { hint: `nothing to remove; it went with the file.${next}`, exitCode: EXIT.FOUND });
  }
  const f = await readText(t);
  const count = lineCount(f);
  const same = (n: number) => lineText(f, n).replace(/\r$/, '') === last.text;
  let n = last.line <= count && same(last.line) ? last.line : -1;
  if (n === -1) {
    const hits = [];
    for (let j = 1; j <= count; j++) if (same(j)) hits.push(j);
    if (hits.length === 1) n = hits[0];
  }
  if (n === -1) {
    await dropStale();
    throw new KizuError(`cannot undo the last scar: ${quoteCStyle(last.rel)}:${last.line} is no longer exactly "${last.text.trim()}" (it was edited or removed); it is dropped from the undo record`, {
      hint: `if an edited scar is still there, remove it with git kizu unscar ${pathArg(last.rel, `:<line>`)}.${next}`,
      exitCode: EXIT.FOUND,
    });
  }
  await writeFileAtomic(t.real, removeLine(f, n));
  list[k] = { ...last, undone: true };
  const realRel = path.relative(await realpath(root), t.real).split(path.sep).join('/');
  await recordScars(gitDir, [{ rel: last.rel, realRel, line: n, text: last.text, time: new Date().toISOString(), removed: true }], list);
  return { ...last, line: n };
}

/** How long (ms) a rewrite entry stays in the scar record: longer than a `scar` run waits for the lock. */
const REWRITE_KEEP_MS = 60_000;

/**
 * Records in `<gitDir>/kizu/scars.json` that a command other than the scar writers rewrote
 * the working-tree file `realRel` (root-relative, symlinks resolved) from `before` to
 * `after`, as the one block of lines between their common first and last lines (lines as
 * lines.ts toLines counts them), so that `scar` and `unscar` runs started before it move
 * their line past it or refuse ({@link lineSince}). Nothing is recorded when no line moved
 * (as many lines added as removed). Rewrite entries older than a minute are dropped. The
 * caller holds the working-tree write lock (git/lock.ts withWorkTreeLock).
 * @param rel the path as named, root-relative (for messages).
 * @throws the fs error if the record cannot be written.
 */
export async function recordRewrite(gitDir: string, rel: string, realRel: string, before: Buffer, after: Buffer): Promise<void> {
  const a = toLines(before);
  const b = toLines(after);
  const na = lineCount(a);
  const nb = lineCount(b);
  if (na === nb) return;
  let p = 0;
  while (p < na && p < nb && lineText(a, p + 1) === lineText(b, p + 1)) p++;
  let q = 0;
  while (q < na - p && q < nb - p && lineText(a, na - q) === lineText(b, nb - q)) q++;
  const now = Date.now();
  const list = readRecords(gitDir).filter((r) => !r.rewrite || now - Date.parse(r.time) < REWRITE_KEEP_MS);
  await recordScars(gitDir, [{ rel, realRel, line: p + 1, text: '', time: new Date(now).toISOString(), rewrite: { removed: na - p - q, added: nb - p - q } }], list);
}
