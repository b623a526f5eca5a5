/**
 * Reading the hook payload from stdin, for every agent's hook (src/hooks/run.ts).
 */
import { readSync } from 'node:fs';
import { PayloadError } from './contract.js';

/** Longest wait (ms) for a non-blocking stdin to deliver the payload. */
export const STDIN_WAIT_MS = 10_000;

/**
 * Reads all of stdin as UTF-8, synchronously (cheaper to start than a stream), until end of
 * file. A non-blocking stdin that has no data yet (EAGAIN: the hook was started before its
 * payload was written) is polled every 5 ms for up to {@link STDIN_WAIT_MS}.
 * @returns '' if stdin is a TTY or closed.
 * @throws PayloadError if a non-blocking stdin stays empty for STDIN_WAIT_MS; other read errors.
 */
export function readStdin(): string {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(1 << 16);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let deadline = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        deadline ||= Date.now() + STDIN_WAIT_MS;
        if (Date.now() > deadline) throw new PayloadError(`stdin stayed empty for ${STDIN_WAIT_MS / 1000} s; expected the hook payload`);
        Atomics.wait(sleeper, 0, 0, 5);
        continue;
      }
      if (code === 'EOF' || (code === 'EBADF' && !chunks.length)) break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}
