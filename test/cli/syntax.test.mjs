// Which comment syntax `git kizu scar` writes, by file type and by context inside the file
// (HTML and Vue sections, TSX/JSX checked with the TypeScript parser, PHP, front matter);
// unknown types; config scar.syntax; JS strings and line terminators checked with the parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ts from 'typescript';
import { writeFileSync } from 'node:fs';
import { sandbox } from '../helpers/sandbox.mjs';
import { err } from '../helpers/expect.mjs';
import { ASK, scarOnce, scarOnceHere } from '../helpers/scars.mjs';

const CASES = [
  ['//', 'rs ts js mjs cjs mts cts java go c h cc cpp hpp cs swift kt kts scala dart php jsx tsx', ''],
  ['#', 'py rb sh bash zsh fish yaml yml toml ini conf r pl ex exs', ''],
  ['<!--', 'html htm xml svg md vue', ' -->'],
  ['/*', 'css scss less', ' */'],
  ['--', 'sql lua hs ada', ''],
  ['%', 'tex erl', ''],
  [';', 'clj lisp el', ''],
];

// In the loops below the first case (per comment syntax, per context) runs through the bin and
// the others in this process (kizuScar: the same command, no node process and grammar load each).
test('syntax by extension: every listed type gets its comment syntax, no warning', async () => {
  for (const [open, exts, close] of CASES) {
    for (const ext of exts.split(' ')) {
      // PHP code lives inside <?php ... ?> (outside it is page markup: see the PHP test)
      const head = ext === 'php' ? '<?php\n' : '';
      const n = ext === 'php' ? 2 : 1;
      const { r, text } = await (ext === exts.split(' ')[0] ? scarOnce : scarOnceHere)({ [`dir/f.${ext}`]: `${head}x\n` }, `dir/f.${ext}:${n}`);
      const line = `${open} ${ASK}${close}`;
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred dir/f.${ext}:${n}  ${line}\n`, ''], ext);
      assert.equal(text, `${head}${line}\nx\n`, ext);
    }
  }
  for (const name of ['Dockerfile', 'Makefile', 'sub/Dockerfile', 'GNUmakefile', 'app.dockerfile', 'Dockerfile.dev', 'UPPER.PY']) {
    const { r, text } = await (name === 'Dockerfile' ? scarOnce : scarOnceHere)({ [name]: 'FROM x\n' }, `${name}:1`);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred ${name}:1  # ${ASK}\n`, ''], name);
    assert.equal(text, `# ${ASK}\nFROM x\n`, name);
  }
});

test('syntax: HTML and Vue sections — template/markup <!-- -->, <script> //, <style> /* */', async () => {
  const vue = '<template>\n  <div>{{ msg }}</div>\n</template>\n<script setup lang="ts">\nconst msg = \'hi\';\n</script>\n<style scoped>\ndiv { color: red; }\n</style>\n';
  const expect = {
    2: `  <!-- ${ASK} -->`,
    5: `// ${ASK}`,
    // Above a closing tag the scar is still inside that section.
    6: `// ${ASK}`,
    7: `<!-- ${ASK} -->`,
    8: `/* ${ASK} */`,
    9: `/* ${ASK} */`,
    10: `<!-- ${ASK} -->`,
  };
  for (const [line, scar] of Object.entries(expect)) {
    const { r, text } = await (line === '2' ? scarOnce : scarOnceHere)({ 'C.vue': vue }, `C.vue:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = vue.split('\n');
    lines.splice(Number(line) - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
  }
  const html = '<html>\n<head>\n<style>\n  p { margin: 0 }\n</style>\n<script src="a.js"></script>\n<script>\n  run();\n</script>\n</head>\n<body><p>x</p></body>\n</html>\n';
  const h = { 2: `<!-- ${ASK} -->`, 4: `  /* ${ASK} */`, 7: `<!-- ${ASK} -->`, 8: `  // ${ASK}`, 11: `<!-- ${ASK} -->` };
  for (const [line, scar] of Object.entries(h)) {
    const { r, text } = await scarOnceHere({ 'i.html': html }, `i.html:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = html.split('\n');
    lines.splice(Number(line) - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
  }
});

const TSX = `export function App({ items }: { items: string[] }) {
  const label = \`multi
line \${items.length}
end\`;
  return (
    <div
      className="app"
      id="main"
    >
      <h1>{label}</h1>
      {items.map((i) => (
        <span key={i}>{i}</span>
      ))}
    </div>
  );
}
`;

function diagnostics(name, text) {
  const kind = name.endsWith('.tsx') ? ts.ScriptKind.TSX : name.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JSX;
  return ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, kind).parseDiagnostics.length;
}

test('syntax: TSX/JSX by context — verified with the TypeScript parser; a line inside a template literal moves the scar above the line where it starts', async () => {
  assert.equal(diagnostics('App.tsx', TSX), 0);
  const cases = [
    [10, `      {/* ${ASK} */}`, 'among JSX children'],
    [14, `    {/* ${ASK} */}`, 'above a closing tag, among children'],
    [5, `  // ${ASK}`, 'plain code'],
    [2, `  // ${ASK}`, 'statement starting a template literal'],
    [8, `      // ${ASK}`, 'JSX attribute line'],
    [12, `        // ${ASK}`, 'parenthesised JSX inside an expression'],
  ];
  for (const name of ['App.tsx', 'App.jsx', 'App.js']) {
    const src = name === 'App.tsx' ? TSX : TSX.replace(': { items: string[] }', '');
    for (const [line, scar, what] of cases) {
      const { r, text } = await (name === 'App.tsx' && line === 10 ? scarOnce : scarOnceHere)({ [name]: src }, `${name}:${line}`);
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred ${name}:${line}  ${scar.trim()}\n`, ''], `${name} ${what}`);
      const lines = src.split('\n');
      lines.splice(line - 1, 0, scar);
      assert.equal(text, lines.join('\n'), `${name} ${what}`);
      assert.ok(diagnostics(name, text) <= diagnostics(name, src), `${name} ${what}: parse errors grew`);
    }
    // Lines 3 and 4 are inside the template literal that starts on line 2: the scar goes above line 2.
    const lang = name === 'App.tsx' ? 'TSX' : 'JavaScript';
    const lines = src.split('\n');
    lines.splice(1, 0, `  // ${ASK}`);
    for (const [line, what] of [[3, 'a template string'], [4, 'a template string']]) {
      const { r, text } = await scarOnceHere({ [name]: src }, `${name}:${line}`);
      assert.deepEqual(
        [r.status, r.stdout, r.stderr],
        [
          0,
          `scarred ${name}:2  // ${ASK}\n`,
          `git-kizu: warning: ${name}:${line} is inside ${what} (from line 2), where a comment would change the ${lang} code; the scar went above line 2 instead\n`,
        ],
        `${name} template line ${line}`,
      );
      assert.equal(text, lines.join('\n'), `${name} template line ${line}`);
      assert.equal(diagnostics(name, text), diagnostics(name, src), `${name} template line ${line}: parse errors`);
    }
  }
});

test('syntax: JS/TS string continued with a backslash moves the scar above the line where the string starts, not into it', async () => {
  const src = "const s = 'abc\\\ndef';\nexport default s;\n";
  for (const [name, lang] of [['s.ts', 'TypeScript'], ['s.js', 'JavaScript']]) {
    const { r, text } = await (name === 's.ts' ? scarOnce : scarOnceHere)({ [name]: src }, `${name}:2`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [0, `scarred ${name}:1  // ${ASK}\n`, `git-kizu: warning: ${name}:2 is inside a string (from line 1), where a comment would change the ${lang} code; the scar went above line 1 instead\n`],
      name,
    );
    assert.equal(text, `// ${ASK}\n${src}`);
    assert.equal(diagnostics(name, text), 0, name);
  }
});

test('syntax: line terminators other than CR/LF in the body are folded (U+2028 ends a JS // comment)', async () => {
  const { r, text } = await scarOnceHere({ 'a.js': 'run();\n' }, 'a.js:1', ['-m', 'one\u2028two\u2029three\u0085four\vfive\fsix\u001bseven']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '// @kizu[ask]: one two three four five six seven\nrun();\n');
  assert.equal(diagnostics('a.js', text), 0);
});

test('syntax: formats without comments are refused, suggesting git kizu queue add', async () => {
  for (const name of ['data.json', 'nb.ipynb']) {
    const { r, text } = await (name === 'data.json' ? scarOnce : scarOnceHere)({ [name]: '{\n  "a": 1\n}\n' }, `${name}:2`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [
        2,
        '',
        err(
          `${name}: this file type has no comment syntax, so a scar cannot be written into it`,
          `queue the remark instead: git kizu queue add --at ${name}:2 "<text>" (or set scar.syntax for this extension in the config)`,
        ),
      ],
    );
    assert.equal(text, '{\n  "a": 1\n}\n');
  }
});

test('syntax: unknown text format gets # with a warning; config scar.syntax overrides', async () => {
  const u = scarOnce({ 'notes.txt': 'hello\n' }, 'notes.txt:1');
  assert.deepEqual(
    [u.r.status, u.r.stdout, u.r.stderr],
    [0, `scarred notes.txt:1  # ${ASK}\n`, 'git-kizu: warning: notes.txt: unknown file type, using "#" comments (set scar.syntax in the config to choose)\n'],
  );
  assert.equal(u.text, `# ${ASK}\nhello\n`);
  const cfg = JSON.stringify({ scar: { syntax: { txt: '//', '.ts': '/* */', Jenkinsfile: '//', json: '//', md: 'none' } } });
  for (const [name, line] of [
    ['notes.txt', `// ${ASK}`],
    ['a.ts', `/* ${ASK} */`],
    ['Jenkinsfile', `// ${ASK}`],
    ['c.json', `// ${ASK}`],
  ]) {
    const { r, text } = await scarOnceHere({ '.kizurc.json': cfg, [name]: 'x\n' }, `${name}:1`);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred ${name}:1  ${line}\n`, ''], name);
    assert.equal(text, `${line}\nx\n`, name);
  }
  const none = await scarOnceHere({ '.kizurc.json': cfg, 'r.md': '# x\n' }, 'r.md:1');
  assert.deepEqual(
    [none.r.status, none.r.stderr],
    [2, err('r.md: this file type has no comment syntax, so a scar cannot be written into it', 'queue the remark instead: git kizu queue add --at r.md:1 "<text>" (or set scar.syntax for this extension in the config)')],
  );
  assert.equal(none.text, '# x\n');
});

test('syntax: file names that are Object.prototype keys (toString, a.constructor, __proto__) are just unknown types', async () => {
  const sb = sandbox();
  for (const name of ['toString', 'a.constructor', '__proto__', 'x.hasOwnProperty']) {
    writeFileSync(sb.path(name), 'x\n');
    const r = sb.kizu(['scar', `${name}:1`]);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [0, `scarred ${name}:1  # ${ASK}\n`, `git-kizu: warning: ${name}: unknown file type, using "#" comments (set scar.syntax in the config to choose)\n`],
      name,
    );
    assert.equal(sb.read(name), `# ${ASK}\nx\n`);
  }
  writeFileSync(sb.path('.kizurc.json'), JSON.stringify({ scar: { syntax: { constructor: '//' } } }));
  writeFileSync(sb.path('b.constructor'), 'x\n');
  const r = sb.kizu(['scar', 'b.constructor:1']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred b.constructor:1  // ${ASK}\n`, '']);
});

test('syntax: Markdown front matter gets # comments (YAML), the body <!-- -->; scan finds both', async () => {
  const md = '---\ntitle: x\ntags: [a]\n---\n# Heading\n';
  for (const [line, scar] of [[2, `# ${ASK}`], [3, `# ${ASK}`], [4, `# ${ASK}`], [5, `<!-- ${ASK} -->`]]) {
    const { r, text, sb } = await scarOnceHere({ 'p.md': md }, `p.md:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = md.split('\n');
    lines.splice(line - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
    assert.equal(sb.kizu(['scan']).stdout, `p.md:${line}  [ask]  explain this change\n`);
  }
});

test('syntax: PHP — // inside <?php ?> blocks, <!-- --> in the markup around them', async () => {
  const php = '<html>\n<body>\n<?php\n  $a = 1;\n?>\n<p><?= $a ?></p>\n<?php if ($a): ?>\n  <b>yes</b>\n<?php endif; ?>\n</body>\n';
  const expect = { 2: `<!-- ${ASK} -->`, 4: `  // ${ASK}`, 5: `// ${ASK}`, 6: `<!-- ${ASK} -->`, 8: `  <!-- ${ASK} -->`, 10: `<!-- ${ASK} -->` };
  for (const [line, scar] of Object.entries(expect)) {
    const { r, text } = await (line === '2' ? scarOnce : scarOnceHere)({ 'v.php': php }, `v.php:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = php.split('\n');
    lines.splice(Number(line) - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
  }
});

test('syntax: HTML <script> by type — a line in a JSON block moves the scar above the <script> tag, template blocks get <!-- -->', async () => {
  const html = '<script type="application/ld+json">\n{"a": 1,\n "b": 2}\n</script>\n<script type="text/x-template">\n<div>t</div>\n</script>\n<script type="module">\nrun();\n</script>\n';
  for (const [line, scar] of [[5, `<!-- ${ASK} -->`], [6, `<!-- ${ASK} -->`], [9, `// ${ASK}`]]) {
    const { r, text } = await scarOnceHere({ 'i.html': html }, `i.html:${line}`);
    const lines = html.split('\n');
    lines.splice(line - 1, 0, scar);
    assert.deepEqual([r.status, r.stderr, text], [0, '', lines.join('\n')], `line ${line}`);
  }
  // Line 4 too: a line inserted above `</script>` would be the block's last line.
  for (const [line, what] of [[2, 'a script or style element'], [3, 'a script or style element'], [4, 'a script element']]) {
    const j = await scarOnceHere({ 'i.html': html }, `i.html:${line}`);
    assert.deepEqual(
      [j.r.status, j.r.stdout, j.text],
      [0, `scarred i.html:1  <!-- ${ASK} -->\n`, `<!-- ${ASK} -->\n${html}`],
      `line ${line}`,
    );
    assert.equal(
      j.r.stderr,
      `git-kizu: warning: i.html:${line} is inside ${what} (from line 1), where a comment would change the HTML code; the scar went above line 1 instead\n`,
      `line ${line}`,
    );
  }
});

test('syntax: JSX text over several lines — the scar does not split it (React output unchanged, comments removed)', async () => {
  // JSX joins the lines of a text with a space ("hello world"); a {/* */} between them makes two texts ("hello", "world").
  const react = (name, text) => ts.transpileModule(text, { fileName: name, compilerOptions: { removeComments: true, jsx: ts.JsxEmit.React, target: ts.ScriptTarget.ESNext } }).outputText;
  const src = 'export const x = (\n  <p>\n    hello\n    world\n  </p>\n);\n';
  for (const name of ['t.jsx', 't.tsx']) {
    for (const line of [3, 4, 5]) {
      const { r, text, sb } = await scarOnceHere({ [name]: src }, `${name}:${line}`);
      assert.equal(r.status, 0, `${name}:${line}: ${r.stderr}`);
      assert.equal(react(name, text), react(name, src), `${name}:${line}: React output changed:\n${text}`);
      assert.match(sb.kizu(['scan']).stdout, /^t\.[jt]sx:\d+  \[ask\]  explain this change\n$/, `${name}:${line}`);
    }
  }
});
