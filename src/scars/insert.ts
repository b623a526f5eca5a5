/**
 * Writing and removing scars in working-tree files. Every write is a byte splice of one
 * line, written atomically with the file's mode kept.
 */
import { lstat, readFile, realpath, stat, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../errors.js';
import { writeFileAtomic } from '../fsutil.js';
import { formatScar, parseScarLine, type CommentSyntax } from './format.js';
import { chooseSyntax } from './syntax.js';
import { toLines, lineCount, lineText, eolFor, insertLine, removeLine, indentOf, isBlank, isBinary, type LineFile } from './lines.js';

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
 * Splits `<path>:<line>` into its parts.
 * @throws KizuError (exit 2) if there is no `:<line>` suffix or the line is not a positive integer.
 */
export function parseLocation(spec: string, opts: { lineOptional?: boolean } = {}): { file: string; line: number | null } {
  const m = /^(.*):(-?\d+)$/.exec(spec);
  if (!m) {
    if (opts.lineOptional) return { file: spec, line: null };
    throw new KizuError(`expected <path>:<line>, got "${spec}"`, { hint: 'name the line, e.g. git kizu scar src/app.ts:42' });
  }
  const line = Number(m[2]);
  if (!Number.isSafeInteger(line) || line < 1) {
    throw new KizuError(`line must be a positive integer (1-based), got ${m[2]} in "${spec}"`, { hint: 'lines are numbered from 1' });
  }
  return { file: m[1], line };
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel);
}

/**
 * Resolves `file` (relative to `cwd`, or absolute) to a regular text file inside the repo.
 * @throws KizuError (exit 2): path outside the repo or inside .git, missing file, directory,
 *   symlink pointing outside the repo, or not a regular file.
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
  if (!inside(realRoot, abs)) {
    throw new KizuError(`${file}: path is outside the repository ${realRoot}`, { hint: 'name a file inside the working tree' });
  }
  const rel = path.relative(realRoot, abs).split(path.sep).join('/');
  if (rel === '.git' || rel.startsWith('.git/')) {
    throw new KizuError(`${file}: refusing to write inside the .git directory`, { hint: 'name a file in the working tree' });
  }
  let st;
  try {
    st = await lstat(abs);
  } catch {
    throw new KizuError(`${rel}: no such file`, { hint: 'check the path (it is relative to the current directory)' });
  }
  let real = abs;
  if (st.isSymbolicLink()) {
    try {
      real = await realpath(abs);
    } catch {
      throw new KizuError(`${rel}: symlink points to a missing file`, { hint: 'scar the file the link should point to' });
    }
    if (!inside(realRoot, real)) {
      throw new KizuError(`${rel}: symlink points outside the repository (${real})`, { hint: 'scar a file inside the working tree' });
    }
    st = await stat(real);
  }
  if (st.isDirectory()) throw new KizuError(`${rel}: is a directory`, { hint: 'name a file and a line, e.g. ' + rel + '/index.ts:1' });
  if (!st.isFile()) throw new KizuError(`${rel}: not a regular file`, { hint: 'scars go into text files' });
  return { abs, rel, real };
}

/** Reads a target file's bytes and refuses binary content. */
async function readText(t: FileTarget): Promise<LineFile> {
  const buf = await readFile(t.real);
  if (isBinary(buf)) {
    throw new KizuError(`${t.rel}: binary file (NUL byte in the first 8 KiB); scars go into text files`, {
      hint: `queue the remark instead: git kizu queue add --at ${t.rel}:<line> "<text>"`,
    });
  }
  return toLines(buf);
}

export interface WriteScarInput {
  root: string;
  cwd: string;
  /** File path as given by the user (relative to cwd). */
  file: string;
  /** Target line, 1-based; lineCount+1 means "after the last line". */
  line: number;
  kind: string;
  /** The body (already chosen: canned or user-supplied). */
  body: string;
  /** `scar.syntax` overrides from config. */
  syntaxOverrides: Record<string, string>;
}

export interface WriteScarResult {
  rel: string;
  /** 1-based line number of the scar line after the write. */
  scarLine: number;
  /** The scar line as written (indent included, no line ending). */
  text: string;
  /** True if the same scar already stood directly above the target (nothing written). */
  noop: boolean;
  warning?: string;
}

/**
 * Inserts a scar above `line` of `file`. Indent is copied from the target line; for a blank
 * target from the next non-blank line, else the previous one. CRLF files get a CRLF scar
 * line; a BOM stays first; a missing final newline stays missing; the mode is kept.
 * Idempotent: if the same scar stands directly above the target, nothing is written.
 * @throws KizuError (exit 2) for every refusal of {@link resolveFile}, binary files, a line
 *   beyond end+1, and file types without comment syntax.
 */
export async function writeScar(i: WriteScarInput): Promise<WriteScarResult> {
  const t = await resolveFile(i.root, i.cwd, i.file);
  const f = await readText(t);
  const count = lineCount(f);
  if (i.line > count + 1) {
    throw new KizuError(`${t.rel}:${i.line}: line is beyond the end of the file (it has ${count} line${count === 1 ? '' : 's'})`, {
      hint: `use a line from 1 to ${count + 1}`,
    });
  }
  let indent = '';
  const from = (n: number) => (n >= 1 && n <= count && !isBlank(f, n) ? indentOf(f, n) : null);
  if (i.line <= count && !isBlank(f, i.line)) indent = indentOf(f, i.line);
  else {
    let found: string | null = null;
    for (let n = i.line + 1; n <= count && found === null; n++) found = from(n);
    for (let n = i.line - 1; n >= 1 && found === null; n--) found = from(n);
    indent = found ?? '';
  }
  const eol = eolFor(f, i.line);
  const bomText = f.buf.subarray(0, f.bomLen).length ? 1 : 0;
  const render = (s: CommentSyntax): [string, number] => {
    const scar = indent + formatScar(i.kind, i.body, s);
    const out = insertLine(f, i.line, scar, eol);
    const text = out.toString('utf8').slice(bomText);
    const lineStart = i.line <= count ? f.starts[i.line - 1] : -1;
    const offset =
      lineStart >= 0
        ? Buffer.from(out.subarray(f.bomLen, lineStart)).toString('utf8').length + scar.indexOf('@kizu')
        : text.lastIndexOf('@kizu[');
    return [text, offset];
  };
  const choice = await chooseSyntax(t.rel, f.buf.toString('utf8').slice(bomText), i.line - 1, i.syntaxOverrides, render);
  const text = indent + formatScar(i.kind, i.body, choice.syntax);
  // Idempotent: the same scar directly above the target, or the target line itself being
  // that scar (the same command run twice names the line the first run inserted).
  const want = parseScarLine(text)!;
  for (const n of [i.line - 1, i.line]) {
    if (n < 1 || n > count) continue;
    const have = parseScarLine(lineText(f, n));
    if (have && have.kind === want.kind && have.body === want.body) {
      return { rel: t.rel, scarLine: n, text: lineText(f, n).replace(/\r$/, ''), noop: true, warning: choice.warning };
    }
  }
  await writeFileAtomic(t.real, insertLine(f, i.line, text, eol));
  const scarLine = i.line <= count || count === 0 || f.finalNewline ? i.line : count + 1;
  return { rel: t.rel, scarLine, text, noop: false, warning: choice.warning };
}

/**
 * Removes scar lines from one file: the scar at `line` (the scar's own line, or the line it
 * stands above), or every scar in the file when `line` is null.
 * @returns the removed scars' original line numbers and texts.
 * @throws KizuError (exit 1) if `line` names no scar; (exit 2) for resolveFile refusals.
 */
export async function removeScars(root: string, cwd: string, file: string, line: number | null): Promise<{ rel: string; removed: { line: number; text: string }[] }> {
  const t = await resolveFile(root, cwd, file);
  const f = await readText(t);
  const count = lineCount(f);
  let targets: number[] = [];
  if (line === null) {
    for (let n = 1; n <= count; n++) if (parseScarLine(lineText(f, n))) targets.push(n);
  } else {
    if (line > count) throw new KizuError(`${t.rel}:${line}: line is beyond the end of the file (it has ${count} lines)`, { hint: 'use git kizu scan to list scars with their lines' });
    if (parseScarLine(lineText(f, line))) targets = [line];
    else if (line >= 2 && parseScarLine(lineText(f, line - 1))) targets = [line - 1];
    else {
      throw new KizuError(`${t.rel}:${line}: no scar on this line or directly above it`, {
        hint: 'use git kizu scan to list scars with their lines',
        exitCode: EXIT.FOUND,
      });
    }
  }
  if (!targets.length) return { rel: t.rel, removed: [] };
  let buf = f.buf;
  const removed = targets.map((n) => ({ line: n, text: lineText(f, n).replace(/\r$/, '') }));
  for (const n of [...targets].reverse()) buf = removeLine(toLines(buf), n);
  await writeFileAtomic(t.real, buf);
  return { rel: t.rel, removed };
}

/** One entry of the scar record kept for `scar --undo`. */
export interface ScarRecord {
  rel: string;
  line: number;
  text: string;
  time: string;
}

const RECORD_MAX = 200;

function recordFile(gitDir: string): string {
  return path.join(gitDir, 'kizu', 'scars.json');
}

function readRecords(gitDir: string): ScarRecord[] {
  try {
    const v = JSON.parse(readFileSync(recordFile(gitDir), 'utf8'));
    return Array.isArray(v) ? (v as ScarRecord[]) : [];
  } catch {
    return [];
  }
}

/** Appends a written scar to `<gitDir>/kizu/scars.json` (newest last, capped at 200). */
export async function recordScar(gitDir: string, r: ScarRecord): Promise<void> {
  const list = readRecords(gitDir);
  list.push(r);
  await mkdir(path.dirname(recordFile(gitDir)), { recursive: true });
  await writeFileAtomic(recordFile(gitDir), JSON.stringify(list.slice(-RECORD_MAX), null, 2) + '\n');
}

/**
 * Removes the most recently recorded scar, only if its line is still exactly as written:
 * at its recorded line, or else as the only line in the file with exactly that text.
 * @returns the record that was undone.
 * @throws KizuError (exit 1) if nothing is recorded, the file is gone, or the line changed.
 */
export async function undoLastScar(root: string, gitDir: string): Promise<ScarRecord> {
  const list = readRecords(gitDir);
  const last = list[list.length - 1];
  if (!last) throw new KizuError('no scar to undo: none was written with git kizu scar in this repository', { hint: 'use git kizu unscar <path>:<line> to remove a scar', exitCode: EXIT.FOUND });
  let t: FileTarget;
  try {
    t = await resolveFile(root, root, last.rel);
  } catch {
    throw new KizuError(`cannot undo the last scar: ${last.rel} no longer exists`, { hint: 'nothing to remove; it went with the file', exitCode: EXIT.FOUND });
  }
  const f = await readText(t);
  const count = lineCount(f);
  const same = (n: number) => lineText(f, n).replace(/\r$/, '') === last.text;
  let n = last.line <= count && same(last.line) ? last.line : -1;
  if (n === -1) {
    const hits = [];
    for (let k = 1; k <= count; k++) if (same(k)) hits.push(k);
    if (hits.length === 1) n = hits[0];
  }
  if (n === -1) {
    throw new KizuError(`cannot undo the last scar: ${last.rel}:${last.line} is no longer exactly "${last.text.trim()}" (it was edited or removed)`, {
      hint: `remove it by hand or with git kizu unscar ${last.rel}:<line>`,
      exitCode: EXIT.FOUND,
    });
  }
  await writeFileAtomic(t.real, removeLine(f, n));
  list.pop();
  await writeFileAtomic(recordFile(gitDir), JSON.stringify(list, null, 2) + '\n');
  return { ...last, line: n };
}
