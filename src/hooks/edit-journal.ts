/**
 * `git kizu hook journal`: the async PostToolUse handler that records each edit the agent
 * makes in the edit journal (src/rollback/journal/journal.ts). Registered by `git kizu init`
 * as its own PostToolUse entry with `"async": true` (Claude Code hooks reference: an async
 * command hook runs in the background and cannot block or add context), so it never slows
 * the edit path. It prints nothing on stdout. The agent's adapter says which edit it was
 * and what the agent reports it changed (src/hooks/contract.ts `RecordableEdit`).
 *
 * Before content: what the agent reports (none for a created file), otherwise unknown
 * (recorded as such; such an entry cannot be rolled back). After content: the file's bytes
 * at hook time when they match what the agent says it wrote; the reported version when the
 * file has changed again since (an async hook can run after the next edit, and can record
 * after the next edit's hook: the journal orders entries by their content, see
 * src/rollback/journal/journal.ts); the file's bytes when the agent says nothing. Claude
 * Code keeps a file's CRLF line ends but reports LF text: when every line end of the file at
 * hook time is CRLF and the reported text has no CR, both the before and the after text get
 * CRLF (also when the next edit has changed the file since, so that entry still matches the
 * entries around it). An agent that sends a patch instead of contents (Codex's apply_patch)
 * says per file how the before content follows from the file's bytes at hook time
 * (`ReportedChange.beforeFrom`: the patch reversed), read here.
 */
import path from 'node:path';
import { findRootFast } from '../git/repo.js';
import type { JournalInput, ReportedChange } from './contract.js';
import { fileMode, readWorkFile } from '../rollback/journal/patch-write.js';
import { pathProblem } from '../git/verify-path.js';

/** `s` with each '\n' not preceded by '\r' turned into "\r\n". */
function crlf(b: Buffer): Buffer {
  return Buffer.from(b.toString('latin1').replace(/(?<!\r)\n/g, '\r\n'), 'latin1');
}

/** Whether `b` has line ends and every one is CRLF. */
function crlfOnly(b: Buffer): boolean {
  let n = 0;
  for (let k = b.indexOf(0x0a); k !== -1; k = b.indexOf(0x0a, k + 1), n++) if (k === 0 || b[k - 1] !== 0x0d) return false;
  return n > 0;
}

/** What is known when the agent reports nothing about the file. */
const UNREPORTED: ReportedChange = { before: null, beforeUnknown: true, after: undefined };

/**
 * `pay` with its before content derived from the working tree (`beforeFrom`, read now);
 * unknown when that file cannot be read or does not fit. `pay` itself when it has no `beforeFrom`.
 */
function withDerivedBefore(cwd: string, pay: ReportedChange): ReportedChange {
  if (!pay.beforeFrom) return pay;
  const abs = path.resolve(cwd, pay.beforeFrom.path);
  const root = findRootFast(path.dirname(abs));
  let bytes: Buffer | null = null;
  try {
    if (root) bytes = readWorkFile(root, path.relative(root, abs).split(path.sep).join('/'));
  } catch {
    bytes = null;
  }
  const before = bytes === null ? undefined : pay.beforeFrom.derive(bytes);
  return before === undefined ? { ...pay, before: null, beforeUnknown: true } : { ...pay, before, beforeUnknown: false };
}

/**
 * Records the file change(s) of one edit in the journal of the repository holding each file
 * (one entry per repository; paths outside a repository or inside `.git` are skipped).
 * Nothing is recorded for no edit (`input.edit` null), for changes that changed nothing, and
 * for a tool call id already among the newest journal entries (the same call reported
 * twice, e.g. by hooks installed in two settings scopes).
 * @param now when the hook started (the entry's time).
 * @throws KizuError or fs errors from writing the journal (the caller prints one stderr
 *   line and exits 0).
 */
export async function journalHook(input: JournalInput, now = new Date()): Promise<void> {
  const edit = input.edit;
  if (!edit) return;
  const paths = edit.paths;
  const byRoot = new Map<string, { rel: string; abs: string; as: string }[]>();
  for (const f of paths) {
    const abs = path.resolve(input.cwd, f);
    const root = findRootFast(path.dirname(abs));
    if (!root) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    // Only paths a rollback may write back (git/verify-path.ts): not outside the tree, not in .git.
    if (pathProblem(rel)) continue;
    if (!byRoot.has(root)) byRoot.set(root, []);
    byRoot.get(root)!.push({ rel, abs, as: f });
  }
  if (!byRoot.size) return;
  const { recordEntry } = await import('../rollback/journal/journal.js');
  for (const [root, files] of byRoot) {
    const changes = [];
    for (const { rel, as } of files) {
      let disk: Buffer | null;
      try {
        disk = readWorkFile(root, rel);
      } catch {
        continue; // a directory or unreadable: nothing to record
      }
      const pay = withDerivedBefore(input.cwd, edit.reportedByPath?.[as] ?? edit.reported ?? UNREPORTED);
      let { before } = pay;
      let after: Buffer | null;
      if (pay.after === undefined || (disk !== null && disk.equals(pay.after))) after = disk;
      else if (disk !== null && !pay.after.includes(0x0d) && crlfOnly(disk)) {
        after = crlf(pay.after);
        if (before && !before.includes(0x0d)) before = crlf(before);
      } else after = pay.after;
      if (!pay.beforeUnknown && (before === null ? after === null : after !== null && before.equals(after))) continue;
      if (pay.beforeUnknown && after === null) continue;
      const mode = after !== null ? fileMode(root, rel) : undefined;
      changes.push({ path: rel, before, after, beforeUnknown: pay.beforeUnknown || undefined, mode });
    }
    if (!changes.length) continue;
    await recordEntry(root, {
      tool: edit.tool,
      session: input.session,
      toolUseId: edit.toolUseId,
      time: now,
      files: changes,
      dedupe: true,
    });
  }
}
