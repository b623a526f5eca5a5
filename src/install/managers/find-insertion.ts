/**
 * Finding, without an install record, the one insertion `git kizu init` made in a hook
 * manager's file, so that teardown can still take out exactly those bytes (the record was
 * lost or overwritten). Generic over managers: it relies only on a manager's pure
 * {@link HookManager.plan} being deterministic, never on the shape of any one format.
 */
import type { Detected, HookManager, Insertion } from './types.js';

/** Where every encoding of the guard command starts (sh, JSON string, YAML folded scalar). */
const ANCHOR = 'kizu_guard=';
/** How the guard command ends in every encoding (`>&2; fi`, or `>&2;` and `fi` on the next line). */
const TAIL = '>&2;';
/** How many lines above / below the command an insertion may reach (the YAML entries are the longest). */
const LINES_ABOVE = 8;
const LINES_BELOW = 10;

/** What {@link findInsertion} found. */
export type Found =
  /** The insertion init made; `createdFile`: init would have created the file with exactly its text (the file holds only it). */
  | { kind: 'found'; insertion: Insertion; createdFile: boolean }
  /** No span around the guard is an insertion init would make: the guard was edited or added by hand. */
  | { kind: 'none' }
  /** Several spans of the chosen length qualify and removing them gives different texts: unsure which bytes init added. */
  | { kind: 'ambiguous' };

/** Start offsets of the lines from `lines` lines above the one holding `at` down to that one. */
function lineStartsAbove(text: string, at: number, lines: number): number[] {
  const out: number[] = [];
  let s = text.lastIndexOf('\n', at - 1) + 1;
  for (let i = 0; i <= lines; i++) {
    out.push(s);
    if (s === 0) break;
    s = text.lastIndexOf('\n', s - 2) + 1;
  }
  return out;
}

/** End offsets (before the line break) of the line holding `at` and of `lines` lines below it. */
function lineEndsBelow(text: string, at: number, lines: number): number[] {
  const out: number[] = [];
  let e = at;
  for (let i = 0; i <= lines; i++) {
    const n = text.indexOf('\n', e);
    if (n < 0) {
      out.push(text.length);
      break;
    }
    out.push(n > 0 && text[n - 1] === '\r' ? n - 1 : n, n, n + 1);
    e = n + 1;
  }
  return out;
}

/**
 * Candidate spans `[start, end)` around one occurrence of the guard command (`at`: its
 * {@link ANCHOR}, `tailEnd`: just after its end): starts at the starts of the lines above,
 * the line break before each, a `,` just before it, and `,` / `&&` / after `{` on the
 * command's line before it (with the blanks before them); ends at the ends of the lines
 * below (with or without their line break) and after `}` / `"` / `'` on the line the command
 * ends on.
 */
function candidates(text: string, at: number, tailEnd: number): Array<[number, number]> {
  const starts = new Set<number>();
  for (const s of lineStartsAbove(text, at, LINES_ABOVE)) {
    starts.add(s);
    for (let p = s - 1; p >= Math.max(0, s - 4); p--) if (text[p] === '\n' || text[p] === '\r' || text[p] === ',') starts.add(p);
  }
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  for (let p = lineStart; p < at; p++) {
    if (text[p] === ',' || text.startsWith('&&', p) || (p > 0 && text[p - 1] === '{')) {
      starts.add(p);
      let q = p;
      while (q > lineStart && (text[q - 1] === ' ' || text[q - 1] === '\t')) starts.add(--q);
    }
  }
  const ends = new Set<number>(lineEndsBelow(text, tailEnd, LINES_BELOW));
  const lineEnd = text.indexOf('\n', tailEnd) < 0 ? text.length : text.indexOf('\n', tailEnd);
  for (let p = tailEnd; p <= lineEnd; p++) {
    if (p > 0 && '}"\''.includes(text[p - 1])) {
      ends.add(p);
      let q = p;
      while (q < lineEnd && (text[q] === ' ' || text[q] === '\t')) ends.add(++q);
    }
  }
  const out: Array<[number, number]> = [];
  for (const s of starts) for (const e of ends) if (s <= at && e >= tailEnd && e <= text.length) out.push([s, e]);
  return out;
}

/**
 * Finds the insertion `git kizu init` made in `text`, the current text of the file `d.file`
 * of `manager` (the manager chosen as init chooses it: install/managers/index.ts
 * `chooseManager`). For each occurrence of the guard command (guard-line.ts `GUARD_COMMAND`,
 * in whatever quoting the format needs), spans around it are tried (see {@link candidates});
 * a span `[s, e)` is the insertion exactly when `manager.plan(text without it, d)` returns
 * `{kind: 'insert'}` at offset `s` with the text `text.slice(s, e)`, so that init run on the
 * text without it rebuilds the current text byte for byte. When several spans qualify, the
 * longest is taken (a YAML file init created is taken out whole, not down to the keys init
 * would add again), but not over the same span less the line break it starts with (a file
 * that ended with a line break keeps it). Pure: reads and writes nothing.
 * @returns `found` with the insertion (`createdFile` true when the file holds only it and
 *   init would have created the file with exactly these bytes), `none`, or `ambiguous` when
 *   spans qualify whose removal gives different texts.
 */
export function findInsertion(manager: HookManager, d: Detected, text: string): Found {
  // The whole file is what init writes when it creates it.
  if (createsExactly(manager, d, text)) return { kind: 'found', insertion: { offset: 0, text }, createdFile: true };
  const matches: Array<{ s: number; e: number; rest: string }> = [];
  for (let at = text.indexOf(ANCHOR); at >= 0; at = text.indexOf(ANCHOR, at + 1)) {
    const tail = text.indexOf(TAIL, at);
    if (tail < 0) break;
    const fi = text.indexOf('fi', tail + TAIL.length);
    if (fi < 0) break;
    for (const [s, e] of candidates(text, at, fi + 2)) {
      const rest = text.slice(0, s) + text.slice(e);
      let plan;
      try {
        plan = manager.plan(rest, d);
      } catch {
        continue; // the text without this span does not parse: not the insertion
      }
      if (plan.kind === 'insert' && plan.insertion.offset === s && plan.insertion.text === text.slice(s, e)) matches.push({ s, e, rest });
    }
  }
  // The longest span wins (a file init created is taken out whole), except over the same span
  // without the line break it starts with: that one keeps a final line break the file had.
  const lineBreakMore = (m: { s: number; e: number }) =>
    matches.some((o) => o.e === m.e && o.s > m.s && /^\r?\n$/.test(text.slice(m.s, o.s)));
  const best = matches.filter((m) => !lineBreakMore(m)).sort((a, b) => b.e - b.s - (a.e - a.s));
  if (!best.length) return { kind: 'none' };
  const [m] = best;
  if (best.some((o) => o.e - o.s === m.e - m.s && o.rest !== m.rest)) return { kind: 'ambiguous' };
  return { kind: 'found', insertion: { offset: m.s, text: text.slice(m.s, m.e) }, createdFile: false };
}

/** True if init, finding no file, would create it with exactly `text`. */
function createsExactly(manager: HookManager, d: Detected, text: string): boolean {
  try {
    const p = manager.plan(null, d);
    return p.kind === 'insert' && p.insertion.offset === 0 && p.insertion.text === text;
  } catch {
    return false;
  }
}
