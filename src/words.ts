/**
 * Words for messages, shared by the commands and the hook text: counts with the right noun
 * form, English lists, and shell words for commands printed for the user to copy. Pure
 * functions with no imports, so the hook hot paths can use them without loading the
 * terminal output code (src/output.ts).
 */

/**
 * The form of an English count noun for `n` things: `word` when `n` is 1, else `pluralForm`
 * (by default `word` + "s"). `plural(2, 'scar')` = "scars".
 */
export function plural(n: number, word: string, pluralForm = `${word}s`): string {
  return n === 1 ? word : pluralForm;
}

/**
 * `n` and its noun in the right form: `count(1, 'scar')` = "1 scar", `count(3, 'scar')` =
 * "3 scars" (see {@link plural}).
 */
export function count(n: number, word: string, pluralForm?: string): string {
  return `${n} ${plural(n, word, pluralForm)}`;
}

/**
 * An English list without the serial comma: [] → "", [a] → "a", [a, b] → "a and b",
 * [a, b, c] → "a, b and c".
 */
export function joinAnd(xs: string[]): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

/**
 * `s` as one word of a POSIX shell command line (POSIX Shell Command Language 2.2.2,
 * "Single-Quotes"): as is when it is not empty and holds only characters no shell treats
 * specially (`A-Z a-z 0-9 _ . / @ % + = : , -`), else in single quotes, each `'` inside
 * written `'\''`. For commands printed for the user to copy and for generated scripts.
 */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The line ending a text uses (its first one: `\r\n`, `\r` or `\n`), `\n` if it has none. */
export function eolOf(text: string): string {
  const m = /\r\n|\r|\n/.exec(text);
  return m ? m[0] : '\n';
}
