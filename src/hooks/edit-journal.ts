/**
 * `git kizu hook journal`: the async PostToolUse handler that records each Write, Edit,
 * MultiEdit and NotebookEdit in the edit journal (src/rollback/journal.ts). Registered by
 * `git kizu init` as its own PostToolUse entry with `"async": true` (Claude Code hooks
 * reference: an async command hook runs in the background and cannot block or add context),
 * so it never slows the edit path. It prints nothing on stdout.
 *
 * Payload fields read (Claude Code hooks reference "PostToolUse input", tool output shapes as
 * in @anthropic-ai/claude-code sdk-tools.d.ts): `session_id`, `tool_use_id`, `cwd`,
 * `tool_name`, `tool_input.file_path` / `notebook_path` / `content` / `old_string` /
 * `new_string` / `replace_all` / `edits`, and `tool_response`:
 * - Write (FileWriteOutput): `type` "create" | "update", `content`, `originalFile` (null for
 *   a new file, or when the old content was too large to include);
 * - Edit (FileEditOutput): `originalFile`, `structuredPatch`, `oldString`, `newString`;
 * - NotebookEdit (NotebookEditOutput): `original_file`, `updated_file`, `error`;
 * - any: `staged: true` means the change was held back and the file is unchanged.
 *
 * Before content: `originalFile` / `original_file` when sent; none for a Write that created
 * the file (or an Edit with an empty `old_string` and no original: Claude Code's way to
 * create a file); otherwise unknown (recorded as such; such an entry cannot be rolled back).
 * After content: the file's bytes at hook time when they match what the payload says the
 * tool wrote (also when they are that text with CRLF line ends: Claude Code keeps a file's
 * line ends, and then the before text gets CRLF too); the payload's version when the file
 * has changed again since (an async hook can run after the next edit); the file's bytes
 * when the payload says nothing.
 */
import path from 'node:path';
import { findRootFast } from '../git/repo.js';
import { editedPaths, PayloadError, type HookPayload } from '../agents/claude/payload.js';
import { fileMode, readWorkFile } from '../rollback/journal/patch-write.js';

const TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

type Obj = Record<string, unknown>;

function str(o: Obj, k: string): string | undefined {
  return typeof o[k] === 'string' ? (o[k] as string) : undefined;
}

/** `s` with each '\n' not preceded by '\r' turned into "\r\n". */
function crlf(b: Buffer): Buffer {
  return Buffer.from(b.toString('latin1').replace(/(?<!\r)\n/g, '\r\n'), 'latin1');
}

/** Claude Code's Edit on a string: the first (or, with replaceAll, every) occurrence; undefined if absent. */
function replaceIn(text: string, oldS: string, newS: string, all: boolean): string | undefined {
  if (oldS === '' || !text.includes(oldS)) return undefined;
  return all ? text.split(oldS).join(newS) : text.replace(oldS, () => newS);
}

/** What the payload says about one file: the old text and the new text, where known. */
function fromPayload(tool: string, ti: Obj, tr: Obj): { before: Buffer | null; beforeUnknown: boolean; after: Buffer | undefined } {
  let before: Buffer | null = null;
  let beforeUnknown = false;
  let after: string | undefined;
  const orig = tr.originalFile;
  if (tool === 'Write') {
    after = str(ti, 'content') ?? str(tr, 'content');
    if (tr.type === 'create') before = null;
    else if (typeof orig === 'string') before = Buffer.from(orig, 'utf8');
    else beforeUnknown = true;
  } else if (tool === 'NotebookEdit') {
    after = str(tr, 'updated_file');
    const o = str(tr, 'original_file');
    if (o !== undefined) before = Buffer.from(o, 'utf8');
    else beforeUnknown = true;
  } else {
    const edits: Obj[] =
      tool === 'MultiEdit' && Array.isArray(ti.edits) ? (ti.edits.filter((e) => e && typeof e === 'object') as Obj[]) : [ti];
    if (typeof orig === 'string') {
      before = Buffer.from(orig, 'utf8');
      let t: string | undefined = orig;
      for (const e of edits) {
        const o = str(e, 'old_string');
        const n = str(e, 'new_string');
        t = t === undefined || o === undefined || n === undefined ? undefined : replaceIn(t, o, n, e.replace_all === true);
      }
      after = t;
    } else if (edits.length === 1 && str(ti, 'old_string') === '' && orig === null) {
      before = null; // an Edit with an empty old_string creates the file
      after = str(ti, 'new_string');
    } else beforeUnknown = true;
  }
  return { before, beforeUnknown, after: after === undefined ? undefined : Buffer.from(after, 'utf8') };
}

/**
 * Records the file change(s) of one PostToolUse payload in the journal of the repository
 * holding each file (one entry per repository; paths outside a repository or inside `.git`
 * are skipped). Tools other than Write/Edit/MultiEdit/NotebookEdit, held-back (`staged`) and
 * failed (`error`) tool calls, changes that changed nothing, and a `tool_use_id` already
 * among the newest journal entries (the same call reported twice, e.g. by hooks installed in
 * two settings scopes) are not recorded.
 * @param now when the hook started (the entry's time).
 * @throws PayloadError for a `tool_response` or `tool_use_id` of the wrong type; KizuError or
 *   fs errors from writing the journal (the caller prints one stderr line and exits 0).
 */
export async function journalHook(p: HookPayload, env: NodeJS.ProcessEnv, now = new Date()): Promise<void> {
  const raw = p as unknown as Obj;
  if (!p.tool_name || !TOOLS.has(p.tool_name)) return;
  const trv = raw.tool_response;
  if (trv !== undefined && (typeof trv !== 'object' || trv === null || Array.isArray(trv))) {
    throw new PayloadError(`hook payload field "tool_response" should be an object, got ${JSON.stringify(trv).slice(0, 80)}`);
  }
  if (raw.tool_use_id !== undefined && typeof raw.tool_use_id !== 'string') {
    throw new PayloadError(`hook payload field "tool_use_id" should be a string, got ${JSON.stringify(raw.tool_use_id)}`);
  }
  const tr = (trv ?? {}) as Obj;
  if (tr.staged === true || (typeof tr.error === 'string' && tr.error)) return;
  const ti = (p.tool_input ?? {}) as Obj;
  const base = typeof p.cwd === 'string' && p.cwd ? p.cwd : env.CLAUDE_PROJECT_DIR || process.cwd();
  const paths = editedPaths(p);
  const byRoot = new Map<string, { rel: string; abs: string }[]>();
  for (const f of paths) {
    const abs = path.resolve(base, f);
    const root = findRootFast(path.dirname(abs));
    if (!root) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (!rel || rel.startsWith('../') || rel === '..' || /^\.git(\/|$)/.test(rel)) continue;
    if (!byRoot.has(root)) byRoot.set(root, []);
    byRoot.get(root)!.push({ rel, abs });
  }
  if (!byRoot.size) return;
  const { recordEntry } = await import('../rollback/journal/journal.js');
  for (const [root, files] of byRoot) {
    const changes = [];
    for (const { rel } of files) {
      let disk: Buffer | null;
      try {
        disk = readWorkFile(root, rel);
      } catch {
        continue; // a directory or unreadable: nothing to record
      }
      // The payload describes the file only when the tool edited exactly one.
      const pay = paths.length === 1 ? fromPayload(p.tool_name, ti, tr) : { before: null, beforeUnknown: true, after: undefined };
      let { before } = pay;
      let after: Buffer | null;
      if (pay.after === undefined || (disk !== null && disk.equals(pay.after))) after = disk;
      else if (disk !== null && !pay.after.includes(0x0d) && crlf(pay.after).equals(disk)) {
        after = disk;
        if (before && !before.includes(0x0d)) before = crlf(before);
      } else after = pay.after;
      if (!pay.beforeUnknown && (before === null ? after === null : after !== null && before.equals(after))) continue;
      if (pay.beforeUnknown && after === null) continue;
      const mode = after !== null ? fileMode(root, rel) : undefined;
      changes.push({ path: rel, before, after, beforeUnknown: pay.beforeUnknown || undefined, mode });
    }
    if (!changes.length) continue;
    await recordEntry(root, {
      tool: p.tool_name,
      session: p.session_id ?? null,
      toolUseId: (raw.tool_use_id as string | undefined) ?? null,
      time: now,
      files: changes,
      dedupe: true,
    });
  }
}
