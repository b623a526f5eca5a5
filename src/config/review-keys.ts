/**
 * The keys of `git kizu review`: action names, their default keys, what each does, and the
 * validation of the `review.keys` config (imported by src/config, so this module imports
 * nothing but the message words of src/words.ts, which import nothing).
 */
import { showValue } from '../words.js';

/** The actions of the review loop, in the order they are listed by `?` and the prompt. */
export const REVIEW_ACTIONS = ['tap', 'reject', 'ask', 'rejectScar', 'free', 'revert', 'revertScar', 'skip', 'quit', 'help'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** Default key per action (`review.keys` remaps any of them). */
export const DEFAULT_REVIEW_KEYS: Readonly<Record<ReviewAction, string>> = {
  tap: ' ',
  reject: '!',
  ask: 'a',
  rejectScar: 'r',
  free: 'c',
  revert: 'x',
  revertScar: 'X',
  skip: 's',
  quit: 'q',
  help: '?',
};

/** One line per action for the `?` help. */
export const ACTION_HELP: Readonly<Record<ReviewAction, string>> = {
  tap: 'tap: mark this hunk reviewed and OK',
  reject: 'reject: mark this hunk reviewed and not OK',
  ask: 'ask scar: write the canned ask scar above the first changed line',
  rejectScar: 'reject scar: write the canned reject scar above the first changed line',
  free: 'free scar: type the scar text (Enter writes it, Esc cancels)',
  revert: 'revert this hunk (the file is saved in refs/kizu/reverts first)',
  revertScar: 'revert this hunk and write a scar "reverted: <reason>" (type the reason)',
  skip: 'skip: leave this hunk as it is and go to the next one',
  quit: 'quit: stop here and list the hunks not tapped yet',
  help: 'help: show this list',
};

/** How a key is shown: `space` for ' ', else the character itself. */
export function keyLabel(k: string): string {
  return k === ' ' ? 'space' : k;
}

/**
 * Validates a raw `review.keys` value and merges it over {@link DEFAULT_REVIEW_KEYS}.
 * A key must be one printable character (one code point; space allowed; no control
 * characters, which are reserved for Ctrl-C, Ctrl-D, Enter, Esc and Backspace), and not the
 * default key of another action (so no mapping makes the key a reviewer knows as reject tap
 * instead, or swaps any two actions: issue 22, #71). After the merge no two actions may share
 * a key.
 * @param problems receives one message per problem (nothing is thrown here).
 * @returns the merged map (defaults where a value is invalid).
 */
export function validateReviewKeys(raw: unknown, problems: string[]): Record<ReviewAction, string> {
  const keys: Record<ReviewAction, string> = { ...DEFAULT_REVIEW_KEYS };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push('"review.keys" must be an object mapping actions to single characters, like {"tap": "t", "skip": "n"}');
    return keys;
  }
  let bad = false;
  for (const [name, v] of Object.entries(raw)) {
    if (!(REVIEW_ACTIONS as readonly string[]).includes(name)) {
      problems.push(`unknown key "review.keys.${name}" (known: ${REVIEW_ACTIONS.map((a) => `review.keys.${a}`).join(', ')})`);
      bad = true;
    } else if (typeof v !== 'string' || [...v].length !== 1) {
      problems.push(`"review.keys.${name}" must be a single character, got ${showValue(v)}`);
      bad = true;
    } else if (/[\u0000-\u001f\u007f-\u009f]/.test(v)) {
      problems.push(`"review.keys.${name}" must be a printable character (control characters are reserved), got ${showValue(v)}`);
      bad = true;
    } else if (REVIEW_ACTIONS.some((a) => a !== name && DEFAULT_REVIEW_KEYS[a] === v)) {
      const other = REVIEW_ACTIONS.find((a) => a !== name && DEFAULT_REVIEW_KEYS[a] === v)!;
      problems.push(`"review.keys.${name}" may not be ${JSON.stringify(v)}, the default key of ${other}: a reviewer pressing it would ${name} instead (pick a key no action has by default)`);
      bad = true;
    } else keys[name as ReviewAction] = v;
  }
  if (!bad) {
    const byKey = new Map<string, ReviewAction[]>();
    for (const a of REVIEW_ACTIONS) byKey.set(keys[a], [...(byKey.get(keys[a]) ?? []), a]);
    for (const [k, actions] of byKey) {
      if (actions.length < 2) continue;
      const desc = actions.map((a) => (Object.hasOwn(raw, a) ? a : `${a} (default)`)).join(', ');
      problems.push(`"review.keys": ${JSON.stringify(k)} is bound to more than one action: ${desc}`);
    }
  }
  return keys;
}
