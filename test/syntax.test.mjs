// Comment syntax chosen by `git kizu scar`: by file type, by section (HTML/Vue), by JSX
// context (checked with the TypeScript parser), config overrides, and refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ts from 'typescript';
import { writeFileSync } from 'node:fs';
import { sandbox } from './helpers.mjs';

const BODY = '@kizu[ask]: explain this change';
const err = (msg, hint) => `git-kizu: error: ${msg}\nhint: ${hint}\n`;

/** Scars `target` in a fresh repo holding `files`; returns the run and the file text after. */
function scarOnce(files, target, extra = []) {
  const sb = sandbox({ files });
  const r = sb.kizu(['scar', target, ...extra]);
  const rel = target.replace(/:\d+$/, '');
  return { r, text: sb.read(rel), sb };
}

const CASES = [
  ['//', 'rs ts js mjs cjs mts cts java go c h cc cpp hpp cs swift kt kts scala dart php jsx tsx', ''],
  ['#', 'py rb sh bash zsh fish yaml yml toml ini conf r pl ex exs', ''],
  ['<!--', 'html htm xml svg md vue', ' -->'],
  ['/*', 'css scss less', ' */'],
  ['--', 'sql lua hs ada', ''],
  ['%', 'tex erl', ''],
  [';', 'clj lisp el', ''],
];

test('syntax by extension: every listed type gets its comment syntax, no warning', () => {
  for (const [open, exts, close] of CASES) {
    for (const ext of exts.split(' ')) {
      // PHP code lives inside <?php ... ?> (outside it is page markup: see the PHP test)
      const head = ext === 'php' ? '<?php\n' : '';
      const n = ext === 'php' ? 2 : 1;
      const { r, text } = scarOnce({ [`dir/f.${ext}`]: `${head}x\n` }, `dir/f.${ext}:${n}`);
      const line = `${open} ${BODY}${close}`;
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred dir/f.${ext}:${n}  ${line}\n`, ''], ext);
      assert.equal(text, `${head}${line}\nx\n`, ext);
    }
  }
  for (const name of ['Dockerfile', 'Makefile', 'sub/Dockerfile', 'GNUmakefile', 'app.dockerfile', 'Dockerfile.dev', 'UPPER.PY']) {
    const { r, text } = scarOnce({ [name]: 'FROM x\n' }, `${name}:1`);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred ${name}:1  # ${BODY}\n`, ''], name);
    assert.equal(text, `# ${BODY}\nFROM x\n`, name);
  }
});

test('syntax: HTML and Vue sections — template/markup <!-- -->, <script> //, <style> /* */', () => {
  const vue = '<template>\n  <div>{{ msg }}</div>\n</template>\n<script setup lang="ts">\nconst msg = \'hi\';\n</script>\n<style scoped>\ndiv { color: red; }\n</style>\n';
  const expect = {
    2: `  <!-- ${BODY} -->`,
    5: `// ${BODY}`,
    // Above a closing tag the scar is still inside that section.
    6: `// ${BODY}`,
    7: `<!-- ${BODY} -->`,
    8: `/* ${BODY} */`,
    9: `/* ${BODY} */`,
    10: `<!-- ${BODY} -->`,
  };
  for (const [line, scar] of Object.entries(expect)) {
    const { r, text } = scarOnce({ 'C.vue': vue }, `C.vue:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = vue.split('\n');
    lines.splice(Number(line) - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
  }
  const html = '<html>\n<head>\n<style>\n  p { margin: 0 }\n</style>\n<script src="a.js"></script>\n<script>\n  run();\n</script>\n</head>\n<body><p>x</p></body>\n</html>\n';
  const h = { 2: `<!-- ${BODY} -->`, 4: `  /* ${BODY} */`, 7: `<!-- ${BODY} -->`, 8: `  // ${BODY}`, 11: `<!-- ${BODY} -->` };
  for (const [line, scar] of Object.entries(h)) {
    const { r, text } = scarOnce({ 'i.html': html }, `i.html:${line}`);
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

test('syntax: TSX/JSX by context — verified with the TypeScript parser', () => {
  assert.equal(diagnostics('App.tsx', TSX), 0);
  const cases = [
    [10, `      {/* ${BODY} */}`, 'among JSX children'],
    [14, `    {/* ${BODY} */}`, 'above a closing tag, among children'],
    [5, `  // ${BODY}`, 'plain code'],
    [2, `  // ${BODY}`, 'statement starting a template literal'],
    [8, `      // ${BODY}`, 'JSX attribute line'],
    [12, `        // ${BODY}`, 'parenthesised JSX inside an expression'],
  ];
  for (const name of ['App.tsx', 'App.jsx', 'App.js']) {
    const src = name === 'App.tsx' ? TSX : TSX.replace(': { items: string[] }', '');
    for (const [line, scar, what] of cases) {
      const { r, text } = scarOnce({ [name]: src }, `${name}:${line}`);
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred ${name}:${line}  ${scar.trim()}\n`, ''], `${name} ${what}`);
      const lines = src.split('\n');
      lines.splice(line - 1, 0, scar);
      assert.equal(text, lines.join('\n'), `${name} ${what}`);
      assert.ok(diagnostics(name, text) <= diagnostics(name, src), `${name} ${what}: parse errors grew`);
    }
    for (const line of [3, 4]) {
      const { r, text } = scarOnce({ [name]: src }, `${name}:${line}`);
      assert.deepEqual(
        [r.status, r.stdout, r.stderr],
        [
          2,
          '',
          err(
            `${name}:${line}: a comment cannot be placed above this line (it is inside a string, template or tag)`,
            `scar the line where the statement or element starts, or use git kizu queue add --at ${name}:${line} "<text>"`,
          ),
        ],
        `${name} template line ${line}`,
      );
      assert.equal(text, src);
    }
  }
});

test('syntax: JS/TS string continued with a backslash is refused, not corrupted', () => {
  const src = "const s = 'abc\\\ndef';\nexport default s;\n";
  for (const name of ['s.ts', 's.js']) {
    const { r, text } = scarOnce({ [name]: src }, `${name}:2`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [
        2,
        '',
        err(
          `${name}:2: a comment cannot be placed above this line (it is inside a string, template or tag)`,
          `scar the line where the statement or element starts, or use git kizu queue add --at ${name}:2 "<text>"`,
        ),
      ],
      name,
    );
    assert.equal(text, src);
  }
});

test('syntax: a line continuing the previous one (trailing backslash) is refused for # and // files', () => {
  const cases = {
    'run.sh': 'docker run \\\n  --rm \\\n  img\necho done\n',
    'm.py': 'x = 1 + \\\n    2 + \\\n    3\n',
    'k.c': '#define TWICE(x) \\\n  ((x) + \\\n   (x))\nint y;\n',
    Makefile: 'all:\n\tcc -o a \\\n\t  a.c \\\n\t  b.c\n',
  };
  for (const [name, src] of Object.entries(cases)) {
    const lines = src.split('\n');
    const start = name === 'Makefile' ? 2 : 1;
    const { r, text } = scarOnce({ [name]: src }, `${name}:${start + 2}`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [
        2,
        '',
        err(
          `${name}:${start + 2}: this line continues line ${start + 1} (it ends with a backslash), so a comment line cannot go between them`,
          `scar the line where the statement starts: git kizu scar ${name}:${start}`,
        ),
      ],
      name,
    );
    assert.equal(text, src, name);
    // the statement's first line is fine
    const ok = scarOnce({ [name]: src }, `${name}:${start}`);
    assert.equal(ok.r.status, 0, `${name}: ${ok.r.stderr}`);
    assert.equal(ok.text.split('\n').length, lines.length + 1);
  }
  // A comment line ending with a backslash continues nothing; Docker drops comment lines
  // inside a continued instruction.
  const w = scarOnce({ 'w.py': '# default: C:\\\nx = 1\n' }, 'w.py:2');
  assert.equal(w.r.status, 0, w.r.stderr);
  assert.equal(w.text, `# default: C:\\\n# ${BODY}\nx = 1\n`);
  const d = scarOnce({ Dockerfile: 'FROM x\nRUN apt-get install -y \\\n    curl\n' }, 'Dockerfile:3');
  assert.equal(d.r.status, 0, d.r.stderr);
  assert.equal(d.text, `FROM x\nRUN apt-get install -y \\\n    # ${BODY}\n    curl\n`);
  // TeX uses \\ for line breaks and % comments: not a continuation
  const tex = scarOnce({ 't.tex': 'a & b \\\\\nc & d \\\\\n' }, 't.tex:2');
  assert.equal(tex.r.status, 0, tex.r.stderr);
  assert.equal(tex.text, `a & b \\\\\n% ${BODY}\nc & d \\\\\n`);
});

test('syntax: markdown line inside a fenced code block is refused (scan would not see the scar)', () => {
  const md = '# T\n\n```js\nconst a = 1;\nconst b = 2;\n```\n\ntext\n';
  for (const line of [4, 5, 6]) {
    const { r, text } = scarOnce({ 'doc.md': md }, `doc.md:${line}`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [
        2,
        '',
        err(
          `doc.md:${line}: this line is inside a fenced code block (opened at line 3), where git kizu scan does not look for scars`,
          `scar the fence instead: git kizu scar doc.md:3, or use git kizu queue add --at doc.md:${line} "<text>"`,
        ),
      ],
      `line ${line}`,
    );
    assert.equal(text, md);
  }
  for (const line of [3, 7, 9]) {
    const { r, text, sb } = scarOnce({ 'doc.md': md }, `doc.md:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = md.split('\n');
    lines.splice(line - 1, 0, `<!-- ${BODY} -->`);
    assert.equal(text, lines.join('\n'));
    const scan = sb.kizu(['scan']);
    assert.equal(scan.stdout, `doc.md:${line}  [ask]  explain this change\n`);
  }
});

test('syntax: formats without comments are refused, suggesting git kizu queue add', () => {
  for (const name of ['data.json', 'nb.ipynb']) {
    const { r, text } = scarOnce({ [name]: '{\n  "a": 1\n}\n' }, `${name}:2`);
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

test('syntax: unknown text format gets # with a warning; config scar.syntax overrides', () => {
  const u = scarOnce({ 'notes.txt': 'hello\n' }, 'notes.txt:1');
  assert.deepEqual(
    [u.r.status, u.r.stdout, u.r.stderr],
    [0, `scarred notes.txt:1  # ${BODY}\n`, 'git-kizu: warning: notes.txt: unknown file type, using "#" comments (set scar.syntax in the config to choose)\n'],
  );
  assert.equal(u.text, `# ${BODY}\nhello\n`);
  const cfg = JSON.stringify({ scar: { syntax: { txt: '//', '.ts': '/* */', Jenkinsfile: '//', json: '//', md: 'none' } } });
  for (const [name, line] of [
    ['notes.txt', `// ${BODY}`],
    ['a.ts', `/* ${BODY} */`],
    ['Jenkinsfile', `// ${BODY}`],
    ['c.json', `// ${BODY}`],
  ]) {
    const { r, text } = scarOnce({ '.kizurc.json': cfg, [name]: 'x\n' }, `${name}:1`);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred ${name}:1  ${line}\n`, ''], name);
    assert.equal(text, `${line}\nx\n`, name);
  }
  const none = scarOnce({ '.kizurc.json': cfg, 'r.md': '# x\n' }, 'r.md:1');
  assert.deepEqual(
    [none.r.status, none.r.stderr],
    [2, err('r.md: this file type has no comment syntax, so a scar cannot be written into it', 'queue the remark instead: git kizu queue add --at r.md:1 "<text>" (or set scar.syntax for this extension in the config)')],
  );
  assert.equal(none.text, '# x\n');
});

test('syntax: XML/SVG comment bodies never contain "--" (not allowed in XML comments)', () => {
  const { r, text } = scarOnce({ 'i.svg': '<svg>\n  <g/>\n</svg>\n' }, 'i.svg:2', ['-m', 'use --fast, not ---slow-->']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '<svg>\n  <!-- @kizu[ask]: use - -fast, not - - -slow- - > -->\n  <g/>\n</svg>\n');
  const line = text.split('\n')[1];
  const inner = line.slice(line.indexOf('<!--') + 4, line.lastIndexOf('-->'));
  assert.ok(!inner.includes('--') && !inner.endsWith('-'), inner);
});

test('syntax: line terminators other than CR/LF in the body are folded (U+2028 ends a JS // comment)', () => {
  const { r, text } = scarOnce({ 'a.js': 'run();\n' }, 'a.js:1', ['-m', 'one\u2028two\u2029three\u0085four\vfive\fsix\u001bseven']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '// @kizu[ask]: one two three four five six seven\nrun();\n');
  assert.equal(diagnostics('a.js', text), 0);
});

test('syntax: bidirectional control characters in the body are folded (rustc rejects them in comments)', () => {
  const { r, text } = scarOnce({ 'lib.rs': 'fn main() {}\n' }, 'lib.rs:1', ['-m', 'a\u202eb\u2066c\u2069d\u202ae']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '// @kizu[ask]: a b c d e\nfn main() {}\n');
});

test('syntax: a line comment body never ends in a backslash (C and make would splice the next line)', () => {
  const { r, text } = scarOnce({ 'a.c': 'int a;\nint b;\n' }, 'a.c:2', ['-m', 'path is C:\\dir\\']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, 'int a;\n// @kizu[ask]: path is C:\\dir\\.\nint b;\n');
  const sb2 = scarOnce({ 'a.c': text }, 'a.c:3', ['-m', 'path is C:\\dir\\']);
  assert.deepEqual([sb2.r.status, sb2.r.stdout], [0, 'unchanged: a.c:2 already holds this scar\n']);
});

test('syntax: a line inside an open /* */ or <!-- --> block comment is refused (the scar would close it early)', () => {
  const css = '/* multi\n   line */\na { }\n/* open\n  still\n*/\nb { }\n';
  for (const [line, open] of [[5, 4], [6, 4]]) {
    const { r, text } = scarOnce({ 's.css': css }, `s.css:${line}`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [2, '', err(`s.css:${line}: this line is inside a /* */ comment (opened at line ${open}); the scar's */ would end it early`, `scar the line where that comment starts: git kizu scar s.css:${open}`)],
    );
    assert.equal(text, css);
  }
  for (const line of [1, 3, 4, 7]) {
    const { r } = scarOnce({ 's.css': css }, `s.css:${line}`);
    assert.equal(r.status, 0, `line ${line}: ${r.stderr}`);
  }
  const html = '<p>a</p>\n<!--\n  note\n-->\n<p>b</p>\n';
  const h = scarOnce({ 'p.html': html }, 'p.html:3');
  assert.deepEqual(
    [h.r.status, h.r.stderr],
    [2, err("p.html:3: this line is inside a <!-- --> comment (opened at line 2); the scar's --> would end it early", 'scar the line where that comment starts: git kizu scar p.html:2')],
  );
  assert.equal(h.text, html);
  assert.equal(scarOnce({ 'p.html': html }, 'p.html:5').r.status, 0);
  // in Markdown, `<!--` in a code span or a fence is literal text, not an open comment
  const md = 'Write `<!--` to start a comment.\n\n```html\n<!--\n```\n\nText\n';
  const m = scarOnce({ 'r.md': md }, 'r.md:7');
  assert.equal(m.r.status, 0, m.r.stderr);
  assert.equal(m.text, md.replace('\nText\n', `\n<!-- ${BODY} -->\nText\n`));
});

test('syntax: file names that are Object.prototype keys (toString, a.constructor, __proto__) are just unknown types', () => {
  const sb = sandbox();
  for (const name of ['toString', 'a.constructor', '__proto__', 'x.hasOwnProperty']) {
    writeFileSync(sb.path(name), 'x\n');
    const r = sb.kizu(['scar', `${name}:1`]);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [0, `scarred ${name}:1  # ${BODY}\n`, `git-kizu: warning: ${name}: unknown file type, using "#" comments (set scar.syntax in the config to choose)\n`],
      name,
    );
    assert.equal(sb.read(name), `# ${BODY}\nx\n`);
  }
  writeFileSync(sb.path('.kizurc.json'), JSON.stringify({ scar: { syntax: { constructor: '//' } } }));
  writeFileSync(sb.path('b.constructor'), 'x\n');
  const r = sb.kizu(['scar', 'b.constructor:1']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred b.constructor:1  // ${BODY}\n`, '']);
});

test('syntax: line 1 that must stay first (#!, <?xml, <?php, front matter) is refused; line 2 is fine', () => {
  const cases = {
    'run.sh': '#!/bin/sh\necho hi\n',
    'cli.js': '#!/usr/bin/env node\nconsole.log(1);\n',
    'tool.py': '#!/usr/bin/env python3\nprint(1)\n',
    'i.svg': '<?xml version="1.0"?>\n<svg/>\n',
    'index.php': '<?php\necho 1;\n',
    'post.md': '---\ntitle: x\n---\nBody\n',
  };
  const roles = {
    'run.sh': 'a #! interpreter line',
    'cli.js': 'a #! interpreter line',
    'tool.py': 'a #! interpreter line',
    'i.svg': 'an XML declaration',
    'index.php': 'the PHP opening tag',
    'post.md': 'the start of the front matter',
  };
  const second = { 'run.sh': '#', 'cli.js': '//', 'tool.py': '#', 'i.svg': '<!--', 'index.php': '//', 'post.md': '#' };
  for (const [name, src] of Object.entries(cases)) {
    const { r, text } = scarOnce({ [name]: src }, `${name}:1`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [2, '', err(`${name}:1: line 1 is ${roles[name]}, which must stay the first line of the file`, `scar line 2 instead: git kizu scar ${name}:2`)],
      name,
    );
    assert.equal(text, src, name);
    const ok = scarOnce({ [name]: src }, `${name}:2`);
    assert.equal(ok.r.status, 0, `${name}: ${ok.r.stderr}`);
    const lines = src.split('\n');
    const open = second[name];
    lines.splice(1, 0, `${open} ${BODY}${open === '<!--' ? ' -->' : ''}`);
    assert.equal(ok.text, lines.join('\n'), name);
  }
  // a --- line without a closing one is a thematic break, not front matter
  const hr = scarOnce({ 'hr.md': '---\ntext\n' }, 'hr.md:1');
  assert.equal(hr.r.status, 0, hr.r.stderr);
  assert.equal(hr.text, `<!-- ${BODY} -->\n---\ntext\n`);
});

test('syntax: Markdown front matter gets # comments (YAML), the body <!-- -->; scan finds both', () => {
  const md = '---\ntitle: x\ntags: [a]\n---\n# Heading\n';
  for (const [line, scar] of [[2, `# ${BODY}`], [3, `# ${BODY}`], [4, `# ${BODY}`], [5, `<!-- ${BODY} -->`]]) {
    const { r, text, sb } = scarOnce({ 'p.md': md }, `p.md:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = md.split('\n');
    lines.splice(line - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
    assert.equal(sb.kizu(['scan']).stdout, `p.md:${line}  [ask]  explain this change\n`);
  }
});

test('syntax: PHP — // inside <?php ?> blocks, <!-- --> in the markup around them', () => {
  const php = '<html>\n<body>\n<?php\n  $a = 1;\n?>\n<p><?= $a ?></p>\n<?php if ($a): ?>\n  <b>yes</b>\n<?php endif; ?>\n</body>\n';
  const expect = { 2: `<!-- ${BODY} -->`, 4: `  // ${BODY}`, 5: `// ${BODY}`, 6: `<!-- ${BODY} -->`, 8: `  <!-- ${BODY} -->`, 10: `<!-- ${BODY} -->` };
  for (const [line, scar] of Object.entries(expect)) {
    const { r, text } = scarOnce({ 'v.php': php }, `v.php:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = php.split('\n');
    lines.splice(Number(line) - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
  }
});

test('syntax: HTML <script> by type — JSON blocks refused, template blocks get <!-- -->', () => {
  const html = '<script type="application/ld+json">\n{"a": 1}\n</script>\n<script type="text/x-template">\n<div>t</div>\n</script>\n<script type="module">\nrun();\n</script>\n';
  const j = scarOnce({ 'i.html': html }, 'i.html:2');
  assert.deepEqual(
    [j.r.status, j.r.stderr],
    [2, err('i.html:2: this line is inside a JSON <script> block, which has no comment syntax', 'scar the <script> line instead, or use git kizu queue add --at i.html:2 "<text>"')],
  );
  assert.equal(j.text, html);
  for (const [line, scar] of [[5, `<!-- ${BODY} -->`], [8, `// ${BODY}`]]) {
    const { r, text } = scarOnce({ 'i.html': html }, `i.html:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = html.split('\n');
    lines.splice(line - 1, 0, scar);
    assert.equal(text, lines.join('\n'), `line ${line}`);
  }
});

test('syntax: bodies cannot end PHP mode (?>) or an HTML <script>/<style> element (</script)', () => {
  const { r, text } = scarOnce({ 'i.html': '<script>\nrun();\n</script>\n' }, 'i.html:2', ['-m', 'a ?> b </script> c </STYLE>']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '<script>\n// @kizu[ask]: a ? > b < /script> c < /STYLE>\nrun();\n</script>\n');
  const p = scarOnce({ 'a.php': '<?php\necho 1;\n' }, 'a.php:2', ['-m', 'why ?> here']);
  assert.equal(p.text, '<?php\n// @kizu[ask]: why ? > here\necho 1;\n');
});


test('syntax: a line inside a multi-line string (Python and TOML triple quotes, YAML block scalars, here-documents) is refused; the line after it is fine', () => {
  const cases = [
    // [file, source, refused line, start line, what, fine line, expected text after scarring the fine line]
    ['m.py', 'S = """\nhello\n"""\nx = 1\n', 2, 1, 'a """ string', 4, `S = """\nhello\n"""\n# ${BODY}\nx = 1\n`],
    ['m.py', "s = r'''a \\''' still\n'''\ny = 2\n", 2, 1, "a ''' string", 3, `s = r'''a \\''' still\n'''\n# ${BODY}\ny = 2\n`],
    ['m.py', 'x = "a # not a comment"  # """ in a comment\ny = 2\n', null, null, null, 2, `x = "a # not a comment"  # """ in a comment\n# ${BODY}\ny = 2\n`],
    ['t.toml', '[a]\ns = """\nx\n"""\nb = 1\n', 3, 2, 'a """ string', 5, `[a]\ns = """\nx\n"""\n# ${BODY}\nb = 1\n`],
    ['c.yaml', 'block: |\n  line one\n\n  line two\nnext: 1\n', 4, 1, 'a YAML block scalar', 5, `block: |\n  line one\n\n  line two\n# ${BODY}\nnext: 1\n`],
    ['c.yml', 'items:\n  - >-\n    folded\n  - plain\n', 3, 2, 'a YAML block scalar', 4, `items:\n  - >-\n    folded\n  # ${BODY}\n  - plain\n`],
    ['s.sh', "cat <<-'EOF' > f\n\tbody\n\tEOF\necho hi\n", 3, 1, 'a here-document', 4, `cat <<-'EOF' > f\n\tbody\n\tEOF\n# ${BODY}\necho hi\n`],
    ['Dockerfile', 'FROM x\nRUN <<EOF\necho a\nEOF\nCMD b\n', 3, 2, 'a here-document', 5, `FROM x\nRUN <<EOF\necho a\nEOF\n# ${BODY}\nCMD b\n`],
    ['b.sh', 'x=$((a<<b))\necho $x\n', null, null, null, 2, `x=$((a<<b))\n# ${BODY}\necho $x\n`],
    ['q.sh', 'echo "std::cout << msg;"\nx=1\n', null, null, null, 2, `echo "std::cout << msg;"\n# ${BODY}\nx=1\n`],
    ['e.sh', 'cat <<\\EOF\nbody\nEOF\n', 2, 1, 'a here-document', 1, `# ${BODY}\ncat <<\\EOF\nbody\nEOF\n`],
    ['h.sh', 'echo "a #b" && cat <<X\nbody\nX\n', 2, 1, 'a here-document', 1, `# ${BODY}\necho "a #b" && cat <<X\nbody\nX\n`],
    ['deploy', '#!/bin/bash\ncat <<EOF\nbody\nEOF\n', 3, 2, 'a here-document', 2, `#!/bin/bash\n# ${BODY}\ncat <<EOF\nbody\nEOF\n`],
    ['g.rb', 'sql = <<~SQL\n  select 1\n  SQL\nx = 1\n', 2, 1, 'a here-document', 4, `sql = <<~SQL\n  select 1\n  SQL\n# ${BODY}\nx = 1\n`],
    ['d.yaml', 'script: &setup |\n  setup line\nb: !!binary |\n  R0lG\n', 4, 3, 'a YAML block scalar', 3, `script: &setup |\n  setup line\n# ${BODY}\nb: !!binary |\n  R0lG\n`],
    ['f.yaml', '- run: |\n    make\n\n- run: make test\n', 2, 1, 'a YAML block scalar', 3, `- run: |\n    make\n# ${BODY}\n\n- run: make test\n`],
    ['g.yaml', '# - run: |\nname: build\n', null, null, null, 2, `# - run: |\n# ${BODY}\nname: build\n`],
  ];
  for (const [name, src, bad, start, what, good, after] of cases) {
    if (bad !== null) {
      const { r, text } = scarOnce({ [name]: src }, `${name}:${bad}`);
      assert.deepEqual(
        [r.status, r.stdout, r.stderr],
        [2, '', err(`${name}:${bad}: this line is inside ${what} (from line ${start}); a scar line there would become part of the string`, `scar the line where it starts: git kizu scar ${name}:${start}, or use git kizu queue add --at ${name}:${bad} "<text>"`)],
        `${name}:${bad}`,
      );
      assert.equal(text, src, name);
    }
    const ok = scarOnce({ [name]: src }, `${name}:${good}`);
    assert.equal(ok.r.status, 0, `${name}:${good}: ${ok.r.stderr}`);
    assert.equal(ok.text, after, `${name}:${good}`);
  }
});
