/**
 * The prompt hook's install integrity check (hooks/run.ts, beside the snapshot): the cheap
 * mode of install/integrity.ts `checkIntegrity`, which runs no git process, and the memory
 * that tells the user about one set of findings once. A repository without an install record
 * has nothing to compare, so the comparison (integrity.ts and the renderers of what init
 * writes) is loaded only when a record exists; the records are read the same way there.
 */
import { readFileSync, realpathSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { kizuDir } from '../git/layout.js';
import { commonDirFast, findRootFast, gitDirFast } from '../git/repo.js';
import { writeFileAtomic } from '../files.js';
import { installRecords } from './state.js';
import { linkedStateFolders } from './linked-folders.js';
import type { IntegrityFinding } from './integrity.js';

/**
 * The cheap check for the prompt hook, from the agent's working directory `cwd`, without a
 * git process; and whether to tell the user ({@link tellOnce}).
 * @returns the findings to tell, each as integrity.ts `findingLine` (empty: nothing new to
 *   tell; also outside a repository).
 */
export async function promptIntegrity(cwd: string, home: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const found = findRootFast(cwd);
  if (!found) return [];
  let root = found;
  try {
    root = realpathSync(found);
  } catch {
    root = path.resolve(found);
  }
  const gitDir = gitDirFast(root);
  const common = commonDirFast(root);
  if (!gitDir || !common) return [];
  if (!installRecords(gitDir, home).length && !linkedStateFolders(gitDir, common).length) {
    await tellOnce(gitDir, []);
    return [];
  }
  const { checkIntegrity, findingLine } = await import('./integrity.js');
  // Notes (another hook on PostToolUse) are for doctor and status: the prompt hook tells what can weaken review.
  const fs = (await checkIntegrity({ root, gitDir, commonDir: common, home, env, cheap: true })).filter((f) => f.level !== 'info');
  return (await tellOnce(gitDir, fs)) ? fs.map((f) => findingLine(f, root)) : [];
}

/**
 * A fingerprint of a set of findings (sha256 hex of their files and sentences, sorted):
 * equal sets, equal fingerprints. (node:crypto is loaded here, only when there are findings.)
 */
export async function findingsFingerprint(fs: IntegrityFinding[]): Promise<string> {
  const { sha256 } = await import('./digest.js');
  return sha256(fs.map((f) => `${f.file}\0${f.what}`).sort().join('\n'));
}

/** `<git-dir>/kizu/integrity-told`: the fingerprint of the findings the prompt hook last told the user. */
export function toldFile(gitDir: string): string {
  return path.join(kizuDir(gitDir), 'integrity-told');
}

/**
 * Whether to tell the user about `fs` now: true when they are not the set last told (by
 * fingerprint, remembered in {@link toldFile}), which is then remembered. No findings clear
 * the memory, so the same change made again is told again. The file only silences a repeat
 * of the prompt hook's message: `status` and `doctor` always show the findings.
 * Never throws (a file that cannot be written: tell every time).
 */
export async function tellOnce(gitDir: string, fs: IntegrityFinding[]): Promise<boolean> {
  const file = toldFile(gitDir);
  let before = '';
  try {
    before = readFileSync(file, 'utf8').trim();
  } catch {
    /* never told */
  }
  if (!fs.length) {
    if (before) {
      try {
        unlinkSync(file);
      } catch {
        /* told again next time */
      }
    }
    return false;
  }
  const now = await findingsFingerprint(fs);
  if (before === now) return false;
  try {
    await writeFileAtomic(file, now + '\n');
  } catch {
    /* cannot remember: tell again next time */
  }
  return true;
}
