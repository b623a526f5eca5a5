/**
 * How queue items get their ids: derived from the text (an item written without one) or
 * fresh at random (`queue add`). Apart from queue/item.ts so that describing an item (the
 * hooks' sentences, hooks/text.ts) loads no hashing.
 */
import { createHash, randomBytes } from 'node:crypto';

/**
 * The derived id of an item without one: `h` + the first 5 hex digits of the SHA-1 of its
 * raw text (everything after the checkbox, kind and anchor included; whitespace runs
 * collapsed to one space, trimmed). Stable while the text is; ticking the box keeps it.
 * parseQueue adds `-2`, `-3`, ... to keep ids unique.
 */
export function derivedId(rawText: string): string {
  return 'h' + createHash('sha1').update(rawText.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 5);
}

/** A fresh random id (4 base-36 characters) not in `taken`. */
export function newId(taken: Set<string>): string {
  for (;;) {
    const id = Array.from(randomBytes(4), (b) => '0123456789abcdefghijklmnopqrstuvwxyz'[b % 36]).join('');
    if (!taken.has(id) && !/^h[0-9a-f]/.test(id)) return id;
  }
}
