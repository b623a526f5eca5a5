// Where a comment line changes what a document is, apart from strings and tags: a Markdown
// paragraph, list or table that an HTML comment would split; a Vue or Svelte `{…}` expression
// in text holding `>`; and a scar.syntax override that is no comment of a language with a
// grammar (the scar would be invisible to scan).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASK, scarOnce, scarOnceHere } from '../helpers/scars.mjs';
import { err } from '../helpers/expect.mjs';

test('syntax: Markdown — a scar above a line that continues a paragraph, list or table goes above the block', async () => {
  const md = '# Title\n\nText para\ncontinues.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y\n# H\ntext\n';
  for (const [asked, start] of [[4, 3], [8, 6], [11, 10]]) {
    const { r, text } = await (asked === 4 ? scarOnce : scarOnceHere)({ 'r.md': md }, `r.md:${asked}`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [0, `scarred r.md:${start}  <!-- ${ASK} -->\n`, `git-kizu: warning: r.md:${asked} is inside a paragraph, list or table (from line ${start}), which a comment line would split; the scar went above line ${start} instead\n`],
      `r.md:${asked}`,
    );
    const lines = md.split('\n');
    lines.splice(start - 1, 0, `<!-- ${ASK} -->`);
    assert.equal(text, lines.join('\n'));
  }
  // After a heading, a blank line or at a block's first line, the line itself.
  for (const asked of [3, 13, 6]) {
    const { r } = await scarOnceHere({ 'r.md': md }, `r.md:${asked}`);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `scarred r.md:${asked}  <!-- ${ASK} -->\n`, ''], `r.md:${asked}`);
  }
});

test('syntax: Vue and Svelte — a `>` inside a {{ }} or { } expression in text does not end it: the scar goes above the element', async () => {
  const cases = [
    ['f.vue', '<template>\n  <p>{{ n >\n     0 }}</p>\n</template>\n', 3, 2, 'Vue', '  '],
    ['g.svelte', '<p>{n >\n  0}</p>\n', 2, 1, 'Svelte', ''],
  ];
  for (const [name, src, asked, start, lang, indent] of cases) {
    const { r, text } = await scarOnceHere({ [name]: src }, `${name}:${asked}`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [0, `scarred ${name}:${start}  <!-- ${ASK} -->\n`, `git-kizu: warning: ${name}:${asked} is inside text (from line ${start}), where a comment would change the ${lang} code; the scar went above line ${start} instead\n`],
      name,
    );
    const lines = src.split('\n');
    lines.splice(start - 1, 0, `${indent}<!-- ${ASK} -->`);
    assert.equal(text, lines.join('\n'), name);
  }
});

test('syntax: a scar.syntax override in a language with a grammar is still placed by the parser, and refused where it is no comment', async () => {
  const config = JSON.stringify({ scar: { syntax: { ts: '/* */', py: '/* */' } } });
  const ts = await scarOnceHere({ '.kizurc.json': config, 'e.ts': 'let a = 1;\nlet b = `x\ny`;\n' }, 'e.ts:3');
  assert.deepEqual(
    [ts.r.status, ts.r.stdout, ts.r.stderr],
    [0, `scarred e.ts:2  /* ${ASK} */\n`, 'git-kizu: warning: e.ts:3 is inside a template string (from line 2), where a comment would change the TypeScript code; the scar went above line 2 instead\n'],
  );
  assert.equal(ts.text, `let a = 1;\n/* ${ASK} */\nlet b = \`x\ny\`;\n`);
  assert.equal(ts.sb.kizu(['scan']).stdout, 'e.ts:2  [ask]  explain this change\n');
  const py = await scarOnceHere({ '.kizurc.json': config, 'd.py': 'x = 1\ny = 2\n' }, 'd.py:2');
  assert.deepEqual(
    [py.r.status, py.r.stdout, py.r.stderr],
    [
      2,
      '',
      err(
        'd.py:2: scar.syntax sets "/* */" for this file, which is not a comment of Python here nor on the lines above (scan would not see the scar)',
        'remove the scar.syntax entry for this file type, or use git kizu queue add --at d.py:2 "<text>"',
      ),
    ],
  );
  assert.equal(py.text, 'x = 1\ny = 2\n');
});
