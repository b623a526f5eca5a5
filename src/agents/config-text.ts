/** Reading an agent's configuration file for init, teardown and status. */
import { readFileSync } from 'node:fs';
import { KizuError } from '../errors.js';

/**
 * A configuration file's text (UTF-8), or null when it does not exist.
 * @throws KizuError (exit 2) when it exists but cannot be read (a directory, no permission).
 */
export function readConfigText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new KizuError(`cannot read ${file}: ${(e as Error).message}`, { hint: 'fix its permissions, then run the command again (nothing was changed)' });
  }
}
