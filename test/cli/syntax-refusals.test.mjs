// Where `git kizu scar` moves the scar, refuses to write, or changes the body, so that the
// scar can neither break the file nor go unseen by the scanner: continued lines, open block
// comments and multi-line strings (the scar goes above the line where they start), fenced
// code, line 1 that must stay first (refused), bodies that would end the comment or the
// embedding (XML --, bidi controls, trailing backslash, ?>, </script).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { err } from '../helpers/expect.mjs';
import { ASK, scarOnce, scarOnceHere } from '../helpers/scars.mjs';

/** Scars line `asked` of `name` holding `src`, expecting the scar (comment opener `open`) above line `start` with a warning saying `why`; scarring line `start` itself gives the same file, silently. */
async function expectMovedAbove(name, src, asked, start, why, open = '#') {
  const lines = src.split('\n');
  const { r, text } = await scarOnceHere({ [name]: src }, `${name}:${asked}`);
  const close = { '/*': ' */', '<!--': ' -->' }[open] ?? '';
  const scar = `${/^\s*/.exec(lines[start - 1])[0]}${open} ${ASK}${close}`;
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [0, `scarred ${name}:${start}  ${scar.trimStart()}\n`, `git-kizu: warning: ${name}:${asked} ${why}; the scar went above line ${start} instead\n`],
    `${name}:${asked}`,
  );
  assert.equal(text, [...lines.slice(0, start - 1), scar, ...lines.slice(start - 1)].join('\n'), `${name}:${asked}`);
  const ok = await scarOnceHere({ [name]: src }, `${name}:${start}`);
  assert.deepEqual([ok.r.status, ok.r.stderr, ok.text], [0, '', text], `${name}:${start}`);
}

test('syntax: a line continuing the previous one (trailing backslash) moves the scar above the line where the statement starts, for # and // files', async () => {
  for (const asked of [2, 3]) {
    await expectMovedAbove('run.sh', 'docker run \\\n  --rm \\\n  img\necho done\n', asked, 1, `continues line ${asked - 1} (it ends with a backslash), where a comment would change the Shell code`);
    await expectMovedAbove('k.c', '#define TWICE(x) \\\n  ((x) + \\\n   (x))\nint y;\n', asked, 1, `continues line ${asked - 1} (it ends with a backslash), where a comment would change the C code`, '//');
    await expectMovedAbove('Makefile', 'all:\n\tcc -o a \\\n\t  a.c \\\n\t  b.c\n', asked + 1, 2, `continues line ${asked} (it ends with a backslash)`);
  }
  // A comment line ending with a backslash continues nothing; Docker drops comment lines
  // inside a continued instruction.
  const w = await scarOnceHere({ 'w.py': '# default: C:\\\nx = 1\n' }, 'w.py:2');
  assert.equal(w.r.status, 0, w.r.stderr);
  assert.equal(w.text, `# default: C:\\\n# ${ASK}\nx = 1\n`);
  const d = await scarOnceHere({ Dockerfile: 'FROM x\nRUN apt-get install -y \\\n    curl\n' }, 'Dockerfile:3');
  assert.equal(d.r.status, 0, d.r.stderr);
  assert.equal(d.text, `FROM x\nRUN apt-get install -y \\\n    # ${ASK}\n    curl\n`);
  // TeX uses \\ for line breaks and % comments: not a continuation
  const tex = await scarOnceHere({ 't.tex': 'a & b \\\\\nc & d \\\\\n' }, 't.tex:2');
  assert.equal(tex.r.status, 0, tex.r.stderr);
  assert.equal(tex.text, `a & b \\\\\n% ${ASK}\nc & d \\\\\n`);
});

test('syntax: Python — a line continuing the previous one (trailing backslash) moves the scar above the line where the statement starts', async () => {
  // Python joins a line ending in a backslash with the next: a comment line there ends the
  // statement early (SyntaxError), though tree-sitter-python parses it without an error.
  for (const asked of [2, 3]) {
    await expectMovedAbove('m.py', 'x = 1 + \\\n    2 + \\\n    3\n', asked, 1, `continues line ${asked - 1} (it ends with a backslash), where a comment would change the Python code`);
  }
  await expectMovedAbove('c.py', 'if a and \\\n   b:\n    pass\n', 2, 1, 'continues line 1 (it ends with a backslash), where a comment would change the Python code');
  // A string continued with a backslash: the scar line would be inside the string (unterminated).
  await expectMovedAbove('s.py', 's = "abc\\\ndef"\n', 2, 1, 'is inside a string (from line 1), where a comment would change the Python code');
});

test('syntax: a line inside a multi-line HTML/Vue start tag moves the scar above the tag (a <!-- --> inside a tag is attributes, not a comment)', async () => {
  // tree-sitter-html parses a comment anywhere as an extra, even between attributes.
  for (const [name, src, asked, start, lang] of [
    ['a.html', '<div\n  class="a\n  b"\n  id=x>\n</div>\n', 3, 1, 'HTML'],
    ['t.vue', '<template>\n  <div\n    :a="x\n    y"></div>\n</template>\n', 4, 2, 'Vue'],
    ['b.html', '<p>\n<img\n  src="a.png"\n  alt="x">\n</p>\n', 3, 2, 'HTML'],
  ]) {
    const { r, text } = await scarOnceHere({ [name]: src }, `${name}:${asked}`);
    const lines = src.split('\n');
    const scar = `${/^\s*/.exec(lines[start - 1])[0]}<!-- ${ASK} -->`;
    assert.deepEqual([r.status, r.stdout, text], [0, `scarred ${name}:${start}  <!-- ${ASK} -->\n`, [...lines.slice(0, start - 1), scar, ...lines.slice(start - 1)].join('\n')], `${name}:${asked}`);
    assert.equal(r.stderr, `git-kizu: warning: ${name}:${asked} is inside a start tag (from line ${start}), where a comment would change the ${lang} code; the scar went above line ${start} instead\n`, `${name}:${asked}`);
  }
});

test('syntax: a line inside a Perl here-document moves the scar above the line where it starts', async () => {
  // The Perl grammar does not parse here-documents (`print <<EOT;` reads as a shift), so its body looks like code.
  const src = 'my $x = 1;\nprint <<EOT;\nbody\nEOT\n';
  const { r, text } = scarOnce({ 'e.pl': src }, 'e.pl:3');
  assert.deepEqual([r.status, r.stdout, text], [0, `scarred e.pl:2  # ${ASK}\n`, `my $x = 1;\n# ${ASK}\nprint <<EOT;\nbody\nEOT\n`]);
  assert.match(r.stderr, /^git-kizu: warning: e\.pl:3 is inside a here-document \(from line 2\)[,;] .*the scar went above line 2 instead\n$/);
});

test('syntax: markdown line inside a fenced code block is refused (scan would not see the scar)', async () => {
  const md = '# T\n\n```js\nconst a = 1;\nconst b = 2;\n```\n\ntext\n';
  for (const line of [4, 5, 6]) {
    const { r, text } = await (line === 4 ? scarOnce : scarOnceHere)({ 'doc.md': md }, `doc.md:${line}`);
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
    const { r, text, sb } = await scarOnceHere({ 'doc.md': md }, `doc.md:${line}`);
    assert.equal(r.status, 0, r.stderr);
    const lines = md.split('\n');
    lines.splice(line - 1, 0, `<!-- ${ASK} -->`);
    assert.equal(text, lines.join('\n'));
    const scan = sb.kizu(['scan']);
    assert.equal(scan.stdout, `doc.md:${line}  [ask]  explain this change\n`);
  }
});

test('syntax: XML/SVG comment bodies never contain "--" (not allowed in XML comments)', async () => {
  const { r, text } = await scarOnceHere({ 'i.svg': '<svg>\n  <g/>\n</svg>\n' }, 'i.svg:2', ['-m', 'use --fast, not ---slow-->']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '<svg>\n  <!-- @kizu[ask]: use - -fast, not - - -slow- - > -->\n  <g/>\n</svg>\n');
  const line = text.split('\n')[1];
  const inner = line.slice(line.indexOf('<!--') + 4, line.lastIndexOf('-->'));
  assert.ok(!inner.includes('--') && !inner.endsWith('-'), inner);
});

test('syntax: bidirectional control characters in the body are folded (rustc rejects them in comments)', async () => {
  const { r, text } = await scarOnceHere({ 'lib.rs': 'fn main() {}\n' }, 'lib.rs:1', ['-m', 'a\u202eb\u2066c\u2069d\u202ae']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '// @kizu[ask]: a b c d e\nfn main() {}\n');
});

test('syntax: a line comment body never ends in a backslash (C and make would splice the next line)', async () => {
  const { r, text } = await scarOnceHere({ 'a.c': 'int a;\nint b;\n' }, 'a.c:2', ['-m', 'path is C:\\dir\\']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, 'int a;\n// @kizu[ask]: path is C:\\dir\\.\nint b;\n');
  const sb2 = await scarOnceHere({ 'a.c': text }, 'a.c:3', ['-m', 'path is C:\\dir\\']);
  assert.deepEqual([sb2.r.status, sb2.r.stdout], [0, 'unchanged: a.c:2 already holds this scar\n']);
});

test('syntax: a line inside an open /* */ or <!-- --> block comment moves the scar above the line where the comment starts (its closer would end that comment early)', async () => {
  const css = '/* multi\n   line */\na { }\n/* open\n  still\n*/\nb { }\n';
  for (const line of [5, 6]) {
    await expectMovedAbove('s.css', css, line, 4, 'is inside a comment (from line 4), where a comment would change the CSS code', '/*');
  }
  for (const line of [1, 3, 4, 7]) {
    const { r, text } = await scarOnceHere({ 's.css': css }, `s.css:${line}`);
    const lines = css.split('\n');
    lines.splice(line - 1, 0, `/* ${ASK} */`);
    assert.deepEqual([r.status, r.stderr, text], [0, '', lines.join('\n')], `line ${line}`);
  }
  // Without a grammar (Less: the lexical rule), the same move.
  const less = '@a: 1;\n/* open\n  still\n*/\nb { }\n';
  const l = await scarOnceHere({ 's.less': less }, 's.less:3');
  assert.deepEqual(
    [l.r.status, l.r.stdout, l.r.stderr, l.text],
    [0, `scarred s.less:2  /* ${ASK} */\n`, 'git-kizu: warning: s.less:3 is inside a /* */ comment (from line 2); the scar went above line 2 instead\n', `@a: 1;\n/* ${ASK} */\n/* open\n  still\n*/\nb { }\n`],
  );
  // in Markdown, `<!--` in a code span or a fence is literal text, not an open comment
  const md = 'Write `<!--` to start a comment.\n\n```html\n<!--\n```\n\nText\n';
  const m = await scarOnceHere({ 'r.md': md }, 'r.md:7');
  assert.equal(m.r.status, 0, m.r.stderr);
  assert.equal(m.text, md.replace('\nText\n', `\n<!-- ${ASK} -->\nText\n`));
  // ... but an open `<!--` in the text is one: the line rule moves the scar above it.
  const md2 = 'Intro\n<!--\n  note\n-->\nText\n';
  const m2 = await scarOnceHere({ 'n.md': md2 }, 'n.md:3');
  assert.deepEqual(
    [m2.r.status, m2.r.stderr, m2.text],
    [0, "git-kizu: warning: n.md:3 is inside a <!-- --> comment (opened at line 2), which the scar's --> would end early; the scar went above line 2 instead\n", `Intro\n<!-- ${ASK} -->\n<!--\n  note\n-->\nText\n`],
  );
  const html = '<p>a</p>\n<!--\n  note\n-->\n<p>b</p>\n';
  const h5 = await scarOnceHere({ 'p.html': html }, 'p.html:5');
  assert.deepEqual([h5.r.status, h5.r.stderr, h5.text], [0, '', html.replace('<p>b', `<!-- ${ASK} -->\n<p>b`)]);
  await expectMovedAbove('p.html', html, 3, 2, 'is inside a comment (from line 2), where a comment would change the HTML code', '<!--');
});

test('syntax: line 1 that must stay first (#!, <?xml, <?php, front matter) is refused; line 2 is fine', async () => {
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
    const { r, text } = await scarOnceHere({ [name]: src }, `${name}:1`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [2, '', err(`${name}:1: line 1 is ${roles[name]}, which must stay the first line of the file`, `scar line 2 instead: git kizu scar ${name}:2`)],
      name,
    );
    assert.equal(text, src, name);
    const ok = await scarOnceHere({ [name]: src }, `${name}:2`);
    assert.equal(ok.r.status, 0, `${name}: ${ok.r.stderr}`);
    const lines = src.split('\n');
    const open = second[name];
    lines.splice(1, 0, `${open} ${ASK}${open === '<!--' ? ' -->' : ''}`);
    assert.equal(ok.text, lines.join('\n'), name);
  }
  // a --- line without a closing one is a thematic break, not front matter
  const hr = await scarOnceHere({ 'hr.md': '---\ntext\n' }, 'hr.md:1');
  assert.equal(hr.r.status, 0, hr.r.stderr);
  assert.equal(hr.text, `<!-- ${ASK} -->\n---\ntext\n`);
});

test('syntax: bodies cannot end PHP mode (?>) or an HTML <script>/<style> element (</script)', async () => {
  const { r, text } = await scarOnceHere({ 'i.html': '<script>\nrun();\n</script>\n' }, 'i.html:2', ['-m', 'a ?> b </script> c </STYLE>']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(text, '<script>\n// @kizu[ask]: a ? > b < /script> c < /STYLE>\nrun();\n</script>\n');
  const p = await scarOnceHere({ 'a.php': '<?php\necho 1;\n' }, 'a.php:2', ['-m', 'why ?> here']);
  assert.equal(p.text, '<?php\n// @kizu[ask]: why ? > here\necho 1;\n');
});

test('syntax: a line inside a multi-line string (Python and TOML triple quotes, YAML block scalars, here-documents) moves the scar above the line where the string starts; the line after it is fine', async () => {
  const cases = [
    // [file, source, line inside the string, line where it starts, the warning's words for it, fine line, expected text after scarring the fine line]
    ['m.py', 'S = """\nhello\n"""\nx = 1\n', 2, 1, 'a string (from line 1), where a comment would change the Python code', 4, `S = """\nhello\n"""\n# ${ASK}\nx = 1\n`],
    ['m.py', "s = r'''a \\''' still\n'''\ny = 2\n", 2, 1, 'a string (from line 1), where a comment would change the Python code', 3, `s = r'''a \\''' still\n'''\n# ${ASK}\ny = 2\n`],
    ['m.py', 'x = "a # not a comment"  # """ in a comment\ny = 2\n', null, null, null, 2, `x = "a # not a comment"  # """ in a comment\n# ${ASK}\ny = 2\n`],
    ['t.toml', '[a]\ns = """\nx\n"""\nb = 1\n', 3, 2, 'a """ string (from line 2)', 5, `[a]\ns = """\nx\n"""\n# ${ASK}\nb = 1\n`],
    ['c.yaml', 'block: |\n  line one\n\n  line two\nnext: 1\n', 4, 1, 'a block scalar (from line 1), where a comment would change the YAML code', 5, `block: |\n  line one\n\n  line two\n# ${ASK}\nnext: 1\n`],
    ['c.yml', 'items:\n  - >-\n    folded\n  - plain\n', 3, 2, 'a block scalar (from line 2), where a comment would change the YAML code', 4, `items:\n  - >-\n    folded\n  # ${ASK}\n  - plain\n`],
    ['s.sh', "cat <<-'EOF' > f\n\tbody\n\tEOF\necho hi\n", 3, 1, 'a here-document (from line 1), where a comment would change the Shell code', 4, `cat <<-'EOF' > f\n\tbody\n\tEOF\n# ${ASK}\necho hi\n`],
    ['Dockerfile', 'FROM x\nRUN <<EOF\necho a\nEOF\nCMD b\n', 3, 2, 'a here-document (from line 2)', 5, `FROM x\nRUN <<EOF\necho a\nEOF\n# ${ASK}\nCMD b\n`],
    ['b.sh', 'x=$((a<<b))\necho $x\n', null, null, null, 2, `x=$((a<<b))\n# ${ASK}\necho $x\n`],
    ['q.sh', 'echo "std::cout << msg;"\nx=1\n', null, null, null, 2, `echo "std::cout << msg;"\n# ${ASK}\nx=1\n`],
    ['e.sh', 'cat <<\\EOF\nbody\nEOF\n', 2, 1, 'a here-document (from line 1), where a comment would change the Shell code', 1, `# ${ASK}\ncat <<\\EOF\nbody\nEOF\n`],
    ['h.sh', 'echo "a #b" && cat <<X\nbody\nX\n', 2, 1, 'a here-document (from line 1), where a comment would change the Shell code', 1, `# ${ASK}\necho "a #b" && cat <<X\nbody\nX\n`],
    ['deploy', '#!/bin/bash\ncat <<EOF\nbody\nEOF\n', 3, 2, 'a here-document (from line 2), where a comment would change the Shell code', 2, `#!/bin/bash\n# ${ASK}\ncat <<EOF\nbody\nEOF\n`],
    ['g.rb', 'sql = <<~SQL\n  select 1\n  SQL\nx = 1\n', 2, 1, 'a here-document (from line 1), where a comment would change the Ruby code', 4, `sql = <<~SQL\n  select 1\n  SQL\n# ${ASK}\nx = 1\n`],
    ['d.yaml', 'script: &setup |\n  setup line\nb: !!binary |\n  R0lG\n', 4, 3, 'a block scalar (from line 3), where a comment would change the YAML code', 3, `script: &setup |\n  setup line\n# ${ASK}\nb: !!binary |\n  R0lG\n`],
    ['f.yaml', '- run: |\n    make\n\n- run: make test\n', 2, 1, 'a block scalar (from line 1), where a comment would change the YAML code', 3, `- run: |\n    make\n# ${ASK}\n\n- run: make test\n`],
    ['g.yaml', '# - run: |\nname: build\n', null, null, null, 2, `# - run: |\n# ${ASK}\nname: build\n`],
  ];
  for (const [name, src, bad, start, what, good, after] of cases) {
    if (bad !== null) {
      const { r, text } = await scarOnceHere({ [name]: src }, `${name}:${bad}`);
      const lines = src.split('\n');
      const scar = `${/^\s*/.exec(lines[start - 1])[0]}# ${ASK}`;
      assert.deepEqual(
        [r.status, r.stdout, r.stderr, text],
        [
          0,
          `scarred ${name}:${start}  # ${ASK}\n`,
          `git-kizu: warning: ${name}:${bad} is inside ${what}; the scar went above line ${start} instead\n`,
          [...lines.slice(0, start - 1), scar, ...lines.slice(start - 1)].join('\n'),
        ],
        `${name}:${bad}`,
      );
    }
    const ok = await scarOnceHere({ [name]: src }, `${name}:${good}`);
    assert.deepEqual([ok.r.status, ok.r.stderr, ok.text], [0, '', after], `${name}:${good}`);
  }
});
