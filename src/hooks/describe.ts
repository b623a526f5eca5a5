/** Text for the agent about scars, shared by the hook handlers. */
import { protocolFor } from '../scars/format.js';
import type { Scar } from '../scars/scan.js';

/** One line per scar: `- path:line [kind] body → what to do`. */
export function scarLines(scars: Scar[]): string {
  return scars.map((s) => `- ${s.path}:${s.line} [${s.kind}] ${s.body} → ${protocolFor(s.kind)}`).join('\n');
}

/** The resolution protocol, one sentence per kind. */
export const PROTOCOL =
  'Protocol: ask → answer the question in your reply, then delete the scar line; ' +
  'reject → undo that change, then delete the scar line; ' +
  'free → do what it says, then delete the scar line. ' +
  'Delete a scar line by editing the file or with `git kizu unscar <path>:<line>`.';
