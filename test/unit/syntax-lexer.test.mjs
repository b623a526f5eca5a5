// src/syntax/lexer.ts: the lexical rule of each grammarless language family. For every rule:
// inside each multi-line token form, just after it closes, an escaped or doubled closer, a
// comment holding an opener, a string holding a comment opener; every case runs with LF lines
// and again with CRLF lines (each line keeps its '\r').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { tokenAround, tokensAround, LEX_RULES } = await import(src('syntax/lexer.ts'));

const R = String.raw;
/** [1-based target line, expected] pairs checked on `lines`, with LF and with CRLF lines. */
function check(rule, lines, expected) {
  for (const crlf of [false, true]) {
    const ls = crlf ? lines.map((l) => l + '\r') : lines;
    for (const [target, want] of expected) {
      const got = tokenAround(rule, ls, target - 1);
      assert.deepEqual(got, want, `${rule} ${crlf ? 'CRLF' : 'LF'} line ${target} of ${JSON.stringify(lines.join('\n'))}`);
    }
  }
}
const at = (startLine, what) => ({ startLine, what });

test('every rule names its spec; line 1 and past the end', () => {
  for (const [name, rule] of Object.entries(LEX_RULES)) assert.ok(rule.spec.length > 10, name);
  assert.deepEqual(Object.keys(LEX_RULES).sort(), [
    'batch', 'clojure', 'cmake', 'csharp', 'dockerfile', 'elisp', 'env', 'erlang', 'fsharp', 'graphql', 'groovy', 'ini',
    'less', 'lisp', 'make', 'objc', 'ocaml', 'perl', 'powershell', 'properties', 'proto', 'sql', 'swift', 'toml',
  ]);
  assert.equal(tokenAround('toml', ['a = """', 'x'], 0), null);
  assert.deepEqual(tokenAround('toml', ['a = """', 'x'], 5), at(1, 'a """ string'));
  assert.equal(tokenAround('toml', [], 3), null);
});

test('toml: """ and \'\'\' strings, escapes, one-line strings, # comments', () => {
  check('toml', ['a = """', 'x', 'y"""', 'b = 1'], [[2, at(1, 'a """ string')], [3, at(1, 'a """ string')], [4, null]]);
  check('toml', ["a = '''", R`C:\'''`, 'b = 1'], [[2, at(1, "a ''' string")], [3, null]]);
  check('toml', ['a = """', R`\"""`, 'still"""', 'b'], [[3, at(1, 'a """ string')], [4, null]]);
  check('toml', ['a = """x""""', 'b = """x"""""', 'c = 1'], [[2, null], [3, null]]);
  check('toml', ['# a = """', 'b = 1'], [[2, null]]);
  check('toml', ['t = { a = "#", b = """', 'x""" }', 'c'], [[2, at(1, 'a """ string')], [3, null]]);
  check('toml', ['a = "abc', 'b = 1'], [[2, null]]);
  check('toml', [R`a = "x\"""`, 'b = 1'], [[2, null]]);
});

test('sql: dollar quotes with tags, doubled quotes, E strings, identifiers, nested comments', () => {
  check('sql', ['CREATE FUNCTION f() RETURNS int AS $$', 'BEGIN', 'END', '$$ LANGUAGE plpgsql;', 'SELECT 1;'], [
    [2, at(1, 'a $$ string')],
    [4, at(1, 'a $$ string')],
    [5, null],
  ]);
  check('sql', ['AS $fn$', 'SELECT $$x$$;', '$fn$;', 'SELECT 1'], [[3, at(1, 'a $fn$ string')], [4, null]]);
  check('sql', ["SELECT 'it''s", "more';", 'x'], [[2, at(1, "a '…' string")], [3, null]]);
  check('sql', [R`SELECT E'a\'b`, "c';", 'x'], [[2, at(1, "an E'…' string")], [3, null]]);
  check('sql', ['SELECT "a""', 'b" FROM t;', 'x'], [[2, at(1, 'a "…" identifier')], [3, null]]);
  check('sql', ['/* a /* b */', 'still */', 'SELECT 1'], [[2, at(1, 'a /* */ comment')], [3, null]]);
  check('sql', ["-- it's /* $$", 'SELECT 1'], [[2, null]]);
  check('sql', ["SELECT '--', '/*', $1, $2;", 'SELECT 1'], [[2, null]]);
});

test('proto: /* */ comments; strings end with their line', () => {
  check('proto', ['/* a', 'b */', 'message M {}'], [[2, at(1, 'a /* */ comment')], [3, null]]);
  check('proto', [R`option x = "a\" /*";`, 'message M {}'], [[2, null]]);
  check('proto', ['option x = "abc', 'message M {}'], [[2, null]]);
  check('proto', ['// "/*', 'message M {}'], [[2, null]]);
  check('proto', ["option y = '/*';", 'message M {}'], [[2, null]]);
});

test('graphql: """ block strings with \\""" inside; # comments; one-line strings', () => {
  check('graphql', ['"""', R`desc \""" still`, '"""', 'type Q'], [[2, at(1, 'a """ block string')], [3, at(1, 'a """ block string')], [4, null]]);
  check('graphql', ['# """', 'type Q'], [[2, null]]);
  check('graphql', [R`query { f(a: "# \"") }`, '"""', 'x', '"""', 'y'], [[3, at(2, 'a """ block string')], [5, null]]);
  check('graphql', ['a: "abc', 'b'], [[2, null]]);
});

test('fsharp: nested (* *) with strings inside, (*), verbatim, triple, interpolated strings, chars', () => {
  check('fsharp', ['(* a (* b *)', 'c *)', 'let x = 1'], [[2, at(1, 'a (* *) comment')], [3, null]]);
  check('fsharp', ['(* "*)"', 'still *)', 'let x = 1'], [[2, at(1, 'a (* *) comment')], [3, null]]);
  check('fsharp', ['let f = (*)', 'let x = 1'], [[2, null]]);
  check('fsharp', [R`let s = "a\"`, 'b"', 'let x = 1'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('fsharp', [R`let v = @"C:\""`, 'x"', 'let x = 1'], [[2, at(1, 'a verbatim @"…" string')], [3, null]]);
  check('fsharp', ['let t = """a "quoted"', 'b"""', 'let x = 1'], [[2, at(1, 'a """ string')], [3, null]]);
  check('fsharp', ['let i = $"x {y}', 'z"', 'let x = 1'], [[2, at(1, 'an interpolated $"…" string')], [3, null]]);
  check('fsharp', ['let i = $"""', '{x}"""', 'let x = 1'], [[2, at(1, 'an interpolated """ string')], [3, null]]);
  check('fsharp', [`let c = '"'`, 'let d = 1'], [[2, null]]);
  check('fsharp', [`let f (x: 'a) = "`, '"'], [[2, at(1, 'a "…" string')]]);
  check('fsharp', ['// "(*', 'let x = 1'], [[2, null]]);
  check('fsharp', ['let s = "(*"', 'let x = 1'], [[2, null]]);
});

test('batch: ^ continues a line (REM and :: lines too), ^^ does not, nor ^ inside quotes', () => {
  check('batch', ['echo a ^', 'b ^', 'c', 'd'], [[2, at(1, 'a line continued with ^')], [3, at(1, 'a line continued with ^')], [4, null]]);
  check('batch', ['echo a ^^', 'b'], [[2, null]]);
  check('batch', ['@REM note ^', 'echo x', 'y'], [[2, at(1, 'a line continued with ^')], [3, null]]);
  check('batch', [':: note ^', 'echo x'], [[2, at(1, 'a line continued with ^')]]);
  check('batch', ['echo "a ^', 'b'], [[2, null]]);
  check('batch', ['rem say "hi', 'echo x'], [[2, null]]);
  check('batch', ['echo "rem ::" ^', 'b'], [[2, at(1, 'a line continued with ^')]]);
});

test('powershell: <# #>, here-strings, strings spanning lines, backtick continuation', () => {
  check('powershell', ['<# a', 'b #>', 'Get-X'], [[2, at(1, 'a <# #> comment')], [3, null]]);
  check('powershell', ['$s = @"', 'line "@ not end', '"@', 'x'], [[2, at(1, 'a @" "@ here-string')], [3, at(1, 'a @" "@ here-string')], [4, null]]);
  check('powershell', ["$s = @'", "'@", 'x'], [[2, at(1, "a @' '@ here-string")], [3, null]]);
  check('powershell', ['$a = "x `" y ""', 'z"', 'w'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('powershell', ["$b = 'it''s", "z'", 'w'], [[2, at(1, "a '…' string")], [3, null]]);
  check('powershell', ['$d = \u201cx', 'b\u201d', 'c'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('powershell', ['Get-X -a 1 `', '  -b 2', 'x'], [[2, at(1, 'a line continued with a backtick')], [3, null]]);
  check('powershell', ['echo a ``', 'b'], [[2, null]]);
  check('powershell', ['# "@ <# `', 'x'], [[2, null]]);
  check('powershell', ['$c = "<# #"', 'x'], [[2, null]]);
});

test("groovy: /* */, ''', \"\"\", $/ /$ strings; one-line strings", () => {
  check('groovy', ['/* a', 'b */', 'x'], [[2, at(1, 'a /* */ comment')], [3, null]]);
  check('groovy', [R`def s = '''a \''' b`, "c'''", 'x'], [[2, at(1, "a ''' string")], [3, null]]);
  check('groovy', ['def s = """', '${x}"""', 'x'], [[2, at(1, 'a """ string')], [3, null]]);
  check('groovy', ['def r = $/a $/ b', 'c $$ /$', 'x'], [[2, at(1, 'a $/ /$ string')], [3, null]]);
  check('groovy', ['def s = "a /* b"', "def t = 'unterminated", 'x'], [[2, null], [3, null]]);
  check('groovy', ["// '''", 'x'], [[2, null]]);
});

test('objc: /* */, raw strings, backslash-newline in strings and lines, char constants, digit separators', () => {
  check('objc', ['/* a', 'b */', 'int y;'], [[2, at(1, 'a /* */ comment')], [3, null]]);
  check('objc', ['auto s = R"x(a )" b', ')x";', 'int y;'], [[2, at(1, 'a raw string R"x(…)x"')], [3, null]]);
  check('objc', [R`NSString *s = @"a \" /* b";`, 'int y;'], [[2, null]]);
  check('objc', ["char *s = \"abc\\", 'def";', 'int y;'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('objc', [R`#define X(a) \ `, '  a + 1', 'int y;'], [[2, at(1, 'a line continued with a backslash')], [3, null]]);
  check('objc', ["// note \\", 'int x;', 'int y;'], [[2, at(1, 'a line continued with a backslash')], [3, null]]);
  check('objc', ['// "/*', 'int x;'], [[2, null]]);
  check('objc', [`char c = '"';`, 'int y;'], [[2, null]]);
  check('objc', ["int n = 1'0; char *s = \"a\\", 'b";'], [[2, at(1, 'a "…" string')]]);
});

test('less: /* */, url() with //, strings continued by backslash-newline', () => {
  check('less', ['a { b: url(http://x/a.png); /* c', 'd */ }', 'e'], [[2, at(1, 'a /* */ comment')], [3, null]]);
  check('less', ["a { content: \"x\\", 'y"; }', 'b'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('less', ['a { content: "/*"; }', 'b'], [[2, null]]);
  check('less', ['// "/*', 'b'], [[2, null]]);
  check('less', [R`a { content: 'it\'s /*'; }`, 'b'], [[2, null]]);
});

test('cmake: bracket comments, bracket arguments, quoted arguments spanning lines', () => {
  check('cmake', ['#[==[ a ]]', ']==]', 'x'], [[2, at(1, 'a #[==[ ]==] comment')], [3, null]]);
  check('cmake', ['message([=[a', ']=])', 'x'], [[2, at(1, 'a [=[ ]=] bracket argument')], [3, null]]);
  check('cmake', [R`set(A "x \" # y`, 'z")', 'x'], [[2, at(1, 'a "…" quoted argument')], [3, null]]);
  check('cmake', ['# [[ "', 'x'], [[2, null]]);
  check('cmake', ['#[====[', 'x', ']====]', '[==[', ']==]', 'y'], [[2, at(1, 'a #[=[ ]=] comment with 4 "=" signs')], [3, at(1, 'a #[=[ ]=] comment with 4 "=" signs')], [5, at(4, 'a [==[ ]==] bracket argument')], [6, null]]);
  check('cmake', ['set(X a[[b)', R`set(Y a\"b)`, 'y'], [[2, null], [3, null]]);
});

test('erlang: strings and atoms spanning lines, triple-quoted strings, sigils, $" characters', () => {
  check('erlang', [R`S = "a \" % b`, 'c",', 'x'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('erlang', ["A = 'x", "y',", 'z'], [[2, at(1, "a '…' atom")], [3, null]]);
  check('erlang', ['S = """', '  a """ b', '  """,', 'x'], [[2, at(1, 'a """ string')], [3, at(1, 'a """ string')], [4, null]]);
  check('erlang', [R`S = ~s(a \) b`, ')', 'x'], [[2, at(1, 'a ~s(…) sigil')], [3, null]]);
  check('erlang', ['C = $", D = 1.', 'x'], [[2, null]]);
  check('erlang', ['% "', 'x'], [[2, null]]);
});

test('dockerfile: here-documents; a continued line is no hazard', () => {
  check('dockerfile', ['RUN <<EOF', 'echo hi', 'EOF', 'RUN x'], [[2, at(1, 'a here-document')], [3, at(1, 'a here-document')], [4, null]]);
  check('dockerfile', ['RUN <<-EOT', '\techo', '\tEOT', 'x'], [[3, at(1, 'a here-document')], [4, null]]);
  check('dockerfile', ['COPY <<"EOF" /a', '$x', 'EOF', 'x'], [[2, at(1, 'a here-document')], [4, null]]);
  check('dockerfile', ['RUN <<A cat && <<B cat', 'a', 'A', 'b', 'B', 'x'], [[3, at(1, 'a here-document')], [4, at(1, 'a here-document')], [6, null]]);
  check('dockerfile', ["RUN a \\", '  b', 'x'], [[2, null]]);
  check('dockerfile', ['# <<EOF', 'RUN x'], [[2, null]]);
  check('dockerfile', ['RUN echo "<<EOF" \\<<X', 'RUN cat <<<EOF', 'x'], [[2, null], [3, null]]);
});

test('make: define … endef nests; backslash continuation, comments too; \\\\ does not continue', () => {
  check('make', ['define X', 'a', '  define Y', '  endef', 'b', 'endef', 'x'], [
    [2, at(1, 'a define … endef block')],
    [5, at(1, 'a define … endef block')],
    [6, at(1, 'a define … endef block')],
    [7, null],
  ]);
  check('make', ["A = a \\", '  b', 'x'], [[2, at(1, 'a line continued with a backslash')], [3, null]]);
  check('make', [R`A = a\\`, 'x'], [[2, null]]);
  check('make', ["# c \\", 'A = 1', 'x'], [[2, at(1, 'a line continued with a backslash')], [3, null]]);
  check('make', ['# define X', 'x'], [[2, null]]);
});

test('ini, properties, env', () => {
  check('ini', ['; "', '[s]', 'a = """', 'b'], [[2, null], [4, null]]);
  check('properties', ["a = b \\", '  c', 'd'], [[2, at(1, 'a line continued with a backslash')], [3, null]]);
  check('properties', ["# c \\", 'd', R`a = b\\`, 'c'], [[2, null], [4, null]]);
  check('env', ['A="x', 'y"', 'B=1'], [[2, at(1, 'a "…" value')], [3, null]]);
  check('env', [R`A="a\"`, 'b"', 'C=1'], [[2, at(1, 'a "…" value')], [3, null]]);
  check('env', ["B=it's", "C='#'", '# A="', 'D=1'], [[2, null], [3, null], [4, null]]);
});

test('lisp, elisp, clojure: block comments, docstrings, |symbols|, here strings, characters', () => {
  check('lisp', ['#| a #| b |#', '|#', '(x)'], [[2, at(1, 'a #| |# comment')], [3, null]]);
  check('lisp', ['(defun f ()', R`  "Doc \" ;`, '  more"', '  1)'], [[3, at(2, 'a "…" string')], [4, null]]);
  check('lisp', ['(list #\\" #\\| 1)', '(x)'], [[2, null]]);
  check('lisp', ['(list a\\"b c\\|d)', '(x)'], [[2, null]]);
  check('elisp', ['(setq a\\"b 1)', '(x)'], [[2, null]]);
  check('lisp', ['(setq |a', 'b| 1)', '(x)'], [[2, at(1, 'a |…| symbol')], [3, null]]);
  check('lisp', ['(define s #<<END', 'x', 'END', ')'], [[2, at(1, 'a #<< here string')], [3, at(1, 'a #<< here string')], [4, null]]);
  check('lisp', ['; "#|', '(x)'], [[2, null]]);
  check('elisp', ['(setq c ?\\" d ?")', '(message "; not")', '; "', '(x)'], [[2, null], [3, null], [4, null]]);
  check('elisp', [R`(f "a\"`, 'b")', '(x)'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('clojure', ['(def c \\")', '(println "; x")', '; "', '(x)'], [[2, null], [3, null], [4, null]]);
  check('clojure', [R`(def s "a\"`, 'b")', '(re-find #"x', 'y" s)', '(x)'], [[2, at(1, 'a "…" string')], [3, null], [4, at(3, 'a "…" string')], [5, null]]);
});

test('ocaml: nested comments with strings inside, quoted strings, characters', () => {
  check('ocaml', ['(* a "*)" (* b *)', '*)', 'let x = 1'], [[2, at(1, 'a (* *) comment')], [3, null]]);
  check('ocaml', ['let s = {id|a |} "', '|id}', 'let x = 1'], [[2, at(1, 'a {id| |id} quoted string')], [3, null]]);
  check('ocaml', [R`let s = "a\"`, 'b"', 'let x = 1'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('ocaml', [`let c = '"'`, `let f (x : 'a) = "`, '"'], [[2, null], [3, at(2, 'a "…" string')]]);
  check('ocaml', ['let s = "(*"', 'let x = 1'], [[2, null]]);
});

test('tokensAround: every insertion point in one pass, as tokenAround gives each', () => {
  const lines = ['AS $$', "x 'y", '$$;', "SELECT 'a", "b' /* c", '*/ -- d', 'e'];
  assert.deepEqual(tokensAround('sql', lines), [
    null,
    at(1, 'a $$ string'),
    at(1, 'a $$ string'),
    null,
    at(4, "a '…' string"),
    at(5, 'a /* */ comment'),
    null,
    null,
  ]);
  for (let i = 0; i <= lines.length; i++) assert.deepEqual(tokensAround('sql', lines)[i], tokenAround('sql', lines, i), `line ${i}`);
  assert.deepEqual(tokensAround('make', []), [null]);
});


test('perl: here-documents (quoted, indented with <<~), POD to =cut, not a << shift, strings over lines', () => {
  check('perl', ['print <<EOT;', 'body', 'EOT', 'x();'], [[2, at(1, 'a here-document')], [3, at(1, 'a here-document')], [4, null]]);
  check('perl', ['my $s = <<~"END";', '    body', '    END', 'y();'], [[2, at(1, 'a here-document')], [3, at(1, 'a here-document')], [4, null]]);
  check('perl', ["print <<'RAW' . 1;", '$not_interpolated', 'RAW', 'z();'], [[2, at(1, 'a here-document')], [4, null]]);
  check('perl', ['my $x = 1 << 2;', 'w();'], [[2, null]]);
  check('perl', ['=pod', '', 'docs', '', '=cut', 'v();'], [[2, at(1, 'a POD block')], [5, at(1, 'a POD block')], [6, null]]);
  check('perl', ['my $s = "a', 'b";', 'u();'], [[2, at(1, 'a "…" string')], [3, null]]);
  check('perl', ['# print <<EOT;', 't();'], [[2, null]]);
});

test('csharp: raw strings of three or more quotes, interpolated ones, verbatim @"…" with "" doubling', () => {
  check('csharp', ['var a = """', '  raw "quoted"', '  """;', 'x();'], [[2, at(1, 'a """ raw string')], [3, at(1, 'a """ raw string')], [4, null]]);
  check('csharp', ['var b = $""""', '  has """ inside', '  """";', 'y();'], [[2, at(1, 'a """" raw string')], [3, at(1, 'a """" raw string')], [4, null]]);
  check('csharp', ['var c = @"a ""q""', 'b";', 'z();'], [[2, at(1, 'a verbatim @"…" string')], [3, null]]);
  check('csharp', ['var d = "one line";', "var e = '\"';", 'w();'], [[2, null], [3, null]]);
  check('csharp', ['// var f = """', 'v();'], [[2, null]]);
});

test('swift: raw strings closed by as many #, """ strings, nesting block comments', () => {
  check('swift', ['let a = #"""', '  raw \\n """ not the end', '  """#', 'x()'], [[2, at(1, 'a #""" raw string')], [3, at(1, 'a #""" raw string')], [4, null]]);
  check('swift', ['let b = """', '  text', '  """', 'y()'], [[2, at(1, 'a """ string')], [4, null]]);
  check('swift', ['let c = ##"a "# b"##', 'z()'], [[2, null]]);
  check('swift', ['/* a /* nested */', 'still */', 'w()'], [[2, at(1, 'a /* */ comment')], [3, null]]);
});
