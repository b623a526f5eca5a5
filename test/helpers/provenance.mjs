// The ledger of what git kizu wrote (src/provenance/ledger.ts), for tests: `vouch(sb)` records
// every scar and queue item now in the sandbox's working tree as written through git kizu,
// as if a reviewer had written them with `git kizu scar` / `queue add`. The hook() helper
// calls it before each hook run (so tests about other things see the reviewer's wording);
// tests about provenance pass `{ asFound: true }` to hook() and see remarks as found data.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseScarLine } from '../../src/scars/format.ts';
import { parseItemText } from '../../src/queue/item.ts';

const sha = (s) => createHash('sha256').update(s).digest('hex');

/** The ledger keys of the scar lines and queue items in the working tree at `dir` (every candidate line: a few too many is harmless). */
export function ledgerKeys(dir) {
  const ls = spawnSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { cwd: dir, encoding: 'utf8' });
  if (ls.status !== 0) return [];
  const keys = [];
  for (const rel of ls.stdout.split('\0').filter(Boolean)) {
    let text;
    try {
      text = readFileSync(path.join(dir, rel), 'utf8');
    } catch {
      continue;
    }
    if (!text.includes('@kizu[') && rel !== '.claude/review-queue.md') continue;
    for (const line of text.split(/\r\n|\r|\n/)) {
      const p = parseScarLine(line.replace(/^\uFEFF/, ''));
      if (p) keys.push(`scar\0${rel}\0${p.kind}\0${p.body}`);
      const m = rel === '.claude/review-queue.md' && /^\s*(?:[-*+]|\d+[.)])\s+\[[ xX\t]\](.*)$/.exec(line.replace(/^\uFEFF/, ''));
      if (m) {
        const t = parseItemText(m[1]);
        keys.push(`queue\0${t.kind ?? ''}\0${t.anchor ? `${t.anchor.path}:${t.anchor.line}` : ''}\0${t.text}`);
      }
    }
  }
  return keys;
}

/** Records every scar and queue item in `sb`'s working tree (or `dir`) in its ledger. */
export function vouch(sb, dir = sb.dir) {
  const g = spawnSync('git', ['rev-parse', '--absolute-git-dir', '--show-toplevel'], { cwd: dir, encoding: 'utf8', env: sb.env });
  if (g.status !== 0) return;
  const [gitDir, top] = g.stdout.trim().split('\n');
  if (!top) return;
  const keys = ledgerKeys(top);
  if (!keys.length) return;
  const file = path.join(gitDir, 'kizu', 'written');
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, keys.map((k) => sha(k) + '\n').join(''));
}
