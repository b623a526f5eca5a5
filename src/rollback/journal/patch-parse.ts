/**
 * A strict parser of unified diffs for `git kizu patch apply`: GNU diff's unified format
 * (diffutils manual, "Unified Format": `--- old`, `+++ new`, `@@ -l,s +l,s @@` hunks whose
 * body lines start with ' ', '-' or '+', and `\ No newline at end of file`) plus the git
 * extended headers of git-diff(1) / git-apply(1) (`diff --git a/P b/P`, `index`,
 * `new file mode`, `deleted file mode`, ...).
 *
 * Works on bytes: every body line is kept byte for byte (a '\r' before the '\n' is content),
 * so a patch applies exactly or not at all. Refused with a reason (exit 2): renames and
 * copies, mode changes, binary patches, a hunk header that does not parse or whose counts do
 * not match its body, hunks out of order or overlapping, a `+` start that does not follow
 * from the hunks before it, empty lines inside a hunk (a blank context line must start with
 * a space), a path that is absolute, leaves the repository or points into `.git`, and a
 * file named twice. Text outside file sections (a commit message, `Index:` lines) is
 * skipped, as git-apply(1) does. Hunk headers, body line kinds and line splitting are read
 * by the unified-diff reader in git/diff.ts; this module adds what patch files bring.
 */
import path from 'node:path';
import { KizuError, EXIT } from '../../errors.js';
import { lineKind, parseHunkHeader, splitLines, unquoteC } from '../../git/diff.js';
import { isDotGitComponent, LEAVES_TREE, pathProblem } from '../../git/verify-path.js';

/** One body line of a hunk. */
export interface PatchLine {
  /** ' ' context, '-' removed, '+' added. */
  op: ' ' | '-' | '+';
  /** The line's bytes as they are in the file: including its '\n' unless `\ No newline at end of file` follows it. */
  text: Buffer;
}

/** One `@@` hunk. Line numbers are 1-based, as printed. */
export interface PatchHunk {
  /** 1-based position of the hunk within its file. */
  index: number;
  /** The `@@ ... @@` line (UTF-8, without the '\n'). */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: PatchLine[];
  /** 1-based line of the `@@` header in the patch text. */
  patchLine: number;
}

/** One file of a patch. */
export interface FilePatch {
  /** Repo-relative '/'-separated path the patch changes (the new path, or the old one for a deletion). */
  path: string;
  /** `modify` an existing file, `create` one (old side /dev/null), `delete` one (new side /dev/null). */
  kind: 'modify' | 'create' | 'delete';
  hunks: PatchHunk[];
  /** 1-based line of the file's first header line in the patch text. */
  patchLine: number;
}

/** A malformed or unsupported patch: exit 2, nothing written. */
export class PatchError extends KizuError {
  constructor(message: string, hint = 'fix the patch (see git-apply(1) for the unified format) and run the command again; nothing was written') {
    super(message, { hint, exitCode: EXIT.ERROR });
  }
}

/** What may follow the closing `@@` of a hunk header: nothing, or a space and any text. */
const HEADER_TAIL_RE = /^(?: .*)?$/;

function startsWith(b: Buffer, s: string): boolean {
  return b.length >= s.length && b.toString('latin1', 0, s.length) === s;
}

/** The name in a `---`/`+++` line: C-quoted or up to a TAB (GNU diff puts a timestamp after one). */
function headerName(line: Buffer, where: string): string {
  const rest = line.subarray(4);
  if (rest[0] === 0x22) return unquoteC(rest, 0).bytes.toString('utf8');
  const tab = rest.indexOf(0x09);
  const name = (tab === -1 ? rest : rest.subarray(0, tab)).toString('utf8').replace(/\r$/, '');
  if (!name) throw new PatchError(`${where}: the file header names no file`);
  return name;
}

/** The two names of `diff --git a/X b/Y` (quoted or not); null when the split is ambiguous. */
function gitHeaderNames(line: Buffer): [string, string] | null {
  const rest = line.subarray('diff --git '.length);
  if (rest[0] === 0x22) {
    const a = unquoteC(rest, 0);
    let i = a.end;
    if (rest[i] !== 0x20) return null;
    i++;
    const b = rest[i] === 0x22 ? unquoteC(rest, i).bytes : rest.subarray(i);
    return [a.bytes.toString('utf8'), b.toString('utf8')];
  }
  const s = rest.toString('utf8');
  const q = s.indexOf(' "');
  if (q !== -1) return [s.slice(0, q), unquoteC(rest, Buffer.byteLength(s.slice(0, q + 1))).bytes.toString('utf8')];
  // Unquoted `a/P b/P`: with equal names the halves have equal length.
  const n = (s.length - 1) / 2;
  if (Number.isInteger(n) && s[n] === ' ' && s.slice(0, n).slice(2) === s.slice(n + 1).slice(2)) return [s.slice(0, n), s.slice(n + 1)];
  return null;
}

/**
 * Strips `strip` leading components (git-apply(1) `-p`) and checks the result.
 * @throws PatchError for too few components, an absolute path, `..`, a path in `.git` (or one a
 *   file system takes for it), or anything else git/verify-path.ts pathProblem refuses.
 */
function cleanPath(name: string, strip: number, where: string): string {
  const parts = name.split('/');
  if (name.startsWith('/')) throw new PatchError(`${where}: "${name}" is an absolute path; patches name files relative to the repository root`);
  if (parts.length <= strip) throw new PatchError(`${where}: "${name}" has fewer than ${strip + 1} path components, so -p${strip} leaves no file name`);
  const rel = path.posix.normalize(parts.slice(strip).join('/'));
  if (rel === '.' || rel === '' || rel.endsWith('/')) throw new PatchError(`${where}: "${name}" names a directory, not a file`);
  // The one path rule (git/verify-path.ts), in the words patches have always used for the two usual cases.
  const why = pathProblem(rel);
  if (why === LEAVES_TREE) throw new PatchError(`${where}: "${name}" leaves the repository`);
  if (why && rel.split('/').some(isDotGitComponent)) throw new PatchError(`${where}: "${name}" is inside .git; git-kizu does not patch git's own files`);
  if (why) throw new PatchError(`${where}: "${name}" is not a path git-kizu writes: ${why}`);
  return rel;
}

function show(b: Buffer): string {
  return JSON.stringify(b.toString('utf8'));
}

/**
 * Parses a unified diff.
 * @param patch the patch bytes.
 * @param strip leading path components to remove from file names (git-apply(1) `-p`, default 1:
 *   `a/src/x.js` → `src/x.js`; `/dev/null` marks a missing side).
 * @returns the files in patch order, each with its hunks.
 * @throws PatchError (exit 2) naming the patch line for every malformed or unsupported
 *   construct listed in the module comment, and for a patch with no file in it.
 */
export function parsePatch(patch: Buffer, strip = 1): FilePatch[] {
  const L = splitLines(patch);
  const files: FilePatch[] = [];
  const seen = new Map<string, number>();
  let i = 0;
  const at = (k: number) => `patch line ${k + 1}`;

  const parseHunks = (fp: FilePatch): void => {
    while (i < L.length && startsWith(L[i], '@@')) {
      const text = L[i].toString('utf8').replace(/\r$/, '');
      const hh = parseHunkHeader(text);
      const n = fp.hunks.length + 1;
      if (!hh || !HEADER_TAIL_RE.test(hh.tail)) throw new PatchError(`${fp.path}: hunk ${n} (${at(i)}): malformed hunk header ${JSON.stringify(text)}; expected "@@ -<start>,<count> +<start>,<count> @@"`);
      const h: PatchHunk = {
        index: n,
        header: text,
        oldStart: hh.oldStart,
        oldCount: hh.oldCount,
        newStart: hh.newStart,
        newCount: hh.newCount,
        lines: [],
        patchLine: i + 1,
      };
      const name = `${fp.path}: hunk ${n} (${text.replace(/^(@@[^@]*@@).*$/, '$1')}, ${at(i)})`;
      if (h.oldStart === 0 && h.oldCount !== 0) throw new PatchError(`${name}: old start 0 needs an old count of 0`);
      if (h.newStart === 0 && h.newCount !== 0) throw new PatchError(`${name}: new start 0 needs a new count of 0`);
      if (h.oldCount === 0 && h.newCount === 0) throw new PatchError(`${name}: the hunk changes nothing (both counts are 0)`);
      i++;
      let oldLeft = h.oldCount;
      let newLeft = h.newCount;
      let last: PatchLine | null = null;
      while (oldLeft > 0 || newLeft > 0 || (i < L.length && L[i][0] === 0x5c)) {
        if (i >= L.length) throw new PatchError(`${name}: the patch ends ${oldLeft} old and ${newLeft} new line(s) short of what the header counts`);
        const line = L[i];
        const op = lineKind(line[0]);
        if (op === '\\') {
          if (!last || !startsWith(line, '\\ ')) throw new PatchError(`${name}, ${at(i)}: a "\\" line must follow a body line ("\\ No newline at end of file")`);
          if (last.text[last.text.length - 1] !== 0x0a) throw new PatchError(`${name}, ${at(i)}: two "\\ No newline at end of file" lines for one line`);
          last.text = last.text.subarray(0, last.text.length - 1);
          i++;
          continue;
        }
        if (op === null) {
          const what = line.length === 0 ? 'an empty line (a blank context line must be a single space)' : `${show(line)}, which is not a ' ', '-' or '+' line`;
          throw new PatchError(`${name}: the hunk ends early at ${at(i)}: ${oldLeft} old and ${newLeft} new line(s) still expected, found ${what}`);
        }
        if (op !== '+' && oldLeft === 0) throw new PatchError(`${name}, ${at(i)}: more old lines (' ' and '-') than the header's count ${h.oldCount}`);
        if (op !== '-' && newLeft === 0) throw new PatchError(`${name}, ${at(i)}: more new lines (' ' and '+') than the header's count ${h.newCount}`);
        if (op !== '+') oldLeft--;
        if (op !== '-') newLeft--;
        last = { op, text: Buffer.concat([line.subarray(1), Buffer.from('\n')]) };
        h.lines.push(last);
        i++;
      }
      // A body-looking line right after a complete hunk means the counts are too small.
      // (`-- ` alone is the signature separator git format-patch ends a mail with.)
      const nx = i < L.length ? L[i] : null;
      if (nx && (nx[0] === 0x20 || (nx[0] === 0x2b && !startsWith(nx, '+++ ')) || (nx[0] === 0x2d && !startsWith(nx, '--- ') && nx.toString('latin1').replace(/\r$/, '') !== '-- '))) {
        throw new PatchError(`${name}: ${at(i)} continues the hunk past the line counts in its header (${h.oldCount} old, ${h.newCount} new)`);
      }
      fp.hunks.push(h);
    }
  };

  while (i < L.length) {
    const line = L[i];
    const start = i;
    let gitNames: [string, string] | null = null;
    let gitKind: 'create' | 'delete' | null = null;
    if (startsWith(line, 'diff --git ')) {
      gitNames = gitHeaderNames(line);
      i++;
      for (; i < L.length; i++) {
        const t = L[i].toString('utf8').replace(/\r$/, '');
        let m: RegExpExecArray | null;
        if (/^index [0-9a-f]+\.\.[0-9a-f]+( \d+)?$/.test(t)) continue;
        if ((m = /^new file mode (\d+)$/.exec(t))) {
          if (m[1] !== '100644') throw new PatchError(`${at(i)}: "${t}": only regular non-executable files (mode 100644) are created; mode changes are not applied`);
          gitKind = 'create';
          continue;
        }
        if (/^deleted file mode \d+$/.test(t)) {
          gitKind = 'delete';
          continue;
        }
        if (/^(old|new) mode /.test(t)) throw new PatchError(`${at(i)}: "${t}": mode changes are not applied`);
        if (/^(similarity|dissimilarity) index |^(rename|copy) (from|to) /.test(t)) throw new PatchError(`${at(i)}: "${t}": renames and copies are not supported; patch the file in place or split the change`);
        if (/^(Binary files .* differ|GIT binary patch)$/.test(t)) throw new PatchError(`${at(i)}: "${t}": binary patches are not supported`);
        break;
      }
      if (!(i < L.length && startsWith(L[i], '--- '))) {
        // A git header without ---/+++: only an empty file created or deleted.
        if (!gitKind || !gitNames) {
          throw new PatchError(`${at(start)}: "diff --git" header without "---"/"+++" lines and without a change git-kizu can apply`);
        }
        const p = cleanPath(gitKind === 'create' ? gitNames[1] : gitNames[0], strip, at(start));
        if (seen.has(p)) throw new PatchError(`${at(start)}: ${p} is patched twice (first at patch line ${seen.get(p)}); one section per file`);
        seen.set(p, start + 1);
        files.push({ path: p, kind: gitKind, hunks: [], patchLine: start + 1 });
        continue;
      }
    }
    if (startsWith(L[i], '--- ')) {
      const hdr = i;
      if (!(i + 1 < L.length && startsWith(L[i + 1], '+++ '))) throw new PatchError(`${at(i)}: a "---" header must be followed by a "+++" header`);
      const oldName = headerName(L[i], at(i));
      const newName = headerName(L[i + 1], at(i + 1));
      const oldP = oldName === '/dev/null' ? null : cleanPath(oldName, strip, at(i));
      const newP = newName === '/dev/null' ? null : cleanPath(newName, strip, at(i + 1));
      if (oldP === null && newP === null) throw new PatchError(`${at(i)}: both sides are /dev/null`);
      if (oldP !== null && newP !== null && oldP !== newP) throw new PatchError(`${at(i)}: "${oldName}" → "${newName}" renames a file; renames are not supported`);
      const p = (newP ?? oldP)!;
      if (gitNames) {
        const gp = [gitNames[0], gitNames[1]].map((n) => cleanPath(n, strip, at(start)));
        if (gp[0] !== gp[1]) throw new PatchError(`${at(start)}: "diff --git" names two different files; renames are not supported`);
        if (gp[0] !== p) throw new PatchError(`${at(start)}: "diff --git" names ${gp[0]} but the "---"/"+++" lines name ${p}`);
      }
      const kind = oldP === null ? 'create' : newP === null ? 'delete' : 'modify';
      if (gitKind && gitKind !== kind) throw new PatchError(`${at(start)}: the git header says the file is ${gitKind}d but the "---"/"+++" lines disagree`);
      if (seen.has(p)) throw new PatchError(`${at(hdr)}: ${p} is patched twice (first at patch line ${seen.get(p)}); one section per file`);
      seen.set(p, (gitNames ? start : hdr) + 1);
      const fp: FilePatch = { path: p, kind, hunks: [], patchLine: (gitNames ? start : hdr) + 1 };
      i += 2;
      parseHunks(fp);
      if (!fp.hunks.length) throw new PatchError(`${p} (${at(hdr)}): the file header is not followed by a "@@" hunk`);
      checkHunkOrder(fp);
      files.push(fp);
      continue;
    }
    if (startsWith(L[i], '+++ ')) throw new PatchError(`${at(i)}: a "+++" header without the "---" header before it`);
    if (startsWith(L[i], '@@')) throw new PatchError(`${at(i)}: a hunk outside a file section (no "---"/"+++" header before it)`);
    i++; // text outside file sections
  }
  if (!files.length) throw new PatchError('the patch holds no file changes (no "---"/"+++" headers)');
  return files;
}

/**
 * Checks the hunks of one file against each other: ascending, not overlapping, and each
 * `+` start equal to where the hunks before it put that line (diffutils / git-apply(1)).
 * A created file takes exactly one hunk `-0,0`; a deleted file one hunk `+0,0`.
 * @throws PatchError (exit 2).
 */
function checkHunkOrder(fp: FilePatch): void {
  let prevEnd = 0; // first old line after the previous hunk (1-based position)
  let delta = 0;
  for (const h of fp.hunks) {
    const name = `${fp.path}: hunk ${h.index} (${h.header.replace(/^(@@[^@]*@@).*$/, '$1')}, patch line ${h.patchLine})`;
    if (fp.kind === 'create' && (fp.hunks.length !== 1 || h.oldStart !== 0 || h.oldCount !== 0)) throw new PatchError(`${name}: a created file (--- /dev/null) takes exactly one hunk "@@ -0,0 +1,<n> @@"`);
    if (fp.kind === 'delete' && (fp.hunks.length !== 1 || h.newStart !== 0 || h.newCount !== 0)) throw new PatchError(`${name}: a deleted file (+++ /dev/null) takes exactly one hunk "@@ -1,<n> +0,0 @@"`);
    const oldFirst = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
    const newFirst = h.newCount === 0 ? h.newStart + 1 : h.newStart;
    if (oldFirst < prevEnd) {
      throw new PatchError(`${name}: overlaps or comes before the previous hunk (old lines from ${oldFirst}, previous hunk ends at line ${prevEnd - 1}); hunks must be in file order without overlap`);
    }
    if (newFirst !== oldFirst + delta) {
      throw new PatchError(`${name}: the new start ${h.newStart} does not follow from the hunks before it (expected +${oldFirst + delta - (h.newCount === 0 ? 1 : 0)})`);
    }
    prevEnd = oldFirst + h.oldCount;
    delta += h.newCount - h.oldCount;
  }
}
