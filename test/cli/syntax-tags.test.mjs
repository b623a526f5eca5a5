// Grammars take a comment anywhere between tokens, but inside an HTML or XML tag `<!--`
// starts attribute names, inside a <textarea> or <title> it is text, and among JSX children
// `//` and `/* */` are text: there a scar moves above the tag or element, and such lines are
// never scars.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASK, scarOnce, scarOnceHere } from '../helpers/scars.mjs';
import { sandbox } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';

test('syntax: a line among the attributes of a multi-line HTML or XML start tag moves the scar above the tag', async () => {
  const cases = [
    ['p.html', '<div\n  id="a"\n  class="b">\n  text\n</div>\n', 'a start tag', 'HTML'],
    ['c.vue', '<template>\n  <div\n    :x="1"\n    @click="go">hi</div>\n</template>\n', 'a start tag', 'Vue'],
    ['i.svg', '<svg>\n  <path\n    d="M0 0"\n    fill="red"/>\n</svg>\n', 'an empty element tag', 'XML'],
  ];
  for (const [name, src, what, lang] of cases) {
    const start = src.split('\n').findIndex((l) => /<(div|path)$/.test(l)) + 1;
    const indent = src.split('\n')[start - 1].match(/^ */)[0];
    const { r, text } = await (name === 'p.html' ? scarOnce : scarOnceHere)({ [name]: src }, `${name}:${start + 1}`);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [0, `scarred ${name}:${start}  <!-- ${ASK} -->\n`, `git-kizu: warning: ${name}:${start + 1} is inside ${what} (from line ${start}), where a comment would change the ${lang} code; the scar went above line ${start} instead\n`],
      name,
    );
    const lines = src.split('\n');
    lines.splice(start - 1, 0, `${indent}<!-- ${ASK} -->`);
    assert.equal(text, lines.join('\n'), name);
  }
});

test('syntax: a line inside a <textarea> or <title> (text only, <!-- included) moves the scar above the element', async () => {
  const src = '<form>\n  <textarea>\n  a\n  b\n  </textarea>\n</form>\n';
  const { r, text } = await scarOnceHere({ 'f.html': src }, 'f.html:4');
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [0, `scarred f.html:2  <!-- ${ASK} -->\n`, 'git-kizu: warning: f.html:4 is inside an element (from line 2), where a comment would change the HTML code; the scar went above line 2 instead\n'],
  );
  assert.equal(text, `<form>\n  <!-- ${ASK} -->\n  <textarea>\n  a\n  b\n  </textarea>\n</form>\n`);
  const t = await scarOnceHere({ 't.html': '<title>\nx\n</title>\n' }, 't.html:2');
  assert.deepEqual([t.r.status, t.text], [0, `<!-- ${ASK} -->\n<title>\nx\n</title>\n`]);
});

test('scan: a marker line inside a tag, a <textarea>, or among JSX children without braces, is not a scar', async () => {
  const sb = sandbox({
    files: {
      'p.html': '<div\n  <!-- @kizu[ask]: attribute names, not a comment -->\n  id="a">\n  <!-- @kizu[ask]: real -->\n</div>\n<textarea>\n<!-- @kizu[ask]: text of the textarea -->\n</textarea>\n',
      'J.jsx': 'export const J = () => (\n  <div>\n    // @kizu[ask]: JSX text\n    /* @kizu[ask]: JSX text too */\n    {/* @kizu[ask]: real */}\n  </div>\n);\n',
    },
  });
  expectRun(sb, ['scan', '--all', '--json'], {
    status: 1,
    stdout: JSON.stringify([
      { path: 'J.jsx', line: 5, kind: 'ask', body: 'real' },
      { path: 'p.html', line: 4, kind: 'ask', body: 'real' },
    ]) + '\n',
    stderr: '',
  });
});
