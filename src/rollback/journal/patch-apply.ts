/**
 * Applying parsed unified diffs (./patch-parse.ts) the strict way: every context and removed
 * line must equal the file's line at the position the hunk header names, byte for byte (no
 * offset search, no fuzz, no whitespace leniency; git-apply(1) without its `-C`/offset
 * leniency). Everything is computed in memory first; ./patch-write.ts then writes all files
 * or none.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { count } from '../../words.js';
import type { FilePatch, PatchHunk } from './patch-parse.js';
import { readWorkFile } from './patch-write.js';

/**
 * Splits bytes into lines, each keeping its '\n' (the last one may lack it).
 * @returns [] for empty input.
 */
export function splitLines(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < b.length) {
    const nl = b.indexOf(0x0a, pos);
    const end = nl === -1 ? b.length : nl + 1;
    out.push(b.subarray(pos, end));
    pos = end;
  }
  return out;
}

/** A well-formed patch that does not fit the files as they are: exit 1, nothing written. */
export class PatchMismatch extends KizuError {
  constructor(message: string) {
    super(message, { exitCode: EXIT.FOUND, hint: 'the file differs from what the patch expects; regenerate the patch against the current file (nothing was written)' });
  }
}

/** A line for messages: its text as a JSON string (so spaces, tabs, '\r' and a missing '\n' show). */
export function quoteLine(b: Buffer): string {
  return JSON.stringify(b.toString('utf8'));
}

function hunkName(fp: FilePatch, h: PatchHunk): string {
  return `${fp.path}: hunk ${h.index} (${h.header.replace(/^(@@[^@]*@@).*$/, '$1')})`;
}

/**
 * Applies `fp`'s hunks to `content` at exactly the positions their headers name.
 * @param content the file's bytes ('' for a file being created).
 * @returns the new bytes.
 * @throws PatchMismatch (exit 1) naming the file, the hunk and the first line that differs,
 *   with the expected and the actual text; also when a hunk reaches past the end of the
 *   file, or a line marked `\ No newline at end of file` would not end up last.
 */
export function applyExact(fp: FilePatch, content: Buffer): Buffer {
  const lines = splitLines(content);
  const out: Buffer[] = [];
  let cursor = 0;
  for (const h of fp.hunks) {
    const first = h.oldCount === 0 ? h.oldStart : h.oldStart - 1; // 0-based index of the first old line
    if (first > lines.length) {
      throw new PatchMismatch(`${hunkName(fp, h)} does not apply: it starts at line ${first + 1}, but ${fp.path} has only ${count(lines.length, 'line')}`);
    }
    out.push(...lines.slice(cursor, first));
    let k = first;
    for (const l of h.lines) {
      if (l.op === '+') {
        out.push(l.text);
        continue;
      }
      const actual = lines[k];
      if (actual === undefined) {
        throw new PatchMismatch(`${hunkName(fp, h)} does not apply: line ${k + 1} should be ${quoteLine(l.text)}, but ${fp.path} has only ${count(lines.length, 'line')}`);
      }
      if (!actual.equals(l.text)) {
        throw new PatchMismatch(
          `${hunkName(fp, h)} does not apply: line ${k + 1} differs\n  expected: ${quoteLine(l.text)}\n  actual:   ${quoteLine(actual)}`,
        );
      }
      if (l.op === ' ') out.push(actual);
      k++;
    }
    cursor = k;
  }
  out.push(...lines.slice(cursor));
  for (let j = 0; j < out.length - 1; j++) {
    if (out[j][out[j].length - 1] !== 0x0a) {
      throw new PatchMismatch(`${fp.path}: a line marked "\\ No newline at end of file" (${quoteLine(out[j])}) would not be the last line of the result`);
    }
  }
  return Buffer.concat(out);
}

/** One file of a checked patch, ready to write. */
export interface PlannedFile {
  patch: FilePatch;
  /** Current bytes; null for a file the patch creates. */
  before: Buffer | null;
  /** New bytes; null for a file the patch deletes. */
  after: Buffer | null;
  /** Number of '+' and '-' lines. */
  added: number;
  removed: number;
}

/** '+' and '-' line counts of a file patch. */
export function countLines(fp: FilePatch): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of fp.hunks) for (const l of h.lines) l.op === '+' ? added++ : l.op === '-' ? removed++ : 0;
  return { added, removed };
}

/**
 * Reads every file the patch names and applies the patch in memory. A created file must not
 * exist (and its directories, where they exist, must be directories); a deleted or modified
 * file must exist as a readable file; a deleted file must hold exactly the removed lines.
 * @param root absolute working-tree root.
 * @returns one planned change per file, in patch order.
 * @throws PatchMismatch (exit 1) listing, for every file that does not fit, the first reason
 *   (see {@link applyExact}); nothing is written.
 */
export function planPatch(root: string, files: FilePatch[]): PlannedFile[] {
  const planned: PlannedFile[] = [];
  const errors: string[] = [];
  for (const fp of files) {
    try {
      let cur: Buffer | null;
      try {
        cur = readWorkFile(root, fp.path);
      } catch (e) {
        if (e instanceof KizuError) throw e; // a file patches must not touch: exit 2
        throw new PatchMismatch(`${fp.path}: cannot be read (${(e as Error).message})`);
      }
      const { added, removed } = countLines(fp);
      if (fp.kind === 'create') {
        if (cur !== null) throw new PatchMismatch(`${fp.path}: the patch creates it (--- /dev/null), but it already exists`);
        for (let d = path.dirname(fp.path); d !== '.'; d = path.posix.dirname(d)) {
          try {
            if (!lstatSync(path.join(root, d)).isDirectory()) throw new PatchMismatch(`${fp.path}: cannot be created: ${d} is not a directory`);
          } catch (e) {
            if (e instanceof PatchMismatch) throw e;
          }
        }
        planned.push({ patch: fp, before: null, after: applyExact(fp, Buffer.alloc(0)), added, removed });
        continue;
      }
      if (cur === null) throw new PatchMismatch(`${fp.path}: the patch ${fp.kind === 'delete' ? 'deletes' : 'changes'} it, but it does not exist`);
      const next = applyExact(fp, cur);
      if (fp.kind === 'delete') {
        if (next.length) {
          const left = splitLines(next).length;
          throw new PatchMismatch(`${fp.path}: the patch deletes it (+++ /dev/null) but removes only ${removed} of its ${removed + left} lines`);
        }
        planned.push({ patch: fp, before: cur, after: null, added, removed });
      } else planned.push({ patch: fp, before: cur, after: next, added, removed });
    } catch (e) {
      if (!(e instanceof PatchMismatch)) throw e;
      errors.push(e.message);
    }
  }
  if (errors.length) {
    const m = errors.length === 1 ? errors[0] : `the patch does not apply to ${errors.length} files:\n${errors.map((x) => '- ' + x.replace(/\n/g, '\n  ')).join('\n')}`;
    throw new PatchMismatch(m);
  }
  return planned;
}

/** Text of a line for the preview: without its '\n', control characters other than TAB as \xNN. */
function display(b: Buffer): string {
  const t = b.toString('utf8');
  const body = t.endsWith('\n') ? t.slice(0, -1) : t;
  return body.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function side(label: string, start: number, ls: Buffer[], pad: number): string[] {
  if (!ls.length) return [`    ${label}: nothing`];
  const out = [`    ${label}, line${ls.length === 1 ? ` ${start}` : `s ${start}-${start + ls.length - 1}`}:`];
  ls.forEach((l, k) => {
    out.push(`      ${String(start + k).padStart(pad)}  ${display(l)}`);
    if (l[l.length - 1] !== 0x0a) out.push(`      ${' '.repeat(pad)}  \\ No newline at end of file`);
  });
  return out;
}

/**
 * The `--dry-run` preview: per file a summary line, then per hunk its header and the exact
 * lines before and after (numbered as in the old and the new file).
 * Format: `would patch <path>: <n> hunk(s), +<a> -<r>` (or `would create <path>: +<a>`,
 * `would delete <path>: -<r>`), then for each hunk `  hunk <k> <@@ header>`, `    before,
 * lines a-b:` / `    after, lines c-d:` (or `    before: nothing`), each line as
 * `      <number>  <text>` (numbers right-aligned; control characters other than TAB shown as
 * \xNN; `\ No newline at end of file` after a line without one).
 */
export function previewLines(plan: PlannedFile[]): string[] {
  const out: string[] = [];
  for (const p of plan) {
    const fp = p.patch;
    const n = fp.hunks.length;
    if (fp.kind === 'create') out.push(`would create ${fp.path}: +${p.added}`);
    else if (fp.kind === 'delete') out.push(`would delete ${fp.path}: -${p.removed}`);
    else out.push(`would patch ${fp.path}: ${count(n, 'hunk')}, +${p.added} -${p.removed}`);
    for (const h of fp.hunks) {
      const before = h.lines.filter((l) => l.op !== '+').map((l) => l.text);
      const after = h.lines.filter((l) => l.op !== '-').map((l) => l.text);
      const pad = String(Math.max(h.oldStart + before.length, h.newStart + after.length)).length;
      out.push(`  hunk ${h.index} ${h.header}`);
      out.push(...side('before', h.oldStart, before, pad), ...side('after', h.newStart, after, pad));
    }
  }
  return out;
}
