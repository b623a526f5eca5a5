/** Text for the agent about scars, shared by the hook handlers. */
import { protocolFor } from '../scars/format.js';
import type { Scar } from '../scars/parse.js';
import type { QueueItem } from '../queue/item.js';
import { describeItem } from '../queue/item.js';

/** One line per scar: `- path:line [kind] body → what to do`. */
export function scarLines(scars: Scar[]): string {
  return scars.map((s) => `- ${s.path}:${s.line} [${s.kind}] ${s.body} → ${protocolFor(s.kind, s.body)}`).join('\n');
}

/** The resolution protocol, one sentence per kind. */
export const PROTOCOL =
  'Protocol: ask → answer the question in your reply, then delete the scar line; ' +
  'reject → undo that change, then delete the scar line; ' +
  'free → do what it says, then delete the scar line. ' +
  'Delete a scar line by editing the file or with `git kizu unscar <path>:<line>`.';

/** What the agent must do for a queue item of `kind` (null: do what it says). */
export function queueProtocolFor(i: QueueItem): string {
  const first = /^reverted:/.test(i.text)
    ? 'the reviewer already reverted this change: do not redo it; take the reason into account'
    : i.kind === 'ask'
      ? 'answer it in your reply'
      : i.kind === 'reject'
        ? 'undo that change'
        : 'do what it says';
  return `${first}, then run \`git kizu queue done ${i.id}\``;
}

/** One line per queue item: `- [id] path:line (kind) text → what to do`. */
export function itemLines(items: QueueItem[]): string {
  return items.map((i) => `- ${describeItem(i)} → ${queueProtocolFor(i)}`).join('\n');
}

