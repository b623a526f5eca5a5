/**
 * Splits the scars and queue items the hooks found into the reviewer's (written through git
 * kizu on this machine outside an agent's session: their key stands alone in the ledger,
 * provenance/ledger.ts) and the others, each of those with its origin: written by an agent
 * through git kizu from its session ({@link agentOrigin}), or found in the repository
 * (provenance/origin.ts, loaded only when there is one: the common case starts no git
 * process).
 */
import type { Scar } from '../scars/parse.js';
import type { QueueItem } from '../queue/item.js';
import { AGENT_LABELS, isAgent } from '../agents/registry.js';
import { itemKey, readWritten, scarKey, type Ledger } from './ledger.js';

/**
 * The origin label of a remark an agent wrote through git kizu from its session (`by` as the
 * ledger holds it, `agent:claude`): `written through git kizu here by an agent, in a Claude
 * Code session`; `…by an agent, in its session` for an agent git-kizu does not know by name.
 */
export function agentOrigin(by: string): string {
  const name = by.slice(by.indexOf(':') + 1);
  return `${AGENT_ORIGIN}, in ${isAgent(name) ? `a ${AGENT_LABELS[name]} session` : 'its session'}`;
}

/** How every {@link agentOrigin} label starts (no label of provenance/origin.ts does). */
const AGENT_ORIGIN = 'written through git kizu here by an agent';

/**
 * An origin label as `status` and `scan --origin` show it after a remark, in parentheses:
 * `found: <origin>` for one found in the repository, the label alone for one an agent wrote
 * (`written through git kizu here by an agent, in a Claude Code session`).
 */
export function shownOrigin(origin: string): string {
  return origin.startsWith(AGENT_ORIGIN) ? origin : `found: ${origin}`;
}

/** A remark that is not the reviewer's: its origin label, and `by` (`agent:<name>`) when an agent wrote it through git kizu. */
export interface NotReviewers {
  origin: string;
  by?: string;
}

/** The result of {@link splitByOrigin}. */
export interface ByOrigin {
  /** The reviewer's scars, in the order given. */
  scars: Scar[];
  /** The reviewer's items, in the order given. */
  items: QueueItem[];
  /** The others (an agent's among them, with `by`), with their origin label. */
  found: { scars: (Scar & NotReviewers)[]; items: (QueueItem & NotReviewers)[] };
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
  const scarLabels = scars.map((s) => labelOf(ledger, scarKey(s.path, s.kind, s.body)));
  const itemLabels = items.map((i) => labelOf(ledger, itemKey(i)));
  // The found ones (neither the reviewer's nor an agent's): their origin from git, in one call.
  const lookups = [
    // The text itself (an item's id alone would call an item edited since its commit "in HEAD").
    ...scars.flatMap((s, k) => (scarLabels[k] === LOOK_UP ? [{ at: scarLabels, k, q: { path: s.path, needle: s.body || `@kizu[${s.kind}]` } }] : [])),
    ...items.flatMap((i, k) => (itemLabels[k] === LOOK_UP ? [{ at: itemLabels, k, q: { path: queueFile, needle: i.text || `kizu:${i.id}` } }] : [])),
  ];
  if (lookups.length) {
    const { originsOf } = await import('./origin.js');
    const origins = await originsOf(root, lookups.map((l) => l.q));
    lookups.forEach((l, n) => (l.at[l.k] = { origin: origins[n] }));
  }
  return {
    scars: scars.filter((_, k) => scarLabels[k] === MINE),
    items: items.filter((_, k) => itemLabels[k] === MINE),
    found: {
      scars: scars.flatMap((s, k) => withLabel(s, scarLabels[k])),
      items: items.flatMap((i, k) => withLabel(i, itemLabels[k])),
    },
  };
}

/** The reviewer's remark. */
const MINE = 'mine';
/** A found remark whose origin git tells. */
const LOOK_UP = 'look up';
type Label = typeof MINE | typeof LOOK_UP | NotReviewers;

/** What the ledger says of `key`: the reviewer's, an agent's (labelled), or neither. */
function labelOf(ledger: Ledger, key: string): Label {
  if (ledger.has(key)) return MINE;
  const by = ledger.agentOf(key);
  return by ? { origin: agentOrigin(by), by } : LOOK_UP;
}

/** `x` with its label when it is not the reviewer's, as a list of none or one. */
function withLabel<T extends object>(x: T, l: Label): (T & NotReviewers)[] {
  return l === MINE ? [] : [{ ...x, ...(l === LOOK_UP ? { origin: 'origin not known' } : l) }];
}
