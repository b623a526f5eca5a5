/**
 * What every agent's hook payload is first: one JSON object on stdin (Claude Code, Codex,
 * Gemini CLI, Copilot CLI and Cursor all send one). Each adapter's payload.ts then checks
 * its own fields.
 */
import { PayloadError } from '../hooks/contract.js';

/**
 * Parses a hook payload's text as a JSON object.
 * @throws PayloadError when it is empty (`empty hook payload on stdin`), not JSON (`hook
 *   payload is not JSON (<parser message>)`) or not an object (`hook payload is not a JSON
 *   object`).
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new PayloadError('empty hook payload on stdin');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new PayloadError(`hook payload is not JSON (${(e as Error).message})`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new PayloadError('hook payload is not a JSON object');
  return v as Record<string, unknown>;
}
