/**
 * PostToolUse handler: after Write/Edit/NotebookEdit, tells the agent about scars in the
 * file(s) it just edited. Reads only those files (no git process is started).
 * Output (Claude Code hooks reference, "PostToolUse decision control"):
 * `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"..."}}`.
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { findRootFast } from '../gitdir.js';
import { loadConfig } from '../config/index.js';
import { scanBuffer, type Scar } from '../scars/parse.js';
import { editedPaths, type HookPayload } from './payload.js';
import { scarLines, PROTOCOL } from './describe.js';

/**
 * @returns the JSON object to print, or null to print nothing.
 * @throws only on internal errors (the caller turns them into exit 0 + one stderr line).
 */
export async function postToolUse(p: HookPayload, env: NodeJS.ProcessEnv): Promise<object | null> {
  const base = typeof p.cwd === 'string' && p.cwd ? p.cwd : env.CLAUDE_PROJECT_DIR || process.cwd();
  const files = editedPaths(p);
  if (!files.length) return null;
  const found: Scar[] = [];
  const configs = new Map<string, Awaited<ReturnType<typeof loadConfig>>>();
  for (const f of files) {
    const abs = path.resolve(base, f);
    const root = findRootFast(path.dirname(abs));
    if (!root) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel.startsWith('..') || rel === '.git' || rel.startsWith('.git/')) continue;
    let cfg = configs.get(root);
    if (!cfg) configs.set(root, (cfg = await loadConfig(root)));
    if (cfg.scan.exclude.length && (await import('picomatch')).default(cfg.scan.exclude, { dot: true })(rel)) continue;
    let st;
    try {
      st = await lstat(abs);
    } catch {
      continue; // deleted
    }
    if (!st.isFile() || st.size > cfg.scan.maxFileBytes) continue;
    found.push(...scanBuffer(rel, await readFile(abs)));
  }
  if (!found.length) return null;
  const n = found.length;
  const text =
    `git-kizu: the file you just edited holds ${n} review scar${n === 1 ? '' : 's'} left by a human reviewer:\n` +
    `${scarLines(found)}\n${PROTOCOL} Resolve ${n === 1 ? 'it' : 'them'} before you finish your turn.`;
  return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } };
}
