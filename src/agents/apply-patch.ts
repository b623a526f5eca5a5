/**
 * Codex's `apply_patch` text (the edit tool of Codex CLI, and of Copilot CLI with OpenAI
 * models), parsed into the files it touches, and its update hunks applied forwards and
 * backwards on a file's text. Grammar (openai/codex codex-rs/apply-patch/src/parser.rs, the
 * Lark grammar in its header, parsed leniently as Codex does):
 * ```
 * start: "*** Begin Patch" LF hunk* "*** End Patch" LF?
 * hunk: "*** Add File: " path LF ("+" line LF)*
 *     | "*** Delete File: " path LF
 *     | "*** Update File: " path LF ("*** Move to: " path LF)? chunk+
 * chunk: ("@@" | "@@ " context) LF? (" " | "-" | "+") line LF)+ ("*** End of File" LF)?
 * ```
 * (the first chunk may omit its `@@` line; an empty line inside a chunk is an empty context
 * line; blank lines between chunks are skipped; markers may carry surrounding blanks; a patch
 * wrapped in a `<<'EOF'` here-document is unwrapped). Applying follows codex-rs/apply-patch
 * src/lib.rs `compute_replacements`: a chunk's context line is sought from the previous
 * chunk's end, then its old lines (exactly, then ignoring trailing blanks, then ignoring
 * surrounding blanks: seek_sequence.rs), a chunk without old lines inserts at the end of the
 * file, and the result always ends with a newline. Nothing here reads files.
 */

import type { PlannedWrite, ReportedChange } from '../hooks/contract.js';

/** One `@@` chunk of an update: `oldLines` are replaced by `newLines` (each without its '\n'). */
export interface PatchChunk {
  /** The `@@ <context>` line that the old lines follow; null for a bare `@@`. */
  context: string | null;
  oldLines: string[];
  newLines: string[];
  /** `*** End of File`: the old lines end the file. */
  endOfFile: boolean;
}

/** One file of a patch. */
export interface PatchFile {
  /** The path as the patch names it (relative to the agent's cwd, or absolute). */
  path: string;
  kind: 'add' | 'update' | 'delete';
  /** `*** Move to:` of an update: the path the file is written to instead (the old one is deleted). */
  moveTo: string | null;
  /** The update's chunks ([] for add and delete). */
  hunks: PatchChunk[];
  /** The whole new content of an added file (each `+` line and '\n'); null otherwise. */
  contents: string | null;
}

/** A patch text that is not apply_patch's grammar. */
export class PatchSyntaxError extends Error {}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

/**
 * Parses apply_patch text.
 * @returns the files in patch order (a path may appear more than once).
 * @throws PatchSyntaxError naming the 1-based line for text that Codex itself would refuse
 *   (no begin/end marker, an unknown hunk header, an update without chunks, a chunk line with
 *   another prefix).
 */
export function parseApplyPatch(text: string): PatchFile[] {
  let lines = text.trim().split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const bounded = (ls: string[]) => ls.length >= 2 && ls[0].trim() === BEGIN && ls[ls.length - 1].trim() === END;
  if (!bounded(lines)) {
    const heredoc = ['<<EOF', "<<'EOF'", '<<"EOF"'].includes(lines[0]) && lines.length >= 4 && lines[lines.length - 1].endsWith('EOF');
    if (heredoc && bounded(lines.slice(1, -1))) lines = lines.slice(1, -1);
    else if (lines[0]?.trim() !== BEGIN) throw new PatchSyntaxError(`the first line of the patch must be '${BEGIN}'`);
    else throw new PatchSyntaxError(`the last line of the patch must be '${END}'`);
  }
  const body = lines.slice(1, -1);
  const files: PatchFile[] = [];
  let i = 0;
  const at = () => i + 2; // 1-based line number in the patch
  while (i < body.length) {
    const head = body[i].trim();
    if (head.startsWith(ADD)) {
      let contents = '';
      i++;
      while (i < body.length && body[i].startsWith('+')) contents += body[i++].slice(1) + '\n';
      files.push({ path: head.slice(ADD.length), kind: 'add', moveTo: null, hunks: [], contents });
    } else if (head.startsWith(DELETE)) {
      files.push({ path: head.slice(DELETE.length), kind: 'delete', moveTo: null, hunks: [], contents: null });
      i++;
    } else if (head.startsWith(UPDATE)) {
      const line = at();
      const p = head.slice(UPDATE.length);
      i++;
      let moveTo: string | null = null;
      if (i < body.length && body[i].startsWith(MOVE)) moveTo = body[i++].slice(MOVE.length);
      const hunks: PatchChunk[] = [];
      while (i < body.length) {
        if (body[i].trim() === '') {
          i++;
          continue;
        }
        if (body[i].startsWith('*')) break;
        const chunk: PatchChunk = { context: null, oldLines: [], newLines: [], endOfFile: false };
        if (body[i] === '@@') i++;
        else if (body[i].startsWith('@@ ')) chunk.context = body[i++].slice(3);
        else if (hunks.length) throw new PatchSyntaxError(`line ${at()}: expected an update chunk to start with @@, got '${body[i]}'`);
        let n = 0;
        for (; i < body.length; i++) {
          const l = body[i];
          if (l === EOF_MARK) {
            if (!n) throw new PatchSyntaxError(`line ${at()}: update chunk has no lines`);
            chunk.endOfFile = true;
            i++;
            break;
          }
          const c = l[0];
          if (c === undefined) (chunk.oldLines.push(''), chunk.newLines.push(''));
          else if (c === ' ') (chunk.oldLines.push(l.slice(1)), chunk.newLines.push(l.slice(1)));
          else if (c === '+') chunk.newLines.push(l.slice(1));
          else if (c === '-') chunk.oldLines.push(l.slice(1));
          else if (!n) throw new PatchSyntaxError(`line ${at()}: unexpected line in update chunk: '${l}'`);
          else break;
          n++;
        }
        if (!n && !chunk.endOfFile) throw new PatchSyntaxError(`line ${at()}: update chunk has no lines`);
        hunks.push(chunk);
      }
      if (!hunks.length) throw new PatchSyntaxError(`line ${line}: update of '${p}' has no chunks`);
      files.push({ path: p, kind: 'update', moveTo, hunks, contents: null });
    } else {
      throw new PatchSyntaxError(`line ${at()}: '${head}' is not a hunk header (${ADD}, ${DELETE} or ${UPDATE}<path>)`);
    }
  }
  return files;
}

/** Every path a patch changes, each once in patch order: added, updated and deleted paths, and move targets. */
export function patchedPaths(files: PatchFile[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    out.add(f.path);
    if (f.moveTo) out.add(f.moveTo);
  }
  return [...out];
}

/**
 * The files a patch is about to write, for the pre-tool gate (src/hooks/contract.ts
 * `PlannedWrite`): each added file with its whole content, each updated file (and a move's
 * target, with the source deleted), each deleted file with `deletes`. A path the patch names
 * twice is listed twice, so the gate judges every write.
 */
export function patchWrites(files: PatchFile[]): PlannedWrite[] {
  const out: PlannedWrite[] = [];
  for (const f of files) {
    if (f.kind === 'add') out.push({ path: f.path, ...(f.contents !== null ? { content: f.contents } : {}) });
    else if (f.kind === 'delete') out.push({ path: f.path, deletes: true });
    else if (f.moveTo) out.push({ path: f.path, deletes: true }, { path: f.moveTo });
    else out.push({ path: f.path });
  }
  return out;
}

/** codex-rs/apply-patch seek_sequence.rs: `pattern` in `lines` from `start` (at the end first when `eof`), exact then looser. */
function seek(lines: string[], pattern: string[], start: number, eof: boolean): number | null {
  if (!pattern.length) return start;
  if (pattern.length > lines.length) return null;
  const from = eof && lines.length >= pattern.length ? lines.length - pattern.length : start;
  const norms: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()];
  for (const norm of norms) {
    for (let k = from; k + pattern.length <= lines.length; k++) {
      if (pattern.every((p, j) => norm(lines[k + j]) === norm(p))) return k;
    }
  }
  return null;
}

/**
 * Applies update chunks to a file's text as Codex does (see the module comment).
 * @returns the new text (ending with '\n'); undefined when a context or old lines are not found.
 */
export function applyChunks(text: string, chunks: PatchChunk[]): string | undefined {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const reps: [number, number, string[]][] = [];
  let idx = 0;
  for (const c of chunks) {
    if (c.context !== null) {
      const k = seek(lines, [c.context], idx, false);
      if (k === null) return undefined;
      idx = k + 1;
    }
    if (!c.oldLines.length) {
      reps.push([lines.length, 0, c.newLines]);
      continue;
    }
    let pat = c.oldLines;
    let neu = c.newLines;
    let k = seek(lines, pat, idx, c.endOfFile);
    if (k === null && pat[pat.length - 1] === '') {
      pat = pat.slice(0, -1);
      if (neu[neu.length - 1] === '') neu = neu.slice(0, -1);
      k = seek(lines, pat, idx, c.endOfFile);
    }
    if (k === null) return undefined;
    reps.push([k, pat.length, neu]);
    idx = k + pat.length;
  }
  reps.sort((a, b) => a[0] - b[0]);
  for (let r = reps.length - 1; r >= 0; r--) lines.splice(reps[r][0], reps[r][1], ...reps[r][2]);
  if (lines[lines.length - 1] !== '') lines.push('');
  return lines.join('\n');
}

/**
 * The text a file held before `chunks` were applied, from the text it holds after: the chunks
 * reversed (new lines replaced by old ones) and then checked by applying them forwards again,
 * which must give `after` byte for byte. Where Codex matched old lines loosely (other blanks),
 * or the file lacked its final newline before, the text found is the one the patch describes.
 * @returns the text before; undefined when the chunks do not fit `after` (it changed since,
 *   or the reversal is ambiguous).
 */
export function unapplyChunks(after: string, chunks: PatchChunk[]): string | undefined {
  const reversed = chunks.map((c) => ({ ...c, oldLines: c.newLines, newLines: c.oldLines }));
  // A chunk that only deleted lines cannot be located in the text after it.
  if (reversed.some((c) => !c.oldLines.length && c.newLines.length)) return undefined;
  const before = applyChunks(after, reversed);
  if (before === undefined || applyChunks(before, chunks) !== after) return undefined;
  return before;
}

/**
 * What a patch says it did to each file, for the edit journal (src/hooks/contract.ts
 * `ReportedChange`, by the path as the patch names it):
 * - added: no before content, the after content from its `+` lines;
 * - updated: the before content derived from the file at hook time by {@link unapplyChunks}
 *   (a file with CRLF line ends throughout is reversed as LF text, and its before content gets CRLF);
 *   for a move, the old path's before content is derived from the new path's file (the old
 *   path is then gone), and the new path counts as created;
 * - deleted: the before content is unknown (the patch does not hold it);
 * - a path the patch names more than once: unknown.
 */
export function patchReports(files: PatchFile[]): Record<string, ReportedChange> {
  const out: Record<string, ReportedChange> = {};
  const seen = new Map<string, number>();
  for (const f of files) for (const p of [f.path, f.moveTo]) if (p) seen.set(p, (seen.get(p) ?? 0) + 1);
  const unknown: ReportedChange = { before: null, beforeUnknown: true, after: undefined };
  for (const f of files) {
    if (f.kind === 'add') out[f.path] = { before: null, beforeUnknown: false, after: Buffer.from(f.contents ?? '', 'utf8') };
    else if (f.kind === 'delete') out[f.path] = unknown;
    else {
      const derive = (bytes: Buffer): Buffer | undefined => {
        const text = bytes.toString('utf8');
        if (!Buffer.from(text, 'utf8').equals(bytes)) return undefined; // not UTF-8: Codex edits text only
        // A file whose every line ends in CRLF (Codex keeps a file's line ends): reversed as LF text.
        const crlf = /\r\n/.test(text) && !/(^|[^\r])\n/.test(text);
        const before = unapplyChunks(crlf ? text.replace(/\r\n/g, '\n') : text, f.hunks);
        return before === undefined ? undefined : Buffer.from(crlf ? before.replace(/\n/g, '\r\n') : before, 'utf8');
      };
      out[f.path] = { ...unknown, beforeFrom: { path: f.moveTo ?? f.path, derive } };
      if (f.moveTo) out[f.moveTo] = { before: null, beforeUnknown: false, after: undefined };
    }
  }
  for (const [p, n] of seen) if (n > 1) out[p] = unknown;
  return out;
}
