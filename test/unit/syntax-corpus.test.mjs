// The syntax corpus of issue 14 (test/corpus/syntax/): for every corpus file and every line
// (1 to lineCount + 1), scarIntoBuffer places a scar above that line, moves it to an exact
// line above, or refuses, as the table EXPECT says; scanBuffer of the untouched file finds
// exactly the real comment scars, none of the marker-shaped lines inside strings, here-documents,
// templates, tags and block comments. Every placement is checked three ways:
// (a) scanBuffer of the result finds the file's real scars plus the new one at its line;
// (b) with a grammar, the result re-parses with no syntax error (every corpus file parses
//     without one, twice in a row: a parse must depend on the text alone);
// (c) where the language's own tool is on this machine, the program or data is unchanged apart
//     from the comment: the TypeScript compiler's printer (comments removed) for JS/JSX/TS/TSX,
//     plus what `node --check` does for .js/.mjs (one node process compiles them all);
//     python3 `ast.dump`; `bash -n` and the script's output;
//     the `yaml` package; parse5 for HTML/Vue/Svelte/Astro (comments dropped, whitespace
//     collapsed outside <pre>/<textarea>, scripts through the TypeScript printer, styles without
//     comments); `g++ -fpreprocessed -dD -E -P` (comments removed) and `g++ -fsyntax-only` for
//     C (as `-x c`) and C++; `perl -MO=Deparse`; the javac parser (one JVM, source launcher)
//     for Java. The tools must be installed: a missing python3, bash, g++, perl or java fails.
// Not checked by a tool (none on this machine, or none that compares programs): PHP, CSS, SCSS,
// Ruby, Go, Rust (rustc has no stable AST dump), C#, Kotlin, Swift, Scala, Dart, Zig,
// Objective-C (no Foundation headers), SQL, proto, GraphQL, Nix, HCL, F#, batch, PowerShell,
// Lua, Haskell, Elixir, Clojure, Lisp, Makefile, Dockerfile, TOML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import YAML from 'yaml';
import { parse as parseHtml, parseFragment } from 'parse5';
import { src } from '../helpers/sandbox.mjs';

const { scarIntoBuffer } = await import(src('scars/insert.ts'));
const { scanBuffer } = await import(src('scars/parse.ts'));
const { parseDocument, syntaxErrors, disposeDocument } = await import(src('syntax/tree.ts'));
const { languageOf } = await import(src('syntax/languages.ts'));

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'corpus', 'syntax');
const KIND = 'ask';
const BODY = 'explain this change';

/** `{ [line]: k }` for each of `lines`: a scar asked above one of them goes above line `k`. */
const to = (k, ...lines) => Object.fromEntries(lines.map((l) => [l, k]));

/**
 * Per corpus file: `scars`, the lines of its real scars; `moved`, the lines whose scar goes
 * above another line (line: that line); `refused`, the lines refused. Every other line of
 * 1..lineCount+1 takes the scar right above itself. Entries marked ENGINE BUG state the right
 * outcome where the engine gets it wrong (the test fails until it is fixed).
 */
const EXPECT = {
  Dockerfile: { scars: [1, 5, 14], moved: { ...to(9, 10, 11, 12) } },
  Makefile: { scars: [1, 14], moved: { ...to(4, 5, 6, 7), ...to(9, 10, 11) } },
  // ENGINE BUG: the bundled C# grammar has no C# 11 raw string literals ("""…"""): it parses
  // the file with errors, counts the marker on line 7 as a scar and places scars on lines 7-8
  // inside the literal.
  // The C# grammar has no raw strings (C# 11): it reports 2 syntax errors in this file, and the
  // lexical rule beside it (syntax/lexer.ts `csharp`) keeps scars out of the string.
  'RawLiteral.cs': { scars: [4], moved: { ...to(5, 6, 7, 8) }, grammarErrors: 2 },
  // ENGINE BUG: the bundled Swift grammar reads raw strings (#"…"#) right only on the first
  // parse of a process (its scanner keeps state between parses): afterwards the file has
  // syntax errors, and line 1 is refused.
  'RawStrings.swift': { scars: [2], moved: { ...to(3, 4, 5, 6) } },
  // tree-sitter-haskell joins consecutive `--` lines into one comment (fixed: a scar next to
  // another `--` line was not found by scan, and placement fell back to an unscannable {- -}).
  'Strings.hs': { scars: [2, 14], moved: { ...to(5, 6, 7), ...to(9, 10), ...to(24, 25, 26, 27) } },
  'Strings.kt': { scars: [4, 16], moved: { ...to(5, 6, 7, 8, 9), ...to(11, 12, 13), ...to(22, 23, 24, 25, 26) } },
  'Strings.scala': { scars: [4, 22], moved: { ...to(6, 7, 8, 9, 10), ...to(12, 13, 14, 15), ...to(17, 18, 19) } },
  'Strings.swift': { scars: [4, 15], moved: { ...to(5, 6, 7, 8, 9), ...to(11, 12, 13) } },
  'TextBlock.java': { scars: [6, 26], moved: { ...to(8, 9, 10, 11, 12), ...to(14, 15, 16) } },
  'anchors.yaml': { scars: [3, 23], moved: { ...to(5, 6, 7), ...to(8, 9, 10), ...to(14, 15), ...to(16, 17, 18) } },
  'app.vue': { scars: [2, 18], moved: { ...to(3, 4, 5, 6, 7), ...to(15, 16, 17), ...to(27, 28) } },
  // Lines 20-21 are inside $(( )), where bash reads `#` as an operand (fixed: the grammar
  // took it as a comment).
  'arrays.sh': { scars: [14, 24, 36], moved: { ...to(3, 4, 5, 6), ...to(8, 9), ...to(19, 20, 21), ...to(29, 30), ...to(40, 41, 42, 43) }, refused: [1] },
  // ENGINE BUG: tree-sitter-html does not know Svelte's {…} attribute values: the `>` of
  // `() =>` and of `count > 3` end the start tag for it (the file parses with errors), so a
  // scar above line 10 (the tag's real `>`) lands among the attributes.
  'arrows.svelte': { scars: [5], moved: { ...to(6, 7, 8, 9, 10) } },
  'build.bat': { scars: [2, 9], moved: { ...to(4, 5, 6) } },
  'component.jsx': { scars: [13], moved: { ...to(5, 6, 7) } },
  'config.toml': { scars: [1, 15], moved: { ...to(4, 5, 6, 7), ...to(9, 10, 11, 12) } },
  'config.yaml': { scars: [1, 21], moved: { ...to(3, 4, 5), ...to(6, 7, 8), ...to(9, 10, 11), ...to(12, 13, 14, 15), ...to(16, 17, 18) } },
  'core.clj': { scars: [1, 12], moved: { ...to(4, 5, 6), ...to(9, 10) } },
  'crlf.ts': { scars: [2], moved: { ...to(3, 4, 5, 6) } },
  // Lines 5-7 (the DATA section after __END__, and the end of the file) go above __END__
  // (fixed: they were refused; tree-sitter-ruby's node for the data starts on line 5, so no
  // node above held them).
  'data.rb': { scars: [2], moved: { ...to(4, 5, 6, 7) } },
  'default.nix': { scars: [1, 18], moved: { ...to(5, 6, 7, 8, 9), ...to(10, 11, 12), ...to(14, 15, 16) } },
  'dollar.sql': { scars: [1, 27], moved: { ...to(7, 8, 9), ...to(11, 12, 13, 14, 15, 16), ...to(18, 19, 20, 21), ...to(23, 24, 25) } },
  'heredoc.php': { scars: [2, 27], moved: { ...to(5, 6, 7, 8, 9), ...to(11, 12, 13, 14), ...to(16, 17, 18), ...to(20, 21, 22), ...to(33, 34, 35) }, refused: [1] },
  'heredoc.pl': { scars: [2, 31], moved: { ...to(7, 8, 9, 10), ...to(12, 13, 14, 15), ...to(17, 18, 19), ...to(21, 22, 23), ...to(25, 26, 27, 28) }, refused: [1] },
  'macro.c': { scars: [2, 23], moved: { ...to(7, 8, 9), ...to(11, 12, 13), ...to(18, 19, 20) } },
  'macros.lisp': { scars: [1, 13], moved: { ...to(5, 6, 7), ...to(9, 10, 11) } },
  'main.tf': { scars: [1, 15], moved: { ...to(8, 9, 10, 11, 12, 13), ...to(20, 21, 22) } },
  'module.mjs': { scars: [9], moved: { ...to(5, 6, 7) } },
  // Line 37 follows a comment ending in a backslash, which continues nothing.
  'more.py': { scars: [21], moved: { ...to(4, 5, 6), ...to(8, 9, 10), ...to(12, 13, 14), ...to(39, 40) } },
  'page.astro': { scars: [2, 15], moved: { ...to(3, 4, 5), ...to(16, 17, 18, 19) }, refused: [1] },
  // Lines 29-31 are inside <pre>, where a new line changes the preformatted text (fixed:
  // tree-sitter-html text nodes leave white space out, so the re-parse did not see it);
  // 33-34 inside <textarea>, whose content is text (fixed: it was a comment to the grammar).
  'page.html': {
    scars: [2, 27, 29, 41],
    moved: { ...to(5, 6, 7, 8), ...to(12, 13, 14), ...to(18, 19, 20, 21, 22, 23, 24), ...to(25, 26), ...to(28, 29, 30, 31), ...to(32, 33, 34), ...to(37, 38, 39, 40) },
  },
  // Line 17 (the end of the file, in the DATA section) goes above __END__ (line 14), as lines
  // 15-16 do (fixed: it was refused).
  'pod.pl': { scars: [4], moved: { ...to(6, 7, 8, 9, 10), ...to(14, 15, 16, 17) } },
  'quotes.rb': { scars: [1, 22], moved: { ...to(4, 5, 6), ...to(8, 9, 10, 11), ...to(13, 14, 15), ...to(17, 18, 19), ...to(30, 31, 32, 33) } },
  'raw.cpp': { scars: [2, 20], moved: { ...to(6, 7, 8), ...to(10, 11, 12), ...to(14, 15) } },
  'raw.go': { scars: [9, 26], moved: { ...to(10, 11, 12, 13, 14), ...to(16, 17, 18) } },
  'raw.rs': { scars: [2, 20], moved: { ...to(3, 4, 5), ...to(7, 8, 9), ...to(11, 12), ...to(14, 15, 16), ...to(26, 27, 28) } },
  'schema.graphql': { scars: [1, 7], moved: { ...to(2, 3, 4, 5) } },
  'script.ps1': { scars: [1, 21], moved: { ...to(4, 5, 6, 7), ...to(9, 10, 11), ...to(13, 14, 15), ...to(16, 17, 18), ...to(23, 24) } },
  'script.sh': { scars: [2, 29], moved: { ...to(6, 7, 8), ...to(10, 11, 12), ...to(14, 15, 16, 17), ...to(19, 20, 21, 22), ...to(24, 25, 26), ...to(44, 45, 46) }, refused: [1] },
  'service.proto': { scars: [1, 10], moved: { ...to(6, 7, 8) } },
  'strings.dart': { scars: [4, 20], moved: { ...to(5, 6, 7, 8, 9), ...to(11, 12, 13, 14), ...to(16, 17, 18) } },
  'strings.ex': { scars: [1, 21], moved: { ...to(3, 4, 5, 6), ...to(8, 9, 10, 11), ...to(14, 15, 16) } },
  'strings.fs': { scars: [1, 18], moved: { ...to(4, 5, 6, 7, 8), ...to(10, 11, 12), ...to(14, 15, 16), ...to(21, 22) } },
  'strings.lua': { scars: [1, 18], moved: { ...to(2, 3, 4, 5, 6), ...to(8, 9, 10, 11), ...to(13, 14, 15), ...to(22, 23) } },
  'strings.m': { scars: [14, 22], moved: { ...to(4, 5), ...to(7, 8, 9), ...to(11, 12, 13) } },
  // Line 16 continues line 15 (a backslash): Python takes no comment line there (fixed: the
  // grammar does).
  'strings.py': { scars: [4, 20], moved: { ...to(1, 2, 3), ...to(7, 8, 9), ...to(11, 12, 13), ...to(15, 16), ...to(27, 28, 29) } },
  'strings.zig': { scars: [4, 12], moved: { ...to(6, 7, 8) } },
  'style.css': { scars: [1, 24], moved: { ...to(6, 7, 8), ...to(18, 19, 20) } },
  'template.js': { scars: [2, 24], moved: { ...to(5, 6, 7, 8, 9), ...to(11, 12, 13), ...to(15, 16, 17), ...to(18, 19, 20), ...to(31, 32) } },
  // Line 10 continues the JSX text of line 9 (fixed: a {/* */} between them was taken, and
  // split the text). ENGINE BUG: it goes above line 4 (the element), where line 9 fits.
  'text.jsx': { scars: [11], moved: { ...to(9, 10), ...to(5, 6, 7) } },
  'theme.scss': { scars: [1, 16], moved: { ...to(10, 11, 12) } },
  'types.ts': { scars: [2], moved: { ...to(8, 9, 10) } },
  'verbatim.cs': { scars: [6, 19], moved: { ...to(9, 10, 11), ...to(13, 14, 15), ...to(20, 21, 22) } },
  'view.tsx': { scars: [17], moved: { ...to(7, 8, 9, 10) } },
  'widget.svelte': { scars: [6, 13], moved: { ...to(3, 4, 5), ...to(14, 15, 16, 17) } },
};

const FILES = readdirSync(DIR).sort();

/** Lines of a text as lines.ts counts them (a final line ending adds no line). */
const lineCountOf = (text) => (text === '' ? 0 : text.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(text) ? 1 : 0));

/** Every distinct placement, by tool: { name, line, scarLine, before, after }. */
const placements = [];

/** The outcome of every line of one corpus file, and the placements in it. */
async function runFile(name) {
  const buf = readFileSync(path.join(DIR, name));
  const rel = `test/corpus/syntax/${name}`;
  const n = lineCountOf(buf.toString('utf8'));
  const text = buf.toString('utf8');
  const got = { moved: {}, refused: [] };
  /** One per distinct result (lines moved to the same place give the same bytes). */
  const results = [];
  for (let line = 1; line <= n + 1; line++) {
    try {
      const r = await scarIntoBuffer({ rel, buf, line, kind: KIND, body: BODY, syntaxOverrides: {} });
      if (r.scarLine !== line) got.moved[line] = r.scarLine;
      const same = results.find((p) => p.scarLine === r.scarLine);
      if (same) same.lines.push(line);
      else results.push({ name, line, lines: [line], scarLine: r.scarLine, r, before: text, after: r.buf.toString('utf8') });
    } catch (e) {
      if (e?.constructor?.name !== 'KizuError') throw e;
      got.refused.push(line);
    }
  }
  placements.push(...results);
  return { buf, rel, n, got, results };
}

// Every line of every file, before the tests: the tool tests check every placement, whatever
// the file's own test finds (and when only some tests are run).
const RUNS = new Map();
for (const name of FILES) RUNS.set(name, await runFile(name));

const grammarErrors = async (lang, text) => {
  const doc = await parseDocument(lang, text);
  try {
    return syntaxErrors(doc);
  } finally {
    disposeDocument(doc);
  }
};

test('the table names every corpus file, and the corpus covers every language asked for', () => {
  assert.deepEqual(FILES, Object.keys(EXPECT).sort());
  const names = new Set(FILES.map((f) => languageOf(f)?.name));
  for (const want of ['JavaScript', 'TypeScript', 'TSX', 'HTML', 'Vue', 'Svelte', 'Astro', 'PHP', 'CSS', 'SCSS', 'Python', 'YAML', 'TOML', 'Shell', 'Ruby', 'Perl', 'Go', 'Rust', 'C', 'C++', 'Java', 'C#', 'Kotlin', 'Swift', 'Scala', 'Dart', 'Zig', 'Objective-C', 'SQL', 'Protocol Buffers', 'GraphQL', 'Nix', 'HCL / Terraform', 'F#', 'Batch', 'PowerShell', 'Lua', 'Haskell', 'Elixir', 'Clojure', 'Lisp, Scheme, Racket', 'Makefile', 'Dockerfile']) {
    assert.ok(names.has(want), want);
  }
  for (const ext of ['.js', '.mjs', '.jsx', '.ts', '.tsx', '.vue', '.svelte', '.astro', '.html']) assert.ok(FILES.some((f) => f.endsWith(ext)), ext);
});

for (const name of FILES) {
  test(`corpus ${name}: scan finds the real scars only; every line placed, moved or refused as listed; each placement keeps the scars and parses`, async () => {
    const want = EXPECT[name];
    const { buf, rel, n, got, results } = RUNS.get(name);
    const text = buf.toString('utf8');
    const lang = languageOf(rel, text.split('\n')[0]);
    const real = await scanBuffer(rel, buf);
    if (lang.grammar) {
      // Twice: a grammar whose parse depends on what was parsed before cannot be trusted.
      const known = want.grammarErrors ?? 0;
      assert.deepEqual([await grammarErrors(lang, text), await grammarErrors(lang, text)], [known, known], `${name} parses with ${known} syntax errors`);
    }
    assert.deepEqual(real.map((s) => s.line), want.scars, `${name}: the real scars`);
    assert.deepEqual(got, { moved: want.moved, refused: want.refused ?? [] }, `${name}: lines 1..${n + 1}`);
    for (const { line, r } of results) {
      assert.equal(r.noop, false, `${name}:${line}`);
      const after = await scanBuffer(rel, r.buf);
      const expectLines = [...want.scars.map((l) => (l >= r.scarLine ? l + 1 : l)), r.scarLine].sort((a, b) => a - b);
      assert.deepEqual(after.map((x) => x.line), expectLines, `${name}:${line} (scar at ${r.scarLine}): scan of the result`);
      const mine = after.find((x) => x.line === r.scarLine);
      assert.deepEqual([mine.kind, mine.body], [KIND, BODY], `${name}:${line}`);
      if (lang.grammar) assert.equal(await grammarErrors(lang, r.buf.toString('utf8')), want.grammarErrors ?? 0, `${name}:${line} (scar at ${r.scarLine}): the result parses`);
    }
  });
}

/** The placements in corpus files whose name matches `re`. */
const placed = (re) => placements.filter((p) => re.test(p.name));

/** A fresh temporary directory, removed when the process exits. */
function tempDir(tag) {
  const dir = mkdtempSync(path.join(tmpdir(), `kizu-corpus-${tag}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a command; resolves to { status, stdout, stderr, error }. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error) => resolve({ status: null, stdout, stderr, error }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    if (opts.input !== undefined) child.stdin.end(opts.input);
  });
}

/** The tool must be there: a missing one fails the test. */
function requireTool(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  assert.ok(!r.error && r.status === 0, `${cmd} must be installed for the syntax corpus (${r.error?.message ?? r.stderr})`);
}

const printer = ts.createPrinter({ removeComments: true });
/**
 * A JS/TS program as the TypeScript printer writes it without comments, and its parse
 * diagnostics. JSX: an empty `{}` (what a `{/* *\/}` comment leaves) and whitespace-only text
 * with a line break (JSX drops it) are left out.
 */
function tsPrint(fileName, text) {
  const kind = /\.tsx$/.test(fileName) ? ts.ScriptKind.TSX : /\.ts$/.test(fileName) ? ts.ScriptKind.TS : /\.jsx$/.test(fileName) ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const strip = (ctx) => (root) => {
    const visit = (node) => {
      if (ts.isJsxExpression(node) && !node.expression) return undefined;
      if (ts.isJsxText(node) && node.containsOnlyTriviaWhiteSpaces) return undefined;
      return ts.visitEachChild(node, visit, ctx);
    };
    return ts.visitNode(root, visit);
  };
  const out = ts.transform(sf, [strip]).transformed[0];
  return { diagnostics: sf.parseDiagnostics.length, printed: printer.printFile(out) };
}

/** `${name}:${lines} (scar at K)` for a placement, in failure lists. */
const where = (p) => `${p.name}:${p.lines.join(',')} (scar at ${p.scarLine})`;

/**
 * Writes each of `texts` to `<dir>/<k>/<names[k]>` and runs `command` (bash; `$f` is the file,
 * the working directory its own) on every one, in two bash processes (not one process each).
 * @returns per text: { file, status, stdout, stderr }.
 */
async function eachInBash(tag, names, texts, command) {
  const dir = tempDir(tag);
  const files = texts.map((text, k) => {
    mkdirSync(path.join(dir, String(k)));
    const f = path.join(dir, String(k), names[k]);
    writeFileSync(f, text);
    return f;
  });
  const loop = `for f in "$@"; do (cd "$(dirname "$f")" && ${command}) >"$f.out" 2>"$f.err" </dev/null; echo $? >"$f.rc"; done`;
  // Two bash processes, one per core, each on every other file.
  const rs = await Promise.all([0, 1].map((half) => run('bash', ['-c', loop, 'loop', ...files.filter((_, k) => k % 2 === half)])));
  for (const r of rs) assert.equal(r.status, 0, `bash must be installed and run: ${r.error?.message ?? r.stderr}`);
  return files.map((file) => ({
    file,
    status: Number(readFileSync(`${file}.rc`, 'utf8')),
    stdout: readFileSync(`${file}.out`, 'utf8'),
    stderr: readFileSync(`${file}.err`, 'utf8'),
  }));
}

/** The originals of the corpus files named in `ps`, then the placements, as names and texts for eachInBash. */
function originalsThen(ps) {
  const names = [...new Set(ps.map((p) => p.name))];
  return { names, files: [...names, ...ps.map((p) => p.name)], texts: [...names.map((n) => readFileSync(path.join(DIR, n), 'utf8')), ...ps.map((p) => p.after)] };
}

test('tool: JS, JSX, TS and TSX placements print the same program with the TypeScript compiler (comments removed)', () => {
  const ps = placed(/\.(m?js|jsx|ts|tsx)$/);
  assert.ok(ps.length > 50, `${ps.length} placements`);
  const bad = [];
  for (const p of ps) {
    const a = tsPrint(p.name, p.before);
    const b = tsPrint(p.name, p.after);
    assert.equal(a.diagnostics, 0, p.name);
    if (b.diagnostics !== 0 || b.printed !== a.printed) bad.push(where(p));
  }
  assert.deepEqual(bad, []);
});

// `node --check` compiles a script inside the CommonJS wrapper and a .mjs file as a module;
// one node process does exactly that for every placement (vm.Script, vm.SourceTextModule),
// instead of one `node --check` process each (about 0.2 s apiece).
const NODE_CHECK = `import vm from 'node:vm';
import { readFileSync } from 'node:fs';
import { Module } from 'node:module';
const out = [];
for (const f of process.argv.slice(1)) {
  const code = readFileSync(f, 'utf8');
  try {
    if (f.endsWith('.mjs')) new vm.SourceTextModule(code, { identifier: f });
    else new vm.Script(Module.wrap(code), { filename: f });
    out.push(null);
  } catch (e) {
    out.push(String(e));
  }
}
console.log(JSON.stringify(out));
`;

test('tool: node compiles every .js/.mjs placement (what node --check does)', async () => {
  const dir = tempDir('node');
  const ps = placed(/\.m?js$/);
  const files = ps.map((p, k) => {
    const f = path.join(dir, `${k}-${p.name}`);
    writeFileSync(f, p.after);
    return f;
  });
  const probe = path.join(dir, 'broken.mjs');
  writeFileSync(probe, 'export const = 1;\n');
  const r = await run(process.execPath, ['--experimental-vm-modules', '--no-warnings', '--input-type=module', '-e', NODE_CHECK, probe, ...files]);
  assert.equal(r.status, 0, r.stderr);
  const [broken, ...out] = JSON.parse(r.stdout);
  assert.match(broken, /SyntaxError/);
  assert.deepEqual(ps.filter((_, k) => out[k] !== null).map(where), []);
});

test('tool: python3 ast.dump of every Python placement equals the original', async () => {
  const ps = placed(/\.py$/);
  const code = 'import ast, json, sys\nout = []\nfor a, b in json.load(sys.stdin):\n    try:\n        out.append(ast.dump(ast.parse(a)) == ast.dump(ast.parse(b)))\n    except SyntaxError as e:\n        out.append(str(e))\nprint(json.dumps(out))\n';
  const r = await run('python3', ['-c', code], { input: JSON.stringify(ps.map((p) => [p.before, p.after])) });
  assert.equal(r.status, 0, `python3 must be installed and run: ${r.error?.message ?? r.stderr}`);
  const out = JSON.parse(r.stdout);
  assert.equal(out.length, ps.length);
  assert.deepEqual(ps.map((p, k) => (out[k] === true ? null : `${where(p)}: ${out[k] === false ? 'another AST' : out[k]}`)).filter(Boolean), []);
});

test('tool: bash -n accepts every shell placement, and the script prints the same', async () => {
  requireTool('bash');
  const ps = placed(/\.sh$/);
  const { names, files, texts } = originalsThen(ps);
  const rs = await eachInBash('sh', files, texts, 'bash -n "$f" && bash "$f"');
  const want = Object.fromEntries(names.map((n, k) => [n, rs[k]]));
  for (const n of names) assert.equal(want[n].status, 0, `${n}: ${want[n].stderr}`);
  const bad = ps.filter((p, k) => rs[names.length + k].status !== 0 || rs[names.length + k].stdout !== want[p.name].stdout);
  assert.deepEqual(bad.map(where), []);
});

test('tool: every YAML placement loads to the same documents with the yaml package', () => {
  // ENGINE BUG (anchors.yaml:25): the scar above the `}` closing a multi-line flow mapping
  // takes that line's indent (column 0); the yaml package, a kizu dependency, then rejects the
  // file ("Comments must be separated from other tokens by white space"); js-yaml and PyYAML
  // accept it. Indented like the mapping's entries it loads.
  const ps = placed(/\.ya?ml$/);
  assert.ok(ps.length > 10);
  const bad = [];
  for (const p of ps) {
    const docs = YAML.parseAllDocuments(p.after);
    const want = YAML.parseAllDocuments(p.before).map((d) => d.toJS());
    if (docs.some((d) => d.errors.length) || !util.isDeepStrictEqual(docs.map((d) => d.toJS()), want)) bad.push(where(p));
  }
  assert.deepEqual(bad, []);
});

/** Text of an HTML node's children, comments dropped, adjacent texts joined. */
function htmlData(node, ctx = {}) {
  const kids = [];
  for (const c of node.content?.childNodes ?? node.childNodes ?? []) {
    if (c.nodeName === '#comment') continue;
    if (c.nodeName === '#text') {
      if (typeof kids.at(-1) === 'string') kids[kids.length - 1] += c.value;
      else kids.push(c.value);
      continue;
    }
    kids.push(c);
  }
  const out = [];
  for (const k of kids) {
    if (typeof k !== 'string') {
      const attrs = Object.fromEntries((k.attrs ?? []).map((a) => [a.name, a.value]));
      const tag = k.nodeName;
      const inner = tag === 'script' ? { script: attrs.lang === 'ts' ? 'x.ts' : 'x.js' } : tag === 'style' ? { style: true } : /^(pre|textarea|listing)$/.test(tag) ? { pre: true } : ctx;
      out.push([tag, attrs, htmlData(k, inner)]);
    } else if (ctx.script) out.push(tsPrint(ctx.script, k).printed);
    else if (ctx.style) out.push(k.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').trim());
    else if (ctx.pre) out.push(k);
    else if (k.trim()) out.push(k.replace(/\s+/g, ' '));
  }
  return out;
}

/** What an HTML, Vue, Svelte or Astro file means to an HTML parser (Astro front matter through the TypeScript printer). */
function markupData(name, text) {
  if (name.endsWith('.html')) return htmlData(parseHtml(text));
  if (name.endsWith('.astro')) {
    const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
    return [tsPrint('x.ts', m[1]).printed, htmlData(parseFragment(text.slice(m[0].length)))];
  }
  return htmlData(parseFragment(text));
}

test('tool: every HTML, Vue, Svelte and Astro placement parses (parse5) to the same tree apart from comments', () => {
  const ps = placed(/\.(html|vue|svelte|astro)$/);
  assert.ok(ps.length > 40);
  const bad = ps.filter((p) => !util.isDeepStrictEqual(markupData(p.name, p.after), markupData(p.name, p.before)));
  assert.deepEqual(bad.map(where), []);
});

test('tool: C and C++ placements: same text without comments (g++ -fpreprocessed -dD -E -P), and g++ -fsyntax-only accepts them', async () => {
  requireTool('g++');
  const ps = placed(/\.(c|cpp)$/);
  const { names, files, texts } = originalsThen(ps);
  const rs = await eachInBash('cc', files, texts, 'case "$f" in *.c) x=c;; *) x=c++;; esac; g++ -x $x -fpreprocessed -dD -E -P "$f"');
  const stripped = (r) => r.stdout.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '').join('\n');
  for (const [k, n] of names.entries()) assert.equal(rs[k].status, 0, `${n}: ${rs[k].stderr}`);
  const want = Object.fromEntries(names.map((n, k) => [n, stripped(rs[k])]));
  const bad = ps.filter((p, k) => rs[names.length + k].status !== 0 || stripped(rs[names.length + k]) !== want[p.name]);
  assert.deepEqual(bad.map(where), []);
  const checks = await Promise.all(['c', 'c++'].map((lang) => run('g++', ['-x', lang, '-fsyntax-only', ...rs.filter((r) => r.file.endsWith(lang === 'c' ? '.c' : '.cpp')).map((r) => r.file)])));
  for (const r of checks) assert.equal(r.status, 0, `g++ -fsyntax-only: ${r.stderr}`);
});

test('tool: perl -MO=Deparse of every Perl placement equals the original', async () => {
  requireTool('perl', ['-v']);
  const ps = placed(/\.pl$/);
  const { names, files, texts } = originalsThen(ps);
  const rs = await eachInBash('pl', files, texts, 'perl -MO=Deparse "$f"');
  const want = Object.fromEntries(names.map((n, k) => [n, rs[k]]));
  for (const n of names) assert.equal(want[n].status, 0, `${n}: ${want[n].stderr}`);
  const bad = ps.filter((p, k) => rs[names.length + k].status !== 0 || rs[names.length + k].stdout !== want[p.name].stdout);
  assert.deepEqual(bad.map(where), []);
});

/** The javac parser in one JVM: for each file, its diagnostics count and its tree printed by javac (comments are not in it). */
const JAVA_TREES = `import com.sun.source.util.JavacTask;
import javax.tools.*;
import java.util.*;
public class Trees {
  public static void main(String[] args) throws Exception {
    JavaCompiler c = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager fm = c.getStandardFileManager(null, null, null);
    for (String a : args) {
      DiagnosticCollector<JavaFileObject> d = new DiagnosticCollector<>();
      JavacTask t = (JavacTask) c.getTask(null, fm, d, List.of("-proc:none"), null, fm.getJavaFileObjects(a));
      StringBuilder sb = new StringBuilder();
      for (var u : t.parse()) sb.append(u.toString());
      System.out.println(d.getDiagnostics().size() + "\\t" + Base64.getEncoder().encodeToString(sb.toString().getBytes("UTF-8")));
    }
  }
}
`;

test('tool: the javac parser reads every Java placement as the original tree', async () => {
  const dir = tempDir('java');
  writeFileSync(path.join(dir, 'Trees.java'), JAVA_TREES);
  const ps = placed(/\.java$/);
  const names = [...new Set(ps.map((p) => p.name))];
  const files = [];
  const put = (sub, name, text) => {
    mkdirSync(path.join(dir, sub), { recursive: true });
    const f = path.join(dir, sub, name);
    writeFileSync(f, text);
    files.push(f);
  };
  for (const name of names) put('orig', name, readFileSync(path.join(DIR, name), 'utf8'));
  ps.forEach((p, k) => put(String(k), p.name, p.after));
  const r = await run('java', [path.join(dir, 'Trees.java'), ...files], { cwd: dir });
  assert.equal(r.status, 0, `java must be installed and run: ${r.error?.message ?? r.stderr}`);
  const rows = r.stdout.trim().split('\n').map((l) => l.split('\t'));
  assert.equal(rows.length, files.length);
  const want = Object.fromEntries(names.map((n, k) => [n, rows[k]]));
  for (const n of names) assert.equal(want[n][0], '0', n);
  const bad = ps.filter((p, k) => !util.isDeepStrictEqual(rows[names.length + k], want[p.name]));
  assert.deepEqual(bad.map(where), []);
});

test('placement counts per tool (diagnostic)', (t) => {
  const count = (re) => `${placed(re).reduce((n, p) => n + p.lines.length, 0)} lines (${placed(re).length} distinct results)`;
  t.diagnostic(`placements: ${placements.length} distinct results; typescript ${count(/\.(m?js|jsx|ts|tsx)$/)}, node --check ${count(/\.m?js$/)}, python ${count(/\.py$/)}, bash ${count(/\.sh$/)}, yaml ${count(/\.ya?ml$/)}, parse5 ${count(/\.(html|vue|svelte|astro)$/)}, g++ ${count(/\.(c|cpp)$/)}, perl ${count(/\.pl$/)}, javac ${count(/\.java$/)}`);
});
