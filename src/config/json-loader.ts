/**
 * cosmiconfig's loader for `package.json`, `.kizurc.json` and `.config/kizurc.json`
 * (search.ts): in its own module so that jsonc-parser is loaded only when a config file may
 * exist, never on the hooks' path through a repository without one.
 */
import { ParseErrorCode, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { KizuError } from '../errors.js';
import { quoteCStyle } from '../git/quote.js';

/** jsonc-parser's error codes in words a user can act on. */
const JSON_ERRORS: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'expected a value',
  [ParseErrorCode.ColonExpected]: 'expected a colon',
  [ParseErrorCode.CommaExpected]: 'expected a comma',
  [ParseErrorCode.CloseBraceExpected]: 'expected a closing brace }',
  [ParseErrorCode.CloseBracketExpected]: 'expected a closing bracket ]',
  [ParseErrorCode.EndOfFileExpected]: 'unexpected text after the end of the value',
  [ParseErrorCode.InvalidCommentToken]: 'comments are not allowed in JSON',
  [ParseErrorCode.UnexpectedEndOfComment]: 'unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'unterminated number',
  [ParseErrorCode.InvalidUnicode]: 'invalid \\u escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'invalid escape character',
  [ParseErrorCode.InvalidCharacter]: 'control character in a string (write it escaped)',
};

/**
 * cosmiconfig's loader for `.json` files (RFC 8259 JSON): a UTF-8 byte
 * order mark at the start is ignored, as YAML's loader ignores it.
 * @throws KizuError (exit 2) for a syntax error, naming the file and the 1-based line and
 *   column of the first error (tabs count as one column).
 */
export function loadJsonConfig(filepath: string, content: string): unknown {
  const text = content.replace(/^\uFEFF/, '');
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const file = quoteCStyle(filepath);
  if (errors.length) {
    const { error, offset } = errors[0];
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    const what = `${JSON_ERRORS[error] ?? 'syntax error'}${offset >= text.trimEnd().length ? ' (the file ends too early)' : ''}`;
    throw new KizuError(`${file} is not valid JSON: ${what} at line ${line}, column ${column}`, {
      hint: `fix line ${line}, column ${column} of ${file} (see README "Config")`,
    });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new KizuError(`${file} is not valid JSON: ${(e as Error).message}`, { hint: `fix the syntax of ${file} (see README "Config")` });
  }
}
