/**
 * Splits the scars and queue items the hooks found into the reviewer's (written through git
 * kizu on this machine: their key is in the ledger, provenance/ledger.ts) and the ones found
 * in the repository, each of those with its origin (provenance/origin.ts, loaded only when
 * there is one: the common case starts no git process).
 */
import type { Scar } from '../scars/parse.js';
import type { QueueItem } from '../queue/item.js';
import { itemKey, readWritten, scarKey } from './ledger.js';

/** The result of {@link splitByOrigin}. */
export interface ByOrigin {
  /** The reviewer's scars, in the order given. */
  scars: Scar[];
  /** The reviewer's items, in the order given. */
  items: QueueItem[];
  /** The others, with their origin label. */
  found: { scars: (Scar & { origin: string })[]; items: (QueueItem & { origin: string })[] };
}

/**
 * @param root the working tree's root (git runs there for the origins).
 * @param gitDir the worktree's git dir, whose ledger is read.
 * @param queueFile the queue file's root-relative path (the items' file).
 * @throws never: a missing or unreadable ledger, or any failure, makes every remark found.
 */
export async function splitByOrigin(root: string, gitDir: string, scars: Scar[], items: QueueItem[], queueFile: string): Promise<ByOrigin> {
  try {
    return await split(root, gitDir, scars, items, queueFile);
  } catch {
    // Labelling must never cost a block (a hook's error lets the agent through): on any
    // failure every remark is found data, the safe direction.
    const origin = 'origin not known';
    return { scars: [], items: [], found: { scars: scars.map((s) => ({ ...s, origin })), items: items.map((i) => ({ ...i, origin })) } };
  }
}

async function split(root: string, gitDir: string, scars: Scar[], items: QueueItem[], queueFile: string): Promise<ByOrigin> {
  const ledger = readWritten(gitDir);
  const mineScars = scars.filter((s) => ledger.has(scarKey(s.path, s.kind, s.body)));
  const foundScars = scars.filter((s) => !ledger.has(scarKey(s.path, s.kind, s.body)));
  const mineItems = items.filter((i) => ledger.has(itemKey(i)));
  const foundItems = items.filter((i) => !ledger.has(itemKey(i)));
  if (!foundScars.length && !foundItems.length) return { scars: mineScars, items: mineItems, found: { scars: [], items: [] } };
  const { originsOf } = await import('./origin.js');
  const origins = await originsOf(root, [
    // The text itself (an item's id alone would call an item edited since its commit "in HEAD").
    ...foundScars.map((s) => ({ path: s.path, needle: s.body || `@kizu[${s.kind}]` })),
    ...foundItems.map((i) => ({ path: queueFile, needle: i.text || `kizu:${i.id}` })),
  ]);
  return {
    scars: mineScars,
    items: mineItems,
    found: {
      scars: foundScars.map((s, k) => ({ ...s, origin: origins[k] })),
      items: foundItems.map((i, k) => ({ ...i, origin: origins[foundScars.length + k] })),
    },
  };
}
