// Hunks as `git kizu hunks --json` lists them, and what revert prints about its saved copy.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { trashHead } from './refs.mjs';

/** `git kizu hunks --json <args>` parsed; asserts exit 0 and empty stderr. */
export function hunksJson(sb, args = []) {
  const r = sb.kizu(['hunks', '--json', ...args]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
}

/** The two lines revert prints about the saved copy of `rel` (the newest trash entry). */
export function savedLines(sb, rel) {
  const c = trashHead(sb);
  const blob = sb.git('rev-parse', `${c}:${rel}`).trim();
  const file = path.join(realpathSync(sb.dir), rel);
  // The exact bits recorded with the saved copy (`kizu-mode: 0644`) come back with chmod.
  const bits = /^kizu-mode: 0(\d+)$/m.exec(sb.git('log', '-1', '--format=%B', c))?.[1];
  return [
    `saved the previous ${rel} in refs/kizu/reverts; restore it with: git kizu revert --restore ${c.slice(0, 12)}`,
    `  (or: git cat-file -p ${blob} > ${file}${bits ? ` && chmod ${bits.padStart(3, '0')} ${file}` : ''})`,
  ];
}
