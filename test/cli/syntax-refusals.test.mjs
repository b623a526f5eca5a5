// Where `git kizu scar` refuses to write, or changes the body, so that the scar can neither
// break the file nor go unseen by the scanner: continued strings and lines, fenced code, open
// block comments and multi-line strings, line 1 that must stay first, bodies that would end
// the comment or the embedding (XML --, bidi controls, trailing backslash, ?>, </script).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { err } from '../helpers/expect.mjs';
import { ASK, scarOnce } from '../helpers/scars.mjs';

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
  assert.equal(w.text, `# default: C:\\\n# ${ASK}\nx = 1\n`);
  const d = scarOnce({ Dockerfile: 'FROM x\nRUN apt-get install -y \\\n    curl\n' }, 'Dockerfile:3');
  assert.equal(d.r.status, 0, d.r.stderr);
  assert.equal(d.text, `FROM x\nRUN apt-get install -y \\\n    # ${ASK}\n    curl\n`);
  // TeX uses \\ for line breaks and % comments: not a continuation
  const tex = scarOnce({ 't.tex': 'a & b \\\\\nc & d \\\\\n' }, 't.tex:2');
  assert.equal(tex.r.status, 0, tex.r.stderr);
  assert.equal(tex.text, `a & b \\\\\n% ${ASK}\nc & d \\\\\n`);
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
    lines.splice(line - 1, 0, `<!-- ${ASK} -->`);
    assert.equal(text, lines.join('\n'));
    const scan = sb.kizu(['scan']);
    assert.equal(scan.stdout, `doc.md:${line}  [ask]  explain this change\n`);
  }
});

test('syntax: XML/SVG comment bodies never contain "--" (not allowed in XML comments)', () => {
  const { r, text } = scarOnce({ 'i.svg': '<svg>\n  <g/>\n</svg>\n' }, 'i.svg:2', ['-m', 'use --fast, not ---slow-->']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '<svg>\n  <!-- @kizu[ask]: use - -fast, not - - -slow- - > -->\n  <g/>\n</svg>\n');
  const line = text.split('\n')[1];
  const inner = line.slice(line.indexOf('<!--') + 4, line.lastIndexOf('-->'));
  assert.ok(!inner.includes('--') && !inner.endsWith('-'), inner);
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
  assert.equal(m.text, md.replace('\nText\n', `\n<!-- ${ASK} -->\nText\n`));
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
    lines.splice(1, 0, `${open} ${ASK}${open === '<!--' ? ' -->' : ''}`);
    assert.equal(ok.text, lines.join('\n'), name);
  }
  // a --- line without a closing one is a thematic break, not front matter
  const hr = scarOnce({ 'hr.md': '---\ntext\n' }, 'hr.md:1');
  assert.equal(hr.r.status, 0, hr.r.stderr);
  assert.equal(hr.text, `<!-- ${ASK} -->\n---\ntext\n`);
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
    ['m.py', 'S = """\nhello\n"""\nx = 1\n', 2, 1, 'a """ string', 4, `S = """\nhello\n"""\n# ${ASK}\nx = 1\n`],
    ['m.py', "s = r'''a \\''' still\n'''\ny = 2\n", 2, 1, "a ''' string", 3, `s = r'''a \\''' still\n'''\n# ${ASK}\ny = 2\n`],
    ['m.py', 'x = "a # not a comment"  # """ in a comment\ny = 2\n', null, null, null, 2, `x = "a # not a comment"  # """ in a comment\n# ${ASK}\ny = 2\n`],
    ['t.toml', '[a]\ns = """\nx\n"""\nb = 1\n', 3, 2, 'a """ string', 5, `[a]\ns = """\nx\n"""\n# ${ASK}\nb = 1\n`],
    ['c.yaml', 'block: |\n  line one\n\n  line two\nnext: 1\n', 4, 1, 'a YAML block scalar', 5, `block: |\n  line one\n\n  line two\n# ${ASK}\nnext: 1\n`],
    ['c.yml', 'items:\n  - >-\n    folded\n  - plain\n', 3, 2, 'a YAML block scalar', 4, `items:\n  - >-\n    folded\n  # ${ASK}\n  - plain\n`],
    ['s.sh', "cat <<-'EOF' > f\n\tbody\n\tEOF\necho hi\n", 3, 1, 'a here-document', 4, `cat <<-'EOF' > f\n\tbody\n\tEOF\n# ${ASK}\necho hi\n`],
    ['Dockerfile', 'FROM x\nRUN <<EOF\necho a\nEOF\nCMD b\n', 3, 2, 'a here-document', 5, `FROM x\nRUN <<EOF\necho a\nEOF\n# ${ASK}\nCMD b\n`],
    ['b.sh', 'x=$((a<<b))\necho $x\n', null, null, null, 2, `x=$((a<<b))\n# ${ASK}\necho $x\n`],
    ['q.sh', 'echo "std::cout << msg;"\nx=1\n', null, null, null, 2, `echo "std::cout << msg;"\n# ${ASK}\nx=1\n`],
    ['e.sh', 'cat <<\\EOF\nbody\nEOF\n', 2, 1, 'a here-document', 1, `# ${ASK}\ncat <<\\EOF\nbody\nEOF\n`],
    ['h.sh', 'echo "a #b" && cat <<X\nbody\nX\n', 2, 1, 'a here-document', 1, `# ${ASK}\necho "a #b" && cat <<X\nbody\nX\n`],
    ['deploy', '#!/bin/bash\ncat <<EOF\nbody\nEOF\n', 3, 2, 'a here-document', 2, `#!/bin/bash\n# ${ASK}\ncat <<EOF\nbody\nEOF\n`],
    ['g.rb', 'sql = <<~SQL\n  select 1\n  SQL\nx = 1\n', 2, 1, 'a here-document', 4, `sql = <<~SQL\n  select 1\n  SQL\n# ${ASK}\nx = 1\n`],
    ['d.yaml', 'script: &setup |\n  setup line\nb: !!binary |\n  R0lG\n', 4, 3, 'a YAML block scalar', 3, `script: &setup |\n  setup line\n# ${ASK}\nb: !!binary |\n  R0lG\n`],
    ['f.yaml', '- run: |\n    make\n\n- run: make test\n', 2, 1, 'a YAML block scalar', 3, `- run: |\n    make\n# ${ASK}\n\n- run: make test\n`],
    ['g.yaml', '# - run: |\nname: build\n', null, null, null, 2, `# - run: |\n# ${ASK}\nname: build\n`],
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
