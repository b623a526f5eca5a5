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

/**
 * A value read from JSON or YAML as a message shows it after "got": JSON text (RFC 8259),
 * except where JSON.stringify would not tell the truth: numbers JSON cannot write are shown
 * as JavaScript writes them (`1e400` parses to `Infinity`, shown `Infinity`, not `null`;
 * `-Infinity`, `NaN`, and `-0`, not `0`), a YAML timestamp (a Date) as its ISO 8601 text
 * without quotes (it is not a string), `undefined` as `undefined`, and a value holding
 * itself (a YAML alias) as `[Circular]` where it recurs. Arrays and objects are shown
 * compactly (no spaces), their members the same way.
 */
export function showValue(v: unknown): string {
  const seen = new Set<object>();
  const show = (x: unknown): string => {
    if (typeof x === 'number') return Object.is(x, -0) ? '-0' : String(x);
    if (typeof x === 'bigint') return String(x);
    if (x === undefined) return 'undefined';
    if (x instanceof Date) return Number.isNaN(x.getTime()) ? 'Invalid Date' : x.toISOString();
    if (typeof x === 'object' && x !== null) {
      if (seen.has(x)) return '[Circular]';
      seen.add(x);
      const text = Array.isArray(x)
        ? `[${x.map(show).join(',')}]`
        : `{${Object.entries(x).map(([k, y]) => `${JSON.stringify(k)}:${show(y)}`).join(',')}}`;
      seen.delete(x);
      return text;
    }
    return JSON.stringify(x) ?? String(x);
  };
  return show(v);
}
