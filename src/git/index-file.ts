/**
 * A read-only parser for git's index file (gitformat-index(5), "The Git index format"),
 * used by the snapshot code to list the paths of the private snapshot index and of the
 * user's index without starting git, and to decide whether the user's index is safe to
 * seed the private index with.
 *
 * Layout: 12-byte header (`DIRC`, version 2/3/4, entry count, all big-endian), the entries
 * sorted by path, extensions (4-byte signature, 4-byte size, data), and a trailing checksum
 * of the whole file (20 bytes for SHA-1, 32 for SHA-256; all zeros with index.skipHash).
 * Entry: ctime(8) mtime(8) dev ino mode uid gid size (4 each), object id, 16-bit flags
 * (bit 15 assume-valid, bit 14 extended, bits 13-12 stage, bits 11-0 name length), then in
 * version 3+ a 16-bit extended-flags word if bit 14 is set (bit 14 skip-worktree, bit 13
 * intent-to-add), then the path: NUL-terminated and padded with 1-8 NULs to a multiple of 8
 * bytes (versions 2 and 3) or, in version 4, a varint of bytes to strip from the previous
 * path followed by the NUL-terminated remainder, without padding.
 */

/** One index entry (only the fields the snapshot code needs). */
export interface IndexEntry {
  /** Repository-relative path ('/'-separated, decoded as UTF-8). */
  path: string;
  /** Git mode: 0o100644, 0o100755, 0o120000 (symlink) or 0o160000 (gitlink). */
  mode: number;
  /** File size in bytes recorded at the last stat (truncated to 32 bits). */
  size: number;
  /** Merge stage (0 for a normal entry). */
  stage: number;
  /** assume-unchanged (assume-valid) bit set. */
  assumeValid: boolean;
  /** skip-worktree extended flag set. */
  skipWorktree: boolean;
  /** intent-to-add extended flag set (`git add -N`). */
  intentToAdd: boolean;
}

/** A parsed index. */
export interface ParsedIndex {
  version: number;
  entries: IndexEntry[];
  /** Extension signatures in file order (e.g. `TREE`, `UNTR`, `link`, `sdir`). */
  extensions: string[];
  /** Hex of the trailing checksum (identifies this exact file content). */
  checksum: string;
}

/** Node's Buffer has an undocumented, long-standing `utf8Slice` (what `toString('utf8')` calls). */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}
const hasUtf8Slice = typeof (Buffer.prototype as unknown as Partial<Utf8Slicer>).utf8Slice === 'function';

/**
 * One entry as {@link walkIndex} meets it: where it starts in the file, its 16-bit flags and
 * extended flags (0 when it has none), and its path's bytes: `buf[nameStart, nameEnd)` in
 * versions 2 and 3, `name` (rebuilt from the previous path) in version 4. The object is
 * reused for every entry: copy what is kept.
 */
interface RawEntry {
  offset: number;
  flags: number;
  ext: number;
  nameStart: number;
  nameEnd: number;
  name: Buffer | null;
}

/**
 * Walks an index file's entries (gitformat-index(5)), calling `visit` for each in file order,
 * then reads the extension signatures. The one reader of the entry layout, shared by
 * {@link parseIndex} and {@link flaggedEntries}.
 * @param oidLen object id length in bytes: 20 (SHA-1) or 32 (SHA-256).
 * @returns the version, the extension signatures, and where the trailing checksum starts.
 * @throws Error if the bytes are not a well-formed index of version 2, 3 or 4.
 */
function walkIndex(buf: Buffer, oidLen: number, visit: (e: RawEntry) => void): { version: number; count: number; extensions: string[]; end: number } {
  const bad = (why: string) => new Error(`not a git index file (${why})`);
  if (buf.length < 12 + oidLen || buf.toString('latin1', 0, 4) !== 'DIRC') throw bad('no DIRC header');
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw bad(`version ${version}`);
  const count = buf.readUInt32BE(8);
  const end = buf.length - oidLen;
  const fixed = 40 + oidLen; // stat data + oid, before flags
  const e: RawEntry = { offset: 0, flags: 0, ext: 0, nameStart: 0, nameEnd: 0, name: null };
  let off = 12;
  let prev: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    if (off + fixed + 2 > end) throw bad('truncated entry');
    const flags = (buf[off + fixed] << 8) | buf[off + fixed + 1];
    let p = off + fixed + 2;
    let ext = 0;
    if (flags & 0x4000) {
      if (version < 3) throw bad('extended flag in a version 2 index');
      ext = (buf[p] << 8) | buf[p + 1];
      p += 2;
    }
    e.offset = off;
    e.flags = flags;
    e.ext = ext;
    if (version === 4) {
      let c = buf[p++];
      let strip = c & 127;
      while (c & 128) {
        c = buf[p++];
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const nul = buf.indexOf(0, p);
      if (nul < 0 || nul > end || strip > prev.length) throw bad('bad v4 path');
      prev = Buffer.concat([prev.subarray(0, prev.length - strip), buf.subarray(p, nul)]);
      e.name = prev;
      off = nul + 1;
    } else {
      const len = flags & 0xfff;
      const nul = len < 0xfff ? p + len : buf.indexOf(0, p);
      if (nul < 0 || nul > end || buf[nul] !== 0) throw bad('bad path');
      e.name = null;
      e.nameStart = p;
      e.nameEnd = nul;
      // Entry length rounded up to a multiple of 8 with at least one NUL.
      off += (p - off + (nul - p) + 8) & ~7;
    }
    visit(e);
  }
  const extensions: string[] = [];
  while (off + 8 <= end) {
    extensions.push(buf.toString('latin1', off, off + 4));
    off += 8 + buf.readUInt32BE(off + 4);
  }
  if (off !== end) throw bad('bad extension sizes');
  return { version, count, extensions, end };
}

/**
 * Parses an index file's bytes.
 * @param oidLen object id length in bytes: 20 (SHA-1) or 32 (SHA-256).
 * @throws Error if the bytes are not a well-formed index of version 2, 3 or 4.
 */
export function parseIndex(buf: Buffer, oidLen = 20): ParsedIndex {
  const entries: IndexEntry[] = [];
  // Byte arithmetic instead of readUInt32BE and a direct UTF-8 slice: this loop runs once per
  // tracked file on the first snapshot, mostly before the JIT has warmed up.
  const u32 = (o: number) => ((buf[o] << 24) | (buf[o + 1] << 16) | (buf[o + 2] << 8) | buf[o + 3]) >>> 0;
  const utf8 = (a: number, b: number): string => (hasUtf8Slice ? (buf as unknown as Utf8Slicer).utf8Slice(a, b) : buf.toString('utf8', a, b));
  const { version, extensions, end } = walkIndex(buf, oidLen, (e) => {
    entries.push({
      path: e.name ? e.name.toString('utf8') : utf8(e.nameStart, e.nameEnd),
      mode: u32(e.offset + 24),
      size: u32(e.offset + 36),
      stage: (e.flags >> 12) & 3,
      assumeValid: (e.flags & 0x8000) !== 0,
      skipWorktree: (e.ext & 0x4000) !== 0,
      intentToAdd: (e.ext & 0x2000) !== 0,
    });
  });
  return { version, entries, extensions, checksum: buf.toString('hex', end) };
}

/**
 * Why the user's index cannot seed the private snapshot index, or null if it can: every
 * entry is a stage-0 entry without assume-unchanged, skip-worktree or intent-to-add (git
 * would trust or skip those without looking at the file), and there is no split-index
 * (`link`) or sparse-index (`sdir`) extension (whose entries live elsewhere).
 */
export function seedProblem(ix: ParsedIndex): string | null {
  if (ix.extensions.includes('link')) return 'split index';
  if (ix.extensions.includes('sdir')) return 'sparse index';
  for (const e of ix.entries) {
    if (e.stage !== 0) return `unmerged entry ${e.path}`;
    if (e.assumeValid) return `assume-unchanged entry ${e.path}`;
    if (e.skipWorktree) return `skip-worktree entry ${e.path}`;
    if (e.intentToAdd) return `intent-to-add entry ${e.path}`;
  }
  return null;
}

/** A stage-0 index entry that git does not compare with its working-tree file. */
export interface FlaggedEntry {
  /** Repository-relative path, decoded as UTF-8. */
  path: string;
  /** The path's bytes as the index holds them. */
  raw: Buffer;
  /** Git mode (0o100644, 0o100755, 0o120000, 0o160000). */
  mode: number;
  /** The entry's object id, hex. */
  oid: string;
  /** assume-unchanged (CE_VALID, `git update-index --assume-unchanged`). */
  assumeUnchanged: boolean;
  /** skip-worktree (extended flag, `git update-index --skip-worktree`, sparse checkout). */
  skipWorktree: boolean;
  /** Byte offset of the entry in the index file (for {@link indexWithoutFlags}). */
  offset: number;
}

/**
 * The stage-0 entries with the assume-unchanged or the skip-worktree flag (gitformat-index(5):
 * flags bit 15, extended flags bit 14), read in one pass that decodes only their paths (a
 * few milliseconds for 100,000 entries), and the extension signatures (`link`: a split index,
 * whose other entries live in a shared index file; `sdir`: a sparse index).
 * @param oidLen object id length in bytes: 20 (SHA-1) or 32 (SHA-256).
 * @throws Error if the bytes are not a well-formed index of version 2, 3 or 4.
 */
export function flaggedEntries(buf: Buffer, oidLen = 20): { entries: FlaggedEntry[]; extensions: string[] } {
  const entries: FlaggedEntry[] = [];
  const { extensions } = walkIndex(buf, oidLen, (e) => {
    if (!((e.flags & 0x8000) !== 0 || (e.ext & 0x4000) !== 0) || ((e.flags >> 12) & 3) !== 0) return;
    const raw = Buffer.from(e.name ?? buf.subarray(e.nameStart, e.nameEnd));
    entries.push({
      path: raw.toString('utf8'),
      raw,
      mode: buf.readUInt32BE(e.offset + 24),
      oid: buf.toString('hex', e.offset + 40, e.offset + 40 + oidLen),
      assumeUnchanged: (e.flags & 0x8000) !== 0,
      skipWorktree: (e.ext & 0x4000) !== 0,
      offset: e.offset,
    });
  });
  return { entries, extensions };
}

/**
 * A copy of an index file's bytes with the assume-unchanged and skip-worktree flags of the
 * entries at `offsets` ({@link FlaggedEntry.offset}) cleared and their ctime and mtime zeroed
 * (so git compares their files by content), and the trailing checksum computed again (left
 * all zeros when it was: index.skipHash). Read by git through GIT_INDEX_FILE, it makes `git
 * diff` see those files as `git update-index --no-assume-unchanged --no-skip-worktree` would.
 * @param hash the index's hash function (SHA-1 or SHA-256) over the bytes before the checksum.
 */
export function indexWithoutFlags(buf: Buffer, oidLen: number, offsets: number[], hash: (b: Buffer) => Buffer): Buffer {
  const out = Buffer.from(buf);
  const fixed = 40 + oidLen;
  for (const off of offsets) {
    out.fill(0, off, off + 16);
    const f = off + fixed;
    const extended = (out[f] & 0x40) !== 0;
    out[f] &= 0x7f;
    if (extended) out[f + 2] &= ~0x40;
  }
  const end = out.length - oidLen;
  if (out.subarray(end).some((b) => b !== 0)) hash(out.subarray(0, end)).copy(out, end);
  return out;
}

/**
 * The paths of the stage-0 entries whose last component is `name` (`.gitattributes`), read in
 * one pass that decodes only those paths (gitformat-index(5)).
 * @param oidLen object id length in bytes: 20 (SHA-1) or 32 (SHA-256).
 * @returns the paths, and the extension signatures (`link`, `sdir`: entries live elsewhere).
 * @throws Error if the bytes are not a well-formed index of version 2, 3 or 4.
 */
export function entriesNamed(buf: Buffer, oidLen: number, name: string): { paths: string[]; extensions: string[] } {
  const paths: string[] = [];
  const tail = Buffer.from(name);
  const { extensions } = walkIndex(buf, oidLen, (e) => {
    const raw = e.name ?? buf.subarray(e.nameStart, e.nameEnd);
    if (((e.flags >> 12) & 3) !== 0 || raw.length < tail.length || !raw.subarray(raw.length - tail.length).equals(tail)) return;
    if (raw.length === tail.length || raw[raw.length - tail.length - 1] === 0x2f) paths.push(raw.toString('utf8'));
  });
  return { paths, extensions };
}
