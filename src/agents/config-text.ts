/** Reading an agent's configuration file for init, teardown and status. */
import { readFileSync } from 'node:fs';
import { KizuError } from '../errors.js';

/**
 * A configuration file's text (UTF-8), or null when it does not exist.
 * @throws KizuError (exit 2) when it exists but cannot be read: a directory, a file where a
 *   folder of its path should be, no permission (each with its own hint).
 */
export function readConfigText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR' || code === 'EISDIR') {
      const why = code === 'EISDIR' ? 'it is a directory' : 'a folder on its path is a file';
      throw new KizuError(`cannot read ${file}: ${why}`, { hint: 'move what stands in the way, then run the command again (nothing was changed)' });
    }
    throw new KizuError(`cannot read ${file}: ${(e as Error).message}`, { hint: 'fix its permissions, then run the command again (nothing was changed)' });
  }
}
