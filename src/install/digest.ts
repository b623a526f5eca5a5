/**
 * The content hash of install records and integrity fingerprints (SHA-256, hex). Apart from
 * install/state.ts so that reading a record (the prompt hook's integrity check, which hashes
 * nothing unless it has findings to remember) does not load node:crypto.
 */
import { createHash } from 'node:crypto';

/** sha256 hex of a string or bytes. */
export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
